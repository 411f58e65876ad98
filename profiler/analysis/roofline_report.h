// The roofline of a run's device ops: per op and argument profile, the FLOPs and HBM bytes its
// launches did, the device time they took, what they achieved against the configured peaks, and
// what bounded them (the engine time of their commands split by compute, HBM, DMA, die-to-die and
// fixed cost; or the host, when its launches take longer to reach the device than to run there).
// The simulator knows the FLOPs, bytes and bounds of every launch (its ground truth);
// this formats them as a table and an SVG roofline plot: achieved FLOP/s over arithmetic
// intensity, under min(peak FLOP/s, intensity x HBM bytes/s).
#ifndef RBLNSIM_PROFILER_ANALYSIS_ROOFLINE_REPORT_H_
#define RBLNSIM_PROFILER_ANALYSIS_ROOFLINE_REPORT_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "base/rbln_vocabulary.h"
#include "base/status.h"
#include "profiler/plot/svg_plot.h"

namespace rblnsim::analysis {

struct RooflineLaunch {
  std::string op;       // the launching op
  std::string program;  // the compiled program's key: op and argument profile
  double flops = 0;
  int64_t hbm_bytes = 0;
  double device_ns = 0;                                  // first command start to last command end
  std::array<double, platform::kBoundCount> bound_ns{};  // by platform::Bound
  // The launch's own way to the device: the runtime's work and the doorbell, fetch, decode and
  // dispatch (waiting behind earlier device work is not counted).
  double host_ns = 0;
};

struct RooflinePeaks {
  double flops_per_s = 0;      // the matrix engines, all chiplets
  double hbm_bytes_per_s = 0;  // all chiplets
  double RidgeFlopsPerByte() const {
    return hbm_bytes_per_s > 0 ? flops_per_s / hbm_bytes_per_s : 0;
  }
};

struct RooflineRow {
  std::string op;
  std::string program;
  int64_t launches = 0;
  double flops = 0;
  int64_t hbm_bytes = 0;
  double device_ns = 0;
  std::array<double, platform::kBoundCount> bound_ns{};  // by platform::Bound
  platform::Bound bound = platform::Bound::kFixed;       // the largest share of bound_ns
  double host_ns = 0;
  // Host-bound: its launches take longer to reach the device than they run there, so no device
  // parameter moves it much.
  bool HostBound() const { return host_ns > device_ns; }
  double FlopsPerS() const { return device_ns > 0 ? flops / (device_ns * 1e-9) : 0; }
  double BytesPerS() const { return device_ns > 0 ? hbm_bytes / (device_ns * 1e-9) : 0; }
  double Intensity() const { return hbm_bytes > 0 ? flops / hbm_bytes : 0; }
};

// One row per program, in order of first launch.
std::vector<RooflineRow> SummarizeRoofline(const std::vector<RooflineLaunch>& launches);

std::string FormatRooflineText(const std::vector<RooflineRow>& rows, const RooflinePeaks& peaks);

// Log-log: the roof (HBM slope up to the ridge, then the peak) and one point per row with FLOPs.
report::LinePlot RooflinePlot(const std::vector<RooflineRow>& rows, const RooflinePeaks& peaks);

}  // namespace rblnsim::analysis

#endif  // RBLNSIM_PROFILER_ANALYSIS_ROOFLINE_REPORT_H_
