// The host side of an eager torch-rbln process as a SystemC module: one host thread that runs
// the workload's steps, records the ATen call trees torch.profiler would record, and drives the
// device through the runtime (ring submission, async/sync dispatch, .cpu() synchronisation).
#ifndef RBLNSIM_MODELS_HOST_HOST_RUNTIME_H_
#define RBLNSIM_MODELS_HOST_HOST_RUNTIME_H_

#include <list>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <systemc>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/chunked_vector.h"
#include "base/status.h"
#include "models/compiler/op_compiler.h"
#include "models/compiler/program.h"
#include "models/host/host_costs.h"
#include "models/host/op_traits.h"
#include "models/rebel100/device.h"
#include "models/records.h"
#include "scenario/scenario.h"

namespace rblnsim::host {

struct TensorState {
  TensorType type;
  bool on_device = true;
  enum class Location { kDeviceOnly, kSynced, kHostLatest } location = Location::kDeviceOnly;
  bool has_nan = false;
  bool has_inf = false;
  rebel100::RunRequest* producer = nullptr;  // the run that writes it, until synchronised
};

struct CompiledProgram {
  std::unique_ptr<compiler::Program> program;
  int instance = 0;
  int64_t next_sequence = 0;
  // Eager entries only: where the key sits in the LRU order (TORCH_RBLN_COMPILED_OPS).
  std::list<std::string>::iterator lru;
  bool in_lru = false;
};

class HostRuntime : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(HostRuntime);
  HostRuntime(sc_core::sc_module_name name,
              const scenario::Scenario& scenario,
              bool profiler_enabled,
              rebel100::Device* device);

  // Queues |steps| for the host thread; the caller then runs the kernel until it is idle.
  void Start(const std::vector<scenario::Step>* steps, bool recording);
  bool busy() const { return steps_ != nullptr; }
  const Status& status() const { return status_; }

  // Session boundaries: per-instance sequence numbers restart and records are taken.
  void ResetSession();
  sim::HostTimeline TakeTimeline();
  // The session's timeline so far.
  const sim::HostTimeline& timeline() const { return timeline_; }
  sim::GroundTruth TakeTruth();
  // Whether recorded launches leave a LaunchTruth (on by default). A caller that reads none (a
  // run that writes no roofline, metrics or truth file) turns it off: a record of some 250
  // bytes per launch, a quarter of a gigabyte over 10^6 launches, held until the trace is built.
  void RecordLaunchTruth(bool on) { record_launch_truth_ = on; }
  // Launches whose run is still held: not finished by the device, named by a tensor as its
  // producer, or after such a run. The rest are released as the session goes (every
  // kReleaseEveryRuns launches) and at its end.
  size_t runs_held() const { return runs_.size(); }
  static constexpr size_t kReleaseEveryRuns = 4096;
  int64_t launches() const { return next_launch_id_ - 1; }
  // The runtime's log lines since the last call (TORCH_RBLN_LOG_LEVEL), oldest first.
  std::vector<std::string> TakeLog() { return std::exchange(log_, {}); }

 private:
  friend class EagerOps;
  void Thread();
  Status RunSteps(const std::vector<scenario::Step>& steps);
  Status RunStep(const scenario::Step& step);
  // The error for a step that would take simulated time past scenario::kMaxSimulatedNs.
  Status TimeLimitError(const scenario::Step& step) const;
  // The traits of workload op |op| (LookupOpTraits, once per name); an unknown op's error.
  StatusOr<const OpTraits*> TraitsOf(const std::string& op);

  // Host time passes: a cost. The host runs ahead of the kernel (temporal decoupling,
  // simulation-notes §2.2) and only synchronises where it meets the device, so a launch costs one
  // kernel wait instead of one per op boundary. Every timestamp is the host's local time.
  void Spend(double ns);
  double NowNs() const;
  // Brings the kernel up to the host's local time; done before anything the device can observe.
  void Sync();
  void SubmitToDevice(rebel100::RunRequest* run);
  void WaitForRun(const rebel100::RunRequest* run);
  void WaitForDevice();
  // Opens an event now; Close() stamps its end.
  size_t Open(const std::string& name, sim::HostEventKind kind = sim::HostEventKind::kCpuOp);
  void Close(size_t index);
  // An op whose self time |self_ns| is split around |body| (the ops it calls). A template, not a
  // std::function: the dispatcher's bodies capture more than fits in one, and every launch made
  // two of them on the heap.
  template <typename Body>
  void Op(const std::string& name, double self_ns, const Body& body) {
    const size_t index = Open(name);
    Spend(self_ns / 2);
    body();
    Spend(self_ns - self_ns / 2);
    Close(index);
  }
  // A leaf op: its self time in one piece.
  void Op(const std::string& name, double self_ns);
  // A torch-rbln log line at |level|, kept when TORCH_RBLN_LOG_LEVEL lets it through, stamped
  // with the simulated system clock as the runtime's logger stamps it.
  void Log(scenario::LogLevel level, std::string_view message);
  // Makes room in the eager compiled-op cache for one more entry (an LRU of
  // TORCH_RBLN_COMPILED_OPS entries) and files |key| as most recently used; returns its place.
  std::list<std::string>::iterator InsertLru(const std::string& key);
  // Frees the oldest runs that the device has finished and no tensor names as its producer,
  // after filling their launches' ground truth. A session of millions of launches would
  // otherwise hold a run per launch to its end (about 200 bytes each, first-touched), and a
  // process that profiles session after session every run it ever launched.
  void ReleaseFinishedRuns();
  // Fills the ground truth of the recorded launches not filled yet from their runs, in launch
  // order; with |only_completed|, up to the first run that has not completed.
  void FillLaunchTruths(bool only_completed);
  // Called before each launch: every kReleaseEveryRuns of them, fills and releases. No run may
  // be held by reference across it but a tensor's producer.
  void MaybeReleaseFinishedRuns();

  const scenario::Scenario& scenario_;
  bool profiler_enabled_;
  rebel100::Device* device_;
  int64_t ahead_ticks_ = 0;      // local time ahead of the kernel, in kernel resolution ticks
  bool time_limit_hit_ = false;  // Spend() stopped the local clock at the simulated-time limit
  std::unordered_map<std::string, uint32_t> name_ids_;  // timeline_.names, indexed
  HostCosts costs_;
  std::map<std::string, TensorState> tensors_;
  std::map<std::string, CompiledProgram> cache_;
  std::list<std::string> lru_;  // eager cache keys, most recently used first
  std::set<std::string> evicted_keys_;
  // Program keys whose compile failed: torch-rbln remembers them and sends later calls of the
  // same signature to the CPU without compiling again.
  std::set<std::string> failed_compiles_;
  // Evicted programs: device records name their commands through them for the whole process.
  std::vector<std::unique_ptr<compiler::Program>> retired_programs_;
  // The launch and program key of the eager op being dispatched, kept from launch to launch:
  // filled again, they reuse their room, and the key is rebuilt only when the launch differs
  // (EagerOps::KeyOfLaunch).
  compiler::OpLaunch launch_scratch_;
  std::string key_scratch_;
  // Workload ops' traits by op name, built on first use (LookupOpTraits); never erased, so the
  // pointers TraitsOf returns stay valid.
  std::unordered_map<std::string, OpTraits> op_traits_;
  std::vector<std::string> log_;
  ChunkedVector<rebel100::RunRequest> runs_;  // stable addresses for the device
  // Parallel to truth_.launches; entries before |truths_filled_| are filled and may point at
  // released runs.
  ChunkedVector<rebel100::RunRequest*> launch_runs_;
  size_t truths_filled_ = 0;
  size_t launches_since_release_ = 0;
  int next_instance_;
  int64_t next_launch_id_ = 1;
  int64_t next_external_id_ = 1;
  bool recording_ = false;
  bool record_launch_truth_ = true;

  const std::vector<scenario::Step>* steps_ = nullptr;
  sc_core::sc_event go_;
  Status status_;
  sim::HostTimeline timeline_;
  sim::GroundTruth truth_;
};

}  // namespace rblnsim::host

#endif  // RBLNSIM_MODELS_HOST_HOST_RUNTIME_H_
