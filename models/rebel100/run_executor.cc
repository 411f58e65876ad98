#include "models/rebel100/run_executor.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "models/compiler/command_naming.h"
#include "models/rebel100/command_timing.h"
#include "models/rebel100/sim_time.h"

namespace rblnsim::rebel100 {

RunExecutor::RunExecutor(const scenario::DeviceConfig& config,
                         std::string command_name_template,
                         ProfilerUnit* profiler,
                         DeviceStats* stats)
    : config_(config),
      name_template_(std::move(command_name_template)),
      profiler_(profiler),
      stats_(stats),
      queues_(static_cast<size_t>(config.chiplets) * kEngineTypeCount),
      busy_ns_(queues_.size(), 0.0) {
  for (int c = 0; c < config.chiplets; ++c) {
    hbm_.emplace_back(config.hbm_bandwidth_bytes_per_s);
    solo_.emplace_back();
    pending_starts_.push_back(0);
    for (int t = 0; t < kEngineTypeCount; ++t) {
      first_lane_.push_back(static_cast<int>(lanes_.size()));
      const auto type = static_cast<EngineType>(t);
      for (int i = 0; i < EnginesOfType(type); ++i) {
        Lane& lane = lanes_.emplace_back();
        lane.chiplet = c;
        lane.type = type;
        lane.instance = i;
      }
    }
  }
  first_lane_.push_back(static_cast<int>(lanes_.size()));
}

int RunExecutor::QueueSlot(int chiplet, EngineType type) const {
  return chiplet * kEngineTypeCount + static_cast<int>(type);
}

std::deque<RunExecutor::Queued>& RunExecutor::QueueOf(int chiplet, EngineType type) {
  return queues_[QueueSlot(chiplet, type)];
}

double RunExecutor::BusyNs(int chiplet, EngineType type) const {
  return busy_ns_[QueueSlot(chiplet, type)];
}

std::string RunExecutor::CommandName(const RunRequest& run, int index) const {
  const compiler::Command& command = run.program->commands[index];
  return compiler::FormatCommandName(name_template_,
                                     {run.instance, run.sequence, 0, command.layer, command.index});
}

bool RunExecutor::IsHangCommand(const RunRequest& run, int index) const {
  if (config_.hang_command.empty())
    return false;
  const compiler::Command& command = run.program->commands[index];
  // Either the full name of one command or "<layer>_<index>" for that command in every run.
  return config_.hang_command == CommandName(run, index) ||
         config_.hang_command == fmt::format("{}_{}", command.layer, command.index);
}

double RunExecutor::Execute(RunRequest* run, double release_ns) {
  const auto& commands = run->program->commands;
  const int count = static_cast<int>(commands.size());
  if (run->program->demands.size() != commands.size()) {
    // Only the compiler makes programs for the device, and it times them (TimeCommands).
    run->failed = true;
    run->error = fmt::format("program {} was not timed for the device ({} commands, {} demands)",
                             run->program->key, count, run->program->demands.size());
    return release_ns;
  }
  run_ = run;
  // Dependents in one flat array (compressed rows), rebuilt per run without allocating.
  remaining_deps_.assign(count, 0);
  dependents_begin_.assign(count + 1, 0);
  for (int i = 0; i < count; ++i) {
    remaining_deps_[i] = static_cast<int>(commands[i].deps.size());
    for (int dep : commands[i].deps)
      ++dependents_begin_[dep + 1];
  }
  for (int i = 0; i < count; ++i)
    dependents_begin_[i + 1] += dependents_begin_[i];
  dependents_.resize(dependents_begin_[count]);
  dependents_fill_.assign(dependents_begin_.begin(), dependents_begin_.end() - 1);
  for (int i = 0; i < count; ++i) {
    for (int dep : commands[i].deps)
      dependents_[dependents_fill_[dep]++] = i;
  }

  double now_ns = release_ns;
  for (int i = 0; i < count; ++i) {
    if (remaining_deps_[i] == 0)
      Dispatch(i, now_ns);
  }
  StartIdleEngines(now_ns);
  while (!events_.empty()) {
    std::pop_heap(events_.begin(), events_.end(), std::greater<>());
    const Event event = events_.back();
    events_.pop_back();  // what follows may push new events
    Lane& lane = lanes_[event.lane];
    if (event.kind == EventKind::kCompletion && event.version != lane.version)
      continue;  // re-projected since
    now_ns = event.at_ns;
    if (event.kind == EventKind::kStreamStart) {
      StartStreams(event.lane, now_ns);  // never stale: nothing ends the command before it
      continue;
    }
    EndStreams(event.lane, now_ns);
    // The engine that finished takes its queue's next command at once; the others wake after.
    lane.busy = false;
    Take(event.lane, now_ns);
    StartIdleEngines(now_ns);
  }
  run_ = nullptr;
  return now_ns;
}

void RunExecutor::Dispatch(int index, double now_ns) {
  // The command processor dispatches one command at a time.
  const double at_ns = std::max(now_ns, dispatcher_free_ns_) + config_.dispatch_ns;
  dispatcher_free_ns_ = at_ns;
  const compiler::Command& command = run_->program->commands[index];
  const int slot = QueueSlot(command.chiplet, command.engine);
  queues_[slot].push_back({index, at_ns});
  if (std::find(touched_queues_.begin(), touched_queues_.end(), slot) == touched_queues_.end()) {
    touched_queues_.push_back(slot);
  }
}

void RunExecutor::StartIdleEngines(double now_ns) {
  for (size_t t = 0; t < touched_queues_.size(); ++t) {
    const int slot = touched_queues_[t];
    for (int lane = first_lane_[slot]; lane < first_lane_[slot + 1] && !queues_[slot].empty();
         ++lane) {
      if (!lanes_[lane].busy)
        Take(lane, now_ns);
    }
  }
  touched_queues_.clear();
}

void RunExecutor::Take(int lane_index, double now_ns) {
  Lane& lane = lanes_[lane_index];
  std::deque<Queued>& queue = QueueOf(lane.chiplet, lane.type);
  if (lane.busy || queue.empty())
    return;
  const Queued item = queue.front();
  queue.pop_front();
  lane.busy = true;
  lane.index = item.index;
  lane.order = next_order_++;
  // The command starts when the dispatcher has handed it over.
  lane.start_ns = std::max(now_ns, item.available_ns);
  lane.ran = !run_->failed;
  lane.timed_out = false;
  lane.end_ns = -1;  // nothing scheduled yet
  lane.solo = lane.counted = false;
  if (!lane.ran) {
    lane.demand = CommandDemand{};
    Schedule(lane_index, now_ns, lane.start_ns);
    return;
  }
  if (IsHangCommand(*run_, item.index)) {
    lane.demand = CommandDemand{};
    lane.demand.engine_ns = config_.command_timeout_ns * 2;
  } else {
    lane.demand = run_->program->demands[item.index];
  }
  // A command that moves no bytes ends in closed form. One that does is scheduled once its bytes
  // join the channel after its set-up, and re-projected whenever another stream there starts or
  // ends (unless the timeout cuts it first).
  const CommandDemand& d = lane.demand;
  const bool streams = d.hbm_bytes + d.remote_bytes > 0;
  if (!streams || d.setup_ns >= config_.command_timeout_ns) {
    Schedule(lane_index, now_ns, lane.start_ns + d.engine_ns);
    return;
  }
  const int c = lane.chiplet;
  if (d.remote_bytes == 0 && hbm_[c].active() == 0 && pending_starts_[c] == 0 &&
      solo_[c].lane < 0) {
    // Alone on its stack: the channel's whole rate up to the engine's pace, in closed form.
    const double cap = d.max_bytes_per_ns > 0 ? d.max_bytes_per_ns : hbm_[c].bytes_per_ns();
    solo_[c] = {lane_index, lane.start_ns + d.setup_ns, std::min(cap, hbm_[c].bytes_per_ns())};
    hbm_[c].CountBytes(d.hbm_bytes);
    lane.solo = lane.counted = true;
    lane.stream_end_ns =
        solo_[c].begin_ns + static_cast<double>(d.hbm_bytes) / solo_[c].bytes_per_ns + d.tail_ns;
    Schedule(lane_index, now_ns, std::max(lane.start_ns + d.engine_ns, lane.stream_end_ns));
    return;
  }
  PushStreamStart(lane_index, lane.start_ns + d.setup_ns);
}

void RunExecutor::PushStreamStart(int lane_index, double at_ns) {
  const Lane& lane = lanes_[lane_index];
  if (lane.demand.hbm_bytes > 0)
    ++pending_starts_[lane.chiplet];
  if (lane.demand.remote_bytes > 0)
    ++pending_starts_[lane.demand.remote_chiplet];
  Event start;
  start.at_ns = at_ns;
  start.order = lane.order;
  start.lane = lane_index;
  start.kind = EventKind::kStreamStart;
  Push(start);
}

// Another stream starts on |chiplet|'s HBM at |now_ns|: a stream timed alone there joins the
// shared channel with the bytes it has left (or, not begun yet, starts there when it begins),
// and is re-projected with the rest.
void RunExecutor::Promote(int chiplet, double now_ns) {
  Solo& solo = solo_[chiplet];
  if (solo.lane < 0)
    return;
  const int lane_index = solo.lane;
  solo.lane = -1;
  Lane& lane = lanes_[lane_index];
  lane.solo = false;
  if (now_ns < solo.begin_ns) {
    PushStreamStart(lane_index, solo.begin_ns);
    return;
  }
  const double left_bytes =
      static_cast<double>(lane.demand.hbm_bytes) - (now_ns - solo.begin_ns) * solo.bytes_per_ns;
  if (left_bytes > 0) {
    hbm_[chiplet].Resume(lane_index, now_ns, left_bytes, lane.demand.max_bytes_per_ns);
    lane.streaming = true;
  }
}

// Where a completion projected for |end_ns| at |now_ns| lands: cut at the command timeout and on
// the kernel's resolution (where an engine's single wait() would have left the clock).
double RunExecutor::CompletionAt(const Lane& lane,
                                 double now_ns,
                                 double end_ns,
                                 bool* timed_out) const {
  *timed_out = false;
  if (!lane.ran)
    return end_ns;
  end_ns = lane.start_ns + SaturatedNs(end_ns - lane.start_ns);
  *timed_out = end_ns - lane.start_ns > config_.command_timeout_ns;
  if (*timed_out)
    end_ns = lane.start_ns + config_.command_timeout_ns;
  return now_ns + KernelDelayNs(end_ns - now_ns);
}

// Sets the lane's completion for |end_ns| as seen at |now_ns|; a new event only when it moved.
void RunExecutor::Schedule(int lane_index, double now_ns, double end_ns) {
  Lane& lane = lanes_[lane_index];
  bool timed_out = false;
  const double at_ns = CompletionAt(lane, now_ns, end_ns, &timed_out);
  if (at_ns == lane.end_ns)
    return;
  lane.end_ns = at_ns;
  lane.timed_out = timed_out;
  Event done;
  done.at_ns = lane.end_ns;
  done.order = lane.order;
  done.lane = lane_index;
  done.version = ++lane.version;
  Push(done);
}

// A lane's streams are owners |lane| (its own chiplet) and |lane| + lanes (the remote one).
void RunExecutor::StartStreams(int lane_index, double now_ns) {
  Lane& lane = lanes_[lane_index];
  lane.stream_end_ns = lane.remote_end_ns = lane.start_ns + lane.demand.engine_ns;
  if (lane.demand.hbm_bytes > 0) {
    --pending_starts_[lane.chiplet];
    Promote(lane.chiplet, now_ns);
    SharedHbm& hbm = hbm_[lane.chiplet];
    if (!lane.counted)
      hbm.CountBytes(lane.demand.hbm_bytes);
    hbm.Resume(lane_index, now_ns, static_cast<double>(lane.demand.hbm_bytes),
               lane.demand.max_bytes_per_ns);
    lane.streaming = true;
  }
  if (lane.demand.remote_bytes > 0) {
    const int remote = lane.demand.remote_chiplet;
    --pending_starts_[remote];
    Promote(remote, now_ns);
    hbm_[remote].Start(lane_index + static_cast<int>(lanes_.size()), now_ns,
                       lane.demand.remote_bytes, lane.demand.remote_max_bytes_per_ns);
    lane.remote_streaming = true;
  }
  if (lane.streaming)
    Reproject(lane.chiplet, now_ns);
  if (lane.remote_streaming)
    Reproject(lane.demand.remote_chiplet, now_ns);
}

// The lane's command ended at |now_ns|: its streams leave their channels, whose other streams
// then share what it leaves.
void RunExecutor::EndStreams(int lane_index, double now_ns) {
  Lane& lane = lanes_[lane_index];
  if (lane.solo) {
    solo_[lane.chiplet].lane = -1;
    lane.solo = false;
  }
  const bool local = lane.streaming;
  const bool remote = lane.remote_streaming;
  lane.streaming = lane.remote_streaming = false;
  if (local)
    hbm_[lane.chiplet].End(lane_index, now_ns);
  if (remote)
    hbm_[lane.demand.remote_chiplet].End(lane_index + static_cast<int>(lanes_.size()), now_ns);
  Finish(lane_index);
  if (local && hbm_[lane.chiplet].active() > 0)
    Reproject(lane.chiplet, now_ns);
  if (remote && hbm_[lane.demand.remote_chiplet].active() > 0)
    Reproject(lane.demand.remote_chiplet, now_ns);
}

// The streams on |chiplet|'s HBM changed at |now_ns|: every command streaming there ends when
// the latest of its engine and its streams at the new rates lets it.
void RunExecutor::Reproject(int chiplet, double now_ns) {
  // A stream whose bytes have moved is not visited: its completion stands.
  const int lanes = static_cast<int>(lanes_.size());
  hbm_[chiplet].ForEachProjectedEnd([&](int owner, double stream_end_ns) {
    const int lane_index = owner % lanes;
    Lane& lane = lanes_[lane_index];
    if (owner < lanes) {
      lane.stream_end_ns = stream_end_ns + lane.demand.tail_ns;
    } else {
      lane.remote_end_ns = stream_end_ns + lane.demand.remote_tail_ns;
    }
    Schedule(
        lane_index, now_ns,
        std::max({lane.start_ns + lane.demand.engine_ns, lane.stream_end_ns, lane.remote_end_ns}));
  });
}

void RunExecutor::Push(const Event& event) {
  events_.push_back(event);
  std::push_heap(events_.begin(), events_.end(), std::greater<>());
}

void RunExecutor::Finish(int lane_index) {
  RunRequest* run = run_;
  const Lane& lane = lanes_[lane_index];
  const double start_ns = lane.start_ns;
  const double end_ns = lane.end_ns;
  if (lane.ran) {
    busy_ns_[QueueSlot(lane.chiplet, lane.type)] += end_ns - start_ns;
    run->truth.bound_ns[static_cast<size_t>(BoundOf(lane.demand, end_ns - start_ns, config_))] +=
        end_ns - start_ns;
    run->truth.hbm_bytes += lane.demand.hbm_bytes + lane.demand.remote_bytes;
  }
  if (lane.ran && !lane.timed_out && run->record) {
    if (DeviceRecord* record = profiler_->Record(start_ns, end_ns)) {
      record->launch_id = run->launch_id;
      record->program = run->program;
      record->command_index = lane.index;
      record->instance = run->instance;
      record->sequence = run->sequence;
      record->chiplet = static_cast<int16_t>(lane.chiplet);
      record->engine = lane.type;
      record->engine_instance = static_cast<int16_t>(lane.instance);
    }
  }
  if (lane.timed_out) {
    ++stats_->commands_timed_out;
    if (!run->failed) {
      run->failed = true;
      const compiler::Command& command = run->program->commands[lane.index];
      run->error =
          fmt::format("command {} (launch {}) on chiplet {} {} did not complete within {} ns",
                      CommandName(*run, lane.index), run->launch_id, command.chiplet,
                      EngineTypeName(command.engine), config_.command_timeout_ns);
    }
  } else if (lane.ran) {
    ++stats_->commands_executed;
    if (run->truth.first_start_ns < 0 || start_ns < run->truth.first_start_ns) {
      run->truth.first_start_ns = start_ns;
    }
    run->truth.last_end_ns = std::max(run->truth.last_end_ns, end_ns);
  } else {
    ++stats_->commands_skipped;
  }
  for (int d = dependents_begin_[lane.index]; d < dependents_begin_[lane.index + 1]; ++d) {
    const int dependent = dependents_[d];
    if (--remaining_deps_[dependent] == 0)
      Dispatch(dependent, end_ns);
  }
}

}  // namespace rblnsim::rebel100
