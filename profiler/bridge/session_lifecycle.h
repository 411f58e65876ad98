// What both bridges share of a Kineto plugin session, whichever seam is behind it: whether a
// session exists (decided at Configure), the order Configure -> Start -> Stop, and the
// (steady, system) clock anchor taken at Start, which turns the producer's steady-clock times
// into the trace's system-clock times at Stop.
#ifndef RBLNSIM_PROFILER_BRIDGE_SESSION_LIFECYCLE_H_
#define RBLNSIM_PROFILER_BRIDGE_SESSION_LIFECYCLE_H_

#include <cstdint>
#include <optional>
#include <string>

#include "base/status.h"
#include "profiler/abi/rbln_kineto_api.h"
#include "profiler/bridge/bridge_result.h"
#include "profiler/bridge/clock.h"
#include "profiler/bridge/slice_converter.h"

namespace rblnsim::bridge {

class SessionLifecycle {
 public:
  // |who| prefixes the misuse errors ("rbln bridge", "activity bridge").
  explicit SessionLifecycle(std::string who) : who_(std::move(who)) {}

  // Configure: an error while a session runs; otherwise records whether one exists.
  Status CanConfigure() const;
  Status Configure(bool has_session);
  // Start: false when there is no session (nothing to begin); otherwise takes the anchor, and the
  // caller begins the producer's session and then calls Started().
  StatusOr<bool> Start(BridgeClock* clock);
  void Started() { started_ = true; }
  // Stop: nullopt when there is no session; otherwise the window to convert against.
  StatusOr<std::optional<ConvertWindow>> Stop(int64_t capture_start_system_ns,
                                              int64_t capture_end_system_ns);

  bool has_session() const { return has_session_; }
  // ConvertWindow::spare_events of the windows Stop gives from now on.
  void set_spare_events(size_t events) { spare_events_ = events; }

 private:
  std::string who_;
  bool has_session_ = false;
  bool started_ = false;
  int64_t anchor_steady_ns_ = 0;
  int64_t anchor_system_ns_ = 0;
  size_t spare_events_ = 0;
};

// Asks the producer's stats extension (when it has one) for the session that just ended.
using LastSessionStatsFn = RBLNRetCode (*)(RblnsimKinetoStats* stats_out);
void AttachProducerStats(LastSessionStatsFn last_session_stats, BridgeStats* stats);

}  // namespace rblnsim::bridge

#endif  // RBLNSIM_PROFILER_BRIDGE_SESSION_LIFECYCLE_H_
