#include "profiler/bridge/bridge_result.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "profiler/bridge/json_syntax.h"

namespace rblnsim::bridge {
namespace {

TEST(BridgeResultTest, AppendToMergesRowsWithoutDuplicates) {
  trace::Trace trace;
  trace.processes = {{100, "python3", "CPU", 100}};
  trace.threads = {{100, 100, "thread 100 (python3)", 100}};
  trace.events.resize(1);  // a host op already there

  BridgeResult result;
  result.processes = {{1, "RBLN 0", "", 5'000'001}, {100, "host from producer", "", 5'000'100}};
  result.threads = {{1, 1, "compute", 1}, {100, 100, "main thread", 100}, {100, 7, "worker", 7}};
  result.events.resize(2);
  result.AppendTo(&trace);

  ASSERT_EQ(trace.processes.size(), 2u);
  EXPECT_EQ(trace.FindProcess(100)->name, "python3");  // the host side's row stays
  EXPECT_EQ(trace.FindProcess(1)->name, "RBLN 0");
  ASSERT_EQ(trace.threads.size(), 3u);
  EXPECT_EQ(trace.FindThread(100, 100)->name, "thread 100 (python3)");
  EXPECT_NE(trace.FindThread(100, 7), nullptr);
  EXPECT_EQ(trace.events.size(), 3u);

  // Appending again adds no rows (events are the caller's to append once).
  result.events.clear();
  result.AppendTo(&trace);
  EXPECT_EQ(trace.processes.size(), 2u);
  EXPECT_EQ(trace.threads.size(), 3u);
}

TEST(BridgeResultTest, AppendFromATemporaryMovesTheEventsAndTheRows) {
  trace::Trace trace;
  BridgeResult result;
  result.processes = {{1, "RBLN 0", "", 5'000'001}};
  result.threads = {{1, 1, "compute", 1}};
  result.events.resize(2);
  result.events[0].name = "i0_1_W0_args_0_0 with a long name that cannot be inlined";
  result.events[1].name = "i0_1_W0_mm_0";
  std::move(result).AppendTo(&trace);

  ASSERT_EQ(trace.events.size(), 2u);
  EXPECT_EQ(trace.events[0].name, "i0_1_W0_args_0_0 with a long name that cannot be inlined");
  EXPECT_EQ(trace.events[1].name, "i0_1_W0_mm_0");
  EXPECT_TRUE(result.events.empty());  // NOLINT(bugprone-use-after-move): moved out, by contract
  EXPECT_NE(trace.FindProcess(1), nullptr);
  EXPECT_NE(trace.FindThread(1, 1), nullptr);
}

// The events' args may live in the result's pool: appended from a temporary, the pool goes to
// the trace with them, and they stay readable once the result is gone (under the sanitizers a
// pool left behind is a use after free).
TEST(BridgeResultTest, AppendFromATemporaryHandsTheArgPoolToTheTrace) {
  trace::Trace trace;
  {
    BridgeResult result;
    result.arg_pool = std::make_shared<trace::ArgPool>();
    result.events.resize(1);
    trace::ArgListBuilder args;
    args.Add("correlation", int64_t{42}).Add("note", std::string_view("kept with the trace"));
    result.events[0].args = args.Build(result.arg_pool.get());
    ASSERT_TRUE(result.events[0].args.pooled());
    std::move(result).AppendTo(&trace);
  }
  ASSERT_EQ(trace.arg_pools.size(), 1u);
  ASSERT_EQ(trace.events.size(), 1u);
  EXPECT_EQ(trace.events[0].IntArg("correlation"), 42);
  EXPECT_EQ(std::get<std::string_view>(trace.events[0].FindArg("note")->value),
            "kept with the trace");
}

TEST(BridgeResultTest, StatsAsMetadataIsValidJsonWithEveryCounter) {
  BridgeResult result;
  result.stats.dropped_out_of_window = 4;
  result.stats.flows_started = 2;
  std::vector<std::pair<std::string, trace::RawJson>> metadata = result.StatsAsMetadata();
  ASSERT_EQ(metadata.size(), 1u);
  EXPECT_EQ(metadata[0].first, "rbln_bridge");
  const std::string& json = metadata[0].second.text;
  EXPECT_TRUE(IsValidJsonValue(json)) << json;
  EXPECT_NE(json.find("\"dropped_out_of_window\":4"), std::string::npos) << json;
  EXPECT_NE(json.find("\"flows_started\":2"), std::string::npos);
  for (const auto& [name, value] : result.stats.Counters()) {
    EXPECT_NE(json.find("\"" + name + "\""), std::string::npos) << name;
  }

  result.stats.has_producer_stats = true;
  result.stats.producer = {10, 2, 3, 1, 0, 0};
  metadata = result.StatsAsMetadata();
  ASSERT_EQ(metadata.size(), 2u);
  EXPECT_EQ(metadata[1].first, "rbln_producer");
  EXPECT_TRUE(IsValidJsonValue(metadata[1].second.text));
  EXPECT_NE(metadata[1].second.text.find("\"records_dropped\":2"), std::string::npos);
}

}  // namespace
}  // namespace rblnsim::bridge
