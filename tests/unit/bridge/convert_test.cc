// Slice conversion through the fake producer: kind → category, args, rows and every counted
// drop or repair.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "profiler/bridge/rbln_bridge.h"
#include "profiler/bridge/slice_converter.h"
#include "tests/unit/bridge/fake_producer.h"

namespace rblnsim::bridge {
namespace {

using fakes::FakeProducer;
using fakes::FakeSlice;
using fakes::kSteadyAnchorNs;
using fakes::kSystemAnchorNs;
using fakes::kWindowNs;
using fakes::RunFake;
using trace::ArgValue;
using trace::Category;
using trace::RawJson;

FakeSlice SliceAt(int32_t pid, int32_t tid, int32_t kind, int64_t start_ns, int64_t end_ns) {
  FakeSlice slice;
  slice.device_pid = pid;
  slice.resource_tid = tid;
  slice.kind = kind;
  slice.start_steady_ns = kSteadyAnchorNs + start_ns;
  slice.end_steady_ns = kSteadyAnchorNs + end_ns;
  return slice;
}

TEST(BridgeConvertTest, KindMapsToTheAdaptersCategory) {
  FakeProducer fake;
  fakes::AddStandardRows(&fake);
  fake.slices = {SliceAt(100, 100, RBLN_KINETO_KIND_RUNTIME, 0, 5),
                 SliceAt(1, 1, RBLN_KINETO_KIND_COMPUTE, 10, 20),
                 SliceAt(1, 2, RBLN_KINETO_KIND_DMA, 10, 20),
                 SliceAt(1, 2, RBLN_KINETO_KIND_SYNC, 20, 30),
                 SliceAt(1, 2, 7, 30, 40),
                 SliceAt(1, 2, -1, 40, 50)};
  BridgeResult result = RunFake(&fake);
  ASSERT_EQ(result.events.size(), 6u);
  EXPECT_EQ(result.events[0].category, Category::kPrivateUse1Runtime);
  EXPECT_EQ(result.events[1].category, Category::kKernel);
  EXPECT_EQ(result.events[2].category, Category::kGpuMemcpy);
  EXPECT_EQ(result.events[3].category, Category::kPrivateUse1Driver);
  EXPECT_EQ(result.events[4].category, Category::kPrivateUse1Runtime);  // unknown kind
  EXPECT_EQ(result.events[5].category, Category::kPrivateUse1Runtime);
  EXPECT_EQ(result.events[1].cat(), "kernel");
  EXPECT_EQ(result.events[2].cat(), "gpu_memcpy");
  EXPECT_EQ(result.events[3].cat(), "privateuse1_driver");
}

TEST(BridgeConvertTest, DeviceSlicesCarryDeviceStreamAndCorrelation) {
  FakeProducer fake;
  fakes::AddStandardRows(&fake);
  FakeSlice kernel = SliceAt(1, 2, RBLN_KINETO_KIND_SYNC, 10, 20);
  kernel.corr_id = 42;
  FakeSlice runtime = SliceAt(100, 100, RBLN_KINETO_KIND_RUNTIME, 0, 5);
  fake.slices = {kernel, runtime};
  BridgeResult result = RunFake(&fake);
  ASSERT_EQ(result.events.size(), 2u);
  const trace::Event& device = result.events[0];
  EXPECT_EQ(device.pid, 1);
  EXPECT_EQ(device.tid, 2);
  EXPECT_EQ(device.IntArg("device"), 1);
  EXPECT_EQ(device.IntArg("stream"), 2);
  EXPECT_EQ(device.IntArg("correlation"), 42);
  // Runtime slices are host rows: no device/stream (HTA reads stream > 0 as a device event).
  EXPECT_FALSE(result.events[1].FindArg("stream").has_value());
  EXPECT_FALSE(result.events[1].FindArg("correlation").has_value());  // corr_id 0
}

TEST(BridgeConvertTest, QuotedAndRawAnnotationsAndInvalidRawFallsBackToQuoted) {
  FakeProducer fake;
  fakes::AddStandardRows(&fake);
  FakeSlice slice = SliceAt(100, 100, RBLN_KINETO_KIND_RUNTIME, 0, 5);
  slice.annotations = {{"quoted_number", "12", 1},
                       {"raw_number", "12", 0},
                       {"raw_object", "{\"a\": [1, 2.5e3, null]}", 0},
                       {"broken", "{not json", 0},
                       {"raw_null_value", std::nullopt, 0},
                       {std::nullopt, "x", 1}};
  fake.slices = {slice};
  BridgeResult result = RunFake(&fake);
  ASSERT_EQ(result.events.size(), 1u);
  const trace::Event& event = result.events[0];
  ASSERT_EQ(event.args.size(), 6u);
  EXPECT_EQ(event.args[0].key, "quoted_number");
  EXPECT_EQ(event.args[0].value, ArgValue(std::string("12")));
  EXPECT_EQ(event.args[1].value, ArgValue(RawJson{"12"}));
  EXPECT_EQ(event.args[2].value, ArgValue(RawJson{"{\"a\": [1, 2.5e3, null]}"}));
  EXPECT_EQ(event.args[3].value, ArgValue(std::string("{not json")));
  EXPECT_EQ(event.args[4].value, ArgValue(RawJson{"null"}));
  EXPECT_EQ(event.args[5].key, "(null)");
  EXPECT_EQ(result.stats.invalid_raw_annotations, 1u);
  EXPECT_EQ(result.stats.null_strings, 2u);
}

TEST(BridgeConvertTest, NonNullCategoriesJoinIntoOneQuotedArg) {
  FakeProducer fake;
  fakes::AddStandardRows(&fake);
  FakeSlice slice = SliceAt(1, 1, RBLN_KINETO_KIND_COMPUTE, 0, 5);
  slice.categories = {"neural_engine", std::nullopt, "matmul", "fp16"};
  FakeSlice without = SliceAt(1, 1, RBLN_KINETO_KIND_COMPUTE, 5, 6);
  without.categories = {std::nullopt};
  fake.slices = {slice, without};
  BridgeResult result = RunFake(&fake);
  ASSERT_EQ(result.events.size(), 2u);
  EXPECT_EQ(result.events[0].FindArg("categories")->value,
            ArgValue(std::string("neural_engine, matmul, fp16")));
  EXPECT_FALSE(result.events[1].FindArg("categories").has_value());
}

TEST(BridgeConvertTest, AnnotationKeysAreUniqueAndTheBridgesOwnKeysWin) {
  FakeProducer fake;
  fakes::AddStandardRows(&fake);
  FakeSlice slice = SliceAt(1, 1, RBLN_KINETO_KIND_COMPUTE, 0, 5);
  slice.corr_id = 9;
  slice.annotations = {{"stream", "\"bogus\"", 0}, {"op", "a", 1}, {"op", "b", 1}};
  fake.slices = {slice};
  BridgeResult result = RunFake(&fake);
  ASSERT_EQ(result.events.size(), 1u);
  const trace::Event& event = result.events[0];
  EXPECT_EQ(event.IntArg("stream"), 1);
  EXPECT_EQ(event.FindArg("op")->value, ArgValue(std::string("a")));
  EXPECT_EQ(result.stats.duplicate_arg_keys, 2u);
  int streams = 0;
  for (const trace::ArgView arg : event.args)
    streams += arg.key == "stream";
  EXPECT_EQ(streams, 1);
}

// A launch's marker and device slices carry the same annotations; the converter reuses the
// args it made for the last slice's (annotation_memo.h). Each slice must still come out as if it
// were converted alone: its own keys winning, every count made once per slice.
TEST(BridgeConvertTest, SlicesSharingAnnotationsConvertAsIfEachWereAlone) {
  const std::vector<fakes::FakeAnnotation> shared = {
      {"stream", "\"x\"", 0}, {"launch_id", "7", 0}, {"bad", "{", 0}, {std::nullopt, "v", 1}};
  FakeSlice marker = SliceAt(100, 100, RBLN_KINETO_KIND_RUNTIME, 0, 5);
  marker.name = std::string(kLaunchMarkerName);
  std::vector<FakeSlice> slices = {marker, SliceAt(1, 1, RBLN_KINETO_KIND_COMPUTE, 10, 20),
                                   SliceAt(1, 2, RBLN_KINETO_KIND_DMA, 20, 30),
                                   SliceAt(1, 1, RBLN_KINETO_KIND_COMPUTE, 30, 40),
                                   SliceAt(1, 2, RBLN_KINETO_KIND_DMA, 40, 50)};
  for (FakeSlice& slice : slices) {
    slice.annotations = shared;
    slice.corr_id = 7;
  }
  slices.back().annotations = {{"launch_id", "8", 0}};
  slices.back().corr_id = 8;

  BridgeResult result;
  {
    FakeProducer fake;  // one at a time
    fakes::AddStandardRows(&fake);
    fake.slices = slices;
    result = RunFake(&fake);
  }
  ASSERT_EQ(result.events.size(), slices.size());
  for (size_t i = 0; i < slices.size(); ++i) {
    SCOPED_TRACE(i);
    FakeProducer alone;
    fakes::AddStandardRows(&alone);
    alone.slices = {slices[i]};
    BridgeResult single = RunFake(&alone);
    ASSERT_EQ(single.events.size(), 1u);
    EXPECT_TRUE(result.events[i].args == single.events[0].args);
  }
  // The marker keeps the producer's "stream"; on device slices the bridge's own one wins.
  EXPECT_EQ(result.events[0].FindArg("stream")->value, ArgValue(RawJson{"\"x\""}));
  EXPECT_EQ(result.events[1].IntArg("stream"), 1);
  EXPECT_EQ(result.events[2].IntArg("stream"), 2);
  EXPECT_EQ(result.events[4].FindArg("launch_id")->value, ArgValue(RawJson{"8"}));
  for (size_t i = 0; i < 4; ++i)
    EXPECT_EQ(result.events[i].flow_id, 7u) << i;
  EXPECT_EQ(result.stats.invalid_raw_annotations, 4u);
  EXPECT_EQ(result.stats.null_strings, 4u);
  EXPECT_EQ(result.stats.duplicate_arg_keys, 3u);
}

TEST(BridgeConvertTest, SlicesEntirelyOutsideTheWindowAreDroppedAndCounted) {
  FakeProducer fake;
  fakes::AddStandardRows(&fake);
  fake.slices = {SliceAt(1, 1, RBLN_KINETO_KIND_COMPUTE, -50, -10),  // before
                 SliceAt(1, 1, RBLN_KINETO_KIND_COMPUTE, -10, 10),   // straddles
                 SliceAt(1, 1, RBLN_KINETO_KIND_COMPUTE, -10, 0),    // touches
                 SliceAt(1, 1, RBLN_KINETO_KIND_COMPUTE, kWindowNs - 5, kWindowNs + 5),
                 SliceAt(1, 1, RBLN_KINETO_KIND_COMPUTE, kWindowNs + 1, kWindowNs + 9)};
  BridgeResult result = RunFake(&fake);
  EXPECT_EQ(result.stats.slices_received, 5u);
  EXPECT_EQ(result.stats.dropped_out_of_window, 2u);
  EXPECT_EQ(result.stats.slices_kept, 3u);
  ASSERT_EQ(result.events.size(), 3u);
  EXPECT_EQ(result.events[0].ts_ns, kSystemAnchorNs - 10);  // kept whole, not clipped
}

TEST(BridgeConvertTest, SlicesOnUnknownRowsAreDroppedAndCounted) {
  FakeProducer fake;
  fakes::AddStandardRows(&fake);
  fake.slices = {SliceAt(2, 1, RBLN_KINETO_KIND_COMPUTE, 0, 5),    // unknown device
                 SliceAt(1, 9, RBLN_KINETO_KIND_COMPUTE, 0, 5),    // unknown lane
                 SliceAt(100, 1, RBLN_KINETO_KIND_RUNTIME, 0, 5),  // lane of another device
                 SliceAt(1, 1, RBLN_KINETO_KIND_COMPUTE, 0, 5)};
  BridgeResult result = RunFake(&fake);
  EXPECT_EQ(result.stats.dropped_unknown_row, 3u);
  EXPECT_EQ(result.events.size(), 1u);
}

// The converter remembers lanes it has found declared in a small table; more lanes than its
// slots, taking turns with undeclared ones that may share a slot, are each judged right every
// time.
TEST(BridgeConvertTest, ManyLanesTakingTurnsAreEachJudgedEveryTime) {
  FakeProducer fake;
  fake.devices = {{1, "RBLN 0"}, {2, "RBLN 1"}};
  for (int32_t tid = 1; tid <= 20; ++tid) {
    fake.lanes.push_back({1, tid, "lane"});
    fake.lanes.push_back({2, tid, "lane"});
  }
  int64_t at = 0;
  for (int pass = 0; pass < 3; ++pass) {
    for (int32_t tid = 1; tid <= 24; ++tid) {  // 21-24: undeclared on either device
      fake.slices.push_back(SliceAt(1, tid, RBLN_KINETO_KIND_COMPUTE, at, at + 1));
      fake.slices.push_back(SliceAt(2, tid, RBLN_KINETO_KIND_DMA, at, at + 1));
      fake.slices.push_back(SliceAt(3, tid, RBLN_KINETO_KIND_DMA, at, at + 1));  // no device
      ++at;
    }
  }
  BridgeResult result = RunFake(&fake);
  EXPECT_EQ(result.stats.slices_received, 3u * 24 * 3);
  EXPECT_EQ(result.stats.dropped_unknown_row, 3u * (4 * 2 + 24));
  EXPECT_EQ(result.events.size(), 3u * 20 * 2);
}

// The launch marker sits on the consumer's own host thread; the producer never declares the
// host process as a device, so the marker is kept on a row the host trace names. Any other slice
// on an undeclared row, and a marker on a device row without that lane, is still dropped.
TEST(BridgeConvertTest, LaunchMarkersOnTheUndeclaredHostRowAreKept) {
  FakeProducer fake;
  fake.devices = {{1, "RBLN 0"}};
  fake.lanes = {{1, 1, "compute"}};
  FakeSlice marker = SliceAt(4321, 4322, RBLN_KINETO_KIND_RUNTIME, 0, 5);
  marker.name = "rbln_run";
  FakeSlice other_runtime = SliceAt(4321, 4322, RBLN_KINETO_KIND_RUNTIME, 0, 5);
  other_runtime.name = "not_a_marker";
  FakeSlice marker_on_device = SliceAt(1, 9, RBLN_KINETO_KIND_RUNTIME, 0, 5);
  marker_on_device.name = "rbln_run";
  FakeSlice compute_on_host = SliceAt(4321, 4322, RBLN_KINETO_KIND_COMPUTE, 0, 5);
  compute_on_host.name = "rbln_run";
  fake.slices = {marker, other_runtime, marker_on_device, compute_on_host,
                 SliceAt(1, 1, RBLN_KINETO_KIND_COMPUTE, 1, 5)};
  BridgeResult result = RunFake(&fake);
  EXPECT_EQ(result.stats.dropped_unknown_row, 3u);
  ASSERT_EQ(result.events.size(), 2u);
  EXPECT_EQ(result.events[0].name, "rbln_run");
  EXPECT_EQ(result.events[0].pid, 4321);
  EXPECT_EQ(result.events[0].tid, 4322);
  EXPECT_EQ(result.processes.size(), 1u);  // the host row is not registered by the bridge
}

TEST(BridgeConvertTest, NullNamesAndNegativeDurationsAreKeptAndCounted) {
  FakeProducer fake;
  fakes::AddStandardRows(&fake);
  FakeSlice unnamed = SliceAt(1, 1, RBLN_KINETO_KIND_COMPUTE, 0, 5);
  unnamed.name = std::nullopt;
  FakeSlice backwards = SliceAt(1, 1, RBLN_KINETO_KIND_COMPUTE, 50, 20);
  fake.slices = {unnamed, backwards};
  BridgeResult result = RunFake(&fake);
  ASSERT_EQ(result.events.size(), 2u);
  EXPECT_EQ(result.events[0].name, "(null)");
  EXPECT_EQ(result.stats.null_names, 1u);
  EXPECT_EQ(result.events[1].ts_ns, kSystemAnchorNs + 50);
  EXPECT_EQ(result.events[1].dur_ns, 0);
  EXPECT_EQ(result.stats.negative_duration, 1u);
}

TEST(BridgeConvertTest, RowsFollowTheAdapterAndDuplicatesAreCounted) {
  FakeProducer fake;
  fake.devices = {{3, "RBLN 1"}, {1, "RBLN 0"}, {1, "again"}, {5, std::nullopt}};
  fake.lanes = {{1, 4, "dma"}, {1, 4, "dma again"}, {9, 1, "no device"}, {3, 0, "compute"}};
  BridgeResult result = RunFake(&fake);
  ASSERT_EQ(result.processes.size(), 3u);
  EXPECT_EQ(result.processes[0].pid, 3);
  EXPECT_EQ(result.processes[0].name, "RBLN 1");
  EXPECT_EQ(result.processes[0].labels, "");
  EXPECT_EQ(result.processes[0].sort_index, 5'000'003);
  EXPECT_EQ(result.processes[2].name, "(null)");
  ASSERT_EQ(result.threads.size(), 2u);
  EXPECT_EQ(result.threads[0].pid, 1);
  EXPECT_EQ(result.threads[0].tid, 4);
  EXPECT_EQ(result.threads[0].sort_index, 4);
  EXPECT_EQ(result.threads[0].name, "dma");
  EXPECT_EQ(result.stats.unsorted_devices, 1u);  // 3 then 1
  EXPECT_EQ(result.stats.duplicate_rows, 2u);
  EXPECT_EQ(result.stats.lanes_unknown_device, 1u);
  EXPECT_EQ(result.stats.null_strings, 1u);
}

TEST(BridgeConvertTest, NullArraysWithCountsAreReadAsEmpty) {
  CopiedExport copy = CopyExport(RblnKinetoExport{nullptr, 2, nullptr, 1, nullptr, 3});
  EXPECT_EQ(copy.null_arrays, 3u);
  BridgeResult result = ConvertExport(copy, ConvertWindow{});
  EXPECT_EQ(result.stats.null_arrays, 3u);
  EXPECT_TRUE(result.events.empty());
}

TEST(BridgeConvertTest, ExtremeTimestampsSaturateInsteadOfOverflowing) {
  CopiedExport copy;
  copy.devices = {{1, "d"}};
  copy.lanes = {{1, 1, "l"}};
  CopiedSlice slice;
  slice.device_pid = 1;
  slice.resource_tid = 1;
  slice.start_steady_ns = INT64_MAX - 1;
  slice.end_steady_ns = INT64_MAX;
  copy.slices = {slice};
  ConvertWindow window{INT64_MAX / 2, 0, INT64_MAX};
  BridgeResult result = ConvertExport(copy, window);
  ASSERT_EQ(result.events.size(), 1u);
  EXPECT_EQ(result.events[0].ts_ns, INT64_MAX);
  EXPECT_EQ(result.events[0].dur_ns, 0);
}

}  // namespace
}  // namespace rblnsim::bridge
