// workload: activities and the warm-up/profile step lists (tensors: parse_tensors.cc; graphs:
// parse_graphs.cc). Every tensor's type is tracked through the program with the op catalogue, so a
// shape mismatch or an undefined tensor is caught here, at the step that has it, rather than
// minutes into a simulation.
#include <map>
#include <optional>

#include "scenario/op_catalog.h"
#include "scenario/parse_sections.h"
#include "scenario/registry.h"
#include "scenario/section.h"
#include "scenario/suggest.h"
#include "scenario/workload_checker.h"

namespace rblnsim::scenario {
namespace {

constexpr int kMaxRepeatNesting = 16;

int64_t SaturatingMul(int64_t a, int64_t b) {
  int64_t product = 0;
  return __builtin_mul_overflow(a, b, &product) ? INT64_MAX : product;
}

}  // namespace

void WorkloadChecker::Assign(const std::string& name, TensorState state) {
  const auto it = tensors_.find(name);
  if (!journals_.empty() && journals_.back().count(name) == 0) {
    journals_.back()[name] =
        it == tensors_.end() ? std::nullopt : std::optional<TensorType>(it->second.type);
  }
  tensors_[name] = std::move(state);
}

StatusOr<const WorkloadChecker::TensorState*> WorkloadChecker::Lookup(
    const YamlNode& name_node,
    const std::string& path) const {
  RBLNSIM_ASSIGN_OR_RETURN(std::string_view name, ScalarText(name_node, path, "a tensor name"));
  const auto it = tensors_.find(std::string(name));
  if (it != tensors_.end()) {
    return &it->second;
  }
  std::vector<std::string_view> names;
  for (const auto& entry : tensors_) {
    names.push_back(entry.first);
  }
  return NodeError(name_node, "undefined tensor " + Quoted(name) + DidYouMean(name, names) +
                                  " (declare it under workload.tensors or produce it with an op)");
}

Status WorkloadChecker::Steps(const YamlNode& list,
                              const std::string& path,
                              int depth,
                              std::vector<Step>* out,
                              int64_t* executed) {
  RBLNSIM_RETURN_IF_ERROR(ExpectSequence(list, path));
  for (size_t i = 0; i < list.items.size(); ++i) {
    Step step;
    RBLNSIM_RETURN_IF_ERROR(
        OneStep(*list.items[i], path + "[" + std::to_string(i) + "]", depth, &step, executed));
    out->push_back(std::move(step));
  }
  return Status::Ok();
}

Status WorkloadChecker::OneStep(const YamlNode& item,
                                const std::string& path,
                                int depth,
                                Step* step,
                                int64_t* executed) {
  if (item.kind != YamlNode::Kind::kMap) {
    return NodeError(item, path + ": expected a step ({op: ...}, {graph: ...}, {cpu: ...}, " +
                               "{synchronize: true} or {repeat: N, steps: [...]}), got a " +
                               item.KindName());
  }
  RBLNSIM_ASSIGN_OR_RETURN(
      Section s, Section::Open(&item, path,
                               {"op", "graph", "inputs", "out", "scalars", "compile", "cpu",
                                "synchronize", "repeat", "steps"}));
  step->loc = ToSourceLoc(item);
  const char* kind = nullptr;
  for (const char* candidate : {"op", "graph", "cpu", "synchronize", "repeat"}) {
    if (s.Get(candidate) == nullptr) {
      continue;
    }
    if (kind != nullptr) {
      return NodeError(*s.KeyNode(candidate), path + " has both '" + kind + "' and '" + candidate +
                                                  "'; write them as separate steps");
    }
    kind = candidate;
  }
  if (kind == nullptr) {
    return NodeError(item, path + " needs one of op, graph, cpu, synchronize or repeat");
  }
  const std::string_view kind_view = kind;
  // Keys that belong to another kind of step.
  for (const auto& [key, value] : item.entries) {
    const std::string& name = key->scalar;
    const bool fits = name == kind_view ||
                      (kind_view == "op" && (name == "inputs" || name == "out" ||
                                             name == "scalars" || name == "compile")) ||
                      (kind_view == "graph" && (name == "inputs" || name == "out")) ||
                      (kind_view == "repeat" && name == "steps");
    if (!fits) {
      return NodeError(*key, "key " + Quoted(name) + " does not belong in a " + kind + " step");
    }
  }
  if (kind_view == "op" || kind_view == "graph") {
    ++*executed;  // a graph call is one launch
    return kind_view == "op" ? OpStep(s, step) : GraphStep(s, step);
  }
  if (kind_view == "repeat") {
    return Repeat(s, depth, step, executed);
  }
  ++*executed;
  if (kind_view == "cpu") {
    step->kind = Step::Kind::kCpu;
    RBLNSIM_RETURN_IF_ERROR(Lookup(*s.Get("cpu"), s.Path("cpu")).status());
    step->inputs = {s.Get("cpu")->scalar};
    return Status::Ok();
  }
  step->kind = Step::Kind::kSynchronize;
  bool sync = false;
  RBLNSIM_RETURN_IF_ERROR(s.Bool("synchronize", &sync));
  if (!sync) {
    return NodeError(*s.Get("synchronize"), "synchronize: false does nothing; write true");
  }
  return Status::Ok();
}

Status WorkloadChecker::OpStep(const Section& s, Step* step) {
  step->kind = Step::Kind::kOp;
  const YamlNode* op_node = s.Get("op");
  RBLNSIM_ASSIGN_OR_RETURN(std::string_view op_name,
                           ScalarText(*op_node, s.Path("op"), "an op name"));
  // "add_": the in-place form of an elementwise op, as torch spells it.
  if (op_name.size() > 1 && op_name.back() == '_' && FindOp(op_name) == nullptr) {
    const OpInfo* base = FindOp(op_name.substr(0, op_name.size() - 1));
    if (base != nullptr && (base->rule == OpRule::kUnary || base->rule == OpRule::kBinary ||
                            base->rule == OpRule::kClamp)) {
      step->in_place = true;
      op_name.remove_suffix(1);
    }
  }
  StatusOr<const OpInfo*> op = LookupOp(op_name);
  if (!op.ok()) {
    return NodeError(*op_node, op.status().message());
  }
  step->op = std::string(op_name);

  const YamlNode* inputs = s.Get("inputs");
  if (inputs == nullptr) {
    return NodeError(*s.node(), s.path() + ": op step needs inputs: [...]");
  }
  RBLNSIM_RETURN_IF_ERROR(ExpectSequence(*inputs, s.Path("inputs")));
  std::vector<TensorType> types;
  const TensorState* on_device = nullptr;
  const TensorState* on_cpu = nullptr;
  std::string device_name, cpu_name;
  for (size_t i = 0; i < inputs->items.size(); ++i) {
    const YamlNode& name = *inputs->items[i];
    RBLNSIM_ASSIGN_OR_RETURN(const TensorState* state,
                             Lookup(name, s.Path("inputs") + "[" + std::to_string(i) + "]"));
    types.push_back(state->type);
    step->inputs.push_back(name.scalar);
    // torch allows a 0-dim CPU tensor next to device tensors, nothing larger.
    if (state->on_device && on_device == nullptr) {
      on_device = state, device_name = name.scalar;
    }
    if (!state->on_device && !state->type.shape.empty() && on_cpu == nullptr) {
      on_cpu = state, cpu_name = name.scalar;
    }
  }
  if (on_device != nullptr && on_cpu != nullptr) {
    return NodeError(*inputs, "inputs are on different devices: " + Quoted(device_name) +
                                  " is on rbln, " + Quoted(cpu_name) + " on cpu");
  }
  if (const YamlNode* scalars = s.Get("scalars"); scalars != nullptr) {
    RBLNSIM_RETURN_IF_ERROR(ExpectSequence(*scalars, s.Path("scalars")));
    for (size_t i = 0; i < scalars->items.size(); ++i) {
      RBLNSIM_ASSIGN_OR_RETURN(
          double value, ReadDoubleNode(*scalars->items[i],
                                       s.Path("scalars") + "[" + std::to_string(i) + "]", Any()));
      step->scalars.push_back(value);
    }
  }
  StatusOr<TensorType> result = InferOutput(**op, types, step->scalars);
  if (!result.ok()) {
    const bool about_scalars = result.status().message().find("scalar") != std::string::npos;
    const YamlNode* where = about_scalars && s.Get("scalars") ? s.Get("scalars") : inputs;
    return NodeError(*where, "op " + result.status().message());
  }
  step->types = OpSignature{types, *result};
  if (const YamlNode* compile = s.Get("compile"); compile != nullptr) {
    RBLNSIM_ASSIGN_OR_RETURN(std::string_view outcome,
                             ScalarText(*compile, s.Path("compile"), "error"));
    if (outcome != "error") {
      return NodeError(*compile, s.Path("compile") + ": expected error (the compile of this op " +
                                     "fails, and it runs on the CPU), got " + Quoted(outcome));
    }
    if (!(*op)->device_supported) {
      return NodeError(*compile, "op " + step->op +
                                     " has no device kernel, so it is never compiled; "
                                     "compile: error needs an op that runs on the device");
    }
    step->compile_fails = true;
  }
  const YamlNode* out = s.Get("out");
  if (step->in_place) {
    // torch refuses an in-place op whose result would not fit self: another dtype category or a
    // broadcast shape.
    if (!(result->shape == types[0].shape && result->dtype == types[0].dtype)) {
      return NodeError(*inputs, "op " + step->op + "_: the result " + result->ToString() +
                                    " does not fit self " + types[0].ToString() +
                                    " (an in-place op writes into its first input)");
    }
    if (out != nullptr) {
      return NodeError(*out, "op " + step->op + "_ writes into its first input; leave out: away");
    }
    step->output = step->inputs[0];
    Assign(step->output, TensorState{*result, on_device != nullptr, inputs->items[0].get()});
    return Status::Ok();
  }
  if (out == nullptr) {
    return NodeError(*s.node(), s.path() + ": op step needs out: <tensor name>");
  }
  RBLNSIM_ASSIGN_OR_RETURN(step->output, ReadTensorName(*out, s.Path("out")));
  // The result lives where its inputs do; tensor.device is the logical device even after a
  // CPU fallback.
  Assign(step->output, TensorState{*result, on_device != nullptr, out});
  return Status::Ok();
}

Status WorkloadChecker::Repeat(const Section& s, int depth, Step* step, int64_t* executed) {
  step->kind = Step::Kind::kRepeat;
  const YamlNode* count_node = s.Get("repeat");
  RBLNSIM_ASSIGN_OR_RETURN(step->count, ReadIntNode(*count_node, s.Path("repeat"), AtLeast(1)));
  if (step->count > kMaxRepeatCount) {
    return NodeError(*count_node, "huge loop count: repeat " + std::to_string(step->count) +
                                      " exceeds the limit of " + std::to_string(kMaxRepeatCount));
  }
  if (depth >= kMaxRepeatNesting) {
    return NodeError(*count_node,
                     "repeats nested deeper than " + std::to_string(kMaxRepeatNesting) + " levels");
  }
  const YamlNode* body = s.Get("steps");
  if (body == nullptr || body->kind != YamlNode::Kind::kSequence || body->items.empty()) {
    return NodeError(body != nullptr ? *body : *s.node(),
                     s.path() + ": repeat needs a non-empty steps: [...] list");
  }
  journals_.emplace_back();
  int64_t body_steps = 0;
  Status body_status = Steps(*body, s.Path("steps"), depth + 1, &step->body, &body_steps);
  std::map<std::string, std::optional<TensorType>> journal = std::move(journals_.back());
  journals_.pop_back();
  RBLNSIM_RETURN_IF_ERROR(body_status);
  // A second iteration sees the types the first one left; they must be the ones it started with.
  for (const auto& [name, before] : journal) {
    const TensorState& now = tensors_.at(name);
    if (step->count > 1 && before.has_value() && now.type != *before) {
      return NodeError(*now.assigned_at, "tensor " + Quoted(name) + " changes type inside a " +
                                             "repeat (" + before->ToString() + " -> " +
                                             now.type.ToString() + "); a repeated body must " +
                                             "leave types as it found them");
    }
    // The enclosing body saw the same state before this repeat began.
    if (!journals_.empty()) {
      journals_.back().emplace(name, before);
    }
  }
  const int64_t total = SaturatingMul(body_steps, step->count);
  if (total > kMaxExecutedSteps || *executed + total > kMaxExecutedSteps) {
    return NodeError(*count_node, "huge loop count: the workload would execute more than " +
                                      std::to_string(kMaxExecutedSteps) +
                                      " steps (this repeat: " + std::to_string(step->count) +
                                      " x " + std::to_string(body_steps) + " steps)");
  }
  *executed += total;
  return Status::Ok();
}

Status ParseWorkload(const YamlNode* node, Scenario* scenario) {
  if (node == nullptr || node->kind != YamlNode::Kind::kMap) {
    return Status::Error("internal: ParseWorkload needs a mapping");  // ValidateDocument checks
  }
  // The registry's keys (activities, bridge) first; the rest is the program.
  static const std::vector<std::string_view> kProgram = {"tensors", "graphs", "warmup", "profile"};
  RBLNSIM_RETURN_IF_ERROR(ReadRegistrySection(node, "workload", scenario, nullptr, kProgram));
  std::vector<std::string_view> keys = ChildKeys("workload");
  keys.insert(keys.end(), kProgram.begin(), kProgram.end());
  RBLNSIM_ASSIGN_OR_RETURN(Section s, Section::Open(node, "workload", keys));
  Workload* workload = &scenario->workload;
  WorkloadChecker checker(workload);
  RBLNSIM_RETURN_IF_ERROR(checker.Tensors(s.Get("tensors")));
  RBLNSIM_RETURN_IF_ERROR(checker.Graphs(s.Get("graphs")));
  int64_t executed = 0;
  if (const YamlNode* warmup = s.Get("warmup"); warmup != nullptr) {
    RBLNSIM_RETURN_IF_ERROR(
        checker.Steps(*warmup, s.Path("warmup"), 0, &workload->warmup, &executed));
  }
  const YamlNode* profile = s.Get("profile");
  if (profile == nullptr || profile->kind == YamlNode::Kind::kNull ||
      (profile->kind == YamlNode::Kind::kSequence && profile->items.empty())) {
    const YamlNode& where = profile != nullptr ? *profile : *s.node();
    return NodeError(where, "workload.profile needs at least one step");
  }
  return checker.Steps(*profile, s.Path("profile"), 0, &workload->profile, &executed);
}

}  // namespace rblnsim::scenario
