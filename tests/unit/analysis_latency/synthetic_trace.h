// Builds traces in memory the way an eager torch-rbln run lays them out: ATen cpu_op trees on one
// host thread, rbln_run markers with launch_id, and device slices on a device row. Times are ns
// from an arbitrary origin; every helper takes a start and returns where it ended, so a test
// reads like the timeline it describes.
#ifndef RBLNSIM_TESTS_UNIT_ANALYSIS_LATENCY_SYNTHETIC_TRACE_H_
#define RBLNSIM_TESTS_UNIT_ANALYSIS_LATENCY_SYNTHETIC_TRACE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "profiler/trace/trace.h"

namespace rblnsim::testing {

class SyntheticTrace {
 public:
  static constexpr int64_t kHost = 4321;
  static constexpr int64_t kDevice = 100;

  SyntheticTrace() {
    trace.capture_start_ns = 0;
    trace.capture_end_ns = 10'000'000;
  }

  trace::Event& Add(trace::Category cat,
                    std::string name,
                    int64_t pid,
                    int64_t tid,
                    int64_t ts,
                    int64_t dur,
                    std::vector<trace::Arg> args = {}) {
    trace::Event e;
    e.category = cat;
    e.name = name;
    e.pid = pid;
    e.tid = tid;
    e.ts_ns = ts;
    e.dur_ns = dur;
    e.args = args;
    trace.events.push_back(std::move(e));
    return trace.events.back();
  }
  trace::Event& Op(std::string name, int64_t ts, int64_t dur, std::vector<trace::Arg> args = {}) {
    return Add(trace::Category::kCpuOp, std::move(name), kHost, kHost, ts, dur, std::move(args));
  }
  trace::Event& Annotation(std::string name, int64_t ts, int64_t dur) {
    return Add(trace::Category::kUserAnnotation, std::move(name), kHost, kHost, ts, dur);
  }
  trace::Event& Marker(std::optional<int64_t> launch_id, int64_t ts, int64_t dur) {
    std::vector<trace::Arg> args;
    if (launch_id)
      args.push_back({"launch_id", *launch_id});
    return Add(trace::Category::kPrivateUse1Runtime, "rbln_run", kHost, kHost, ts, dur,
               std::move(args));
  }
  trace::Event& Slice(std::string name,
                      std::optional<int64_t> launch_id,
                      int64_t ts,
                      int64_t dur,
                      int64_t tid = 1,
                      trace::Category cat = trace::Category::kKernel) {
    std::vector<trace::Arg> args;
    if (launch_id)
      args.push_back({"launch_id", *launch_id});
    return Add(cat, std::move(name), kDevice, tid, ts, dur, std::move(args));
  }

  // record_shapes args: Input Dims / Input type as Kineto writes them (raw JSON arrays).
  static std::vector<trace::Arg> Inputs(const std::string& dims, const std::string& types) {
    return {{"Input Dims", trace::RawJson{dims}}, {"Input type", trace::RawJson{types}}};
  }

  // .to(cpu): to -> _to_copy -> (empty_strided, copy_ -> _copy_from{bytes}); 100 ns long.
  int64_t Download(int64_t ts, std::optional<int64_t> bytes) {
    Op("aten::to", ts, 100);
    Op("aten::_to_copy", ts + 5, 90);
    Op("aten::empty_strided", ts + 10, 5);
    Op("aten::copy_", ts + 20, 70);
    std::vector<trace::Arg> args;
    if (bytes)
      args.push_back({"bytes", *bytes});
    Op("aten::_copy_from", ts + 25, 60, std::move(args));
    return ts + 100;
  }
  // copy_ -> _copy_from{bytes}: a host result written back to the device; 50 ns long.
  int64_t Upload(int64_t ts, std::optional<int64_t> bytes) {
    Op("aten::copy_", ts, 50);
    std::vector<trace::Arg> args;
    if (bytes)
      args.push_back({"bytes", *bytes});
    Op("aten::_copy_from", ts + 5, 40, std::move(args));
    return ts + 50;
  }
  // The NaN/Inf pre-dispatch scan of one input; 400 ns long.
  int64_t Scan(int64_t ts, int64_t download_bytes) {
    ts = Download(ts, download_bytes);
    Op("aten::to", ts, 40);
    Op("aten::_to_copy", ts + 5, 30);
    Op("aten::empty_strided", ts + 10, 5);
    Op("aten::copy_", ts + 20, 10);
    Op("aten::isinf", ts + 50, 100);
    Op("aten::abs", ts + 55, 50);
    Op("aten::empty", ts + 60, 5);
    Op("aten::abs", ts + 70, 30);
    Op("aten::eq", ts + 110, 30);
    Op("aten::isnan", ts + 160, 50);
    Op("aten::ne", ts + 165, 40);
    Op("aten::logical_or", ts + 215, 10);
    Op("aten::copy_", ts + 230, 10);
    Op("aten::any", ts + 245, 10);
    Op("aten::item", ts + 260, 30);
    Op("aten::_local_scalar_dense", ts + 265, 20);
    return ts + 300;
  }

  trace::Trace trace;
};

}  // namespace rblnsim::testing

#endif  // RBLNSIM_TESTS_UNIT_ANALYSIS_LATENCY_SYNTHETIC_TRACE_H_
