// A test producer of the rbln_kineto C-ABI whose exports and misbehaviours the test controls.
// Its entry points are plain functions handed to the bridge through KinetoApi::FromFunctions; they
// reach the current FakeProducer through a global (ctest runs each TEST in its own process).
// Every export is built into fresh heap buffers that are overwritten and freed as soon as the
// sink returns, so a consumer that keeps a pointer reads garbage, and ASan reports it.
#ifndef RBLNSIM_TESTS_UNIT_BRIDGE_FAKE_PRODUCER_H_
#define RBLNSIM_TESTS_UNIT_BRIDGE_FAKE_PRODUCER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "profiler/abi/rbln_kineto_api.h"
#include "profiler/bridge/bridge_result.h"
#include "profiler/bridge/clock.h"
#include "profiler/bridge/kineto_api.h"

namespace rblnsim::bridge::fakes {

struct FakeAnnotation {
  std::optional<std::string> name;
  std::optional<std::string> value;
  int32_t value_is_quoted = 1;
};

struct FakeSlice {
  int32_t device_pid = 0;
  int32_t resource_tid = 0;
  std::optional<std::string> name = "slice";
  std::vector<std::optional<std::string>> categories;
  int64_t start_steady_ns = 0;
  int64_t end_steady_ns = 0;
  std::vector<FakeAnnotation> annotations;
  int64_t corr_id = 0;
  int32_t kind = RBLN_KINETO_KIND_RUNTIME;  // raw, so tests can send out-of-range kinds
};

struct FakeDevice {
  int32_t pid = 0;
  std::optional<std::string> name;
};

struct FakeLane {
  int32_t device_pid = 0;
  int32_t resource_tid = 0;
  std::optional<std::string> name;
};

enum class SinkBehavior {
  kNormal,                    // one sink call, exported_out 1 (0 when nothing was captured)
  kCallTwice,                 // two sink calls, exported_out 1
  kReportWithoutCall,         // no sink call, exported_out 1
  kCallButReportNotExported,  // one sink call, exported_out 0
  kNullExport,                // sink(nullptr, ...), exported_out 1
  kLeaveExportedUnset,        // one sink call, exported_out never written
};

class FakeProducer {
 public:
  FakeProducer();
  ~FakeProducer();
  FakeProducer(const FakeProducer&) = delete;
  FakeProducer& operator=(const FakeProducer&) = delete;

  // The fake's entry points; |with_stats| also provides rblnsim_kineto_last_session_stats.
  KinetoApi Api(bool with_stats = false) const;

  // Controls.
  int32_t active = 1;
  RBLNRetCode is_active_code = RBLN_KINETO_OK;
  RBLNRetCode begin_code = RBLN_KINETO_OK;
  RBLNRetCode end_code = RBLN_KINETO_OK;
  SinkBehavior behavior = SinkBehavior::kNormal;
  std::vector<FakeDevice> devices;
  std::vector<FakeLane> lanes;
  std::vector<FakeSlice> slices;  // empty devices, lanes and slices = nothing captured
  RblnsimKinetoStats stats = {};
  RBLNRetCode stats_code = RBLN_KINETO_OK;

  // Observations.
  int is_active_calls = 0;
  int begin_calls = 0;
  int end_calls = 0;
  int sink_calls = 0;

  // Entry points (public so the C trampolines can reach them).
  RBLNRetCode IsActive(int32_t* active_out);
  RBLNRetCode Begin();
  RBLNRetCode EndAndExport(RblnKinetoExportSink sink, void* user_data, int32_t* exported_out);
  RBLNRetCode LastStats(RblnsimKinetoStats* stats_out);
};

// A clock that returns what the test set.
class FakeClock final : public BridgeClock {
 public:
  FakeClock(int64_t steady_ns, int64_t system_ns) : steady_ns_(steady_ns), system_ns_(system_ns) {}
  int64_t SteadyNowNs() override { return steady_ns_; }
  int64_t SystemNowNs() override { return system_ns_; }

 private:
  int64_t steady_ns_;
  int64_t system_ns_;
};

// The anchor every session test uses: steady 1 ms, system 2023-11-14T22:13:20Z. A slice at
// steady kSteadyAnchorNs + x lands at kSystemAnchorNs + x.
inline constexpr int64_t kSteadyAnchorNs = 1'000'000;
inline constexpr int64_t kSystemAnchorNs = 1'700'000'000'000'000'000;
inline constexpr int64_t kWindowNs = 1'000'000'000;

// A device (pid 1, lanes 1 "compute" and 2 "dma") and a host process (pid 100, lane 100), the
// rows the real producer exports.
void AddStandardRows(FakeProducer* fake);

// Configure, Start and Stop on a FakeClock at the anchor above, with the capture window
// [kSystemAnchorNs, kSystemAnchorNs + kWindowNs].
StatusOr<BridgeResult> RunOneSession(FakeProducer* fake, bool with_stats = false);

// RunOneSession for tests that expect it to succeed: a failure is a test failure and an empty
// result.
BridgeResult RunFake(FakeProducer* fake);

}  // namespace rblnsim::bridge::fakes

#endif  // RBLNSIM_TESTS_UNIT_BRIDGE_FAKE_PRODUCER_H_
