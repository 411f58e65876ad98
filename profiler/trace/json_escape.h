// JSON string escaping and the UTF-8 rules it follows. Output is always valid JSON in valid
// UTF-8: RFC 8259's escapes for '"', '\\' and control characters, and U+FFFD for each maximal
// ill-formed UTF-8 unit (Unicode §3.9), so a trace with a broken kernel name still loads in
// Perfetto. The escaping writes into memory the caller has made room in; JsonWriter escapes into
// its own buffer without a std::string append per run of plain bytes.
#ifndef RBLNSIM_PROFILER_TRACE_JSON_ESCAPE_H_
#define RBLNSIM_PROFILER_TRACE_JSON_ESCAPE_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace rblnsim::trace {

// Length of the well-formed UTF-8 sequence at the start of |text| (1-4), or 0 if it is not
// well-formed; then *bad_len is the length of its maximal ill-formed prefix (Unicode §3.9, the
// unit that one U+FFFD replaces).
size_t Utf8SequenceLength(std::string_view text, size_t* bad_len);

// Number of code points, counting each ill-formed unit as one (what Python's len() shows after
// a lossy decode).
size_t Utf8Length(std::string_view text);

// The most bytes one input byte becomes when escaped ("\u00XX").
inline constexpr size_t kMaxEscapedBytesPerByte = 6;
// The longest piece of a string escaped in one go: its worst case is the room a writer keeps.
inline constexpr size_t kJsonPieceBytes = 4096;

// Where the piece of |text| starting at |start| ends: at most kJsonPieceBytes on, and never
// inside a UTF-8 sequence, so escaping the pieces one by one writes what escaping the whole
// would (a piece boundary is never a continuation byte, which no sequence or ill-formed unit
// starts with).
size_t JsonPieceEnd(std::string_view text, size_t start);

// Bytes past the escaped text that escaping may overwrite: a string's last bytes are copied as
// one word.
inline constexpr size_t kEscapeSlackBytes = 8;

// Writes |piece| escaped (without quotes) at |out|, which has room for
// kMaxEscapedBytesPerByte * piece.size() + kEscapeSlackBytes bytes; returns the end of what was
// written.
char* EscapeJsonTextTo(char* out, std::string_view piece);

// Appends |text| as a quoted JSON string to |out|.
void AppendJsonQuoted(std::string* out, std::string_view text);
std::string JsonQuote(std::string_view text);

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_JSON_ESCAPE_H_
