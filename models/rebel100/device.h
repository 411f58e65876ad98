// One Rebel100 device as a SystemC module. The command path is modelled as transactions with
// closed-form timings: the host writes run descriptors into a bounded ring and rings a doorbell;
// the command processor fetches descriptors over PCIe and decodes them; runs are released in
// stream order to the task manager, which tracks the compile-time dependencies of each command
// and dispatches ready ones to per-engine-type queues; engines wait() once per command; the
// completion is reported back to the host, which frees the ring slot.
#ifndef RBLNSIM_MODELS_REBEL100_DEVICE_H_
#define RBLNSIM_MODELS_REBEL100_DEVICE_H_

#include <systemc>

#include <array>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "models/rebel100/bandwidth_channel.h"
#include "models/rebel100/engine_types.h"
#include "models/rebel100/profiler_unit.h"
#include "models/rebel100/run.h"
#include "sim/scenario/scenario.h"

namespace rblnsim::rebel100 {

class Engine;

struct DeviceStats {
  int64_t runs_completed = 0;
  int64_t runs_failed = 0;
  int64_t commands_executed = 0;
  int64_t commands_timed_out = 0;
  int64_t commands_skipped = 0;  // dependents of a timed-out command
  int max_ring_occupancy = 0;
  std::vector<std::string> errors;  // one line per failed run
};

struct ReadyCommand {
  RunRequest* run = nullptr;
  int index = 0;
  double available_ns = 0;  // when the dispatcher has handed it to the engine queue
};

struct EngineQueue {
  std::deque<ReadyCommand> items;
  sc_core::sc_event pushed;
};

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

  // Engine side.
  EngineQueue& Queue(int chiplet, EngineType type);
  void CommandFinished(const ReadyCommand& ref, double start_ns, double end_ns, bool timed_out);
  std::string CommandName(const RunRequest& run, int index) const;
  bool IsHangCommand(const RunRequest& run, int index) const;

  const scenario::DeviceConfig& config() const { return config_; }
  std::vector<BandwidthChannel>* hbm() { return &hbm_; }
  ProfilerUnit& profiler() { return profiler_; }
  const DeviceStats& stats() const { return stats_; }
  DeviceStats& mutable_stats() { return stats_; }
  int ring_occupancy() const { return in_ring_; }
  // Busy ns per (chiplet, engine type), summed over that type's engines.
  double BusyNs(int chiplet, EngineType type) const;
  void AddBusy(int chiplet, EngineType type, double ns);

 private:
  struct PendingRun {
    RunRequest* run;
    double doorbell_ns;
  };
  struct RunState {
    RunRequest* run = nullptr;
    std::vector<int> remaining_deps;
    std::vector<std::vector<int>> dependents;
    int resolved = 0;
  };

  void CommandProcessorThread();
  void SchedulerThread();
  void CompleterThread();
  void Dispatch(RunRequest* run, int index);
  double NowNs() const;

  scenario::DeviceConfig config_;
  std::string name_template_;
  ProfilerUnit profiler_;
  std::vector<BandwidthChannel> hbm_;
  std::vector<std::array<EngineQueue, kEngineTypeCount>> queues_;
  std::vector<std::array<double, kEngineTypeCount>> busy_ns_;
  std::vector<std::unique_ptr<Engine>> engines_;

  int in_ring_ = 0;
  std::deque<PendingRun> pending_;   // written into the ring, not yet fetched
  std::deque<RunRequest*> decoded_;  // fetched and decoded, waiting for stream order
  std::deque<std::pair<RunRequest*, double>> completing_;
  std::vector<RunRequest*> outstanding_;
  RunState active_;
  double dispatcher_free_ns_ = 0;

  sc_core::sc_event doorbell_;
  sc_core::sc_event decoded_event_;
  sc_core::sc_event run_done_;
  sc_core::sc_event completing_event_;
  sc_core::sc_event slot_freed_;
  sc_core::sc_event completion_;

  DeviceStats stats_;
};

// Engines per chiplet of each type. Rebel100 has eight DMA execution engines per die (press);
// how they split between Neural DMA, Task DMA and HDMA is unpublished: an estimate.
int EnginesOfType(EngineType type);

}  // namespace rblnsim::rebel100

#endif  // RBLNSIM_MODELS_REBEL100_DEVICE_H_
