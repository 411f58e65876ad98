#include "models/host/host_runtime.h"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <limits>

#include "models/host/eager_ops.h"
#include "models/rebel100/sim_time.h"

namespace rblnsim::host {

using sc_core::SC_NS;
using sc_core::sc_time;

namespace {
constexpr size_t kNotRecorded = std::numeric_limits<size_t>::max();

TensorState InitialState(const scenario::TensorSpec& spec) {
  TensorState state;
  state.type = {spec.shape, spec.dtype};
  state.on_device = spec.device == "rbln";
  // randn(..., device="rbln") materialises on the device: the newest data is device-only.
  state.location =
      state.on_device ? TensorState::Location::kDeviceOnly : TensorState::Location::kHostLatest;
  state.has_nan = spec.init == scenario::TensorInit::kNan;
  state.has_inf = spec.init == scenario::TensorInit::kInf;
  return state;
}
}  // namespace

HostRuntime::HostRuntime(sc_core::sc_module_name name,
                         const scenario::Scenario& scenario,
                         bool profiler_enabled,
                         rebel100::Device* device)
    : sc_module(name),
      scenario_(scenario),
      profiler_enabled_(profiler_enabled),
      device_(device),
      costs_(scenario.host, scenario.seed),
      next_instance_(scenario.naming.instance_base) {
  for (const scenario::TensorSpec& spec : scenario.workload.tensors) {
    tensors_[spec.name] = InitialState(spec);
  }
  SC_THREAD(Thread);
}

void HostRuntime::Start(const std::vector<scenario::Step>* steps, bool recording) {
  steps_ = steps;
  recording_ = recording;
  go_.notify(sc_core::SC_ZERO_TIME);
}

void HostRuntime::Thread() {
  while (true) {
    while (steps_ == nullptr)
      wait(go_);
    status_ = RunSteps(*steps_);
    Sync();
    // torch.rbln.synchronize() before closing the window: nothing may still run on the device.
    if (status_.ok())
      device_->WaitAllSubmitted();
    for (const std::string& error : device_->stats().errors) {
      if (status_.ok())
        status_ = Status::Error(error);
    }
    steps_ = nullptr;
  }
}

Status HostRuntime::RunSteps(const std::vector<scenario::Step>& steps) {
  for (const scenario::Step& step : steps) {
    RBLNSIM_RETURN_IF_ERROR(RunStep(step));
    if (time_limit_hit_ || NowNs() >= scenario::kMaxSimulatedNs)
      return TimeLimitError(step);
  }
  return Status::Ok();
}

Status HostRuntime::TimeLimitError(const scenario::Step& step) const {
  return Status::Error(fmt::format(
      "{}:{}:{}: simulated time would pass the limit of {:g} ns ({:.1f} days) at this step; "
      "shorten the workload or its costs",
      step.loc.file, step.loc.line, step.loc.column, scenario::kMaxSimulatedNs,
      scenario::kMaxSimulatedNs / 86400e9));
}

Status HostRuntime::RunStep(const scenario::Step& step) {
  EagerOps ops(this);
  switch (step.kind) {
    case scenario::Step::Kind::kOp: {
      Status called = ops.Call(step);
      return called.ok() ? ops.status() : called;
    }
    case scenario::Step::Kind::kCpu:
      return ops.Cpu(step.inputs.empty() ? std::string() : step.inputs.front(), step);
    case scenario::Step::Kind::kSynchronize:
      WaitForDevice();
      return Status::Ok();
    case scenario::Step::Kind::kGraph:
      return ops.Graph(step);
    case scenario::Step::Kind::kRepeat:
      for (int64_t i = 0; i < step.count; ++i)
        RBLNSIM_RETURN_IF_ERROR(RunSteps(step.body));
      return Status::Ok();
  }
  return Status::Ok();
}

double HostRuntime::NowNs() const {
  return static_cast<double>(sc_core::sc_time_stamp().value() + ahead_ticks_) *
         rebel100::NsPerTick();
}

void HostRuntime::Spend(double ns) {
  // Rounded per cost exactly as wait(sc_time(ns, SC_NS)) would, so timestamps do not depend on
  // how often the host synchronises. The local clock stops at the simulated-time limit, so the
  // kernel time Sync() waits for stays representable; the step then fails (RunSteps).
  const uint64_t limit = rebel100::MaxSimulatedTicks();
  const uint64_t now = sc_core::sc_time_stamp().value();
  const uint64_t room = now < limit ? limit - now : 0;
  const uint64_t ahead = static_cast<uint64_t>(ahead_ticks_) + rebel100::DelayTicks(ns);
  if (ahead > room) {
    time_limit_hit_ = true;
    ahead_ticks_ = static_cast<int64_t>(room);
    return;
  }
  ahead_ticks_ = static_cast<int64_t>(ahead);
}

void HostRuntime::Sync() {
  if (ahead_ticks_ == 0)
    return;
  const sc_time ahead =
      sc_time::from_value(static_cast<sc_core::sc_time::value_type>(ahead_ticks_));
  ahead_ticks_ = 0;
  wait(ahead);
}

void HostRuntime::SubmitToDevice(rebel100::RunRequest* run) {
  Sync();
  device_->Submit(run);
}

void HostRuntime::WaitForRun(const rebel100::RunRequest* run) {
  Sync();
  device_->WaitCompletion(run);
}

void HostRuntime::WaitForDevice() {
  Sync();
  device_->WaitAllSubmitted();
}

size_t HostRuntime::Open(const std::string& name, sim::HostEventKind kind) {
  if (!recording_)
    return kNotRecorded;
  sim::HostEvent event;
  auto [id, inserted] = name_ids_.try_emplace(name, static_cast<uint32_t>(timeline_.names.size()));
  if (inserted)
    timeline_.names.push_back(name);
  event.name_id = id->second;
  event.kind = kind;
  event.start_ns = NowNs();
  event.end_ns = event.start_ns;
  if (kind == sim::HostEventKind::kCpuOp)
    event.external_id = next_external_id_++;
  timeline_.events.push_back(event);
  return timeline_.events.size() - 1;
}

void HostRuntime::Close(size_t index) {
  if (index != kNotRecorded)
    timeline_.events[index].end_ns = NowNs();
}

void HostRuntime::Op(const std::string& name, double self_ns) {
  const size_t index = Open(name);
  Spend(self_ns);
  Close(index);
}

void HostRuntime::Log(scenario::LogLevel level, std::string_view message) {
  if (level < scenario_.env.torch_rbln_log_level)
    return;
  static constexpr char kLevelLetters[] = {'D', 'I', 'W', 'E'};
  const int64_t now_ns = scenario_.host.system_epoch_ns + static_cast<int64_t>(NowNs());
  const std::time_t seconds = static_cast<std::time_t>(now_ns / 1'000'000'000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &utc);
  log_.push_back(fmt::format("[{}.{:03d}][{}] {}", stamp, (now_ns / 1'000'000) % 1000,
                             kLevelLetters[static_cast<int>(level)], message));
}

std::list<std::string>::iterator HostRuntime::InsertLru(const std::string& key) {
  const auto capacity = static_cast<size_t>(scenario_.env.torch_rbln_compiled_ops);
  while (!lru_.empty() && lru_.size() >= capacity) {
    auto victim = cache_.find(lru_.back());
    evicted_keys_.insert(lru_.back());
    retired_programs_.push_back(std::move(victim->second.program));
    cache_.erase(victim);
    lru_.pop_back();
  }
  lru_.push_front(key);
  return lru_.begin();
}

StatusOr<const OpTraits*> HostRuntime::TraitsOf(const std::string& op) {
  auto known = op_traits_.find(op);
  if (known != op_traits_.end())
    return &known->second;
  RBLNSIM_ASSIGN_OR_RETURN(OpTraits traits, LookupOpTraits(op));
  return &op_traits_.emplace(op, std::move(traits)).first->second;
}

void HostRuntime::ResetSession() {
  for (auto& [key, compiled] : cache_)
    compiled.next_sequence = 0;
  TakeTimeline();  // dropped, with the name and shape indexes that follow it
  truth_.Clear();
  launch_runs_.clear();
  truths_filled_ = 0;
  ReleaseFinishedRuns();
}

sim::HostTimeline HostRuntime::TakeTimeline() {
  name_ids_.clear();
  return std::exchange(timeline_, sim::HostTimeline());
}

sim::GroundTruth HostRuntime::TakeTruth() {
  // Launch decompositions are complete only once the device has finished the runs. By now it
  // has, but for a run the simulation stopped inside (a command timed out): its truth is filled
  // with what it has, as it always was.
  FillLaunchTruths(/*only_completed=*/false);
  launch_runs_.clear();
  truths_filled_ = 0;
  ReleaseFinishedRuns();
  return std::exchange(truth_, sim::GroundTruth());
}

void HostRuntime::FillLaunchTruths(bool only_completed) {
  for (; truths_filled_ < launch_runs_.size(); ++truths_filled_) {
    rebel100::RunRequest& run = *launch_runs_[truths_filled_];
    if (only_completed && !run.completed)
      return;
    sim::LaunchTruth& launch = truth_.launches[truths_filled_];
    const rebel100::RunTruth& t = run.truth;
    launch.host_overhead_ns = t.ring_wait_start_ns - t.submit_ns;
    launch.ring_wait_ns = t.ring_acquired_ns - t.ring_wait_start_ns;
    launch.queue_wait_ns = t.released_ns - t.decoded_ns;
    launch.first_device_start_ns = t.first_start_ns;
    launch.last_device_end_ns = t.last_end_ns;
    launch.transport_ns = (t.first_start_ns - t.ring_acquired_ns) - launch.queue_wait_ns;
    launch.completed_ns = t.completed_ns;
    launch.failed = run.failed;
    launch.program = run.program->key;
    launch.flops = static_cast<double>(run.program->flops);
    launch.hbm_bytes = t.hbm_bytes;
    launch.bound_ns = t.bound_ns;
  }
}

void HostRuntime::MaybeReleaseFinishedRuns() {
  if (++launches_since_release_ < kReleaseEveryRuns)
    return;
  launches_since_release_ = 0;
  FillLaunchTruths(/*only_completed=*/true);
  ReleaseFinishedRuns();
}

void HostRuntime::ReleaseFinishedRuns() {
  std::vector<const rebel100::RunRequest*> named;
  for (const auto& [name, tensor] : tensors_) {
    if (tensor.producer != nullptr)
      named.push_back(tensor.producer);
  }
  // The device drops its last reference to a run when it marks it completed. The host's own
  // per-session list (launch_runs_) reads a run until its truth is filled: every caller fills
  // first (or drops the list), and both walk runs in launch order, so a released run's truth is
  // filled (the front is popped only while completed; FillLaunchTruths gets at least as far). Only
  // the front is popped, so every run still held keeps its address.
  while (!runs_.empty() && runs_.front().completed &&
         std::find(named.begin(), named.end(), &runs_.front()) == named.end()) {
    runs_.pop_front();
  }
}

}  // namespace rblnsim::host
