// Simulator speed, measured against the kernel's own ceiling in the same process: simulated
// device commands per wall second for small and huge matmuls over 1 to 1.7M launches (wall time
// must follow the number of commands, not tensor sizes), the same end to end through the
// producer export, the C-ABI and the bridge projection, and the bare SystemC event-hop rate.
//
// SystemC elaborates once per process, so every module used by any benchmark is built before the
// first sc_start, and each benchmark runs further steps on the same elaboration. The simulator is
// reached the way the CLI reaches it: the process-wide runtime behind the rbln_kineto C-ABI.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <systemc>

#include "profiler/abi/rbln_kineto_api.h"
#include "profiler/bridge/kineto_api.h"
#include "profiler/bridge/rbln_bridge.h"
#include "scenario/loader.h"
#include "scenario/scenario.h"
#include "sim/runtime/simulated_runtime.h"
#include "sim/session.h"
#include "sim/simulated_clock.h"
#include "sim/simulation.h"
#include "tools/rblnsim/prefault.h"

namespace {

using rblnsim::scenario::Scenario;
using rblnsim::scenario::Step;
using rblnsim::scenario::TensorSpec;

// Two threads handing one event back and forth: the cheapest useful kernel round trip.
class PingPong : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(PingPong);
  explicit PingPong(sc_core::sc_module_name name) : sc_module(name) {
    SC_THREAD(Ping);
    SC_THREAD(Pong);
  }
  void Run(int64_t hops) {
    remaining_ = hops;
    start_.notify(sc_core::SC_ZERO_TIME);
    sc_core::sc_start();
  }

 private:
  void Ping() {
    while (true) {
      wait(start_);
      while (remaining_ > 0) {
        --remaining_;
        ping_.notify(1, sc_core::SC_NS);
        wait(pong_);
      }
    }
  }
  void Pong() {
    while (true) {
      wait(ping_);
      pong_.notify(1, sc_core::SC_NS);
    }
  }
  int64_t remaining_ = 0;
  sc_core::sc_event start_, ping_, pong_;
};

struct World {
  rblnsim::sim::SimulatedRuntime* runtime = nullptr;
  rblnsim::sim::Simulation* simulation = nullptr;
  std::unique_ptr<rblnsim::sim::SimulatedClock> clock;
  std::unique_ptr<rblnsim::bridge::RblnBridge> bridge;
  std::unique_ptr<PingPong> ping_pong;
  std::map<std::string, Step> mm;  // per tensor: one typed `mm` step (the loader's types)
};

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "sim_bench: %s\n", what.c_str());
  std::abort();
}

World& GetWorld() {
  static World* world = [] {
    auto* w = new World();
    Scenario s;
    s.env.rbln_profiler = true;
    s.env.torch_rbln_deploy = true;
    // Host costs small so the device, not the host, sets the pace: the burst the ring absorbs.
    s.host.op_costs["aten::mm"] = {100};
    s.host.op_costs["rbln::kernel"] = {100};
    s.host.runtime_submit_ns = 100;
    s.device.record_buffer_capacity = int64_t{1} << 26;
    // The benchmarks' mm steps, typed as the loader types them; the world's own session keeps
    // an empty workload, so it does not run them.
    rblnsim::scenario::Workload bursts;
    for (auto [name, dim] : {std::pair<const char*, int64_t>{"small", 512}, {"large", 8192}}) {
      TensorSpec spec;
      spec.name = name;
      spec.shape = {dim, dim};
      s.workload.tensors.push_back(spec);
      Step mm;
      mm.kind = Step::Kind::kOp;
      mm.op = "mm";
      mm.inputs = {name, name};
      mm.output = std::string("out_") + name;
      bursts.profile.push_back(mm);
    }
    bursts.tensors = s.workload.tensors;
    if (auto typed = rblnsim::scenario::TypeWorkload(&bursts); !typed.ok())
      Fail(typed.message());
    for (const Step& mm : bursts.profile)
      w->mm[mm.inputs.front()] = mm;
    // Built before the session's warm-up makes the first sc_start.
    w->ping_pong = std::make_unique<PingPong>("ping_pong");
    // The world comes up the way every simulated session does: configured, warmed up and one
    // profiled window through the C-ABI. The benchmarks then run their steps on that elaboration.
    auto session = rblnsim::sim::SimulateSession({&s, rblnsim::trace::Dialect::kCAbi});
    if (!session.ok())
      Fail(session.status().message());
    if (!session->warmup.ok())
      Fail(session->warmup.message());
    if (!session->window.ok())
      Fail(session->window.message());
    if (!session->active)
      Fail("the simulated session recorded no device work");
    w->runtime = &rblnsim::sim::SimulatedRuntime::Get();
    w->simulation = w->runtime->simulation();
    auto api = rblnsim::bridge::KinetoApi::FromFunctions(
        &rbln_kineto_is_active, &rbln_kineto_begin_session, &rbln_kineto_end_session_and_export,
        &rblnsim_kineto_last_session_stats);
    if (!api.ok())
      Fail(api.status().message());
    w->clock = std::make_unique<rblnsim::sim::SimulatedClock>(w->runtime);
    w->bridge = std::make_unique<rblnsim::bridge::RblnBridge>(*api, w->clock.get());
    auto has_session = w->bridge->Configure();
    if (!has_session.ok() || !*has_session)
      Fail("the simulated runtime has no profiling session");
    return w;
  }();
  return *world;
}

// Repeat counts past the scenario language's step budget: the body keeps the loader's types.
Step MatmulBurst(const World& world, const std::string& tensor, int64_t launches) {
  Step repeat;
  repeat.kind = Step::Kind::kRepeat;
  repeat.count = launches;
  repeat.body = {world.mm.at(tensor)};
  return repeat;
}

void Warm(World& world, const std::string& tensor) {
  // Compile outside the timed loop, as the warm-up does.
  if (!world.simulation->RunSteps({MatmulBurst(world, tensor, 1)}, false).ok())
    Fail("warm-up failed");
}

void SetCommandCounters(benchmark::State& state, int64_t commands) {
  state.counters["commands_per_s"] =
      benchmark::Counter(static_cast<double>(commands), benchmark::Counter::kIsRate);
  state.counters["commands"] =
      static_cast<double>(commands) / static_cast<double>(state.iterations());
}

// The simulator alone: the host and device models run the launches and hand over the records.
void SimulateMatmuls(benchmark::State& state, const std::string& tensor) {
  World& world = GetWorld();
  const std::vector<Step> steps = {MatmulBurst(world, tensor, state.range(0))};
  Warm(world, tensor);
  int64_t commands = 0;
  for (auto _ : state) {
    world.simulation->BeginSession();
    const int64_t before = world.simulation->commands_executed();
    auto status = world.simulation->RunSteps(steps, true);
    if (!status.ok())
      state.SkipWithError(status.message().c_str());
    commands += world.simulation->commands_executed() - before;
    benchmark::DoNotOptimize(world.simulation->EndSession());
  }
  SetCommandCounters(state, commands);
}

// End to end as a profiled run sees it: begin session over the C-ABI, simulate, then the producer
// converts cycles to steady ns and exports, and the bridge copies the export and projects every
// slice into a trace event with its flow (what torch.profiler then receives).
void SimulateAndExport(benchmark::State& state, const std::string& tensor) {
  World& world = GetWorld();
  const std::vector<Step> steps = {MatmulBurst(world, tensor, state.range(0))};
  Warm(world, tensor);
  int64_t commands = 0;
  int64_t slices = 0;
  // The previous iteration's events are freed outside the timing, as the importer suite frees
  // its previous trace: releasing millions of events is their consumer's cost, not the
  // simulator's, the producer's or the bridge's.
  std::optional<rblnsim::StatusOr<rblnsim::bridge::BridgeResult>> result;
  for (auto _ : state) {
    state.PauseTiming();
    result.reset();
    state.ResumeTiming();
    const int64_t capture_start = world.runtime->SystemNowNs();
    if (!world.bridge->Start().ok())
      state.SkipWithError("begin session failed");
    const int64_t before = world.simulation->commands_executed();
    auto status = world.simulation->RunSteps(steps, true);
    if (!status.ok())
      state.SkipWithError(status.message().c_str());
    result.emplace(world.bridge->Stop(capture_start, world.runtime->SystemNowNs()));
    if (!result->ok()) {
      state.SkipWithError(result->status().message().c_str());
      break;
    }
    commands += world.simulation->commands_executed() - before;
    slices += static_cast<int64_t>((*result)->events.size());
    benchmark::DoNotOptimize(world.runtime->TakeLastSession());
  }
  SetCommandCounters(state, commands);
  state.counters["slices_per_s"] =
      benchmark::Counter(static_cast<double>(slices), benchmark::Counter::kIsRate);
}

void BM_Matmul512(benchmark::State& state) {
  SimulateMatmuls(state, "small");
}
void BM_Matmul8192(benchmark::State& state) {
  SimulateMatmuls(state, "large");
}
void BM_EndToEnd512(benchmark::State& state) {
  SimulateAndExport(state, "small");
}
void BM_EndToEnd8192(benchmark::State& state) {
  SimulateAndExport(state, "large");
}
// 512^3 runs 6 commands a launch: 1.7M launches are 10^7 commands, the top of the linearity range.
BENCHMARK(BM_Matmul512)
    ->Arg(1)
    ->Arg(100)
    ->Arg(10'000)
    ->Arg(100'000)
    ->Arg(1'000'000)
    ->Arg(1'700'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_Matmul8192)->Arg(1'000)->Arg(100'000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_EndToEnd512)->Arg(1'000)->Arg(100'000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_EndToEnd8192)->Arg(1'000)->Arg(100'000)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SystemCEventHop(benchmark::State& state) {
  World& world = GetWorld();
  const int64_t hops = state.range(0);
  for (auto _ : state)
    world.ping_pong->Run(hops / 2);
  state.counters["hops_per_s"] = benchmark::Counter(static_cast<double>(hops) * state.iterations(),
                                                    benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SystemCEventHop)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int sc_main(int /*argc*/, char** /*argv*/) {
  return 0;
}

int main(int argc, char** argv) {
  // As `rblnsim run` does: the simulator leaves a core idle to fault its large blocks in.
  rblnsim::EnablePrefault();
  GetWorld();  // elaborate everything before the first sc_start
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
