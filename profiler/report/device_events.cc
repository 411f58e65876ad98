#include "profiler/report/device_events.h"

#include <algorithm>

#include "profiler/trace/json_writer.h"

namespace rblnsim::report {

namespace {

constexpr char32_t kReplacement = 0xFFFD;

// Decodes the code point at the front of |text| and drops its bytes.
char32_t PopCodePoint(std::string_view* text) {
  size_t bad_len = 0;
  const size_t len = trace::Utf8SequenceLength(*text, &bad_len);
  if (len == 0) {
    text->remove_prefix(bad_len);
    return kReplacement;
  }
  const auto byte = [text](size_t i) { return static_cast<char32_t>(uint8_t((*text)[i])); };
  char32_t cp = 0;
  switch (len) {
    case 1:
      cp = byte(0);
      break;
    case 2:
      cp = (byte(0) & 0x1F) << 6 | (byte(1) & 0x3F);
      break;
    case 3:
      cp = (byte(0) & 0x0F) << 12 | (byte(1) & 0x3F) << 6 | (byte(2) & 0x3F);
      break;
    default:
      cp = (byte(0) & 0x07) << 18 | (byte(1) & 0x3F) << 12 | (byte(2) & 0x3F) << 6 |
           (byte(3) & 0x3F);
      break;
  }
  text->remove_prefix(len);
  return cp;
}

void AppendUtf8(char32_t cp, std::string* out) {
  if (cp < 0x80) {
    *out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    *out += static_cast<char>(0xC0 | cp >> 6);
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *out += static_cast<char>(0xE0 | cp >> 12);
    *out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    *out += static_cast<char>(0xF0 | cp >> 18);
    *out += static_cast<char>(0x80 | (cp >> 12 & 0x3F));
    *out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// str.isprintable() for non-ASCII: false for the Unicode categories Cc, Cf, Co, Cs, Zl, Zp and Zs
// (except the ASCII space). The assigned ranges of those categories that names could plausibly
// contain; unassigned code points (Cn) are not tracked.
bool IsPrintable(char32_t cp) {
  struct Range {
    char32_t first;
    char32_t last;
  };
  static constexpr Range kNonPrintable[] = {
      {0x0080, 0x00A0},   {0x00AD, 0x00AD},    {0x0600, 0x0605},   {0x061C, 0x061C},
      {0x06DD, 0x06DD},   {0x070F, 0x070F},    {0x0890, 0x0891},   {0x08E2, 0x08E2},
      {0x1680, 0x1680},   {0x180E, 0x180E},    {0x2000, 0x200F},   {0x2028, 0x202F},
      {0x205F, 0x206F},   {0x3000, 0x3000},    {0xD800, 0xF8FF},   {0xFEFF, 0xFEFF},
      {0xFFF9, 0xFFFB},   {0xFFFE, 0xFFFF},    {0x110BD, 0x110BD}, {0x110CD, 0x110CD},
      {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3},  {0x1D173, 0x1D17A}, {0xE0001, 0xE0001},
      {0xE0020, 0xE007F}, {0xF0000, 0x10FFFF},
  };
  for (const Range& range : kNonPrintable) {
    if (cp >= range.first && cp <= range.last)
      return false;
  }
  return true;
}

void AppendHexEscape(char prefix, char32_t cp, int digits, std::string* out) {
  constexpr char kHex[] = "0123456789abcdef";
  *out += '\\';
  *out += prefix;
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4)
    *out += kHex[(cp >> shift) & 0xF];
}

}  // namespace

std::vector<const trace::Event*> DeviceEvents(const index::TraceIndex& index) {
  std::vector<const trace::Event*> events;
  const index::EventColumns& columns = index.events();
  // Sized exactly, and sorted only when out of order (a sort's buffer is half the array again):
  // a trace can have millions of device events, in start order as a rule.
  size_t count = 0;
  for (size_t i = 0; i < columns.flags.size(); ++i)
    count += columns.Has(i, index::kPrivateUse1);
  events.reserve(count);
  for (size_t i = 0; i < columns.flags.size(); ++i) {
    if (columns.Has(i, index::kPrivateUse1))
      events.push_back(&index.event(i));
  }
  auto before = [](const trace::Event* a, const trace::Event* b) {
    return a->ts_ns != b->ts_ns ? a->ts_ns < b->ts_ns : a->end_ns() > b->end_ns();
  };
  if (!std::is_sorted(events.begin(), events.end(), before))
    std::stable_sort(events.begin(), events.end(), before);
  return events;
}

std::string PythonStrRepr(std::string_view text) {
  const bool has_single = text.find('\'') != std::string_view::npos;
  const bool has_double = text.find('"') != std::string_view::npos;
  const char quote = has_single && !has_double ? '"' : '\'';
  std::string out(1, quote);
  while (!text.empty()) {
    const char32_t cp = PopCodePoint(&text);
    if (cp == static_cast<char32_t>(quote) || cp == '\\') {
      out += '\\';
      out += static_cast<char>(cp);
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp < 0x20 || cp == 0x7F) {
      AppendHexEscape('x', cp, 2, &out);
    } else if (cp < 0x7F || IsPrintable(cp)) {
      AppendUtf8(cp, &out);
    } else if (cp <= 0xFF) {
      AppendHexEscape('x', cp, 2, &out);
    } else if (cp <= 0xFFFF) {
      AppendHexEscape('u', cp, 4, &out);
    } else {
      AppendHexEscape('U', cp, 8, &out);
    }
  }
  out += quote;
  return out;
}

std::string FormatDeviceEventsLine(const std::vector<const trace::Event*>& events,
                                   size_t max_names) {
  std::string line = std::to_string(events.size()) + " device events, for example: [";
  const size_t shown = std::min(max_names, events.size());
  for (size_t i = 0; i < shown; ++i) {
    if (i > 0)
      line += ", ";
    line += PythonStrRepr(events[i]->name);
  }
  line += ']';
  return line;
}

}  // namespace rblnsim::report
