#include "scenario/loader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/scenario/test_util.h"

namespace rblnsim::scenario {
namespace {

using ::testing::HasSubstr;
using testing::kMinimal;
using testing::LoadError;
using testing::LoadOk;
using ::testing::MatchesRegex;
using ::testing::StartsWith;

TEST(ScenarioLoader, SeedScenarioMatchesTutorial) {
  StatusOr<Scenario> loaded = LoadScenario(testing::SeedScenarioPath());
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  const Scenario& s = *loaded;
  EXPECT_EQ(s.name, "profile_matmul");
  EXPECT_EQ(s.source_path, testing::SeedScenarioPath());
  ASSERT_EQ(s.workload.tensors.size(), 1u);
  EXPECT_EQ(s.workload.tensors[0].name, "x");
  EXPECT_EQ(s.workload.tensors[0].shape, (std::vector<int64_t>{512, 512}));
  EXPECT_EQ(s.workload.tensors[0].dtype, DType::kFp16);
  EXPECT_EQ(s.workload.tensors[0].device, "rbln");
  ASSERT_EQ(s.workload.warmup.size(), 2u);
  EXPECT_EQ(s.workload.warmup[0].op, "matmul");
  EXPECT_EQ(s.workload.warmup[1].kind, Step::Kind::kCpu);
  EXPECT_EQ(s.workload.warmup[1].inputs, std::vector<std::string>{"y"});
  ASSERT_EQ(s.workload.profile.size(), 1u);
  const Step& repeat = s.workload.profile[0];
  EXPECT_EQ(repeat.kind, Step::Kind::kRepeat);
  EXPECT_EQ(repeat.count, 3);
  ASSERT_EQ(repeat.body.size(), 2u);
  EXPECT_EQ(repeat.body[0].inputs, (std::vector<std::string>{"x", "x"}));
  EXPECT_EQ(repeat.body[0].output, "y");
  EXPECT_GT(repeat.loc.line, 0);
  EXPECT_TRUE(s.workload.activity_cpu);
  EXPECT_TRUE(s.workload.activity_privateuse1);
  EXPECT_FALSE(s.env.rbln_profiler);
  EXPECT_FALSE(s.env.torch_rbln_deploy);
  EXPECT_EQ(s.expect.device_events, 18);
  EXPECT_DOUBLE_EQ(*s.expect.self_rbln_total_us, 36.959);
  EXPECT_DOUBLE_EQ(s.expect.self_rbln_tolerance, 0.10);
  const std::map<std::string, int64_t> calls = {
      {"aten::mm", 6},    {"aten::matmul", 3},    {"aten::abs", 12},   {"aten::isinf", 6},
      {"aten::to", 15},   {"aten::_to_copy", 15}, {"aten::copy_", 21}, {"aten::_copy_from", 9},
      {"aten::isnan", 6}, {"aten::ne", 6}};
  EXPECT_EQ(s.expect.op_calls, calls);
}

TEST(ScenarioLoader, OmittedKeysKeepStructDefaults) {
  const Scenario s = LoadOk(kMinimal);
  const DeviceConfig d;
  EXPECT_EQ(s.device.card_name, d.card_name);
  EXPECT_EQ(s.device.chiplets, d.chiplets);
  EXPECT_EQ(s.device.queue_depth, d.queue_depth);
  EXPECT_EQ(s.device.fetch_batch, d.fetch_batch);
  EXPECT_DOUBLE_EQ(s.device.hbm_bandwidth_bytes_per_s, d.hbm_bandwidth_bytes_per_s);
  EXPECT_EQ(s.host.pid, HostConfig{}.pid);
  EXPECT_EQ(s.host.system_epoch_ns, HostConfig{}.system_epoch_ns);
  EXPECT_EQ(s.naming.command_template, Naming{}.command_template);
  EXPECT_EQ(s.seed, 1u);
  EXPECT_FALSE(s.expect.device_events.has_value());
}

TEST(ScenarioLoader, ReadsEveryDeviceAndHostKey) {
  const Scenario s = LoadOk(std::string(kMinimal) + R"(seed: 18446744073709551615
description: all keys
device:
  variant: rebel100
  card_name: RBLN-CR13
  chiplets: 2
  clock: 1500MHz
  matmul: {engines_per_chiplet: 4, array_rows: 64, array_cols: 32, dataflow: os,
           efficiency: 0.5, sram: 32MiB, split_min_flops: 2e9}
  gce: {elements_per_cycle: 128, efficiency: 0.25}
  hbm: {capacity: 24GiB, bandwidth: 0.8TB/s}
  d2d: {latency: 20ns, bandwidth: 500GB/s}
  dma: {bandwidth: 300GB/s, efficiency: 0.9}
  pcie: {bandwidth: 32GB/s, links: 1, latency: 1us}
  queue: {depth: 16, fetch_batch: 4, doorbell: 1us, decode: 2us, dispatch: 3us,
          completion: 4us, command_overhead: 100, command_timeout: 2s}
  profiler: {record_buffer: 4096, clock_offset: -3us, clock_drift_ppm: 12.5}
  faults: {hang_command: i1_0_W0_mm_0}
host:
  pid: 7
  tid: 8
  process_name: python3.12
  op_costs: {aten::mm: 12us, aten::copy_: 3.5us}
  default_op_cost: 4us
  jitter: 0.05
  runtime_submit: 8us
  compile: 200ms
  copy_bandwidth: 10GB/s
  steady_epoch: 5s
  system_epoch: 1767225600s
env: {RBLN_PROFILER: 1, RBLN_PROFILER_DIR: /tmp/prof, TORCH_RBLN_DEPLOY: ON,
      RBLN_RUNTIME_FORCE_SYNC: "1"}
naming: {command_template: "{command}_{sequence}", instance_base: 0}
expect: {device_events: 3, fallbacks: 0, latency_p99_max: 2ms, self_rbln_total_us: 1.5,
         self_rbln_tolerance: 0}
)");
  EXPECT_EQ(s.seed, UINT64_MAX);
  EXPECT_EQ(s.description, "all keys");
  const DeviceConfig& d = s.device;
  EXPECT_EQ(d.chiplets, 2);
  EXPECT_DOUBLE_EQ(d.clock_ghz, 1.5);
  EXPECT_EQ(d.engines_per_chiplet, 4);
  EXPECT_EQ(d.array_rows, 64);
  EXPECT_EQ(d.array_cols, 32);
  EXPECT_EQ(d.dataflow, Dataflow::kOutputStationary);
  EXPECT_DOUBLE_EQ(d.matmul_efficiency, 0.5);
  EXPECT_EQ(d.sram_bytes_per_chiplet, int64_t{32} << 20);
  EXPECT_EQ(d.chiplet_split_min_flops, 2'000'000'000);
  EXPECT_EQ(d.gce_elements_per_cycle, 128);
  EXPECT_DOUBLE_EQ(d.gce_efficiency, 0.25);
  EXPECT_EQ(d.hbm_bytes_per_chiplet, int64_t{24} << 30);
  EXPECT_DOUBLE_EQ(d.hbm_bandwidth_bytes_per_s, 0.8e12);
  EXPECT_DOUBLE_EQ(d.d2d_latency_ns, 20);
  EXPECT_DOUBLE_EQ(d.d2d_bandwidth_bytes_per_s, 500e9);
  EXPECT_DOUBLE_EQ(d.dma_bandwidth_bytes_per_s, 300e9);
  EXPECT_DOUBLE_EQ(d.dma_efficiency, 0.9);
  EXPECT_DOUBLE_EQ(d.pcie_bandwidth_bytes_per_s, 32e9);
  EXPECT_EQ(d.pcie_links, 1);
  EXPECT_DOUBLE_EQ(d.pcie_latency_ns, 1000);
  EXPECT_EQ(d.queue_depth, 16);
  EXPECT_EQ(d.fetch_batch, 4);
  EXPECT_DOUBLE_EQ(d.doorbell_ns, 1000);
  EXPECT_DOUBLE_EQ(d.decode_ns, 2000);
  EXPECT_DOUBLE_EQ(d.dispatch_ns, 3000);
  EXPECT_DOUBLE_EQ(d.completion_ns, 4000);
  EXPECT_DOUBLE_EQ(d.command_overhead_cycles, 100);
  EXPECT_DOUBLE_EQ(d.command_timeout_ns, 2e9);
  EXPECT_EQ(d.record_buffer_capacity, 4096);
  EXPECT_DOUBLE_EQ(d.clock_offset_ns, -3000);
  EXPECT_DOUBLE_EQ(d.clock_drift_ppm, 12.5);
  EXPECT_EQ(d.hang_command, "i1_0_W0_mm_0");
  const HostConfig& h = s.host;
  EXPECT_EQ(h.pid, 7);
  EXPECT_EQ(h.tid, 8);
  EXPECT_EQ(h.process_name, "python3.12");
  EXPECT_DOUBLE_EQ(h.op_costs.at("aten::mm").self_ns, 12000);
  EXPECT_DOUBLE_EQ(h.op_costs.at("aten::copy_").self_ns, 3500);
  EXPECT_DOUBLE_EQ(h.default_op_ns, 4000);
  EXPECT_DOUBLE_EQ(h.jitter, 0.05);
  EXPECT_DOUBLE_EQ(h.runtime_submit_ns, 8000);
  EXPECT_DOUBLE_EQ(h.compile_ns, 2e8);
  EXPECT_DOUBLE_EQ(h.host_copy_bytes_per_s, 10e9);
  EXPECT_EQ(h.steady_epoch_ns, 5'000'000'000);
  EXPECT_EQ(h.system_epoch_ns, 1'767'225'600'000'000'000);
  EXPECT_TRUE(s.env.rbln_profiler);
  EXPECT_EQ(s.env.rbln_profiler_dir, "/tmp/prof");
  EXPECT_TRUE(s.env.torch_rbln_deploy);
  EXPECT_TRUE(s.env.runtime_force_sync);
  EXPECT_EQ(s.naming.command_template, "{command}_{sequence}");
  EXPECT_EQ(s.naming.instance_base, 0);
  EXPECT_EQ(s.expect.device_events, 3);
  EXPECT_EQ(s.expect.fallbacks, 0);
  EXPECT_DOUBLE_EQ(*s.expect.latency_p99_max_ns, 2e6);
  EXPECT_DOUBLE_EQ(s.expect.self_rbln_tolerance, 0);
}

TEST(ScenarioLoader, AtomVariantDefaults) {
  const Scenario s = LoadOk(std::string(kMinimal) + "device: {variant: atom}\n");
  const DeviceConfig& d = s.device;
  EXPECT_EQ(d.variant, DeviceVariant::kAtom);
  EXPECT_EQ(d.card_name, "RBLN-CA25");
  EXPECT_EQ(d.chiplets, 1);
  EXPECT_EQ(d.engines_per_chiplet, 8);
  EXPECT_EQ(d.hbm_bytes_per_chiplet, int64_t{16} << 30);
  EXPECT_DOUBLE_EQ(d.hbm_bandwidth_bytes_per_s, 0.256e12);
  const auto peak = [](const DeviceConfig& c) {
    return c.chiplets * c.engines_per_chiplet * 2.0 * c.array_rows * c.array_cols * c.clock_ghz *
           1e9;
  };
  EXPECT_DOUBLE_EQ(peak(d), 32e12);
  EXPECT_EQ(d.array_rows * d.array_cols, 2000);
  // The array follows the configured clock; explicit values win.
  const Scenario fast = LoadOk(std::string(kMinimal) + "device: {variant: atom, clock: 2GHz}\n");
  EXPECT_DOUBLE_EQ(peak(fast.device), 32e12);
  const Scenario wide = LoadOk(std::string(kMinimal) +
                               "device: {variant: atom, chiplets: 2, matmul: {array_cols: 100}}\n");
  EXPECT_EQ(wide.device.chiplets, 2);
  EXPECT_EQ(wide.device.array_cols, 100);
  EXPECT_EQ(wide.device.array_rows, 20);
}

TEST(ScenarioLoader, ErrorsAreOneLineWithPosition) {
  const std::string message =
      LoadError(std::string(kMinimal) + "device:\n  queue:\n    depth: 0\n");
  EXPECT_THAT(message, StartsWith("test.yaml:10:12: "));
  EXPECT_EQ(message.find('\n'), std::string::npos);
  const std::string key =
      LoadError(std::string(kMinimal) + "device:\n  queue:\n    \"a\\nb\": 1\n");
  EXPECT_EQ(key.find('\n'), std::string::npos) << key;
  EXPECT_THAT(key, HasSubstr("unknown key 'a\\nb'"));
}

TEST(ScenarioLoader, FileErrors) {
  EXPECT_THAT(LoadScenario("/nonexistent/x.yaml").status().message(),
              StartsWith("/nonexistent/x.yaml: cannot open scenario file"));
  EXPECT_THAT(LoadScenario("/").status().message(), StartsWith("/: cannot "));
  EXPECT_THAT(LoadError(std::string(kMaxScenarioFileBytes + 1, '#')),
              HasSubstr("test.yaml:1:1: file is larger than 256 KiB"));
}

TEST(ScenarioLoader, AliasesAreFineWhenSmall) {
  const Scenario s = LoadOk(R"(scenario: alias
workload:
  tensors:
    x: {shape: [64, 64]}
  warmup:
    - repeat: 2
      steps: &body
        - {op: mm, inputs: [x, x], out: y}
        - {cpu: y}
  profile:
    - repeat: 3
      steps: *body
)");
  ASSERT_EQ(s.workload.profile.size(), 1u);
  EXPECT_EQ(s.workload.profile[0].body.size(), 2u);
}

TEST(ScenarioLoader, AliasBombFailsFastInAnyPosition) {
  std::string bomb = "scenario: bomb\nlol: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int level = 1; level <= 9; ++level) {
    bomb += "l" + std::to_string(level) + ": &a" + std::to_string(level) + " [";
    for (int i = 0; i < 10; ++i) {
      bomb += (i ? ", *a" : "*a") + std::to_string(level - 1);
    }
    bomb += "]\n";
  }
  std::string message;
  const double seconds = testing::SecondsFor([&] { message = LoadError(bomb); });
  EXPECT_THAT(message, HasSubstr("YAML alias bomb"));
  EXPECT_THAT(message, MatchesRegex("test.yaml:[0-9]+:[0-9]+: .*"));
  EXPECT_LT(seconds, 1.0);
  // Overlays and sets cannot smuggle one in either: each source is bounded.
  testing::TempDir dir;
  const std::string overlay = dir.Write("bomb.yaml", bomb);
  EXPECT_THAT(LoadScenarioFromString(kMinimal, "test.yaml", {overlay}, {}).status().message(),
              HasSubstr("YAML alias bomb"));
}

TEST(ScenarioLoader, HugeLoopsAreRejected) {
  auto nested = [](int64_t outer, int64_t inner) {
    return std::string(R"(scenario: loop
workload:
  tensors:
    x: {shape: [64, 64]}
  profile:
    - repeat: )") +
           std::to_string(outer) + R"(
      steps:
        - repeat: )" +
           std::to_string(inner) + R"(
          steps:
            - {op: mm, inputs: [x, x], out: y}
            - {cpu: y}
)";
  };
  // 512 x 1024 x 2 = 1,048,576: exactly the limit.
  const Scenario ok = LoadOk(nested(512, 1024));
  EXPECT_EQ(ok.workload.profile[0].body[0].count, 1024);
  EXPECT_THAT(LoadError(nested(512, 1025)), HasSubstr("test.yaml:6:15: huge loop count"));
  EXPECT_THAT(LoadError(nested(1, 1'048'577)), HasSubstr("huge loop count: repeat 1048577"));
  EXPECT_THAT(LoadError(nested(0, 1)), HasSubstr("must be at least 1, got 0"));
}

TEST(ScenarioLoader, TypesFlowThroughTheProgram) {
  const Scenario s = LoadOk(R"(scenario: mlp
workload:
  tensors:
    x: {shape: [8, 128]}
    w1: {shape: [512, 128]}
    w2: {shape: [128, 512]}
    ids: {shape: [8], dtype: int64, device: cpu}
    table: {shape: [100, 128], device: cpu}
  profile:
    - {op: linear, inputs: [x, w1], out: h}
    - {op: silu, inputs: [h], out: h}
    - {op: linear, inputs: [h, w2], out: x}
    - {op: softmax, inputs: [x], out: p}
    - {op: argmax, inputs: [p], out: best}
    - {op: embedding, inputs: [table, ids], out: e}
    - {op: add, inputs: [x, x], out: x, scalars: [0.5]}
    - {synchronize: true}
    - {cpu: best}
)");
  EXPECT_EQ(s.workload.profile.size(), 9u);
  EXPECT_EQ(s.workload.profile[6].scalars, std::vector<double>{0.5});
  // Each op step carries the types the loader resolved: the one typed program every consumer reads.
  auto signature = [&](size_t i) {
    std::string text = "(";
    for (const TensorType& type : s.workload.profile[i].types.inputs)
      text += (text.size() > 1 ? ", " : "") + type.ToString();
    return text + ") -> " + s.workload.profile[i].types.output.ToString();
  };
  EXPECT_EQ(signature(0), "(fp16[8,128], fp16[512,128]) -> fp16[8,512]");
  EXPECT_EQ(signature(1), "(fp16[8,512]) -> fp16[8,512]");
  EXPECT_EQ(signature(4), "(fp16[8,128]) -> int64[8]");
  EXPECT_EQ(signature(5), "(fp16[100,128], int64[8]) -> fp16[8,128]");
  EXPECT_TRUE(WorkloadTyped(s.workload));
  EXPECT_THAT(LoadError(R"(scenario: mlp
workload:
  tensors:
    x: {shape: [8, 128]}
    w1: {shape: [512, 128]}
  profile:
    - {op: linear, inputs: [x, w1], out: h}
    - {op: linear, inputs: [h, w1], out: y}
)"),
              HasSubstr("test.yaml:8:28: op linear: x's last dim does not match weight's in"));
}

TEST(ScenarioLoader, RepeatBodyMayKeepTypes) {
  const Scenario s = LoadOk(R"(scenario: decode
workload:
  tensors:
    h: {shape: [1, 64]}
  profile:
    - repeat: 4
      steps:
        - {op: cat, inputs: [h, h], out: t}
        - {op: transpose, inputs: [t], out: u, scalars: [0, 1]}
        - {op: mean, inputs: [u], out: h}
        - {op: reshape, inputs: [h], out: h, scalars: [1, -1]}
)");
  EXPECT_EQ(s.workload.profile[0].body.size(), 4u);
}

TEST(ScenarioLoader, AWorkloadBuiltInCodeIsTypedAsTheLoaderTypesIt) {
  Workload workload;
  TensorSpec x;
  x.name = "x";
  x.shape = {4, 64};
  workload.tensors.push_back(x);
  auto op = [](std::string name, std::vector<std::string> inputs, std::string out) {
    Step step;
    step.op = std::move(name);
    step.inputs = std::move(inputs);
    step.output = std::move(out);
    return step;
  };
  Step mm = op("mm", {"x", "y"}, "z");
  mm.loc.line = 42;
  Step transpose = op("transpose", {"x"}, "y");
  transpose.scalars = {0, 1};
  Step repeat;
  repeat.kind = Step::Kind::kRepeat;
  repeat.count = 3;
  repeat.body = {mm};
  workload.warmup = {transpose};
  workload.profile = {repeat};
  EXPECT_FALSE(WorkloadTyped(workload));
  ASSERT_TRUE(TypeWorkload(&workload).ok());
  EXPECT_TRUE(WorkloadTyped(workload));
  EXPECT_EQ(workload.warmup[0].types.output.ToString(), "fp16[64,4]");
  const Step& typed = workload.profile[0].body[0];
  EXPECT_EQ(typed.types.output.ToString(), "fp16[4,4]");
  EXPECT_EQ(typed.loc.line, 42);  // only the types are added
  // What would not load does not type: the loader's own error.
  workload.profile[0].body[0].inputs = {"x", "x"};
  const Status refused = TypeWorkload(&workload);
  EXPECT_THAT(refused.message(), HasSubstr("op mm: "));
}

TEST(ScenarioLoader, CompiledGraphs) {
  const std::string text = R"(scenario: graphs
workload:
  tensors:
    x: {shape: [4, 128]}
    xs: {shape: [4, 64]}
    w: {shape: [256, 128]}
    b: {shape: [256]}
  graphs:
    mlp:
      inputs: [inp]
      steps:
        - {op: linear, inputs: [inp, w, b], out: h}
        - {op: relu, inputs: [h], out: y}
      output: y
  warmup:
    - {graph: mlp, inputs: [x], out: y0}
  profile:
    - {graph: mlp, inputs: [x], out: y1}
    - {op: add, inputs: [y1, y0], out: z}
    - {synchronize: true}
)";
  const Scenario s = LoadOk(text);
  ASSERT_EQ(s.workload.graphs.count("mlp"), 1u);
  const GraphSpec& mlp = s.workload.graphs.at("mlp");
  EXPECT_EQ(mlp.name, "mlp");
  EXPECT_EQ(mlp.params, std::vector<std::string>{"inp"});
  ASSERT_EQ(mlp.body.size(), 2u);
  EXPECT_EQ(mlp.body[0].op, "linear");
  EXPECT_EQ(mlp.body[0].inputs, (std::vector<std::string>{"inp", "w", "b"}));
  EXPECT_EQ(mlp.result, "y");
  EXPECT_EQ(mlp.loc.line, 9);
  const Step& call = s.workload.profile[0];
  EXPECT_EQ(call.kind, Step::Kind::kGraph);
  EXPECT_EQ(call.graph, "mlp");
  EXPECT_EQ(call.inputs, std::vector<std::string>{"x"});
  EXPECT_EQ(call.output, "y1");
  // A graph call carries its body's signatures for its own arguments.
  ASSERT_EQ(call.graph_types.size(), 2u);
  EXPECT_EQ(call.graph_types[0].output.ToString(), "fp16[4,256]");
  EXPECT_EQ(call.graph_types[1].inputs.front().ToString(), "fp16[4,256]");
  EXPECT_FALSE(mlp.body[0].Typed());  // typed per call, not in the definition
  // Body types come from each call's arguments; the error points into the body and the call.
  EXPECT_EQ(LoadError(text, {"workload.profile.0.inputs=[xs]"}),
            "test.yaml:12:32: op linear: x's last dim does not match weight's in (64 vs 128) "
            "(inputs fp16[4,64], fp16[256,128], fp16[256]) (in graph 'mlp', called at "
            "test.yaml:18:7)");
  EXPECT_THAT(LoadError(text, {"workload.graphs.mlp.steps.1.inputs=[q]"}),
              HasSubstr("undefined tensor 'q' in a graph body"));
  EXPECT_THAT(LoadError(text, {"workload.graphs.mlp.inputs=[inp, inp]"}),
              HasSubstr("graph input 'inp' is listed twice"));
  EXPECT_THAT(LoadError(text, {"workload.graphs.mlp.steps=[]"}), HasSubstr("non-empty steps"));
  EXPECT_THAT(LoadError(text, {"workload.profile.0.graph=mpl"}),
              HasSubstr("unknown graph 'mpl'; did you mean 'mlp'?"));
  EXPECT_THAT(LoadError(text, {"workload.profile.0.scalars=[1]"}),
              HasSubstr("key 'scalars' does not belong in a graph step"));
}

TEST(ScenarioLoader, StepShapeErrors) {
  const std::string head = "scenario: s\nworkload:\n  tensors:\n    x: {shape: [4]}\n  profile:\n";
  EXPECT_THAT(LoadError(head + "    - x\n"), HasSubstr("expected a step"));
  EXPECT_THAT(LoadError(head + "    - {inputs: [x]}\n"),
              HasSubstr("needs one of op, graph, cpu, synchronize or repeat"));
  EXPECT_THAT(LoadError(head + "    - {cpu: x, steps: []}\n"),
              HasSubstr("key 'steps' does not belong in a cpu step"));
  EXPECT_THAT(LoadError(head + "    - {op: abs, inputs: [x]}\n"), HasSubstr("needs out:"));
  EXPECT_THAT(LoadError(head + "    - {op: abs, out: y}\n"), HasSubstr("needs inputs:"));
  EXPECT_THAT(LoadError(head + "    - {op: abs, inputs: [x], out: 9y}\n"),
              HasSubstr("must be an identifier"));
  EXPECT_THAT(LoadError(head + "    - {repeat: 2, steps: []}\n"), HasSubstr("non-empty steps"));
  EXPECT_THAT(LoadError(head + "    - {op: add, inputs: [x], out: y, scalars: [one]}\n"),
              HasSubstr("expected a number"));
  EXPECT_THAT(LoadError(head + "    - {stpes: 1}\n"), HasSubstr("did you mean 'steps'?"));
}

TEST(ScenarioLoader, CompileErrorMarksADeviceOpStep) {
  const std::string head =
      "scenario: s\nworkload:\n  tensors:\n    x: {shape: [29, 64]}\n  profile:\n";
  const Scenario s = LoadOk(head + "    - {op: add, inputs: [x, x], out: y, compile: error}\n" +
                            "    - {op: add, inputs: [x, x], out: z}\n");
  EXPECT_TRUE(s.workload.profile[0].compile_fails);
  EXPECT_FALSE(s.workload.profile[1].compile_fails);
  EXPECT_THAT(LoadError(head + "    - {op: add, inputs: [x, x], out: y, compile: slow}\n"),
              HasSubstr("test.yaml:6:50: workload.profile[0].compile: expected error"));
  // An op without a device kernel is never compiled, so its compile cannot fail.
  EXPECT_THAT(LoadError(head + "    - {op: sort, inputs: [x], out: y, compile: error}\n"),
              HasSubstr("has no device kernel, so it is never compiled"));
}

}  // namespace
}  // namespace rblnsim::scenario
