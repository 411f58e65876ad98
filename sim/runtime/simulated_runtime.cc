#include "sim/runtime/simulated_runtime.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "base/release_memory.h"
#include "profiler/abi/runtime_flag.h"
#include "profiler/abi/session_window.h"
#include "scenario/env.h"
#include "scenario/loader.h"

namespace rblnsim::sim {

SimulatedRuntime& SimulatedRuntime::Get() {
  // Never destroyed: consumers may call either seam from their own static destructors.
  static auto* runtime = new SimulatedRuntime();
  return *runtime;
}

SimulatedRuntime::SimulatedRuntime() : producer_(this, stderr) {}

Status SimulatedRuntime::Configure(const scenario::Scenario& scenario, ClockMode mode) {
  if (configured_)
    return Status::Error("the simulated runtime is already configured in this process");
  configured_ = true;
  clock_mode_ = mode;
  profiler_enabled_ = scenario.env.rbln_profiler;
  {
    std::lock_guard<std::mutex> lock(load_mutex_);
    if (!foreign_loaded_) {
      // The CLI: its scenario already holds the process environment.
      scenario_profiler_ = scenario.env.rbln_profiler;
      scenario_known_ = true;
    }
  }
  auto simulation = Simulation::Create(scenario, profiler_enabled_);
  if (!simulation.ok()) {
    configure_status_ = simulation.status();
    return configure_status_;
  }
  simulation_ = std::move(*simulation);
  steady_.steady_minus_sim_ns = scenario.host.steady_epoch_ns;
  host_thread_ = {static_cast<int32_t>(scenario.host.pid), static_cast<int32_t>(scenario.host.tid)};
  return Status::Ok();
}

Status SimulatedRuntime::LoadForeignScenarioLocked() {
  if (foreign_loaded_)
    return foreign_status_;
  foreign_loaded_ = true;
  const char* path = std::getenv("RBLNSIM_SCENARIO");
  if (path == nullptr || *path == '\0') {
    foreign_status_ = Status::Error(
        "RBLNSIM_SCENARIO is not set: name the scenario YAML the simulated device should run");
    return foreign_status_;
  }
  auto loaded = scenario::LoadScenario(path, {}, {});
  if (!loaded.ok()) {
    foreign_status_ = loaded.status();
    return foreign_status_;
  }
  scenario_profiler_ = loaded->env.rbln_profiler;
  // RBLN_PROFILER is left out: each seam reads it at its own time (see ProfilerFlagNow).
  Status env = scenario::ApplyProcessEnvironment(&*loaded, [](const char* name) -> const char* {
    return std::string_view(name) == "RBLN_PROFILER" ? nullptr : std::getenv(name);
  });
  if (!env.ok()) {
    foreign_status_ = env;
    return foreign_status_;
  }
  const char* clock = std::getenv("RBLNSIM_CLOCK");
  if (clock != nullptr && *clock != '\0') {
    const std::string text(clock);
    if (text == "sim") {
      clock_refusal_ = Status::Error(
          "RBLNSIM_CLOCK=sim is refused: this program is not rblnsim, and simulated time would be "
          "stamped far from its steady clock; unset RBLNSIM_CLOCK (no session was begun)");
    } else if (text != "real") {
      clock_refusal_ = Status::Error("RBLNSIM_CLOCK='" + text +
                                     "' is invalid; expected real or unset (no session was begun)");
    }
  }
  foreign_scenario_ = std::move(*loaded);
  scenario_known_ = true;
  return Status::Ok();
}

Status SimulatedRuntime::EnsureSimulation(bool profiler_enabled) {
  if (configured_)
    return configure_status_;
  {
    std::lock_guard<std::mutex> lock(load_mutex_);
    RBLNSIM_RETURN_IF_ERROR(LoadForeignScenarioLocked());
  }
  scenario::Scenario scenario = *foreign_scenario_;
  scenario.env.rbln_profiler = profiler_enabled;
  return Configure(scenario, ClockMode::kReal);
}

bool SimulatedRuntime::ProfilerFlagNow() {
  const char* text = std::getenv("RBLN_PROFILER");
  if (text != nullptr && *text != '\0')
    return abi::FlagTextIsOn(text);
  std::lock_guard<std::mutex> lock(load_mutex_);
  if (!scenario_known_) {
    const bool first = !foreign_loaded_;
    Status loaded = LoadForeignScenarioLocked();
    if (!loaded.ok() && first)
      std::fprintf(stderr, "rblnsim: %s\n", loaded.message().c_str());
  }
  return scenario_profiler_;
}

Status SimulatedRuntime::RunWarmup() {
  if (!configured_)
    return Status::Error("the simulated runtime is not configured");
  RBLNSIM_RETURN_IF_ERROR(configure_status_);
  if (warmed_up_)
    return Status::Ok();
  warmed_up_ = true;
  return simulation_->RunWarmup();
}

Status SimulatedRuntime::RunWindow() {
  if (!configured_)
    return Status::Error("the simulated runtime is not configured");
  RBLNSIM_RETURN_IF_ERROR(configure_status_);
  return simulation_->RunWindow();
}

int64_t SimulatedRuntime::SteadyNowNs() const {
  return simulation_ ? steady_.ToSteady(simulation_->NowNs()) : 0;
}

int64_t SimulatedRuntime::SystemNowNs() const {
  if (!simulation_)
    return 0;
  return simulation_->scenario().host.system_epoch_ns +
         static_cast<int64_t>(std::llround(simulation_->NowNs()));
}

std::optional<SessionData> SimulatedRuntime::TakeLastSession() {
  return std::exchange(last_session_, std::nullopt);
}

StatusOr<bool> SimulatedRuntime::Active() {
  // Read once: the first call creates the runtime with the flag as it is then.
  if (!configured_)
    RBLNSIM_RETURN_IF_ERROR(EnsureSimulation(ProfilerFlagNow()));
  RBLNSIM_RETURN_IF_ERROR(configure_status_);
  return profiler_enabled_ &&
         simulation_->scenario().device.variant == scenario::DeviceVariant::kRebel100;
}

StatusOr<bool> SimulatedRuntime::ActiveForActivities() {
  if (!ProfilerFlagNow())
    return false;
  if (!configured_)
    RBLNSIM_RETURN_IF_ERROR(EnsureSimulation(true));
  RBLNSIM_RETURN_IF_ERROR(configure_status_);
  if (!profiler_enabled_) {
    return Status::Error(
        "RBLN_PROFILER is on now, but the simulated runtime was created with it off (by an earlier "
        "call in this process); its device records nothing, so no session was begun");
  }
  return simulation_->scenario().device.variant == scenario::DeviceVariant::kRebel100;
}

Status SimulatedRuntime::Begin() {
  if (clock_mode_ == ClockMode::kReal)
    RBLNSIM_RETURN_IF_ERROR(clock_refusal_);
  RBLNSIM_RETURN_IF_ERROR(RunWarmup());
  simulation_->BeginSession();
  in_session_ = true;
  if (clock_mode_ == ClockMode::kReal) {
    // Each session's simulated window starts at its own begin call: nothing carries over, so
    // nothing drifts from one session to the next. The end call waits for work that outlasts
    // the real window (ProducerRuntime), so no mapping has to run ahead of the real clock.
    steady_.steady_minus_sim_ns =
        abi::SteadyNowNs() - static_cast<int64_t>(std::llround(simulation_->NowNs()));
    host_thread_ = {static_cast<int32_t>(getpid()), static_cast<int32_t>(syscall(SYS_gettid))};
  }
  return Status::Ok();
}

StatusOr<abi::ProducerCapture> SimulatedRuntime::End() {
  // A consumer that only knows the seam ran no window itself: deliver the scenario's.
  Status window = simulation_->window_ran() ? Status::Ok() : simulation_->RunWindow();
  SessionData session = simulation_->EndSession();
  in_session_ = false;
  abi::ProducerCapture capture = ConvertSession(*simulation_, session, steady_, host_thread_);
  if (!keep_device_records_)
    ReleaseMemory(session.records);
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
