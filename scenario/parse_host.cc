// host:, env: and naming: sections: their keys come from the registry; the rules here are the
// ones a single key's range cannot express.
#include <algorithm>

#include "scenario/op_catalog.h"
#include "scenario/parse_sections.h"
#include "scenario/registry.h"
#include "scenario/section.h"
#include "scenario/suggest.h"

namespace rblnsim::scenario {
namespace {

// Placeholders the command-name template may use; see Naming in scenario.h.
const std::vector<std::string_view> kTemplateFields = {"instance", "sequence", "workload", "layer",
                                                       "command"};

Status CheckTemplate(const YamlNode& node, const std::string& text) {
  if (text.empty()) {
    return NodeError(node, "naming.command_template must not be empty");
  }
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '}') {
      return NodeError(node, "naming.command_template has an unmatched '}'");
    }
    if (text[i] != '{') {
      ++i;
      continue;
    }
    const size_t close = text.find('}', i);
    if (close == std::string::npos) {
      return NodeError(node, "naming.command_template has an unclosed '{'");
    }
    const std::string field = text.substr(i + 1, close - i - 1);
    if (std::find(kTemplateFields.begin(), kTemplateFields.end(), field) == kTemplateFields.end()) {
      return NodeError(node, "naming.command_template: unknown placeholder {" + Printable(field) +
                                 "}" + DidYouMean(field, kTemplateFields) +
                                 " (known: instance, sequence, workload, layer, command)");
    }
    i = close + 1;
  }
  return Status::Ok();
}

}  // namespace

// An ATen op name key (host.op_costs, expect.op_calls) checked against the names the host model
// records, so a typo is an error rather than a silently unused entry.
Status CheckAtenName(const YamlNode& key, const std::string& path) {
  const std::vector<std::string_view>& names = KnownAtenNames();
  auto known = [&](std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  if (known(key.scalar))
    return Status::Ok();
  // The in-place form of a catalogue op ("aten::add_"), as an in-place step records it.
  const std::string_view name = key.scalar;
  if (name.size() > 1 && name.back() == '_' && name[name.size() - 2] != '_' &&
      known(name.substr(0, name.size() - 1))) {
    return Status::Ok();
  }
  return NodeError(
      key, "unknown ATen op " + Quoted(key.scalar) + " in " + path + DidYouMean(key.scalar, names));
}

namespace {

Status HostRules(const Param& param, const Section& mapping, Scenario* scenario) {
  const std::string& name = scenario->host.process_name;
  if (param.field == "host.process_name" &&
      (name.empty() || name.find('\n') != std::string::npos)) {
    return NodeError(*mapping.Get("process_name"),
                     std::string(param.path) + " must be one non-empty line");
  }
  return Status::Ok();
}

Status NamingRules(const Param& param, const Section& mapping, Scenario* scenario) {
  const YamlNode* text = mapping.Get("command_template");
  if (param.field == "naming.command_template" && text != nullptr) {
    return CheckTemplate(*text, scenario->naming.command_template);
  }
  return Status::Ok();
}

}  // namespace

Status ParseHost(const YamlNode* node, Scenario* scenario) {
  return ReadRegistrySection(node, "host", scenario, HostRules);
}

Status ParseEnv(const YamlNode* node, Scenario* scenario) {
  return ReadRegistrySection(node, "env", scenario);
}

Status ParseNaming(const YamlNode* node, Scenario* scenario) {
  return ReadRegistrySection(node, "naming", scenario, NamingRules);
}

}  // namespace rblnsim::scenario
