// Explicit units for scenario values. Every dimensional key in a scenario carries its unit in the
// text ("850ns", "1.5GHz", "64MiB", "1.2TB/s"), so a bare number never silently means the wrong
// scale. The parsers return the value in the simulator's base unit: ns, GHz, bytes, bytes/s.
#ifndef RBLNSIM_SCENARIO_UNITS_H_
#define RBLNSIM_SCENARIO_UNITS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"

namespace rblnsim::scenario {

enum class UnitFamily { kTime, kFrequency, kSize, kBandwidth };

// "time", "frequency", "size", "bandwidth".
const char* UnitFamilyName(UnitFamily family);

// Time → ns. Units: ns, us, µs (micro sign or Greek mu), ms, s.
StatusOr<double> ParseTimeNs(std::string_view text);
// Time → whole ns, exact for integer mantissas (epochs near 2^60 ns lose nothing).
StatusOr<int64_t> ParseTimeNsExact(std::string_view text);
// Frequency → GHz. Units: Hz, kHz, MHz, GHz.
StatusOr<double> ParseFrequencyGhz(std::string_view text);
// Size → bytes. Units: B, KB/MB/GB/TB (decimal), KiB/MiB/GiB/TiB (binary). Must be integral.
StatusOr<int64_t> ParseSizeBytes(std::string_view text);
// Bandwidth → bytes per second. Byte units (B/s, KB/s … TB/s, KiB/s … TiB/s) and bit units
// (b/s, Kb/s … Tb/s, bps, Kbps … Tbps), bits divided by 8.
StatusOr<double> ParseBandwidthBytesPerS(std::string_view text);

// A plain number with no unit: [+-]digits[.digits][e[+-]digits]. No inf/nan, no hex.
StatusOr<double> ParseNumber(std::string_view text);
// An integer: decimal digits, optionally scaled by a non-negative power of ten ("2e9"), exact.
// A fraction ("4.0") or a negative exponent is a real number and an error, whatever its value.
// Out-of-range values are errors, never wrapped. Every integer key is read through this.
StatusOr<int64_t> ParseInteger(std::string_view text);
// An unsigned 64-bit integer, decimal digits only (seeds).
StatusOr<uint64_t> ParseUint64(std::string_view text);

// Shortest text that parses back to exactly `value` ("1.2e+12", "850", "0.1"). Deterministic,
// locale-free; the canonical serialization relies on it.
std::string FormatNumber(double value);

}  // namespace rblnsim::scenario

#endif  // RBLNSIM_SCENARIO_UNITS_H_
