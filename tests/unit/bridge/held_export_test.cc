// The sink holds a compact copy of the export and converts it once the producer has let go of
// its own (HeldExport + ConvertHeldExport); a whole copy converted (CopyExport + ConvertExport)
// must give the same rows, events, flows and counters, over an export with every irregularity
// the converter counts, and over one long enough that the copy gives its pages back as it goes.
#include "profiler/bridge/held_export.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "profiler/bridge/export_copy.h"
#include "profiler/bridge/slice_converter.h"

namespace rblnsim::bridge {
namespace {

void ExpectSameResult(const BridgeResult& sliced, const BridgeResult& whole) {
  ASSERT_EQ(sliced.processes.size(), whole.processes.size());
  for (size_t i = 0; i < whole.processes.size(); ++i) {
    EXPECT_EQ(sliced.processes[i].pid, whole.processes[i].pid);
    EXPECT_EQ(sliced.processes[i].name, whole.processes[i].name);
    EXPECT_EQ(sliced.processes[i].sort_index, whole.processes[i].sort_index);
  }
  ASSERT_EQ(sliced.threads.size(), whole.threads.size());
  for (size_t i = 0; i < whole.threads.size(); ++i) {
    EXPECT_EQ(sliced.threads[i].pid, whole.threads[i].pid);
    EXPECT_EQ(sliced.threads[i].tid, whole.threads[i].tid);
    EXPECT_EQ(sliced.threads[i].name, whole.threads[i].name);
  }
  ASSERT_EQ(sliced.events.size(), whole.events.size());
  for (size_t i = 0; i < whole.events.size(); ++i) {
    SCOPED_TRACE(i);
    const trace::Event& a = sliced.events[i];
    const trace::Event& b = whole.events[i];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.category, b.category);
    EXPECT_EQ(a.pid, b.pid);
    EXPECT_EQ(a.tid, b.tid);
    EXPECT_EQ(a.ts_ns, b.ts_ns);
    EXPECT_EQ(a.dur_ns, b.dur_ns);
    EXPECT_EQ(a.flow_id, b.flow_id);
    EXPECT_EQ(a.flow_role, b.flow_role);
    EXPECT_TRUE(a.args == b.args);
  }
  EXPECT_EQ(sliced.stats.Counters(), whole.stats.Counters());
}

TEST(HeldExportTest, ConvertingTheHeldCopyEqualsConvertingAWholeCopy) {
  // Texts long enough to leave the pool's first block, and pointers repeated across slices (the
  // pool's memo must not hand one slice's copy to the next once the piece is reset).
  const std::string long_name(100'000, 'n');
  const std::vector<std::string> names = {"rbln_run", "i1_0_W0_mm_0", "i1_0_W0_args_0_0",
                                          long_name};
  const char* categories[] = {"runtime", nullptr, "compute"};
  std::vector<std::string> launch_ids;
  for (int i = 0; i < 40; ++i)
    launch_ids.push_back(std::to_string(i / 3));
  std::vector<RblnKinetoAnnotation> annotations;
  for (const std::string& id : launch_ids)
    annotations.push_back({"launch_id", id.c_str(), 0});
  RblnKinetoAnnotation odd[] = {{nullptr, "1", 0}, {"note", nullptr, 1}, {"raw", "{bad", 0}};

  RblnKinetoDevice devices[] = {{1, "rbln0"}, {2, nullptr}, {1, "rbln0 again"}};
  RblnKinetoLane lanes[] = {{1, 10, "queue"}, {1, 11, "dma"}, {2, 20, nullptr}, {9, 90, "lost"}};
  std::vector<RblnKinetoSlice> slices;
  const int32_t kinds[] = {RBLN_KINETO_KIND_RUNTIME, RBLN_KINETO_KIND_COMPUTE, RBLN_KINETO_KIND_DMA,
                           RBLN_KINETO_KIND_SYNC, 77};
  for (int i = 0; i < 40; ++i) {
    RblnKinetoSlice s{};
    s.device_pid = i % 7 == 6 ? 5 : 1;  // now and then a slice on a row never declared
    s.resource_tid = i % 2 == 0 ? 10 : 11;
    s.name = i % 11 == 10 ? nullptr : names[i % names.size()].c_str();
    std::memcpy(&s.kind, &kinds[i % 5], sizeof(s.kind));
    s.start_steady_ns = 1'000 * i - (i == 3 ? 1'000'000 : 0);  // one slice before the window
    s.end_steady_ns = i == 4 ? s.start_steady_ns - 5 : s.start_steady_ns + 500;
    s.categories = i % 4 == 0 ? categories : nullptr;
    s.categories_count = i % 4 == 0 ? 3 : (i % 13 == 12 ? 2 : 0);  // a null array with a count
    s.annotations = i % 9 == 8 ? odd : &annotations[i];
    s.annotations_count = i % 9 == 8 ? 3 : 1;
    s.corr_id = i / 3;
    slices.push_back(s);
  }
  RblnKinetoExport exp{devices, 3, lanes, 4, slices.data(), static_cast<uint32_t>(slices.size())};
  ConvertWindow window;
  window.offset_ns = 7;
  window.capture_start_ns = 0;
  window.capture_end_ns = 35'000;

  const BridgeResult whole = ConvertExport(CopyExport(exp), window);
  const BridgeResult sliced = ConvertHeldExport(HeldExport::Hold(exp), window);
  // The export exercises what it means to.
  EXPECT_GT(whole.stats.dropped_unknown_row, 0u);
  EXPECT_GT(whole.stats.dropped_out_of_window, 0u);
  EXPECT_GT(whole.stats.null_arrays, 0u);
  EXPECT_GT(whole.stats.null_names, 0u);
  EXPECT_GT(whole.events.size(), 20u);
  ExpectSameResult(sliced, whole);

  // A null slice array with a count is read as empty the same way.
  RblnKinetoExport no_slices{devices, 3, lanes, 4, nullptr, 5};
  ExpectSameResult(ConvertHeldExport(HeldExport::Hold(no_slices), window),
                   ConvertExport(CopyExport(no_slices), window));
}

// Slices of distinct names and times, sharing annotations by launch as the producer does, over
// many release steps: a page given back too early would turn an unconverted slice into zeros.
TEST(HeldExportTest, ALongExportDrainsIntoTheSameEventsAsAWholeCopy) {
  constexpr int kSlices = 300'000;
  std::vector<std::string> names;
  std::vector<std::string> launch_ids;
  names.reserve(kSlices);
  launch_ids.reserve(kSlices / 6 + 1);
  for (int i = 0; i < kSlices; ++i)
    names.push_back("i1_" + std::to_string(i / 6) + "_W0_mm_" + std::to_string(i % 6));
  for (int i = 0; i <= kSlices / 6; ++i)
    launch_ids.push_back(std::to_string(i + 1));
  std::vector<RblnKinetoAnnotation> annotations;
  annotations.reserve(launch_ids.size());
  for (const std::string& id : launch_ids)
    annotations.push_back({"launch_id", id.c_str(), 0});
  const char* dma[] = {"Neural DMA", "chiplet 0"};
  const char* compute[] = {"Neural Engine Clusters", "chiplet 0"};
  RblnKinetoDevice devices[] = {{100, "rbln0"}};
  RblnKinetoLane lanes[] = {{100, 1, "compute"}, {100, 9, "dma"}};
  std::vector<RblnKinetoSlice> slices(kSlices);
  for (int i = 0; i < kSlices; ++i) {
    RblnKinetoSlice& s = slices[i];
    const bool is_dma = i % 2 == 0;
    s.device_pid = 100;
    s.resource_tid = is_dma ? 9 : 1;
    s.name = names[i].c_str();
    s.categories = is_dma ? dma : compute;
    s.categories_count = 2;
    s.start_steady_ns = 10 * int64_t{i};
    s.end_steady_ns = 10 * int64_t{i} + 7;
    s.annotations = &annotations[i / 6];
    s.annotations_count = 1;
    s.corr_id = i / 6 + 1;
    const int32_t kind = is_dma ? RBLN_KINETO_KIND_DMA : RBLN_KINETO_KIND_COMPUTE;
    std::memcpy(&s.kind, &kind, sizeof(kind));
  }
  const RblnKinetoExport exp{devices, 1, lanes, 2, slices.data(), kSlices};
  ConvertWindow window;
  window.capture_end_ns = 10 * int64_t{kSlices};
  HeldExport held = HeldExport::Hold(exp);
  EXPECT_EQ(held.slice_count(), static_cast<size_t>(kSlices));
  const BridgeResult whole = ConvertExport(CopyExport(exp), window);
  ASSERT_EQ(whole.events.size(), static_cast<size_t>(kSlices));
  ExpectSameResult(ConvertHeldExport(std::move(held), window), whole);
}

// Slices take turns on a dozen or so category sets (a chiplet's engine types) and share their
// launch's annotations: each array is copied once, wherever the producer's allocator put it.
// Sets a few bytes apart, and a hundred launches' annotations passing through meanwhile, must
// not make two sets displace each other.
TEST(HeldExportTest, EachArrayTheSlicesShareIsCopiedOnce) {
  constexpr int kSets = 16;
  constexpr int kLaunches = 400;
  constexpr int kSlicesPerLaunch = 6;
  std::vector<std::string> set_names;
  for (int i = 0; i < kSets; ++i)
    set_names.push_back("engine " + std::to_string(i));
  // One array holds every set, adjacent, as one small allocation each would often be.
  std::vector<const char*> sets(2 * kSets);
  for (int i = 0; i < kSets; ++i) {
    sets[2 * i] = set_names[i].c_str();
    sets[2 * i + 1] = "chiplet 0";
  }
  std::vector<std::string> launch_ids;
  for (int i = 0; i < kLaunches; ++i)
    launch_ids.push_back(std::to_string(i + 1));
  std::vector<RblnKinetoAnnotation> annotations;
  for (const std::string& id : launch_ids)
    annotations.push_back({"launch_id", id.c_str(), 0});
  RblnKinetoDevice devices[] = {{100, "rbln0"}};
  RblnKinetoLane lanes[] = {{100, 1, "compute"}};
  std::vector<RblnKinetoSlice> slices(kLaunches * kSlicesPerLaunch);
  for (size_t i = 0; i < slices.size(); ++i) {
    RblnKinetoSlice& s = slices[i];
    s.device_pid = 100;
    s.resource_tid = 1;
    s.name = "i1_0_W0_mm_0";
    s.categories = &sets[2 * ((i * 5) % kSets)];
    s.categories_count = 2;
    s.start_steady_ns = 10 * static_cast<int64_t>(i);
    s.end_steady_ns = s.start_steady_ns + 5;
    s.annotations = &annotations[i / kSlicesPerLaunch];
    s.annotations_count = 1;
    s.corr_id = static_cast<int64_t>(i / kSlicesPerLaunch) + 1;
    const int32_t kind = RBLN_KINETO_KIND_COMPUTE;
    std::memcpy(&s.kind, &kind, sizeof(kind));
  }
  const RblnKinetoExport exp{
      devices, 1, lanes, 1, slices.data(), static_cast<uint32_t>(slices.size())};
  HeldExport held = HeldExport::Hold(exp);
  EXPECT_EQ(held.category_runs(), static_cast<size_t>(kSets));
  EXPECT_EQ(held.annotation_runs(), static_cast<size_t>(kLaunches));
  ConvertWindow window;
  window.capture_end_ns = 10 * static_cast<int64_t>(slices.size());
  ExpectSameResult(ConvertHeldExport(std::move(held), window),
                   ConvertExport(CopyExport(exp), window));
}

// The result keeps room for the caller's own events (ConvertWindow::spare_events), so adding
// them needs no second array.
TEST(HeldExportTest, TheResultKeepsTheSpareRoomAskedFor) {
  RblnKinetoDevice devices[] = {{1, "rbln0"}};
  RblnKinetoLane lanes[] = {{1, 10, "queue"}};
  RblnKinetoSlice slices[3] = {};
  for (int i = 0; i < 3; ++i) {
    slices[i].device_pid = 1;
    slices[i].resource_tid = 10;
    slices[i].name = "op";
    slices[i].start_steady_ns = i;
    slices[i].end_steady_ns = i + 1;
  }
  const RblnKinetoExport exp{devices, 1, lanes, 1, slices, 3};
  ConvertWindow window;
  window.capture_end_ns = 100;
  window.spare_events = 1000;
  const BridgeResult result = ConvertHeldExport(HeldExport::Hold(exp), window);
  EXPECT_EQ(result.events.size(), 3u);
  EXPECT_GE(result.events.capacity(), 1003u);
}

// The consumed front of a block goes back page by page; what lies past it stays intact.
TEST(HeldExportTest, ReleasesOnlyTheConsumedWholePages) {
  constexpr size_t kValues = size_t{1} << 20;  // 8 MiB, far more than a page
  std::vector<uint64_t> values(kValues, 7);
  const size_t half_bytes = kValues / 2 * sizeof(uint64_t);
  ReleaseConsumedPages(values.data(), 0, half_bytes / 2);
  // A second call continues where the first stopped.
  ReleaseConsumedPages(values.data(), half_bytes / 2, half_bytes);
  for (size_t i = kValues / 2; i < kValues; ++i)
    ASSERT_EQ(values[i], 7u) << i;
  // Whole pages in the consumed half read as zeros: they were given back.
  size_t zeros = 0;
  for (size_t i = 0; i < kValues / 2; ++i)
    zeros += values[i] == 0;
  EXPECT_GT(zeros, kValues / 4);
  // Nothing consumed: nothing released.
  std::vector<uint64_t> kept(kValues, 9);
  ReleaseConsumedPages(kept.data(), 0, 0);
  ReleaseConsumedPages(kept.data(), 100, 100);
  EXPECT_EQ(kept.front(), 9u);
  EXPECT_EQ(kept[kValues / 2], 9u);
}

TEST(HeldExportTest, AResetPoolForgetsItsCopiesButCopiesAgain) {
  TextPool pool;
  const char* name = "matmul";
  const std::string_view first = pool.KeepCString(name);
  EXPECT_EQ(first, "matmul");
  pool.Reset();
  EXPECT_EQ(pool.bytes(), 0u);
  // The same pointer after a reset is copied again, not answered with the forgotten copy.
  const std::string_view again = pool.KeepCString(name);
  EXPECT_EQ(again, "matmul");
  EXPECT_EQ(pool.bytes(), 6u);
  const std::string huge(200'000, 'h');
  EXPECT_EQ(pool.Keep(huge), huge);
  pool.Reset();
  EXPECT_EQ(pool.Keep("after"), "after");
}

}  // namespace
}  // namespace rblnsim::bridge
