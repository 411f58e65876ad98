// The rows of the parameter registry (see registry.h). Ranges are those of scenario/limits.h;
// the order is the canonical form's, so scenario hashes do not depend on how this file evolves
// except when a key is added.
#include <optional>
#include <type_traits>

#include "scenario/env.h"
#include "scenario/limits.h"
#include "scenario/registry.h"

// Rows name only the members they use; the rest keep Param's defaults on purpose.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace rblnsim::scenario {
namespace {

// Field <-> ParamValue. Enumerations are stored as their index in the row's choices.
ParamValue ToValue(int value) {
  return int64_t{value};
}
ParamValue ToValue(int64_t value) {
  return value;
}
ParamValue ToValue(uint64_t value) {  // kUint64: the same bits
  return static_cast<int64_t>(value);
}
ParamValue ToValue(double value) {
  return value;
}
// A yes/no key is a kChoice of {"false", "true"}.
ParamValue ToValue(bool value) {
  return int64_t{value ? 1 : 0};
}
ParamValue ToValue(const std::string& value) {
  return value;
}
template <typename E, typename = std::enable_if_t<std::is_enum_v<E>>>
ParamValue ToValue(E value) {
  return static_cast<int64_t>(value);
}
template <typename T>
ParamValue ToValue(const std::optional<T>& value) {
  return value ? ToValue(*value) : ParamValue();
}
ParamValue ToValue(const std::map<std::string, HostOpCost>& costs) {
  OpCostsNs out;
  for (const auto& [name, cost] : costs) {
    out[name] = cost.self_ns;
  }
  return out;
}
ParamValue ToValue(const std::map<std::string, double>& costs) {
  return OpCostsNs(costs);
}
ParamValue ToValue(const std::map<std::string, int64_t>& counts) {
  return OpCounts(counts);
}

void FromValue(const ParamValue& value, int* out) {
  *out = static_cast<int>(std::get<int64_t>(value));
}
void FromValue(const ParamValue& value, int64_t* out) {
  *out = std::get<int64_t>(value);
}
void FromValue(const ParamValue& value, uint64_t* out) {
  *out = static_cast<uint64_t>(std::get<int64_t>(value));
}
void FromValue(const ParamValue& value, double* out) {
  *out = std::get<double>(value);
}
void FromValue(const ParamValue& value, bool* out) {
  *out = std::get<int64_t>(value) != 0;
}
void FromValue(const ParamValue& value, std::string* out) {
  *out = std::get<std::string>(value);
}
template <typename E, typename = std::enable_if_t<std::is_enum_v<E>>>
void FromValue(const ParamValue& value, E* out) {
  *out = static_cast<E>(std::get<int64_t>(value));
}
template <typename T>
void FromValue(const ParamValue& value, std::optional<T>* out) {
  if (std::holds_alternative<std::monostate>(value)) {
    out->reset();
    return;
  }
  T field{};
  FromValue(value, &field);
  *out = field;
}
void FromValue(const ParamValue& value, std::map<std::string, HostOpCost>* out) {
  out->clear();
  for (const auto& [name, ns] : std::get<OpCostsNs>(value)) {
    (*out)[name].self_ns = ns;
  }
}
void FromValue(const ParamValue& value, std::map<std::string, double>* out) {
  *out = std::get<OpCostsNs>(value);
}
void FromValue(const ParamValue& value, std::map<std::string, int64_t>* out) {
  *out = std::get<OpCounts>(value);
}

// An environment variable reads and writes the text the process would see; SetEnvVariable is
// the one place that interprets it (the process environment goes through it too).
template <const char* kName>
ParamValue EnvText(const Scenario& s) {
  return EnvVariableText(kName, s.env);
}
template <const char* kName>
void SetEnvText(Scenario* s, const ParamValue& value) {
  // Values reach here already accepted by SetEnvVariable in ReadParam.
  (void)SetEnvVariable(kName, std::get<std::string>(value), &s->env);
}
constexpr char kRblnProfiler[] = "RBLN_PROFILER";
constexpr char kRblnProfilerDir[] = "RBLN_PROFILER_DIR";
constexpr char kTorchRblnDeploy[] = "TORCH_RBLN_DEPLOY";
constexpr char kForceSync[] = "RBLN_RUNTIME_FORCE_SYNC";
constexpr char kDisableFallback[] = "TORCH_RBLN_DISABLE_FALLBACK";
constexpr char kCompiledOps[] = "TORCH_RBLN_COMPILED_OPS";
constexpr char kFloat32Precision[] = "RBLN_FLOAT32_PRECISION";
constexpr char kLogLevel[] = "TORCH_RBLN_LOG_LEVEL";

#define RBLNSIM_ENV(name, member) .field = #member, .get = EnvText<name>, .set = SetEnvText<name>

// The field a row sets, its name for people, and its accessors.
#define RBLNSIM_FIELD(member)                                                   \
  .field = #member, .get = [](const Scenario& s) { return ToValue(s.member); }, \
  .set = [](Scenario* s, const ParamValue& v) { FromValue(v, &s->member); }

Range TimeAtLeastZero() {
  return Range{0, kMaxDurationNs, false, false, "ns"};
}
Range TimePositive() {
  return Range{0, kMaxDurationNs, true, false, "ns"};
}
Range EfficiencyRange() {
  return Between(kMinEfficiency, kMaxEfficiency);
}
Range BandwidthRange() {
  return Range{kMinBandwidthBytesPerS, kMaxBandwidthBytesPerS, false, false, "B/s"};
}
Range EpochRange() {
  return Range{0, kMaxEpochNs, false, false, "ns"};
}

using K = ParamKind;

// workload.activities: bit 0 cpu, bit 1 privateuse1 (the row's choices).
ParamValue Activities(const Scenario& s) {
  return int64_t{(s.workload.activity_cpu ? 1 : 0) | (s.workload.activity_privateuse1 ? 2 : 0)};
}
void SetActivities(Scenario* s, const ParamValue& value) {
  s->workload.activity_cpu = (std::get<int64_t>(value) & 1) != 0;
  s->workload.activity_privateuse1 = (std::get<int64_t>(value) & 2) != 0;
}
// workload.bridge is kept as its name, which the session and the reports print.
constexpr std::string_view kBridges[] = {"current", "c-abi"};
ParamValue Bridge(const Scenario& s) {
  return int64_t{s.workload.bridge == kBridges[1] ? 1 : 0};
}
void SetBridge(Scenario* s, const ParamValue& value) {
  s->workload.bridge = std::string(kBridges[std::get<int64_t>(value) != 0 ? 1 : 0]);
}

std::vector<Param> BuildTable() {
  return {
      // The top level: the scenario's identity.
      {.path = "scenario",
       .kind = K::kName,
       .help = "the scenario's name (required): letters, digits, '_', '-', '.'",
       RBLNSIM_FIELD(name)},
      {.path = "description",
       .kind = K::kString,
       .help = "what the scenario shows, for people",
       RBLNSIM_FIELD(description)},
      {.path = "seed",
       .kind = K::kUint64,
       .help = "seeds every random choice of the run: the same seed, the same outputs",
       RBLNSIM_FIELD(seed)},

      // device: the Rebel100 (or ATOM) card. Figures marked estimate are not published.
      {.path = "device.variant",
       .kind = K::kChoice,
       .choices = {"rebel100", "atom"},
       .help = "the card; atom first swaps in ATOM defaults for keys not given",
       RBLNSIM_FIELD(device.variant)},
      {.path = "device.card_name",
       .kind = K::kString,
       .help = "RBLN-CRnn for rebel100, RBLN-CAnn for atom (atom: RBLN-CA25)",
       RBLNSIM_FIELD(device.card_name)},
      {.path = "device.chiplets",
       .kind = K::kInt,
       .range = Between(1, 16),
       .help = "chiplets per card (atom: 1)",
       RBLNSIM_FIELD(device.chiplets)},
      {.path = "device.clock",
       .kind = K::kFrequency,
       .unit = "GHz",
       .range = Range{kMinClockGhz, kMaxClockGhz, false, false, "GHz"},
       .help = "core clock (estimate)",
       RBLNSIM_FIELD(device.clock_ghz)},
      {.path = "device.matmul.engines_per_chiplet",
       .kind = K::kInt,
       .range = Between(1, 1024),
       .help = "Neural Engines per chiplet",
       RBLNSIM_FIELD(device.engines_per_chiplet)},
      {.path = "device.matmul.array_rows",
       .kind = K::kInt,
       .range = Between(1, 4096),
       .help = "MAC array rows (atom: derived from the 32 TFLOPS peak)",
       RBLNSIM_FIELD(device.array_rows)},
      {.path = "device.matmul.array_cols",
       .kind = K::kInt,
       .range = Between(1, 4096),
       .help = "MAC array columns (atom: derived from the 32 TFLOPS peak)",
       RBLNSIM_FIELD(device.array_cols)},
      {.path = "device.matmul.preload_rows_per_cycle",
       .kind = K::kInt,
       .range = Between(1, 4096),
       .help = "rows of a stationary tile written per cycle into the array's shadow registers "
               "(estimate): a GEMV's fold costs array_rows / this",
       RBLNSIM_FIELD(device.preload_rows_per_cycle)},
      {.path = "device.matmul.dataflow",
       .kind = K::kChoice,
       .choices = {"ws", "os", "is"},
       .help = "weight / output / input stationary",
       RBLNSIM_FIELD(device.dataflow)},
      {.path = "device.matmul.efficiency",
       .kind = K::kNumber,
       .range = EfficiencyRange(),
       .help = "fraction of the engines' peak rate reached (above 1: the card beats the peak)",
       RBLNSIM_FIELD(device.matmul_efficiency)},
      {.path = "device.matmul.sram",
       .kind = K::kSize,
       .unit = "B",
       .range = Positive(),
       .help = "on-chip SRAM per chiplet",
       RBLNSIM_FIELD(device.sram_bytes_per_chiplet)},
      {.path = "device.matmul.split_min_flops",
       .kind = K::kInt,
       .unit = "FLOP",
       .range = AtLeast(0),
       .help = "a matmul below this is never split; above, it is split across chiplets when that "
               "finishes sooner (0: by cost alone); 2e9 is accepted, 2.0e9 is not",
       RBLNSIM_FIELD(device.chiplet_split_min_flops)},
      {.path = "device.gce.elements_per_cycle",
       .kind = K::kInt,
       .range = Between(1, 1 << 20),
       .help = "General Compute Engine throughput",
       RBLNSIM_FIELD(device.gce_elements_per_cycle)},
      {.path = "device.gce.efficiency",
       .kind = K::kNumber,
       .range = EfficiencyRange(),
       .help = "fraction of the GCE's peak rate reached",
       RBLNSIM_FIELD(device.gce_efficiency)},
      {.path = "device.hbm.capacity",
       .kind = K::kSize,
       .unit = "B",
       .range = Positive(),
       .help = "per chiplet (atom: 16GiB GDDR6)",
       RBLNSIM_FIELD(device.hbm_bytes_per_chiplet)},
      {.path = "device.hbm.bandwidth",
       .kind = K::kBandwidth,
       .unit = "B/s",
       .range = BandwidthRange(),
       .help = "per chiplet, sustained (2.7TB/s effective per device; peak 1.2TB/s; atom: "
               "256GB/s, estimate)",
       RBLNSIM_FIELD(device.hbm_bandwidth_bytes_per_s)},
      {.path = "device.d2d.latency",
       .kind = K::kTime,
       .unit = "ns",
       .range = TimeAtLeastZero(),
       .help = "chiplet-to-chiplet hop",
       RBLNSIM_FIELD(device.d2d_latency_ns)},
      {.path = "device.d2d.bandwidth",
       .kind = K::kBandwidth,
       .unit = "B/s",
       .range = BandwidthRange(),
       .help = "per channel",
       RBLNSIM_FIELD(device.d2d_bandwidth_bytes_per_s)},
      {.path = "device.dma.bandwidth",
       .kind = K::kBandwidth,
       .unit = "B/s",
       .range = BandwidthRange(),
       .help = "one DMA engine",
       RBLNSIM_FIELD(device.dma_bandwidth_bytes_per_s)},
      {.path = "device.dma.efficiency",
       .kind = K::kNumber,
       .range = EfficiencyRange(),
       .help = "fraction of the DMA bandwidth reached",
       RBLNSIM_FIELD(device.dma_efficiency)},
      {.path = "device.pcie.bandwidth",
       .kind = K::kBandwidth,
       .unit = "B/s",
       .range = BandwidthRange(),
       .help = "per link (PCIe Gen5 x16)",
       RBLNSIM_FIELD(device.pcie_bandwidth_bytes_per_s)},
      {.path = "device.pcie.links",
       .kind = K::kInt,
       .range = Between(1, 16),
       .help = "host links per package",
       RBLNSIM_FIELD(device.pcie_links)},
      {.path = "device.pcie.latency",
       .kind = K::kTime,
       .unit = "ns",
       .range = TimeAtLeastZero(),
       .help = "one way",
       RBLNSIM_FIELD(device.pcie_latency_ns)},
      {.path = "device.queue.depth",
       .kind = K::kInt,
       .unit = "entries",
       .range = Between(1, 65536),
       .help = "command ring entries",
       RBLNSIM_FIELD(device.queue_depth)},
      {.path = "device.queue.fetch_batch",
       .kind = K::kInt,
       .unit = "entries",
       .range = Between(1, 65536),
       .help = "at most queue.depth when given; the default follows a smaller ring",
       RBLNSIM_FIELD(device.fetch_batch)},
      {.path = "device.queue.doorbell",
       .kind = K::kTime,
       .unit = "ns",
       .range = TimeAtLeastZero(),
       .help = "doorbell write to fetch start",
       RBLNSIM_FIELD(device.doorbell_ns)},
      {.path = "device.queue.decode",
       .kind = K::kTime,
       .unit = "ns",
       .range = TimeAtLeastZero(),
       .help = "command decode",
       RBLNSIM_FIELD(device.decode_ns)},
      {.path = "device.queue.dispatch",
       .kind = K::kTime,
       .unit = "ns",
       .range = TimeAtLeastZero(),
       .help = "per command, to an engine",
       RBLNSIM_FIELD(device.dispatch_ns)},
      {.path = "device.queue.completion",
       .kind = K::kTime,
       .unit = "ns",
       .range = TimeAtLeastZero(),
       .help = "completion report to the host",
       RBLNSIM_FIELD(device.completion_ns)},
      {.path = "device.queue.command_overhead",
       .kind = K::kNumber,
       .unit = "cycles",
       .range = Between(0, kMaxCommandOverheadCycles),
       .help = "fixed cost of every device command",
       RBLNSIM_FIELD(device.command_overhead_cycles)},
      {.path = "device.queue.command_timeout",
       .kind = K::kTime,
       .unit = "ns",
       .range = TimePositive(),
       .help = "a longer command fails its launch as timed out",
       RBLNSIM_FIELD(device.command_timeout_ns)},
      {.path = "device.profiler.record_buffer",
       .kind = K::kInt,
       .unit = "records",
       .range = Between(1, 1 << 30),
       .help = "device profiler record buffer",
       RBLNSIM_FIELD(device.record_buffer_capacity)},
      {.path = "device.profiler.clock_offset",
       .kind = K::kTime,
       .unit = "ns",
       .range = Range{-kMaxSimulatedNs, kMaxSimulatedNs, false, false, "ns"},
       .help = "device clock minus host clock; may be negative",
       RBLNSIM_FIELD(device.clock_offset_ns)},
      {.path = "device.profiler.clock_drift_ppm",
       .kind = K::kNumber,
       .unit = "ppm",
       .range = Between(-1000, 1000),
       .help = "device clock drift",
       RBLNSIM_FIELD(device.clock_drift_ppm)},
      {.path = "device.faults.hang_command",
       .kind = K::kString,
       .help = "a command name that never completes; empty: none",
       RBLNSIM_FIELD(device.hang_command)},

      // host: the simulated Python process.
      {.path = "host.pid",
       .kind = K::kInt,
       .range = Between(1, 2147483647),
       .help = "process id in the trace",
       RBLNSIM_FIELD(host.pid)},
      {.path = "host.tid",
       .kind = K::kInt,
       .range = Between(1, 2147483647),
       .help = "thread id in the trace",
       RBLNSIM_FIELD(host.tid)},
      {.path = "host.process_name",
       .kind = K::kString,
       .help = "one non-empty line",
       RBLNSIM_FIELD(host.process_name)},
      {.path = "host.op_costs",
       .kind = K::kOpCostMap,
       .unit = "ns",
       .range = TimeAtLeastZero(),
       .help = "self time by ATen op name, e.g. {aten::mm: 12us}; others: built-in, then "
               "default_op_cost",
       RBLNSIM_FIELD(host.op_costs)},
      {.path = "host.op_costs_per_element",
       .kind = K::kOpCostMap,
       .unit = "ns",
       .range = Range{0, 1e6, false, false, "ns"},
       .help = "self time per element of the op's largest input, by ATen op name, e.g. "
               "{aten::add: 0.2ns}; others: built-in (0 for most)",
       RBLNSIM_FIELD(host.op_costs_per_element_ns)},
      {.path = "host.default_op_cost",
       .kind = K::kTime,
       .unit = "ns",
       .range = TimeAtLeastZero(),
       .help = "an op with no built-in or given cost",
       RBLNSIM_FIELD(host.default_op_ns)},
      {.path = "host.jitter",
       .kind = K::kNumber,
       .range = HalfOpenUnit(),
       .help = "relative stddev of every host cost",
       RBLNSIM_FIELD(host.jitter)},
      {.path = "host.runtime_submit",
       .kind = K::kTime,
       .unit = "ns",
       .range = TimeAtLeastZero(),
       .help = "the rbln_run call",
       RBLNSIM_FIELD(host.runtime_submit_ns)},
      {.path = "host.compile",
       .kind = K::kTime,
       .unit = "ns",
       .range = TimeAtLeastZero(),
       .help = "a compile-cache miss",
       RBLNSIM_FIELD(host.compile_ns)},
      {.path = "host.copy_bandwidth",
       .kind = K::kBandwidth,
       .unit = "B/s",
       .range = BandwidthRange(),
       .help = "CPU memcpy",
       RBLNSIM_FIELD(host.host_copy_bytes_per_s)},
      {.path = "host.steady_epoch",
       .kind = K::kTimeExact,
       .unit = "ns",
       .range = EpochRange(),
       .help = "steady clock at start, exact",
       RBLNSIM_FIELD(host.steady_epoch_ns)},
      {.path = "host.system_epoch",
       .kind = K::kTimeExact,
       .unit = "ns",
       .range = EpochRange(),
       .help = "system clock at start, exact (default 2026-01-01)",
       RBLNSIM_FIELD(host.system_epoch_ns)},
      {.path = "host.fallback_path",
       .kind = K::kChoice,
       .choices = {"shim", "python"},
       .help = "shim (today: the C++ dispatch shim decides its ops' dtype/NaN/scalar/alignment "
               "fallbacks, boxed shape) | python (earlier releases: the Python wrapper, nested "
               "shape)",
       RBLNSIM_FIELD(host.fallback_path)},

      // env: the variables the simulated process starts with.
      {.path = "env.RBLN_PROFILER",
       .kind = K::kEnvVar,
       .choices = {"0", "1"},
       .help = "0 | 1: the profiler runs",
       RBLNSIM_ENV(kRblnProfiler, env.rbln_profiler)},
      {.path = "env.RBLN_PROFILER_DIR",
       .kind = K::kEnvVar,
       .help = "any string: where the profiler writes",
       RBLNSIM_ENV(kRblnProfilerDir, env.rbln_profiler_dir)},
      {.path = "env.TORCH_RBLN_DEPLOY",
       .kind = K::kEnvVar,
       .choices = {"OFF", "ON"},
       .help = "ON | OFF, also 1/0, true/false (any case); OFF: the NaN/Inf scan runs",
       RBLNSIM_ENV(kTorchRblnDeploy, env.torch_rbln_deploy)},
      {.path = "env.RBLN_RUNTIME_FORCE_SYNC",
       .kind = K::kEnvVar,
       .choices = {"0", "1"},
       .help = "0 | 1: every launch waits for its completion",
       RBLNSIM_ENV(kForceSync, env.runtime_force_sync)},
      {.path = "env.TORCH_RBLN_DISABLE_FALLBACK",
       .kind = K::kEnvVar,
       .help = "comma list of all, compile_error, host_round_trip, non_blocking_copy, "
               "strided_copy_error, unsupported_op: those fallbacks fail instead (default none)",
       RBLNSIM_ENV(kDisableFallback, env.disabled_fallbacks)},
      {.path = "env.TORCH_RBLN_COMPILED_OPS",
       .kind = K::kEnvVar,
       .help = "integer >= 1: compiled eager ops kept (LRU; default 2048); an evicted one "
               "recompiles",
       RBLNSIM_ENV(kCompiledOps, env.torch_rbln_compiled_ops)},
      {.path = "env.RBLN_FLOAT32_PRECISION",
       .kind = K::kEnvVar,
       .choices = {"device", "exact"},
       .help = "device | exact: fp32 on the NPU at 16-bit width, or fp32 semantics (eager fp32 "
               "ops fall back)",
       RBLNSIM_ENV(kFloat32Precision, env.float32_precision)},
      {.path = "env.TORCH_RBLN_LOG_LEVEL",
       .kind = K::kEnvVar,
       .choices = {"DEBUG", "INFO", "WARNING", "ERROR"},
       .help = "DEBUG | INFO | WARNING | ERROR (default WARNING): INFO and below log each CPU "
               "fallback on stderr",
       RBLNSIM_ENV(kLogLevel, env.torch_rbln_log_level)},

      // workload: what the profiler records; the program itself (tensors, graphs, warmup,
      // profile) is read by parse_workload.cc.
      {.path = "workload.activities",
       .kind = K::kChoiceSet,
       .choices = {"cpu", "privateuse1"},
       .help = "the ProfilerActivity list: host ops (cpu), device work (privateuse1), or both",
       .field = "workload.activity_cpu, workload.activity_privateuse1",
       .get = Activities,
       .set = SetActivities},
      {.path = "workload.bridge",
       .kind = K::kChoice,
       .choices = {kBridges[0], kBridges[1]},
       .help = "the torch-rbln bridge: current (runtime activity API) or c-abi (rbln_kineto_*), "
               "which fixes the producer seam and the trace dialect",
       .field = "workload.bridge",
       .get = Bridge,
       .set = SetBridge},

      // naming: device command names.
      {.path = "naming.command_template",
       .kind = K::kString,
       .help = "placeholders {instance} {sequence} {workload} {layer} {command}",
       RBLNSIM_FIELD(naming.command_template)},
      {.path = "naming.instance_base",
       .kind = K::kInt,
       .range = Between(0, 1000000),
       .help = "the first {instance}",
       RBLNSIM_FIELD(naming.instance_base)},

      // expect: what `rblnsim run` checks; unset keys are not checked.
      {.path = "expect.device_events",
       .kind = K::kInt,
       .range = AtLeast(0),
       .help = "device events in the trace",
       RBLNSIM_FIELD(expect.device_events)},
      {.path = "expect.self_rbln_total_us",
       .kind = K::kNumber,
       .unit = "us",
       .range = AtLeast(0),
       .help = "total Self RBLN time of the key_averages table",
       RBLNSIM_FIELD(expect.self_rbln_total_us)},
      {.path = "expect.self_rbln_tolerance",
       .kind = K::kNumber,
       .range = Between(0, 1),
       .help = "relative tolerance of self_rbln_total_us",
       RBLNSIM_FIELD(expect.self_rbln_tolerance)},
      {.path = "expect.fallbacks",
       .kind = K::kInt,
       .range = AtLeast(0),
       .help = "CPU fallbacks",
       RBLNSIM_FIELD(expect.fallbacks)},
      {.path = "expect.no_fallbacks",
       .kind = K::kChoice,
       .choices = {"false", "true"},
       .help = "true: no op ran on the CPU (the assertion TORCH_RBLN_DISABLE_FALLBACK=all makes, "
               "without failing the run)",
       RBLNSIM_FIELD(expect.no_fallbacks)},
      {.path = "expect.latency_p99_max",
       .kind = K::kTime,
       .unit = "ns",
       .range = Positive(),
       .help = "bound on the p99 submission latency",
       RBLNSIM_FIELD(expect.latency_p99_max_ns)},
      {.path = "expect.op_calls",
       .kind = K::kOpCountMap,
       .range = AtLeast(0),
       .help = "calls by ATen op name, e.g. {aten::mm: 6}",
       RBLNSIM_FIELD(expect.op_calls)},

      // sweep: how the axes combine; the axes (sweep.params) are read by parse_document.cc.
      {.path = "sweep.mode",
       .kind = K::kChoice,
       .choices = {"grid", "zip"},
       .help = "grid: every combination of the axes' values; zip: the i-th values together",
       RBLNSIM_FIELD(sweep.mode)},
  };
}

#undef RBLNSIM_FIELD
#undef RBLNSIM_ENV

}  // namespace

const std::vector<Param>& Parameters() {
  static const std::vector<Param> kTable = BuildTable();
  return kTable;
}

}  // namespace rblnsim::scenario
