#include "scenario/units.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace rblnsim::scenario {
namespace {

using ::testing::HasSubstr;

TEST(ScenarioUnits, TimeToNanoseconds) {
  EXPECT_DOUBLE_EQ(*ParseTimeNs("850ns"), 850);
  EXPECT_DOUBLE_EQ(*ParseTimeNs("850 ns"), 850);
  EXPECT_DOUBLE_EQ(*ParseTimeNs("1.5us"), 1500);
  EXPECT_DOUBLE_EQ(*ParseTimeNs("1.5\xC2\xB5s"), 1500);  // micro sign
  EXPECT_DOUBLE_EQ(*ParseTimeNs("2\xCE\xBCs"), 2000);    // Greek mu
  EXPECT_DOUBLE_EQ(*ParseTimeNs("3ms"), 3e6);
  EXPECT_DOUBLE_EQ(*ParseTimeNs("0.25s"), 2.5e8);
  EXPECT_DOUBLE_EQ(*ParseTimeNs("1e3ns"), 1000);
  EXPECT_DOUBLE_EQ(*ParseTimeNs("-5ns"), -5);
  EXPECT_DOUBLE_EQ(*ParseTimeNs(" 12us "), 12000);
}

TEST(ScenarioUnits, ExactTimeKeepsEveryNanosecond) {
  EXPECT_EQ(*ParseTimeNsExact("1767225600s"), 1'767'225'600'000'000'000);
  EXPECT_EQ(*ParseTimeNsExact("1767225600000000001ns"), 1'767'225'600'000'000'001);
  EXPECT_EQ(*ParseTimeNsExact("1.5us"), 1500);
  EXPECT_FALSE(ParseTimeNsExact("0.5ns").ok());
  EXPECT_FALSE(ParseTimeNsExact("99999999999s").ok());  // beyond int64 ns
}

TEST(ScenarioUnits, FrequencyToGigahertz) {
  EXPECT_DOUBLE_EQ(*ParseFrequencyGhz("1.5GHz"), 1.5);
  EXPECT_DOUBLE_EQ(*ParseFrequencyGhz("800MHz"), 0.8);
  EXPECT_DOUBLE_EQ(*ParseFrequencyGhz("1000kHz"), 0.001);
  EXPECT_DOUBLE_EQ(*ParseFrequencyGhz("1e9Hz"), 1.0);
}

TEST(ScenarioUnits, SizeToBytes) {
  EXPECT_EQ(*ParseSizeBytes("64MiB"), int64_t{64} << 20);
  EXPECT_EQ(*ParseSizeBytes("36GiB"), int64_t{36} << 30);
  EXPECT_EQ(*ParseSizeBytes("1TiB"), int64_t{1} << 40);
  EXPECT_EQ(*ParseSizeBytes("1KB"), 1000);
  EXPECT_EQ(*ParseSizeBytes("1kB"), 1000);
  EXPECT_EQ(*ParseSizeBytes("1.5KB"), 1500);
  EXPECT_EQ(*ParseSizeBytes("0.5KiB"), 512);
  EXPECT_EQ(*ParseSizeBytes("144GB"), 144'000'000'000);
  EXPECT_EQ(*ParseSizeBytes("512 B"), 512);
}

TEST(ScenarioUnits, SizeErrors) {
  EXPECT_THAT(ParseSizeBytes("1.5B").status().message(), HasSubstr("not a whole number of bytes"));
  EXPECT_THAT(ParseSizeBytes("0.3KiB").status().message(), HasSubstr("not a whole number"));
  EXPECT_THAT(ParseSizeBytes("99999999TiB").status().message(), HasSubstr("too large"));
  EXPECT_THAT(ParseSizeBytes("64Mib").status().message(), HasSubstr("did you mean 'MiB'?"));
}

TEST(ScenarioUnits, BandwidthToBytesPerSecond) {
  EXPECT_DOUBLE_EQ(*ParseBandwidthBytesPerS("1.2TB/s"), 1.2e12);
  EXPECT_DOUBLE_EQ(*ParseBandwidthBytesPerS("64 GB/s"), 64e9);
  EXPECT_DOUBLE_EQ(*ParseBandwidthBytesPerS("100MB/s"), 1e8);
  EXPECT_DOUBLE_EQ(*ParseBandwidthBytesPerS("1GiB/s"), 1073741824.0);
  EXPECT_DOUBLE_EQ(*ParseBandwidthBytesPerS("16Gb/s"), 2e9);  // bits
  EXPECT_DOUBLE_EQ(*ParseBandwidthBytesPerS("16Gbps"), 2e9);
  EXPECT_DOUBLE_EQ(*ParseBandwidthBytesPerS("8b/s"), 1);
  EXPECT_DOUBLE_EQ(*ParseBandwidthBytesPerS("1.2e+12B/s"), 1.2e12);
}

TEST(ScenarioUnits, BareNumberNeedsUnitWithHint) {
  const std::string time = ParseTimeNs("850").status().message();
  EXPECT_THAT(time, HasSubstr("'850' needs a unit, e.g. 850ns"));
  EXPECT_THAT(ParseFrequencyGhz("1").status().message(), HasSubstr("needs a unit, e.g. 1.5GHz"));
  EXPECT_THAT(ParseSizeBytes("64").status().message(), HasSubstr("needs a unit, e.g. 64MiB"));
  EXPECT_THAT(ParseBandwidthBytesPerS("1").status().message(), HasSubstr("e.g. 1.2TB/s"));
}

TEST(ScenarioUnits, WrongFamilyNamesExpectedFamily) {
  const std::string message = ParseTimeNs("10GHz").status().message();
  EXPECT_THAT(message, HasSubstr("'10GHz' is a frequency, but a time is expected"));
  EXPECT_THAT(ParseSizeBytes("1TB/s").status().message(),
              HasSubstr("is a bandwidth, but a size is expected"));
  EXPECT_THAT(ParseBandwidthBytesPerS("1TB").status().message(),
              HasSubstr("is a size, but a bandwidth is expected"));
  EXPECT_THAT(ParseFrequencyGhz("5ns").status().message(),
              HasSubstr("is a time, but a frequency is expected"));
}

TEST(ScenarioUnits, MalformedText) {
  EXPECT_FALSE(ParseTimeNs("").ok());
  EXPECT_FALSE(ParseTimeNs("ns").ok());
  EXPECT_FALSE(ParseTimeNs("fast").ok());
  EXPECT_FALSE(ParseTimeNs("1.2.3ns").ok());
  EXPECT_FALSE(ParseTimeNs("infns").ok());
  EXPECT_THAT(ParseTimeNs("5 sec").status().message(), HasSubstr("unknown unit 'sec'"));
  EXPECT_THAT(ParseFrequencyGhz("1mhz").status().message(), HasSubstr("did you mean 'MHz'?"));
}

TEST(ScenarioUnits, PlainNumbers) {
  EXPECT_EQ(*ParseInteger("42"), 42);
  EXPECT_EQ(*ParseInteger("-7"), -7);
  EXPECT_EQ(*ParseInteger("+7"), 7);
  EXPECT_EQ(*ParseInteger("2e9"), 2'000'000'000);
  EXPECT_EQ(*ParseInteger("9223372036854775807"), INT64_MAX);
  EXPECT_FALSE(ParseInteger("1.5").ok());
  EXPECT_FALSE(ParseInteger("9223372036854775808").ok());
  EXPECT_FALSE(ParseInteger("1e300").ok());
  EXPECT_FALSE(ParseInteger("0x10").ok());
  EXPECT_DOUBLE_EQ(*ParseNumber(".5"), 0.5);
  EXPECT_DOUBLE_EQ(*ParseNumber("-1e-3"), -1e-3);
  EXPECT_FALSE(ParseNumber("nan").ok());
  EXPECT_FALSE(ParseNumber(".inf").ok());
  EXPECT_FALSE(ParseNumber("1e999").ok());
  EXPECT_EQ(*ParseUint64("18446744073709551615"), UINT64_MAX);
  EXPECT_FALSE(ParseUint64("-1").ok());
  EXPECT_FALSE(ParseUint64("18446744073709551616").ok());
}

TEST(ScenarioUnits, FormatNumberRoundTrips) {
  for (double value : {0.1, 1.2e12, 36.959, 850.0, 1e-9, 123456789.125, -3.5}) {
    const std::string text = FormatNumber(value);
    EXPECT_EQ(*ParseNumber(text), value) << text;
  }
  EXPECT_EQ(FormatNumber(850), "850");
  EXPECT_EQ(FormatNumber(-0.0), "0");
}

}  // namespace
}  // namespace rblnsim::scenario
