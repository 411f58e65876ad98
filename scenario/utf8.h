// Strict UTF-8 (RFC 3629, Unicode table 3-7): the one decoder behind every text check of the
// scenario language, so a file, an overlay, a --set argument and a quoted escape obey the same
// rule. Overlong forms, encoded surrogates (U+D800..U+DFFF) and code points past U+10FFFF are
// ill-formed, as are truncated sequences and stray continuation bytes.
#ifndef RBLNSIM_SCENARIO_UTF8_H_
#define RBLNSIM_SCENARIO_UTF8_H_

#include <cstddef>
#include <string_view>

namespace rblnsim::scenario {

struct Utf8Sequence {
  size_t length = 0;              // bytes of the well-formed sequence at the offset; 0 if none
  const char* problem = nullptr;  // why it is ill-formed, for messages
};

// The well-formed sequence starting at text[offset] (offset < text.size()).
inline Utf8Sequence NextUtf8(std::string_view text, size_t offset) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[offset + k]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) {
    return {1, nullptr};
  }
  size_t length = 0;
  // The second byte's range depends on the lead: the narrow ranges exclude overlong forms
  // (E0, F0), surrogates (ED) and code points beyond U+10FFFF (F4).
  unsigned char low = 0x80, high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) {
      low = 0xA0;
    } else if (lead == 0xED) {
      high = 0x9F;
    }
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) {
      low = 0x90;
    } else if (lead == 0xF4) {
      high = 0x8F;
    }
  } else if (lead >= 0x80 && lead <= 0xBF) {
    return {0, "a continuation byte without a lead byte"};
  } else if (lead == 0xC0 || lead == 0xC1) {
    return {0, "an overlong 2-byte encoding"};
  } else {
    return {0, "a code point beyond U+10FFFF"};  // F5..FF
  }
  if (offset + length > text.size()) {
    return {0, "a truncated sequence"};
  }
  const unsigned char second = byte(1);
  if (second < low || second > high) {
    if ((second & 0xC0) != 0x80) {
      return {0, "a truncated sequence"};
    }
    if (lead == 0xE0) {
      return {0, "an overlong 3-byte encoding"};
    }
    if (lead == 0xF0) {
      return {0, "an overlong 4-byte encoding"};
    }
    if (lead == 0xED) {
      return {0, "an encoded surrogate (U+D800..U+DFFF)"};
    }
    return {0, "a code point beyond U+10FFFF"};
  }
  for (size_t k = 2; k < length; ++k) {
    if ((byte(k) & 0xC0) != 0x80) {
      return {0, "a truncated sequence"};
    }
  }
  return {length, nullptr};
}

// Offset of the first ill-formed byte, or npos when all of `text` is well-formed.
inline size_t FindInvalidUtf8(std::string_view text, Utf8Sequence* why = nullptr) {
  for (size_t i = 0; i < text.size();) {
    const Utf8Sequence sequence = NextUtf8(text, i);
    if (sequence.length == 0) {
      if (why != nullptr) {
        *why = sequence;
      }
      return i;
    }
    i += sequence.length;
  }
  return std::string_view::npos;
}

}  // namespace rblnsim::scenario

#endif  // RBLNSIM_SCENARIO_UTF8_H_
