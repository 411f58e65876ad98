// Lookup, canonical text and loading of registry keys. The rows are in registry_table.cc and the
// text for people (README tables, describe) in registry_markdown.cc.
#include "scenario/registry.h"

#include <algorithm>

#include "scenario/env.h"
#include "scenario/parse_sections.h"
#include "scenario/units.h"
#include "scenario/yaml_tree.h"

namespace rblnsim::scenario {
namespace {

bool Under(std::string_view path, std::string_view mapping_path) {
  return path.size() > mapping_path.size() &&
         path.compare(0, mapping_path.size(), mapping_path) == 0 &&
         path[mapping_path.size()] == '.';
}

// host.op_costs and expect.op_calls: a mapping of ATen op name to a time or a count.
Status ReadOpMap(const Section& section,
                 std::string_view key,
                 const Param& param,
                 Scenario* scenario) {
  const YamlNode* map = section.Get(key);
  const std::string path = section.Path(key);
  const bool costs = param.kind == ParamKind::kOpCostMap;
  if (map->kind != YamlNode::Kind::kMap && map->kind != YamlNode::Kind::kNull) {
    return NodeError(*map, path + ": expected a mapping of ATen op to " +
                               (costs ? "time" : "count") + ", got a " + map->KindName());
  }
  for (const auto& entry : map->entries) {
    RBLNSIM_RETURN_IF_ERROR(CheckAtenName(*entry.first, path));
  }
  if (!costs) {
    OpCounts counts;
    for (const auto& [name, count] : map->entries) {
      RBLNSIM_ASSIGN_OR_RETURN(counts[name->scalar],
                               ReadIntNode(*count, path + "." + name->scalar, param.range));
    }
    param.set(scenario, std::move(counts));
    return Status::Ok();
  }
  std::vector<std::string_view> names;
  for (const auto& entry : map->entries) {
    names.push_back(entry.first->scalar);
  }
  RBLNSIM_ASSIGN_OR_RETURN(Section entries, Section::Open(map, path, names));
  OpCostsNs ns;
  for (std::string_view name : names) {
    RBLNSIM_RETURN_IF_ERROR(entries.Time(name, param.range, &ns[std::string(name)]));
  }
  param.set(scenario, std::move(ns));
  return Status::Ok();
}

}  // namespace

const Param* FindParam(std::string_view path) {
  for (const Param& param : Parameters()) {
    if (param.path == path) {
      return &param;
    }
  }
  return nullptr;
}

const std::vector<std::string_view>& RegistrySections() {
  static const std::vector<std::string_view> kSections = ChildKeys("");
  return kSections;
}

const std::vector<std::string_view>& ChildKeys(std::string_view mapping_path) {
  // Built once: every sweep point reads its sections again, opening a mapping per key group.
  static const std::map<std::string_view, std::vector<std::string_view>, std::less<>> kChildren =
      [] {
        std::map<std::string_view, std::vector<std::string_view>, std::less<>> children;
        for (const Param& param : Parameters()) {
          for (size_t start = 0;;) {
            const size_t dot = param.path.find('.', start);
            const std::string_view mapping = start == 0 ? "" : param.path.substr(0, start - 1);
            const std::string_view key = param.path.substr(start, dot - start);
            std::vector<std::string_view>& keys = children[mapping];
            if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
              keys.push_back(key);
            }
            if (dot == std::string_view::npos) {
              break;
            }
            start = dot + 1;
          }
        }
        return children;
      }();
  static const std::vector<std::string_view> kNone;
  const auto it = kChildren.find(mapping_path);
  return it == kChildren.end() ? kNone : it->second;
}

ParamValue DefaultValue(const Param& param) {
  static const Scenario kDefaults;
  return param.get(kDefaults);
}

std::string CanonicalValueText(const Param& param, const ParamValue& value) {
  if (std::holds_alternative<std::monostate>(value)) {
    return "";
  }
  switch (param.kind) {
    case ParamKind::kInt:
      return std::to_string(std::get<int64_t>(value));
    case ParamKind::kNumber:
      return FormatNumber(std::get<double>(value));
    case ParamKind::kTime:
      return FormatNumber(std::get<double>(value)) + "ns";
    case ParamKind::kTimeExact:
      return std::to_string(std::get<int64_t>(value)) + "ns";
    case ParamKind::kFrequency:
      return FormatNumber(std::get<double>(value)) + "GHz";
    case ParamKind::kSize:
      return std::to_string(std::get<int64_t>(value)) + "B";
    case ParamKind::kBandwidth:
      return FormatNumber(std::get<double>(value)) + "B/s";
    case ParamKind::kString:
    case ParamKind::kEnvVar:
      return YamlDoubleQuoted(std::get<std::string>(value));
    case ParamKind::kChoice:
      return std::string(param.choices.at(static_cast<size_t>(std::get<int64_t>(value))));
    case ParamKind::kOpCostMap:
    case ParamKind::kOpCountMap:
      return "";
  }
  return "";
}

Status ReadParam(const Section& section,
                 std::string_view key,
                 const Param& param,
                 Scenario* scenario) {
  const YamlNode* node = section.Get(key);
  if (node == nullptr) {
    return Status::Ok();
  }
  int64_t whole = 0;
  double real = 0;
  std::string text;
  switch (param.kind) {
    case ParamKind::kInt:
      RBLNSIM_RETURN_IF_ERROR(section.Int(key, param.range, &whole));
      param.set(scenario, whole);
      return Status::Ok();
    case ParamKind::kNumber:
      RBLNSIM_RETURN_IF_ERROR(section.Double(key, param.range, &real));
      break;
    case ParamKind::kTime:
      RBLNSIM_RETURN_IF_ERROR(section.Time(key, param.range, &real));
      break;
    case ParamKind::kTimeExact:
      RBLNSIM_RETURN_IF_ERROR(section.TimeExact(key, param.range, &whole));
      param.set(scenario, whole);
      return Status::Ok();
    case ParamKind::kFrequency:
      RBLNSIM_RETURN_IF_ERROR(section.Frequency(key, param.range, &real));
      break;
    case ParamKind::kSize:
      RBLNSIM_RETURN_IF_ERROR(section.Size(key, param.range, &whole));
      param.set(scenario, whole);
      return Status::Ok();
    case ParamKind::kBandwidth:
      RBLNSIM_RETURN_IF_ERROR(section.Bandwidth(key, param.range, &real));
      break;
    case ParamKind::kString:
      RBLNSIM_RETURN_IF_ERROR(section.String(key, &text));
      param.set(scenario, std::move(text));
      return Status::Ok();
    case ParamKind::kChoice: {
      int index = -1;
      RBLNSIM_RETURN_IF_ERROR(section.Choice(key, param.choices, &index));
      param.set(scenario, int64_t{index});
      return Status::Ok();
    }
    case ParamKind::kEnvVar: {
      RBLNSIM_ASSIGN_OR_RETURN(std::string_view value,
                               ScalarText(*node, section.Path(key), "a value"));
      EnvConfig scratch;
      Status status = SetEnvVariable(key, value, &scratch);
      if (!status.ok()) {
        return NodeError(*node, section.Path(key) + ": " + status.message());
      }
      param.set(scenario, std::string(value));
      return Status::Ok();
    }
    case ParamKind::kOpCostMap:
    case ParamKind::kOpCountMap:
      return ReadOpMap(section, key, param, scenario);
  }
  param.set(scenario, real);
  return Status::Ok();
}

Status ReadRegistrySection(const YamlNode* node,
                           std::string_view section,
                           Scenario* scenario,
                           AfterParam after) {
  // Mappings are opened (and their unknown keys reported) when their first key is reached, so
  // errors come in document-reading order.
  std::map<std::string, Section, std::less<>> open;
  RBLNSIM_ASSIGN_OR_RETURN(Section top,
                           Section::Open(node, std::string(section), ChildKeys(section)));
  open.emplace(std::string(section), top);
  for (const Param& param : Parameters()) {
    if (!Under(param.path, section)) {
      continue;
    }
    const size_t leaf = param.path.rfind('.');
    const std::string_view mapping = param.path.substr(0, leaf);
    for (size_t dot = section.size(); dot < leaf;) {
      const size_t next = param.path.find('.', dot + 1);
      const std::string_view parent = param.path.substr(0, dot);
      const std::string_view child = param.path.substr(0, next);
      if (open.find(child) == open.end()) {
        const Section& outer = open.find(parent)->second;
        const std::string_view key = child.substr(dot + 1);
        RBLNSIM_ASSIGN_OR_RETURN(Section inner,
                                 Section::Open(outer.Get(key), outer.Path(key), ChildKeys(child)));
        open.emplace(std::string(child), inner);
      }
      dot = next;
    }
    const Section& mapping_section = open.find(mapping)->second;
    RBLNSIM_RETURN_IF_ERROR(
        ReadParam(mapping_section, param.path.substr(leaf + 1), param, scenario));
    if (after != nullptr) {
      RBLNSIM_RETURN_IF_ERROR(after(param, mapping_section, scenario));
    }
  }
  return Status::Ok();
}

}  // namespace rblnsim::scenario
