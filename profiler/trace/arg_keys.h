// Arg keys, each spelt once per process. A trace repeats a few dozen keys ("External id",
// "launch_id", "Input Dims", ...) on millions of events; an ArgList (arg_list.h) stores an
// interned key as a two-byte id instead of its text, which halves a typical event's arg block.
//
// The table only grows and lives until exit, so it is bounded: keys longer than
// kMaxInternedArgKeyBytes, and any key once kMaxInternedArgKeys are taken (a crafted trace with
// a new key per event), are not interned, and their lists hold the text as before. Interning
// and reading are safe from any thread; each thread keeps a small cache in front of the shared
// table, so the common case takes no lock.
#ifndef RBLNSIM_PROFILER_TRACE_ARG_KEYS_H_
#define RBLNSIM_PROFILER_TRACE_ARG_KEYS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace rblnsim::trace {

inline constexpr uint32_t kMaxInternedArgKeys = 4096;
inline constexpr size_t kMaxInternedArgKeyBytes = 64;

// What the id functions return for a key without an id.
inline constexpr int32_t kNoArgKeyId = -1;

// The id of |key|, interned now if it was not; kNoArgKeyId when it is not to be interned (too
// long, or the table is full). Ids cross these calls as ints: returned as a
// std::optional<uint16_t>, GCC stored the id and its flag apart and read them back as one word,
// a store-forwarding stall on every arg an import reads.
int32_t InternArgKeyId(std::string_view key);
// The id of |key| if some list interned it already, else kNoArgKeyId; never interns.
int32_t FindArgKeyId(std::string_view key);

inline std::optional<uint16_t> ArgKeyIdOf(int32_t id) {
  return id == kNoArgKeyId ? std::nullopt : std::optional<uint16_t>(static_cast<uint16_t>(id));
}
inline std::optional<uint16_t> InternArgKey(std::string_view key) {
  return ArgKeyIdOf(InternArgKeyId(key));
}
inline std::optional<uint16_t> FindArgKey(std::string_view key) {
  return ArgKeyIdOf(FindArgKeyId(key));
}
// The text of an id InternArgKey returned (in any thread).
std::string_view ArgKeyText(uint16_t id);
// How many keys are interned, for tests and memory accounting.
uint32_t InternedArgKeyCount();

// A key looked up once, for code that adds the same key to every event it makes (the bridge,
// the simulator's host ops): a static ArgKey spares each Add the lookup. It views |text|, which
// must outlive it (a literal, for a static one).
class ArgKey {
 public:
  explicit ArgKey(std::string_view text) : text_(text), id_(InternArgKeyId(text)) {}
  // A key only looked for: not interned if no list holds it yet.
  static ArgKey Existing(std::string_view text) { return ArgKey(text, FindArgKeyId(text)); }
  std::string_view text() const { return text_; }
  // The interned id; nullopt when the key is stored as text.
  std::optional<uint16_t> id() const { return ArgKeyIdOf(id_); }

 private:
  ArgKey(std::string_view text, int32_t id) : text_(text), id_(id) {}

  std::string_view text_;
  int32_t id_;  // or kNoArgKeyId
};

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_ARG_KEYS_H_
