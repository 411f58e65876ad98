#include "models/rebel100/device.h"

#include <algorithm>
#include <fmt/format.h>

#include "models/compiler/command_naming.h"
#include "models/rebel100/engine.h"
#include "models/rebel100/sim_time.h"

namespace rblnsim::rebel100 {

using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_ZERO_TIME;

int EnginesOfType(EngineType type) {
  switch (type) {
    case EngineType::kNeuralDma: return 4;
    case EngineType::kTaskDma: return 2;
    default: return 1;
  }
}

Device::Device(sc_core::sc_module_name name,
               const scenario::DeviceConfig& config,
               std::string command_name_template)
    : sc_module(name),
      config_(config),
      name_template_(std::move(command_name_template)),
      profiler_(config.record_buffer_capacity,
                DeviceClock(config.clock_ghz, config.clock_offset_ns, config.clock_drift_ppm)),
      queues_(config.chiplets),
      busy_ns_(config.chiplets) {
  for (int c = 0; c < config.chiplets; ++c) {
    hbm_.emplace_back(config.hbm_bandwidth_bytes_per_s);
    busy_ns_[c].fill(0.0);
    for (int t = 0; t < kEngineTypeCount; ++t) {
      const auto type = static_cast<EngineType>(t);
      for (int i = 0; i < EnginesOfType(type); ++i) {
        const std::string engine_name = fmt::format("chiplet{}_engine{}_{}", c, t, i);
        engines_.push_back(std::make_unique<Engine>(engine_name.c_str(), this, type, c, i));
      }
    }
  }
  SC_THREAD(CommandProcessorThread);
  SC_THREAD(SchedulerThread);
  SC_THREAD(CompleterThread);
}

Device::~Device() = default;

double Device::NowNs() const { return SimNowNs(); }

EngineQueue& Device::Queue(int chiplet, EngineType type) {
  return queues_[chiplet][static_cast<int>(type)];
}

double Device::BusyNs(int chiplet, EngineType type) const {
  return busy_ns_[chiplet][static_cast<int>(type)];
}

void Device::AddBusy(int chiplet, EngineType type, double ns) {
  busy_ns_[chiplet][static_cast<int>(type)] += ns;
}

std::string Device::CommandName(const RunRequest& run, int index) const {
  const compiler::Command& command = run.program->commands[index];
  return compiler::FormatCommandName(
      name_template_, {run.instance, run.sequence, 0, command.layer, command.index});
}

bool Device::IsHangCommand(const RunRequest& run, int index) const {
  if (config_.hang_command.empty()) return false;
  const compiler::Command& command = run.program->commands[index];
  // Either the full name of one command or "<layer>_<index>" for that command in every run.
  return config_.hang_command == CommandName(run, index) ||
         config_.hang_command == fmt::format("{}_{}", command.layer, command.index);
}

void Device::Submit(RunRequest* run) {
  run->truth.ring_wait_start_ns = NowNs();
  while (in_ring_ >= config_.queue_depth) wait(slot_freed_);
  ++in_ring_;
  stats_.max_ring_occupancy = std::max(stats_.max_ring_occupancy, in_ring_);
  run->truth.ring_acquired_ns = NowNs();
  run->truth.doorbell_ns = run->truth.ring_acquired_ns + config_.doorbell_ns;
  pending_.push_back({run, run->truth.doorbell_ns});
  outstanding_.push_back(run);
  doorbell_.notify(sc_time(config_.doorbell_ns, SC_NS));
}

void Device::WaitCompletion(const RunRequest* run) {
  while (!run->completed) wait(completion_);
}

void Device::WaitAllSubmitted() {
  while (!outstanding_.empty()) wait(completion_);
}

void Device::CommandProcessorThread() {
  while (true) {
    while (pending_.empty()) wait(doorbell_);
    // The doorbell is a posted write: the processor knows of a descriptor only once it arrives.
    const double arrive_ns = pending_.front().doorbell_ns;
    if (arrive_ns > NowNs()) wait(sc_time(arrive_ns - NowNs(), SC_NS));
    std::vector<RunRequest*> batch;
    while (!pending_.empty() && static_cast<int>(batch.size()) < config_.fetch_batch &&
           pending_.front().doorbell_ns <= NowNs()) {
      batch.push_back(pending_.front().run);
      pending_.pop_front();
    }
    // One PCIe read round trip fetches the whole batch of descriptors.
    wait(sc_time(2 * config_.pcie_latency_ns, SC_NS));
    for (RunRequest* run : batch) {
      run->truth.fetched_ns = NowNs();
      wait(sc_time(config_.decode_ns, SC_NS));
      run->truth.decoded_ns = NowNs();
      decoded_.push_back(run);
      decoded_event_.notify(SC_ZERO_TIME);
    }
  }
}

void Device::SchedulerThread() {
  while (true) {
    while (decoded_.empty()) wait(decoded_event_);
    RunRequest* run = decoded_.front();
    decoded_.pop_front();
    run->truth.released_ns = NowNs();
    const auto& commands = run->program->commands;
    active_ = RunState{run, std::vector<int>(commands.size()), std::vector<std::vector<int>>(commands.size()), 0};
    for (size_t i = 0; i < commands.size(); ++i) {
      active_.remaining_deps[i] = static_cast<int>(commands[i].deps.size());
      for (int dep : commands[i].deps) active_.dependents[dep].push_back(static_cast<int>(i));
    }
    for (size_t i = 0; i < commands.size(); ++i) {
      if (active_.remaining_deps[i] == 0) Dispatch(run, static_cast<int>(i));
    }
    // Stream order: the next run is released only once this one's commands have all resolved.
    while (active_.resolved < static_cast<int>(commands.size())) wait(run_done_);
    if (run->truth.last_end_ns < 0) run->truth.last_end_ns = NowNs();
    completing_.emplace_back(run, NowNs() + config_.completion_ns);
    completing_event_.notify(SC_ZERO_TIME);
  }
}

void Device::CompleterThread() {
  while (true) {
    while (completing_.empty()) wait(completing_event_);
    auto [run, at_ns] = completing_.front();
    if (at_ns > NowNs()) wait(sc_time(at_ns - NowNs(), SC_NS));
    completing_.pop_front();
    run->truth.completed_ns = NowNs();
    run->completed = true;
    if (run->failed) {
      ++stats_.runs_failed;
      stats_.errors.push_back(run->error);
    } else {
      ++stats_.runs_completed;
    }
    outstanding_.erase(std::find(outstanding_.begin(), outstanding_.end(), run));
    --in_ring_;
    slot_freed_.notify(SC_ZERO_TIME);
    completion_.notify(SC_ZERO_TIME);
  }
}

void Device::Dispatch(RunRequest* run, int index) {
  // The command processor dispatches one command at a time.
  const double at_ns = std::max(NowNs(), dispatcher_free_ns_) + config_.dispatch_ns;
  dispatcher_free_ns_ = at_ns;
  const compiler::Command& command = run->program->commands[index];
  EngineQueue& queue = Queue(command.chiplet, command.engine);
  queue.items.push_back({run, index, at_ns});
  queue.pushed.notify(SC_ZERO_TIME);
}

void Device::CommandFinished(const ReadyCommand& ref, double start_ns, double end_ns, bool timed_out) {
  RunRequest* run = ref.run;
  if (timed_out) {
    ++stats_.commands_timed_out;
    if (!run->failed) {
      run->failed = true;
      const compiler::Command& command = run->program->commands[ref.index];
      run->error = fmt::format("command {} (launch {}) on chiplet {} {} did not complete within {} ns",
                               CommandName(*run, ref.index), run->launch_id, command.chiplet,
                               EngineTypeName(command.engine), config_.command_timeout_ns);
    }
  } else if (end_ns > start_ns || !run->failed) {
    ++stats_.commands_executed;
    if (run->truth.first_start_ns < 0 || start_ns < run->truth.first_start_ns) {
      run->truth.first_start_ns = start_ns;
    }
    run->truth.last_end_ns = std::max(run->truth.last_end_ns, end_ns);
  } else {
    ++stats_.commands_skipped;
  }
  ++active_.resolved;
  for (int dependent : active_.dependents[ref.index]) {
    if (--active_.remaining_deps[dependent] == 0) Dispatch(run, dependent);
  }
  if (active_.resolved == static_cast<int>(run->program->commands.size())) {
    run_done_.notify(SC_ZERO_TIME);
  }
}

}  // namespace rblnsim::rebel100
