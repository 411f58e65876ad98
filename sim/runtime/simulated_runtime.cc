#include "sim/runtime/simulated_runtime.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "sim/scenario/env.h"
#include "sim/scenario/loader.h"

namespace rblnsim::sim {

SimulatedRuntime& SimulatedRuntime::Get() {
  // Never destroyed: consumers may call the C-ABI from their own static destructors.
  static auto* runtime = new SimulatedRuntime();
  return *runtime;
}

SimulatedRuntime::SimulatedRuntime() : producer_(this, stderr) {}

Status SimulatedRuntime::Configure(const scenario::Scenario& scenario, ClockMode mode) {
  if (configured_) return Status::Error("the simulated runtime is already configured in this process");
  configured_ = true;
  clock_mode_ = mode;
  // RBLN_PROFILER is read once, when the runtime is created; ATOM has no active profiler bridge.
  profiler_enabled_ = scenario.env.rbln_profiler;
  auto simulation = Simulation::Create(scenario, profiler_enabled_);
  if (!simulation.ok()) {
    configure_status_ = simulation.status();
    return configure_status_;
  }
  simulation_ = std::move(*simulation);
  steady_.steady_minus_sim_ns = scenario.host.steady_epoch_ns;
  return Status::Ok();
}

Status SimulatedRuntime::EnsureConfigured() {
  if (configured_) return configure_status_;
  const char* path = std::getenv("RBLNSIM_SCENARIO");
  if (path == nullptr || *path == '\0') {
    configured_ = true;
    configure_status_ = Status::Error(
        "RBLNSIM_SCENARIO is not set: name the scenario YAML the simulated device should run");
    return configure_status_;
  }
  auto loaded = scenario::LoadScenario(path, {}, {});
  if (!loaded.ok()) {
    configured_ = true;
    configure_status_ = loaded.status();
    return configure_status_;
  }
  Status env = scenario::ApplyProcessEnvironment(&*loaded, [](const char* name) { return std::getenv(name); });
  if (!env.ok()) {
    configured_ = true;
    configure_status_ = env;
    return configure_status_;
  }
  const char* clock = std::getenv("RBLNSIM_CLOCK");
  const ClockMode mode = clock != nullptr && std::string(clock) == "sim" ? ClockMode::kSimulated
                                                                         : ClockMode::kReal;
  configure_status_ = Configure(*loaded, mode);
  return configure_status_;
}

Status SimulatedRuntime::RunWarmup() {
  RBLNSIM_RETURN_IF_ERROR(EnsureConfigured());
  if (warmed_up_) return Status::Ok();
  warmed_up_ = true;
  return simulation_->RunWarmup();
}

Status SimulatedRuntime::RunWindow() {
  RBLNSIM_RETURN_IF_ERROR(EnsureConfigured());
  return simulation_->RunWindow();
}

int64_t SimulatedRuntime::SteadyNowNs() const {
  return simulation_ ? steady_.ToSteady(simulation_->NowNs()) : 0;
}

int64_t SimulatedRuntime::SystemNowNs() const {
  if (!simulation_) return 0;
  return simulation_->scenario().host.system_epoch_ns +
         static_cast<int64_t>(std::llround(simulation_->NowNs()));
}

std::optional<SessionData> SimulatedRuntime::TakeLastSession() {
  return std::exchange(last_session_, std::nullopt);
}

StatusOr<bool> SimulatedRuntime::Active() {
  RBLNSIM_RETURN_IF_ERROR(EnsureConfigured());
  return profiler_enabled_ && simulation_->scenario().device.variant == scenario::DeviceVariant::kRebel100;
}

Status SimulatedRuntime::Begin() {
  RBLNSIM_RETURN_IF_ERROR(RunWarmup());
  simulation_->BeginSession();
  if (clock_mode_ == ClockMode::kReal) {
    // Lay the simulated timeline onto the real steady clock from this moment on.
    const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::steady_clock::now().time_since_epoch())
                            .count();
    // Never move the mapping backwards: a second session continues simulated time, so its
    // timestamps must follow the first session's even when the simulated window outran the
    // real clock.
    const int64_t offset = now - static_cast<int64_t>(std::llround(simulation_->NowNs()));
    if (!real_clock_anchored_ || offset > steady_.steady_minus_sim_ns) {
      steady_.steady_minus_sim_ns = offset;
    }
    real_clock_anchored_ = true;
  }
  return Status::Ok();
}

StatusOr<abi::ProducerCapture> SimulatedRuntime::End() {
  // A consumer that only knows the C-ABI ran no window itself: deliver the scenario's.
  Status window = simulation_->window_ran() ? Status::Ok() : simulation_->RunWindow();
  SessionData session = simulation_->EndSession();
  abi::ProducerCapture capture = ConvertSession(*simulation_, session, steady_);
  last_session_ = std::move(session);
  // A failed window (a command that timed out) still captured everything that ran: export it,
  // with the failure on stderr and in commands_timed_out, as the CLI still writes its trace.
  // Failing the end call instead would drop every record and leave the previous session's stats.
  if (!window.ok()) {
    std::fprintf(stderr, "rblnsim: the simulated run failed: %s\n", window.message().c_str());
  }
  return capture;
}

double SimulatedRuntime::nominal_clock_ghz() const {
  return simulation_ ? simulation_->scenario().device.clock_ghz : 1.0;
}

}  // namespace rblnsim::sim
