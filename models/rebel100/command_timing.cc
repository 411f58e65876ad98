#include "models/rebel100/command_timing.h"

#include <algorithm>
#include <variant>

#include "models/rebel100/matmul_timing.h"
#include "scenario/limits.h"

namespace rblnsim::rebel100 {

double CommandOverheadNs(const scenario::DeviceConfig& device) {
  return device.command_overhead_cycles / device.clock_ghz;
}

double CommandDurationNs(const compiler::Command& command,
                         const scenario::DeviceConfig& device,
                         double now_ns,
                         std::vector<BandwidthChannel>* hbm) {
  const double begin_ns = now_ns + CommandOverheadNs(device);
  BandwidthChannel& channel = (*hbm)[command.chiplet];
  double end_ns = begin_ns;
  if (const auto* transfer = std::get_if<compiler::TransferWork>(&command.work)) {
    double rate = device.dma_bandwidth_bytes_per_s * device.dma_efficiency;
    double hop_ns = 0.0;
    if (transfer->crosses_chiplet) {
      rate = std::min(rate, device.d2d_bandwidth_bytes_per_s);
      hop_ns = device.d2d_latency_ns;
    }
    const double engine_end =
        begin_ns + hop_ns + static_cast<double>(transfer->bytes) / (rate * 1e-9);
    end_ns = std::max(engine_end, channel.Book(begin_ns, transfer->bytes));
  } else if (const auto* mm = std::get_if<compiler::MatmulWork>(&command.work)) {
    const MatmulTiming t = ComputeMatmulTiming(*mm, device);
    const double fill_end = begin_ns + static_cast<double>(t.fill_cycles) / device.clock_ghz;
    const double compute_end = fill_end + static_cast<double>(t.compute_cycles) / device.clock_ghz;
    // Double-buffered SRAM: streaming overlaps compute, so the slower of the two decides.
    end_ns = std::max(compute_end, channel.Book(fill_end, t.stream_bytes));
  } else if (const auto* vec = std::get_if<compiler::VectorWork>(&command.work)) {
    const double compute_end =
        begin_ns + static_cast<double>(VectorComputeCycles(*vec, device)) / device.clock_ghz;
    end_ns =
        vec->bytes > 0 ? std::max(compute_end, channel.Book(begin_ns, vec->bytes)) : compute_end;
  } else if (const auto* sync = std::get_if<compiler::SyncWork>(&command.work)) {
    end_ns = begin_ns + device.d2d_latency_ns * std::max(1, sync->participants - 1);
  }
  // Past the simulated-time limit every command has long timed out (command_timeout is at most
  // 1000 s); saturating there keeps the result finite even when a rate underflows to infinity.
  const double duration_ns = end_ns - now_ns;
  return duration_ns < scenario::kMaxSimulatedNs ? duration_ns : scenario::kMaxSimulatedNs;
}

}  // namespace rblnsim::rebel100
