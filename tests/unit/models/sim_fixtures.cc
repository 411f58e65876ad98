#include "tests/unit/models/sim_fixtures.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace rblnsim::testing {

scenario::Step OpStep(const std::string& op,
                      std::vector<std::string> inputs,
                      const std::string& out) {
  scenario::Step step;
  step.kind = scenario::Step::Kind::kOp;
  step.op = op;
  step.inputs = std::move(inputs);
  step.output = out;
  return step;
}

scenario::Step CpuStep(const std::string& tensor) {
  scenario::Step step;
  step.kind = scenario::Step::Kind::kCpu;
  step.inputs = {tensor};
  return step;
}

scenario::TensorSpec Tensor(const std::string& name, std::vector<int64_t> shape) {
  scenario::TensorSpec spec;
  spec.name = name;
  spec.shape = std::move(shape);
  return spec;
}

scenario::Step Repeat(int64_t count, std::vector<scenario::Step> body) {
  scenario::Step step;
  step.kind = scenario::Step::Kind::kRepeat;
  step.count = count;
  step.body = std::move(body);
  return step;
}

scenario::Scenario SeedScenario() {
  scenario::Scenario s;
  s.name = "profile_matmul";
  s.env.rbln_profiler = true;
  scenario::TensorSpec x;
  x.name = "x";
  x.shape = {512, 512};
  s.workload.tensors = {x};
  s.workload.warmup = {OpStep("matmul", {"x", "x"}, "y"), CpuStep("y")};
  s.workload.profile = {Repeat(3, {OpStep("matmul", {"x", "x"}, "y"), CpuStep("y")})};
  return s;
}

sim::SessionData RunSession(const scenario::Scenario& scenario, Status* window_status) {
  auto simulation = sim::Simulation::Create(scenario, scenario.env.rbln_profiler);
  if (!simulation.ok()) {
    std::fprintf(stderr, "%s\n", simulation.status().message().c_str());
    std::abort();
  }
  Status warm = (*simulation)->RunWarmup();
  if (!warm.ok()) {
    std::fprintf(stderr, "warm-up: %s\n", warm.message().c_str());
    std::abort();
  }
  (*simulation)->BeginSession();
  Status window = (*simulation)->RunWindow();
  if (window_status != nullptr)
    *window_status = window;
  sim::SessionData session = (*simulation)->EndSession();
  // Records point at programs the simulation owns: keep it for the rest of the process.
  static std::unique_ptr<sim::Simulation> keep;
  keep = std::move(*simulation);
  return session;
}

std::vector<double> InChild(const std::function<std::vector<double>()>& body) {
  int fds[2];
  if (pipe(fds) != 0)
    std::abort();
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    std::vector<double> values = body();
    const size_t n = values.size();
    if (write(fds[1], &n, sizeof(n)) != sizeof(n))
      _exit(3);
    if (n > 0 && write(fds[1], values.data(), n * sizeof(double)) !=
                     static_cast<ssize_t>(n * sizeof(double))) {
      _exit(3);
    }
    _exit(0);
  }
  close(fds[1]);
  size_t n = 0;
  std::vector<double> values;
  if (read(fds[0], &n, sizeof(n)) == sizeof(n)) {
    values.resize(n);
    size_t got = 0;
    while (got < n * sizeof(double)) {
      const ssize_t r =
          read(fds[0], reinterpret_cast<char*>(values.data()) + got, n * sizeof(double) - got);
      if (r <= 0)
        break;
      got += static_cast<size_t>(r);
    }
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return {};
  return values;
}

double RecordsTotalNs(const sim::SessionData& session, double clock_ghz) {
  double total = 0;
  for (const auto& r : session.records)
    total += static_cast<double>(r.end_cycles - r.start_cycles) / clock_ghz;
  return total;
}

}  // namespace rblnsim::testing
