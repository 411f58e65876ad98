// The trace index's columns and host forest: launch and external ids read once the way
// Event::IntArg reads them, names interned, the launching op of each marker, and the forest's
// nesting rules that every consumer (key_averages, the checks, the analyses, compare) now shares.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "profiler/index/trace_index.h"

namespace rblnsim::index {
namespace {

using trace::Category;
using trace::Event;

Event Make(Category cat, std::string name, int64_t ts_ns, int64_t dur_ns, int64_t tid = 1) {
  Event e;
  e.category = cat;
  e.name = name;
  e.pid = 100;
  e.tid = tid;
  e.ts_ns = ts_ns;
  e.dur_ns = dur_ns;
  return e;
}

Event Marker(int64_t launch_id, int64_t ts_ns, int64_t dur_ns) {
  Event e = Make(Category::kPrivateUse1Runtime, "rbln_run", ts_ns, dur_ns);
  e.args.push_back({"launch_id", launch_id});
  return e;
}

TraceIndex Index(const trace::Trace& t) {
  auto index = TraceIndex::Build(t);
  EXPECT_TRUE(index.ok()) << index.status().message();
  return std::move(*index);
}

TEST(TraceIndexColumns, IdsAreReadOnceAsIntArgReadsThem) {
  trace::Trace t;
  Event number = Make(Category::kKernel, "k", 0, 1, 7);
  number.args.push_back({"launch_id", int64_t{5}});
  Event quoted = Make(Category::kKernel, "k", 1, 1, 7);
  quoted.args.push_back({"launch_id", std::string("6")});
  Event text = Make(Category::kKernel, "k", 2, 1, 7);
  text.args.push_back({"launch_id", std::string("six")});
  Event twice = Make(Category::kCpuOp, "aten::mm", 3, 1);
  twice.args.push_back({"External id", int64_t{9}});
  twice.args.push_back({"External id", int64_t{10}});  // the first one counts
  // Both ids on one event (they share a column otherwise), and an External id beside a launch
  // id that does not read as an integer.
  Event both = Make(Category::kPrivateUse1Runtime, "rbln_run", 4, 1);
  both.args.push_back({"External id", int64_t{11}});
  both.args.push_back({"launch_id", int64_t{12}});
  Event both_text = Make(Category::kKernel, "k", 5, 1, 7);
  both_text.args.push_back({"launch_id", std::string("thirteen")});
  both_text.args.push_back({"External id", int64_t{14}});
  // Ids far outside 32 bits (the column holds four bytes per event) read back exactly.
  Event wide = Make(Category::kKernel, "k", 6, 1, 7);
  wide.args.push_back({"launch_id", int64_t{1} << 45});
  Event wide_external = Make(Category::kCpuOp, "aten::mm", 7, 1);
  wide_external.args.push_back({"External id", -(int64_t{1} << 40)});
  t.events = {number, quoted, text, twice, both, both_text, wide, wide_external};

  const TraceIndex index = Index(t);
  for (size_t i = 0; i < t.events.size(); ++i) {
    EXPECT_EQ(index.LaunchId(i), t.events[i].IntArg("launch_id")) << i;
    EXPECT_EQ(index.ExternalId(i), t.events[i].IntArg("External id")) << i;
  }
  EXPECT_TRUE(index.events().Has(2, kHasLaunchIdArg));
  EXPECT_FALSE(index.events().Has(2, kHasLaunchId));
  EXPECT_EQ(index.LaunchId(4), 12);
  EXPECT_EQ(index.ExternalId(4), 11);
  EXPECT_EQ(index.ExternalId(5), 14);
  EXPECT_EQ(index.LaunchId(6), int64_t{1} << 45);
  EXPECT_EQ(index.ExternalId(7), -(int64_t{1} << 40));
  EXPECT_EQ(index.names().size(), 3u);  // "k" once, "aten::mm", "rbln_run"
  EXPECT_EQ(index.Name(1), "k");
  EXPECT_EQ(index.names().Find("aten::mm"), index.events().name[3]);
  EXPECT_EQ(index.names().Find("absent"), kNone);
  EXPECT_EQ(index.rows().size(), 2u);
  EXPECT_EQ(index.events().row[0], index.events().row[2]);
  // A kernel is device work; a cpu_op is not, whatever it carries.
  EXPECT_TRUE(index.events().Has(0, kDeviceSlice));
  EXPECT_FALSE(index.events().Has(3, kDeviceSlice));
  EXPECT_EQ(IsDeviceSlice(t.events[0]), true);
  EXPECT_EQ(IsDeviceSlice(t.events[3]), false);
}

TEST(TraceIndexForest, MarkersFindTheInnermostEnclosingOp) {
  trace::Trace t;
  t.events = {
      Make(Category::kUserAnnotation, "step", 0, 100),
      Make(Category::kCpuOp, "aten::linear", 10, 50),
      Make(Category::kCpuOp, "aten::mm", 20, 20),
      Marker(1, 25, 5),   // inside aten::mm
      Marker(2, 45, 5),   // inside aten::linear, after aten::mm
      Marker(3, 70, 0),   // inside the annotation only
      Marker(4, 60, 0),   // zero-length at aten::linear's end: its sibling, under "step"
      Marker(5, 200, 1),  // outside everything
  };
  const TraceIndex index = Index(t);
  EXPECT_EQ(index.LauncherOf(3), std::optional<size_t>(2));
  EXPECT_EQ(index.LauncherOf(4), std::optional<size_t>(1));
  EXPECT_EQ(index.LauncherOf(5), std::optional<size_t>(0));
  EXPECT_EQ(index.LauncherOf(6), std::optional<size_t>(0));
  EXPECT_EQ(index.LauncherOf(7), std::nullopt);
  EXPECT_EQ(index.LauncherOf(1), std::nullopt);  // an op is no marker
  EXPECT_EQ(index.forest().markers, 5u);
  EXPECT_EQ(index.launches().markers.size(), 5u);
  EXPECT_EQ(index.MarkerOf(4), std::optional<size_t>(6));
  EXPECT_EQ(index.MarkerOf(9), std::nullopt);

  // Pre-order: the annotation first, its subtree ends past aten::linear's.
  const HostForest& f = index.forest();
  ASSERT_EQ(f.size(), 8u);
  EXPECT_EQ(f.event[0], 0u);
  EXPECT_EQ(f.parent[0], kNone);
  const uint32_t linear = index.events().node[1];
  EXPECT_EQ(f.parent[linear], index.events().node[0]);
  EXPECT_EQ(f.parent[index.events().node[2]], linear);
  EXPECT_EQ(f.kind[index.events().node[3]], HostKind::kMarker);
  EXPECT_EQ(index.events().node[7] + 1, f.end[index.events().node[7]]);
}

TEST(TraceIndexForest, RowsNestSeparately) {
  trace::Trace t;
  t.events = {Make(Category::kCpuOp, "aten::add", 0, 100, 1), Marker(1, 10, 5)};
  t.events[1].tid = 2;  // another thread: the op on thread 1 does not launch it
  const TraceIndex index = Index(t);
  EXPECT_EQ(index.LauncherOf(1), std::nullopt);
}

// Pre-order over rows in (pid, tid) order whatever order they first appear in, then by start,
// the longer first at equal starts, an op before a marker of the same span.
TEST(TraceIndexForest, PreOrderIsByPidTidThenStartOuterFirst) {
  trace::Trace t;
  t.events = {
      Make(Category::kCpuOp, "late_thread2", 50, 10, 2),  // 0
      Make(Category::kCpuOp, "inner", 10, 5, 1),          // 1
      Make(Category::kCpuOp, "outer", 10, 30, 1),         // 2
      Marker(7, 10, 30),                                  // 3: outer's span exactly
      Make(Category::kCpuOp, "other_pid", 0, 5, 1),       // 4: pid 50, below
      Make(Category::kCpuOp, "early_thread2", 5, 10, 2),  // 5
  };
  t.events[4].pid = 50;
  const TraceIndex index = Index(t);
  const HostForest& f = index.forest();
  ASSERT_EQ(f.size(), 6u);
  const std::vector<uint32_t> want = {4, 2, 3, 1, 5, 0};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(f.event[i], want[i]) << i;
    EXPECT_EQ(index.events().node[want[i]], i) << i;
  }
  EXPECT_EQ(f.parent[1], kNone);  // outer
  EXPECT_EQ(f.parent[2], 1u);     // the marker, under outer
  EXPECT_EQ(f.parent[3], 1u);     // inner, under outer (a marker is never a parent)
  EXPECT_EQ(f.parent[4], kNone);  // another thread's
  EXPECT_EQ(index.LauncherOf(3), std::optional<size_t>(2));
}

}  // namespace
}  // namespace rblnsim::index
