// The producer's export as the C-ABI hands it out: one start-ordered timeline of markers and
// device slices, each with its launch_id annotation.
#include "profiler/abi/export_builder.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "tests/unit/abi/fake_capture.h"

namespace rblnsim::abi {
namespace {

// Launches 1 and 2 with a marker each; launch 1's records come in two runs around launch 2's.
ProducerCapture InterleavedCapture() {
  ProducerCapture c = testing::TwoSliceCapture(1'000'000);
  c.slices.push_back({100, 1, 1, 1, 50, 60, 2, SliceKind::kCompute});
  c.slices.push_back({100, 2, 0, 0, 70, 80, 1, SliceKind::kDma});
  c.markers.push_back({7, 8, 1'000'030, 1'000'035, 2});
  return c;
}

TEST(ExportBuilder, EverySliceCarriesItsOwnLaunchId) {
  const ExportBuilder built(InterleavedCapture(), 1.0);
  const RblnKinetoExport& view = built.view();
  ASSERT_EQ(view.slices_count, 6u);
  for (uint32_t i = 0; i < view.slices_count; ++i) {
    const RblnKinetoSlice& s = view.slices[i];
    ASSERT_EQ(s.annotations_count, 1u) << i;
    EXPECT_STREQ(s.annotations[0].name, "launch_id") << i;
    EXPECT_EQ(std::stoll(s.annotations[0].value), s.corr_id) << i;
    EXPECT_EQ(s.annotations[0].value_is_quoted, 0) << i;
    if (i > 0) {
      EXPECT_LE(view.slices[i - 1].start_steady_ns, s.start_steady_ns) << i;
    }
  }
}

// A launch's records that come together share one annotation; a marker has its own, and a
// launch whose records come in two runs has one per run.
TEST(ExportBuilder, ARunOfOneLaunchSharesItsAnnotation) {
  const ExportBuilder built(InterleavedCapture(), 1.0);
  const RblnKinetoExport& view = built.view();
  std::set<const RblnKinetoAnnotation*> distinct;
  for (uint32_t i = 0; i < view.slices_count; ++i)
    distinct.insert(view.slices[i].annotations);
  // Markers 1 and 2; records of launch 1, then 2, then 1 again.
  EXPECT_EQ(distinct.size(), 5u);
}

// The export's slices point into the name list's text; the list's index of where each name
// begins is let go once they do, and every name still reads as it was.
TEST(ExportBuilder, NamesOutliveTheListsIndex) {
  SliceNames names;
  std::vector<uint32_t> ids;
  for (int i = 0; i < 1000; ++i)
    ids.push_back(names.Add("i1_" + std::to_string(i) + "_W0_mm_0"));
  std::vector<const char*> taken;
  for (const uint32_t id : ids)
    taken.push_back(names.c_str(id));
  names.ReleaseIndex();
  for (int i = 0; i < 1000; ++i)
    EXPECT_STREQ(taken[i], ("i1_" + std::to_string(i) + "_W0_mm_0").c_str());
  const ExportBuilder built(InterleavedCapture(), 1.0);
  const RblnKinetoExport& view = built.view();
  std::set<std::string> slice_names;
  for (uint32_t i = 0; i < view.slices_count; ++i)
    slice_names.insert(view.slices[i].name);
  EXPECT_GE(slice_names.size(), 2u);
  EXPECT_TRUE(slice_names.count("rbln_run"));
}

}  // namespace
}  // namespace rblnsim::abi
