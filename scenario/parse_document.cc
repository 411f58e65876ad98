// The top level of a scenario document, plus the expect: and sweep: sections.
#include "scenario/parse_sections.h"
#include "scenario/registry.h"
#include "scenario/section.h"
#include "scenario/suggest.h"
#include "scenario/units.h"

namespace rblnsim::scenario {
namespace {

constexpr int64_t kMaxSweepValueNodes = 1000;

}  // namespace

Status ParseExpect(const YamlNode* node, Scenario* scenario) {
  if (node != nullptr) {
    scenario->expect.loc = ToSourceLoc(*node);
  }
  return ReadRegistrySection(node, "expect", scenario);
}

Status ParseSweep(const YamlNode* node, Scenario* scenario, std::vector<SweepAxisNodes>* axes) {
  if (node == nullptr || node->kind == YamlNode::Kind::kNull) {
    return Status::Ok();
  }
  Sweep* sweep = &scenario->sweep;
  RBLNSIM_RETURN_IF_ERROR(ReadRegistrySection(node, "sweep", scenario, nullptr, {"params"}));
  std::vector<std::string_view> keys = ChildKeys("sweep");
  keys.push_back("params");
  RBLNSIM_ASSIGN_OR_RETURN(Section s, Section::Open(node, "sweep", keys));
  const YamlNode* params = s.Get("params");
  if (params == nullptr || params->kind != YamlNode::Kind::kMap || params->entries.empty()) {
    return NodeError(params != nullptr ? *params : *node,
                     "sweep.params needs a mapping of key path to a list of values, e.g. "
                     "{device.queue.depth: [4, 16, 64]}");
  }
  if (static_cast<int>(params->entries.size()) > kMaxSweepAxes) {
    return NodeError(*params,
                     "sweep.params has more than " + std::to_string(kMaxSweepAxes) + " axes");
  }
  int64_t points = 1;
  for (const auto& [key, values] : params->entries) {
    const std::string& path = key->scalar;
    const std::string where = "sweep.params." + Printable(path);
    if (path == "sweep" || path.rfind("sweep.", 0) == 0) {
      return NodeError(*key, "a sweep cannot change the sweep itself");
    }
    if (values->kind != YamlNode::Kind::kSequence || values->items.empty()) {
      return NodeError(*values, where + ": expected a non-empty list of values");
    }
    if (static_cast<int>(values->items.size()) > kMaxSweepValuesPerAxis) {
      return NodeError(
          *values, where + " has more than " + std::to_string(kMaxSweepValuesPerAxis) + " values");
    }
    SweepAxis axis;
    axis.path = path;
    SweepAxisNodes nodes{key.get(), path, {}};
    for (const YamlNodePtr& value : values->items) {
      if (value->expanded_size > kMaxSweepValueNodes) {
        return NodeError(*value, where + ": a sweep value must be a scalar or a small list");
      }
      axis.values.push_back(ToFlowYaml(*value));
      nodes.values.push_back(value);
    }
    const int64_t count = static_cast<int64_t>(values->items.size());
    if (sweep->mode == Sweep::Mode::kZip && !sweep->axes.empty() &&
        count != static_cast<int64_t>(sweep->axes.front().values.size())) {
      return NodeError(*key, "zip sweep needs lists of equal length: " + Quoted(path) + " has " +
                                 std::to_string(count) + " values, " +
                                 Quoted(sweep->axes.front().path) + " has " +
                                 std::to_string(sweep->axes.front().values.size()));
    }
    points = sweep->mode == Sweep::Mode::kZip ? count : points * count;
    if (points > kMaxSweepPoints) {
      return NodeError(*key,
                       "the sweep has more than " + std::to_string(kMaxSweepPoints) + " points");
    }
    sweep->axes.push_back(std::move(axis));
    if (axes != nullptr) {
      axes->push_back(std::move(nodes));
    }
  }
  return Status::Ok();
}

namespace {

// scenario, description and seed: the registry's top-level rows; a scenario must be named.
Status ParseHeader(const Section& s, const YamlNode& root, Scenario* scenario) {
  const Scenario defaults;
  scenario->name = defaults.name;
  scenario->description = defaults.description;
  scenario->seed = defaults.seed;
  if (s.Get("scenario") == nullptr) {
    return NodeError(root, "missing required key 'scenario' (the scenario's name)");
  }
  return ReadTopLevelParams(s, scenario);
}

}  // namespace

Status ValidateParts(const YamlNodePtr& root,
                     const std::vector<ScenarioPart>& parts,
                     Scenario* scenario,
                     std::vector<SweepAxisNodes>* sweep_axes) {
  if (root->kind != YamlNode::Kind::kMap) {
    return NodeError(*root, std::string("the top level must be a mapping of scenario keys ") +
                                "(scenario, device, host, env, workload, ...), got a " +
                                root->KindName());
  }
  RBLNSIM_ASSIGN_OR_RETURN(Section s, Section::Open(root.get(), "", ChildKeys("")));
  // Sections are independent of each other, so each part is read alone, into fresh defaults.
  for (ScenarioPart part : parts) {
    switch (part) {
      case ScenarioPart::kHeader:
        RBLNSIM_RETURN_IF_ERROR(ParseHeader(s, *root, scenario));
        break;
      case ScenarioPart::kDevice:
        scenario->device = DeviceConfig();
        RBLNSIM_RETURN_IF_ERROR(ParseDevice(s.Get("device"), scenario));
        break;
      case ScenarioPart::kHost:
        scenario->host = HostConfig();
        RBLNSIM_RETURN_IF_ERROR(ParseHost(s.Get("host"), scenario));
        break;
      case ScenarioPart::kEnv:
        scenario->env = EnvConfig();
        RBLNSIM_RETURN_IF_ERROR(ParseEnv(s.Get("env"), scenario));
        break;
      case ScenarioPart::kWorkload: {
        const YamlNode* workload = s.Get("workload");
        if (workload == nullptr || workload->kind != YamlNode::Kind::kMap) {
          const YamlNode& where = workload != nullptr ? *workload : *root;
          return NodeError(where, workload == nullptr
                                      ? "missing required key 'workload'"
                                      : std::string("workload: expected a mapping, got a ") +
                                            workload->KindName());
        }
        scenario->workload = Workload();
        RBLNSIM_RETURN_IF_ERROR(ParseWorkload(workload, scenario));
        break;
      }
      case ScenarioPart::kNaming:
        scenario->naming = Naming();
        RBLNSIM_RETURN_IF_ERROR(ParseNaming(s.Get("naming"), scenario));
        break;
      case ScenarioPart::kExpectAndSweep:
        scenario->expect = Expect();
        scenario->sweep = Sweep();
        RBLNSIM_RETURN_IF_ERROR(ParseExpect(s.Get("expect"), scenario));
        RBLNSIM_RETURN_IF_ERROR(ParseSweep(s.Get("sweep"), scenario, sweep_axes));
        break;
    }
  }
  return Status::Ok();
}

StatusOr<Scenario> ValidateDocument(const YamlNodePtr& root,
                                    const std::string& source_path,
                                    std::vector<SweepAxisNodes>* sweep_axes) {
  Scenario scenario;
  scenario.source_path = source_path;
  RBLNSIM_RETURN_IF_ERROR(ValidateParts(
      root, std::vector<ScenarioPart>(std::begin(kScenarioParts), std::end(kScenarioParts)),
      &scenario, sweep_axes));
  return scenario;
}

}  // namespace rblnsim::scenario
