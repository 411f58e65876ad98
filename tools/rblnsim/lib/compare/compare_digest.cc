#include "tools/rblnsim/lib/compare/compare_digest.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>
#include <tuple>

#include "profiler/analysis/fallback_detect.h"
#include "profiler/analysis/input_args.h"
#include "profiler/index/trace_index.h"
#include "profiler/trace/import/chrome_trace_import.h"
#include "profiler/trace/import/import_report.h"
#include "profiler/trace/json_writer.h"
#include "scenario/op_catalog.h"

namespace rblnsim::cli {

namespace {

bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// The slice's engine: the producer's "categories" annotation ("Neural DMA, chiplet 0"), else
// its lane's name without the instance number ("Neural DMA 3"), else its Kineto category.
std::string EngineClass(const trace::Trace& trace, const trace::Event& e) {
  std::string text;
  if (const std::optional<trace::ArgView> arg = e.FindArg("categories")) {
    if (const auto* s = std::get_if<std::string_view>(&arg->value))
      text = s->substr(0, s->find(','));
  }
  if (text.empty()) {
    if (const trace::ThreadRow* row = trace.FindThread(e.pid, e.tid))
      text = trace::LaneClassName(row->name);
  }
  return text.empty() ? std::string(e.cat()) : text;
}

std::string InputDimsText(const trace::Event& e) {
  const std::optional<trace::ArgView> arg = e.FindArg(analysis::kInputDimsArg);
  if (!arg)
    return "";
  std::string_view text;
  if (const auto* raw = std::get_if<trace::RawJsonView>(&arg->value))
    text = raw->text;
  else if (const auto* str = std::get_if<std::string_view>(&arg->value))
    text = *str;
  std::string compact;
  for (char c : text) {
    if (c != ' ' && c != '\n' && c != '\t')
      compact += c;
  }
  // Top-level entries that are "[]" (a scalar argument, such as softmax's dim, which torch lists
  // and the model does not) carry no shape: dropped, so both sides key on the tensors alone.
  if (compact.size() < 2 || compact.front() != '[' || compact.back() != ']')
    return compact;
  std::string out = "[";
  int depth = 0;
  size_t start = 1;
  for (size_t i = 1; i < compact.size(); ++i) {
    const char c = compact[i];
    const bool last = i == compact.size() - 1;  // the closing bracket
    if (!last)
      depth += c == '[' ? 1 : c == ']' ? -1 : 0;
    if (last || (depth == 0 && c == ',')) {
      const std::string_view entry(compact.data() + start, i - start);
      if (entry != "[]" && !entry.empty())
        out += (out.size() > 1 ? "," : "") + std::string(entry);
      start = i + 1;
    }
  }
  return out + "]";
}

const std::set<std::string, std::less<>>& KnownCostKeys() {
  static const auto* keys = [] {
    auto* set = new std::set<std::string, std::less<>>();
    for (std::string_view name : scenario::KnownAtenNames())
      set->emplace(name);
    return set;
  }();
  return *keys;
}

// The host model's cost key an event is charged to (models/host/host_costs.cc, eager_ops.cc):
// its own name, except the kernel frame of the compiled path (an op whose direct child is the
// rbln_run marker: "rbln::kernel"), a compiled graph call ("rbln::graph"), and an op nested
// directly in an op of the same name without a launch: the inner kernel ("aten::abs.out" in the
// NaN/Inf scan, "cpu::kernel" for a fallback's CPU kernel). "" when it is no op cost.
std::string HostCostKey(const index::TraceIndex& index, uint32_t node, bool has_marker_child) {
  const index::HostForest& forest = index.forest();
  const std::string_view name = index.names().text(forest.name[node]);
  if (forest.kind[node] == index::HostKind::kAnnotation) {
    return name == "Torch-Compiled Region" ? "rbln::graph" : "";
  }
  if (has_marker_child)
    return "rbln::kernel";
  const uint32_t parent = forest.parent[node];
  if (parent != index::kNone && forest.name[parent] == forest.name[node]) {
    return name == "aten::abs" ? "aten::abs.out" : "cpu::kernel";
  }
  return std::string(name);
}

// As the host model counts them (models/host/eager_ops.cc): the largest tensor input, a 0-dim
// tensor being one element; TensorList entries and non-tensor arguments are left out.
int64_t LargestInputElements(const trace::Event& e) {
  const std::optional<std::vector<analysis::OpInput>> inputs = analysis::ReadOpInputs(e);
  if (!inputs)
    return 0;
  const bool types_known = std::any_of(
      inputs->begin(), inputs->end(), [](const analysis::OpInput& in) { return !in.type.empty(); });
  int64_t largest = 0;
  for (const analysis::OpInput& in : *inputs) {
    if (in.nested || !in.IsTensor(types_known))
      continue;
    int64_t count = 1;
    for (int64_t dim : in.dims) {
      if (__builtin_mul_overflow(count, std::max<int64_t>(dim, 0), &count))
        count = INT64_MAX;
    }
    largest = std::max(largest, count);
  }
  return largest;
}

void DigestHost(const index::TraceIndex& index, TraceDigest* digest) {
  const trace::Trace& trace = index.trace();
  const index::HostForest& forest = index.forest();
  std::vector<double> children_ns(forest.size(), 0.0);
  std::vector<bool> marker_child(forest.size(), false);
  for (uint32_t n = 0; n < forest.size(); ++n) {
    const uint32_t parent = forest.parent[n];
    if (parent == index::kNone)
      continue;
    children_ns[parent] += static_cast<double>(trace.events[forest.event[n]].dur_ns);
    if (forest.kind[n] == index::HostKind::kMarker)
      marker_child[parent] = true;
  }
  for (uint32_t n = 0; n < forest.size(); ++n) {
    if (forest.kind[n] == index::HostKind::kMarker)
      continue;
    const double self_ns =
        static_cast<double>(trace.events[forest.event[n]].dur_ns) - children_ns[n];
    HostTime& by_name = digest->host_ops[std::string(index.names().text(forest.name[n]))];
    ++by_name.count;
    by_name.self_ns += self_ns;
    const std::string key = HostCostKey(index, n, marker_child[n]);
    if (key.empty() || KnownCostKeys().count(key) == 0)
      continue;
    HostTime& by_key = digest->host_keys[key];
    ++by_key.count;
    by_key.self_ns += self_ns;
    by_key.calls_ns.push_back(self_ns);
    by_key.calls_elements.push_back(LargestInputElements(trace.events[forest.event[n]]));
  }
}

}  // namespace

double MedianOf(std::vector<double> values) {
  if (values.empty())
    return 0;
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  if (values.size() % 2 == 1)
    return *middle;
  const double upper = *middle;
  return (*std::max_element(values.begin(), middle) + upper) / 2;
}

double HostTime::MedianNs() const {
  return calls_ns.empty() ? MeanNs() : MedianOf(calls_ns);
}

const char* EngineKindName(EngineKind kind) {
  switch (kind) {
    case EngineKind::kMatmul:
      return "matmul";
    case EngineKind::kGce:
      return "gce";
    case EngineKind::kDma:
      return "dma";
    case EngineKind::kSync:
      return "sync";
    case EngineKind::kOther:
      return "other";
  }
  return "other";
}

EngineKind EngineKindOfClass(std::string_view engine_class, trace::Category category) {
  if (Contains(engine_class, "Neural Engine") || Contains(engine_class, "NEC"))
    return EngineKind::kMatmul;
  if (Contains(engine_class, "General Compute") || Contains(engine_class, "GCE"))
    return EngineKind::kGce;
  if (Contains(engine_class, "DMA"))
    return EngineKind::kDma;
  if (Contains(engine_class, "Sync") || engine_class == "collective")
    return EngineKind::kSync;
  if (category == trace::Category::kGpuMemcpy || category == trace::Category::kGpuMemset) {
    return EngineKind::kDma;
  }
  return EngineKind::kOther;
}

std::string CommandKey(std::string_view name) {
  return std::string(trace::CommandKey(name));
}

StatusOr<TraceDigest> DigestTrace(const trace::Trace& trace) {
  TraceDigest digest;
  digest.window_ns = trace.capture_end_ns - trace.capture_start_ns;
  RBLNSIM_ASSIGN_OR_RETURN(index::TraceIndex index, index::TraceIndex::Build(trace));
  DigestHost(index, &digest);

  const index::LaunchTable& table = index.launches();
  // Every device slice off the host lane counts, whatever its category (a card's Device Sync
  // slices are no kernel), so the count covers what the device time sums.
  for (size_t i : table.device_slices) {
    if (index.LaneOf(i) != trace::LaneKind::kHost)
      ++digest.device_events;
  }
  for (const auto& [launch_id, slices] : table.slices_by_launch) {
    if (!index.MarkerOf(launch_id))
      digest.slices_without_marker += static_cast<int64_t>(slices.size());
  }
  for (const auto& [launch_id, markers] : table.markers_by_launch) {
    const trace::Event& marker = trace.events[markers.front()];
    DigestLaunch launch;
    launch.launch_id = launch_id;
    const auto launcher = index.LauncherOf(markers.front());
    launch.op = launcher ? trace.events[*launcher].name : kNoLaunchingOp;
    if (launcher)
      launch.input_dims = InputDimsText(trace.events[*launcher]);
    launch.marker_start_ns = marker.ts_ns;
    launch.marker_dur_ns = marker.dur_ns;
    const auto slices = table.slices_by_launch.find(launch_id);
    if (slices != table.slices_by_launch.end()) {
      for (size_t s : slices->second) {
        const trace::Event& e = trace.events[s];
        if (index.LaneOf(s) == trace::LaneKind::kHost) {
          ++digest.host_steps;
          continue;
        }
        DigestSlice slice{e.name.str(),
                          CommandKey(e.name.view()),
                          EngineClass(trace, e),
                          EngineKind::kOther,
                          e.ts_ns,
                          e.dur_ns};
        slice.kind = EngineKindOfClass(slice.engine_class, e.category);
        TraceDigest::LaneTotal& lane = digest.lanes[slice.engine_class];
        lane.kind = slice.kind;
        ++lane.slices;
        lane.ns += e.dur_ns;
        launch.device_ns += e.dur_ns;
        ++digest.device_keys[slice.key];
        launch.slices.push_back(std::move(slice));
      }
    }
    std::sort(launch.slices.begin(), launch.slices.end(),
              [](const DigestSlice& a, const DigestSlice& b) {
                return std::tie(a.start_ns, a.key) < std::tie(b.start_ns, b.key);
              });
    digest.launches.push_back(std::move(launch));
  }
  std::stable_sort(digest.launches.begin(), digest.launches.end(),
                   [](const DigestLaunch& a, const DigestLaunch& b) {
                     return a.marker_start_ns < b.marker_start_ns;
                   });

  const analysis::OverheadReport overhead = analysis::DetectOverhead(index);
  for (const analysis::DetectedFallback& f : overhead.fallbacks)
    ++digest.fallbacks[f.op];
  for (const analysis::DetectedRecompile& r : overhead.recompiles)
    ++digest.recompiles[r.op];
  return digest;
}

StatusOr<LoadedCapture> LoadCapture(const std::string& scenario_path,
                                    const std::vector<std::string>& overlays,
                                    const std::vector<std::string>& sets,
                                    const std::string& trace_path) {
  auto context = ResolveCaptureContext(scenario_path, overlays, sets, trace_path);
  if (!context.ok())
    return context.status();
  auto imported = trace::ImportChromeTrace(trace_path);
  if (!imported.ok())
    return imported.status();
  if (const std::string notice = trace::FormatImportNotice(*imported, trace_path); !notice.empty())
    std::fprintf(stderr, "%s\n", notice.c_str());
  auto digest = DigestTrace(imported->trace);
  if (!digest.ok())
    return digest.status().WithPrefix(trace_path + ": ");
  trace::StringSink report;
  trace::JsonWriter json(&report, 0);
  trace::WriteImportReportJson(*imported, json);
  json.Finish();
  return LoadedCapture{std::move(*context), std::move(*digest),
                       trace::DetectDialect(imported->trace), report.text()};
}

}  // namespace rblnsim::cli
