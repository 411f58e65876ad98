#include "models/compiler/op_compiler.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "models/rebel100/command_timing.h"

namespace rblnsim::compiler {

using rebel100::EngineType;
using scenario::DTypeBytes;

namespace {

constexpr int64_t kDescriptorBytes = 64;
constexpr int64_t kPageBytes = 2 << 20;  // device pages the descriptor's table entries cover
constexpr int64_t kPageEntryBytes = 8;
// What a load command stages before its consumer starts: the first 512 KiB of an argument or of
// the stationary operand; the rest is read in place, streamed through the double-buffered SRAM
// while the consumer runs (an estimate of the compiler's pipelining).
constexpr int64_t kStageBytes = 512 << 10;
// A matmul is split across chiplets only when that takes at most this share of the time on one.
constexpr double kSplitGain = 0.75;

int Add(Program* program, Command command) {
  program->commands.push_back(std::move(command));
  return static_cast<int>(program->commands.size()) - 1;
}

int64_t Bytes(const std::vector<int64_t>& shape, scenario::DType dtype) {
  return NumElements(shape) * DTypeBytes(dtype);
}

// The args_<i>_{0,1,2} group of every distinct device-resident input; returns, per group, the
// index of its last command (what the op's commands wait for).
std::vector<int> EmitArgs(const OpLaunch& launch,
                          const scenario::DeviceConfig& device,
                          Program* program) {
  std::vector<int> last;
  std::vector<int> seen;
  for (const TensorArg& arg : launch.inputs) {
    if (std::find(seen.begin(), seen.end(), arg.distinct_index) != seen.end())
      continue;
    seen.push_back(arg.distinct_index);
    const std::string layer = fmt::format("args_{}", arg.distinct_index);
    const int64_t bytes = Bytes(arg.shape, arg.dtype);
    const int64_t pages = (bytes + kPageBytes - 1) / kPageBytes;
    const int64_t tile_bytes = std::min({bytes, device.sram_bytes_per_chiplet / 4, kStageBytes});
    const int64_t tile_elements = tile_bytes / std::max<int64_t>(1, DTypeBytes(arg.dtype));
    int a = Add(program, {layer,
                          0,
                          EngineType::kTaskDma,
                          0,
                          TransferWork{kDescriptorBytes + pages * kPageEntryBytes, false},
                          {}});
    int b =
        Add(program, {layer, 1, EngineType::kNeuralDma, 0, TransferWork{tile_bytes, false}, {a}});
    int c = Add(program,
                {layer, 2, EngineType::kGeneralCompute, 0, VectorWork{tile_elements, 1.0, 0}, {b}});
    last.push_back(c);
  }
  return last;
}

// The commands of one matmul over |parts| chiplets: per chiplet the stationary-operand load
// (Neural DMA), the compute (Neural Engine Clusters) and the output drain (Neural DMA), each share
// carrying the same names, as the profiler shows. A dep >= 0 is a program index (|first_deps|);
// a dep < 0 counts back from the command itself (-1: the one before).
std::vector<Command> MatmulShares(const std::string& layer,
                                  const MatmulWork& work,
                                  int parts,
                                  bool split_n,
                                  const scenario::DeviceConfig& device,
                                  const std::vector<int>& first_deps) {
  std::vector<Command> commands;
  const int64_t elem = DTypeBytes(work.dtype);
  for (int c = 0; c < parts; ++c) {
    MatmulWork share = work;
    if (split_n) {
      share.n = work.n / parts + (c < work.n % parts ? 1 : 0);
    } else {
      share.m = work.m / parts + (c < work.m % parts ? 1 : 0);
    }
    if (share.n == 0 || share.m == 0)
      continue;
    const int64_t b_bytes = share.batch * share.k * share.n * elem;
    const int64_t out_bytes = share.batch * share.m * share.n * elem;
    // Split along n, a chiplet's weight slice is in its own HBM; split along m, every chiplet
    // but the first reads the weights across the die-to-die link.
    const bool remote_weights = c != 0 && !split_n;
    const int64_t stage = std::min({b_bytes, device.sram_bytes_per_chiplet / 2, kStageBytes});
    commands.push_back(
        {layer, 0, EngineType::kNeuralDma, c, TransferWork{stage, remote_weights}, first_deps});
    MatmulWork compute = share;
    compute.staged_bytes = stage;
    if (remote_weights)
      compute.weights_chiplet = 0;
    commands.push_back({layer, 1, EngineType::kNeuralEngine, c, compute, {-1}});
    commands.push_back({layer,
                        2,
                        EngineType::kNeuralDma,
                        c,
                        TransferWork{std::min(out_bytes, device.sram_bytes_per_chiplet / 4), false},
                        {-1}});
  }
  return commands;
}

// When |commands| (relative deps only, chains per chiplet) would finish if run alone: the serial
// dispatcher hands over one command per dispatch_ns, each chiplet runs its chain on its own HBM,
// and a split pays the cross-chiplet synchronisation of its results (one command overhead and a
// die-to-die hop per extra chiplet), which the device's sync manager performs.
double EstimateNs(const std::vector<Command>& commands, const scenario::DeviceConfig& device) {
  std::vector<rebel100::BandwidthChannel> hbm(
      device.chiplets, rebel100::BandwidthChannel(device.hbm_bandwidth_bytes_per_s));
  std::vector<double> chain_end(device.chiplets, 0.0);
  int used = 0;
  double end = 0.0;
  for (size_t i = 0; i < commands.size(); ++i) {
    const Command& command = commands[i];
    const double dispatched = static_cast<double>(i + 1) * device.dispatch_ns;
    double& at = chain_end[command.chiplet];
    used = std::max(used, command.chiplet + 1);
    const double start = std::max(at, dispatched);
    at = start + rebel100::CommandDurationNs(command, device, start, &hbm);
    end = std::max(end, at);
  }
  if (used > 1)
    end += rebel100::CommandOverheadNs(device) + (used - 1) * device.d2d_latency_ns;
  return end;
}

Status CompileMatmul(const OpLaunch& launch,
                     const scenario::DeviceConfig& device,
                     const std::vector<int>& arg_deps,
                     Program* program) {
  if (launch.inputs.size() < 2)
    return Status::Error(launch.layer + ": matmul needs two inputs");
  const auto& a = launch.inputs[0].shape;
  const auto& b = launch.inputs[1].shape;
  if (a.empty() || b.size() < 2)
    return Status::Error(launch.layer + ": matmul needs 2-D operands");
  MatmulWork work;
  work.dtype = launch.inputs[0].dtype;
  if (work.dtype == scenario::DType::kFp32 && launch.fp32_at_16bit)
    work.compute_dtype = scenario::DType::kFp16;
  work.k = a.back();
  work.m = a.size() >= 2 ? a[a.size() - 2] : 1;
  for (size_t i = 0; i + 2 < a.size(); ++i)
    work.batch *= a[i];
  work.n = launch.weight_transposed ? b[b.size() - 2] : b.back();
  const int64_t k_b = launch.weight_transposed ? b.back() : b[b.size() - 2];
  if (k_b != work.k) {
    return Status::Error(
        fmt::format("{}: contraction mismatch {} vs {}", launch.layer, work.k, k_b));
  }
  program->flops = 2 * work.batch * work.m * work.k * work.n;

  // Placement by cost: the op runs on one chiplet, or is split over all of them along n (each
  // chiplet streams its slice of the weights from its own HBM) or m (the weights are read by
  // every chiplet, over the die-to-die link but from the first), whichever the closed forms say
  // finishes sooner counting compute, bytes and the extra commands. A GEMV is memory-bound, so
  // it spreads its weights over all four stacks; a small square mm stays where it is.
  const bool split_n = work.n >= work.m;
  int parts = 1;
  if (device.chiplets > 1 && program->flops >= device.chiplet_split_min_flops) {
    const std::vector<Command> one = MatmulShares(launch.layer, work, 1, split_n, device, {});
    const std::vector<Command> all =
        MatmulShares(launch.layer, work, device.chiplets, split_n, device, {});
    // A split must win clearly: close calls stay put, so a placement does not flip back and
    // forth with small changes of the parameters (a calibration probe, a sweep step).
    if (EstimateNs(all, device) < kSplitGain * EstimateNs(one, device))
      parts = device.chiplets;
  }
  for (Command& command : MatmulShares(launch.layer, work, parts, split_n, device, arg_deps)) {
    // A relative dep (< 0) counts back from the command itself.
    const int base = static_cast<int>(program->commands.size());
    for (int& dep : command.deps) {
      if (dep < 0)
        dep = base + dep;
    }
    Add(program, std::move(command));
  }
  return Status::Ok();
}

void CompileVector(const OpLaunch& launch, const std::vector<int>& arg_deps, Program* program) {
  const int64_t elements = NumElements(launch.output_shape);
  int64_t bytes = Bytes(launch.output_shape, launch.output_dtype);
  for (const TensorArg& arg : launch.inputs)
    bytes += Bytes(arg.shape, arg.dtype);
  double ops = launch.ops_per_element;
  if (launch.op_class == OpClass::kSoftmax)
    ops = std::max(ops, 5.0);
  if (launch.op_class == OpClass::kNorm)
    ops = std::max(ops, 4.0);
  int64_t in_elements = 0;
  for (const TensorArg& arg : launch.inputs)
    in_elements = std::max(in_elements, NumElements(arg.shape));
  const int64_t work_elements =
      launch.op_class == OpClass::kReduction ? std::max(in_elements, elements) : elements;
  if (launch.op_class == OpClass::kDataMovement) {
    Add(program,
        {launch.layer, 0, EngineType::kNeuralDma, 0, TransferWork{bytes, false}, arg_deps});
    return;
  }
  Add(program, {launch.layer, 0, EngineType::kGeneralCompute, 0,
                VectorWork{work_elements, ops, bytes}, arg_deps});
}

void CompileAttention(const OpLaunch& launch, const std::vector<int>& arg_deps, Program* program) {
  // q [.., s, d], k [.., t, d], v [.., t, dv]: QK^T on the engines, softmax on the GCE, then PV.
  const auto& q = launch.inputs[0].shape;
  const auto& k = launch.inputs[1].shape;
  const auto& v = launch.inputs[2].shape;
  MatmulWork qk;
  qk.dtype = launch.inputs[0].dtype;
  qk.m = q[q.size() - 2];
  qk.k = q.back();
  qk.n = k[k.size() - 2];
  for (size_t i = 0; i + 2 < q.size(); ++i)
    qk.batch *= q[i];
  MatmulWork pv = qk;
  pv.k = qk.n;
  pv.n = v.back();
  program->flops = 2 * qk.batch * qk.m * qk.n * (qk.k + pv.n);
  const int64_t scores = qk.batch * qk.m * qk.n;
  int s0 = Add(program, {launch.layer, 0, EngineType::kNeuralEngine, 0, qk, arg_deps});
  int s1 = Add(program, {launch.layer,
                         1,
                         EngineType::kGeneralCompute,
                         0,
                         VectorWork{scores, 5.0, scores * DTypeBytes(qk.dtype) * 2},
                         {s0}});
  Add(program, {launch.layer, 2, EngineType::kNeuralEngine, 0, pv, {s1}});
}

}  // namespace

int64_t NumElements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

namespace {

// Every command must carry the work its engine's timing function reads: a mismatch would be timed
// as fixed cost alone, so it is refused here rather than simulated wrongly.
Status CheckEngines(const Program& program) {
  for (const Command& command : program.commands) {
    if (KindOf(command.work) != rebel100::Engine(command.engine).work) {
      return Status::Error(fmt::format("{}_{}: {} cannot run this command's work", command.layer,
                                       command.index, rebel100::EngineTypeName(command.engine)));
    }
  }
  return Status::Ok();
}

// The op's own commands (not its args groups), each first command waiting for |deps|.
Status EmitOp(const OpLaunch& launch,
              const scenario::DeviceConfig& device,
              const std::vector<int>& deps,
              Program* program) {
  switch (launch.op_class) {
    case OpClass::kMatmul:
      return CompileMatmul(launch, device, deps, program);
    case OpClass::kAttention:
      if (launch.inputs.size() < 3)
        return Status::Error(launch.layer + ": attention needs q, k, v");
      CompileAttention(launch, deps, program);
      return Status::Ok();
    default:
      CompileVector(launch, deps, program);
      return Status::Ok();
  }
}

}  // namespace

StatusOr<Program> CompileGraph(const std::string& key,
                               const std::vector<GraphNode>& nodes,
                               const scenario::DeviceConfig& device) {
  Program program;
  program.key = key;
  // The graph's inputs: every node input that no node produces, numbered by distinct_index.
  OpLaunch inputs;
  for (const GraphNode& node : nodes) {
    for (size_t i = 0; i < node.launch.inputs.size(); ++i) {
      if (i >= node.producers.size() || node.producers[i] < 0)
        inputs.inputs.push_back(node.launch.inputs[i]);
    }
  }
  const std::vector<int> arg_ends = EmitArgs(inputs, device, &program);
  std::vector<std::vector<int>> node_ends(nodes.size());
  for (size_t n = 0; n < nodes.size(); ++n) {
    std::vector<int> deps;
    bool uses_graph_input = false;
    for (size_t i = 0; i < nodes[n].launch.inputs.size(); ++i) {
      const int producer = i < nodes[n].producers.size() ? nodes[n].producers[i] : -1;
      if (producer < 0) {
        uses_graph_input = true;
      } else {
        deps.insert(deps.end(), node_ends[producer].begin(), node_ends[producer].end());
      }
    }
    if (uses_graph_input)
      deps.insert(deps.end(), arg_ends.begin(), arg_ends.end());
    std::sort(deps.begin(), deps.end());
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
    const size_t first = program.commands.size();
    const int64_t flops_before = program.flops;
    RBLNSIM_RETURN_IF_ERROR(EmitOp(nodes[n].launch, device, deps, &program));
    program.flops += flops_before;
    // A node's ends: its commands that no later command of the same node waits for.
    std::vector<bool> waited(program.commands.size() - first, false);
    for (size_t c = first; c < program.commands.size(); ++c) {
      for (int dep : program.commands[c].deps) {
        if (dep >= static_cast<int>(first))
          waited[dep - first] = true;
      }
    }
    for (size_t c = first; c < program.commands.size(); ++c) {
      if (!waited[c - first])
        node_ends[n].push_back(static_cast<int>(c));
    }
  }
  RBLNSIM_RETURN_IF_ERROR(CheckEngines(program));
  rebel100::TimeCommands(&program, device);
  return program;
}

std::string ProgramKey(const OpLaunch& launch) {
  std::string key;
  ProgramKeyInto(launch, &key);
  return key;
}

void ProgramKeyInto(const OpLaunch& launch, std::string* key) {
  key->assign(launch.layer);
  for (const TensorArg& arg : launch.inputs) {
    *key += '|';
    *key += scenario::DTypeName(arg.dtype);
    *key += ':';
    for (size_t i = 0; i < arg.shape.size(); ++i) {
      if (i > 0)
        *key += 'x';
      char digits[24];
      const auto end = std::to_chars(digits, digits + sizeof digits, arg.shape[i]).ptr;
      key->append(digits, end);
    }
  }
  if (launch.fp32_at_16bit)
    *key += "|fp32@16";
}

StatusOr<Program> CompileOp(const OpLaunch& launch, const scenario::DeviceConfig& device) {
  Program program;
  program.key = ProgramKey(launch);
  const std::vector<int> arg_deps = EmitArgs(launch, device, &program);
  RBLNSIM_RETURN_IF_ERROR(EmitOp(launch, device, arg_deps, &program));
  RBLNSIM_RETURN_IF_ERROR(CheckEngines(program));
  rebel100::TimeCommands(&program, device);
  return program;
}

}  // namespace rblnsim::compiler
