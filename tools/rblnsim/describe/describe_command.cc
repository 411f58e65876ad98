#include "tools/rblnsim/describe/describe_command.h"

#include <cstdio>
#include <optional>
#include <set>

#include "profiler/trace/json_writer.h"
#include "scenario/canonical.h"
#include "scenario/host_op_costs.h"
#include "scenario/loader.h"
#include "scenario/op_catalog.h"
#include "tools/rblnsim/bad_input.h"
#include "tools/rblnsim/describe/describe_parameters.h"

namespace rblnsim::cli {

namespace {

const char* InitName(scenario::TensorInit init) {
  switch (init) {
    case scenario::TensorInit::kRandn:
      return "randn";
    case scenario::TensorInit::kZeros:
      return "zeros";
    case scenario::TensorInit::kOnes:
      return "ones";
    case scenario::TensorInit::kNan:
      return "nan";
    case scenario::TensorInit::kInf:
      return "inf";
  }
  return "randn";
}

void WriteNames(trace::JsonWriter& json, const std::vector<std::string>& names) {
  json.BeginArray();
  for (const std::string& name : names)
    json.String(name);
  json.EndArray();
}

// The loader's types of one op application: {"inputs": ["fp16[512,512]", ...], "out": "..."}.
void WriteSignature(trace::JsonWriter& json, const scenario::OpSignature& types) {
  json.BeginObject();
  json.Key("inputs").BeginArray();
  for (const scenario::TensorType& type : types.inputs)
    json.String(type.ToString());
  json.EndArray();
  json.Key("out").String(types.output.ToString());
  json.EndObject();
}

// One step in the YAML's own shape, so a reader of the JSON can use the scenario reference
// (scenarios/README.md, "Steps") as its documentation, plus the types the loader resolved.
void WriteStep(trace::JsonWriter& json, const scenario::Step& step) {
  json.BeginObject();
  switch (step.kind) {
    case scenario::Step::Kind::kOp:
      // An in-place step as it is written: "add_".
      json.Key("op").String(step.in_place ? step.op + "_" : step.op);
      json.Key("inputs");
      WriteNames(json, step.inputs);
      json.Key("out").String(step.output);
      json.Key("scalars").BeginArray();
      for (double scalar : step.scalars)
        json.Double(scalar);
      json.EndArray();
      if (step.Typed()) {  // a graph body's ops are typed per call, on the call step
        json.Key("types");
        WriteSignature(json, step.types);
      }
      break;
    case scenario::Step::Kind::kCpu:
      json.Key("cpu").String(step.inputs.empty() ? std::string() : step.inputs.front());
      break;
    case scenario::Step::Kind::kSynchronize:
      json.Key("synchronize").Bool(true);
      break;
    case scenario::Step::Kind::kRepeat:
      json.Key("repeat").Int(step.count);
      json.Key("steps").BeginArray();
      for (const scenario::Step& inner : step.body)
        WriteStep(json, inner);
      json.EndArray();
      break;
    case scenario::Step::Kind::kGraph:
      json.Key("graph").String(step.graph);
      json.Key("inputs");
      WriteNames(json, step.inputs);
      json.Key("out").String(step.output);
      json.Key("types").BeginArray();  // one signature per body op, for this call's arguments
      for (const scenario::OpSignature& types : step.graph_types)
        WriteSignature(json, types);
      json.EndArray();
      break;
  }
  json.Key("line").Int(step.loc.line);
  json.EndObject();
}

void WriteSteps(trace::JsonWriter& json, const std::vector<scenario::Step>& steps) {
  json.BeginArray();
  for (const scenario::Step& step : steps)
    WriteStep(json, step);
  json.EndArray();
}

// The fixed host cost a run charges per cost key: host.op_costs over the built-in table. Keys
// with neither are left out; a run charges them host.default_op_cost.
void WriteHostCosts(trace::JsonWriter& json, const scenario::HostConfig& host) {
  json.Key("op_costs_ns").BeginObject();
  std::set<std::string> written;  // KnownAtenNames() lists a few names twice (catalogue and host)
  for (std::string_view key : scenario::KnownAtenNames()) {
    const std::string name(key);
    if (!written.insert(name).second)
      continue;
    if (const std::optional<double> fixed_ns = scenario::GivenOrBuiltInFixedNs(host, name))
      json.Key(name).Double(*fixed_ns);
  }
  json.EndObject();
}

}  // namespace

std::string DescribeScenarioJson(const scenario::Scenario& s) {
  trace::StringSink sink;
  trace::JsonWriter json(&sink, 2);
  json.BeginObject();
  json.Key("format").String(kDescribeFormat);
  json.Key("scenario").String(s.name);
  json.Key("description").String(s.description);
  json.Key("source").String(s.source_path);
  json.Key("hash").String(scenario::ScenarioHash(s));
  json.Key("seed").Uint(s.seed);
  // Every registry key (device, host, env, naming, expect) in its stored unit.
  json.Key("parameters");
  WriteParameterValues(json, s);
  json.Key("host").BeginObject();
  WriteHostCosts(json, s.host);
  json.EndObject();
  // The variables as the process would have to set them; the process environment wins on a card
  // exactly as it does in `rblnsim run`.
  json.Key("env").BeginObject();
  json.Key("RBLN_PROFILER").String(std::string_view(s.env.rbln_profiler ? "1" : "0"));
  json.Key("RBLN_PROFILER_DIR").String(s.env.rbln_profiler_dir);
  json.Key("TORCH_RBLN_DEPLOY").String(s.env.torch_rbln_deploy ? "ON" : "OFF");
  json.Key("RBLN_RUNTIME_FORCE_SYNC")
      .String(std::string_view(s.env.runtime_force_sync ? "1" : "0"));
  json.EndObject();
  json.Key("activities").BeginArray();
  if (s.workload.activity_cpu)
    json.String("cpu");
  if (s.workload.activity_privateuse1)
    json.String("privateuse1");
  json.EndArray();
  json.Key("bridge").String(s.workload.bridge);
  json.Key("tensors").BeginArray();
  for (const scenario::TensorSpec& t : s.workload.tensors) {
    json.BeginObject();
    json.Key("name").String(t.name);
    json.Key("shape").BeginArray();
    for (int64_t dim : t.shape)
      json.Int(dim);
    json.EndArray();
    json.Key("dtype").String(scenario::DTypeName(t.dtype));
    json.Key("device").String(t.device);
    json.Key("init").String(InitName(t.init));
    json.EndObject();
  }
  json.EndArray();
  json.Key("graphs").BeginArray();
  for (const auto& [name, graph] : s.workload.graphs) {
    json.BeginObject();
    json.Key("name").String(name);
    json.Key("inputs");
    WriteNames(json, graph.params);
    json.Key("steps");
    WriteSteps(json, graph.body);
    json.Key("output").String(graph.result);
    json.EndObject();
  }
  json.EndArray();
  json.Key("warmup");
  WriteSteps(json, s.workload.warmup);
  json.Key("profile");
  WriteSteps(json, s.workload.profile);
  // Each sweep point as the --set arguments that select it (capture.py --point N).
  json.Key("sweep_points").BeginArray();
  for (const std::vector<std::string>& point : scenario::ExpandSweep(s.sweep))
    WriteNames(json, point);
  json.EndArray();
  json.EndObject();
  json.Finish();
  return sink.text();
}

int DescribeCommand(const DescribeOptions& options) {
  if (options.parameters && !options.scenario_path.empty()) {
    return ReportError(Status::Error("describe --parameters takes no scenario file"));
  }
  if (options.parameters) {
    const std::string text = options.json ? DescribeParametersJson() : DescribeParametersMarkdown();
    std::fputs(text.c_str(), stdout);
    return 0;
  }
  if (options.scenario_path.empty()) {
    return ReportError(Status::Error(
        "describe needs a scenario file (or --parameters for the parameter registry)"));
  }
  // The process environment is deliberately not applied: the description is of the scenario, and
  // the capture script applies the card's environment itself.
  auto loaded = scenario::LoadScenario(options.scenario_path, options.overlays, options.sets);
  if (!loaded.ok()) {
    return ReportError(loaded.status());
  }
  const std::string text =
      options.json ? DescribeScenarioJson(*loaded) : scenario::CanonicalYaml(*loaded);
  std::fputs(text.c_str(), stdout);
  return 0;
}

}  // namespace rblnsim::cli
