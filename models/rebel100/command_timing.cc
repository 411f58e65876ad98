#include "models/rebel100/command_timing.h"

#include <algorithm>
#include <variant>

#include "models/rebel100/matmul_timing.h"
#include "scenario/limits.h"

namespace rblnsim::rebel100 {

double CommandOverheadNs(const scenario::DeviceConfig& device) {
  return device.command_overhead_cycles / device.clock_ghz;
}

namespace {

// What every command costs before its work: the fixed overhead, all of it set-up. A command whose
// work is not its engine's kind (the compiler refuses those) costs only this.
CommandDemand OverheadOnly(const scenario::DeviceConfig& device) {
  CommandDemand demand;
  demand.setup_ns = CommandOverheadNs(device);
  demand.engine_ns = demand.setup_ns;
  return demand;
}

}  // namespace

CommandDemand MatmulDemand(const compiler::Command& command, const scenario::DeviceConfig& device) {
  CommandDemand demand = OverheadOnly(device);
  const auto* mm = std::get_if<compiler::MatmulWork>(&command.work);
  if (mm == nullptr)
    return demand;
  const MatmulTiming t = ComputeMatmulTiming(*mm, device);
  demand.setup_ns += static_cast<double>(t.fill_cycles) / device.clock_ghz;
  const double compute_ns = static_cast<double>(t.compute_cycles) / device.clock_ghz;
  demand.engine_ns = demand.setup_ns + compute_ns;
  demand.engine_bound = Bound::kCompute;
  // Double-buffered SRAM: the operands stream at the pace the array consumes them, so a
  // compute-bound matmul leaves the rest of the channel to others.
  demand.hbm_bytes = t.stream_bytes;
  if (mm->weights_chiplet >= 0 && mm->weights_chiplet != command.chiplet &&
      t.weight_stream_bytes > 0) {
    demand.remote_chiplet = mm->weights_chiplet;
    demand.remote_bytes = t.weight_stream_bytes;
    demand.hbm_bytes -= t.weight_stream_bytes;
    demand.remote_tail_ns = device.d2d_latency_ns;
    const double link_bytes_per_ns = device.d2d_bandwidth_bytes_per_s * 1e-9;
    demand.remote_max_bytes_per_ns =
        compute_ns > 0
            ? std::min(link_bytes_per_ns, static_cast<double>(demand.remote_bytes) / compute_ns)
            : link_bytes_per_ns;
    const double remote_ns =
        demand.setup_ns +
        static_cast<double>(demand.remote_bytes) / demand.remote_max_bytes_per_ns +
        demand.remote_tail_ns;
    if (remote_ns > demand.engine_ns) {
      demand.engine_ns = remote_ns;
      demand.engine_bound = Bound::kD2d;
    }
  }
  if (compute_ns > 0)
    demand.max_bytes_per_ns = static_cast<double>(demand.hbm_bytes) / compute_ns;
  return demand;
}

CommandDemand TransferDemand(const compiler::Command& command,
                             const scenario::DeviceConfig& device) {
  CommandDemand demand = OverheadOnly(device);
  const auto* transfer = std::get_if<compiler::TransferWork>(&command.work);
  if (transfer == nullptr)
    return demand;
  double rate = device.dma_bandwidth_bytes_per_s * device.dma_efficiency;
  demand.engine_bound = Bound::kDma;
  if (transfer->crosses_chiplet) {
    if (device.d2d_bandwidth_bytes_per_s < rate)
      demand.engine_bound = Bound::kD2d;
    rate = std::min(rate, device.d2d_bandwidth_bytes_per_s);
    demand.tail_ns = device.d2d_latency_ns;
  }
  demand.hbm_bytes = transfer->bytes;
  demand.max_bytes_per_ns = rate * 1e-9;
  demand.engine_ns += demand.tail_ns + static_cast<double>(transfer->bytes) / (rate * 1e-9);
  return demand;
}

CommandDemand VectorDemand(const compiler::Command& command, const scenario::DeviceConfig& device) {
  CommandDemand demand = OverheadOnly(device);
  const auto* vec = std::get_if<compiler::VectorWork>(&command.work);
  if (vec == nullptr)
    return demand;
  const double compute_ns =
      static_cast<double>(VectorComputeCycles(*vec, device)) / device.clock_ghz;
  demand.engine_ns += compute_ns;
  demand.engine_bound = Bound::kCompute;
  demand.hbm_bytes = vec->bytes;
  if (compute_ns > 0)
    demand.max_bytes_per_ns = static_cast<double>(vec->bytes) / compute_ns;
  return demand;
}

CommandDemand SyncDemand(const compiler::Command& command, const scenario::DeviceConfig& device) {
  CommandDemand demand = OverheadOnly(device);
  if (const auto* sync = std::get_if<compiler::SyncWork>(&command.work))
    demand.engine_ns += device.d2d_latency_ns * std::max(1, sync->participants - 1);
  return demand;
}

CommandDemand DemandOf(const compiler::Command& command, const scenario::DeviceConfig& device) {
  return Engine(command.engine).demand(command, device);
}

void TimeCommands(compiler::Program* program, const scenario::DeviceConfig& device) {
  program->demands.clear();
  for (const compiler::Command& command : program->commands)
    program->demands.push_back(DemandOf(command, device));
}

Bound BoundOf(const CommandDemand& demand,
              double duration_ns,
              const scenario::DeviceConfig& device) {
  const double overhead_ns = CommandOverheadNs(device);
  // A command whose work takes less time than its fixed overhead is bound by the overhead.
  if (duration_ns - overhead_ns < overhead_ns)
    return Bound::kFixed;
  // Held past what the engine alone needs (beyond rounding): the channel was the limit.
  if (demand.hbm_bytes + demand.remote_bytes > 0 &&
      duration_ns > demand.engine_ns * (1 + 1e-12) + 1e-6)
    return Bound::kHbm;
  return demand.engine_bound;
}

double SaturatedNs(double duration_ns) {
  return duration_ns < scenario::kMaxSimulatedNs ? duration_ns : scenario::kMaxSimulatedNs;
}

CommandCost CommandCostAt(const compiler::Command& command,
                          const scenario::DeviceConfig& device,
                          double now_ns,
                          std::vector<BandwidthChannel>* hbm) {
  const CommandDemand demand = DemandOf(command, device);
  double end_ns = now_ns + demand.engine_ns;
  if (demand.hbm_bytes > 0) {
    const double hbm_end_ns =
        (*hbm)[command.chiplet].Book(now_ns + demand.setup_ns, demand.hbm_bytes) + demand.tail_ns;
    end_ns = std::max(end_ns, hbm_end_ns);
  }
  if (demand.remote_bytes > 0) {
    const double remote_end_ns =
        (*hbm)[demand.remote_chiplet].Book(now_ns + demand.setup_ns, demand.remote_bytes) +
        demand.remote_tail_ns;
    end_ns = std::max(end_ns, remote_end_ns);
  }
  CommandCost cost;
  cost.duration_ns = SaturatedNs(end_ns - now_ns);
  cost.bound = BoundOf(demand, end_ns - now_ns, device);
  cost.hbm_bytes = demand.hbm_bytes + demand.remote_bytes;
  return cost;
}

}  // namespace rblnsim::rebel100
