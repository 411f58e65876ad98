#include "sim/simulation.h"

#include <atomic>
#include <cstdlib>
#include <optional>
#include <systemc>

#include "models/compiler/command_naming.h"
#include "models/host/host_runtime.h"
#include "models/rebel100/device.h"
#include "models/rebel100/sim_time.h"
#include "scenario/loader.h"

namespace rblnsim::sim {

namespace {
std::atomic<bool> g_elaborated{false};
}  // namespace

struct Simulation::Impl {
  explicit Impl(const scenario::Scenario& s, bool profiler_enabled)
      : scenario(s),
        device("rebel100", scenario.device, scenario.naming.command_template),
        host("host", scenario, profiler_enabled, &device),
        command_name(scenario.naming.command_template) {}

  scenario::Scenario scenario;  // owned copy: modules keep references into it
  rebel100::Device device;
  host::HostRuntime host;
  compiler::CommandNameTemplate command_name;
};

StatusOr<std::unique_ptr<Simulation>> Simulation::Create(const scenario::Scenario& scenario,
                                                         bool profiler_enabled) {
  // A loaded scenario is typed already; one built in code is typed here, before elaboration.
  std::optional<scenario::Scenario> typed;
  if (!scenario::WorkloadTyped(scenario.workload)) {
    typed = scenario;
    RBLNSIM_RETURN_IF_ERROR(scenario::TypeWorkload(&typed->workload));
  }
  if (g_elaborated.exchange(true)) {
    return Status::Error(
        "the simulator was already elaborated in this process (SystemC allows one elaboration per "
        "process; run each simulation in its own process)");
  }
  // The banner would land in every consumer's stderr; keep it quiet unless asked for.
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", /*overwrite=*/0);
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  auto impl = std::make_unique<Impl>(typed ? *typed : scenario, profiler_enabled);
  return std::unique_ptr<Simulation>(new Simulation(std::move(impl)));
}

Simulation::Simulation(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Simulation::~Simulation() = default;

const scenario::Scenario& Simulation::scenario() const {
  return impl_->scenario;
}

double Simulation::NowNs() const {
  return rebel100::SimNowNs();
}

int64_t Simulation::DeviceCyclesAt(double host_ns) const {
  return impl_->device.profiler().clock().CyclesAt(host_ns);
}

void Simulation::RecordLaunchTruth(bool on) {
  impl_->host.RecordLaunchTruth(on);
}

int64_t Simulation::launches() const {
  return impl_->host.launches();
}

size_t Simulation::runs_held() const {
  return impl_->host.runs_held();
}

int64_t Simulation::commands_executed() const {
  return impl_->device.stats().commands_executed;
}

std::string Simulation::CommandName(const rebel100::DeviceRecord& record) const {
  std::string name;
  AppendCommandName(record, &name);
  return name;
}

void Simulation::AppendCommandName(const rebel100::DeviceRecord& record, std::string* out) const {
  const compiler::Command& command = record.program->commands[record.command_index];
  impl_->command_name.Append({record.instance, record.sequence, 0, command.layer, command.index},
                             out);
}

Status Simulation::RunSteps(const std::vector<scenario::Step>& steps, bool recording) {
  // Recorded steps are this session's window: an end without RunWindow() must not add the
  // scenario's own window on top of them.
  if (recording)
    window_ran_ = true;
  impl_->host.Start(&steps, recording);
  // Runs until every process waits with nothing scheduled: the host is done and the device idle.
  sc_core::sc_start();
  if (impl_->host.busy()) {
    return Status::Error("simulation stalled: the host program did not finish (deadlock)");
  }
  return impl_->host.status();
}

Status Simulation::RunWarmup() {
  return RunSteps(impl_->scenario.workload.warmup, /*recording=*/false);
}

void Simulation::BeginSession() {
  impl_->device.profiler().Reset();
  impl_->host.ResetSession();
  window_ran_ = false;
  session_begin_ns_ = NowNs();
}

Status Simulation::RunWindow() {
  return RunSteps(impl_->scenario.workload.profile, /*recording=*/true);
}

const HostTimeline& Simulation::host_timeline() const {
  return impl_->host.timeline();
}

SessionData Simulation::EndSession() {
  SessionData data;
  data.begin_ns = session_begin_ns_;
  data.end_ns = NowNs();
  data.records = impl_->device.profiler().TakeRecords();
  data.records_dropped = impl_->device.profiler().dropped();
  data.timeline = impl_->host.TakeTimeline();
  data.truth = impl_->host.TakeTruth();
  data.runtime_log = impl_->host.TakeLog();
  const rebel100::DeviceStats& stats = impl_->device.stats();
  data.commands_timed_out = stats.commands_timed_out;
  data.errors = stats.errors;
  data.max_ring_occupancy = stats.max_ring_occupancy;
  for (int c = 0; c < impl_->scenario.device.chiplets; ++c) {
    for (int t = 0; t < rebel100::kEngineTypeCount; ++t) {
      const auto type = static_cast<rebel100::EngineType>(t);
      data.busy.push_back({c, type, rebel100::EnginesOfType(type), impl_->device.BusyNs(c, type)});
    }
  }
  impl_->device.profiler().Reset();
  return data;
}

}  // namespace rblnsim::sim
