// Compares the C compiler's layout of the ABI structs (abi_layout_check.c) with the C++
// compiler's, entry by entry, and both with the hand-computed x86-64 layout.
#include <gtest/gtest.h>

#include <cstddef>
#include <map>
#include <string>

#include "profiler/abi/rbln_kineto_api.h"
#include "tests/unit/bridge/abi_layout_check.h"

namespace {

struct Layout {
  size_t offset;
  size_t size;
  bool operator==(const Layout&) const = default;
};

#define ENTRY(type, field)                                              \
  {                                                                     \
#type "." #field, {                                                 \
      offsetof(type, field), sizeof(static_cast<type*>(nullptr)->field) \
    }                                                                   \
  }
#define WHOLE(type)   \
  {                   \
#type, {          \
      0, sizeof(type) \
    }                 \
  }

std::map<std::string, Layout> CxxView() {
  return {
      WHOLE(RblnKinetoDevice),
      ENTRY(RblnKinetoDevice, pid),
      ENTRY(RblnKinetoDevice, name),
      WHOLE(RblnKinetoLane),
      ENTRY(RblnKinetoLane, device_pid),
      ENTRY(RblnKinetoLane, resource_tid),
      ENTRY(RblnKinetoLane, name),
      WHOLE(RblnKinetoAnnotation),
      ENTRY(RblnKinetoAnnotation, name),
      ENTRY(RblnKinetoAnnotation, value),
      ENTRY(RblnKinetoAnnotation, value_is_quoted),
      WHOLE(RblnKinetoSlice),
      ENTRY(RblnKinetoSlice, device_pid),
      ENTRY(RblnKinetoSlice, resource_tid),
      ENTRY(RblnKinetoSlice, name),
      ENTRY(RblnKinetoSlice, categories),
      ENTRY(RblnKinetoSlice, categories_count),
      ENTRY(RblnKinetoSlice, start_steady_ns),
      ENTRY(RblnKinetoSlice, end_steady_ns),
      ENTRY(RblnKinetoSlice, annotations),
      ENTRY(RblnKinetoSlice, annotations_count),
      ENTRY(RblnKinetoSlice, corr_id),
      ENTRY(RblnKinetoSlice, kind),
      WHOLE(RblnKinetoExport),
      ENTRY(RblnKinetoExport, devices),
      ENTRY(RblnKinetoExport, devices_count),
      ENTRY(RblnKinetoExport, lanes),
      ENTRY(RblnKinetoExport, lanes_count),
      ENTRY(RblnKinetoExport, slices),
      ENTRY(RblnKinetoExport, slices_count),
      WHOLE(RblnsimKinetoStats),
      ENTRY(RblnsimKinetoStats, records_captured),
      ENTRY(RblnsimKinetoStats, records_dropped),
      ENTRY(RblnsimKinetoStats, launches),
      ENTRY(RblnsimKinetoStats, commands_timed_out),
      ENTRY(RblnsimKinetoStats, sync_wait_ns),
      ENTRY(RblnsimKinetoStats, records_after_wait),
  };
}

TEST(BridgeAbiLayoutTest, CAndCxxAgreeOnEveryStructAndField) {
  size_t count = 0;
  const RblnsimAbiLayoutEntry* c_entries = RblnsimAbiLayoutFromC(&count);
  const std::map<std::string, Layout> cxx = CxxView();
  ASSERT_EQ(count, cxx.size());
  for (size_t i = 0; i < count; ++i) {
    const RblnsimAbiLayoutEntry& c = c_entries[i];
    auto it = cxx.find(c.what);
    ASSERT_NE(it, cxx.end()) << c.what;
    EXPECT_EQ(it->second, (Layout{c.offset, c.size})) << c.what;
  }
}

TEST(BridgeAbiLayoutTest, CxxMatchesTheNaturalX8664Layout) {
#if !defined(__x86_64__)
  GTEST_SKIP() << "expected offsets are for x86-64";
#else
  const std::map<std::string, Layout> cxx = CxxView();
  const std::map<std::string, Layout> expected = {
      {"RblnKinetoSlice", {0, 80}},
      {"RblnKinetoSlice.device_pid", {0, 4}},
      {"RblnKinetoSlice.resource_tid", {4, 4}},
      {"RblnKinetoSlice.name", {8, 8}},
      {"RblnKinetoSlice.categories", {16, 8}},
      {"RblnKinetoSlice.categories_count", {24, 4}},
      {"RblnKinetoSlice.start_steady_ns", {32, 8}},
      {"RblnKinetoSlice.end_steady_ns", {40, 8}},
      {"RblnKinetoSlice.annotations", {48, 8}},
      {"RblnKinetoSlice.annotations_count", {56, 4}},
      {"RblnKinetoSlice.corr_id", {64, 8}},
      {"RblnKinetoSlice.kind", {72, 4}},
      {"RblnKinetoExport", {0, 48}},
      {"RblnKinetoExport.slices_count", {40, 4}},
      {"RblnKinetoAnnotation", {0, 24}},
      {"RblnKinetoAnnotation.value_is_quoted", {16, 4}},
      {"RblnKinetoDevice", {0, 16}},
      {"RblnKinetoDevice.name", {8, 8}},
      {"RblnKinetoLane", {0, 16}},
      {"RblnKinetoLane.name", {8, 8}},
      {"RblnsimKinetoStats", {0, 48}},
      {"RblnsimKinetoStats.commands_timed_out", {24, 8}},
      {"RblnsimKinetoStats.sync_wait_ns", {32, 8}},
      {"RblnsimKinetoStats.records_after_wait", {40, 8}},
  };
  for (const auto& [what, layout] : expected) {
    ASSERT_TRUE(cxx.contains(what)) << what;
    EXPECT_EQ(cxx.at(what), layout) << what;
  }
#endif
}

}  // namespace
