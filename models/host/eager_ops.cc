#include "models/host/eager_ops.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>

#include "models/compiler/op_compiler.h"

namespace rblnsim::host {

using scenario::DType;
using Location = TensorState::Location;

namespace {

// The type of an input, listed as types or as operands.
const TensorType& TypeOf(const TensorType& type) {
  return type;
}
template <typename Operand>
const TensorType& TypeOf(const Operand& in) {
  return in.state->type;
}
template <typename Inputs>
std::vector<TensorType> TypesOf(const Inputs& inputs) {
  std::vector<TensorType> types;
  types.reserve(inputs.size());
  for (const auto& in : inputs)
    types.push_back(TypeOf(in));
  return types;
}

// The elements an op frame's per-element cost scales with: its largest input, as the trace's
// Input Dims show it (compare_digest.cc reads the same from a captured trace). Over input types
// or over operands.
int64_t ElementsOf(const TensorType& type) {
  return type.NumElements();
}
template <typename Operand>
int64_t ElementsOf(const Operand& in) {
  return in.state->type.NumElements();
}
template <typename Inputs>
int64_t LargestElements(const Inputs& inputs) {
  int64_t largest = 0;
  for (const auto& in : inputs)
    largest = std::max(largest, ElementsOf(in));
  return largest;
}

}  // namespace

template <typename Inputs>
void EagerOps::RecordShapesOf(size_t event, const Inputs& inputs) {
  if (!host_->recording_)
    return;
  // Interned: a run has few distinct input signatures; past 65535 shapes are not recorded. Found
  // by comparing in place: a signature is copied only the first time it is seen.
  std::vector<sim::InputSignature>& shapes = host_->timeline_.shapes;
  const auto same = [&inputs](const sim::InputSignature& known) {
    return std::equal(known.begin(), known.end(), inputs.begin(), inputs.end(),
                      [](const TensorType& a, const auto& b) { return a == TypeOf(b); });
  };
  size_t found = std::find_if(shapes.begin(), shapes.end(), same) - shapes.begin();
  if (found == shapes.size()) {
    if (shapes.size() >= UINT16_MAX)
      return;
    shapes.push_back(TypesOf(inputs));
  }
  host_->timeline_.events[event].shapes_id = static_cast<uint16_t>(found + 1);
}

void EagerOps::RecordShapes(size_t event, const std::vector<TensorType>& inputs) {
  RecordShapesOf(event, inputs);
}

void EagerOps::RecordShapes(size_t event, const std::vector<Operand>& inputs) {
  RecordShapesOf(event, inputs);
}

Status EagerOps::Call(const scenario::Step& step) {
  RBLNSIM_ASSIGN_OR_RETURN(const OpTraits* found, host_->TraitsOf(step.op));
  const OpTraits& traits = *found;
  if (!step.Typed())
    return Status::Internal(fmt::format("{}:{}:{}: op '{}' was not typed by the loader",
                                        step.loc.file, step.loc.line, step.loc.column, step.op));
  std::vector<Operand> inputs;
  for (const std::string& name : step.inputs) {
    auto it = host_->tensors_.find(name);
    if (it == host_->tensors_.end()) {
      return Status::Error(fmt::format("{}:{}:{}: tensor '{}' is not defined", step.loc.file,
                                       step.loc.line, step.loc.column, name));
    }
    inputs.push_back({name, &it->second});
  }
  const std::vector<TensorType>& types = step.types.inputs;
  const TensorType& out_type = step.types.output;
  const std::string out_name = step.output.empty() ? "_" : step.output;
  if (traits.is_view) {
    TensorState view = *inputs.front().state;
    view.type = out_type;
    host_->Op(traits.aten_name, host_->costs_.SelfNs(traits.aten_name, LargestElements(inputs)));
    host_->tensors_[out_name] = view;
    return Status::Ok();
  }
  const scenario::AtenCallTree tree = scenario::AtenCallTreeOf(*scenario::FindOp(step.op), types);
  if (!tree.frames.empty()) {
    // Each composite frame records the op's inputs and charges its own dispatch cost; the
    // kernel inside the innermost one launches, and its device program is named after it.
    OpTraits kernel_traits = traits;
    kernel_traits.layer = std::string(tree.layer);
    const std::function<void(size_t)> enter = [&](size_t depth) {
      if (depth == tree.frames.size()) {
        Dispatch(std::string(tree.kernel), kernel_traits, inputs, out_type, out_name, false,
                 step.compile_fails);
        return;
      }
      const std::string frame_name(tree.frames[depth]);
      const size_t frame = host_->timeline_.events.size();
      host_->Op(frame_name, host_->costs_.SelfNs(frame_name, LargestElements(types)),
                [&] { enter(depth + 1); });
      // HostRuntime::Op opened the frame at |frame| when recording (events are only appended).
      RecordShapes(frame, types);
    };
    enter(0);
  } else {
    // torch records the in-place form under its own schema name: aten::add_.
    const std::string aten = step.in_place ? traits.aten_name + "_" : traits.aten_name;
    Dispatch(aten, traits, inputs, out_type, out_name, step.in_place, step.compile_fails);
  }
  if (!status_.ok()) {
    status_ = status_.WithPrefix(
        fmt::format("{}:{}:{}: ", step.loc.file, step.loc.line, step.loc.column));
  }
  return Status::Ok();
}

Status EagerOps::Cpu(const std::string& tensor, const scenario::Step& step) {
  auto it = host_->tensors_.find(tensor);
  if (it == host_->tensors_.end()) {
    return Status::Error(fmt::format("{}:{}:{}: tensor '{}' is not defined", step.loc.file,
                                     step.loc.line, step.loc.column, tensor));
  }
  Download(&it->second, "cpu()");
  return Status::Ok();
}

std::optional<sim::FallbackReason> EagerOps::QuickCheck(const OpTraits& traits,
                                                        const std::vector<Operand>& inputs,
                                                        const TensorType& out_type) const {
  // An op with no device kernel never reaches the dispatch checks: the catch-all fallback (or
  // the registration pinning it there by name) takes it whatever its inputs.
  if (!traits.device_supported) {
    return platform::IsExplicitFallbackBase(traits.aten_name) ? sim::FallbackReason::kExplicitOp
                                                              : sim::FallbackReason::kUnsupportedOp;
  }
  // fp16 and bf16 dispatch; fp32 too under RBLN_FLOAT32_PRECISION=device, computed at 16-bit
  // width (RBLNSupportedDtypes.cpp); everything else runs on the CPU.
  const bool fp32_on_device =
      host_->scenario_.env.float32_precision == scenario::Float32Precision::kDevice;
  const bool masked = platform::TakesBoolMask(traits.aten_name);
  bool all_scalar = !inputs.empty();
  for (const Operand& in : inputs) {
    const DType dtype = in.state->type.dtype;
    if (masked && dtype == DType::kBool)
      continue;
    if (dtype != DType::kFp16 && dtype != DType::kBf16 &&
        !(dtype == DType::kFp32 && fp32_on_device))
      return sim::FallbackReason::kDtype;
    if (!in.state->type.shape.empty())
      all_scalar = false;
  }
  if (all_scalar)
    return sim::FallbackReason::kAllScalar;
  if (traits.elementwise && !out_type.shape.empty() && out_type.shape.back() % 64 != 0) {
    return sim::FallbackReason::kUnaligned;
  }
  return std::nullopt;
}

void EagerOps::Dispatch(const std::string& aten,
                        const OpTraits& traits,
                        const std::vector<Operand>& inputs,
                        const TensorType& out_type,
                        const std::string& out_name,
                        bool in_place,
                        bool compile_fails) {
  TensorState& out = host_->tensors_[out_name];
  TensorState result;
  result.type = out_type;
  // The dispatcher frame; the pre-dispatch checks run in it before the kernel is redispatched.
  const size_t frame = host_->timeline_.events.size();
  host_->Op(aten, host_->costs_.SelfNs(aten, LargestElements(inputs)), [&] {
    std::optional<sim::FallbackReason> reason = QuickCheck(traits, inputs, out_type);
    if (!reason && !host_->scenario_.env.torch_rbln_deploy) {
      for (const Operand& in : inputs) {
        if (!in.state->on_device || in.state->type.shape.empty())
          continue;
        NanInfScan(in.state);
        if (in.state->has_nan || in.state->has_inf)
          reason = sim::FallbackReason::kNanInf;
      }
    }
    if (reason) {
      Fallback(aten, *reason, inputs, out_type, &result, in_place);
    } else if (compile_fails) {
      FailedCompile(aten, traits, inputs, out_type, &result, in_place);
    } else {
      Kernel(aten, traits, inputs, out_type, &result);
    }
  });
  RecordShapes(frame, inputs);
  out = result;
}

void EagerOps::NanInfScan(TensorState* tensor) {
  // The scan borrows a host pointer: device-latest data is downloaded first, then checked as
  // fp32 on the host (isinf via abs and eq, isnan via ne), and the two masks are combined.
  const int64_t elements = tensor->type.NumElements();
  HostCosts& costs = host_->costs_;
  if (host_->recording_)
    ++host_->truth_.nan_inf_scans;
  Download(tensor, "nan/inf scan");
  ToChain([&] { host_->Op("aten::copy_", costs.SelfNs("aten::copy_", 0)); });
  host_->Op("aten::isinf", costs.SelfNs("aten::isinf", 0), [&] {
    // Functional abs allocates its result, then runs abs.out into it.
    host_->Op("aten::abs", costs.SelfNs("aten::abs", 0), [&] {
      host_->Op("aten::empty", costs.SelfNs("aten::empty", 0));
      host_->Op("aten::abs", costs.SelfNs("aten::abs.out", elements));
    });
    host_->Op("aten::eq", costs.SelfNs("aten::eq", elements));
  });
  host_->Op("aten::isnan", costs.SelfNs("aten::isnan", 0),
            [&] { host_->Op("aten::ne", costs.SelfNs("aten::ne", elements)); });
  host_->Op("aten::logical_or", costs.SelfNs("aten::logical_or", elements));
  host_->Op("aten::copy_", costs.SelfNs("aten::copy_", 0));
  // The verdict is read back as a Python bool: any() then item().
  host_->Op("aten::any", costs.SelfNs("aten::any", elements));
  host_->Op("aten::item", costs.SelfNs("aten::item", 0), [&] {
    host_->Op("aten::_local_scalar_dense", costs.SelfNs("aten::_local_scalar_dense", 0));
  });
}

const std::string& EagerOps::KeyOfLaunch(const OpTraits& traits,
                                         const std::vector<Operand>& inputs,
                                         const TensorType& out_type) {
  // The runtime's launch is assigned field by field, vectors included, so it keeps its room from
  // launch to launch; and its key, built digit by digit, is written again only when a field the
  // key reads (the layer, each input's dtype and shape, fp32_at_16bit) changed.
  compiler::OpLaunch& launch = host_->launch_scratch_;
  std::string& key = host_->key_scratch_;
  const bool fp32_at_16bit =
      host_->scenario_.env.float32_precision == scenario::Float32Precision::kDevice &&
      std::any_of(inputs.begin(), inputs.end(),
                  [](const Operand& in) { return in.state->type.dtype == DType::kFp32; });
  bool key_changed = key.empty() || launch.layer != traits.layer ||
                     launch.fp32_at_16bit != fp32_at_16bit || launch.inputs.size() != inputs.size();
  launch.layer = traits.layer;
  launch.op_class = traits.op_class;
  launch.output_shape = out_type.shape;
  launch.output_dtype = out_type.dtype;
  launch.weight_transposed = traits.weight_transposed;
  launch.ops_per_element = traits.ops_per_element;
  launch.fp32_at_16bit = fp32_at_16bit;
  launch.inputs.resize(inputs.size());
  int distinct = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorState* state = inputs[i].state;
    // Inputs that are the same tensor share one args group: numbered by first appearance.
    size_t first = 0;
    while (inputs[first].state != state)
      ++first;
    compiler::TensorArg& arg = launch.inputs[i];
    arg.distinct_index = first == i ? distinct++ : launch.inputs[first].distinct_index;
    if (arg.dtype != state->type.dtype || arg.shape != state->type.shape) {
      key_changed = true;
      arg.shape = state->type.shape;
      arg.dtype = state->type.dtype;
    }
    arg.on_device = state->on_device;
  }
  if (key_changed)
    compiler::ProgramKeyInto(launch, &key);
  return key;
}

CompiledProgram* EagerOps::GetOrCompile(
    const std::string& key,
    const std::string& op,
    const std::function<StatusOr<compiler::Program>()>& compile) {
  auto cached = host_->cache_.find(key);
  if (cached != host_->cache_.end()) {
    CompiledProgram& hit = cached->second;
    if (hit.in_lru)
      host_->lru_.splice(host_->lru_.begin(), host_->lru_, hit.lru);
    return &hit;
  }
  // A miss compiles for this shape/dtype: a recompile, and a new program instance.
  CompileSpan();
  StatusOr<compiler::Program> program = compile();
  if (!program.ok()) {
    status_ = program.status();
    return nullptr;
  }
  CompiledProgram compiled;
  compiled.program = std::make_unique<compiler::Program>(std::move(*program));
  compiled.instance = host_->next_instance_++;
  // The eager op cache is an LRU (torch-rbln OpFunction.cpp, TORCH_RBLN_COMPILED_OPS); compiled
  // graphs are kept by their torch.compile module and never evicted here.
  const bool eager = key.rfind("graph:", 0) != 0;
  if (eager) {
    // Evict before the new entry is in the cache, so it cannot be its own victim.
    compiled.lru = host_->InsertLru(key);
    compiled.in_lru = true;
  }
  cached = host_->cache_.emplace(key, std::move(compiled)).first;
  if (host_->recording_) {
    host_->truth_.recompiles.push_back({op, key, cached->second.instance,
                                        host_->next_external_id_ - 1,
                                        host_->evicted_keys_.count(key) > 0});
  }
  return &cached->second;
}

rebel100::RunRequest& EagerOps::Launch(const std::string& op, CompiledProgram* compiled) {
  // Before the new run exists: its caller holds it until it is named a producer, or not.
  host_->MaybeReleaseFinishedRuns();
  rebel100::RunRequest& run = host_->runs_.emplace_back();
  run.launch_id = host_->next_launch_id_++;
  run.program = compiled->program.get();
  run.instance = compiled->instance;
  run.sequence = compiled->next_sequence++;
  run.record = host_->profiler_enabled_ && host_->recording_;
  // The producer runtime emits the marker only when it was created with the profiler on.
  const bool marked = host_->profiler_enabled_;
  const size_t marker = marked ? host_->Open(std::string(platform::kCAbiLaunchMarker),
                                             sim::HostEventKind::kRuntimeMarker)
                               : static_cast<size_t>(-1);
  if (marked && marker != static_cast<size_t>(-1)) {
    host_->timeline_.events[marker].launch_id = run.launch_id;
  }
  run.truth.submit_ns = host_->NowNs();
  host_->Spend(host_->costs_.Jitter(host_->scenario_.host.runtime_submit_ns));
  host_->SubmitToDevice(&run);
  if (host_->scenario_.env.runtime_force_sync)
    host_->WaitForRun(&run);
  if (marked)
    host_->Close(marker);
  if (host_->recording_ && host_->record_launch_truth_) {
    sim::LaunchTruth truth;
    truth.launch_id = run.launch_id;
    truth.op = op;
    truth.external_id = host_->next_external_id_ - 1;
    truth.instance = run.instance;
    truth.sequence = run.sequence;
    truth.marker_start_ns = run.truth.submit_ns;
    host_->truth_.launches.push_back(truth);
    host_->launch_runs_.push_back(&run);
  }
  return run;
}

void EagerOps::CompileSpan() {
  const size_t span = host_->Open("rbln::compile", sim::HostEventKind::kUserAnnotation);
  host_->Spend(host_->costs_.Jitter(host_->scenario_.host.compile_ns));
  host_->Close(span);
}

void EagerOps::FailedCompile(const std::string& aten,
                             const OpTraits& traits,
                             const std::vector<Operand>& inputs,
                             const TensorType& out_type,
                             TensorState* out,
                             bool in_place) {
  const size_t frame = host_->timeline_.events.size();
  host_->Op(aten, host_->costs_.SelfNs("rbln::kernel", LargestElements(inputs)), [&] {
    const std::string key = KeyOfLaunch(traits, inputs, out_type);
    if (host_->failed_compiles_.insert(key).second) {
      CompileSpan();
      if (host_->recording_) {
        host_->truth_.recompiles.push_back(
            {aten, key, -1, host_->next_external_id_ - 1, false, /*failed=*/true});
      }
    }
    if ((host_->scenario_.env.disabled_fallbacks & scenario::kFallbackCompileError) != 0) {
      status_ = Status::Error(fmt::format(
          "RuntimeError: compiling `{}` for RBLN failed. To fall back to the CPU instead, remove "
          "'compile_error' from `TORCH_RBLN_DISABLE_FALLBACK`.",
          aten));
      return;
    }
    Fallback(aten, sim::FallbackReason::kCompileError, inputs, out_type, out, in_place);
  });
  RecordShapes(frame, inputs);
}

void EagerOps::Kernel(const std::string& aten,
                      const OpTraits& traits,
                      const std::vector<Operand>& inputs,
                      const TensorType& out_type,
                      TensorState* out) {
  const size_t frame = host_->timeline_.events.size();
  host_->Op(aten, host_->costs_.SelfNs("rbln::kernel", LargestElements(inputs)), [&] {
    const std::string& key = KeyOfLaunch(traits, inputs, out_type);
    const compiler::OpLaunch& launch = host_->launch_scratch_;
    CompiledProgram* compiled = GetOrCompile(
        key, aten, [&] { return compiler::CompileOp(launch, host_->scenario_.device); });
    if (compiled == nullptr)
      return;
    rebel100::RunRequest& run = Launch(aten, compiled);
    out->on_device = true;
    out->location = Location::kDeviceOnly;
    out->producer = run.completed ? nullptr : &run;
    for (const Operand& in : inputs) {
      out->has_nan |= in.state->has_nan;
      out->has_inf |= in.state->has_inf;
    }
  });
  RecordShapes(frame, inputs);
}

void EagerOps::ToChain(const std::function<void()>& copy) {
  HostCosts& costs = host_->costs_;
  host_->Op("aten::to", costs.SelfNs("aten::to", 0), [&] {
    host_->Op("aten::_to_copy", costs.SelfNs("aten::_to_copy", 0), [&] {
      host_->Op("aten::empty_strided", costs.SelfNs("aten::empty_strided", 0));
      copy();
    });
  });
}

int64_t EagerOps::Download(TensorState* tensor, const char* why) {
  HostCosts& costs = host_->costs_;
  int64_t moved = 0;
  ToChain([&] {
    host_->Op("aten::copy_", costs.SelfNs("aten::copy_", 0), [&] {
      const size_t copy_from = host_->timeline_.events.size();
      host_->Op("aten::_copy_from", costs.SelfNs("aten::_copy_from", 0),
                [&] { moved = CopyToHost(tensor, why); });
      if (host_->recording_)
        host_->timeline_.events[copy_from].bytes = moved;
    });
  });
  return moved;
}

int64_t EagerOps::CopyToHost(TensorState* tensor, const char* why) {
  if (tensor->producer != nullptr) {
    host_->WaitForRun(tensor->producer);
    tensor->producer = nullptr;
  }
  const int64_t bytes = tensor->type.Bytes();
  if (tensor->on_device && tensor->location == Location::kDeviceOnly) {
    host_->Spend(PcieTransferNs(bytes));
    tensor->location = Location::kSynced;
    if (host_->recording_) {
      host_->truth_.round_trips.push_back({why, true, bytes, host_->next_external_id_ - 1});
    }
    return bytes;
  }
  // Synced or host-latest: the host shadow copy is read, no PCIe transfer.
  host_->Spend(host_->costs_.Jitter(static_cast<double>(bytes) /
                                    host_->scenario_.host.host_copy_bytes_per_s * 1e9));
  return 0;
}

double EagerOps::PcieTransferNs(int64_t bytes) {
  const scenario::DeviceConfig& device = host_->scenario_.device;
  return host_->costs_.Jitter(device.pcie_latency_ns +
                              static_cast<double>(bytes) / device.pcie_bandwidth_bytes_per_s * 1e9);
}

int64_t EagerOps::Upload(TensorState* tensor, const char* why) {
  const int64_t bytes = tensor->type.Bytes();
  HostCosts& costs = host_->costs_;
  host_->Op("aten::copy_", costs.SelfNs("aten::copy_", 0), [&] {
    const size_t copy_from = host_->timeline_.events.size();
    host_->Op("aten::_copy_from", costs.SelfNs("aten::_copy_from", 0),
              [&] { host_->Spend(PcieTransferNs(bytes)); });
    if (host_->recording_)
      host_->timeline_.events[copy_from].bytes = bytes;
  });
  tensor->location = Location::kSynced;
  if (host_->recording_) {
    host_->truth_.round_trips.push_back({why, false, bytes, host_->next_external_id_ - 1});
  }
  return bytes;
}

Status EagerOps::Graph(const scenario::Step& step) {
  const auto& graphs = host_->scenario_.workload.graphs;
  const auto found = graphs.find(step.graph);
  const std::string where =
      fmt::format("{}:{}:{}: ", step.loc.file, step.loc.line, step.loc.column);
  if (found == graphs.end())
    return Status::Error(where + "graph '" + step.graph + "' is not defined");
  const scenario::GraphSpec& graph = found->second;
  if (step.inputs.size() != graph.params.size()) {
    return Status::Error(where + fmt::format("graph '{}' takes {} inputs, got {}", graph.name,
                                             graph.params.size(), step.inputs.size()));
  }
  // Resolve a body name: a graph parameter (bound at this call), then a workload tensor (weights).
  auto resolve = [&](const std::string& name) -> TensorState* {
    for (size_t i = 0; i < graph.params.size(); ++i) {
      if (graph.params[i] == name) {
        auto it = host_->tensors_.find(step.inputs[i]);
        return it == host_->tensors_.end() ? nullptr : &it->second;
      }
    }
    auto it = host_->tensors_.find(name);
    return it == host_->tensors_.end() ? nullptr : &it->second;
  };
  std::map<std::string, std::pair<int, TensorType>> locals;
  std::vector<const TensorState*> distinct;
  std::vector<compiler::GraphNode> nodes;
  std::map<std::string, int> layer_counts;
  std::string key = "graph:" + graph.name;
  if (step.graph_types.size() != graph.body.size())
    return Status::Internal(where + "graph call '" + graph.name + "' was not typed by the loader");
  for (size_t op_index = 0; op_index < graph.body.size(); ++op_index) {
    const scenario::Step& op = graph.body[op_index];
    const scenario::OpSignature& signature = step.graph_types[op_index];
    RBLNSIM_ASSIGN_OR_RETURN(OpTraits traits, LookupOpTraits(op.op));
    compiler::GraphNode node;
    for (size_t input = 0; input < op.inputs.size(); ++input) {
      const std::string& name = op.inputs[input];
      const TensorType& type = signature.inputs[input];
      auto local = locals.find(name);
      if (local != locals.end()) {
        node.producers.push_back(local->second.first);
        node.launch.inputs.push_back({type.shape, type.dtype, 0, true});
        continue;
      }
      const TensorState* state = resolve(name);
      if (state == nullptr)
        return Status::Error(where + "graph input '" + name + "' is not defined");
      auto it = std::find(distinct.begin(), distinct.end(), state);
      const int index = static_cast<int>(it - distinct.begin());
      if (it == distinct.end())
        distinct.push_back(state);
      node.producers.push_back(-1);
      node.launch.inputs.push_back({type.shape, type.dtype, index, state->on_device});
      key += fmt::format("|{}:{}", scenario::DTypeName(type.dtype), fmt::join(type.shape, "x"));
    }
    std::string layer = op.op == "matmul" ? "mm" : traits.layer;
    const int seen = layer_counts[layer]++;
    if (seen > 0)
      layer += fmt::format("_{}", seen);
    node.launch.layer = layer;
    node.launch.op_class = traits.op_class;
    node.launch.output_shape = signature.output.shape;
    node.launch.output_dtype = signature.output.dtype;
    node.launch.weight_transposed = traits.weight_transposed;
    node.launch.ops_per_element = traits.ops_per_element;
    locals[op.output] = {static_cast<int>(nodes.size()), signature.output};
    nodes.push_back(std::move(node));
  }
  const auto result = locals.find(graph.result);
  if (result == locals.end()) {
    return Status::Error(where + "graph '" + graph.name + "' does not produce '" + graph.result +
                         "'");
  }
  TensorState out;
  out.type = result->second.second;
  const size_t region = host_->Open("Torch-Compiled Region", sim::HostEventKind::kUserAnnotation);
  const double self_ns = host_->costs_.SelfNs("rbln::graph", 0);
  host_->Spend(self_ns / 2);
  CompiledProgram* compiled = GetOrCompile(key, "Torch-Compiled Region", [&] {
    return compiler::CompileGraph(key, nodes, host_->scenario_.device);
  });
  if (compiled != nullptr) {
    rebel100::RunRequest& run = Launch("Torch-Compiled Region", compiled);
    out.producer = run.completed ? nullptr : &run;
  }
  host_->Spend(self_ns - self_ns / 2);
  host_->Close(region);
  if (!status_.ok())
    return status_.WithPrefix(where);
  host_->tensors_[step.output.empty() ? "_" : step.output] = out;
  return Status::Ok();
}

}  // namespace rblnsim::host
