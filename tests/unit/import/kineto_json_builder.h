// Writes Kineto-format Chrome trace JSON text for tests: top-level keys in Kineto's order, events
// one per line, times as µs with three decimals relative to baseTimeNanoseconds. Events are kept
// as text so a test can drop, reorder or corrupt any of them before Build().
#ifndef RBLNSIM_TESTS_UNIT_IMPORT_KINETO_JSON_BUILDER_H_
#define RBLNSIM_TESTS_UNIT_IMPORT_KINETO_JSON_BUILDER_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rblnsim::testing {

// ns -> "123.456" (µs, three decimals), as Kineto prints times.
inline std::string UsText(int64_t ns) {
  const char* sign = ns < 0 ? "-" : "";
  const uint64_t abs_ns = ns < 0 ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
  std::string frac = std::to_string(abs_ns % 1000);
  frac.insert(0, 3 - frac.size(), '0');
  return sign + std::to_string(abs_ns / 1000) + "." + frac;
}

class KinetoJsonBuilder {
 public:
  // Kineto's §2.6 example base (a multiple of the 7,889,238 s bucket is not needed here).
  static constexpr int64_t kBaseNs = 1743521598000000000;

  std::vector<std::pair<std::string, std::string>> members_before;  // key, raw JSON
  std::vector<std::pair<std::string, std::string>> members_after;
  std::vector<std::string> events;  // raw JSON objects
  bool with_base = true;

  KinetoJsonBuilder& Add(std::string event) {
    events.push_back(std::move(event));
    return *this;
  }

  KinetoJsonBuilder& ProcessRows(int64_t pid,
                                 const std::string& name,
                                 const std::string& label,
                                 int64_t sort_index) {
    Add(Meta("process_name", pid, 0, "\"name\": \"" + name + "\""));
    Add(Meta("process_labels", pid, 0, "\"labels\": \"" + label + "\""));
    return Add(Meta("process_sort_index", pid, 0, "\"sort_index\": " + std::to_string(sort_index)));
  }

  KinetoJsonBuilder& ThreadRows(int64_t pid, int64_t tid, const std::string& name) {
    Add(Meta("thread_name", pid, tid, "\"name\": \"" + name + "\""));
    return Add(Meta("thread_sort_index", pid, tid, "\"sort_index\": " + std::to_string(tid)));
  }

  // An "X" event; |rel_ns| and |dur_ns| are relative to the base.
  KinetoJsonBuilder& Complete(const std::string& cat,
                              const std::string& name,
                              int64_t pid,
                              int64_t tid,
                              int64_t rel_ns,
                              int64_t dur_ns,
                              const std::string& args = "") {
    std::string e = "{\"ph\": \"X\", \"cat\": \"" + cat + "\", \"name\": \"" + name +
                    "\", \"pid\": " + std::to_string(pid) + ", \"tid\": " + std::to_string(tid) +
                    ", \"ts\": " + UsText(rel_ns) + ", \"dur\": " + UsText(dur_ns);
    if (!args.empty())
      e += ", \"args\": {" + args + "}";
    return Add(e + "}");
  }

  // An ac2g flow end ("s" or "f") at |rel_ns| on pid/tid, as Kineto writes after its event.
  KinetoJsonBuilder& Flow(char ph, uint64_t id, int64_t pid, int64_t tid, int64_t rel_ns) {
    std::string e = std::string("{\"ph\": \"") + ph + "\", \"id\": " + std::to_string(id) +
                    ", \"pid\": " + std::to_string(pid) + ", \"tid\": " + std::to_string(tid) +
                    ", \"ts\": " + UsText(rel_ns) + ", \"cat\": \"ac2g\", \"name\": \"ac2g\"";
    if (ph == 'f')
      e += ", \"bp\": \"e\"";
    return Add(e + "}");
  }

  // Kineto's closing events: the "Trace" span over the window and Record Window End.
  KinetoJsonBuilder& Window(int64_t begin_rel_ns, int64_t end_rel_ns) {
    Add("{\"ph\": \"X\", \"cat\": \"Trace\", \"ts\": " + UsText(begin_rel_ns) +
        ", \"dur\": " + UsText(end_rel_ns - begin_rel_ns) +
        ", \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\", \"name\": \"PyTorch Profiler (0)\", "
        "\"args\": {\"Op count\": 0}}");
    Add("{\"name\": \"process_sort_index\", \"ph\": \"M\", \"ts\": " + UsText(begin_rel_ns) +
        ", \"pid\": \"Spans\", \"tid\": 0, \"args\": {\"sort_index\": 536870912}}");
    Add("{\"name\": \"Iteration Start: PyTorch Profiler\", \"ph\": \"i\", \"s\": \"g\", "
        "\"pid\": \"Traces\", \"tid\": \"Trace PyTorch Profiler\", \"ts\": " +
        UsText(begin_rel_ns) + "}");
    return Add(
        "{\"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\", \"pid\": \"\", "
        "\"tid\": \"\", \"ts\": " +
        UsText(end_rel_ns) + "}");
  }

  std::string Build() const {
    std::string out = "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n  ],\n";
    for (const auto& [key, json] : members_before)
      out += "  \"" + key + "\": " + json + ",\n";
    out += "  \"displayTimeUnit\": \"ms\",\n";
    if (with_base)
      out += "  \"baseTimeNanoseconds\": " + std::to_string(kBaseNs) + ",\n";
    out += "  \"traceEvents\": [\n";
    for (size_t i = 0; i < events.size(); ++i) {
      out += "  " + events[i] + (i + 1 < events.size() ? ",\n" : "\n");
    }
    out += "  ],\n";
    for (const auto& [key, json] : members_after)
      out += "  \"" + key + "\": " + json + ",\n";
    return out + "  \"traceName\": \"test_trace.json\"\n}\n";
  }

 private:
  static std::string Meta(const std::string& name,
                          int64_t pid,
                          int64_t tid,
                          const std::string& args) {
    return "{\"name\": \"" + name +
           "\", \"ph\": \"M\", \"ts\": 0.000, \"pid\": " + std::to_string(pid) +
           ", \"tid\": " + std::to_string(tid) + ", \"args\": {" + args + "}}";
  }
};

// The layout of one valid eager launch, relative to the base (ns).
struct ValidLaunch {
  static constexpr int64_t kHostPid = 4321;
  static constexpr int64_t kDevicePid = 0;
  static constexpr int64_t kLaneTid = 7;
  static constexpr int64_t kLaunchId = 1;
  static constexpr uint64_t kFlowId = 1;
  static constexpr int64_t kOpTs = 100'000, kOpDur = 50'000;          // aten::mm
  static constexpr int64_t kMarkerTs = 110'000, kMarkerDur = 5'000;   // rbln_run
  static constexpr int64_t kKernelTs = 120'000, kKernelDur = 10'000;  // kernel
  static constexpr int64_t kCopyTs = 131'000, kCopyDur = 5'000;       // gpu_memcpy
  static constexpr int64_t kWindowEnd = 1'000'000;
};

// cpu_op aten::mm containing an rbln_run marker (launch_id 1) that starts ac2g flow 1, and two
// device slices of that launch on device pid 0 / lane 7, each finishing the flow; named rows;
// Kineto's Trace span and Record Window End.
inline KinetoJsonBuilder ValidLaunchBuilder() {
  using L = ValidLaunch;
  KinetoJsonBuilder b;
  b.ProcessRows(L::kDevicePid, "RBLN", "RBLN 0", 5000000);
  b.ProcessRows(L::kHostPid, "python3", "CPU", L::kHostPid);
  b.ThreadRows(L::kHostPid, L::kHostPid, "thread 4321 (python3)");
  b.ThreadRows(L::kDevicePid, L::kLaneTid, "lane 7");
  b.Complete("cpu_op", "aten::mm", L::kHostPid, L::kHostPid, L::kOpTs, L::kOpDur,
             "\"External id\": 12, \"Record function id\": 0, \"Ev Idx\": 11");
  b.Complete("privateuse1_runtime", "rbln_run", L::kHostPid, L::kHostPid, L::kMarkerTs,
             L::kMarkerDur, "\"launch_id\": 1");
  b.Flow('s', L::kFlowId, L::kHostPid, L::kHostPid, L::kMarkerTs);
  b.Complete("kernel", "i1_0_W0_mm_0", L::kDevicePid, L::kLaneTid, L::kKernelTs, L::kKernelDur,
             "\"launch_id\": 1, \"categories\": \"Neural Engine\"");
  b.Flow('f', L::kFlowId, L::kDevicePid, L::kLaneTid, L::kKernelTs);
  b.Complete("gpu_memcpy", "i1_0_W0_args_0_0", L::kDevicePid, L::kLaneTid, L::kCopyTs, L::kCopyDur,
             "\"launch_id\": 1");
  b.Flow('f', L::kFlowId, L::kDevicePid, L::kLaneTid, L::kCopyTs);
  b.Window(0, L::kWindowEnd);
  return b;
}

}  // namespace rblnsim::testing

#endif  // RBLNSIM_TESTS_UNIT_IMPORT_KINETO_JSON_BUILDER_H_
