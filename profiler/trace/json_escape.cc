#include "profiler/trace/json_escape.h"

#include <bit>
#include <cstdint>
#include <cstring>

namespace rblnsim::trace {

namespace {

constexpr std::string_view kReplacementChar = "\xEF\xBF\xBD";  // U+FFFD

// RFC 8259's two-character escapes; everything else below 0x20 becomes \u00XX.
char* WriteEscaped(char* out, unsigned char c) {
  char short_form = 0;
  switch (c) {
    case '"':
      short_form = '"';
      break;
    case '\\':
      short_form = '\\';
      break;
    case '\b':
      short_form = 'b';
      break;
    case '\f':
      short_form = 'f';
      break;
    case '\n':
      short_form = 'n';
      break;
    case '\r':
      short_form = 'r';
      break;
    case '\t':
      short_form = 't';
      break;
    default:
      break;
  }
  *out++ = '\\';
  if (short_form != 0) {
    *out++ = short_form;
    return out;
  }
  constexpr char kHex[] = "0123456789abcdef";
  const char escaped[] = {'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
  std::memcpy(out, escaped, sizeof(escaped));
  return out + sizeof(escaped);
}

// Whether any byte of the eight in |word| needs a look of its own when quoted: a control
// character, '"', '\\', or a byte of a multi-byte UTF-8 sequence. The classic bit tricks for "a
// byte below n" and "a zero byte" (exact as a yes/no for the whole word).
bool WordNeedsLook(uint64_t word) {
  constexpr uint64_t kOnes = 0x0101010101010101;
  constexpr uint64_t kHighs = 0x8080808080808080;
  const uint64_t below_space = (word - kOnes * 0x20) & ~word;
  const uint64_t quote = word ^ (kOnes * '"');
  const uint64_t backslash = word ^ (kOnes * '\\');
  const uint64_t has_quote = (quote - kOnes) & ~quote;
  const uint64_t has_backslash = (backslash - kOnes) & ~backslash;
  return ((below_space | has_quote | has_backslash | word) & kHighs) != 0;
}

bool ByteNeedsLook(unsigned char c) {
  return c < 0x20 || c >= 0x80 || c == '"' || c == '\\';
}

// The last |bytes| (1-7) of a string as the low bytes of a word, the rest filled with a byte
// that needs no look: a short string is checked and copied as one word without reading past
// its end.
uint64_t TailWord(const char* at, size_t bytes) {
  static_assert(std::endian::native == std::endian::little, "the word's low bytes come first");
  constexpr uint64_t kPlainFill = 0x6161616161616161;  // "aaaaaaaa"
  uint64_t word = 0;
  unsigned shift = 0;
  if ((bytes & 4) != 0) {
    uint32_t four;
    std::memcpy(&four, at, sizeof(four));
    word = four;
    at += 4;
    shift = 32;
  }
  if ((bytes & 2) != 0) {
    uint16_t two;
    std::memcpy(&two, at, sizeof(two));
    word |= uint64_t{two} << shift;
    at += 2;
    shift += 16;
  }
  if ((bytes & 1) != 0) {
    word |= uint64_t{static_cast<unsigned char>(*at)} << shift;
    shift += 8;
  }
  return word | (kPlainFill << shift);
}

bool IsContinuationByte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

}  // namespace

size_t Utf8SequenceLength(std::string_view text, size_t* bad_len) {
  *bad_len = 0;
  if (text.empty())
    return 0;
  const auto byte = [&text](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80)
    return 1;
  // Table 3-7 of the Unicode standard: the second byte's range depends on the lead byte, which
  // rules out overlong forms, surrogates and code points above U+10FFFF.
  size_t need = 0;
  unsigned char lo = 0x80;
  unsigned char hi = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    need = 2;
  } else if (lead == 0xE0) {
    need = 3;
    lo = 0xA0;
  } else if (lead == 0xED) {
    need = 3;
    hi = 0x9F;
  } else if (lead >= 0xE1 && lead <= 0xEF) {
    need = 3;
  } else if (lead == 0xF0) {
    need = 4;
    lo = 0x90;
  } else if (lead == 0xF4) {
    need = 4;
    hi = 0x8F;
  } else if (lead >= 0xF1 && lead <= 0xF3) {
    need = 4;
  } else {
    *bad_len = 1;
    return 0;
  }
  size_t i = 1;
  for (; i < need && i < text.size(); ++i) {
    const unsigned char b = byte(i);
    if (b < (i == 1 ? lo : 0x80) || b > (i == 1 ? hi : 0xBF))
      break;
  }
  if (i == need)
    return need;
  *bad_len = i;
  return 0;
}

size_t Utf8Length(std::string_view text) {
  size_t count = 0;
  while (!text.empty()) {
    // ASCII, one byte a character and nearly every name's whole text (a report measures every
    // device slice name), is stepped over eight bytes at a time.
    size_t ascii = 0;
    for (uint64_t word = 0; ascii + sizeof(word) <= text.size(); ascii += sizeof(word)) {
      std::memcpy(&word, text.data() + ascii, sizeof(word));
      if ((word & 0x8080808080808080ULL) != 0)
        break;
    }
    while (ascii < text.size() && static_cast<unsigned char>(text[ascii]) < 0x80)
      ++ascii;
    count += ascii;
    text.remove_prefix(ascii);
    if (text.empty())
      break;
    size_t bad_len = 0;
    const size_t len = Utf8SequenceLength(text, &bad_len);
    text.remove_prefix(len != 0 ? len : bad_len);
    ++count;
  }
  return count;
}

size_t JsonPieceEnd(std::string_view text, size_t start) {
  const size_t limit = start + kJsonPieceBytes;
  if (limit >= text.size())
    return text.size();
  // A sequence or an ill-formed unit spans at most four bytes, of which only the first is no
  // continuation byte: three steps back reach its start, and four continuation bytes in a row
  // hold no unit across the limit.
  size_t end = limit;
  for (int back = 0; back < 3 && IsContinuationByte(text[end]); ++back)
    --end;
  return IsContinuationByte(text[end]) ? limit : end;
}

char* EscapeJsonTextTo(char* out, std::string_view piece) {
  const char* in = piece.data();
  const size_t n = piece.size();
  size_t i = 0;
  for (;;) {
    // Names, keys and most values are plain ASCII: eight bytes are checked and copied at a time.
    for (; i + 8 <= n; i += 8) {
      uint64_t word;
      std::memcpy(&word, in + i, sizeof(word));
      if (WordNeedsLook(word))
        break;
      std::memcpy(out, &word, sizeof(word));
      out += sizeof(word);
    }
    if (i < n && n - i < 8) {
      const uint64_t word = TailWord(in + i, n - i);
      if (!WordNeedsLook(word)) {
        std::memcpy(out, &word, sizeof(word));  // the fill lands in the slack, past the end
        return out + (n - i);
      }
    }
    while (i < n && !ByteNeedsLook(static_cast<unsigned char>(in[i])))
      *out++ = in[i++];
    if (i == n)
      return out;
    const auto c = static_cast<unsigned char>(in[i]);
    if (c < 0x80) {
      out = WriteEscaped(out, c);
      ++i;
      continue;
    }
    size_t bad_len = 0;
    const size_t len = Utf8SequenceLength(piece.substr(i), &bad_len);
    if (len != 0) {
      std::memcpy(out, in + i, len);
      out += len;
      i += len;
    } else {
      std::memcpy(out, kReplacementChar.data(), kReplacementChar.size());
      out += kReplacementChar.size();
      i += bad_len;
    }
  }
}

void AppendJsonQuoted(std::string* out, std::string_view text) {
  out->push_back('"');
  for (size_t start = 0; start < text.size();) {
    const size_t end = JsonPieceEnd(text, start);
    const size_t old_size = out->size();
    out->resize(old_size + kMaxEscapedBytesPerByte * (end - start) + kEscapeSlackBytes);
    const char* written = EscapeJsonTextTo(out->data() + old_size, text.substr(start, end - start));
    out->resize(static_cast<size_t>(written - out->data()));
    start = end;
  }
  out->push_back('"');
}

std::string JsonQuote(std::string_view text) {
  std::string quoted;
  quoted.reserve(text.size() + 2);
  AppendJsonQuoted(&quoted, text);
  return quoted;
}

}  // namespace rblnsim::trace
