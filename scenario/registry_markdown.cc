// Registry values and ranges written for people: the key tables of scenarios/README.md and
// `rblnsim describe --parameters`.
#include <cmath>

#include "scenario/registry.h"
#include "scenario/units.h"

namespace rblnsim::scenario {
namespace {

struct Unit {
  const char* name;
  double scale;  // base units per one of these
};

// `value` in the largest unit of `units` (largest first) it reaches at least once, so defaults
// read as "5us" and "36GiB" rather than "5000ns" and "38654705664B". With `exact`, a unit must
// divide the value; empty when none does.
std::string InUnits(double value, const std::vector<Unit>& units, bool exact) {
  for (const Unit& unit : units) {
    const double scaled = value / unit.scale;
    if (std::fabs(scaled) < 1 || (exact && scaled != std::floor(scaled))) {
      continue;
    }
    return FormatNumber(scaled) + unit.name;
  }
  return exact ? "" : FormatNumber(value) + units.back().name;
}

std::string Human(ParamKind kind, double value) {
  switch (kind) {
    case ParamKind::kTime:
    case ParamKind::kTimeExact:
      return InUnits(value, {{"s", 1e9}, {"ms", 1e6}, {"us", 1e3}, {"ns", 1}}, false);
    case ParamKind::kFrequency:
      return InUnits(value, {{"GHz", 1}, {"MHz", 1e-3}, {"kHz", 1e-6}, {"Hz", 1e-9}}, false);
    case ParamKind::kSize: {
      // Binary units when they are exact (64MiB), decimal ones otherwise (3MB).
      const std::string binary = InUnits(
          value, {{"TiB", 0x1p40}, {"GiB", 0x1p30}, {"MiB", 0x1p20}, {"KiB", 0x1p10}}, true);
      return !binary.empty()
                 ? binary
                 : InUnits(value, {{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1}},
                           false);
    }
    case ParamKind::kBandwidth:
    case ParamKind::kOpCostMap:
      return kind == ParamKind::kOpCostMap
                 ? Human(ParamKind::kTime, value)
                 : InUnits(
                       value,
                       {{"TB/s", 1e12}, {"GB/s", 1e9}, {"MB/s", 1e6}, {"KB/s", 1e3}, {"B/s", 1}},
                       false);
    default:
      return FormatNumber(value);
  }
}

std::string Escaped(std::string text) {
  std::string out;
  for (char c : text) {
    out += c == '|' ? std::string("\\|") : std::string(1, c);
  }
  return out;
}

std::string Code(const std::string& text) {
  return "`" + text + "`";
}

}  // namespace

std::string HumanValueText(const Param& param, const ParamValue& value) {
  if (std::holds_alternative<std::monostate>(value)) {
    return "unset";
  }
  if (const auto* text = std::get_if<std::string>(&value)) {
    return text->empty() ? "\"\"" : *text;
  }
  if (const auto* costs = std::get_if<OpCostsNs>(&value)) {
    return costs->empty() ? "{}" : std::to_string(costs->size()) + " ops";
  }
  if (const auto* counts = std::get_if<OpCounts>(&value)) {
    return counts->empty() ? "{}" : std::to_string(counts->size()) + " ops";
  }
  if (param.kind == ParamKind::kChoice) {
    return std::string(param.choices.at(static_cast<size_t>(std::get<int64_t>(value))));
  }
  if (param.kind == ParamKind::kChoiceSet) {
    return "[" + ChoiceSetText(param, std::get<int64_t>(value)) + "]";
  }
  if (param.kind == ParamKind::kUint64) {
    return std::to_string(static_cast<uint64_t>(std::get<int64_t>(value)));
  }
  if (const auto* whole = std::get_if<int64_t>(&value)) {
    return param.kind == ParamKind::kInt ? std::to_string(*whole)
                                         : Human(param.kind, static_cast<double>(*whole));
  }
  return Human(param.kind, std::get<double>(value));
}

std::string HumanRangeText(const Param& param) {
  const Range& r = param.range;
  const bool has_min = std::isfinite(r.min);
  const bool has_max = std::isfinite(r.max);
  switch (param.kind) {
    case ParamKind::kString:
    case ParamKind::kName:
    case ParamKind::kChoice:
    case ParamKind::kChoiceSet:
    case ParamKind::kEnvVar:
      return "";
    case ParamKind::kUint64:
      return "[0, 2^64)";
    default:
      break;
  }
  // Zero needs no unit; integers are written out whole, the way the loader reads them.
  const auto bound = [&](double value) {
    if (value == 0) {
      return std::string("0");
    }
    if (param.kind == ParamKind::kInt || param.kind == ParamKind::kOpCountMap) {
      return std::to_string(static_cast<int64_t>(value));
    }
    return Human(param.kind, value);
  };
  std::string text;
  if (has_min && has_max) {
    text = std::string(r.min_open ? "(" : "[") + bound(r.min) + ", " + bound(r.max) +
           (r.max_open ? ")" : "]");
  } else if (has_min) {
    text = std::string(r.min_open ? "> " : "≥ ") + bound(r.min);
  } else if (has_max) {
    text = std::string(r.max_open ? "< " : "≤ ") + bound(r.max);
  }
  const bool map = param.kind == ParamKind::kOpCostMap || param.kind == ParamKind::kOpCountMap;
  return map && !text.empty() ? "each " + text : text;
}

std::string KindText(const Param& param) {
  std::string text;
  switch (param.kind) {
    case ParamKind::kInt:
      text = "integer";
      break;
    case ParamKind::kNumber:
      text = "number";
      break;
    case ParamKind::kTime:
      return "time";
    case ParamKind::kTimeExact:
      return "time, exact";
    case ParamKind::kFrequency:
      return "frequency";
    case ParamKind::kSize:
      return "size";
    case ParamKind::kBandwidth:
      return "bandwidth";
    case ParamKind::kString:
      return "string";
    case ParamKind::kName:
      return "name";
    case ParamKind::kUint64:
      return "integer";
    case ParamKind::kEnvVar:
      return "variable";
    case ParamKind::kChoiceSet:
      for (std::string_view choice : param.choices) {
        text += (text.empty() ? "" : ", ") + std::string(choice);
      }
      return "list of " + text;
    case ParamKind::kChoice:
      for (std::string_view choice : param.choices) {
        text += (text.empty() ? "" : " | ") + std::string(choice);
      }
      return text;
    case ParamKind::kOpCostMap:
      return "mapping op name → time";
    case ParamKind::kOpCountMap:
      return "mapping op name → integer";
  }
  return param.unit.empty() ? text : text + ", " + std::string(param.unit);
}

std::string RegistryMarkdownTable(std::string_view section) {
  std::string out =
      "| Key | Type | Default | Range | Meaning | Field |\n|---|---|---|---|---|---|\n";
  for (const Param& param : Parameters()) {
    if (SectionOf(param.path) != section) {
      continue;
    }
    const std::string key(section.empty() ? param.path : param.path.substr(section.size() + 1));
    const std::string range = HumanRangeText(param);
    const ParamValue fallback = DefaultValue(param);
    out += "| " + Code(key) + " | " + Escaped(KindText(param)) + " | " +
           (std::holds_alternative<std::monostate>(fallback)
                ? "—"
                : Code(Escaped(HumanValueText(param, fallback)))) +
           " | " + (range.empty() ? "" : Escaped(range)) + " | " +
           Escaped(std::string(param.help)) + " | " + Code(std::string(param.field)) + " |\n";
  }
  return out;
}

}  // namespace rblnsim::scenario
