#include "models/rebel100/device.h"

#include <fmt/format.h>

#include <algorithm>

#include "models/rebel100/sim_time.h"

namespace rblnsim::rebel100 {

using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

Device::Device(sc_core::sc_module_name name,
               const scenario::DeviceConfig& config,
               std::string command_name_template)
    : sc_module(name),
      config_(config),
      profiler_(config.record_buffer_capacity,
                DeviceClock(config.clock_ghz, config.clock_offset_ns, config.clock_drift_ppm)),
      executor_(config, std::move(command_name_template), &profiler_, &stats_) {
  SC_THREAD(CommandProcessorThread);
  SC_THREAD(SchedulerThread);
  SC_METHOD(CompleterMethod);
  sensitive << completing_event_;
  dont_initialize();
}

Device::~Device() = default;

double Device::NowNs() const {
  return SimNowNs();
}

sc_time Device::DelayWithinLimit(double ns) {
  const uint64_t now = sc_core::sc_time_stamp().value();
  const uint64_t limit = MaxSimulatedTicks();
  const uint64_t room = now < limit ? limit - now : 0;
  uint64_t ticks = DelayTicks(ns);
  if (ticks > room) {
    ticks = room;
    if (!time_limit_reported_) {
      time_limit_reported_ = true;
      stats_.errors.push_back(fmt::format(
          "device time would pass the simulated-time limit of {:g} ns; shorten the workload or "
          "its device timings",
          scenario::kMaxSimulatedNs));
    }
  }
  return sc_time::from_value(ticks);
}

void Device::WaitNs(double ns) {
  wait(DelayWithinLimit(ns));
}

void Device::Submit(RunRequest* run) {
  run->truth.ring_wait_start_ns = NowNs();
  while (in_ring_ >= config_.queue_depth)
    wait(slot_freed_);
  ++in_ring_;
  stats_.max_ring_occupancy = std::max(stats_.max_ring_occupancy, in_ring_);
  run->truth.ring_acquired_ns = NowNs();
  run->truth.doorbell_ns = run->truth.ring_acquired_ns + config_.doorbell_ns;
  pending_.push_back({run, run->truth.doorbell_ns});
  outstanding_.push_back(run);
  doorbell_.notify(sc_time(config_.doorbell_ns, SC_NS));
}

void Device::WaitCompletion(const RunRequest* run) {
  while (!run->completed)
    wait(completion_);
}

void Device::WaitAllSubmitted() {
  while (!outstanding_.empty())
    wait(completion_);
}

void Device::CommandProcessorThread() {
  while (true) {
    while (pending_.empty())
      wait(doorbell_);
    // The doorbell is a posted write: the processor knows of a descriptor only once it arrives.
    const double arrive_ns = pending_.front().doorbell_ns;
    if (arrive_ns > NowNs())
      WaitNs(arrive_ns - NowNs());
    std::vector<RunRequest*> batch;
    while (!pending_.empty() && static_cast<int>(batch.size()) < config_.fetch_batch &&
           pending_.front().doorbell_ns <= NowNs()) {
      batch.push_back(pending_.front().run);
      pending_.pop_front();
    }
    // One PCIe read round trip fetches the whole batch of descriptors.
    WaitNs(2 * config_.pcie_latency_ns);
    for (RunRequest* run : batch) {
      run->truth.fetched_ns = NowNs();
      WaitNs(config_.decode_ns);
      run->truth.decoded_ns = NowNs();
      decoded_.push_back(run);
      decoded_event_.notify(SC_ZERO_TIME);
    }
  }
}

void Device::SchedulerThread() {
  while (true) {
    while (decoded_.empty())
      wait(decoded_event_);
    RunRequest* run = decoded_.front();
    decoded_.pop_front();
    run->truth.released_ns = NowNs();
    // Nothing else uses the engines until this run has resolved (stream order), so its schedule
    // is computed ahead and the kernel sees one wait for the whole run.
    const double resolved_ns = executor_.Execute(run, NowNs());
    if (resolved_ns > NowNs())
      WaitNs(resolved_ns - NowNs());
    if (run->truth.last_end_ns < 0)
      run->truth.last_end_ns = NowNs();
    completing_.emplace_back(run, NowNs() + config_.completion_ns);
    completing_event_.notify(SC_ZERO_TIME);
  }
}

void Device::CompleterMethod() {
  while (!completing_.empty()) {
    auto [run, at_ns] = completing_.front();
    if (!completion_waited_ && at_ns > NowNs()) {
      // Runs complete in order, so nothing queued meanwhile is due before this one: the method
      // sleeps through completing_event_ until then.
      completion_waited_ = true;
      next_trigger(DelayWithinLimit(at_ns - NowNs()));
      return;
    }
    completion_waited_ = false;
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

}  // namespace rblnsim::rebel100
