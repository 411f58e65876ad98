// ProducerRuntime: one session at a time across the C-ABI and the activity API, defined answers
// for calls from inside the sink, and the wait for device work on the real clock.
#include "profiler/abi/producer_runtime.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "profiler/abi/session_window.h"
#include "tests/unit/abi/fake_capture.h"

namespace rblnsim::abi {
namespace {

using testing::FakeSource;
using testing::TwoSliceCapture;

std::string ReadAll(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string text;
  char buffer[512];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof(buffer), f)) > 0)
    text.append(buffer, n);
  return text;
}

struct Fixture {
  FakeSource source;
  std::FILE* report = std::tmpfile();
  ProducerRuntime runtime{&source, report};
  ~Fixture() { std::fclose(report); }
};

struct SinkState {
  ProducerRuntime* runtime = nullptr;
  int calls = 0;
  uint32_t slices = 0;
  int64_t last_end = 0;
  RBLNRetCode active_rc = -1, begin_rc = -1, end_rc = -1, stats_rc = -1, scope_rc = -1;
  int32_t active = -1;
  RblnsimKinetoStats stats{};
};

void CountingSink(const RblnKinetoExport* e, void* user) {
  auto* s = static_cast<SinkState*>(user);
  ++s->calls;
  s->slices = e->slices_count;
  for (uint32_t i = 0; i < e->slices_count; ++i) {
    s->last_end = std::max(s->last_end, e->slices[i].end_steady_ns);
  }
}

void ReentrantSink(const RblnKinetoExport* e, void* user) {
  CountingSink(e, user);
  auto* s = static_cast<SinkState*>(user);
  s->active_rc = s->runtime->IsActive(&s->active);
  s->begin_rc = s->runtime->BeginSession();
  int32_t exported = -1;
  s->end_rc = s->runtime->EndSession(&CountingSink, s, &exported);
  s->stats_rc = s->runtime->LastSessionStats(&s->stats);
  s->runtime->BeginActivities();  // refused, must not open a session
  s->scope_rc = s->runtime->EndActivities().activities.empty() ? 0 : 1;
}

TEST(ProducerRuntimeTest, SinkCallingBackInGetsDefinedAnswers) {
  Fixture f;
  SinkState state;
  state.runtime = &f.runtime;
  ASSERT_EQ(f.runtime.BeginSession(), RBLN_KINETO_OK);
  int32_t exported = 0;
  ASSERT_EQ(f.runtime.EndSession(&ReentrantSink, &state, &exported), RBLN_KINETO_OK);
  EXPECT_EQ(exported, 1);
  EXPECT_EQ(state.calls, 1);  // the nested end did not deliver again
  EXPECT_EQ(state.active_rc, RBLN_KINETO_OK);
  EXPECT_EQ(state.active, 1);
  EXPECT_EQ(state.begin_rc, RBLN_KINETO_ERR_BUSY);
  EXPECT_EQ(state.end_rc, RBLN_KINETO_ERR_BUSY);
  EXPECT_EQ(state.stats_rc, RBLN_KINETO_OK);
  EXPECT_EQ(state.stats.records_captured, 2u);  // already this session's
  EXPECT_EQ(state.scope_rc, 0);
  EXPECT_EQ(f.source.begins, 1);
  // Usable again afterwards.
  ASSERT_EQ(f.runtime.BeginSession(), RBLN_KINETO_OK);
  SinkState again;
  EXPECT_EQ(f.runtime.EndSession(&CountingSink, &again, &exported), RBLN_KINETO_OK);
  EXPECT_EQ(again.calls, 1);
  EXPECT_NE(ReadAll(f.report).find(
                "rbln_kineto_begin_session: the previous session is still being ended"),
            std::string::npos);
}

TEST(ProducerRuntimeTest, OneSessionAtATimeAcrossBothSeams) {
  Fixture f;
  ASSERT_EQ(f.runtime.BeginSession(), RBLN_KINETO_OK);
  f.runtime.BeginActivities();  // refused: the C-ABI session stays open
  EXPECT_TRUE(f.runtime.EndActivities().activities.empty());
  SinkState state;
  int32_t exported = 0;
  EXPECT_EQ(f.runtime.EndSession(&CountingSink, &state, &exported), RBLN_KINETO_OK);
  EXPECT_EQ(state.calls, 1);
  EXPECT_EQ(f.source.begins, 1);

  f.runtime.BeginActivities();
  EXPECT_EQ(f.runtime.BeginSession(), RBLN_KINETO_ERR_SESSION_ACTIVE);
  EXPECT_EQ(f.runtime.EndSession(&CountingSink, &state, &exported), RBLN_KINETO_ERR_NO_SESSION);
  EXPECT_EQ(exported, 0);
  EXPECT_EQ(f.runtime.EndActivities().activities.size(), 2u);
  const std::string report = ReadAll(f.report);
  EXPECT_NE(report.find("beginActivities: a session begun with rbln_kineto_begin_session is open"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("endActivities: the open session was begun with rbln_kineto_begin_session"),
            std::string::npos);
  EXPECT_NE(
      report.find("rbln_kineto_begin_session: a session begun with beginActivities() is open"),
      std::string::npos);
}

TEST(ProducerRuntimeTest, ActivitiesMisuseReportsOneLineAndReturnsNothing) {
  Fixture f;
  EXPECT_TRUE(f.runtime.EndActivities().activities.empty());
  EXPECT_EQ(ReadAll(f.report), "rblnsim: endActivities: no session was begun\n");
  EXPECT_EQ(f.source.ends, 0);
}

TEST(ProducerRuntimeTest, ProfilerOffAtBeginRecordsNothingSilently) {
  Fixture f;
  f.source.activities_active = false;
  f.runtime.BeginActivities();
  const ::rbln::runtime::Activities got = f.runtime.EndActivities();
  EXPECT_TRUE(got.activities.empty() && got.launches.empty());
  EXPECT_EQ(f.source.begins, 0);
  EXPECT_EQ(f.source.ends, 0);
  EXPECT_EQ(ReadAll(f.report), "");
}

TEST(ProducerRuntimeTest, FailedBeginIsReportedOnceAndTheEndIsQuiet) {
  Fixture f;
  f.source.begin_status = Status::Error("RBLNSIM_CLOCK=sim is refused");
  EXPECT_EQ(f.runtime.BeginSession(), RBLN_KINETO_ERR_RUNTIME);
  SinkState state;
  int32_t exported = -1;
  EXPECT_EQ(f.runtime.EndSession(&CountingSink, &state, &exported), RBLN_KINETO_ERR_NO_SESSION);
  EXPECT_EQ(exported, 0);
  EXPECT_EQ(state.calls, 0);
  f.runtime.BeginActivities();
  EXPECT_TRUE(f.runtime.EndActivities().activities.empty());
  EXPECT_EQ(ReadAll(f.report),
            "rblnsim: RBLNSIM_CLOCK=sim is refused\n"
            "rblnsim: beginActivities: RBLNSIM_CLOCK=sim is refused\n");
}

// On the real clock the end call returns only after the last record has ended, and says how
// long it waited.
TEST(ProducerRuntimeTest, EndWaitsForDeviceWorkStillRunning) {
  Fixture f;
  f.source.real_clock = true;
  const int64_t begin = SteadyNowNs();
  f.source.make = [begin] { return TwoSliceCapture(begin, 30'000'000); };  // ends 30 ms later
  ASSERT_EQ(f.runtime.BeginSession(), RBLN_KINETO_OK);
  SinkState state;
  int32_t exported = 0;
  ASSERT_EQ(f.runtime.EndSession(&CountingSink, &state, &exported), RBLN_KINETO_OK);
  const int64_t returned = SteadyNowNs();
  EXPECT_EQ(state.last_end, begin + 30'000'000);
  EXPECT_LE(state.last_end, returned);
  RblnsimKinetoStats stats{};
  ASSERT_EQ(f.runtime.LastSessionStats(&stats), RBLN_KINETO_OK);
  EXPECT_GT(stats.sync_wait_ns, 20'000'000u);
  EXPECT_LE(static_cast<int64_t>(stats.sync_wait_ns), returned - begin);
  EXPECT_EQ(stats.records_after_wait, 0u);
  EXPECT_NE(ReadAll(f.report).find(" ns device sync wait, 0 records past the wait dropped\n"),
            std::string::npos);

  // The activity API waits the same way.
  const int64_t begin2 = SteadyNowNs();
  f.source.make = [begin2] { return TwoSliceCapture(begin2, 20'000'000); };
  f.runtime.BeginActivities();
  const ::rbln::runtime::Activities got = f.runtime.EndActivities();
  ASSERT_EQ(got.activities.size(), 2u);
  EXPECT_LE(got.activities[1].end_ns, SteadyNowNs());
  EXPECT_EQ(got.activities[1].end_ns, begin2 + 20'000'000);
}

TEST(ProducerRuntimeTest, SimulatedClockNeverWaits) {
  Fixture f;
  f.source.make = [] { return TwoSliceCapture(SteadyNowNs() + 60'000'000'000, 40); };
  ASSERT_EQ(f.runtime.BeginSession(), RBLN_KINETO_OK);
  SinkState state;
  int32_t exported = 0;
  ASSERT_EQ(f.runtime.EndSession(&CountingSink, &state, &exported), RBLN_KINETO_OK);
  EXPECT_EQ(state.slices, 3u);  // nothing dropped: simulated time is not this process's
  RblnsimKinetoStats stats{};
  ASSERT_EQ(f.runtime.LastSessionStats(&stats), RBLN_KINETO_OK);
  EXPECT_EQ(stats.sync_wait_ns, 0u);
}

}  // namespace
}  // namespace rblnsim::abi
