#include "profiler/trace/dialect.h"

#include <gtest/gtest.h>

#include <string>

namespace rblnsim::trace {
namespace {

Event Slice(Category category, std::string name) {
  Event event;
  event.category = category;
  event.name = name;
  return event;
}

TEST(Dialect, NamesRoundTrip) {
  EXPECT_EQ(DialectName(Dialect::kCAbi), "c-abi");
  EXPECT_EQ(DialectName(Dialect::kCurrent), "current");
  EXPECT_EQ(DialectFromName("c-abi"), Dialect::kCAbi);
  EXPECT_EQ(DialectFromName("current"), Dialect::kCurrent);
  EXPECT_EQ(DialectFromName("Current"), std::nullopt);
  EXPECT_EQ(DialectFromName(""), std::nullopt);
  EXPECT_EQ(LaunchMarkerName(Dialect::kCAbi), "rbln_run");
  EXPECT_EQ(LaunchMarkerName(Dialect::kCurrent), "rbln launch");
}

TEST(Dialect, LaunchMarkerNeedsRuntimeCategoryAndMarkerName) {
  EXPECT_TRUE(IsLaunchMarker(Slice(Category::kPrivateUse1Runtime, "rbln_run")));
  EXPECT_TRUE(IsLaunchMarker(Slice(Category::kPrivateUse1Runtime, "rbln launch")));
  // The same names on a CPU op or a device slice are not markers.
  EXPECT_FALSE(IsLaunchMarker(Slice(Category::kCpuOp, "rbln_run")));
  EXPECT_FALSE(IsLaunchMarker(Slice(Category::kKernel, "rbln launch")));
  EXPECT_FALSE(IsLaunchMarker(Slice(Category::kPrivateUse1Runtime, "rbln_launch")));
  EXPECT_FALSE(IsLaunchMarker(Slice(Category::kPrivateUse1Runtime, "rbln launch ")));

  const Event old_marker = Slice(Category::kPrivateUse1Runtime, "rbln_run");
  const Event new_marker = Slice(Category::kPrivateUse1Runtime, "rbln launch");
  EXPECT_TRUE(IsLaunchMarker(old_marker, Dialect::kCAbi));
  EXPECT_FALSE(IsLaunchMarker(old_marker, Dialect::kCurrent));
  EXPECT_TRUE(IsLaunchMarker(new_marker, Dialect::kCurrent));
  EXPECT_FALSE(IsLaunchMarker(new_marker, Dialect::kCAbi));
}

TEST(Dialect, FlowIdBlockIsHalfOpen) {
  EXPECT_EQ(kFlowIdBlockSize, 0x01000000u);
  EXPECT_FALSE(InFlowIdBlock(kFlowIdBlockBegin - 1));
  EXPECT_TRUE(InFlowIdBlock(kFlowIdBlockBegin));
  EXPECT_TRUE(InFlowIdBlock(0xF0FFFFFFu));
  EXPECT_FALSE(InFlowIdBlock(kFlowIdBlockEnd));
  EXPECT_FALSE(InFlowIdBlock(1));
}

TEST(Dialect, NpuRowsAndLanes) {
  EXPECT_EQ(NpuRowName(0), "NPU 0");
  EXPECT_EQ(NpuRowName(13), "NPU 13");
  EXPECT_TRUE(IsNpuRowName("NPU 3"));
  EXPECT_FALSE(IsNpuRowName("NPU"));
  EXPECT_FALSE(IsNpuRowName("npu 0"));
  EXPECT_FALSE(IsNpuRowName("Rebel100 chiplet 0"));

  EXPECT_EQ(LaneName(0), "compute");
  EXPECT_EQ(LaneName(1), "copy");
  EXPECT_EQ(LaneName(2), "host");
  EXPECT_EQ(LaneName(3), "collective");
  EXPECT_EQ(LaneName(4), "");
  EXPECT_EQ(LaneName(-1), "");

  EXPECT_EQ(LaneForCategory(Category::kKernel), 0);
  EXPECT_EQ(LaneForCategory(Category::kGpuMemcpy), 1);
  EXPECT_EQ(LaneForCategory(Category::kPrivateUse1Runtime), 2);
  EXPECT_EQ(LaneForCategory(Category::kPrivateUse1Driver), 3);
  EXPECT_EQ(LaneForCategory(Category::kCpuOp), std::nullopt);
  EXPECT_EQ(LaneForCategory(Category::kGpuMemset), std::nullopt);
}

TEST(Dialect, DetectsCurrentFromMarkerOrNpuRow) {
  Trace empty;
  EXPECT_EQ(DetectDialect(empty), Dialect::kCAbi);

  Trace c_abi;
  c_abi.processes.push_back({0, "Rebel100 chiplet 0", "", 5000000});
  c_abi.events.push_back(Slice(Category::kPrivateUse1Runtime, "rbln_run"));
  EXPECT_EQ(DetectDialect(c_abi), Dialect::kCAbi);

  Trace by_marker;
  by_marker.events.push_back(Slice(Category::kPrivateUse1Runtime, "rbln launch"));
  EXPECT_EQ(DetectDialect(by_marker), Dialect::kCurrent);

  // A cpu_op that happens to be called "rbln launch" is no marker.
  Trace by_op_name;
  by_op_name.events.push_back(Slice(Category::kCpuOp, "rbln launch"));
  EXPECT_EQ(DetectDialect(by_op_name), Dialect::kCAbi);

  Trace by_row;
  by_row.processes.push_back({0, "NPU 0", "", 5000000});
  EXPECT_EQ(DetectDialect(by_row), Dialect::kCurrent);
}

}  // namespace
}  // namespace rblnsim::trace
