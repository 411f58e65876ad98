// What a sweep point's workload asks of the matrix engines, recorded in its result file so that
// `rblnsim merge` can report achieved TFLOPS (FLOPs over device time) against the configured peak:
// the metrics of `rblnsim run` carry times, not work.
#ifndef RBLNSIM_TOOLS_RBLNSIM_LIB_SWEEP_SWEEP_WORKLOAD_H_
#define RBLNSIM_TOOLS_RBLNSIM_LIB_SWEEP_SWEEP_WORKLOAD_H_

#include <optional>
#include <string>

#include "base/status.h"
#include "scenario/scenario.h"

namespace rblnsim::cli {

struct WorkloadFlops {
  // FLOPs of the matrix products the device runs in the profiled window (mm, matmul, bmm,
  // linear, addmm; 2 per multiply-add). Ops that fall back to the CPU are not counted.
  double matmul_flops = 0;
  // Peak dense FLOP/s of the configured device for the dtype of the largest product; 0 without
  // any product.
  double peak_flops_per_s = 0;
  // The dtype of the largest product, which picks the peak; none without any product.
  std::optional<scenario::DType> largest_dtype;
};

// Walks workload.profile (repeats multiplied out, graph calls expanded) over the types the loader
// resolved for each step (Step::types, Step::graph_types).
WorkloadFlops CountWorkloadFlops(const scenario::Scenario& scenario);

// |flops| with its peak recomputed for |device|: sweep points that change only the device share
// one walk of the workload.
WorkloadFlops WithPeakOf(const WorkloadFlops& flops, const scenario::DeviceConfig& device);

// The time the device was working on some launch of the window: the union of each launch's span
// from its first command's start to its last command's end, read from the ground-truth file of
// `rblnsim run --truth`. Unlike self_rbln_total_ns (a sum over commands, which counts chiplets
// working in parallel several times) it is wall time, the denominator achieved TFLOPS needs.
StatusOr<double> DeviceActiveNsFromTruth(const std::string& truth_path);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_LIB_SWEEP_SWEEP_WORKLOAD_H_
