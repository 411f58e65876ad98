#include "profiler/trace/import/time_text.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

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

TEST(TimeTextTest, EveryLengthOfKinetosFormReadsAsItsDigits) {
  // One to fifteen digits before the point cross the word-at-a-time read (eight digits) and
  // the fast path's bound; each must read exactly, with and without decimals and sign.
  std::string digits;
  int64_t whole = 0;
  for (int length = 1; length <= 16; ++length) {
    digits.push_back(static_cast<char>('0' + (length * 7) % 10));
    whole = whole * 10 + (length * 7) % 10;
    EXPECT_EQ(DecimalTextToNs(digits + ".042", kUs), whole * 1000 + 42) << digits;
    EXPECT_EQ(DecimalTextToNs("-" + digits + ".042", kUs), -(whole * 1000 + 42)) << digits;
    if (length <= 15) {
      EXPECT_EQ(DecimalTextToNs(digits, kUs), whole * 1000) << digits;
    }
  }
  // A stray byte anywhere among eight or more digits, or in the decimals, is no number.
  for (const char* bad : {"1234567:.000", "12345/78.000", "123456789012 4.000", "12345678.0a0",
                          "12345678.:00", "12345678."}) {
    EXPECT_FALSE(DecimalTextToNs(bad, kUs).has_value()) << bad;
  }
  const std::string del = std::string("1234567") + '\x7f' + "8.000";
  EXPECT_FALSE(DecimalTextToNs(del, kUs).has_value());
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

// Kineto's "<digits>.<3 digits>" form takes an integer fast path; appending "e0" sends the same
// number down the general digit-shifting path, which must agree.
TEST(TimeTextTest, KinetoFormFastPathAgreesWithTheGeneralPath) {
  std::mt19937_64 rng(11);
  std::vector<std::string> texts = {"0",
                                    "-0",
                                    "0.000",
                                    "-0.500",
                                    "007.010",
                                    "999999999999999.999",
                                    "-999999999999999.999",
                                    "36288253001.978",
                                    "1",
                                    "12.345"};
  for (int i = 0; i < 2000; ++i) {
    const uint64_t whole = rng() % 1000000000000000ULL;
    std::string frac = std::to_string(rng() % 1000);
    frac.insert(0, 3 - frac.size(), '0');
    texts.push_back((i % 7 == 0 ? "-" : "") + std::to_string(whole) + "." + frac);
  }
  for (const std::string& text : texts) {
    const std::optional<int64_t> general = DecimalTextToNs(text + "e0", kUs);
    ASSERT_TRUE(general.has_value()) << text;
    EXPECT_EQ(DecimalTextToNs(text, kUs), general) << text;
  }
  // Longer or differently shaped texts leave the fast path and still read right.
  EXPECT_EQ(DecimalTextToNs("1234567890123456.000", kUs), int64_t{1234567890123456000});
  EXPECT_EQ(DecimalTextToNs("1.2345", kUs), 1235);
  EXPECT_EQ(DecimalTextToNs("1.5", kUs), 1500);
  EXPECT_EQ(DecimalTextToNs("1.", kUs), std::nullopt);
  EXPECT_EQ(DecimalTextToNs("-", kUs), std::nullopt);
  // Integer parts too long for the fast path leave it before they can overflow (UBSan checks).
  EXPECT_EQ(DecimalTextToNs("99999999999999999999999", kUs), std::nullopt);
  EXPECT_EQ(DecimalTextToNs("-99999999999999999999.123", kUs), std::nullopt);
  EXPECT_EQ(DecimalTextToNs("0000000000000000000001.000", kUs), 1000);
}

}  // namespace
}  // namespace rblnsim::trace::import
