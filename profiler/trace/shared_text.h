// Arg values, each spelt once per process. Some values repeat on most events of a trace: a
// device slice's "categories" ("Neural DMA, chiplet 0"), an op's "Input Dims" and "Input type"
// ([[256, 256], [256, 256]]). Stored in every event's arg block they were a third of it; an
// ArgList (arg_list.h) holds an interned value as a four-byte id instead, and reads it back as a
// view of this table, so every reader sees the same text as before.
//
// Only producers that know a value repeats intern it (the bridge, the simulator's host ops), and
// they look each value up once, not once per event. The table only grows and lives until exit,
// so it is bounded like the arg-key table: a longer value, or any once it is full, is not
// interned and its lists hold the text. Interning and reading are safe from any thread.
#ifndef RBLNSIM_PROFILER_TRACE_SHARED_TEXT_H_
#define RBLNSIM_PROFILER_TRACE_SHARED_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace rblnsim::trace {

inline constexpr uint32_t kMaxSharedTexts = 16384;
inline constexpr size_t kMaxSharedTextBytes = 256;

// An interned value and how it is written: a JSON string, or raw JSON (a number, array, object).
struct SharedText {
  uint32_t id = 0;
  bool raw = false;
};

// |text| interned (once per process: a repeat gets the same id), or nullopt when it is not to
// be (too long, or the table is full); |raw| as in SharedText.
std::optional<SharedText> InternSharedText(std::string_view text, bool raw);
// The text of an id InternSharedText returned (in any thread).
std::string_view SharedTextView(uint32_t id);
// How many texts are interned, for tests and memory accounting.
uint32_t SharedTextCount();

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_SHARED_TEXT_H_
