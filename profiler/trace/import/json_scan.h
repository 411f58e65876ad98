// A structural scanner: finds where a JSON value ends by matching brackets and quotes, without
// parsing what is inside. The importer uses it to cut the traceEvents array into events, so
// simdjson only ever indexes one event at a time: a whole-document index costs four bytes per
// input byte and cannot pass 4 GiB, and real traces reach gigabytes.
//
// Errors are one line "byte <offset>: <what>", offsets into |text| plus |base_offset| (where
// |text| starts in the whole input: the importer scans a window of it); the caller adds the path.
// |truncated|, when given, is set when the value runs past the end of |text|: with more text the
// scan may succeed, so a windowed reader reads on and retries.
#ifndef RBLNSIM_PROFILER_TRACE_IMPORT_JSON_SCAN_H_
#define RBLNSIM_PROFILER_TRACE_IMPORT_JSON_SCAN_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"

namespace rblnsim::trace::import {

// "No such position": what the importer's per-event reads return instead of an empty
// std::optional<uint64_t>. GCC returned such an optional through the stack with a one-byte store
// for its flag and read it back as a word, a store-forwarding stall for every event at every
// level of the call chain (perf annotate: half of LineStream::Take's samples). Never an offset:
// no input is 2^64 - 1 bytes long.
inline constexpr uint64_t kNoOffset = UINT64_MAX;
static_assert(SIZE_MAX == kNoOffset, "relative positions (size_t) use the same value");

// The importer's one nesting limit (simdjson's default): each value it parses on its own (a
// trace event, a top-level member's value) may nest objects and arrays this deep, the value
// itself counting as level 1. Deeper input is an error at the first bracket past the limit,
// on every path (the structural scan, the walks over simdjson values), never a recursion.
inline constexpr size_t kMaxJsonDepth = 1024;

// "JSON nesting deeper than 1024 levels": one wording for every path that enforces the limit.
std::string NestingTooDeep();

Status ErrorAtByte(uint64_t offset, const std::string& what);

// "'x'" for a printable byte, "byte 0xNN" otherwise: keeps messages on one printable line.
std::string DescribeByte(char c);

// Quotes a piece of input for an error message: at most 40 bytes, printable ASCII only.
std::string Excerpt(std::string_view text);

inline bool IsJsonWhitespace(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// First non-whitespace position at or after |pos| (text.size() if none).
size_t SkipWhitespace(std::string_view text, size_t pos);

// |pos| is at an opening quote; returns one past the closing quote.
StatusOr<size_t> SkipString(std::string_view text,
                            size_t pos,
                            uint64_t base_offset = 0,
                            bool* truncated = nullptr);

// |pos| is at the first byte of a value; returns one past its last byte. Scalars end at the next
// delimiter; they are validated later by whoever parses them. |max_depth| is the nesting the
// value may have: kMaxJsonDepth + 1 for an array whose elements are each allowed kMaxJsonDepth.
StatusOr<size_t> SkipValue(std::string_view text,
                           size_t pos,
                           uint64_t base_offset = 0,
                           bool* truncated = nullptr,
                           size_t max_depth = kMaxJsonDepth);

}  // namespace rblnsim::trace::import

#endif  // RBLNSIM_PROFILER_TRACE_IMPORT_JSON_SCAN_H_
