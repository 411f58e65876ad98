#include "profiler/bridge/rbln_bridge.h"

#include <optional>
#include <utility>

#include "profiler/bridge/held_export.h"
#include "profiler/bridge/slice_converter.h"

namespace rblnsim::bridge {

namespace {

// What the sink hands back across the C boundary. Only the first export is kept: the ABI allows
// exactly one call, and a second one is a producer bug to count, not data to merge.
struct SinkState {
  std::optional<HeldExport> held;
  uint64_t calls = 0;
  uint64_t null_exports = 0;
};

// A plain function, so it can be passed as RblnKinetoExportSink; its SinkState arrives through
// |user_data|. The pointers die when it returns, and the producer's export lives until then:
// the sink only takes its compact copy (held_export.h), and the events are made after the
// producer has freed its export, so the two never lie side by side.
void SinkTrampoline(const RblnKinetoExport* exp, void* user_data) {
  auto* state = static_cast<SinkState*>(user_data);
  ++state->calls;
  if (exp == nullptr) {
    ++state->null_exports;
    return;
  }
  if (!state->held.has_value())
    state->held = HeldExport::Hold(*exp);
}

// Accounts for every way the producer can break "exported_out says whether the sink was called,
// and the sink is called at most once".
void CountProtocol(const SinkState& sink, int32_t exported, BridgeStats* stats) {
  stats->sink_calls = sink.calls;
  stats->protocol_null_export = sink.null_exports;
  if (sink.calls > 1)
    stats->protocol_sink_repeated = sink.calls - 1;
  if (exported != 0 && exported != 1)
    ++stats->protocol_exported_out_invalid;
  if (exported == 1 && sink.calls == 0)
    ++stats->protocol_sink_missing;
  if (exported == 0 && sink.calls > 0)
    ++stats->protocol_sink_unreported;
}

}  // namespace

RblnBridge::RblnBridge(KinetoApi api, BridgeClock* clock)
    : api_(api), clock_(clock), lifecycle_("rbln bridge") {}

StatusOr<bool> RblnBridge::Configure() {
  // Misuse is reported before the producer is asked anything.
  RBLNSIM_RETURN_IF_ERROR(lifecycle_.CanConfigure());
  int32_t active = 0;
  const RBLNRetCode code = api_.is_active(&active);
  if (code != RBLN_KINETO_OK) {
    return Status::Error("rbln_kineto_is_active failed: " + RetCodeName(code));
  }
  RBLNSIM_RETURN_IF_ERROR(lifecycle_.Configure(active == 1));
  return lifecycle_.has_session();
}

Status RblnBridge::Start() {
  RBLNSIM_ASSIGN_OR_RETURN(const bool begin, lifecycle_.Start(clock_));
  if (!begin)
    return Status::Ok();
  const RBLNRetCode code = api_.begin_session();
  if (code != RBLN_KINETO_OK) {
    return Status::Error("rbln_kineto_begin_session failed: " + RetCodeName(code));
  }
  lifecycle_.Started();
  return Status::Ok();
}

StatusOr<BridgeResult> RblnBridge::Stop(int64_t capture_start_system_ns,
                                        int64_t capture_end_system_ns) {
  RBLNSIM_ASSIGN_OR_RETURN(std::optional<ConvertWindow> window,
                           lifecycle_.Stop(capture_start_system_ns, capture_end_system_ns));
  if (!window)
    return BridgeResult{};

  SinkState sink;
  // An out-of-range sentinel, so a producer that never writes exported_out is caught too.
  int32_t exported = -1;
  const RBLNRetCode code = api_.end_session_and_export(&SinkTrampoline, &sink, &exported);
  if (code != RBLN_KINETO_OK) {
    return Status::Error("rbln_kineto_end_session_and_export failed: " + RetCodeName(code));
  }

  BridgeResult result =
      sink.held.has_value() ? ConvertHeldExport(std::move(*sink.held), *window) : BridgeResult{};
  CountProtocol(sink, exported, &result.stats);
  AttachProducerStats(api_.last_session_stats, &result.stats);
  return result;
}

}  // namespace rblnsim::bridge
