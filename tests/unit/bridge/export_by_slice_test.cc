// The sink converts each slice as it copies it (ConvertExportBySlice); a whole copy converted
// afterwards (CopyExport + ConvertExport) must give the same rows, events, flows and counters,
// over an export with every irregularity the converter counts.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
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

TEST(ExportBySliceTest, ConvertingSliceBySliceEqualsConvertingAWholeCopy) {
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
  const BridgeResult sliced = ConvertExportBySlice(exp, window);
  // The export exercises what it means to.
  EXPECT_GT(whole.stats.dropped_unknown_row, 0u);
  EXPECT_GT(whole.stats.dropped_out_of_window, 0u);
  EXPECT_GT(whole.stats.null_arrays, 0u);
  EXPECT_GT(whole.stats.null_names, 0u);
  EXPECT_GT(whole.events.size(), 20u);
  ExpectSameResult(sliced, whole);

  // A null slice array with a count is read as empty the same way.
  RblnKinetoExport no_slices{devices, 3, lanes, 4, nullptr, 5};
  ExpectSameResult(ConvertExportBySlice(no_slices, window),
                   ConvertExport(CopyExport(no_slices), window));
}

TEST(ExportBySliceTest, AResetPoolForgetsItsCopiesButCopiesAgain) {
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
