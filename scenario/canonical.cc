#include "scenario/canonical.h"

#include <cstdio>

#include "scenario/units.h"
#include "scenario/yaml_tree.h"

namespace rblnsim::scenario {
namespace {

// Values in base units with their unit, so the text loads back exactly.
std::string Ns(double ns) {
  return FormatNumber(ns) + "ns";
}
std::string Bytes(int64_t bytes) {
  return std::to_string(bytes) + "B";
}
std::string PerS(double bytes_per_s) {
  return FormatNumber(bytes_per_s) + "B/s";
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
      return "{op: " + step.op + ", inputs: " + Names(step.inputs) + ", out: " + step.output +
             ", scalars: [" + scalars + "]}";
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

void WriteDevice(Writer* w, const DeviceConfig& d) {
  static const char* const kDataflow[] = {"ws", "os", "is"};
  w->Line(0, "device");
  w->Line(1, "variant", d.variant == DeviceVariant::kAtom ? "atom" : "rebel100");
  w->Line(1, "card_name", Q(d.card_name));
  w->Line(1, "chiplets", std::to_string(d.chiplets));
  w->Line(1, "clock", FormatNumber(d.clock_ghz) + "GHz");
  w->Line(1, "matmul");
  w->Line(2, "engines_per_chiplet", std::to_string(d.engines_per_chiplet));
  w->Line(2, "array_rows", std::to_string(d.array_rows));
  w->Line(2, "array_cols", std::to_string(d.array_cols));
  w->Line(2, "dataflow", kDataflow[static_cast<int>(d.dataflow)]);
  w->Line(2, "efficiency", FormatNumber(d.matmul_efficiency));
  w->Line(2, "sram", Bytes(d.sram_bytes_per_chiplet));
  w->Line(2, "split_min_flops", std::to_string(d.chiplet_split_min_flops));
  w->Line(1, "gce");
  w->Line(2, "elements_per_cycle", std::to_string(d.gce_elements_per_cycle));
  w->Line(2, "efficiency", FormatNumber(d.gce_efficiency));
  w->Line(1, "hbm");
  w->Line(2, "capacity", Bytes(d.hbm_bytes_per_chiplet));
  w->Line(2, "bandwidth", PerS(d.hbm_bandwidth_bytes_per_s));
  w->Line(1, "d2d");
  w->Line(2, "latency", Ns(d.d2d_latency_ns));
  w->Line(2, "bandwidth", PerS(d.d2d_bandwidth_bytes_per_s));
  w->Line(1, "dma");
  w->Line(2, "bandwidth", PerS(d.dma_bandwidth_bytes_per_s));
  w->Line(2, "efficiency", FormatNumber(d.dma_efficiency));
  w->Line(1, "pcie");
  w->Line(2, "bandwidth", PerS(d.pcie_bandwidth_bytes_per_s));
  w->Line(2, "links", std::to_string(d.pcie_links));
  w->Line(2, "latency", Ns(d.pcie_latency_ns));
  w->Line(1, "queue");
  w->Line(2, "depth", std::to_string(d.queue_depth));
  w->Line(2, "fetch_batch", std::to_string(d.fetch_batch));
  w->Line(2, "doorbell", Ns(d.doorbell_ns));
  w->Line(2, "decode", Ns(d.decode_ns));
  w->Line(2, "dispatch", Ns(d.dispatch_ns));
  w->Line(2, "completion", Ns(d.completion_ns));
  w->Line(2, "command_overhead", FormatNumber(d.command_overhead_cycles));
  w->Line(2, "command_timeout", Ns(d.command_timeout_ns));
  w->Line(1, "profiler");
  w->Line(2, "record_buffer", std::to_string(d.record_buffer_capacity));
  w->Line(2, "clock_offset", Ns(d.clock_offset_ns));
  w->Line(2, "clock_drift_ppm", FormatNumber(d.clock_drift_ppm));
  w->Line(1, "faults");
  w->Line(2, "hang_command", Q(d.hang_command));
}

void WriteHost(Writer* w, const HostConfig& h) {
  w->Line(0, "host");
  w->Line(1, "pid", std::to_string(h.pid));
  w->Line(1, "tid", std::to_string(h.tid));
  w->Line(1, "process_name", Q(h.process_name));
  w->Line(1, "op_costs", h.op_costs.empty() ? "{}" : "");
  for (const auto& [name, cost] : h.op_costs) {
    w->Line(2, Q(name), Ns(cost.self_ns));
  }
  w->Line(1, "default_op_cost", Ns(h.default_op_ns));
  w->Line(1, "jitter", FormatNumber(h.jitter));
  w->Line(1, "runtime_submit", Ns(h.runtime_submit_ns));
  w->Line(1, "compile", Ns(h.compile_ns));
  w->Line(1, "copy_bandwidth", PerS(h.host_copy_bytes_per_s));
  w->Line(1, "steady_epoch", std::to_string(h.steady_epoch_ns) + "ns");
  w->Line(1, "system_epoch", std::to_string(h.system_epoch_ns) + "ns");
}

void WriteWorkload(Writer* w, const Workload& wl) {
  static const char* const kInit[] = {"randn", "zeros", "ones", "nan", "inf"};
  w->Line(0, "workload");
  std::string activities;
  if (wl.activity_cpu) {
    activities = "cpu";
  }
  if (wl.activity_privateuse1) {
    activities += activities.empty() ? "privateuse1" : ", privateuse1";
  }
  w->Line(1, "activities", "[" + activities + "]");
  w->Line(1, "bridge", wl.bridge);
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

void ExpectAndSweep(Writer* w, const Expect& e, const Sweep& sweep) {
  w->Line(0, "expect");
  if (e.device_events) {
    w->Line(1, "device_events", std::to_string(*e.device_events));
  }
  if (e.self_rbln_total_us) {
    w->Line(1, "self_rbln_total_us", FormatNumber(*e.self_rbln_total_us));
  }
  w->Line(1, "self_rbln_tolerance", FormatNumber(e.self_rbln_tolerance));
  if (e.fallbacks) {
    w->Line(1, "fallbacks", std::to_string(*e.fallbacks));
  }
  if (e.latency_p99_max_ns) {
    w->Line(1, "latency_p99_max", Ns(*e.latency_p99_max_ns));
  }
  w->Line(1, "op_calls", e.op_calls.empty() ? "{}" : "");
  for (const auto& [name, count] : e.op_calls) {
    w->Line(2, Q(name), std::to_string(count));
  }
  if (sweep.axes.empty()) {
    return;
  }
  w->Line(0, "sweep");
  w->Line(1, "mode", sweep.mode == Sweep::Mode::kZip ? "zip" : "grid");
  w->Line(1, "params");
  for (const SweepAxis& axis : sweep.axes) {
    std::string values;
    for (const std::string& value : axis.values) {
      values += (values.empty() ? "" : ", ") + value;
    }
    w->Line(2, Q(axis.path), "[" + values + "]");
  }
}

void WriteHeader(Writer* w, const Scenario& s) {
  w->Line(0, "scenario", Q(s.name));
  w->Line(0, "description", Q(s.description));
  w->Line(0, "seed", std::to_string(s.seed));
}

void WriteEnv(Writer* w, const EnvConfig& env) {
  w->Line(0, "env");
  w->Line(1, "RBLN_PROFILER", env.rbln_profiler ? "\"1\"" : "\"0\"");
  w->Line(1, "RBLN_PROFILER_DIR", Q(env.rbln_profiler_dir));
  w->Line(1, "TORCH_RBLN_DEPLOY", env.torch_rbln_deploy ? "\"ON\"" : "\"OFF\"");
  w->Line(1, "RBLN_RUNTIME_FORCE_SYNC", env.runtime_force_sync ? "\"1\"" : "\"0\"");
}

void WriteNaming(Writer* w, const Naming& naming) {
  w->Line(0, "naming");
  w->Line(1, "command_template", Q(naming.command_template));
  w->Line(1, "instance_base", std::to_string(naming.instance_base));
}

}  // namespace

std::string CanonicalPart(const Scenario& s, ScenarioPart part) {
  Writer w;
  switch (part) {
    case ScenarioPart::kHeader:
      WriteHeader(&w, s);
      break;
    case ScenarioPart::kDevice:
      WriteDevice(&w, s.device);
      break;
    case ScenarioPart::kHost:
      WriteHost(&w, s.host);
      break;
    case ScenarioPart::kEnv:
      WriteEnv(&w, s.env);
      break;
    case ScenarioPart::kWorkload:
      WriteWorkload(&w, s.workload);
      break;
    case ScenarioPart::kNaming:
      WriteNaming(&w, s.naming);
      break;
    case ScenarioPart::kExpectAndSweep:
      ExpectAndSweep(&w, s.expect, s.sweep);
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
  if (key == "scenario" || key == "description" || key == "seed") {
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
