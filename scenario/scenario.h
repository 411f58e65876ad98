// The validated scenario: what a YAML file says once the loader has checked every key, unit and
// range. Models take these structs as their configuration and never see YAML. Each field's
// comment names its YAML key path; the parameter registry (registry_table.cc) ties each path to
// its field with its unit, range and help, and scenarios/README.md's key tables come from it.
#ifndef RBLNSIM_SCENARIO_SCENARIO_H_
#define RBLNSIM_SCENARIO_SCENARIO_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rblnsim::scenario {

// Where a value came from, for "file:line:column: ..." diagnostics after loading.
struct SourceLoc {
  std::string file;
  int line = 0;    // 1-based; 0 when unknown
  int column = 0;  // 1-based
};

enum class DeviceVariant { kRebel100, kAtom };
enum class Dataflow { kWeightStationary, kOutputStationary, kInputStationary };
enum class DType { kFp16, kBf16, kFp32, kFp8, kInt64, kBool, kInt32 };

const char* DTypeName(DType dtype);  // "fp16", "bf16", "fp32", "fp8", "int64", "bool"
int64_t DTypeBytes(DType dtype);     // fp8/bool 1, fp16/bf16 2, fp32 4, int64 8

struct DeviceConfig {
  DeviceVariant variant = DeviceVariant::kRebel100;  // device.variant: rebel100 | atom
  std::string card_name = "RBLN-CR13";               // device.card_name
  int chiplets = 4;                                  // device.chiplets (atom: 1)
  double clock_ghz = 1.0;                            // device.clock (e.g. 1GHz); estimate

  // Neural Engine Clusters (matmul). 8 engines × 128×128 MAC at 1 GHz ≈ 0.26 PFLOPS FP16 per
  // chiplet, ≈ 1.05 PFLOPS per device: the press figure. Array size and clock are unpublished.
  int engines_per_chiplet = 8;  // device.matmul.engines_per_chiplet
  int array_rows = 128;         // device.matmul.array_rows
  int array_cols = 128;         // device.matmul.array_cols
  // Rows of the next fold's stationary tile written per cycle while the current fold streams
  // (unpublished; 4 lets a GEMV ingest its weights at 8 TB/s per chiplet, above HBM).
  int preload_rows_per_cycle = 4;                   // device.matmul.preload_rows_per_cycle
  Dataflow dataflow = Dataflow::kWeightStationary;  // device.matmul.dataflow: ws | os | is
  double matmul_efficiency = 1.0;                   // device.matmul.efficiency (0, 4]
  int64_t sram_bytes_per_chiplet = 64ll << 20;      // device.matmul.sram (e.g. 64MiB)
  // A matmul this large may be split across chiplets; the split happens only when the closed
  // forms say it finishes sooner (0: placement by cost alone).
  int64_t chiplet_split_min_flops = 0;  // device.matmul.split_min_flops

  // General Compute Engine: vector/elementwise work.
  int64_t gce_elements_per_cycle = 512;  // device.gce.elements_per_cycle
  double gce_efficiency = 1.0;           // device.gce.efficiency (0, 4]

  // Memory.
  int64_t hbm_bytes_per_chiplet = 36ll << 30;  // device.hbm.capacity
  // Sustained, not peak: the vendor's 2.7 TB/s "effective" figure with predictive DMA, read as
  // per device (a per-die reading would exceed the 1.2 TB/s peak of one HBM3E stack), over four
  // chiplets. The 4.8 TB/s peak is 1.2TB/s per chiplet.
  double hbm_bandwidth_bytes_per_s = 0.675e12;  // device.hbm.bandwidth (per chiplet)
  double d2d_latency_ns = 11.0;                 // device.d2d.latency
  double d2d_bandwidth_bytes_per_s = 1.0e12;    // device.d2d.bandwidth (per channel)

  // DMA engines.
  double dma_bandwidth_bytes_per_s = 0.6e12;  // device.dma.bandwidth (one engine)
  double dma_efficiency = 1.0;                // device.dma.efficiency (0, 4]

  // Host link: PCIe Gen5 x16, two links per package.
  double pcie_bandwidth_bytes_per_s = 64e9;  // device.pcie.bandwidth (per link)
  int pcie_links = 2;                        // device.pcie.links
  double pcie_latency_ns = 900.0;            // device.pcie.latency (one way)

  // Command path.
  int queue_depth = 64;                   // device.queue.depth (ring entries)
  int fetch_batch = 8;                    // device.queue.fetch_batch
  double doorbell_ns = 300.0;             // device.queue.doorbell
  double decode_ns = 400.0;               // device.queue.decode
  double dispatch_ns = 150.0;             // device.queue.dispatch (per command)
  double completion_ns = 800.0;           // device.queue.completion (to the host)
  double command_overhead_cycles = 1210;  // device.queue.command_overhead (cycles)
  double command_timeout_ns = 1e9;        // device.queue.command_timeout

  // Device profiler unit.
  int64_t record_buffer_capacity = 1 << 20;  // device.profiler.record_buffer
  double clock_offset_ns = 0.0;              // device.profiler.clock_offset
  double clock_drift_ppm = 0.0;              // device.profiler.clock_drift_ppm

  // Fault injection.
  std::string hang_command;  // device.faults.hang_command: a command name that never completes
};

struct HostOpCost {
  double self_ns = 0.0;  // host time the op spends outside its children
};

struct HostConfig {
  int64_t pid = 4321;                          // host.pid
  int64_t tid = 4321;                          // host.tid
  std::string process_name = "python3";        // host.process_name
  std::map<std::string, HostOpCost> op_costs;  // host.op_costs: {aten::mm: 12us, ...}
  // host.op_costs_per_element: self time per element the op touches (its largest input), by
  // ATen name, over the built-in slope.
  std::map<std::string, double> op_costs_per_element_ns;
  double default_op_ns = 5000.0;                        // host.default_op_cost
  double jitter = 0.0;                                  // host.jitter: relative stddev [0, 1)
  double runtime_submit_ns = 9000.0;                    // host.runtime_submit (rbln_run call)
  double compile_ns = 250e6;                            // host.compile (cache miss)
  double host_copy_bytes_per_s = 8e9;                   // host.copy_bandwidth (CPU memcpy)
  int64_t steady_epoch_ns = 1'000'000'000'000;          // host.steady_epoch
  int64_t system_epoch_ns = 1'767'225'600'000'000'000;  // host.system_epoch (2026-01-01)
  // host.fallback_path: who decides an eager op's dtype / NaN-Inf / all-scalar / alignment
  // fallback, which sets the shape the fallback leaves in the trace (base/rbln_vocabulary.h).
  //  - kShim: today's torch-rbln. The C++ dispatch shim checks its ops (DispatchShim.cpp
  //    quick_fallback_check and the align fast path) and runs cpu_fallback_rbln: the boxed shape.
  //    Ops off the shim are still decided by the Python wrapper: the nested shape.
  //  - kPython: earlier releases, where the Python wrapper (ops_utils.py cpu_fallback_path)
  //    decided for every device op: the nested shape.
  // Unsupported and explicitly registered ops take the boxed catch-all in both.
  enum class FallbackPath { kShim, kPython } fallback_path = FallbackPath::kShim;
};

// The environment the simulated process starts with; the process environment overrides it.
// RBLN_FLOAT32_PRECISION: "device" runs fp32 ops on the NPU at 16-bit width (DLFloat16);
// "exact" keeps fp32 semantics, so eager fp32 ops fall back to the CPU (torch-rbln dispatches
// fp32 only under device precision, RBLNSupportedDtypes.cpp).
enum class Float32Precision { kDevice, kExact };
// TORCH_RBLN_LOG_LEVEL: the runtime logger's threshold; the CPU-fallback line is INFO.
enum class LogLevel { kDebug, kInfo, kWarning, kError };

// TORCH_RBLN_DISABLE_FALLBACK's categories (torch-rbln RBLNFallbackConfig.h), as bits.
enum FallbackCategory : uint32_t {
  kFallbackCompileError = 1u << 0,
  kFallbackHostRoundTrip = 1u << 1,
  kFallbackNonBlockingCopy = 1u << 2,
  kFallbackStridedCopyError = 1u << 3,
  kFallbackUnsupportedOp = 1u << 4,
  kFallbackAll = (1u << 5) - 1,
};

struct EnvConfig {
  bool rbln_profiler = false;       // env.RBLN_PROFILER
  std::string rbln_profiler_dir;    // env.RBLN_PROFILER_DIR
  bool torch_rbln_deploy = false;   // env.TORCH_RBLN_DEPLOY: ON | OFF
  bool runtime_force_sync = false;  // env.RBLN_RUNTIME_FORCE_SYNC: 1 | 0
  // env.TORCH_RBLN_DISABLE_FALLBACK: FallbackCategory bits ("all" sets every bit).
  uint32_t disabled_fallbacks = 0;
  int64_t torch_rbln_compiled_ops = 2048;  // env.TORCH_RBLN_COMPILED_OPS: LRU capacity, >= 1
  Float32Precision float32_precision = Float32Precision::kDevice;  // env.RBLN_FLOAT32_PRECISION
  LogLevel torch_rbln_log_level = LogLevel::kWarning;              // env.TORCH_RBLN_LOG_LEVEL
};

enum class TensorInit { kRandn, kZeros, kOnes, kNan, kInf };

struct TensorSpec {
  std::string name;
  std::vector<int64_t> shape;  // empty: a 0-dim scalar
  DType dtype = DType::kFp16;
  std::string device = "rbln";  // rbln | cpu
  TensorInit init = TensorInit::kRandn;
  SourceLoc loc;
};

// A tensor's type: what the loader resolves for every value a workload makes.
struct TensorType {
  std::vector<int64_t> shape;  // empty: a 0-dim scalar tensor
  DType dtype = DType::kFp16;

  int64_t NumElements() const;
  int64_t Bytes() const;
  std::string ToString() const;  // "fp16[512,512]", "fp32[]"
  bool operator==(const TensorType& other) const = default;
};

// The types one op application sees and makes.
struct OpSignature {
  std::vector<TensorType> inputs;
  TensorType output;
};

struct Step {
  enum class Kind {
    kOp,           // op: mm, inputs: [a, b], out: c
    kCpu,          // cpu: c          (c.cpu(): download, waits for the producing run)
    kSynchronize,  // synchronize: true   (torch.rbln.synchronize())
    kRepeat,       // repeat: N, steps: [...]
    kGraph,        // graph: NAME, inputs: [x], out: y   (a torch.compile'd module call)
  };
  Kind kind = Kind::kOp;
  std::string op;                   // kOp: mm, matmul, linear, bmm, add, mul, softmax, silu, ...
  std::vector<std::string> inputs;  // tensor names
  std::string output;               // result tensor name (created on first assignment)
  std::vector<double> scalars;      // scalar operands, e.g. add(x, 1.0)
  // kOp written as "add_": torch's in-place form, which writes its result into inputs[0] (the
  // op's self, a write-alias argument); |op| holds the base name and |output| names inputs[0].
  bool in_place = false;
  // kOp with "compile: error": the device compiler refuses this op for these inputs, so its
  // first call pays the compile attempt and every call runs on the CPU (compile_error).
  bool compile_fails = false;
  int64_t count = 1;       // kRepeat
  std::vector<Step> body;  // kRepeat
  std::string graph;       // kGraph: a key of workload.graphs
  SourceLoc loc;
  // The workload's one type resolution, made by the loader (repeat bodies keep their types, so
  // each step has one): kOp's operand and result types; kGraph's body signatures for this call,
  // in body order. The host model, the FLOP counter and `describe --json` read these.
  OpSignature types;
  std::vector<OpSignature> graph_types;
  bool Typed() const;  // kOp / kGraph: the loader resolved this step
};

// A module compiled with torch.compile(backend="rbln"): its ops become one device program, so
// each call is one "Torch-Compiled Region" on the host and one launch on the device. Parameters
// (weights) are workload tensors, written to the device when the graph is first called.
struct GraphSpec {
  std::string name;
  std::vector<std::string> params;  // workload.graphs.NAME.inputs: names bound at each call
  std::vector<Step> body;           // workload.graphs.NAME.steps: kOp steps only
  std::string result;               // workload.graphs.NAME.output: the body tensor returned
  SourceLoc loc;
};

struct Workload {
  std::vector<TensorSpec> tensors;          // workload.tensors
  std::vector<Step> warmup;                 // workload.warmup: outside the profiled window
  std::vector<Step> profile;                // workload.profile: inside the window
  std::map<std::string, GraphSpec> graphs;  // workload.graphs
  bool activity_cpu = true;                 // workload.activities contains cpu
  bool activity_privateuse1 = true;         // workload.activities contains privateuse1
  // workload.bridge: the torch-rbln bridge the profiler runs, which fixes the producer seam and
  // the trace dialect: "current" (runtime activity API) or "c-abi" (rbln_kineto C-ABI).
  std::string bridge = "current";
};

struct Naming {
  std::string command_template = "i{instance}_{sequence}_W{workload}_{layer}_{command}";
  int instance_base = 1;  // naming.instance_base
};

struct Expect {
  std::optional<int64_t> device_events;      // expect.device_events
  std::optional<double> self_rbln_total_us;  // expect.self_rbln_total_us
  double self_rbln_tolerance = 0.10;         // expect.self_rbln_tolerance (relative)
  std::optional<int64_t> fallbacks;          // expect.fallbacks
  std::optional<bool> no_fallbacks;          // expect.no_fallbacks: true asserts none ran
  std::optional<double> latency_p99_max_ns;  // expect.latency_p99_max
  std::map<std::string, int64_t> op_calls;   // expect.op_calls: {aten::mm: 6}
  SourceLoc loc;
};

struct SweepAxis {
  std::string path;                 // any key path, e.g. device.queue.depth
  std::vector<std::string> values;  // YAML scalars as written; validated through --set rules
};

struct Sweep {
  enum class Mode { kGrid, kZip };
  Mode mode = Mode::kGrid;
  std::vector<SweepAxis> axes;
};

struct Scenario {
  std::string name;
  std::string description;
  std::string source_path;
  uint64_t seed = 1;
  DeviceConfig device;
  HostConfig host;
  EnvConfig env;
  Workload workload;
  Naming naming;
  Expect expect;
  Sweep sweep;
};

}  // namespace rblnsim::scenario

#endif  // RBLNSIM_SCENARIO_SCENARIO_H_
