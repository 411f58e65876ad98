// device: the Rebel100 (or ATOM) configuration. Figures not given keep the defaults in
// scenario.h; variant "atom" first swaps in ATOM's own defaults (all estimates, see README).
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "scenario/limits.h"
#include "scenario/parse_sections.h"
#include "scenario/registry.h"
#include "scenario/section.h"

namespace rblnsim::scenario {
namespace {

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

// The rules that tie device keys together, applied as each key is read (registry order).
Status DeviceRules(const Param& param, const Section& mapping, Scenario* scenario) {
  DeviceConfig* d = &scenario->device;
  const bool atom = d->variant == DeviceVariant::kAtom;
  if (param.field == "device.variant" && atom) {
    ApplyAtomDefaults(d);
  } else if (param.field == "device.card_name") {
    return CheckCardName(mapping, *d);
  } else if (param.field == "device.array_cols" && atom) {
    SizeAtomArray(d, mapping.Get("array_rows") != nullptr, mapping.Get("array_cols") != nullptr);
  } else if (param.field == "device.fetch_batch" && d->fetch_batch > d->queue_depth) {
    // The command processor cannot fetch more entries than the ring holds. A default fetch batch
    // follows a smaller ring (so sweeping depth down to 1 just works); an explicit one is an
    // error.
    const YamlNode* given = mapping.Get("fetch_batch");
    if (given == nullptr) {
      d->fetch_batch = d->queue_depth;
      return Status::Ok();
    }
    return NodeError(*given, "out of range: " + std::string(param.path) + " (" +
                                 std::to_string(d->fetch_batch) + ") must not exceed " +
                                 mapping.Path("depth") + " (" + std::to_string(d->queue_depth) +
                                 ")");
  }
  return Status::Ok();
}

}  // namespace

Status ParseDevice(const YamlNode* node, Scenario* scenario) {
  return ReadRegistrySection(node, "device", scenario, DeviceRules);
}

}  // namespace rblnsim::scenario
