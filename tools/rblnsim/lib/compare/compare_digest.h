// What `compare` and `calibrate` read from a trace, simulated or captured on a card, in either
// dialect: every launch (its rbln_run / "rbln launch" marker, the op that launched it, its device
// slices with their engine class), the
// host self time per op and per host-model cost key, event counts, and the fallbacks and
// recompiles the trace-only detectors find. Both sides of a comparison are digested the same way,
// so nothing here may depend on simulator-only args.
#ifndef RBLNSIM_TOOLS_RBLNSIM_LIB_COMPARE_COMPARE_DIGEST_H_
#define RBLNSIM_TOOLS_RBLNSIM_LIB_COMPARE_COMPARE_DIGEST_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "profiler/trace/dialect.h"
#include "profiler/trace/trace.h"
#include "tools/rblnsim/lib/compare/capture_context.h"

namespace rblnsim::cli {

// The engine kind a command ran on, which decides the efficiency factor that scales it.
enum class EngineKind : uint8_t { kMatmul = 0, kGce = 1, kDma = 2, kSync = 3, kOther = 4 };
inline constexpr int kEngineKindCount = 5;
const char* EngineKindName(EngineKind kind);  // "matmul", "gce", "dma", "sync", "other"

// "Neural Engine Clusters" -> matmul, "General Compute Engine" -> gce, "... DMA" / "HDMA" -> dma.
// The current dialect's lanes name only the kind: "copy" -> dma, "collective" -> sync, and
// "compute" stays other (matmul and general compute share that lane).
EngineKind EngineKindOfClass(std::string_view engine_class, trace::Category category);

// The command's name without the per-run "i{instance}_{sequence}_W{workload}_" prefix of the
// default naming template: "i1_2_W0_mm_1" -> "mm_1". Other names are returned unchanged.
std::string CommandKey(std::string_view name);

struct DigestSlice {
  std::string name;
  std::string key;           // CommandKey(name)
  std::string engine_class;  // "Neural Engine Clusters", "Neural DMA", ... (no instance, chiplet)
  EngineKind kind = EngineKind::kOther;
  int64_t start_ns = 0;
  int64_t dur_ns = 0;
};

struct DigestLaunch {
  int64_t launch_id = 0;
  std::string op;  // the innermost cpu_op / user_annotation around the marker
  // That op's record_shapes "Input Dims", white space and scalar entries ("[]") removed; empty
  // when the trace has none.
  std::string input_dims;
  int64_t marker_start_ns = 0;
  int64_t marker_dur_ns = 0;
  std::vector<DigestSlice> slices;  // by start, then key
  int64_t device_ns = 0;            // sum of the slices' durations

  bool has_device() const { return !slices.empty(); }
  // Submit -> first device start, as analyze's launch-latency report measures it.
  int64_t latency_ns() const {
    return slices.empty() ? 0 : slices.front().start_ns - marker_start_ns;
  }
};

// The median of |values| (the mean of the middle two for an even count); 0 when empty.
double MedianOf(std::vector<double> values);

// Sums over the events of one name (or cost key).
struct HostTime {
  int64_t count = 0;
  double self_ns = 0;  // duration minus direct children (ops, annotations and rbln_run markers)
  // Per-call self times, kept for the host-model cost keys only (TraceDigest::host_keys): a fit
  // per call, robust to a first call that compiled or fell back.
  std::vector<double> calls_ns;
  // The elements of each call's largest input (its "Input Dims"; 0 without them), beside
  // calls_ns: what a per-element cost scales with.
  std::vector<int64_t> calls_elements;
  double MeanNs() const { return count > 0 ? self_ns / static_cast<double>(count) : 0.0; }
  double MedianNs() const;  // of calls_ns; MeanNs() when none were kept
};

inline constexpr const char* kNoLaunchingOp = "(no launching op)";

struct TraceDigest {
  std::vector<DigestLaunch> launches;          // by marker start
  std::map<std::string, HostTime> host_ops;    // by event name, as key_averages groups them
  std::map<std::string, HostTime> host_keys;   // by host-model cost key (HostCostKey)
  std::map<std::string, int64_t> device_keys;  // device slices by CommandKey
  std::map<std::string, int64_t> fallbacks;    // detected CPU fallbacks by op
  std::map<std::string, int64_t> recompiles;   // detected recompiles by op
  int64_t device_events = 0;                   // device slices off the host lane, any category
  // Every launch's device slices summed per lane (engine class), matched or not: the trace's own
  // per-lane device time.
  struct LaneTotal {
    EngineKind kind = EngineKind::kOther;
    int64_t slices = 0;
    int64_t ns = 0;
  };
  std::map<std::string, LaneTotal> lanes;
  int64_t slices_without_marker = 0;
  // current dialect: activities on an NPU row's host lane (privateuse1_runtime: runtime steps on
  // the host). Like privateuse1_runtime in analyze's latency, they are kept out of the launches'
  // device slices, device time and latency, and only counted here.
  int64_t host_steps = 0;
  int64_t window_ns = 0;
};

StatusOr<TraceDigest> DigestTrace(const trace::Trace& trace);

// A captured trace and the scenario it is compared with or calibrated against: the context
// resolved as the capture ran it (capture_context.h), then the trace imported and digested; the
// imported events are freed before returning. Import errors name |trace_path|.
struct LoadedCapture {
  CaptureContext context;
  TraceDigest digest;
  trace::Dialect dialect = trace::Dialect::kCurrent;  // the capture's, to simulate alike
  std::string import_json;  // the capture's import report (WriteImportReportJson), one object
};
StatusOr<LoadedCapture> LoadCapture(const std::string& scenario_path,
                                    const std::vector<std::string>& overlays,
                                    const std::vector<std::string>& sets,
                                    const std::string& trace_path);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_LIB_COMPARE_COMPARE_DIGEST_H_
