// Helpers over simdjson On-Demand values shared by the readers: error wording, byte offsets of
// values in the whole input, and walks that validate what they read.
#ifndef RBLNSIM_PROFILER_TRACE_IMPORT_ONDEMAND_VALUES_H_
#define RBLNSIM_PROFILER_TRACE_IMPORT_ONDEMAND_VALUES_H_

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "profiler/base/status.h"
#include "profiler/trace/trace.h"

namespace rblnsim::trace::import {

namespace od = simdjson::ondemand;

std::string_view TypeName(od::json_type type);  // "an array", "a number", ...
std::string InvalidJson(simdjson::error_code error);
std::string_view TrimRight(std::string_view text);
// Quotes a piece of input for an error message: at most 40 bytes, printable ASCII only.
std::string Excerpt(std::string_view text);

// Turns simdjson positions back into byte offsets of the whole input. Every document the
// readers open is one piece of the input in memory, starting at a known offset, so a pointer
// difference from the piece's start plus that offset is the offset.
class InputOffsets {
 public:
  InputOffsets() = default;
  // |base| holds the input's byte |base_offset|; it is also the fallback used when simdjson
  // cannot say where it is (e.g. past the end).
  InputOffsets(const char* base, uint64_t base_offset)
      : base_(base), base_offset_(base_offset) {}
  uint64_t Of(const char* p) const { return base_offset_ + static_cast<uint64_t>(p - base_); }
  // Inline: it runs for every field of every event, and is needed only for error messages.
  uint64_t Where(od::value& value) const {
    const char* at = nullptr;
    return value.current_location().get(at) ? base_offset_ : Of(at);
  }

 private:
  const char* base_ = nullptr;
  uint64_t base_offset_ = 0;
};

// Validates |value| while appending it without whitespace (args objects, metadata, and fields
// the model ignores but that must still be JSON). With |out| null it only validates.
Status AppendCompactJson(od::value& value, const InputOffsets& offsets, std::string* out);

// An "args" value: integers as int64 (above INT64_MAX the digits stay RawJson), other numbers
// as double, strings, bools; null, objects and arrays as compact RawJson.
Status ReadArgValue(od::value& value, const InputOffsets& offsets, ArgValue* out);

}  // namespace rblnsim::trace::import

#endif  // RBLNSIM_PROFILER_TRACE_IMPORT_ONDEMAND_VALUES_H_
