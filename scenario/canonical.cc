#include "scenario/canonical.h"

#include <algorithm>
#include <cstdio>

#include "scenario/registry.h"
#include "scenario/units.h"
#include "scenario/yaml_tree.h"

namespace rblnsim::scenario {
namespace {

// Values in base units with their unit, so the text loads back exactly.
std::string Ns(double ns) {
  return FormatNumber(ns) + "ns";
}
std::string Q(const std::string& text) {
  return YamlDoubleQuoted(text);
}

class Writer {
 public:
  void Line(int indent, const std::string& key, const std::string& value = "") {
    out_.append(static_cast<size_t>(indent) * 2, ' ');
    out_ += key + ":";
    if (!value.empty()) {
      out_ += " " + value;
    }
    out_ += '\n';
  }
  void Raw(const std::string& text) { out_ += text; }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

std::string Names(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    out += (out.empty() ? "" : ", ") + name;
  }
  return "[" + out + "]";
}

std::string StepFlow(const Step& step) {
  switch (step.kind) {
    case Step::Kind::kOp: {
      std::string scalars;
      for (double value : step.scalars) {
        scalars += (scalars.empty() ? "" : ", ") + FormatNumber(value);
      }
      return "{op: " + step.op + (step.in_place ? "_" : "") + ", inputs: " + Names(step.inputs) +
             ", out: " + step.output + ", scalars: [" + scalars + "]" +
             (step.compile_fails ? ", compile: error}" : "}");
    }
    case Step::Kind::kGraph:
      return "{graph: " + step.graph + ", inputs: " + Names(step.inputs) + ", out: " + step.output +
             "}";
    case Step::Kind::kCpu:
      return "{cpu: " + (step.inputs.empty() ? "" : step.inputs[0]) + "}";
    case Step::Kind::kSynchronize:
      return "{synchronize: true}";
    case Step::Kind::kRepeat: {
      std::string body;
      for (const Step& inner : step.body) {
        body += (body.empty() ? "" : ", ") + StepFlow(inner);
      }
      return "{repeat: " + std::to_string(step.count) + ", steps: [" + body + "]}";
    }
  }
  return "{}";
}

void Steps(Writer* w, const char* key, const std::vector<Step>& steps) {
  if (steps.empty()) {
    return w->Line(1, key, "[]");
  }
  w->Line(1, key);
  for (const Step& step : steps) {
    w->Raw("    - " + StepFlow(step) + "\n");
  }
}

// A fetch batch left to its default follows a smaller ring (parse_device.cc). Written out, it
// would become explicit, and a sweep of the depth below it would no longer load; so the value the
// default gives is left out, and the text loads back to the same scenario at every depth.
bool FollowsTheRing(const Param& param, const Scenario& s) {
  if (param.path != "device.queue.fetch_batch") {
    return false;
  }
  const int by_default = std::min(DeviceConfig{}.fetch_batch, s.device.queue_depth);
  return s.device.fetch_batch == by_default;
}

// A registry section, nested as its key paths are; unset optional keys are left out. The
// top-level keys (section "") are written at the top level.
void WriteSection(Writer* w, const Scenario& s, std::string_view section) {
  if (section.empty()) {
    for (const Param& param : Parameters()) {
      if (SectionOf(param.path).empty()) {
        w->Line(0, std::string(param.path), CanonicalValueText(param, param.get(s)));
      }
    }
    return;
  }
  w->Line(0, std::string(section));
  std::vector<std::string_view> open;  // the nested mappings the previous key was in
  for (const Param& param : Parameters()) {
    if (SectionOf(param.path) != section || FollowsTheRing(param, s)) {
      continue;
    }
    std::vector<std::string_view> mappings;
    std::string_view rest = param.path.substr(section.size() + 1);
    for (size_t dot = rest.find('.'); dot != std::string_view::npos; dot = rest.find('.')) {
      mappings.push_back(rest.substr(0, dot));
      rest.remove_prefix(dot + 1);
    }
    size_t same = 0;
    while (same < open.size() && same < mappings.size() && open[same] == mappings[same]) {
      ++same;
    }
    for (size_t i = same; i < mappings.size(); ++i) {
      w->Line(static_cast<int>(i) + 1, std::string(mappings[i]));
    }
    open = mappings;
    const int depth = static_cast<int>(mappings.size()) + 1;
    const ParamValue value = param.get(s);
    if (const auto* costs = std::get_if<OpCostsNs>(&value)) {
      w->Line(depth, std::string(rest), costs->empty() ? "{}" : "");
      for (const auto& [name, ns] : *costs) {
        w->Line(depth + 1, Q(name), Ns(ns));
      }
    } else if (const auto* counts = std::get_if<OpCounts>(&value)) {
      w->Line(depth, std::string(rest), counts->empty() ? "{}" : "");
      for (const auto& [name, count] : *counts) {
        w->Line(depth + 1, Q(name), std::to_string(count));
      }
    } else if (!std::holds_alternative<std::monostate>(value)) {
      w->Line(depth, std::string(rest), CanonicalValueText(param, value));
    }
  }
}

// The program after the section's registry keys.
void WriteProgram(Writer* w, const Workload& wl) {
  static const char* const kInit[] = {"randn", "zeros", "ones", "nan", "inf"};
  w->Line(1, "tensors", wl.tensors.empty() ? "{}" : "");
  for (const TensorSpec& t : wl.tensors) {
    std::string shape;
    for (int64_t dim : t.shape) {
      shape += (shape.empty() ? "" : ", ") + std::to_string(dim);
    }
    w->Line(2, t.name,
            "{shape: [" + shape + "], dtype: " + DTypeName(t.dtype) + ", device: " + t.device +
                ", init: " + kInit[static_cast<int>(t.init)] + "}");
  }
  w->Line(1, "graphs", wl.graphs.empty() ? "{}" : "");
  for (const auto& [name, graph] : wl.graphs) {
    std::string body;
    for (const Step& step : graph.body) {
      body += (body.empty() ? "" : ", ") + StepFlow(step);
    }
    w->Line(2, name,
            "{inputs: " + Names(graph.params) + ", steps: [" + body + "], output: " + graph.result +
                "}");
  }
  Steps(w, "warmup", wl.warmup);
  Steps(w, "profile", wl.profile);
}

void ExpectAndSweep(Writer* w, const Scenario& s) {
  WriteSection(w, s, "expect");
  const Sweep& sweep = s.sweep;
  if (sweep.axes.empty()) {
    return;
  }
  WriteSection(w, s, "sweep");
  w->Line(1, "params");
  for (const SweepAxis& axis : sweep.axes) {
    std::string values;
    for (const std::string& value : axis.values) {
      values += (values.empty() ? "" : ", ") + value;
    }
    w->Line(2, Q(axis.path), "[" + values + "]");
  }
}

}  // namespace

std::string CanonicalPart(const Scenario& s, ScenarioPart part) {
  Writer w;
  switch (part) {
    case ScenarioPart::kHeader:
      WriteSection(&w, s, "");
      break;
    case ScenarioPart::kDevice:
      WriteSection(&w, s, "device");
      break;
    case ScenarioPart::kHost:
      WriteSection(&w, s, "host");
      break;
    case ScenarioPart::kEnv:
      WriteSection(&w, s, "env");
      break;
    case ScenarioPart::kWorkload:
      WriteSection(&w, s, "workload");
      WriteProgram(&w, s.workload);
      break;
    case ScenarioPart::kNaming:
      WriteSection(&w, s, "naming");
      break;
    case ScenarioPart::kExpectAndSweep:
      ExpectAndSweep(&w, s);
      break;
  }
  return w.Take();
}

std::string CanonicalYaml(const Scenario& s) {
  std::string text;
  for (ScenarioPart part : kScenarioParts) {
    text += CanonicalPart(s, part);
  }
  return text;
}

std::optional<ScenarioPart> PartOfKey(std::string_view top_level_key) {
  const std::string_view key = top_level_key.substr(0, top_level_key.find('.'));
  if (const Param* param = FindParam(key); param != nullptr && SectionOf(param->path).empty()) {
    return ScenarioPart::kHeader;
  }
  static constexpr std::pair<std::string_view, ScenarioPart> kKeys[] = {
      {"device", ScenarioPart::kDevice},
      {"host", ScenarioPart::kHost},
      {"env", ScenarioPart::kEnv},
      {"workload", ScenarioPart::kWorkload},
      {"naming", ScenarioPart::kNaming},
      {"expect", ScenarioPart::kExpectAndSweep},
      {"sweep", ScenarioPart::kExpectAndSweep},
  };
  for (const auto& [name, part] : kKeys) {
    if (key == name) {
      return part;
    }
  }
  return std::nullopt;
}

ScenarioDigest DigestScenario(const Scenario& scenario) {
  ScenarioDigest digest;
  for (ScenarioPart part : kScenarioParts) {
    UpdateDigest(scenario, part, &digest);
  }
  return digest;
}

void UpdateDigest(const Scenario& scenario, ScenarioPart part, ScenarioDigest* digest) {
  digest->parts[static_cast<size_t>(part)] = Fnv1a64(CanonicalPart(scenario, part));
}

std::string DigestHash(const ScenarioDigest& digest) {
  // A hash of the part hashes: a sweep point that changes one part re-hashes only that part.
  std::string text = "rblnsim-scenario/2";
  char buffer[18];
  for (uint64_t part : digest.parts) {
    std::snprintf(buffer, sizeof(buffer), ":%016llx", static_cast<unsigned long long>(part));
    text += buffer;
  }
  std::snprintf(buffer, sizeof(buffer), "%016llx", static_cast<unsigned long long>(Fnv1a64(text)));
  return std::string(buffer, 16);
}

uint64_t Fnv1a64(std::string_view bytes) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::string ScenarioHash(const Scenario& scenario) {
  return DigestHash(DigestScenario(scenario));
}

}  // namespace rblnsim::scenario
