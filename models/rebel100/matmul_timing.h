// Closed-form timing of the Neural Engine Clusters: systolic-array folds as in SCALE-Sim
// (simulation-notes §1.1), pipelined through the array and spread over the engines of one
// chiplet, with the HBM traffic the double-buffered SRAM streams while computing. Never ticks per
// cycle: one formula per command.
#ifndef RBLNSIM_MODELS_REBEL100_MATMUL_TIMING_H_
#define RBLNSIM_MODELS_REBEL100_MATMUL_TIMING_H_

#include <cstdint>

#include "models/compiler/program.h"
#include "scenario/scenario.h"

namespace rblnsim::rebel100 {

struct MatmulTiming {
  int64_t spatial_rows = 0;  // Sr: mapped onto array rows
  int64_t spatial_cols = 0;  // Sc: mapped onto array columns
  int64_t temporal = 0;      // T: streamed through the array
  int64_t folds = 0;         // ceil(Sr/R) * ceil(Sc/C) * batch
  int64_t folds_per_engine = 0;
  int64_t fold_cycles = 0;          // one fold in the pipeline: max(preload, stream) (OS: stream)
  int64_t compute_cycles = 0;       // (folds_per_engine * fold_cycles + fill/drain) / efficiency
  int64_t fill_cycles = 0;          // first tiles loaded before the pipeline runs (not overlapped)
  int64_t stream_bytes = 0;         // HBM traffic overlapped with compute (double-buffered)
  int64_t weight_stream_bytes = 0;  // the part of it that is B, the weights
  double ideal_cycles = 0.0;        // flops / peak flops per cycle of one chiplet
};

// MACs per PE per cycle relative to fp16: fp8 packs two, fp32 takes four passes.
double PrecisionRate(scenario::DType dtype);

// Peak dense FLOP/s of the whole device for |dtype| with the configured engines and clock.
double PeakFlopsPerSecond(const scenario::DeviceConfig& device, scenario::DType dtype);

MatmulTiming ComputeMatmulTiming(const compiler::MatmulWork& work,
                                 const scenario::DeviceConfig& device);

// General Compute Engine cycles for |elements| × |ops_per_element| (memory handled by the caller).
int64_t VectorComputeCycles(const compiler::VectorWork& work, const scenario::DeviceConfig& device);

}  // namespace rblnsim::rebel100

#endif  // RBLNSIM_MODELS_REBEL100_MATMUL_TIMING_H_
