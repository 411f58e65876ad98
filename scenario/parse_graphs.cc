// workload.graphs and {graph: NAME, ...} steps: modules compiled with
// torch.compile(backend="rbln"). A definition is checked for structure once; its body is
// type-checked at every call, because the types flow in from the call's arguments. Names in a body
// resolve as the host model resolves them: an earlier body output, then a graph input, then a
// workload tensor (the weights).
#include <algorithm>
#include <map>

#include "scenario/suggest.h"
#include "scenario/workload_checker.h"

namespace rblnsim::scenario {
namespace {

// Keys of the other step kinds, which a compiled graph cannot hold.
constexpr const char* kNotInGraphs[] = {"graph", "cpu", "synchronize", "repeat", "steps"};

std::string Index(const std::string& path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

// One op step of a graph body: {op: NAME, inputs: [...], out: NAME, scalars: [...]}.
StatusOr<Step> ReadGraphOp(const YamlNode& item, const std::string& path, const YamlNode** inputs) {
  if (item.kind != YamlNode::Kind::kMap) {
    return NodeError(item, path + ": expected an op step {op: ..., inputs: [...], out: ...}, " +
                               "got a " + item.KindName());
  }
  for (const auto& [key, value] : item.entries) {
    for (const char* kind : kNotInGraphs) {
      if (key->scalar == kind) {
        return NodeError(*key, "a graph body holds op steps only; " + Quoted(kind) +
                                   " cannot appear in a compiled graph");
      }
    }
  }
  RBLNSIM_ASSIGN_OR_RETURN(Section s,
                           Section::Open(&item, path, {"op", "inputs", "out", "scalars"}));
  Step step;
  step.kind = Step::Kind::kOp;
  step.loc = ToSourceLoc(item);
  const YamlNode* op = s.Get("op");
  if (op == nullptr) {
    return NodeError(item, path + " needs op: <name>");
  }
  RBLNSIM_ASSIGN_OR_RETURN(std::string_view op_name, ScalarText(*op, s.Path("op"), "an op name"));
  StatusOr<const OpInfo*> info = LookupOp(op_name);
  if (!info.ok()) {
    return NodeError(*op, info.status().message());
  }
  step.op = std::string(op_name);
  *inputs = s.Get("inputs");
  if (*inputs == nullptr) {
    return NodeError(item, path + ": op step needs inputs: [...]");
  }
  RBLNSIM_RETURN_IF_ERROR(ExpectSequence(**inputs, s.Path("inputs")));
  for (size_t i = 0; i < (*inputs)->items.size(); ++i) {
    RBLNSIM_ASSIGN_OR_RETURN(std::string name,
                             ReadTensorName(*(*inputs)->items[i], Index(s.Path("inputs"), i)));
    step.inputs.push_back(std::move(name));
  }
  if (const YamlNode* scalars = s.Get("scalars"); scalars != nullptr) {
    RBLNSIM_RETURN_IF_ERROR(ExpectSequence(*scalars, s.Path("scalars")));
    for (size_t i = 0; i < scalars->items.size(); ++i) {
      RBLNSIM_ASSIGN_OR_RETURN(
          double value, ReadDoubleNode(*scalars->items[i], Index(s.Path("scalars"), i), Any()));
      step.scalars.push_back(value);
    }
  }
  const YamlNode* out = s.Get("out");
  if (out == nullptr) {
    return NodeError(item, path + ": op step needs out: <tensor name>");
  }
  RBLNSIM_ASSIGN_OR_RETURN(step.output, ReadTensorName(*out, s.Path("out")));
  return step;
}

}  // namespace

Status WorkloadChecker::Graphs(const YamlNode* node) {
  if (node == nullptr || node->kind == YamlNode::Kind::kNull) {
    return Status::Ok();
  }
  if (node->kind != YamlNode::Kind::kMap) {
    return NodeError(*node, "workload.graphs: expected a mapping of name to graph, got a " +
                                std::string(node->KindName()));
  }
  for (const auto& [key, value] : node->entries) {
    const std::string path = "workload.graphs." + Printable(key->scalar);
    if (!IsIdentifier(key->scalar)) {
      return NodeError(*key, "graph name " + Quoted(key->scalar) +
                                 " must be an identifier (letters, digits, _)");
    }
    if (value->kind != YamlNode::Kind::kMap) {
      return NodeError(*value, path + ": expected {inputs: [...], steps: [...], output: NAME}, " +
                                   "got a " + value->KindName());
    }
    RBLNSIM_ASSIGN_OR_RETURN(Section s,
                             Section::Open(value.get(), path, {"inputs", "steps", "output"}));
    GraphSpec spec;
    spec.name = key->scalar;
    spec.loc = ToSourceLoc(*key);
    GraphNodes nodes;
    if (const YamlNode* params = s.Get("inputs"); params != nullptr) {
      RBLNSIM_RETURN_IF_ERROR(ExpectSequence(*params, s.Path("inputs")));
      for (size_t i = 0; i < params->items.size(); ++i) {
        RBLNSIM_ASSIGN_OR_RETURN(std::string name,
                                 ReadTensorName(*params->items[i], Index(s.Path("inputs"), i)));
        if (std::find(spec.params.begin(), spec.params.end(), name) != spec.params.end()) {
          return NodeError(*params->items[i], "graph input " + Quoted(name) + " is listed twice");
        }
        spec.params.push_back(std::move(name));
      }
    }
    const YamlNode* steps = s.Get("steps");
    if (steps == nullptr || steps->kind != YamlNode::Kind::kSequence || steps->items.empty()) {
      return NodeError(steps != nullptr ? *steps : *value,
                       path + " needs a non-empty steps: [...] list of op steps");
    }
    std::vector<std::string_view> produced;
    for (size_t i = 0; i < steps->items.size(); ++i) {
      const YamlNode* inputs = nullptr;
      RBLNSIM_ASSIGN_OR_RETURN(Step step,
                               ReadGraphOp(*steps->items[i], Index(s.Path("steps"), i), &inputs));
      nodes.step_inputs.push_back(inputs);
      spec.body.push_back(std::move(step));
    }
    for (const Step& step : spec.body) {
      produced.push_back(step.output);
    }
    const YamlNode* output = s.Get("output");
    if (output == nullptr) {
      return NodeError(*value, path + " needs output: <a body tensor>");
    }
    RBLNSIM_ASSIGN_OR_RETURN(spec.result, ReadTensorName(*output, s.Path("output")));
    if (std::find(produced.begin(), produced.end(), spec.result) == produced.end()) {
      return NodeError(*output, "graph " + Quoted(spec.name) + " does not produce " +
                                    Quoted(spec.result) + DidYouMean(spec.result, produced));
    }
    nodes.output = output;
    const std::string name = spec.name;
    nodes.spec = &workload_->graphs.emplace(name, std::move(spec)).first->second;
    graphs_[name] = std::move(nodes);
  }
  return Status::Ok();
}

Status WorkloadChecker::GraphStep(const Section& s, Step* step) {
  step->kind = Step::Kind::kGraph;
  const YamlNode* graph_node = s.Get("graph");
  RBLNSIM_ASSIGN_OR_RETURN(std::string_view graph_name,
                           ScalarText(*graph_node, s.Path("graph"), "a graph name"));
  const auto found = graphs_.find(std::string(graph_name));
  if (found == graphs_.end()) {
    std::vector<std::string_view> names;
    for (const auto& entry : graphs_) {
      names.push_back(entry.first);
    }
    return NodeError(*graph_node, "unknown graph " + Quoted(graph_name) +
                                      DidYouMean(graph_name, names) +
                                      " (define it under workload.graphs)");
  }
  const GraphNodes& nodes = found->second;
  const GraphSpec& graph = *nodes.spec;
  step->graph = graph.name;

  // Bind the call's arguments to the graph's inputs.
  const YamlNode* inputs = s.Get("inputs");
  const size_t given = inputs != nullptr ? inputs->items.size() : 0;
  if (inputs != nullptr) {
    RBLNSIM_RETURN_IF_ERROR(ExpectSequence(*inputs, s.Path("inputs")));
  }
  if (given != graph.params.size()) {
    return NodeError(inputs != nullptr ? *inputs : *s.node(),
                     "graph " + Quoted(graph.name) + " takes " +
                         std::to_string(graph.params.size()) + " input(s), got " +
                         std::to_string(given));
  }
  std::map<std::string, const TensorState*> bound;
  for (size_t i = 0; i < given; ++i) {
    const YamlNode& name = *inputs->items[i];
    RBLNSIM_ASSIGN_OR_RETURN(const TensorState* state, Lookup(name, Index(s.Path("inputs"), i)));
    bound[graph.params[i]] = state;
    step->inputs.push_back(name.scalar);
  }

  // Type-check the body with these arguments.
  const std::string call =
      " (in graph " + Quoted(graph.name) + ", called at " + FormatLocation(*s.node()) + ")";
  std::map<std::string, TensorType> locals;
  for (size_t i = 0; i < graph.body.size(); ++i) {
    const Step& op = graph.body[i];
    std::vector<TensorType> types;
    for (size_t j = 0; j < op.inputs.size(); ++j) {
      const std::string& name = op.inputs[j];
      if (const auto local = locals.find(name); local != locals.end()) {
        types.push_back(local->second);
      } else if (const auto param = bound.find(name); param != bound.end()) {
        types.push_back(param->second->type);
      } else if (const auto tensor = tensors_.find(name); tensor != tensors_.end()) {
        types.push_back(tensor->second.type);
      } else {
        return NodeError(*nodes.step_inputs[i]->items[j],
                         "undefined tensor " + Quoted(name) + " in a graph body: not an " +
                             "earlier output, a graph input or a workload tensor" + call);
      }
    }
    StatusOr<TensorType> result = InferOutput(*FindOp(op.op), types, op.scalars);
    if (!result.ok()) {
      return NodeError(*nodes.step_inputs[i], "op " + result.status().message() + call);
    }
    locals[op.output] = *result;
    step->graph_types.push_back(OpSignature{std::move(types), *std::move(result)});
  }

  const YamlNode* out = s.Get("out");
  if (out == nullptr) {
    return NodeError(*s.node(), s.path() + ": graph step needs out: <name>");
  }
  RBLNSIM_ASSIGN_OR_RETURN(step->output, ReadTensorName(*out, s.Path("out")));
  // A compiled graph runs on the device; CPU arguments are copied in.
  Assign(step->output, TensorState{locals.at(graph.result), true, out});
  return Status::Ok();
}

}  // namespace rblnsim::scenario
