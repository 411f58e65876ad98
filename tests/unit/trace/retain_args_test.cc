#include "profiler/trace/retain_args.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace rblnsim::trace {
namespace {

Event WithArgs(ArgList args) {
  Event event;
  event.name = "e";
  event.args = std::move(args);
  return event;
}

TEST(RetainOnlyArgs, KeepsTheListedKeysInTheirOrderAndCounts) {
  Trace trace;
  // A pooled block, as the bridge and the importer make them, and an owned one.
  auto pool = std::make_shared<ArgPool>();
  ArgListBuilder builder;
  builder.Add("device", ArgValueView(int64_t{100}))
      .Add("launch_id", ArgValueView(int64_t{7}))
      .Add("Input Dims", ArgValueView(RawJsonView{"[[2, 3]]"}))
      .Add("stream", ArgValueView(int64_t{49}));
  trace.events.push_back(WithArgs(builder.Build(pool.get())));
  trace.arg_pools.push_back(pool);
  trace.events.push_back(
      WithArgs(ArgList({{"Input type", std::string("float")}, {"correlation", int64_t{3}}})));
  trace.events.push_back(WithArgs(ArgList()));
  trace.events.push_back(WithArgs(ArgList({{"correlation", int64_t{4}}})));
  const std::weak_ptr<ArgPool> old_pool = pool;
  pool.reset();

  const std::vector<std::string> keys = {"Input type", "launch_id", "Input Dims"};
  const RetainedArgs retained = RetainOnlyArgs(keys, &trace);

  EXPECT_EQ(retained.events_changed, 3u);
  EXPECT_EQ(retained.args_dropped, 4u);
  EXPECT_TRUE(old_pool.expired()) << "the former pools go with the blocks they held";
  ASSERT_EQ(trace.arg_pools.size(), 1u);
  EXPECT_EQ(trace.events[0].args,
            ArgList({{"launch_id", int64_t{7}}, {"Input Dims", RawJson{"[[2, 3]]"}}}));
  EXPECT_EQ(trace.events[1].args, ArgList({{"Input type", std::string("float")}}));
  EXPECT_TRUE(trace.events[2].args.empty());
  EXPECT_TRUE(trace.events[3].args.empty());
  EXPECT_TRUE(trace.events[0].args.pooled());
  EXPECT_EQ(trace.events[0].IntArg("launch_id"), 7);
}

// Keys the process does not intern (longer than kMaxInternedArgKeyBytes) are stored as text and
// matched by it.
TEST(RetainOnlyArgs, MatchesKeysStoredAsText) {
  const std::string long_key(kMaxInternedArgKeyBytes + 6, 'k');
  const std::string other_key(kMaxInternedArgKeyBytes + 6, 'o');
  Trace trace;
  trace.events.push_back(WithArgs(
      ArgList({{other_key, int64_t{1}}, {long_key, int64_t{2}}, {"launch_id", int64_t{3}}})));
  const std::vector<std::string> keys = {long_key};
  const RetainedArgs retained = RetainOnlyArgs(keys, &trace);
  EXPECT_EQ(retained.args_dropped, 2u);
  EXPECT_EQ(trace.events[0].args, ArgList({{long_key, int64_t{2}}}));
}

TEST(RetainOnlyArgs, NoKeysLeavesNoArgs) {
  Trace trace;
  trace.events.push_back(WithArgs(ArgList({{"launch_id", int64_t{1}}})));
  const RetainedArgs retained = RetainOnlyArgs({}, &trace);
  EXPECT_EQ(retained.args_dropped, 1u);
  EXPECT_TRUE(trace.events[0].args.empty());
}

}  // namespace
}  // namespace rblnsim::trace
