// The producer's export as the C-ABI hands it out: one start-ordered timeline of markers and
// device slices, each with its launch_id annotation.
#include "profiler/abi/export_builder.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

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

}  // namespace
}  // namespace rblnsim::abi
