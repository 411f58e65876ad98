#include "models/rebel100/matmul_timing.h"

#include <algorithm>
#include <cmath>

namespace rblnsim::rebel100 {

using scenario::Dataflow;
using scenario::DType;

namespace {
int64_t CeilDiv(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

// Cycle counts are computed in double and rounded up; a count past kMaxCycles (2^62) saturates
// there instead of wrapping through the int64 conversion, so a slower engine never reads as a
// faster one. Such a command runs far past any command timeout and is reported as timed out.
constexpr double kMaxCycles = 4611686018427387904.0;
int64_t SaturatingCycles(double cycles) {
  const double rounded = std::ceil(cycles);
  if (!(rounded < kMaxCycles))
    return static_cast<int64_t>(kMaxCycles);  // also NaN
  return rounded > 0 ? static_cast<int64_t>(rounded) : 0;
}
}  // namespace

double PrecisionRate(DType dtype) {
  switch (dtype) {
    case DType::kFp8:
      return 2.0;
    case DType::kFp32:
      return 0.25;
    default:
      return 1.0;
  }
}

double PeakFlopsPerSecond(const scenario::DeviceConfig& device, DType dtype) {
  const double macs_per_cycle = static_cast<double>(device.engines_per_chiplet) *
                                device.array_rows * device.array_cols * PrecisionRate(dtype);
  return 2.0 * macs_per_cycle * device.chiplets * device.clock_ghz * 1e9;
}

MatmulTiming ComputeMatmulTiming(const compiler::MatmulWork& work,
                                 const scenario::DeviceConfig& device) {
  MatmulTiming t;
  const int64_t rows = device.array_rows;
  // fp8 packs two MACs per PE: the array behaves as if it had twice the columns. fp32 needs four
  // passes per MAC: the streamed dimension is four times longer.
  const int64_t cols =
      work.ComputeDType() == DType::kFp8 ? device.array_cols * 2 : device.array_cols;
  const int64_t passes = work.ComputeDType() == DType::kFp32 ? 4 : 1;
  bool preload = true;
  switch (device.dataflow) {
    case Dataflow::kWeightStationary:
      t.spatial_rows = work.k, t.spatial_cols = work.n, t.temporal = work.m;
      break;
    case Dataflow::kInputStationary:
      t.spatial_rows = work.k, t.spatial_cols = work.m, t.temporal = work.n;
      break;
    case Dataflow::kOutputStationary:
      t.spatial_rows = work.m, t.spatial_cols = work.n, t.temporal = work.k;
      preload = false;
      break;
  }
  const int64_t row_folds = CeilDiv(t.spatial_rows, rows);
  const int64_t col_folds = CeilDiv(t.spatial_cols, cols);
  t.folds = row_folds * col_folds * work.batch;
  t.folds_per_engine = CeilDiv(t.folds, device.engines_per_chiplet);
  // Folds are pipelined through the array: WS/IS write the next fold's stationary operand into
  // the shadow registers (P = R / preload_rows_per_cycle cycles) while the current one streams
  // its T rows, so a fold occupies max(P, T) cycles, and the skew fill and drain (R + C - 2) and
  // the first preload (R) are paid once per command. OS has no preload: a fold is its T streamed
  // cycles. A GEMV (T = 1) therefore costs P cycles a fold, the rate its weights enter the array,
  // and the cost grows monotonically with M. (SCALE-Sim's unpipelined form, 2R + C + T - 2 per
  // fold, makes small-M work several times slower than its weights take to stream.)
  const int64_t streamed = t.temporal * passes;
  const int64_t preload_cycles = CeilDiv(rows, std::max(1, device.preload_rows_per_cycle));
  t.fold_cycles = preload ? std::max(preload_cycles, streamed) : streamed;
  const double pipeline_cycles = static_cast<double>((preload ? rows : 0) + rows + cols - 2);
  t.compute_cycles = SaturatingCycles(
      (static_cast<double>(t.folds_per_engine) * static_cast<double>(t.fold_cycles) +
       pipeline_cycles) /
      device.matmul_efficiency);

  const int64_t elem = scenario::DTypeBytes(work.dtype);
  const int64_t a_bytes = work.batch * work.m * work.k * elem;
  const int64_t b_bytes = work.batch * work.k * work.n * elem;
  const int64_t out_bytes = work.batch * work.m * work.n * elem;
  const int64_t sram = device.sram_bytes_per_chiplet;
  // An operand that fits its SRAM share is read from HBM once; otherwise it is re-streamed for
  // every fold of the other spatial dimension. B's first part was staged by the *_0 command.
  // The engines of a chiplet work on different column folds at once and share each streamed row
  // of A, so A is re-read once per group of |engines| column folds.
  const int64_t a_reads = a_bytes <= sram / 4 ? 1 : CeilDiv(col_folds, device.engines_per_chiplet);
  const int64_t staged = work.staged_bytes >= 0 ? work.staged_bytes : sram / 2;
  int64_t b_stream = std::max<int64_t>(0, b_bytes - staged);
  if (device.dataflow == Dataflow::kOutputStationary && b_bytes > sram / 2)
    b_stream *= row_folds;
  t.stream_bytes = a_bytes * a_reads + b_stream + out_bytes;
  t.weight_stream_bytes = b_stream;

  const double bytes_per_cycle = device.hbm_bandwidth_bytes_per_s / (device.clock_ghz * 1e9);
  const double first_tiles = static_cast<double>((rows * cols + rows * rows) * elem);
  t.fill_cycles = SaturatingCycles(first_tiles / bytes_per_cycle);

  const double flops = 2.0 * work.batch * work.m * work.k * work.n;
  t.ideal_cycles = flops / (2.0 * device.engines_per_chiplet * rows * device.array_cols *
                            PrecisionRate(work.ComputeDType()));
  return t;
}

int64_t VectorComputeCycles(const compiler::VectorWork& work,
                            const scenario::DeviceConfig& device) {
  const double per_cycle =
      static_cast<double>(device.gce_elements_per_cycle) * device.gce_efficiency;
  return SaturatingCycles(static_cast<double>(work.elements) * work.ops_per_element / per_cycle);
}

}  // namespace rblnsim::rebel100
