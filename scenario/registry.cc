// Lookup, canonical text and loading of registry keys. The rows are in registry_table.cc and the
// text for people (README tables, describe) in registry_markdown.cc.
#include "scenario/registry.h"

#include <algorithm>
#include <cctype>

#include "scenario/env.h"
#include "scenario/parse_sections.h"
#include "scenario/suggest.h"
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

bool IsName(std::string_view name) {
  if (name.empty() || name.size() > 128) {
    return false;
  }
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

// A list such as workload.activities: [cpu, privateuse1].
Status ReadChoiceSet(const Section& section,
                     std::string_view key,
                     const Param& param,
                     Scenario* scenario) {
  const YamlNode* list = section.Get(key);
  const std::string path = section.Path(key);
  const std::string known = ChoiceSetText(param, (int64_t{1} << param.choices.size()) - 1);
  RBLNSIM_RETURN_IF_ERROR(ExpectSequence(*list, path));
  if (list->items.empty()) {
    return NodeError(*list, path + " needs at least one of " + known);
  }
  int64_t bits = 0;
  for (const YamlNodePtr& item : list->items) {
    RBLNSIM_ASSIGN_OR_RETURN(std::string_view name, ScalarText(*item, path, known.c_str()));
    const auto found = std::find(param.choices.begin(), param.choices.end(), name);
    if (found == param.choices.end()) {
      return NodeError(*item, path + ": unknown value " + Quoted(name) +
                                  DidYouMean(name, param.choices) + " (known: " + known + ")");
    }
    const int64_t bit = int64_t{1} << (found - param.choices.begin());
    if (bits & bit) {
      return NodeError(*item, path + ": " + Quoted(name) + " is listed twice");
    }
    bits |= bit;
  }
  param.set(scenario, bits);
  return Status::Ok();
}

}  // namespace

std::string ChoiceSetText(const Param& param, int64_t bits) {
  std::string text;
  for (size_t i = 0; i < param.choices.size(); ++i) {
    if ((bits >> i) & 1) {
      text += (text.empty() ? "" : ", ") + std::string(param.choices[i]);
    }
  }
  return text;
}

const Param* FindParam(std::string_view path) {
  for (const Param& param : Parameters()) {
    if (param.path == path) {
      return &param;
    }
  }
  return nullptr;
}

std::string_view SectionOf(std::string_view path) {
  const size_t dot = path.find('.');
  return dot == std::string_view::npos ? std::string_view() : path.substr(0, dot);
}

const std::vector<std::string_view>& RegistrySections() {
  static const std::vector<std::string_view> kSections = [] {
    std::vector<std::string_view> sections;
    for (const Param& param : Parameters()) {
      if (std::find(sections.begin(), sections.end(), SectionOf(param.path)) == sections.end())
        sections.push_back(SectionOf(param.path));
    }
    return sections;
  }();
  return kSections;
}

std::string_view SectionLabel(std::string_view section) {
  return section.empty() ? "top" : section;
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
    case ParamKind::kName:
    case ParamKind::kEnvVar:
      return YamlDoubleQuoted(std::get<std::string>(value));
    case ParamKind::kChoice:
      return std::string(param.choices.at(static_cast<size_t>(std::get<int64_t>(value))));
    case ParamKind::kChoiceSet:
      return "[" + ChoiceSetText(param, std::get<int64_t>(value)) + "]";
    case ParamKind::kUint64:
      return std::to_string(static_cast<uint64_t>(std::get<int64_t>(value)));
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
    case ParamKind::kName:
      RBLNSIM_RETURN_IF_ERROR(section.String(key, &text));
      if (!IsName(text)) {
        return NodeError(*node, std::string(key) + " name " + Quoted(text) +
                                    " must be 1-128 characters of letters, digits, '_', '-' or "
                                    "'.'");
      }
      param.set(scenario, std::move(text));
      return Status::Ok();
    case ParamKind::kUint64: {
      RBLNSIM_ASSIGN_OR_RETURN(std::string_view digits,
                               ScalarText(*node, section.Path(key), "an integer"));
      StatusOr<uint64_t> value = ParseUint64(digits);
      if (!value.ok() || node->quoted) {
        return NodeError(
            *node, section.Path(key) + ": expected an integer in [0, 2^64), got " + Quoted(digits));
      }
      param.set(scenario, static_cast<int64_t>(*value));
      return Status::Ok();
    }
    case ParamKind::kChoiceSet:
      return ReadChoiceSet(section, key, param, scenario);
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

Status ReadTopLevelParams(const Section& root, Scenario* scenario) {
  for (const Param& param : Parameters()) {
    if (SectionOf(param.path).empty()) {
      RBLNSIM_RETURN_IF_ERROR(ReadParam(root, param.path, param, scenario));
    }
  }
  return Status::Ok();
}

Status ReadRegistrySection(const YamlNode* node,
                           std::string_view section,
                           Scenario* scenario,
                           AfterParam after,
                           const std::vector<std::string_view>& program_keys) {
  // Mappings are opened (and their unknown keys reported) when their first key is reached, so
  // errors come in document-reading order.
  std::map<std::string, Section, std::less<>> open;
  std::vector<std::string_view> keys = ChildKeys(section);
  keys.insert(keys.end(), program_keys.begin(), program_keys.end());
  RBLNSIM_ASSIGN_OR_RETURN(Section top, Section::Open(node, std::string(section), keys));
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
