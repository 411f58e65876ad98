// Hidden host work, read from a trace alone, in the shape of torch.rbln.explain()
// (rbln-platform.md): CPU fallbacks with their reason, recompiles, host round trips and the
// NaN/Inf pre-dispatch scan.
//
// What each signal looks like in an eager torch-rbln trace:
//  - CPU fallback: a dispatcher op (ATen or custom) whose children download device tensors
//    (aten::to -> _to_copy -> copy_ -> _copy_from) and then run the same op nested with no
//    rbln_run under it (the CPU kernel), usually followed by copy_ -> _copy_from (the upload).
//    The compiled path nests the same op too, but with the rbln_run launch inside.
//  - NaN/Inf scan: inside a dispatcher op, before its kernel: the .to(cpu) download, a .to()
//    conversion, isinf(abs, eq), isnan(ne), logical_or, copy_, any, item. A scan followed by a
//    fallback in the same dispatcher op means the scan found NaN/Inf.
//  - Recompile: a "rbln::compile" span; the launch after it runs a new program instance (the
//    i{instance} token of its device slice names).
//  - Host round trip: an aten::_copy_from under aten::_to_copy (device -> host) or directly under
//    copy_ (host -> device). A "bytes" arg (rblnsim writes it) gives the bytes that crossed PCIe;
//    0 means the host copy served the read, which is not a round trip.
#ifndef RBLNSIM_PROFILER_ANALYSIS_FALLBACK_DETECT_H_
#define RBLNSIM_PROFILER_ANALYSIS_FALLBACK_DETECT_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "profiler/analysis/input_args.h"
#include "profiler/index/trace_index.h"
#include "profiler/trace/trace.h"

namespace rblnsim::analysis {

struct DetectedFallback {
  std::string op;
  FallbackCause cause = FallbackCause::kUnknown;
  platform::FallbackShape shape = platform::FallbackShape::kBoxed;
  int64_t ts_ns = 0;  // the dispatcher op
  int64_t dur_ns = 0;
  int64_t bytes_to_host = 0;    // over its downloads; -1 when the trace has no bytes args
  int64_t bytes_to_device = 0;  // over its uploads
};

enum class BounceCause : uint8_t { kCpu = 0, kScan = 1, kFallback = 2 };
// "cpu()", "nan/inf scan", "fallback": the simulator's ground-truth reasons.
const char* BounceCauseName(BounceCause cause);

struct DetectedRoundTrip {
  BounceCause cause = BounceCause::kCpu;
  std::string op;  // the top-level host op the copy ran under (itself when it is one)
  bool to_host = true;
  int64_t bytes = -1;  // -1: no bytes arg
  int64_t ts_ns = 0;
  int64_t dur_ns = 0;  // the _copy_from call: explain()'s runtime copy time (v2h / h2v)
};

struct DetectedRecompile {
  std::string op;  // the op the compile ran in
  int64_t ts_ns = 0;
  int64_t dur_ns = 0;
  int64_t launch_id = -1;     // the launch right after it in the same op, if any
  int64_t instance = -1;      // that launch's i{instance}, when its slice names carry one
  bool new_instance = false;  // no device slice of that instance ran before the compile
  bool eviction = false;      // the same op and input profile compiled earlier in the trace
  bool failed = false;        // no launch followed and the op went to the CPU: compile_error
};

struct OverheadReport {
  int64_t wall_ns = 0;                      // the capture window
  int64_t host_ns = 0;                      // top-level host ops, summed
  int64_t launches = 0;                     // rbln_run markers
  bool bytes_known = false;                 // some _copy_from carries a "bytes" arg
  std::vector<DetectedFallback> fallbacks;  // in trace order
  std::vector<DetectedRecompile> recompiles;
  std::vector<DetectedRoundTrip> round_trips;
  int64_t scans = 0;                           // one per scanned input
  std::map<std::string, int64_t> scans_by_op;  // the dispatcher op each scan ran in
  int64_t scan_host_ns = 0;                    // from each scan's download to its item()
};

inline constexpr std::string_view kBytesArg = platform::kBytesArg;

// Every event arg DetectOverhead reads: an importer may drop the others (ImportOptions).
std::vector<std::string> OverheadArgKeys();

OverheadReport DetectOverhead(const index::TraceIndex& index);

}  // namespace rblnsim::analysis

#endif  // RBLNSIM_PROFILER_ANALYSIS_FALLBACK_DETECT_H_
