// device: the Rebel100 (or ATOM) configuration. Figures not given keep the defaults in
// scenario.h; variant "atom" first swaps in ATOM's own defaults (all estimates, see README).
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "scenario/limits.h"
#include "scenario/parse_sections.h"
#include "scenario/section.h"

namespace rblnsim::scenario {
namespace {

// Ranges from limits.h: every duration the models derive from them stays representable.
Range TimeAtLeastZero() {
  return Range{0, kMaxDurationNs, false, false, "ns"};
}
Range TimePositive() {
  return Range{0, kMaxDurationNs, true, false, "ns"};
}
Range EfficiencyRange() {
  return Between(kMinEfficiency, 1);
}
Range BandwidthRange() {
  return Range{kMinBandwidthBytesPerS, kMaxBandwidthBytesPerS, false, false, "B/s"};
}

// ATOM peak FP16 is 32 TFLOPS (press); engines × rows × cols × 2 FLOP × clock must give that.
constexpr double kAtomPeakFlops = 32e12;

void ApplyAtomDefaults(DeviceConfig* device) {
  device->card_name = "RBLN-CA25";
  device->chiplets = 1;
  device->engines_per_chiplet = 8;
  device->hbm_bytes_per_chiplet = int64_t{16} << 30;  // 16 GB GDDR6
  device->hbm_bandwidth_bytes_per_s = 0.256e12;       // estimate
}

// Picks the array dims not given explicitly so the peak is as close to 32 TFLOPS as integers
// allow, preferring widths near 64 (at 1 GHz with 8 engines: 40×50, exact).
void SizeAtomArray(DeviceConfig* device, bool rows_given, bool cols_given) {
  const double macs =
      kAtomPeakFlops / (2.0 * device->engines_per_chiplet * device->clock_ghz * 1e9);
  auto fit = [&](double other) {
    return static_cast<int>(std::max(1.0, std::min(4096.0, std::round(macs / other))));
  };
  if (rows_given && cols_given) {
    return;
  }
  if (cols_given) {
    device->array_rows = fit(device->array_cols);
    return;
  }
  if (rows_given) {
    device->array_cols = fit(device->array_rows);
    return;
  }
  double best_error = 1e300;
  for (int cols = 16; cols <= 256; ++cols) {
    const int rows = fit(cols);
    const double error = std::fabs(static_cast<double>(rows) * cols - macs);
    const bool closer = std::abs(cols - 64) < std::abs(device->array_cols - 64);
    if (error < best_error - 1e-9 || (std::fabs(error - best_error) <= 1e-9 && closer)) {
      best_error = error;
      device->array_rows = rows;
      device->array_cols = cols;
    }
  }
}

Status CheckCardName(const Section& section, const DeviceConfig& device) {
  const std::string& name = device.card_name;
  const bool shaped = name.size() == 9 && name.compare(0, 6, "RBLN-C") == 0 &&
                      std::isdigit(static_cast<unsigned char>(name[7])) &&
                      std::isdigit(static_cast<unsigned char>(name[8]));
  const YamlNode* node = section.Get("card_name");
  const YamlNode* where = node != nullptr ? node : section.Get("variant");
  if (where == nullptr) {
    return Status::Ok();  // both defaults: consistent by construction
  }
  if (!shaped || (name[6] != 'R' && name[6] != 'A')) {
    return NodeError(*where, "device.card_name " + Quoted(name) +
                                 " must look like RBLN-CRnn (Rebel100) or RBLN-CAnn (ATOM)");
  }
  const bool atom = device.variant == DeviceVariant::kAtom;
  if ((name[6] == 'A') != atom) {
    return NodeError(*where, "device.card_name " + Quoted(name) + " is " +
                                 (atom ? "a Rebel100" : "an ATOM") +
                                 " card but device.variant is " + (atom ? "atom" : "rebel100"));
  }
  return Status::Ok();
}

}  // namespace

Status ParseDevice(const YamlNode* node, DeviceConfig* d) {
  RBLNSIM_ASSIGN_OR_RETURN(
      Section s, Section::Open(node, "device",
                               {"variant", "card_name", "chiplets", "clock", "matmul", "gce", "hbm",
                                "d2d", "dma", "pcie", "queue", "profiler", "faults"}));
  RBLNSIM_RETURN_IF_ERROR(s.Enum<DeviceVariant>(
      "variant", {{"rebel100", DeviceVariant::kRebel100}, {"atom", DeviceVariant::kAtom}},
      &d->variant));
  if (d->variant == DeviceVariant::kAtom) {
    ApplyAtomDefaults(d);
  }
  RBLNSIM_RETURN_IF_ERROR(s.String("card_name", &d->card_name));
  RBLNSIM_RETURN_IF_ERROR(CheckCardName(s, *d));
  RBLNSIM_RETURN_IF_ERROR(s.Int("chiplets", Between(1, 16), &d->chiplets));
  RBLNSIM_RETURN_IF_ERROR(
      s.Frequency("clock", Range{kMinClockGhz, kMaxClockGhz, false, false, "GHz"}, &d->clock_ghz));

  RBLNSIM_ASSIGN_OR_RETURN(
      Section mm, Section::Open(s.Get("matmul"), s.Path("matmul"),
                                {"engines_per_chiplet", "array_rows", "array_cols", "dataflow",
                                 "efficiency", "sram", "split_min_flops"}));
  RBLNSIM_RETURN_IF_ERROR(mm.Int("engines_per_chiplet", Between(1, 1024), &d->engines_per_chiplet));
  RBLNSIM_RETURN_IF_ERROR(mm.Int("array_rows", Between(1, 4096), &d->array_rows));
  RBLNSIM_RETURN_IF_ERROR(mm.Int("array_cols", Between(1, 4096), &d->array_cols));
  if (d->variant == DeviceVariant::kAtom) {
    SizeAtomArray(d, mm.Get("array_rows") != nullptr, mm.Get("array_cols") != nullptr);
  }
  RBLNSIM_RETURN_IF_ERROR(mm.Enum<Dataflow>("dataflow",
                                            {{"ws", Dataflow::kWeightStationary},
                                             {"os", Dataflow::kOutputStationary},
                                             {"is", Dataflow::kInputStationary}},
                                            &d->dataflow));
  RBLNSIM_RETURN_IF_ERROR(mm.Double("efficiency", EfficiencyRange(), &d->matmul_efficiency));
  RBLNSIM_RETURN_IF_ERROR(mm.Size("sram", Positive(), &d->sram_bytes_per_chiplet));
  RBLNSIM_RETURN_IF_ERROR(mm.Int("split_min_flops", AtLeast(0), &d->chiplet_split_min_flops));

  RBLNSIM_ASSIGN_OR_RETURN(Section gce, Section::Open(s.Get("gce"), s.Path("gce"),
                                                      {"elements_per_cycle", "efficiency"}));
  RBLNSIM_RETURN_IF_ERROR(
      gce.Int("elements_per_cycle", Between(1, 1 << 20), &d->gce_elements_per_cycle));
  RBLNSIM_RETURN_IF_ERROR(gce.Double("efficiency", EfficiencyRange(), &d->gce_efficiency));

  RBLNSIM_ASSIGN_OR_RETURN(Section hbm,
                           Section::Open(s.Get("hbm"), s.Path("hbm"), {"capacity", "bandwidth"}));
  RBLNSIM_RETURN_IF_ERROR(hbm.Size("capacity", Positive(), &d->hbm_bytes_per_chiplet));
  RBLNSIM_RETURN_IF_ERROR(
      hbm.Bandwidth("bandwidth", BandwidthRange(), &d->hbm_bandwidth_bytes_per_s));

  RBLNSIM_ASSIGN_OR_RETURN(Section d2d,
                           Section::Open(s.Get("d2d"), s.Path("d2d"), {"latency", "bandwidth"}));
  RBLNSIM_RETURN_IF_ERROR(d2d.Time("latency", TimeAtLeastZero(), &d->d2d_latency_ns));
  RBLNSIM_RETURN_IF_ERROR(
      d2d.Bandwidth("bandwidth", BandwidthRange(), &d->d2d_bandwidth_bytes_per_s));

  RBLNSIM_ASSIGN_OR_RETURN(Section dma,
                           Section::Open(s.Get("dma"), s.Path("dma"), {"bandwidth", "efficiency"}));
  RBLNSIM_RETURN_IF_ERROR(
      dma.Bandwidth("bandwidth", BandwidthRange(), &d->dma_bandwidth_bytes_per_s));
  RBLNSIM_RETURN_IF_ERROR(dma.Double("efficiency", EfficiencyRange(), &d->dma_efficiency));

  RBLNSIM_ASSIGN_OR_RETURN(Section pcie, Section::Open(s.Get("pcie"), s.Path("pcie"),
                                                       {"bandwidth", "links", "latency"}));
  RBLNSIM_RETURN_IF_ERROR(
      pcie.Bandwidth("bandwidth", BandwidthRange(), &d->pcie_bandwidth_bytes_per_s));
  RBLNSIM_RETURN_IF_ERROR(pcie.Int("links", Between(1, 16), &d->pcie_links));
  RBLNSIM_RETURN_IF_ERROR(pcie.Time("latency", TimeAtLeastZero(), &d->pcie_latency_ns));

  RBLNSIM_ASSIGN_OR_RETURN(Section q,
                           Section::Open(s.Get("queue"), s.Path("queue"),
                                         {"depth", "fetch_batch", "doorbell", "decode", "dispatch",
                                          "completion", "command_overhead", "command_timeout"}));
  RBLNSIM_RETURN_IF_ERROR(q.Int("depth", Between(1, 65536), &d->queue_depth));
  RBLNSIM_RETURN_IF_ERROR(q.Int("fetch_batch", Between(1, 65536), &d->fetch_batch));
  // The command processor cannot fetch more entries than the ring holds. A default fetch batch
  // follows a smaller ring (so sweeping depth down to 1 just works); an explicit one is an error.
  if (d->fetch_batch > d->queue_depth) {
    if (q.Get("fetch_batch") == nullptr) {
      d->fetch_batch = d->queue_depth;
    } else {
      return NodeError(*q.Get("fetch_batch"), "out of range: device.queue.fetch_batch (" +
                                                  std::to_string(d->fetch_batch) +
                                                  ") must not exceed device.queue.depth (" +
                                                  std::to_string(d->queue_depth) + ")");
    }
  }
  RBLNSIM_RETURN_IF_ERROR(q.Time("doorbell", TimeAtLeastZero(), &d->doorbell_ns));
  RBLNSIM_RETURN_IF_ERROR(q.Time("decode", TimeAtLeastZero(), &d->decode_ns));
  RBLNSIM_RETURN_IF_ERROR(q.Time("dispatch", TimeAtLeastZero(), &d->dispatch_ns));
  RBLNSIM_RETURN_IF_ERROR(q.Time("completion", TimeAtLeastZero(), &d->completion_ns));
  RBLNSIM_RETURN_IF_ERROR(q.Double("command_overhead", Between(0, kMaxCommandOverheadCycles),
                                   &d->command_overhead_cycles));
  RBLNSIM_RETURN_IF_ERROR(q.Time("command_timeout", TimePositive(), &d->command_timeout_ns));

  RBLNSIM_ASSIGN_OR_RETURN(Section prof,
                           Section::Open(s.Get("profiler"), s.Path("profiler"),
                                         {"record_buffer", "clock_offset", "clock_drift_ppm"}));
  RBLNSIM_RETURN_IF_ERROR(
      prof.Int("record_buffer", Between(1, 1 << 30), &d->record_buffer_capacity));
  RBLNSIM_RETURN_IF_ERROR(prof.Time("clock_offset",
                                    Range{-kMaxSimulatedNs, kMaxSimulatedNs, false, false, "ns"},
                                    &d->clock_offset_ns));
  RBLNSIM_RETURN_IF_ERROR(
      prof.Double("clock_drift_ppm", Between(-1000, 1000), &d->clock_drift_ppm));

  RBLNSIM_ASSIGN_OR_RETURN(Section faults,
                           Section::Open(s.Get("faults"), s.Path("faults"), {"hang_command"}));
  return faults.String("hang_command", &d->hang_command);
}

}  // namespace rblnsim::scenario
