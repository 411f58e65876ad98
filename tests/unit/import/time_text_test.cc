#include "profiler/trace/import/time_text.h"

#include <gtest/gtest.h>

namespace rblnsim::trace::import {
namespace {

constexpr int kUs = 3;
constexpr int kNs = 0;

TEST(TimeTextTest, MicrosecondsWithThreeDecimals) {
  EXPECT_EQ(DecimalTextToNs("5100000123.456", kUs), 5100000123456);
  EXPECT_EQ(DecimalTextToNs("0.000", kUs), 0);
  EXPECT_EQ(DecimalTextToNs("-0.500", kUs), -500);
  EXPECT_EQ(DecimalTextToNs("25", kUs), 25000);
  EXPECT_EQ(DecimalTextToNs("1743521598123456.789", kUs), 1743521598123456789);
}

TEST(TimeTextTest, ExponentsAndRounding) {
  EXPECT_EQ(DecimalTextToNs("1e3", kUs), 1000000);
  EXPECT_EQ(DecimalTextToNs("1.5E-3", kUs), 2);  // 1.5 ns: half away from zero
  EXPECT_EQ(DecimalTextToNs("-1.5e-3", kUs), -2);
  EXPECT_EQ(DecimalTextToNs("0.0004", kUs), 0);
  EXPECT_EQ(DecimalTextToNs("0.00049999", kUs), 0);
  EXPECT_EQ(DecimalTextToNs("0.0005", kUs), 1);
  EXPECT_EQ(DecimalTextToNs("1.7435215981234568e+15", kUs), 1743521598123456800);
  EXPECT_EQ(DecimalTextToNs("12.7", kNs), 13);
  EXPECT_EQ(DecimalTextToNs("1743521598000000000", kNs), 1743521598000000000);
  EXPECT_EQ(DecimalTextToNs("1e-99999999", kUs), 0);
}

TEST(TimeTextTest, RejectsNonNumbersAndOverflow) {
  for (const char* bad : {"", "-", ".5", "1.", "1e", "1e+", "abc", "1 ", " 1", "0x10", "1..2", "+1",
                          "1.2.3", "NaN", "inf"}) {
    EXPECT_FALSE(DecimalTextToNs(bad, kUs).has_value()) << bad;
  }
  EXPECT_FALSE(DecimalTextToNs("9223372036854775.808", kUs).has_value());
  EXPECT_EQ(DecimalTextToNs("9223372036854775.807", kUs), INT64_MAX);
  EXPECT_FALSE(DecimalTextToNs("1e400", kUs).has_value());
  EXPECT_FALSE(DecimalTextToNs("1743521598000000000", kUs).has_value());
}

}  // namespace
}  // namespace rblnsim::trace::import
