// One Rebel100 device as a SystemC module. The command path is modelled as transactions with
// closed-form timings: the host writes run descriptors into a bounded ring and rings a doorbell;
// the command processor fetches descriptors over PCIe and decodes them; runs are released in
// stream order to the task manager, which tracks the compile-time dependencies of each command
// and dispatches ready ones to per-engine-type queues (RunExecutor books the engines and HBM, and
// the task manager wait()s once per run); the completion is reported back to the host, which
// frees the ring slot.
#ifndef RBLNSIM_MODELS_REBEL100_DEVICE_H_
#define RBLNSIM_MODELS_REBEL100_DEVICE_H_

#include <deque>
#include <string>
#include <systemc>
#include <vector>

#include "models/rebel100/engine_types.h"
#include "models/rebel100/profiler_unit.h"
#include "models/rebel100/run.h"
#include "models/rebel100/run_executor.h"
#include "scenario/scenario.h"

namespace rblnsim::rebel100 {

class Device : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Device);
  Device(sc_core::sc_module_name name,
         const scenario::DeviceConfig& config,
         std::string command_name_template);
  ~Device() override;

  // Host side, called from a host SC_THREAD: blocks while the ring is full.
  void Submit(RunRequest* run);
  void WaitCompletion(const RunRequest* run);
  void WaitAllSubmitted();

  std::string CommandName(const RunRequest& run, int index) const {
    return executor_.CommandName(run, index);
  }

  const scenario::DeviceConfig& config() const { return config_; }
  ProfilerUnit& profiler() { return profiler_; }
  const DeviceStats& stats() const { return stats_; }
  DeviceStats& mutable_stats() { return stats_; }
  int ring_occupancy() const { return in_ring_; }
  // Busy ns per (chiplet, engine type), summed over that type's engines.
  double BusyNs(int chiplet, EngineType type) const { return executor_.BusyNs(chiplet, type); }

 private:
  struct PendingRun {
    RunRequest* run;
    double doorbell_ns;
  };

  void CommandProcessorThread();
  void SchedulerThread();
  // A method, not a thread: a completion is a few assignments at a known time, and waking a
  // thread for each cost two coroutine switches per run.
  void CompleterMethod();
  double NowNs() const;
  // wait(sc_time(ns, SC_NS)), but the kernel clock stops at the simulated-time limit: the first
  // wait that would pass it is cut short and reported once in stats_.errors.
  void WaitNs(double ns);
  // The delay WaitNs waits: |ns| in kernel ticks, cut (and reported) at the limit.
  sc_core::sc_time DelayWithinLimit(double ns);

  scenario::DeviceConfig config_;
  ProfilerUnit profiler_;
  DeviceStats stats_;
  RunExecutor executor_;

  bool time_limit_reported_ = false;
  // The completer has waited for the front run's completion time: it completes the run when it
  // next runs, as a thread returning from that wait would, even where the limit cut the wait.
  bool completion_waited_ = false;
  int in_ring_ = 0;
  std::deque<PendingRun> pending_;   // written into the ring, not yet fetched
  std::deque<RunRequest*> decoded_;  // fetched and decoded, waiting for stream order
  std::deque<std::pair<RunRequest*, double>> completing_;
  std::vector<RunRequest*> outstanding_;

  sc_core::sc_event doorbell_;
  sc_core::sc_event decoded_event_;
  sc_core::sc_event completing_event_;
  sc_core::sc_event slot_freed_;
  sc_core::sc_event completion_;
};

}  // namespace rblnsim::rebel100

#endif  // RBLNSIM_MODELS_REBEL100_DEVICE_H_
