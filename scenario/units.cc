#include "scenario/units.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <vector>

#include "scenario/suggest.h"

namespace rblnsim::scenario {
namespace {

struct UnitDef {
  std::string_view name;
  UnitFamily family;
  double factor;       // base units per unit: ns, GHz, bytes, bytes/s
  int64_t int_factor;  // the same factor as an exact integer, 0 when it is fractional
};

// The micro sign (U+00B5) and Greek small mu (U+03BC) both spell µs in the wild.
constexpr UnitDef kUnits[] = {
    {"ns", UnitFamily::kTime, 1.0, 1},
    {"us", UnitFamily::kTime, 1e3, 1000},
    {"\xC2\xB5s", UnitFamily::kTime, 1e3, 1000},
    {"\xCE\xBCs", UnitFamily::kTime, 1e3, 1000},
    {"ms", UnitFamily::kTime, 1e6, 1000000},
    {"s", UnitFamily::kTime, 1e9, 1000000000},
    {"Hz", UnitFamily::kFrequency, 1e-9, 0},
    {"kHz", UnitFamily::kFrequency, 1e-6, 0},
    {"MHz", UnitFamily::kFrequency, 1e-3, 0},
    {"GHz", UnitFamily::kFrequency, 1.0, 1},
    {"B", UnitFamily::kSize, 1.0, 1},
    {"KB", UnitFamily::kSize, 1e3, 1000},
    {"kB", UnitFamily::kSize, 1e3, 1000},
    {"MB", UnitFamily::kSize, 1e6, 1000000},
    {"GB", UnitFamily::kSize, 1e9, 1000000000},
    {"TB", UnitFamily::kSize, 1e12, 1000000000000},
    {"KiB", UnitFamily::kSize, 1024.0, 1024},
    {"MiB", UnitFamily::kSize, 1048576.0, 1048576},
    {"GiB", UnitFamily::kSize, 1073741824.0, 1073741824},
    {"TiB", UnitFamily::kSize, 1099511627776.0, 1099511627776},
    {"B/s", UnitFamily::kBandwidth, 1.0, 1},
    {"KB/s", UnitFamily::kBandwidth, 1e3, 1000},
    {"kB/s", UnitFamily::kBandwidth, 1e3, 1000},
    {"MB/s", UnitFamily::kBandwidth, 1e6, 1000000},
    {"GB/s", UnitFamily::kBandwidth, 1e9, 1000000000},
    {"TB/s", UnitFamily::kBandwidth, 1e12, 1000000000000},
    {"KiB/s", UnitFamily::kBandwidth, 1024.0, 1024},
    {"MiB/s", UnitFamily::kBandwidth, 1048576.0, 1048576},
    {"GiB/s", UnitFamily::kBandwidth, 1073741824.0, 1073741824},
    {"TiB/s", UnitFamily::kBandwidth, 1099511627776.0, 1099511627776},
    {"b/s", UnitFamily::kBandwidth, 0.125, 0},
    {"Kb/s", UnitFamily::kBandwidth, 125.0, 125},
    {"kb/s", UnitFamily::kBandwidth, 125.0, 125},
    {"Mb/s", UnitFamily::kBandwidth, 125e3, 125000},
    {"Gb/s", UnitFamily::kBandwidth, 125e6, 125000000},
    {"Tb/s", UnitFamily::kBandwidth, 125e9, 125000000000},
    {"bps", UnitFamily::kBandwidth, 0.125, 0},
    {"Kbps", UnitFamily::kBandwidth, 125.0, 125},
    {"kbps", UnitFamily::kBandwidth, 125.0, 125},
    {"Mbps", UnitFamily::kBandwidth, 125e3, 125000},
    {"Gbps", UnitFamily::kBandwidth, 125e6, 125000000},
    {"Tbps", UnitFamily::kBandwidth, 125e9, 125000000000},
};

const char* UnitList(UnitFamily family) {
  switch (family) {
    case UnitFamily::kTime:
      return "ns, us, ms, s";
    case UnitFamily::kFrequency:
      return "Hz, kHz, MHz, GHz";
    case UnitFamily::kSize:
      return "B, KB, MB, GB, TB, KiB, MiB, GiB, TiB";
    case UnitFamily::kBandwidth:
      return "B/s, KB/s .. TB/s, KiB/s .. TiB/s, Gb/s, Gbps";
  }
  return "";
}

const char* Example(UnitFamily family) {
  switch (family) {
    case UnitFamily::kTime:
      return "850ns";
    case UnitFamily::kFrequency:
      return "1.5GHz";
    case UnitFamily::kSize:
      return "64MiB";
    case UnitFamily::kBandwidth:
      return "1.2TB/s";
  }
  return "";
}

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
    text.remove_suffix(1);
  }
  return text;
}

// Length of the longest prefix of `text` that is a number; 0 when there is none.
// `integer_only` reports whether the prefix has neither a fraction nor an exponent.
size_t NumberPrefix(std::string_view text, bool* integer_only) {
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
    ++i;
  }
  size_t digits = 0;
  while (i < text.size() && IsDigit(text[i])) {
    ++i, ++digits;
  }
  *integer_only = true;
  if (i < text.size() && text[i] == '.') {
    *integer_only = false;
    ++i;
    while (i < text.size() && IsDigit(text[i])) {
      ++i, ++digits;
    }
  }
  if (digits == 0) {
    return 0;
  }
  // An exponent only counts when digits follow, so "5e" is "5" with unit "e".
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    size_t j = i + 1;
    if (j < text.size() && (text[j] == '+' || text[j] == '-')) {
      ++j;
    }
    if (j < text.size() && IsDigit(text[j])) {
      while (j < text.size() && IsDigit(text[j])) {
        ++j;
      }
      *integer_only = false;
      i = j;
    }
  }
  return i;
}

// from_chars rejects a leading '+'; strip it and keep the sign ourselves.
bool ToDouble(std::string_view number, double* out) {
  bool negative = false;
  if (!number.empty() && (number[0] == '+' || number[0] == '-')) {
    negative = number[0] == '-';
    number.remove_prefix(1);
  }
  const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), *out);
  if (error != std::errc() || end != number.data() + number.size() || !std::isfinite(*out)) {
    return false;
  }
  if (negative) {
    *out = -*out;
  }
  return true;
}

bool ToInt64(std::string_view number, int64_t* out) {
  if (!number.empty() && number[0] == '+') {
    number.remove_prefix(1);
  }
  const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), *out);
  return error == std::errc() && end == number.data() + number.size();
}

struct Parsed {
  double value = 0;
  int64_t exact = 0;  // valid when has_exact
  bool has_exact = false;
};

StatusOr<Parsed> ParseWithUnit(std::string_view raw, UnitFamily family) {
  const std::string_view text = Trim(raw);
  const std::string shown = Printable(raw);
  bool integer_only = false;
  const size_t length = NumberPrefix(text, &integer_only);
  if (length == 0) {
    return Status::Error("'" + shown + "' is not a " + UnitFamilyName(family) + " (expected a " +
                         "number with a unit, e.g. " + Example(family) + ")");
  }
  const std::string_view number = text.substr(0, length);
  const std::string_view unit = Trim(text.substr(length));
  if (unit.empty()) {
    return Status::Error("'" + shown + "' needs a unit, e.g. " + Example(family) + " (" +
                         UnitFamilyName(family) + " units: " + UnitList(family) + ")");
  }
  const UnitDef* found = nullptr;
  for (const UnitDef& def : kUnits) {
    if (def.name == unit) {
      found = &def;
    }
  }
  if (found == nullptr) {
    std::vector<std::string_view> names;
    for (const UnitDef& def : kUnits) {
      if (def.family == family) {
        names.push_back(def.name);
      }
    }
    return Status::Error("unknown unit '" + Printable(unit) + "' in '" + shown + "'" +
                         DidYouMean(unit, names) + " (" + UnitFamilyName(family) +
                         " units: " + UnitList(family) + ")");
  }
  if (found->family != family) {
    return Status::Error("'" + shown + "' is a " + UnitFamilyName(found->family) + ", but a " +
                         UnitFamilyName(family) + " is expected (units: " + UnitList(family) + ")");
  }
  Parsed parsed;
  double mantissa = 0;
  if (!ToDouble(number, &mantissa)) {
    return Status::Error("'" + shown + "' has an unreadable number");
  }
  parsed.value = mantissa * found->factor;
  if (!std::isfinite(parsed.value) || std::fabs(parsed.value) > 1e30) {
    return Status::Error("'" + shown + "' is too large");
  }
  int64_t integer = 0;
  if (integer_only && found->int_factor != 0 && ToInt64(number, &integer) &&
      !__builtin_mul_overflow(integer, found->int_factor, &parsed.exact)) {
    parsed.has_exact = true;
  }
  return parsed;
}

// Converts a double that should be a whole number; `what` names the quantity for the message.
StatusOr<int64_t> WholeNumber(double value, std::string_view raw, const char* what) {
  // 2^63 is exactly representable; anything at or beyond it does not fit.
  if (std::fabs(value) >= 9223372036854775808.0) {
    return Status::Error("'" + Printable(raw) + "' is too large");
  }
  const double rounded = std::nearbyint(value);
  if (std::fabs(value - rounded) > 1e-9 * std::max(1.0, std::fabs(value))) {
    return Status::Error("'" + Printable(raw) + "' is not a whole number of " + what);
  }
  return static_cast<int64_t>(rounded);
}

}  // namespace

const char* UnitFamilyName(UnitFamily family) {
  switch (family) {
    case UnitFamily::kTime:
      return "time";
    case UnitFamily::kFrequency:
      return "frequency";
    case UnitFamily::kSize:
      return "size";
    case UnitFamily::kBandwidth:
      return "bandwidth";
  }
  return "?";
}

StatusOr<double> ParseTimeNs(std::string_view text) {
  RBLNSIM_ASSIGN_OR_RETURN(Parsed parsed, ParseWithUnit(text, UnitFamily::kTime));
  return parsed.value;
}

StatusOr<int64_t> ParseTimeNsExact(std::string_view text) {
  RBLNSIM_ASSIGN_OR_RETURN(Parsed parsed, ParseWithUnit(text, UnitFamily::kTime));
  if (parsed.has_exact) {
    return parsed.exact;
  }
  return WholeNumber(parsed.value, text, "nanoseconds");
}

StatusOr<double> ParseFrequencyGhz(std::string_view text) {
  RBLNSIM_ASSIGN_OR_RETURN(Parsed parsed, ParseWithUnit(text, UnitFamily::kFrequency));
  return parsed.value;
}

StatusOr<int64_t> ParseSizeBytes(std::string_view text) {
  RBLNSIM_ASSIGN_OR_RETURN(Parsed parsed, ParseWithUnit(text, UnitFamily::kSize));
  if (parsed.has_exact) {
    return parsed.exact;
  }
  return WholeNumber(parsed.value, text, "bytes");
}

StatusOr<double> ParseBandwidthBytesPerS(std::string_view text) {
  RBLNSIM_ASSIGN_OR_RETURN(Parsed parsed, ParseWithUnit(text, UnitFamily::kBandwidth));
  return parsed.value;
}

StatusOr<double> ParseNumber(std::string_view raw) {
  const std::string_view text = Trim(raw);
  bool integer_only = false;
  const size_t length = NumberPrefix(text, &integer_only);
  double value = 0;
  if (length == 0 || length != text.size() || !ToDouble(text, &value)) {
    return Status::Error("expected a number, got '" + Printable(raw) + "'");
  }
  return value;
}

StatusOr<int64_t> ParseInteger(std::string_view raw) {
  const std::string_view text = Trim(raw);
  bool integer_only = false;
  const size_t length = NumberPrefix(text, &integer_only);
  if (length == 0 || length != text.size()) {
    return Status::Error("expected an integer, got '" + Printable(raw) + "'");
  }
  int64_t value = 0;
  if (integer_only) {
    if (!ToInt64(text, &value)) {
      return Status::Error("'" + Printable(raw) + "' is too large");
    }
    return value;
  }
  // An integer is written as one: a fraction ("4.0", "4.") or a negative exponent makes it a real
  // number, even when its value happens to be whole. Only digits scaled by a power of ten
  // ("2e9") remain, for counts too long to write out.
  const size_t exponent = text.find_first_of("eE");
  if (text.find('.') != std::string_view::npos || exponent == std::string_view::npos ||
      text.substr(exponent + 1).find('-') != std::string_view::npos) {
    return Status::Error("expected an integer, got the real number '" + Printable(raw) + "'");
  }
  double real = 0;
  if (!ToDouble(text, &real)) {
    return Status::Error("'" + Printable(raw) + "' is too large");
  }
  // Beyond 2^53 a double no longer pins down one integer; ask for digits instead.
  if (std::fabs(real) > 9007199254740992.0) {
    return Status::Error("'" + Printable(raw) + "' is too large to be exact; write the digits");
  }
  return static_cast<int64_t>(real);
}

StatusOr<uint64_t> ParseUint64(std::string_view raw) {
  const std::string_view text = Trim(raw);
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || !IsDigit(text[0]) || end != text.data() + text.size()) {
    return Status::Error("expected a non-negative integer, got '" + Printable(raw) + "'");
  }
  if (error != std::errc()) {
    return Status::Error("'" + Printable(raw) + "' is too large");
  }
  return value;
}

std::string FormatNumber(double value) {
  if (value == 0) {
    return "0";  // also folds -0 so the canonical text has one spelling
  }
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

}  // namespace rblnsim::scenario
