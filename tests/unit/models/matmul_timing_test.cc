// The matmul engine's closed forms against hand-computed values, and the physics they must show:
// big matmuls approach peak, small ones are overhead-bound, HBM bandwidth matters only when the
// op is memory-bound.
#include "models/rebel100/matmul_timing.h"

#include <gtest/gtest.h>

#include <vector>

#include "models/rebel100/bandwidth_channel.h"
#include "models/rebel100/command_timing.h"

namespace rblnsim::rebel100 {
namespace {

using compiler::Command;
using compiler::MatmulWork;
using scenario::Dataflow;
using scenario::DeviceConfig;
using scenario::DType;

MatmulWork Work(int64_t m, int64_t k, int64_t n, int64_t batch, DType dtype) {
  MatmulWork work;
  work.m = m;
  work.k = k;
  work.n = n;
  work.batch = batch;
  work.dtype = dtype;
  return work;
}

DeviceConfig Array(int rows, int cols, int engines, Dataflow dataflow) {
  DeviceConfig d;
  d.array_rows = rows;
  d.array_cols = cols;
  d.engines_per_chiplet = engines;
  d.dataflow = dataflow;
  return d;
}

TEST(MatmulTiming, WeightStationaryPipelinesItsFolds) {
  // WS maps K onto rows, N onto columns and streams M. Folds pipeline: max(R, T) each, plus the
  // first preload and the skew fill/drain (R + R + C - 2) once.
  const MatmulTiming t = ComputeMatmulTiming(Work(1024, 1024, 1024, 1, DType::kFp16),
                                             Array(128, 128, 1, Dataflow::kWeightStationary));
  EXPECT_EQ(t.folds, 64);
  EXPECT_EQ(t.fold_cycles, 1024);
  EXPECT_EQ(t.compute_cycles, 64 * 1024 + 2 * 128 + 128 - 2);
}

TEST(MatmulTiming, SmallMIsBoundByThePreloadAndGrowsWithM) {
  // A GEMV streams one row per fold: the fold costs the cycles its weights take to enter the
  // array's shadow registers, R / preload_rows_per_cycle.
  DeviceConfig d = Array(128, 128, 8, Dataflow::kWeightStationary);
  d.preload_rows_per_cycle = 1;
  const MatmulTiming gemv = ComputeMatmulTiming(Work(1, 8192, 8192, 1, DType::kFp16), d);
  EXPECT_EQ(gemv.fold_cycles, 128);
  EXPECT_EQ(gemv.compute_cycles, 512 * 128 + 2 * 128 + 128 - 2);
  d.preload_rows_per_cycle = 4;
  EXPECT_EQ(ComputeMatmulTiming(Work(1, 8192, 8192, 1, DType::kFp16), d).fold_cycles, 32);
  int64_t previous = 0;
  for (int64_t m : {1, 4, 16, 64, 128, 129, 256, 1024, 4096, 8192}) {
    const int64_t cycles =
        ComputeMatmulTiming(Work(m, 8192, 8192, 1, DType::kFp16), d).compute_cycles;
    EXPECT_GE(cycles, previous) << m;
    previous = cycles;
  }
}

TEST(MatmulTiming, FoldsSpreadOverEngines) {
  const MatmulTiming t = ComputeMatmulTiming(Work(1024, 1024, 1024, 1, DType::kFp16),
                                             Array(128, 128, 8, Dataflow::kWeightStationary));
  EXPECT_EQ(t.folds_per_engine, 8);
  EXPECT_EQ(t.compute_cycles, 8 * 1024 + 2 * 128 + 128 - 2);
}

TEST(MatmulTiming, OutputStationaryHasNoPreload) {
  // OS maps M onto rows, N onto columns and streams K: T per fold, R + C - 2 fill/drain once.
  const MatmulTiming t = ComputeMatmulTiming(Work(512, 256, 512, 1, DType::kFp16),
                                             Array(128, 128, 8, Dataflow::kOutputStationary));
  EXPECT_EQ(t.spatial_rows, 512);
  EXPECT_EQ(t.spatial_cols, 512);
  EXPECT_EQ(t.temporal, 256);
  EXPECT_EQ(t.folds, 16);
  EXPECT_EQ(t.fold_cycles, 256);
  EXPECT_EQ(t.compute_cycles, 2 * 256 + 128 + 128 - 2);
}

TEST(MatmulTiming, InputStationaryOnARectangularArray) {
  // IS maps K onto rows and M onto columns and streams N. 64x32 array, 4 engines.
  const MatmulTiming t = ComputeMatmulTiming(Work(100, 200, 300, 1, DType::kFp16),
                                             Array(64, 32, 4, Dataflow::kInputStationary));
  const int64_t folds = ((200 + 63) / 64) * ((100 + 31) / 32);  // 4 * 4
  EXPECT_EQ(t.folds, folds);
  EXPECT_EQ(t.folds_per_engine, 4);
  EXPECT_EQ(t.fold_cycles, 300);
  EXPECT_EQ(t.compute_cycles, 4 * 300 + 2 * 64 + 32 - 2);
}

TEST(MatmulTiming, PrecisionChangesThroughput) {
  const DeviceConfig d = Array(128, 128, 8, Dataflow::kWeightStationary);
  const MatmulTiming fp16 = ComputeMatmulTiming(Work(4096, 4096, 4096, 1, DType::kFp16), d);
  const MatmulTiming fp8 = ComputeMatmulTiming(Work(4096, 4096, 4096, 1, DType::kFp8), d);
  const MatmulTiming fp32 = ComputeMatmulTiming(Work(4096, 4096, 4096, 1, DType::kFp32), d);
  EXPECT_EQ(fp8.folds * 2, fp16.folds);  // two packed MACs per PE: half the column folds
  EXPECT_EQ(fp32.fold_cycles, 4 * 4096);
  EXPECT_NEAR(PeakFlopsPerSecond(DeviceConfig{}, DType::kFp16), 1.05e15, 0.01e15);
  EXPECT_NEAR(PeakFlopsPerSecond(DeviceConfig{}, DType::kFp8), 2.1e15, 0.02e15);
}

TEST(MatmulTiming, EfficiencyScalesComputeCycles) {
  DeviceConfig d = Array(128, 128, 8, Dataflow::kWeightStationary);
  const int64_t full =
      ComputeMatmulTiming(Work(2048, 2048, 2048, 1, DType::kFp16), d).compute_cycles;
  d.matmul_efficiency = 0.5;
  EXPECT_EQ(ComputeMatmulTiming(Work(2048, 2048, 2048, 1, DType::kFp16), d).compute_cycles,
            2 * full);
}

double ComputeCommandNs(const MatmulWork& work, const DeviceConfig& d) {
  std::vector<BandwidthChannel> hbm(1, BandwidthChannel(d.hbm_bandwidth_bytes_per_s));
  Command command;
  command.layer = "mm";
  command.engine = EngineType::kNeuralEngine;
  command.work = work;
  return CommandDurationNs(command, d, 0.0, &hbm);
}

TEST(MatmulPhysics, LargeMatmulReachesPeak) {
  // 8192^3 fp16 split over the 4 chiplets along n: each runs 8192 x 8192 x 2048.
  const DeviceConfig d;
  const double ns = ComputeCommandNs(Work(8192, 8192, 2048, 1, DType::kFp16), d);
  const double achieved = 2.0 * 8192.0 * 8192.0 * 8192.0 / (ns * 1e-9);
  EXPECT_GE(achieved / PeakFlopsPerSecond(d, DType::kFp16), 0.85);
}

TEST(MatmulPhysics, SmallMatmulIsOverheadBound) {
  const DeviceConfig d;
  const double ns = ComputeCommandNs(Work(64, 64, 64, 1, DType::kFp16), d);
  const double achieved = 2.0 * 64 * 64 * 64 / (ns * 1e-9);
  EXPECT_LT(achieved / (PeakFlopsPerSecond(d, DType::kFp16) / d.chiplets), 0.01);
  EXPECT_GT(CommandOverheadNs(d) / ns, 0.5);
}

double VectorCommandNs(const compiler::VectorWork& work, const DeviceConfig& d) {
  std::vector<BandwidthChannel> hbm(1, BandwidthChannel(d.hbm_bandwidth_bytes_per_s));
  Command command;
  command.layer = "add";
  command.engine = EngineType::kGeneralCompute;
  command.work = work;
  return CommandDurationNs(command, d, 0.0, &hbm);
}

TEST(MatmulPhysics, HbmBandwidthSpeedsUpOnlyMemoryBoundOps) {
  DeviceConfig slow;
  DeviceConfig fast;
  fast.hbm_bandwidth_bytes_per_s = 2 * slow.hbm_bandwidth_bytes_per_s;
  // An elementwise add of two 8192x8192 fp16 tensors streams 384 MiB for one op per element.
  const int64_t elements = 8192LL * 8192;
  const compiler::VectorWork add{elements, 1.0, 3 * elements * 2};
  const double add_ratio = VectorCommandNs(add, slow) / VectorCommandNs(add, fast);
  EXPECT_GT(add_ratio, 1.8);
  const MatmulWork square = Work(8192, 8192, 2048, 1, DType::kFp16);
  const double square_ratio = ComputeCommandNs(square, slow) / ComputeCommandNs(square, fast);
  EXPECT_LT(square_ratio, 1.02);
  EXPECT_GE(square_ratio, 1.0);
}

TEST(BandwidthChannel, SerialisesConcurrentTransfers) {
  BandwidthChannel channel(1e9);  // 1 byte/ns
  EXPECT_DOUBLE_EQ(channel.Book(0, 1000), 1000);
  EXPECT_DOUBLE_EQ(channel.Book(500, 1000), 2000);  // waits for the first
  EXPECT_DOUBLE_EQ(channel.Book(5000, 10), 5010);   // idle channel starts at once
  EXPECT_EQ(channel.bytes_moved(), 2010);
}

}  // namespace
}  // namespace rblnsim::rebel100
