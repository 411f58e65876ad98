#include "tools/rblnsim/calibrate/calibrate_params.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "scenario/host_op_costs.h"
#include "scenario/registry.h"

namespace rblnsim::cli {

namespace {

const scenario::Param& RegistryParam(std::string_view path) {
  const scenario::Param* param = scenario::FindParam(path);
  // The table below names registry keys only; CalibrateParams.KeysAreRegistryKeys checks it.
  return *param;
}

std::string OpCostText(double ns) {
  return fmt::format("{:.1f}ns", std::max(0.0, ns));
}
// A slope is a fraction of a nanosecond per element: 0.1 ns would round most of them away.
std::string PerElementText(double ns) {
  return fmt::format("{:.6f}ns", std::max(0.0, ns));
}

// "op_costs:\n    \"aten::mm\": 12.0ns ...": one mapping of cost keys, as the overlay nests it.
std::string OpMapItem(std::string_view path,
                      const std::map<std::string, double>& costs,
                      std::string (*text)(double)) {
  std::string item = std::string(path.substr(path.rfind('.') + 1)) + ":";
  for (const auto& [key, ns] : costs)
    item += fmt::format("\n    \"{}\": {}", key, text(ns));
  return item;
}

}  // namespace

const std::vector<CalibrationKey>& CalibrationKeys() {
  // The submission path is host.runtime_submit, then device.queue.doorbell, a descriptor fetch
  // of 2 x device.pcie.latency, device.queue.decode and device.queue.dispatch.
  static const std::vector<CalibrationKey> kKeys = {
      {&CalibrationParams::matmul_efficiency, "device.matmul.efficiency", 6, true},
      {&CalibrationParams::gce_efficiency, "device.gce.efficiency", 6, true},
      {&CalibrationParams::dma_efficiency, "device.dma.efficiency", 6, true},
      {&CalibrationParams::runtime_submit_ns, "host.runtime_submit", 1, true},
      {&CalibrationParams::compile_ns, "host.compile", 1, true},
      {&CalibrationParams::doorbell_ns, "device.queue.doorbell", 1, true},
      {&CalibrationParams::pcie_latency_ns, "device.pcie.latency", 1, true},
      {&CalibrationParams::decode_ns, "device.queue.decode", 1, true},
      {&CalibrationParams::dispatch_ns, "device.queue.dispatch", 1, true},
      {&CalibrationParams::clock_offset_ns, "device.profiler.clock_offset", 1, false},
      {&CalibrationParams::clock_drift_ppm, "device.profiler.clock_drift_ppm", 3, false},
  };
  return kKeys;
}

std::string_view OpCostsPath() {
  return "host.op_costs";
}
std::string_view OpCostsPerElementPath() {
  return "host.op_costs_per_element";
}

std::string CalibrationValueText(const CalibrationKey& key, double value) {
  const scenario::Param& param = RegistryParam(key.path);
  // A fitted efficiency may fall below the loader's floor; an open bound cannot be reached.
  const double low =
      param.range.min_open ? std::nextafter(param.range.min, 1e300) : param.range.min;
  const double high =
      param.range.max_open ? std::nextafter(param.range.max, -1e300) : param.range.max;
  const std::string number = fmt::format("{:.{}f}", std::clamp(value, low, high), key.decimals);
  return param.kind == scenario::ParamKind::kTime ? number + "ns" : number;
}

double* CalibrationParams::Efficiency(EngineKind kind) {
  switch (kind) {
    case EngineKind::kMatmul:
      return &matmul_efficiency;
    case EngineKind::kGce:
      return &gce_efficiency;
    case EngineKind::kDma:
      return &dma_efficiency;
    default:
      return nullptr;
  }
}

double CalibrationParams::EfficiencyOf(EngineKind kind) const {
  switch (kind) {
    case EngineKind::kMatmul:
      return matmul_efficiency;
    case EngineKind::kGce:
      return gce_efficiency;
    case EngineKind::kDma:
      return dma_efficiency;
    default:
      return 1.0;
  }
}

CalibrationParams ParamsFromScenario(const scenario::Scenario& s,
                                     const std::set<std::string>& cost_keys) {
  CalibrationParams p;
  for (const CalibrationKey& key : CalibrationKeys())
    p.*key.member = std::get<double>(RegistryParam(key.path).get(s));
  for (const std::string& key : cost_keys) {
    p.op_costs_ns[key] =
        scenario::GivenOrBuiltInFixedNs(s.host, key).value_or(s.host.default_op_ns);
    const double slope = scenario::GivenOrBuiltInPerElementNs(s.host, key);
    if (slope != 0.0)
      p.op_costs_per_element_ns[key] = slope;
  }
  return p;
}

std::string OverlayYaml(const CalibrationParams& p, const std::string& comment) {
  std::string text;
  size_t start = 0;
  while (start < comment.size()) {
    const size_t end = std::min(comment.find('\n', start), comment.size());
    text += "# " + comment.substr(start, end - start) + "\n";
    start = end + 1;
  }
  // section -> mapping ("" for a key directly in the section) -> "key: value" items, each in
  // the order first met, so a mapping is one flow line: "  queue: {doorbell: 1ns, decode: 2ns}".
  using Items = std::vector<std::string>;
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, Items>>>> sections;
  const auto add = [&](std::string_view path, std::string item) {
    const std::string section(path.substr(0, path.find('.')));
    std::string_view rest = path.substr(section.size() + 1);
    const size_t dot = rest.rfind('.');
    const std::string mapping(dot == std::string_view::npos ? "" : rest.substr(0, dot));
    auto s = std::find_if(sections.begin(), sections.end(),
                          [&](const auto& entry) { return entry.first == section; });
    if (s == sections.end())
      s = sections.insert(sections.end(), {section, {}});
    auto m = std::find_if(s->second.begin(), s->second.end(),
                          [&](const auto& entry) { return entry.first == mapping; });
    if (m == s->second.end() || mapping.empty())
      m = s->second.insert(s->second.end(), {mapping, {}});
    m->second.push_back(std::move(item));
  };
  for (const CalibrationKey& key : CalibrationKeys()) {
    const std::string_view leaf = key.path.substr(key.path.rfind('.') + 1);
    add(key.path, std::string(leaf) + ": " + CalibrationValueText(key, p.*key.member));
  }
  if (!p.op_costs_ns.empty())
    add(OpCostsPath(), OpMapItem(OpCostsPath(), p.op_costs_ns, OpCostText));
  if (!p.op_costs_per_element_ns.empty()) {
    add(OpCostsPerElementPath(),
        OpMapItem(OpCostsPerElementPath(), p.op_costs_per_element_ns, PerElementText));
  }
  for (const auto& [section, mappings] : sections) {
    text += section + ":\n";
    for (const auto& [mapping, items] : mappings) {
      if (mapping.empty()) {
        text += "  " + items.front() + "\n";
        continue;
      }
      std::string flow;
      for (const std::string& item : items)
        flow += (flow.empty() ? "" : ", ") + item;
      text += "  " + mapping + ": {" + flow + "}\n";
    }
  }
  return text;
}

}  // namespace rblnsim::cli
