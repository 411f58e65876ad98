// The free parameters `rblnsim calibrate` fits, read from a resolved scenario and written back as
// an overlay YAML that `rblnsim run S.yaml --overlay overlay.yaml` loads (and validates) like any
// other overlay.
#ifndef RBLNSIM_TOOLS_RBLNSIM_CALIBRATE_CALIBRATE_PARAMS_H_
#define RBLNSIM_TOOLS_RBLNSIM_CALIBRATE_CALIBRATE_PARAMS_H_

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/scenario.h"
#include "tools/rblnsim/lib/compare/compare_digest.h"

namespace rblnsim::cli {

struct CalibrationParams {
  // Per-engine efficiency factors: device.{matmul,gce,dma}.efficiency, in (0, 1].
  double matmul_efficiency = 1.0;
  double gce_efficiency = 1.0;
  double dma_efficiency = 1.0;
  // The submission path: host.runtime_submit, then device.queue.doorbell, a descriptor fetch of
  // 2 x device.pcie.latency, device.queue.decode and device.queue.dispatch.
  double runtime_submit_ns = 0;
  double doorbell_ns = 0;
  double pcie_latency_ns = 0;
  double decode_ns = 0;
  double dispatch_ns = 0;
  // device.profiler.*: written back unchanged (see calibrate_fit.h for why).
  double clock_offset_ns = 0;
  double clock_drift_ppm = 0;
  // host.compile: a compile-cache miss, fitted from rbln::compile spans.
  double compile_ns = 0;
  // host.op_costs: the fixed part of each fitted cost key, ns.
  std::map<std::string, double> op_costs_ns;
  // host.op_costs_per_element: the slope of the keys that have one (given, built in or fitted).
  std::map<std::string, double> op_costs_per_element_ns;

  // The efficiency that scales commands of |kind|; nullptr for kinds without one (sync, other).
  double* Efficiency(EngineKind kind);
  double EfficiencyOf(EngineKind kind) const;
};

// One scalar parameter calibrate reads from the scenario and writes back: the member that holds
// it and its scenario key, a path of the parameter registry (scenario/registry.h), which gives
// its kind and the range the written value is clamped into.
struct CalibrationKey {
  double CalibrationParams::*member;
  std::string_view path;
  int decimals;  // digits after the point in the overlay and the report
  bool fitted;   // false: written back unchanged (device.profiler.*, see calibrate_fit.h)
};

// Every scalar key, in the order the report lists them; the overlay groups them by mapping.
const std::vector<CalibrationKey>& CalibrationKeys();
// The registry paths of the per-op host costs (host.op_costs, host.op_costs_per_element).
std::string_view OpCostsPath();
std::string_view OpCostsPerElementPath();
// |value| as the overlay and the report write it: clamped into the key's registry range, with
// the key's decimals and its unit ("12.5ns", "0.850000"). The loader accepts it as written.
std::string CalibrationValueText(const CalibrationKey& key, double value);

// The scenario's values; op_costs_ns gets every key of |cost_keys|, at the scenario's override,
// else the built-in cost (scenario/host_op_costs.h), else host.default_op_cost;
// op_costs_per_element_ns those of them with a nonzero slope.
CalibrationParams ParamsFromScenario(const scenario::Scenario& scenario,
                                     const std::set<std::string>& cost_keys);

// The overlay text: |comment| (one or more lines, each written as "# ...") then the device and
// host keys. Values are rounded to 0.1 ns and 6 decimals of efficiency, which the loader
// accepts as written.
std::string OverlayYaml(const CalibrationParams& params, const std::string& comment);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_CALIBRATE_CALIBRATE_PARAMS_H_
