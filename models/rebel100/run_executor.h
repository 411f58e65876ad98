// Executes one released run on the device's engines without the kernel scheduler (loosely timed,
// simulation-notes §2.2): the task manager releases runs in stream order, so while a run executes
// nothing else touches the engines, their queues or the dispatcher, and its whole schedule follows
// from the closed-form command durations. A small event list replays what the engines would do —
// each engine takes the front of its type's FIFO when it is free, a command's end resolves its
// dependents, the dispatcher hands them over one at a time — and the device then wait()s once for
// the run instead of twice per command. Each chiplet's HBM is shared between the commands that
// stream at once (shared_hbm.h): a stream's start or end re-projects the others' completions.
#ifndef RBLNSIM_MODELS_REBEL100_RUN_EXECUTOR_H_
#define RBLNSIM_MODELS_REBEL100_RUN_EXECUTOR_H_

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "models/rebel100/command_timing.h"
#include "models/rebel100/engine_types.h"
#include "models/rebel100/profiler_unit.h"
#include "models/rebel100/run.h"
#include "models/rebel100/shared_hbm.h"
#include "scenario/scenario.h"

namespace rblnsim::rebel100 {

struct DeviceStats {
  int64_t runs_completed = 0;
  int64_t runs_failed = 0;
  int64_t commands_executed = 0;
  int64_t commands_timed_out = 0;
  int64_t commands_skipped = 0;  // dependents of a timed-out command
  int max_ring_occupancy = 0;
  std::vector<std::string> errors;  // one line per failed run
};

class RunExecutor {
 public:
  RunExecutor(const scenario::DeviceConfig& config,
              std::string command_name_template,
              ProfilerUnit* profiler,
              DeviceStats* stats);

  // Runs every command of |run|, released to the task manager at |release_ns|; fills the run's
  // truth, records, busy time and stats. Returns when its last command resolved (sim ns).
  double Execute(RunRequest* run, double release_ns);

  std::string CommandName(const RunRequest& run, int index) const;
  // Busy ns per (chiplet, engine type), summed over that type's engines.
  double BusyNs(int chiplet, EngineType type) const;
  const std::vector<SharedHbm>& hbm() const { return hbm_; }

 private:
  struct Queued {
    int index = 0;
    double available_ns = 0;  // when the dispatcher has handed it to the engine queue
  };
  struct Lane {
    int chiplet = 0;
    EngineType type = EngineType::kNeuralEngine;
    int instance = 0;
    bool busy = false;
    // The command it runs.
    int index = 0;
    uint64_t order = 0;  // ties resolve in the order the engines took their commands
    double start_ns = 0;
    double end_ns = 0;  // projected completion (on the kernel's resolution)
    CommandDemand demand;
    bool ran = false;  // false: skipped because the run had already failed
    bool timed_out = false;
    bool streaming = false;         // its bytes are on its chiplet's HBM
    bool remote_streaming = false;  // and on another chiplet's (demand.remote_chiplet)
    double stream_end_ns = 0;       // projected ends of the two, the hop after included
    double remote_end_ns = 0;
    uint32_t version = 0;  // of its live completion event; older ones are stale
    bool solo = false;     // timed alone: its chiplet's HBM had nothing else when it started
    bool counted = false;  // its bytes are counted on the channel already
  };
  // A stream timed in closed form because nothing else used its chiplet's HBM: most commands
  // run in chains, one at a time per chiplet, and need none of the sharing. It joins the shared
  // channel (Promote) only when another stream starts there while it runs.
  struct Solo {
    int lane = -1;  // none
    double begin_ns = 0;
    double bytes_per_ns = 0;
  };
  enum class EventKind : uint8_t { kStreamStart, kCompletion };
  struct Event {
    double at_ns = 0;
    uint64_t order = 0;
    int lane = 0;
    uint32_t version = 0;
    EventKind kind = EventKind::kCompletion;
    // A stream starts before a completion at the same instant: a command's bytes join the
    // channel before it can end.
    bool operator>(const Event& other) const {
      if (at_ns != other.at_ns)
        return at_ns > other.at_ns;
      return order != other.order ? order > other.order : kind > other.kind;
    }
  };

  bool IsHangCommand(const RunRequest& run, int index) const;
  void Dispatch(int index, double now_ns);
  void Take(int lane, double now_ns);
  void StartIdleEngines(double now_ns);
  void Finish(int lane);
  double CompletionAt(const Lane& lane, double now_ns, double end_ns, bool* timed_out) const;
  void Schedule(int lane, double now_ns, double end_ns);
  void StartStreams(int lane, double now_ns);
  void Promote(int chiplet, double now_ns);
  void PushStreamStart(int lane, double at_ns);
  void EndStreams(int lane, double now_ns);
  void Reproject(int chiplet, double now_ns);
  void Push(const Event& event);
  std::deque<Queued>& QueueOf(int chiplet, EngineType type);
  int QueueSlot(int chiplet, EngineType type) const;

  scenario::DeviceConfig config_;
  std::string name_template_;
  ProfilerUnit* profiler_;
  DeviceStats* stats_;
  std::vector<SharedHbm> hbm_;
  std::vector<Solo> solo_;                  // per chiplet
  std::vector<int> pending_starts_;         // per chiplet: stream starts still in the event list
  std::vector<std::deque<Queued>> queues_;  // per chiplet × engine type
  std::vector<double> busy_ns_;             // per chiplet × engine type
  std::vector<Lane> lanes_;                 // every engine, grouped by queue
  std::vector<int> first_lane_;             // per queue: its lanes are [first, first + count)
  double dispatcher_free_ns_ = 0;

  // Per-run state, kept between runs so steady state allocates nothing.
  RunRequest* run_ = nullptr;
  std::vector<int> remaining_deps_;
  std::vector<int> dependents_begin_;
  std::vector<int> dependents_;
  std::vector<int> dependents_fill_;  // next free slot of each row while filling dependents_
  std::vector<Event> events_;         // a min-heap on (at_ns, order)
  std::vector<int> touched_queues_;
  uint64_t next_order_ = 0;
};

}  // namespace rblnsim::rebel100

#endif  // RBLNSIM_MODELS_REBEL100_RUN_EXECUTOR_H_
