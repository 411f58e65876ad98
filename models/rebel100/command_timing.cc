#include "models/rebel100/command_timing.h"

#include <algorithm>
#include <variant>

#include "models/rebel100/matmul_timing.h"
#include "scenario/limits.h"

namespace rblnsim::rebel100 {

const char* BoundName(Bound bound) {
  switch (bound) {
    case Bound::kCompute:
      return "compute";
    case Bound::kHbm:
      return "hbm";
    case Bound::kDma:
      return "dma";
    case Bound::kD2d:
      return "d2d";
    case Bound::kFixed:
      return "fixed";
  }
  return "fixed";
}

double CommandOverheadNs(const scenario::DeviceConfig& device) {
  return device.command_overhead_cycles / device.clock_ghz;
}

namespace {

// The later of the engine's own end and the HBM channel's; a tie goes to the engine.
void Slower(double engine_end_ns, Bound engine, double hbm_end_ns, double* end_ns, Bound* bound) {
  if (hbm_end_ns > engine_end_ns) {
    *end_ns = hbm_end_ns;
    *bound = Bound::kHbm;
  } else {
    *end_ns = engine_end_ns;
    *bound = engine;
  }
}

}  // namespace

CommandCost CommandCostAt(const compiler::Command& command,
                          const scenario::DeviceConfig& device,
                          double now_ns,
                          std::vector<BandwidthChannel>* hbm) {
  CommandCost cost;
  const double begin_ns = now_ns + CommandOverheadNs(device);
  BandwidthChannel& channel = (*hbm)[command.chiplet];
  double end_ns = begin_ns;
  if (const auto* transfer = std::get_if<compiler::TransferWork>(&command.work)) {
    double rate = device.dma_bandwidth_bytes_per_s * device.dma_efficiency;
    Bound engine = Bound::kDma;
    double hop_ns = 0.0;
    if (transfer->crosses_chiplet) {
      if (device.d2d_bandwidth_bytes_per_s < rate)
        engine = Bound::kD2d;
      rate = std::min(rate, device.d2d_bandwidth_bytes_per_s);
      hop_ns = device.d2d_latency_ns;
    }
    const double engine_end =
        begin_ns + hop_ns + static_cast<double>(transfer->bytes) / (rate * 1e-9);
    cost.hbm_bytes = transfer->bytes;
    Slower(engine_end, engine, channel.Book(begin_ns, transfer->bytes), &end_ns, &cost.bound);
  } else if (const auto* mm = std::get_if<compiler::MatmulWork>(&command.work)) {
    const MatmulTiming t = ComputeMatmulTiming(*mm, device);
    const double fill_end = begin_ns + static_cast<double>(t.fill_cycles) / device.clock_ghz;
    const double compute_end = fill_end + static_cast<double>(t.compute_cycles) / device.clock_ghz;
    // Double-buffered SRAM: streaming overlaps compute, so the slower of the two decides.
    cost.hbm_bytes = t.stream_bytes;
    Slower(compute_end, Bound::kCompute, channel.Book(fill_end, t.stream_bytes), &end_ns,
           &cost.bound);
  } else if (const auto* vec = std::get_if<compiler::VectorWork>(&command.work)) {
    const double compute_end =
        begin_ns + static_cast<double>(VectorComputeCycles(*vec, device)) / device.clock_ghz;
    cost.hbm_bytes = vec->bytes;
    if (vec->bytes > 0) {
      Slower(compute_end, Bound::kCompute, channel.Book(begin_ns, vec->bytes), &end_ns,
             &cost.bound);
    } else {
      end_ns = compute_end;
      cost.bound = Bound::kCompute;
    }
  } else if (const auto* sync = std::get_if<compiler::SyncWork>(&command.work)) {
    end_ns = begin_ns + device.d2d_latency_ns * std::max(1, sync->participants - 1);
  }
  // A command whose work takes less time than its fixed overhead is bound by the overhead.
  if (end_ns - begin_ns < CommandOverheadNs(device))
    cost.bound = Bound::kFixed;
  // Past the simulated-time limit every command has long timed out (command_timeout is at most
  // 1000 s); saturating there keeps the result finite even when a rate underflows to infinity.
  const double duration_ns = end_ns - now_ns;
  cost.duration_ns =
      duration_ns < scenario::kMaxSimulatedNs ? duration_ns : scenario::kMaxSimulatedNs;
  return cost;
}

}  // namespace rblnsim::rebel100
