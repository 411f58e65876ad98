// host:, env: and naming: sections.
#include <algorithm>

#include "scenario/env.h"
#include "scenario/limits.h"
#include "scenario/op_catalog.h"
#include "scenario/parse_sections.h"
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
  if (std::find(names.begin(), names.end(), key.scalar) != names.end()) {
    return Status::Ok();
  }
  return NodeError(
      key, "unknown ATen op " + Quoted(key.scalar) + " in " + path + DidYouMean(key.scalar, names));
}

Status ParseHost(const YamlNode* node, HostConfig* h) {
  RBLNSIM_ASSIGN_OR_RETURN(
      Section s, Section::Open(node, "host",
                               {"pid", "tid", "process_name", "op_costs", "default_op_cost",
                                "jitter", "runtime_submit", "compile", "copy_bandwidth",
                                "steady_epoch", "system_epoch"}));
  RBLNSIM_RETURN_IF_ERROR(s.Int("pid", Between(1, 2147483647), &h->pid));
  RBLNSIM_RETURN_IF_ERROR(s.Int("tid", Between(1, 2147483647), &h->tid));
  RBLNSIM_RETURN_IF_ERROR(s.String("process_name", &h->process_name));
  if (h->process_name.empty() || h->process_name.find('\n') != std::string::npos) {
    return NodeError(*s.Get("process_name"), "host.process_name must be one non-empty line");
  }
  if (const YamlNode* costs = s.Get("op_costs"); costs != nullptr) {
    if (costs->kind != YamlNode::Kind::kMap && costs->kind != YamlNode::Kind::kNull) {
      return NodeError(*costs, "host.op_costs: expected a mapping of ATen op to time, got a " +
                                   std::string(costs->KindName()));
    }
    for (const auto& [key, value] : costs->entries) {
      RBLNSIM_RETURN_IF_ERROR(CheckAtenName(*key, "host.op_costs"));
    }
    std::vector<std::string_view> keys;
    for (const auto& entry : costs->entries) {
      keys.push_back(entry.first->scalar);
    }
    RBLNSIM_ASSIGN_OR_RETURN(Section cost_section, Section::Open(costs, "host.op_costs", keys));
    for (std::string_view key : keys) {
      HostOpCost cost;
      RBLNSIM_RETURN_IF_ERROR(
          cost_section.Time(key, Range{0, kMaxDurationNs, false, false, "ns"}, &cost.self_ns));
      h->op_costs[std::string(key)] = cost;
    }
  }
  RBLNSIM_RETURN_IF_ERROR(
      s.Time("default_op_cost", Range{0, kMaxDurationNs, false, false, "ns"}, &h->default_op_ns));
  RBLNSIM_RETURN_IF_ERROR(s.Double("jitter", HalfOpenUnit(), &h->jitter));
  RBLNSIM_RETURN_IF_ERROR(s.Time("runtime_submit", Range{0, kMaxDurationNs, false, false, "ns"},
                                 &h->runtime_submit_ns));
  RBLNSIM_RETURN_IF_ERROR(
      s.Time("compile", Range{0, kMaxDurationNs, false, false, "ns"}, &h->compile_ns));
  RBLNSIM_RETURN_IF_ERROR(s.Bandwidth(
      "copy_bandwidth", Range{kMinBandwidthBytesPerS, kMaxBandwidthBytesPerS, false, false, "B/s"},
      &h->host_copy_bytes_per_s));
  // Epochs are absolute clock readings, so they are kept as exact integers of ns.
  const Range epoch{0, kMaxEpochNs, false, false, "ns"};
  RBLNSIM_RETURN_IF_ERROR(s.TimeExact("steady_epoch", epoch, &h->steady_epoch_ns));
  return s.TimeExact("system_epoch", epoch, &h->system_epoch_ns);
}

Status ParseEnv(const YamlNode* node, EnvConfig* env) {
  const std::vector<std::string_view>& names = EnvVariableNames();
  RBLNSIM_ASSIGN_OR_RETURN(Section s, Section::Open(node, "env", names));
  for (std::string_view name : names) {
    const YamlNode* value = s.Get(name);
    if (value == nullptr) {
      continue;
    }
    RBLNSIM_ASSIGN_OR_RETURN(std::string_view text, ScalarText(*value, s.Path(name), "a value"));
    Status status = SetEnvVariable(name, text, env);
    if (!status.ok()) {
      return NodeError(*value, s.Path(name) + ": " + status.message());
    }
  }
  return Status::Ok();
}

Status ParseNaming(const YamlNode* node, Naming* naming) {
  RBLNSIM_ASSIGN_OR_RETURN(Section s,
                           Section::Open(node, "naming", {"command_template", "instance_base"}));
  RBLNSIM_RETURN_IF_ERROR(s.String("command_template", &naming->command_template));
  if (const YamlNode* text = s.Get("command_template"); text != nullptr) {
    RBLNSIM_RETURN_IF_ERROR(CheckTemplate(*text, naming->command_template));
  }
  return s.Int("instance_base", Between(0, 1000000), &naming->instance_base);
}

}  // namespace rblnsim::scenario
