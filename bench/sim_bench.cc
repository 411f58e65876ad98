// Simulator speed, measured against the kernel's own ceiling in the same process: simulated
// device commands per wall second for small and huge matmuls (wall time must follow the number
// of commands, not tensor sizes), next to the bare SystemC event-hop rate.
//
// SystemC elaborates once per process, so every module used by any benchmark is built before the
// first sc_start, and each benchmark runs further steps on the same elaboration.
#include <benchmark/benchmark.h>

#include <systemc>

#include <cstdio>
#include <memory>

#include "sim/scenario/scenario.h"
#include "sim/simulation.h"

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
  std::unique_ptr<rblnsim::sim::Simulation> simulation;
  std::unique_ptr<PingPong> ping_pong;
};

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
    for (auto [name, dim] : {std::pair<const char*, int64_t>{"small", 512}, {"large", 8192}}) {
      TensorSpec spec;
      spec.name = name;
      spec.shape = {dim, dim};
      s.workload.tensors.push_back(spec);
    }
    auto created = rblnsim::sim::Simulation::Create(s, true);
    if (!created.ok()) {
      std::fprintf(stderr, "%s\n", created.status().message().c_str());
      std::abort();
    }
    w->simulation = std::move(*created);
    w->ping_pong = std::make_unique<PingPong>("ping_pong");
    return w;
  }();
  return *world;
}

Step MatmulBurst(const std::string& tensor, int64_t launches) {
  Step mm;
  mm.kind = Step::Kind::kOp;
  mm.op = "mm";
  mm.inputs = {tensor, tensor};
  mm.output = "out_" + tensor;
  Step repeat;
  repeat.kind = Step::Kind::kRepeat;
  repeat.count = launches;
  repeat.body = {mm};
  return repeat;
}

void SimulateMatmuls(benchmark::State& state, const std::string& tensor) {
  World& world = GetWorld();
  const int64_t launches = state.range(0);
  const std::vector<Step> steps = {MatmulBurst(tensor, launches)};
  // Compile outside the timed loop, as the warm-up does.
  (void)world.simulation->RunSteps({MatmulBurst(tensor, 1)}, false);
  int64_t commands = 0;
  for (auto _ : state) {
    world.simulation->BeginSession();
    const int64_t before = world.simulation->commands_executed();
    auto status = world.simulation->RunSteps(steps, true);
    if (!status.ok()) state.SkipWithError(status.message().c_str());
    commands += world.simulation->commands_executed() - before;
    benchmark::DoNotOptimize(world.simulation->EndSession());
  }
  state.counters["commands_per_s"] = benchmark::Counter(static_cast<double>(commands), benchmark::Counter::kIsRate);
  state.counters["commands"] = static_cast<double>(commands) / static_cast<double>(state.iterations());
}

void BM_Matmul512(benchmark::State& state) { SimulateMatmuls(state, "small"); }
void BM_Matmul8192(benchmark::State& state) { SimulateMatmuls(state, "large"); }
BENCHMARK(BM_Matmul512)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Matmul8192)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SystemCEventHop(benchmark::State& state) {
  World& world = GetWorld();
  const int64_t hops = state.range(0);
  for (auto _ : state) world.ping_pong->Run(hops / 2);
  state.counters["hops_per_s"] =
      benchmark::Counter(static_cast<double>(hops) * state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SystemCEventHop)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int sc_main(int /*argc*/, char** /*argv*/) { return 0; }

int main(int argc, char** argv) {
  GetWorld();  // elaborate everything before the first sc_start
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
