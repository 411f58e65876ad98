// The ground-truth file of `rblnsim run --truth`: what the simulated host and device really did,
// so the trace-only analyses can be scored (truth_score.h). One struct, its writer and its reader
// side by side; the file carries a "format" version that the reader checks, so a file from a
// different rblnsim is refused with a clear message instead of being misread.
//
// Times are system-clock ns, the trace's absolute timestamps ("time_domain" says so in the file).
#ifndef RBLNSIM_PROFILER_ANALYSIS_TRUTH_FILE_H_
#define RBLNSIM_PROFILER_ANALYSIS_TRUTH_FILE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace rblnsim::analysis {

// Bump when a field changes meaning or a required field is added; the reader accepts only this.
// 2: fallback shape, recompile eviction; 3: failed compiles.
inline constexpr int64_t kTruthFileFormat = 3;

struct TruthFile {
  struct Launch {
    int64_t launch_id = 0;
    std::string op;
    int64_t external_id = 0;  // of the launching op
    int64_t instance = 0;
    int64_t sequence = 0;
    int64_t marker_start_ns = 0;
    int64_t first_device_start_ns = 0;
    int64_t last_device_end_ns = 0;
    int64_t completed_ns = 0;
    int64_t latency_ns = 0;  // submission latency: first device start - marker start
    // Decomposition of the latency, simulator ns.
    double host_overhead_ns = 0;
    double ring_wait_ns = 0;
    double queue_wait_ns = 0;
    double transport_ns = 0;
    bool failed = false;
  };
  struct Fallback {
    std::string op;
    std::string reason;           // platform::FallbackReasonName
    std::string shape = "boxed";  // platform::FallbackShapeName
    int64_t external_id = 0;
    int64_t bytes_to_host = 0;
    int64_t bytes_to_device = 0;
  };
  struct Recompile {
    std::string op;
    std::string program;
    int64_t instance = -1;
    bool eviction = false;  // recompiled after the compiled-op cache evicted it
    bool failed = false;    // the compile failed; the op then ran on the CPU
  };
  struct RoundTrip {
    std::string reason;  // "cpu()", "nan/inf scan", "fallback"
    bool to_host = true;
    int64_t bytes = 0;
  };

  std::string scenario;
  std::vector<Launch> launches;
  std::vector<Fallback> fallbacks;
  std::vector<Recompile> recompiles;
  std::vector<RoundTrip> round_trips;
  int64_t nan_inf_scans = 0;
  int64_t records_dropped = 0;
  int64_t commands_timed_out = 0;
};

// Writes |truth| to |path| atomically (pretty-printed JSON, "format" first).
Status WriteTruthFile(const std::string& path, const TruthFile& truth);

// Errors are one line naming the file: unreadable, not this format version, or a field missing
// or of the wrong type.
StatusOr<TruthFile> ReadTruthFile(const std::string& path);

}  // namespace rblnsim::analysis

#endif  // RBLNSIM_PROFILER_ANALYSIS_TRUTH_FILE_H_
