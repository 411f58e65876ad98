#include "sim/session.h"

#include <utility>

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
  // One array for the host events and the device events after them: growing it by doubling,
  // then once more for the device side, held two copies of the host events at a time. Sized
  // exactly: room reserved is room faulted in (the run's prefault thread), and the timeline's
  // runtime markers, a ninth of a 10^6-launch run's events, reach the trace through the bridge.
  trace.events.reserve(HostTraceEvents(out.session.timeline) +
                       (capture.device_side ? capture.device_side->events.size() : 0));
  AppendHostTrace(scenario, out.session.timeline, scenario.host.system_epoch_ns, &trace);
  out.session.timeline = HostTimeline();  // now in |trace|: a long window's timeline is large
  if (capture.device_side) {
    bridge::BridgeResult& device_side = *capture.device_side;
    // The counters are read before the events move out, so nothing reads a moved-from result.
    out.stats = device_side.stats;
    auto metadata = device_side.StatsAsMetadata();
    std::move(device_side).AppendTo(&trace);
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
