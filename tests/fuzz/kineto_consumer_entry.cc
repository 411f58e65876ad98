// kineto_consumer_fuzzer: a decoded producer session through RblnBridge (sink copy, conversion,
// protocol accounting) and on into a written trace.
#include <string>

#include "profiler/bridge/clock.h"
#include "profiler/bridge/kineto_api.h"
#include "profiler/bridge/rbln_bridge.h"
#include "profiler/trace/chrome_trace_writer.h"
#include "profiler/trace/import/chrome_trace_import.h"
#include "profiler/trace/json_writer.h"
#include "profiler/trace/trace.h"
#include "tests/fuzz/fuzz_entries.h"
#include "tests/fuzz/json_check.h"
#include "tests/fuzz/kineto_export_decoder.h"

namespace rblnsim::fuzz {

namespace {

// The session the fake entry points serve. KinetoApi takes plain function pointers, so they reach
// it through a global; fuzzers and the replay test run one input at a time on one thread.
const DecodedSession* g_session = nullptr;
int g_end_calls = 0;

RBLNRetCode FakeIsActive(int32_t* active_out) {
  *active_out = g_session->active_value;
  return RBLN_KINETO_OK;
}

RBLNRetCode FakeBegin() {
  return RBLN_KINETO_OK;
}

RBLNRetCode FakeEnd(RblnKinetoExportSink sink, void* user_data, int32_t* exported_out) {
  ++g_end_calls;
  const RblnKinetoExport* exp = &g_session->view;
  switch (g_session->sink_mode) {
    case SinkMode::kNormal:
      sink(exp, user_data);
      *exported_out = 1;
      break;
    case SinkMode::kCallTwice:
      sink(exp, user_data);
      sink(exp, user_data);
      *exported_out = 1;
      break;
    case SinkMode::kNoCallButExported:
      *exported_out = 1;
      break;
    case SinkMode::kCallButNotExported:
      sink(exp, user_data);
      *exported_out = 0;
      break;
    case SinkMode::kNullExport:
      sink(nullptr, user_data);
      *exported_out = 1;
      break;
    case SinkMode::kExportedUnset:
      sink(exp, user_data);
      break;
    case SinkMode::kExportedGarbage:
      sink(exp, user_data);
      *exported_out = 7;
      break;
    case SinkMode::kNothingCaptured:
      *exported_out = 0;
      break;
  }
  return RBLN_KINETO_OK;
}

RBLNRetCode FakeStats(RblnsimKinetoStats* stats_out) {
  if (g_session->stats_fail)
    return RBLN_KINETO_ERR_RUNTIME;
  *stats_out = g_session->stats;
  return RBLN_KINETO_OK;
}

class FixedClock final : public bridge::BridgeClock {
 public:
  FixedClock(int64_t steady_ns, int64_t system_ns) : steady_ns_(steady_ns), system_ns_(system_ns) {}
  int64_t SteadyNowNs() override { return steady_ns_; }
  int64_t SystemNowNs() override { return system_ns_; }

 private:
  int64_t steady_ns_;
  int64_t system_ns_;
};

// How many slices the bridge should have received: the first sink call's export, if any.
uint64_t ExpectedSlicesReceived(const DecodedSession& session) {
  switch (session.sink_mode) {
    case SinkMode::kNoCallButExported:
    case SinkMode::kNullExport:
    case SinkMode::kNothingCaptured:
      return 0;
    default:
      return session.view.slices == nullptr ? 0 : session.view.slices_count;
  }
}

// The counters that must add up whatever the export held (bridge_result.h).
std::string CheckStats(const DecodedSession& session, const bridge::BridgeResult& result) {
  const bridge::BridgeStats& stats = result.stats;
  if (stats.slices_received != ExpectedSlicesReceived(session))
    return "slices_received does not match the export";
  if (stats.slices_kept + stats.dropped_out_of_window + stats.dropped_unknown_row !=
      stats.slices_received)
    return "kept + dropped slices do not add up to the slices received";
  if (stats.slices_kept != result.events.size())
    return "slices_kept differs from the events produced";
  if (stats.has_producer_stats != (session.has_stats && !session.stats_fail))
    return "producer stats reported when the extension did not answer, or lost when it did";
  return "";
}

}  // namespace

std::string FuzzKinetoConsumer(const uint8_t* data, size_t size) {
  FuzzBytes in(data, size);
  DecodedSession session;
  DecodeSession(&in, &session);
  g_session = &session;
  g_end_calls = 0;

  auto api = bridge::KinetoApi::FromFunctions(&FakeIsActive, &FakeBegin, &FakeEnd,
                                              session.has_stats ? &FakeStats : nullptr);
  if (!api.ok())
    return "KinetoApi::FromFunctions refused valid entry points: " + api.status().message();
  FixedClock clock(session.steady_anchor_ns, session.system_anchor_ns);
  bridge::RblnBridge bridge(*api, &clock);
  auto active = bridge.Configure();
  if (!active.ok())
    return "Configure failed: " + active.status().message();
  if (*active != (session.active_value == 1))
    return "Configure disagrees with is_active";
  const Status started = bridge.Start();
  if (!started.ok())
    return "Start failed: " + started.message();
  auto result = bridge.Stop(session.capture_start_ns, session.capture_end_ns);
  if (!result.ok()) {
    // The only documented failure with a well-behaved producer is an inverted window.
    if (session.capture_end_ns < session.capture_start_ns)
      return "";
    return "Stop failed: " + result.status().message();
  }
  if (!*active) {
    if (g_end_calls != 0 || !result->events.empty())
      return "an inactive profiler's session was ended or produced events";
    return "";
  }
  const std::string stats_problem = CheckStats(session, *result);
  if (!stats_problem.empty())
    return stats_problem;

  // As the CLI assembles it: rows, events and the counters as top-level metadata.
  trace::Trace trace;
  trace.capture_start_ns = session.capture_start_ns;
  trace.capture_end_ns = session.capture_end_ns;
  trace.base_time_ns = trace::KinetoBaseTimeNs(session.capture_start_ns);
  result->AppendTo(&trace);
  for (auto& entry : result->StatsAsMetadata())
    trace.metadata.push_back(std::move(entry));
  trace::StringSink sink;
  const Status written = trace::WriteChromeTrace(trace, sink);
  if (!written.ok())
    return "the converted trace could not be written: " + written.message();
  const std::string problem = JsonProblem(sink.text());
  if (!problem.empty())
    return "the converted trace was written as " + problem;
  // `rblnsim check` must be able to read every trace the bridge's output ends up in.
  auto imported = trace::ImportChromeTraceFromBuffer(sink.text(), "converted.json");
  if (!imported.ok())
    return "the converted trace does not import: " + imported.status().message();
  return "";
}

}  // namespace rblnsim::fuzz
