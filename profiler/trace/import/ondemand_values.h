// Helpers over simdjson On-Demand values shared by the readers: error wording, byte offsets of
// values in the whole input, and walks that validate what they read.
#ifndef RBLNSIM_PROFILER_TRACE_IMPORT_ONDEMAND_VALUES_H_
#define RBLNSIM_PROFILER_TRACE_IMPORT_ONDEMAND_VALUES_H_

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "profiler/trace/import/integer_text.h"
#include "profiler/trace/import/json_scan.h"
#include "profiler/trace/trace.h"

namespace rblnsim::trace::import {

namespace od = simdjson::ondemand;

std::string_view TypeName(od::json_type type);  // "an array", "a number", ...
std::string InvalidJson(simdjson::error_code error);
std::string_view TrimRight(std::string_view text);

// Turns simdjson positions back into byte offsets of the whole input. Every document the
// readers open is one piece of the input in memory, starting at a known offset, so a pointer
// difference from the piece's start plus that offset is the offset.
class InputOffsets {
 public:
  InputOffsets() = default;
  // |base| holds the input's byte |base_offset|; it is also the fallback used when simdjson
  // cannot say where it is (e.g. past the end).
  InputOffsets(const char* base, uint64_t base_offset) : base_(base), base_offset_(base_offset) {}
  uint64_t Of(const char* p) const { return base_offset_ + static_cast<uint64_t>(p - base_); }
  // Where a value not yet read begins. Inline: it runs for every field of every event, and is
  // needed only for error messages. The value's first token is where current_location() would
  // point (the iterator is alive and on that token), read without its end-of-document checks.
  uint64_t Where(od::value& value) const { return Of(value.raw_json_token().data()); }

 private:
  const char* base_ = nullptr;
  uint64_t base_offset_ = 0;
};

// A member's name. A name without a backslash is its own text: it is read in place, not
// unescaped into the parser's string buffer (every member of every event has a name, and most
// never need it). Stage 1 has already checked that the string is closed and its bytes are valid.
inline simdjson::error_code FieldKey(od::field& field, std::string_view* key) {
  const char* const begin = field.key().raw();
  for (const char* p = begin;; ++p) {
    if (*p == '"') {
      *key = std::string_view(begin, static_cast<size_t>(p - begin));
      return simdjson::SUCCESS;
    }
    if (*p == '\\')
      return field.unescaped_key().get(*key);
  }
}

// Validates simdjson values while copying them without whitespace (args objects, metadata, and
// fields the model ignores but that must still be JSON). Nested objects and arrays are walked
// with an explicit stack, not by recursion, so no input can exhaust the thread's stack; a value
// nested deeper than kMaxJsonDepth (json_scan.h) is an error at its first bracket past the
// limit, the same byte and wording as the structural scan's. One per parser: the stack's memory
// is reused from value to value, so copying costs no allocation once it has grown.
class ValueCopier {
 public:
  // |level| is where |value| sits in the document simdjson parsed: 1 for the document's root, 2
  // for a member of the root object, ... With |out| null it only validates.
  Status AppendCompact(od::value& value,
                       size_t level,
                       const InputOffsets& offsets,
                       std::string* out);

  // An "args" value: integers as int64 (above INT64_MAX the digits stay RawJson), other numbers
  // as double, strings, bools; null, objects and arrays as compact RawJson.
  // Added to |out| under |key|, which must stay valid until then (simdjson's string buffer).
  Status ReadArgValue(od::value& value,
                      size_t level,
                      const InputOffsets& offsets,
                      std::string_view key,
                      ArgListBuilder* out);

  // How deep a value may nest, kMaxJsonDepth unless lowered: the readers of a simdjson stream
  // stop one level short (event_reader.cc says why) and leave deeper events to the plain read.
  void set_max_depth(size_t depth) { max_depth_ = depth; }

 private:
  std::string compact_;  // an object or array arg's text, reused
  size_t max_depth_ = kMaxJsonDepth;

  // An object or array being copied: where it opened (for errors) and how far it has been read.
  struct Frame {
    bool is_object = false;
    bool fresh = false;  // nothing visited yet: the iterator is at the first member
    uint64_t at = 0;
    simdjson::simdjson_result<od::object_iterator> field;
    simdjson::simdjson_result<od::object_iterator> fields_end;
    simdjson::simdjson_result<od::array_iterator> element;
    simdjson::simdjson_result<od::array_iterator> elements_end;
  };

  // Opens the container |value| (of |type|) as a new frame, writing its opening bracket.
  Status Open(od::value& value, od::json_type type, uint64_t at, std::string* out);

  std::vector<Frame> stack_;
};

}  // namespace rblnsim::trace::import

#endif  // RBLNSIM_PROFILER_TRACE_IMPORT_ONDEMAND_VALUES_H_
