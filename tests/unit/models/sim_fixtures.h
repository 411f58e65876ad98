// Scenarios built in code for model tests, and a way to run one simulation per child process
// (SystemC elaborates once per process, and some tests compare two configurations).
#ifndef RBLNSIM_TESTS_UNIT_MODELS_SIM_FIXTURES_H_
#define RBLNSIM_TESTS_UNIT_MODELS_SIM_FIXTURES_H_

#include <functional>
#include <string>
#include <vector>

#include "scenario/scenario.h"
#include "sim/simulation.h"

namespace rblnsim::testing {

scenario::Step OpStep(const std::string& op,
                      std::vector<std::string> inputs,
                      const std::string& out);
scenario::Step CpuStep(const std::string& tensor);
scenario::TensorSpec Tensor(const std::string& name, std::vector<int64_t> shape);
scenario::Step Repeat(int64_t count, std::vector<scenario::Step> body);

// profile_matmul.py: x = 512x512 fp16; warm-up (x @ x).cpu(); three profiled.
scenario::Scenario SeedScenario();

// Warm-up, one profiled window, and the session's data.
sim::SessionData RunSession(const scenario::Scenario& scenario, Status* window_status = nullptr);

// Runs |body| in a forked child and returns the doubles it produced (the child's simulation does
// not disturb the parent, which never elaborates).
std::vector<double> InChild(const std::function<std::vector<double>()>& body);

double RecordsTotalNs(const sim::SessionData& session, double clock_ghz);

}  // namespace rblnsim::testing

#endif  // RBLNSIM_TESTS_UNIT_MODELS_SIM_FIXTURES_H_
