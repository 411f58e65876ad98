// The activity API on the simulated clock (SimulatedRuntime::Configure with kSimulated), the way
// `rblnsim run` drives it: the caller runs the window between beginActivities() and
// endActivities(). Each simulation runs in a forked child (one elaboration per process).
#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "profiler/abi/rbln_kineto_api.h"
#include "rbln/runtime/activity.h"
#include "rbln/runtime/flags.h"
#include "sim/runtime/simulated_runtime.h"
#include "tests/unit/models/sim_fixtures.h"

namespace rblnsim::testing {
namespace {

using ::rbln::runtime::Activities;
using ::rbln::runtime::Activity;

// Runs one profiled window through the activity API and flattens what came back:
// [begin steady, activity count, launch count, per activity (kind, device, start, end, launch),
//  per launch (id, ns, pid, tid)].
std::vector<double> OneWindow() {
  scenario::Scenario s = SeedScenario();
  sim::SimulatedRuntime& runtime = sim::SimulatedRuntime::Get();
  if (!runtime.Configure(s, sim::ClockMode::kSimulated).ok() || !runtime.RunWarmup().ok())
    return {};
  const double begin = static_cast<double>(runtime.SteadyNowNs());
  ::rbln::runtime::beginActivities();
  if (!runtime.in_session())
    return {-1};
  if (!runtime.RunWindow().ok())
    return {-2};
  const Activities got = ::rbln::runtime::endActivities();
  std::vector<double> out = {begin, static_cast<double>(got.activities.size()),
                             static_cast<double>(got.launches.size())};
  for (const Activity& a : got.activities) {
    out.insert(out.end(), {static_cast<double>(a.kind), static_cast<double>(a.device),
                           static_cast<double>(a.start_ns), static_cast<double>(a.end_ns),
                           static_cast<double>(a.launch)});
  }
  for (const auto& l : got.launches) {
    out.insert(out.end(), {static_cast<double>(l.id), static_cast<double>(l.ns),
                           static_cast<double>(l.pid), static_cast<double>(l.tid)});
  }
  return out;
}

TEST(CurrentSeam, SimulatedClockIsDeterministicAndOnTheScenarioHost) {
  unsetenv("RBLN_PROFILER");  // the scenario's env decides
  const std::vector<double> a = InChild(OneWindow);
  const std::vector<double> b = InChild(OneWindow);
  ASSERT_GE(a.size(), 3u);
  EXPECT_EQ(a, b);
  const scenario::Scenario s = SeedScenario();
  const double begin = a[0];
  const size_t activities = static_cast<size_t>(a[1]);
  const size_t launches = static_cast<size_t>(a[2]);
  EXPECT_EQ(activities, 18u);
  EXPECT_EQ(launches, 3u);
  ASSERT_EQ(a.size(), 3 + activities * 5 + launches * 4);
  for (size_t i = 0; i < activities; ++i) {
    const double* x = &a[3 + i * 5];
    EXPECT_TRUE(x[0] == static_cast<double>(Activity::Kind::kDevice) ||
                x[0] == static_cast<double>(Activity::Kind::kCopy));
    EXPECT_EQ(x[1], 0);  // NPU 0
    EXPECT_GE(x[2], begin);
    EXPECT_GE(x[3], x[2]);
    EXPECT_GT(x[4], 0);
  }
  for (size_t i = 0; i < launches; ++i) {
    const double* l = &a[3 + activities * 5 + i * 4];
    EXPECT_GE(l[1], begin);
    EXPECT_EQ(l[2], static_cast<double>(s.host.pid));  // the scenario's host, not this process
    EXPECT_EQ(l[3], static_cast<double>(s.host.tid));
  }
}

// The profiler off at begin: nothing is recorded and the caller runs the window itself.
TEST(CurrentSeam, ProfilerOffLeavesTheWindowToTheCaller) {
  const std::vector<double> got = InChild([] {
    setenv("RBLN_PROFILER", "0", 1);
    scenario::Scenario s = SeedScenario();
    sim::SimulatedRuntime& runtime = sim::SimulatedRuntime::Get();
    if (!runtime.Configure(s, sim::ClockMode::kSimulated).ok() || !runtime.RunWarmup().ok()) {
      return std::vector<double>{};
    }
    const bool flag = ::rbln::runtime::flags::kProfiler.value();
    ::rbln::runtime::beginActivities();
    const bool began = runtime.in_session();
    if (!began)
      runtime.simulation()->BeginSession();
    const bool ran = runtime.RunWindow().ok();
    const sim::SessionData session = runtime.simulation()->EndSession();
    const Activities acts = ::rbln::runtime::endActivities();
    return std::vector<double>{static_cast<double>(flag), static_cast<double>(began),
                               static_cast<double>(ran),
                               static_cast<double>(acts.activities.size()),
                               static_cast<double>(session.timeline.events.size())};
  });
  ASSERT_EQ(got.size(), 5u);
  EXPECT_EQ(got[0], 0);  // RBLN_PROFILER=0 overrides the scenario's 1
  EXPECT_EQ(got[1], 0);
  EXPECT_EQ(got[2], 1);
  EXPECT_EQ(got[3], 0);
  EXPECT_GT(got[4], 0);  // the host side still ran
}

// Both seams on one runtime, one after the other: the same device work, kinds mapped 1:1.
TEST(CurrentSeam, SameDeviceWorkThroughBothSeams) {
  const std::vector<double> got = InChild([] {
    unsetenv("RBLN_PROFILER");
    scenario::Scenario s = SeedScenario();
    sim::SimulatedRuntime& runtime = sim::SimulatedRuntime::Get();
    if (!runtime.Configure(s, sim::ClockMode::kSimulated).ok() || !runtime.RunWarmup().ok()) {
      return std::vector<double>{};
    }
    struct Count {
      double compute = 0, dma = 0, markers = 0, device_ns = 0;
    } c;
    if (rbln_kineto_begin_session() != RBLN_KINETO_OK || !runtime.RunWindow().ok())
      return std::vector<double>{};
    int32_t exported = 0;
    auto sink = [](const RblnKinetoExport* e, void* user) {
      auto* n = static_cast<Count*>(user);
      for (uint32_t i = 0; i < e->slices_count; ++i) {
        const RblnKinetoSlice& x = e->slices[i];
        if (x.kind == RBLN_KINETO_KIND_COMPUTE)
          ++n->compute;
        if (x.kind == RBLN_KINETO_KIND_DMA)
          ++n->dma;
        if (x.kind == RBLN_KINETO_KIND_RUNTIME)
          ++n->markers;
        if (x.kind != RBLN_KINETO_KIND_RUNTIME)
          n->device_ns += static_cast<double>(x.end_steady_ns - x.start_steady_ns);
      }
    };
    if (rbln_kineto_end_session_and_export(sink, &c, &exported) != RBLN_KINETO_OK)
      return std::vector<double>{};
    ::rbln::runtime::beginActivities();
    if (!runtime.RunWindow().ok())
      return std::vector<double>{};
    const Activities acts = ::rbln::runtime::endActivities();
    double device = 0, copy = 0, ns = 0;
    for (const Activity& a : acts.activities) {
      device += a.kind == Activity::Kind::kDevice;
      copy += a.kind == Activity::Kind::kCopy;
      ns += static_cast<double>(a.end_ns - a.start_ns);
    }
    return std::vector<double>{c.compute,
                               c.dma,
                               c.markers,
                               c.device_ns,
                               device,
                               copy,
                               static_cast<double>(acts.launches.size()),
                               ns};
  });
  ASSERT_EQ(got.size(), 8u);
  EXPECT_GT(got[0], 0);
  EXPECT_EQ(got[0], got[4]);  // compute -> kDevice
  EXPECT_EQ(got[1], got[5]);  // DMA -> kCopy
  EXPECT_EQ(got[2], got[6]);  // one launch per rbln_run marker
  EXPECT_NEAR(got[3], got[7], got[3] * 0.01);
}

}  // namespace
}  // namespace rblnsim::testing
