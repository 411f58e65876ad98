#include "profiler/report/key_averages.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace rblnsim::report {
namespace {

// ComputeKeyAverages over a fresh index of |trace|.
// The rows view the trace's names: the trace must outlive them.
KeyAverages KeyAveragesOf(trace::Trace&& trace, Attribution attribution) = delete;
KeyAverages KeyAveragesOf(const trace::Trace& trace, Attribution attribution) {
  auto index = index::TraceIndex::Build(trace);
  EXPECT_TRUE(index.ok());
  return ComputeKeyAverages(*index, attribution);
}

using trace::Category;
using trace::Event;
using trace::Trace;

constexpr int64_t kUs = 1000;

Event MakeEvent(Category category,
                std::string name,
                int64_t pid,
                int64_t tid,
                int64_t ts_ns,
                int64_t dur_ns,
                std::vector<trace::Arg> args = {}) {
  Event event;
  event.category = category;
  event.name = name;
  event.pid = pid;
  event.tid = tid;
  event.ts_ns = ts_ns;
  event.dur_ns = dur_ns;
  event.args = args;
  return event;
}

Event Op(std::string name, int64_t ts_ns, int64_t dur_ns, std::vector<trace::Arg> args = {}) {
  return MakeEvent(Category::kCpuOp, std::move(name), 1, 1, ts_ns, dur_ns, std::move(args));
}

Event Kernel(std::string name, int64_t ts_ns, int64_t dur_ns, std::vector<trace::Arg> args = {}) {
  return MakeEvent(Category::kKernel, std::move(name), 0, 7, ts_ns, dur_ns, std::move(args));
}

Event Marker(int64_t launch_id, int64_t ts_ns, int64_t dur_ns) {
  return MakeEvent(Category::kPrivateUse1Runtime, "rbln_run", 1, 1, ts_ns, dur_ns,
                   {{"launch_id", launch_id}});
}

// Reference §2.6: aten::add launches add_kernel_f32 through rblnLaunchKernel (External id 12).
Trace ExampleTrace() {
  constexpr int64_t kBase = 1743521598000000000;
  Trace trace;
  trace.events = {
      MakeEvent(Category::kCpuOp, "aten::add", 4321, 4321, kBase + 5100000123456, 25000,
                {{"External id", int64_t{12}}, {"Record function id", int64_t{0}}}),
      MakeEvent(Category::kPrivateUse1Runtime, "rblnLaunchKernel", 4321, 4321,
                kBase + 5100000130100, 10000,
                {{"External id", int64_t{12}}, {"correlation", int64_t{3001}}}),
      MakeEvent(Category::kKernel, "add_kernel_f32", 0, 7, kBase + 5100000152300, 12500,
                {{"External id", int64_t{12}}, {"correlation", int64_t{3001}}}),
  };
  return trace;
}

// forward > aten::mm > rbln_run(1) and forward > aten::relu > rbln_run(2); two kernels for
// launch 1, one for launch 2.
Trace LaunchTrace() {
  Trace trace;
  trace.events = {
      MakeEvent(Category::kUserAnnotation, "forward", 1, 1, 0, 100 * kUs),
      Op("aten::mm", 10 * kUs, 50 * kUs),
      Marker(1, 20 * kUs, 10 * kUs),
      Op("aten::relu", 70 * kUs, 20 * kUs),
      Marker(2, 75 * kUs, 5 * kUs),
      Kernel("mm_kernel", 40 * kUs, 5 * kUs, {{"launch_id", int64_t{1}}}),
      Kernel("mm_kernel", 46 * kUs, 7 * kUs, {{"launch_id", int64_t{1}}}),
      Kernel("relu_kernel", 85 * kUs, 3 * kUs, {{"launch_id", int64_t{2}}}),
  };
  return trace;
}

std::string Table(const Trace& trace, const TableOptions& options) {
  StatusOr<std::string> table = FormatKeyAveragesTable(trace, options);
  EXPECT_TRUE(table.ok()) << table.status().message();
  return table.ok() ? *table : std::string();
}

const KeyAverage* FindRow(const std::vector<KeyAverage>& rows, std::string_view name) {
  for (const KeyAverage& row : rows) {
    if (row.name == name)
      return &row;
  }
  return nullptr;
}

TEST(KeyAveragesTable, GoldenReferenceExampleAttributed) {
  TableOptions options;
  options.sort_by = "cpu_time_total";
  options.row_limit = 10;
  options.attribution = Attribution::kAttributed;
  // Reference §3.5, with the two trailing spaces torch prints on every line but the footers.
  // clang-format off
  const std::string expected =
      "--------------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  \n"
      "                Name    Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg     Self RBLN   Self RBLN %    RBLN total  RBLN time avg    # of Calls  \n"
      "--------------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  \n"
      "           aten::add        60.00%      15.000us       100.00%      25.000us      25.000us      12.500us       100.00%      12.500us      12.500us             1  \n"
      "    rblnLaunchKernel        40.00%      10.000us        40.00%      10.000us      10.000us       0.000us         0.00%       0.000us       0.000us             1  \n"
      "      add_kernel_f32         0.00%       0.000us         0.00%       0.000us       0.000us      12.500us       100.00%      12.500us      12.500us             1  \n"
      "--------------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  \n"
      "Self CPU time total: 25.000us\n"
      "Self RBLN time total: 12.500us\n";
  // clang-format on
  EXPECT_EQ(Table(ExampleTrace(), options), expected);
}

TEST(KeyAveragesTable, GoldenReferenceExampleReleased) {
  TableOptions options;
  options.sort_by = "cpu_time_total";
  options.row_limit = 10;
  // clang-format off
  const std::string expected =
      "--------------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  \n"
      "                Name    Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg     Self RBLN   Self RBLN %    RBLN total  RBLN time avg    # of Calls  \n"
      "--------------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  \n"
      "           aten::add        60.00%      15.000us       100.00%      25.000us      25.000us       0.000us         0.00%       0.000us       0.000us             1  \n"
      "    rblnLaunchKernel        40.00%      10.000us        40.00%      10.000us      10.000us       0.000us         0.00%       0.000us       0.000us             1  \n"
      "      add_kernel_f32         0.00%       0.000us         0.00%       0.000us       0.000us      12.500us       100.00%      12.500us      12.500us             1  \n"
      "--------------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  \n"
      "Self CPU time total: 25.000us\n"
      "Self RBLN time total: 12.500us\n";
  // clang-format on
  EXPECT_EQ(Table(ExampleTrace(), options), expected);
}

TEST(KeyAveragesTable, GoldenWithoutDeviceColumns) {
  Trace trace;
  trace.events = {
      Op("aten::matmul", 0, 100 * kUs),    Op("aten::mm", 10 * kUs, 50 * kUs),
      Op("aten::abs", 20 * kUs, 10 * kUs), Op("aten::mm", 200 * kUs, 40 * kUs),
      Kernel("zero_kernel", 300 * kUs, 0),  // a device row, but no device time: no columns
  };
  TableOptions options;
  options.sort_by = "self_cpu_time_total";
  // clang-format off
  const std::string expected =
      "----------------  ------------  ------------  ------------  ------------  ------------  ------------  \n"
      "            Name    Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg    # of Calls  \n"
      "----------------  ------------  ------------  ------------  ------------  ------------  ------------  \n"
      "        aten::mm        57.14%      80.000us        64.29%      90.000us      45.000us             2  \n"
      "    aten::matmul        35.71%      50.000us        71.43%     100.000us     100.000us             1  \n"
      "       aten::abs         7.14%      10.000us         7.14%      10.000us      10.000us             1  \n"
      "     zero_kernel         0.00%       0.000us         0.00%       0.000us       0.000us             1  \n"
      "----------------  ------------  ------------  ------------  ------------  ------------  ------------  \n"
      "Self CPU time total: 140.000us\n";
  // clang-format on
  EXPECT_EQ(Table(trace, options), expected);
}

TEST(KeyAveragesTable, AttributedModeChargesTheLaunchingOp) {
  TableOptions options;
  options.attribution = Attribution::kAttributed;
  AttributionStats stats;
  StatusOr<std::string> table = FormatKeyAveragesTable(LaunchTrace(), options, &stats);
  ASSERT_TRUE(table.ok());
  // clang-format off
  const std::string expected =
      "---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  \n"
      "           Name    Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg     Self RBLN   Self RBLN %    RBLN total  RBLN time avg    # of Calls  \n"
      "---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  \n"
      "        forward        30.00%      30.000us       100.00%     100.000us     100.000us       0.000us         0.00%      15.000us      15.000us             1  \n"
      "       aten::mm        50.00%      50.000us        50.00%      50.000us      50.000us      12.000us        80.00%      12.000us      12.000us             1  \n"
      "      mm_kernel         0.00%       0.000us         0.00%       0.000us       0.000us      12.000us        80.00%      12.000us       6.000us             2  \n"
      "     aten::relu        20.00%      20.000us        20.00%      20.000us      20.000us       3.000us        20.00%       3.000us       3.000us             1  \n"
      "    relu_kernel         0.00%       0.000us         0.00%       0.000us       0.000us       3.000us        20.00%       3.000us       3.000us             1  \n"
      "---------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  \n"
      "Self CPU time total: 100.000us\n"
      "Self RBLN time total: 15.000us\n";
  // clang-format on
  EXPECT_EQ(*table, expected);
  EXPECT_EQ(stats.device_events, 3);
  EXPECT_EQ(stats.attributed, 3);
  EXPECT_EQ(stats.unattributed(), 0);

  // Every device ns lands on exactly one CPU op: their Self RBLN adds up to the footer.
  const trace::Trace trace = LaunchTrace();
  const KeyAverages averages = KeyAveragesOf(trace, Attribution::kAttributed);
  int64_t cpu_self_device_ns = 0;
  int64_t device_rows_ns = 0;
  for (const KeyAverage& row : averages.rows) {
    (row.is_device ? device_rows_ns : cpu_self_device_ns) += row.self_device_ns;
  }
  EXPECT_EQ(cpu_self_device_ns, 15 * kUs);
  EXPECT_EQ(device_rows_ns, 15 * kUs);
}

// Host rows alone: the same rows, counts and device times as the full table's host rows.
TEST(KeyAveragesTable, HostOnlyRowsAreTheFullTablesHostRows) {
  const Trace trace = LaunchTrace();  // the index views it: it must outlive the index
  auto index = index::TraceIndex::Build(trace);
  ASSERT_TRUE(index.ok());
  const KeyAverages all = ComputeKeyAverages(*index, Attribution::kAttributed);
  const KeyAverages host =
      ComputeKeyAverages(*index, Attribution::kAttributed, KeyAverageRows::kHostOnly);
  std::vector<const KeyAverage*> expected;
  for (const KeyAverage& row : all.rows) {
    if (!row.is_device)
      expected.push_back(&row);
  }
  ASSERT_EQ(host.rows.size(), expected.size());
  ASSERT_LT(host.rows.size(), all.rows.size());  // the trace has device rows to leave out
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(host.rows[i].name, expected[i]->name);
    EXPECT_EQ(host.rows[i].count, expected[i]->count);
    EXPECT_EQ(host.rows[i].self_cpu_ns, expected[i]->self_cpu_ns);
    EXPECT_EQ(host.rows[i].cpu_total_ns, expected[i]->cpu_total_ns);
    EXPECT_EQ(host.rows[i].self_device_ns, expected[i]->self_device_ns);
    EXPECT_EQ(host.rows[i].device_total_ns, expected[i]->device_total_ns);
  }
  EXPECT_EQ(host.stats.attributed, all.stats.attributed);
}

TEST(KeyAveragesTable, ReleasedModeLeavesCpuRowsWithoutDeviceTime) {
  const trace::Trace trace = LaunchTrace();
  const KeyAverages averages = KeyAveragesOf(trace, Attribution::kReleased);
  for (const KeyAverage& row : averages.rows) {
    if (!row.is_device) {
      EXPECT_EQ(row.self_device_ns, 0) << row.name;
      EXPECT_EQ(row.device_total_ns, 0) << row.name;
    }
  }
  const KeyAverage* kernel = FindRow(averages.rows, "mm_kernel");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->count, 2);
  EXPECT_EQ(kernel->self_device_ns, 12 * kUs);
  EXPECT_EQ(kernel->device_total_ns, 12 * kUs);
  EXPECT_EQ(averages.stats.device_events, 3);
  EXPECT_EQ(averages.stats.attributed, 0);
  EXPECT_EQ(averages.stats.unattributed(), 0);
}

TEST(KeyAveragesTable, UnattributedDeviceEventsAreCounted) {
  Trace trace = LaunchTrace();
  trace.events.push_back(Kernel("lost", 90 * kUs, kUs, {{"launch_id", int64_t{99}}}));
  trace.events.push_back(Marker(3, 150 * kUs, kUs));  // outside every op
  trace.events.push_back(Kernel("orphan", 160 * kUs, kUs, {{"launch_id", int64_t{3}}}));
  trace.events.push_back(Kernel("nolink", 170 * kUs, kUs));
  const KeyAverages averages = KeyAveragesOf(trace, Attribution::kAttributed);
  EXPECT_EQ(averages.stats.device_events, 6);
  EXPECT_EQ(averages.stats.attributed, 3);
  EXPECT_EQ(averages.stats.missing_marker, 1);
  EXPECT_EQ(averages.stats.no_enclosing_op, 1);
  EXPECT_EQ(averages.stats.unlinked, 1);
  EXPECT_EQ(averages.stats.unattributed(), 3);
}

TEST(KeyAveragesTable, SortByAndRowLimit) {
  const trace::Trace trace = LaunchTrace();
  const KeyAverages averages = KeyAveragesOf(trace, Attribution::kAttributed);
  const auto names = [](const std::vector<KeyAverage>& rows) {
    std::vector<std::string> out;
    for (const KeyAverage& row : rows)
      out.emplace_back(row.name);
    return out;
  };
  struct Case {
    std::string sort_by;
    std::vector<std::string> order;
  };
  // The rbln_run markers are no rows (they are runtime events, not CPU ops).
  const Case cases[] = {
      {"cpu_time_total", {"forward", "aten::mm", "aten::relu", "mm_kernel", "relu_kernel"}},
      {"self_cpu_time_total", {"aten::mm", "forward", "aten::relu", "mm_kernel", "relu_kernel"}},
      {"cpu_time", {"forward", "aten::mm", "aten::relu", "mm_kernel", "relu_kernel"}},
      {"self_cuda_time_total", {"aten::mm", "mm_kernel", "aten::relu", "relu_kernel", "forward"}},
      {"privateuse1_time_total", {"forward", "aten::mm", "mm_kernel", "aten::relu", "relu_kernel"}},
      {"xpu_time", {"forward", "aten::mm", "mm_kernel", "aten::relu", "relu_kernel"}},
      {"count", {"mm_kernel", "forward", "aten::mm", "aten::relu", "relu_kernel"}},
  };
  for (const Case& c : cases) {
    std::vector<KeyAverage> rows = averages.rows;
    ASSERT_TRUE(SortKeyAverages(c.sort_by, &rows).ok()) << c.sort_by;
    EXPECT_EQ(names(rows), c.order) << c.sort_by;
  }

  std::vector<KeyAverage> rows = averages.rows;
  const Status bad = SortKeyAverages("self_rbln_time_total", &rows);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("'self_rbln_time_total'"), std::string::npos);
  TableOptions options;
  options.sort_by = "bogus";
  EXPECT_FALSE(FormatKeyAveragesTable(LaunchTrace(), options).ok());

  // row_limit counts printed rows: 3 header lines + rows + separator + 2 footers.
  const auto line_count = [](const std::string& text) {
    return std::count(text.begin(), text.end(), '\n');
  };
  options.sort_by = "count";
  options.row_limit = 2;
  const std::string limited = Table(LaunchTrace(), options);
  EXPECT_EQ(line_count(limited), 3 + 2 + 1 + 2);
  EXPECT_NE(limited.find("      mm_kernel"), std::string::npos);
  EXPECT_NE(limited.find("        forward"), std::string::npos);
  EXPECT_EQ(limited.find("aten::mm"), std::string::npos);
  options.row_limit = 0;
  EXPECT_EQ(line_count(Table(LaunchTrace(), options)), 3 + 0 + 1 + 2);
  options.row_limit = -1;
  EXPECT_EQ(line_count(Table(LaunchTrace(), options)), 3 + 5 + 1 + 2);
}

TEST(KeyAveragesTable, DuplicateNodesFoldIntoTheirParent) {
  Trace trace;
  trace.events = {
      Op("aten::to", 0, 100 * kUs),  // its only child has the same name: folded
      Op("aten::to", 10 * kUs, 80 * kUs),    Op("aten::copy_", 20 * kUs, 30 * kUs),
      Op("aten::add", 200 * kUs, 100 * kUs),  // two same-name children: no folding
      Op("aten::add", 210 * kUs, 10 * kUs),  Op("aten::add", 230 * kUs, 10 * kUs),
  };
  const KeyAverages averages = KeyAveragesOf(trace, Attribution::kReleased);
  const KeyAverage* to = FindRow(averages.rows, "aten::to");
  ASSERT_NE(to, nullptr);
  EXPECT_EQ(to->count, 1);
  EXPECT_EQ(to->cpu_total_ns, 100 * kUs);
  EXPECT_EQ(to->self_cpu_ns, 70 * kUs);  // 100 - aten::copy_ (now a direct child)
  const KeyAverage* add = FindRow(averages.rows, "aten::add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->count, 3);
  EXPECT_EQ(add->cpu_total_ns, 120 * kUs);
  EXPECT_EQ(add->self_cpu_ns, 100 * kUs);
}

TEST(KeyAveragesTable, FoldingLiftsTheChildsKernels) {
  Trace trace;
  trace.events = {
      Op("aten::mm", 0, 100 * kUs),
      Op("aten::mm", 10 * kUs, 50 * kUs),
      Marker(1, 20 * kUs, 10 * kUs),
      Kernel("mm_kernel", 40 * kUs, 5 * kUs, {{"launch_id", int64_t{1}}}),
  };
  const KeyAverages averages = KeyAveragesOf(trace, Attribution::kAttributed);
  const KeyAverage* mm = FindRow(averages.rows, "aten::mm");
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(mm->count, 1);
  // The folded child's only child was the marker, which is no CPU op: nothing is subtracted.
  EXPECT_EQ(mm->self_cpu_ns, 100 * kUs);
  EXPECT_EQ(mm->self_device_ns, 5 * kUs);
}

TEST(KeyAveragesTable, AMarkerStickingOutOfItsOpDoesNotCutTheTree) {
  Trace trace;
  trace.events = {
      Op("outer", 0, 100 * kUs),
      Marker(1, 80 * kUs, 30 * kUs),  // ends after outer: encloses nothing, pops nothing
      Op("inner", 90 * kUs, 5 * kUs),
      Kernel("k", 120 * kUs, 2 * kUs, {{"launch_id", int64_t{1}}}),
  };
  const KeyAverages averages = KeyAveragesOf(trace, Attribution::kAttributed);
  ASSERT_NE(FindRow(averages.rows, "outer"), nullptr);
  EXPECT_EQ(FindRow(averages.rows, "outer")->self_cpu_ns, 95 * kUs);
  EXPECT_EQ(FindRow(averages.rows, "rbln_run"), nullptr);
  // Not held whole by any op, so its kernel has no launching op.
  EXPECT_EQ(averages.stats.no_enclosing_op, 1);
}

TEST(KeyAveragesTable, TreeFollowsContainmentPerThread) {
  Trace trace;
  trace.events = {
      Op("outer", 0, 100 * kUs),
      Op("partial", 90 * kUs, 20 * kUs),   // sticks out of outer: no relation
      Op("same_end", 50 * kUs, 50 * kUs),  // ends with outer: a child ([s,e) inside)
      MakeEvent(Category::kCpuOp, "other_thread", 1, 2, 10 * kUs, 10 * kUs),
      MakeEvent(Category::kPythonFunction, "py", 1, 1, 60 * kUs, 10 * kUs),
      Op("aten::is_leaf", 70 * kUs, 5 * kUs),  // filtered like torch's _filter_name
  };
  trace.events.push_back(trace.events[0]);
  trace.events.back().phase = trace::Phase::kInstant;  // instants are not table rows
  const KeyAverages averages = KeyAveragesOf(trace, Attribution::kReleased);
  ASSERT_EQ(averages.rows.size(), 5u);
  EXPECT_EQ(FindRow(averages.rows, "aten::is_leaf"), nullptr);
  EXPECT_EQ(FindRow(averages.rows, "outer")->self_cpu_ns, 50 * kUs);
  EXPECT_EQ(FindRow(averages.rows, "outer")->count, 1);
  EXPECT_EQ(FindRow(averages.rows, "same_end")->self_cpu_ns, 40 * kUs);
  EXPECT_EQ(FindRow(averages.rows, "partial")->self_cpu_ns, 20 * kUs);
}

// The table selects the rows it prints instead of sorting them all; what it prints must be what
// a stable sort of every row prints, ties in first-appearance order included.
TEST(KeyAveragesTable, SelectedRowsAreTheStablySortedOnes) {
  Trace trace;
  const int64_t durations_us[] = {10, 20, 10, 30, 20, 10, 30, 5, 20, 10};
  int64_t ts_ns = 0;
  for (size_t i = 0; i < std::size(durations_us); ++i) {
    const std::string name = "op" + std::to_string(i % 7);  // names repeat: counts differ
    trace.events.push_back(Op(name, ts_ns, durations_us[i] * kUs));
    trace.events.push_back(
        Kernel("k" + std::to_string(i % 4), ts_ns + kUs, durations_us[(i + 3) % 10] * kUs));
    ts_ns += 100 * kUs;
  }
  const KeyAverages averages = KeyAveragesOf(trace, Attribution::kReleased);
  ASSERT_EQ(averages.rows.size(), 11u);
  for (const char* sort_by :
       {"cpu_time_total", "self_cpu_time_total", "cpu_time", "device_time_total",
        "self_device_time_total", "device_time", "count"}) {
    for (const int row_limit : {-1, 0, 1, 2, 3, 5, 10, 11, 12}) {
      TableOptions options;
      options.sort_by = sort_by;
      options.row_limit = row_limit;
      std::vector<KeyAverage> sorted = averages.rows;
      ASSERT_TRUE(SortKeyAverages(sort_by, &sorted).ok());
      EXPECT_EQ(Table(trace, options), RenderKeyAveragesTable(sorted, options))
          << sort_by << " row_limit " << row_limit;
    }
  }
}

// Ordered alike by a CPU key (or not at all), only the first row_limit packed device rows can be
// printed: the others are summed, never made. The table must be the one every row gives, names
// longer than any printed one and device time past the limit included.
TEST(KeyAveragesTable, PackedRowsPastTheLimitAreSummedNotMade) {
  Trace trace;
  for (int i = 0; i < 200; ++i) {
    trace.events.push_back(Op(i % 3 == 0 ? "aten::add" : "aten::mm", i * 100 * kUs, 10 * kUs));
    const std::string name = i == 150 ? std::string(40, 'k') + "_long" : "i" + std::to_string(i);
    trace.events.push_back(Kernel(name, i * 100 * kUs + kUs, (i % 7 + 1) * kUs));
  }
  trace.events.push_back(MakeEvent(Category::kGpuUserAnnotation, "region", 0, 7, 0, 6 * kUs));
  trace.events.push_back(Kernel("i120", 30'000 * kUs, 9 * kUs));  // a later call of one name
  for (const Attribution attribution : {Attribution::kReleased, Attribution::kAttributed}) {
    const KeyAverages averages = KeyAveragesOf(trace, attribution);
    for (const char* sort_by : {"", "cpu_time_total", "self_cpu_time_total", "cpu_time",
                                "self_cuda_time_total", "device_time_total", "count"}) {
      for (const int row_limit : {-1, 0, 1, 3, 10}) {
        TableOptions options;
        options.sort_by = sort_by;
        options.row_limit = row_limit;
        options.attribution = attribution;
        std::vector<KeyAverage> sorted = averages.rows;
        if (*sort_by != '\0') {
          ASSERT_TRUE(SortKeyAverages(sort_by, &sorted).ok());
        }
        EXPECT_EQ(Table(trace, options), RenderKeyAveragesTable(sorted, options))
            << sort_by << " row_limit " << row_limit;
      }
    }
  }
  auto index = index::TraceIndex::Build(trace);
  ASSERT_TRUE(index.ok());
  const KeyAverageRowSet rows =
      ComputeKeyAverageRows(*index, Attribution::kReleased, KeyAverageRows::kAll, 2);
  ASSERT_EQ(rows.device.size(), 2u);
  int64_t beyond_ns = 0;
  for (const Event& event : trace.events) {
    if (event.category == Category::kKernel && event.name != "i0" && event.name != "i1")
      beyond_ns += event.dur_ns;
  }
  EXPECT_EQ(rows.beyond.self_device_ns, beyond_ns);
  EXPECT_TRUE(rows.beyond.any_self_device);
  EXPECT_EQ(rows.beyond.longest_name, 45u);
  const KeyAverageRowSet all = ComputeKeyAverageRows(*index, Attribution::kReleased);
  EXPECT_EQ(all.device.size(), 200u);
  EXPECT_EQ(all.beyond.self_device_ns, 0);
}

// Device events come in torch's order in most traces (read in place) and out of it in others
// (listed and sorted): both give the same table.
TEST(KeyAveragesTable, DeviceEventsInOrOutOfTraceOrderGiveOneTable) {
  Trace in_order;
  for (int i = 0; i < 50; ++i) {
    in_order.events.push_back(Op(i % 2 == 0 ? "aten::mm" : "aten::add", i * 100 * kUs, 20 * kUs));
    in_order.events.push_back(
        Kernel("k" + std::to_string(i % 5), i * 100 * kUs + kUs, (i % 3 + 1) * kUs));
  }
  Trace shuffled = in_order;
  std::reverse(shuffled.events.begin(), shuffled.events.end());
  for (const Attribution attribution : {Attribution::kReleased, Attribution::kAttributed}) {
    for (const char* sort_by : {"", "self_device_time_total", "count"}) {
      TableOptions options;
      options.sort_by = sort_by;
      options.row_limit = 4;
      options.attribution = attribution;
      EXPECT_EQ(Table(in_order, options), Table(shuffled, options)) << sort_by;
    }
  }
}

// A row per distinct device name: plain device rows are packed (16 bytes, not a KeyAverage),
// GPU annotations and host rows are not, and the order of first appearance survives the split.
TEST(KeyAveragesTable, PlainDeviceRowsArePacked) {
  static_assert(sizeof(KeyAverageRowSet::DeviceRow) == 16);
  Trace trace;
  for (int i = 0; i < 1000; ++i) {
    trace.events.push_back(Op("aten::mm", i * 100 * kUs, 10 * kUs));
    trace.events.push_back(Kernel("i" + std::to_string(i) + "_mm", i * 100 * kUs + kUs, kUs));
  }
  trace.events.push_back(MakeEvent(Category::kGpuUserAnnotation, "region", 0, 7, 0, 6 * kUs));
  trace.events.push_back(Kernel("i3_mm", 500 * kUs, 2 * kUs));  // a second call of one name
  auto index = index::TraceIndex::Build(trace);
  ASSERT_TRUE(index.ok());
  const KeyAverageRowSet rows = ComputeKeyAverageRows(*index, Attribution::kReleased);
  EXPECT_EQ(rows.full.size(), 2u);  // aten::mm and the GPU annotation
  EXPECT_EQ(rows.device.size(), 1000u);
  ASSERT_EQ(rows.size(), 1002u);
  std::vector<KeyAverage> unpacked;
  rows.ForEach([&](const KeyAverage& row) { unpacked.push_back(row); });
  const KeyAverages averages = ComputeKeyAverages(*index, Attribution::kReleased);
  ASSERT_EQ(averages.rows.size(), unpacked.size());
  // torch's (start, -end) order: the op that ends last first, then the annotation, then the
  // first kernel; the packed rows sit between the full ones where they first appeared.
  EXPECT_EQ(unpacked[0].name, "aten::mm");
  EXPECT_EQ(unpacked[1].name, "region");
  EXPECT_EQ(unpacked[2].name, "i0_mm");
  EXPECT_EQ(unpacked[1001].name, "i999_mm");
  for (size_t i = 0; i < unpacked.size(); ++i) {
    EXPECT_EQ(unpacked[i].name, averages.rows[i].name) << i;
    EXPECT_EQ(unpacked[i].count, averages.rows[i].count) << i;
  }
  const KeyAverage* i3 = FindRow(averages.rows, "i3_mm");
  ASSERT_NE(i3, nullptr);
  EXPECT_TRUE(i3->is_device);
  EXPECT_FALSE(i3->is_user_annotation);
  EXPECT_EQ(i3->count, 2);
  EXPECT_EQ(i3->self_device_ns, 3 * kUs);
  EXPECT_EQ(i3->device_total_ns, 3 * kUs);
  EXPECT_EQ(i3->cpu_total_ns, 0);
}

TEST(KeyAveragesTable, RowsSplitByDeviceAndAnnotationAndMergeProfilerSteps) {
  Trace trace;
  trace.events = {
      MakeEvent(Category::kUserAnnotation, "step", 1, 1, 0, 10 * kUs),
      Op("step", 20 * kUs, 10 * kUs),
      MakeEvent(Category::kUserAnnotation, "ProfilerStep#1", 1, 1, 40 * kUs, 10 * kUs),
      MakeEvent(Category::kUserAnnotation, "ProfilerStep#2", 1, 1, 60 * kUs, 10 * kUs),
      Kernel("step", 0, 4 * kUs),
      MakeEvent(Category::kGpuUserAnnotation, "step", 0, 7, 0, 6 * kUs),
  };
  const KeyAverages averages = KeyAveragesOf(trace, Attribution::kReleased);
  ASSERT_EQ(averages.rows.size(), 5u);
  EXPECT_EQ(averages.rows[4].name, "ProfilerStep*");
  EXPECT_EQ(averages.rows[4].count, 2);
  // The GPU annotation has device time (so columns show) but stays out of the footer.
  const std::string table = RenderKeyAveragesTable(averages.rows, TableOptions{});
  EXPECT_NE(table.find("Self RBLN time total: 4.000us\n"), std::string::npos) << table;
}

TEST(KeyAveragesTable, LongAndNonAsciiNames) {
  const std::string long_name(60, 'n');
  Trace trace;
  trace.events = {Op(long_name, 0, kUs), Op("한국어_op", 10 * kUs, kUs)};
  const std::string table = Table(trace, TableOptions{});
  EXPECT_NE(table.find("\n" + std::string(52, 'n') + "...  "), std::string::npos) << table;
  EXPECT_EQ(table.find(std::string(53, 'n')), std::string::npos);
  EXPECT_EQ(table.substr(0, 57), std::string(55, '-') + "  ");
  // Padding counts code points like Python's len(): 55 - 6 = 49 spaces.
  EXPECT_NE(table.find("\n" + std::string(49, ' ') + "한국어_op  "), std::string::npos);

  TableOptions device;
  device.device_name = "npu";
  trace.events.push_back(Kernel("k", 20 * kUs, kUs));
  EXPECT_NE(Table(trace, device).find("Self NPU time total: 1.000us"), std::string::npos);
  EXPECT_EQ(Table(Trace{}, TableOptions{}), "");
}

TEST(KeyAveragesFormat, TimeBoundaries) {
  EXPECT_EQ(FormatTime(0.0), "0.000us");
  EXPECT_EQ(FormatTime(999.999), "999.999us");
  EXPECT_EQ(FormatTime(1000.0), "1.000ms");
  EXPECT_EQ(FormatTime(999999.0), "999.999ms");
  EXPECT_EQ(FormatTime(1000000.0), "1.000s");
  EXPECT_EQ(FormatTime(4335000.0), "4.335s");
  EXPECT_EQ(FormatTime(-2.5), "-2.500us");
  EXPECT_EQ(FormatTimeShare(15.0, 25.0), "60.00%");
  EXPECT_EQ(FormatTimeShare(25.0, 15.0), "166.67%");
  EXPECT_EQ(FormatTimeShare(0.0, 0.0), "NaN");

  // The same boundaries through the table, from integer ns.
  Trace trace;
  trace.events = {Op("a", 0, 999999), Op("b", 2'000'000, 1'000'000),
                  Op("c", 10'000'000, 1'000'000'000)};
  const std::string table = Table(trace, TableOptions{});
  EXPECT_NE(table.find("   999.999us"), std::string::npos) << table;
  EXPECT_NE(table.find("     1.000ms"), std::string::npos);
  EXPECT_NE(table.find("      1.000s"), std::string::npos);
  EXPECT_NE(table.find("Self CPU time total: 1.002s\n"), std::string::npos);
}

}  // namespace
}  // namespace rblnsim::report
