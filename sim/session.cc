#include "sim/session.h"

#include <iterator>
#include <utility>
#include <vector>

#include "profiler/trace/json_writer.h"
#include "sim/host_trace.h"
#include "sim/profiled_window.h"
#include "sim/runtime/simulated_runtime.h"

namespace rblnsim::sim {

StatusOr<SimulatedSession> SimulateSession(const SessionConfig& config) {
  if (config.scenario == nullptr)
    return Status::Internal("SimulateSession: no scenario");
  const scenario::Scenario& scenario = *config.scenario;
  SimulatedRuntime& runtime = SimulatedRuntime::Get();
  RBLNSIM_RETURN_IF_ERROR(runtime.Configure(scenario, ClockMode::kSimulated));
  runtime.KeepDeviceRecords(config.keep_device_records);
  runtime.simulation()->RecordLaunchTruth(config.keep_launch_truth);

  SimulatedSession out;
  out.warmup = runtime.RunWarmup();
  if (!out.warmup.ok())
    return out;
  RBLNSIM_ASSIGN_OR_RETURN(Capture capture, SimulateProfiledWindow(&runtime, config.dialect));
  out.window = std::move(capture.window);
  out.active = capture.active;
  out.session = std::move(capture.session);

  trace::Trace& trace = out.trace;
  trace.capture_start_ns = capture.capture_start_ns;
  trace.capture_end_ns = capture.capture_end_ns;
  trace.base_time_ns = trace::KinetoBaseTimeNs(capture.capture_start_ns);
  trace.device_properties.push_back(DeviceProperties(scenario));
  // One array holds the trace, host events then device events. The host events are made in an
  // array of their own, sized exactly (room reserved is room faulted in, by the run's prefault
  // thread), then moved in front of the device events, whose array the bridge made with room
  // for them (profiled_window.cc): the trace takes that array, and no second array of the
  // whole trace is made. The timeline's runtime markers reach the trace through the bridge.
  trace.events.reserve(HostTraceEvents(out.session.timeline));
  AppendHostTrace(scenario, out.session.timeline, scenario.host.system_epoch_ns, &trace);
  out.session.timeline = HostTimeline();  // now in |trace|: a long window's timeline is large
  if (capture.device_side) {
    bridge::BridgeResult& device_side = *capture.device_side;
    // The counters are read before the events move out, so nothing reads a moved-from result.
    out.stats = device_side.stats;
    auto metadata = device_side.StatsAsMetadata();
    std::vector<trace::Event>& events = device_side.events;
    events.insert(events.begin(), std::make_move_iterator(trace.events.begin()),
                  std::make_move_iterator(trace.events.end()));
    trace.events = std::move(events);
    std::move(device_side).AppendTo(&trace);  // the rows and args; its events are in already
    for (auto& entry : metadata)
      trace.metadata.push_back(std::move(entry));
  }
  // The simulated program stopped inside the window (a disabled fallback raised, a command timed
  // out): the trace holds what ran up to there, and says so, as a file of a crashed run would
  // not.
  if (!out.window.ok()) {
    trace::StringSink message;
    trace::AppendJsonString(message, out.window.message());
    trace.metadata.emplace_back("rblnsim_incomplete", trace::RawJson{message.text()});
  }
  return out;
}

}  // namespace rblnsim::sim
