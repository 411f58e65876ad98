// Reads a trace event written plainly, the way Kineto and our writer write nearly every one, by a
// direct scan of its bytes instead of simdjson's On-Demand walk. On a large trace the walk was
// the importer's largest cost (bench/profiles.md): a type query, an iterator and a check per
// member, for events of a dozen short members.
//
// Plain means: member names and strings of printable ASCII without escapes, integers of at most
// 18 digits (times: any JSON number DecimalTextToNs reads), true / false / null, arrays and
// objects of those at most kMaxPlainDepth deep, every member and arg named once. Anything else --
// an escape, a fraction in an arg, UTF-8, a duplicate name, invalid JSON -- is declined
// before anything is decided, and the caller reads the event with simdjson, which then says
// what is wrong. So an event read here is the event EventReader::ReadEvent reads from the same
// bytes; tests/unit/import/plain_event_test.cc and the plain_event fuzzer hold the two readers
// to that.
#ifndef RBLNSIM_PROFILER_TRACE_IMPORT_PLAIN_EVENT_H_
#define RBLNSIM_PROFILER_TRACE_IMPORT_PLAIN_EVENT_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profiler/trace/arg_keys.h"
#include "profiler/trace/arg_list.h"
#include "profiler/trace/arg_pool.h"
#include "profiler/trace/import/event_reader.h"
#include "profiler/trace/import/json_scan.h"

namespace rblnsim::trace::import {

// Arrays and objects inside an arg nest at most this deep here; deeper ones are declined.
inline constexpr int kMaxPlainDepth = 8;

class PlainEventReader {
 public:
  // |keep_args| as EventReader::KeepOnlyArgs: empty keeps every arg; it must outlive the reader.
  explicit PlainEventReader(const std::vector<std::string>* keep_args) : keep_args_(keep_args) {
    next_key_.fill(kNoKnownKey);
    KeepArgsChanged();
  }
  // The keys in |keep_args| changed.
  void KeepArgsChanged();

  // The event in [begin, end): an object, then only whitespace. |offset| is begin's byte in the
  // input. True when it is plain and |event| holds it, its args in |pool|; false when declined
  // (|event| is then unspecified). |ns_exponent| as EventReader's.
  bool Read(const char* begin,
            const char* end,
            uint64_t offset,
            int ns_exponent,
            ArgPool* pool,
            RawEvent* event);

 private:
  // A string, true / false / null or an integer (ShortPlainInteger), as the scan reads it.
  struct PlainScalar {
    enum Kind : uint8_t { kString, kTrue, kFalse, kNull, kInteger };
    Kind kind = kNull;
    std::string_view text;  // a string's content; a literal or an integer as written
    int64_t integer = 0;
  };
  // The scalar value at the cursor (after whitespace), moved past. Arrays and objects (their
  // scalars) and members the model does not read take it; the hot members read their own.
  bool Scalar(PlainScalar* out);
  // A member the model reads (a Field of plain_event.cc), from its value's first byte.
  bool ReadField(uint32_t field, int ns_exponent, ArgPool* pool, RawEvent* event);
  // Validates a value the model does not read and moves past it.
  bool SkipValue();
  bool ReadArgs(RawEvent* event, ArgPool* pool);
  // An arg's array or object, from its opening bracket, validated and copied without
  // whitespace into |compact_| (ValueCopier::AppendCompact's form).
  bool CopyContainer();
  // A string's text, between the quotes, when it is plain, moved past the closing quote; a view
  // without data when declined. The views and integers of this scan come back in registers:
  // written through a pointer (or as a std::optional), the caller read them back as wider words
  // than the callee had stored, a store-forwarding stall per value (perf annotate of an import:
  // a fifth of the scan's samples).
  std::string_view String();
  // A number token: the longest run of number characters, to be validated by its reader.
  std::string_view NumberToken();
  // A JSON integer of at most 18 digits (ShortPlainInteger) at the cursor, moved past.
  bool Integer(int64_t* value);
  // A time in µs at the cursor in Kineto's form (digits, optionally '.' and three digits: what
  // KinetoMicrosToNs reads, time_text.cc) as ns, the cursor moved past; false, the cursor
  // unmoved, for any other number, which the general reading then takes. One pass instead of
  // cutting the token out and reading it again.
  bool KinetoMicros(int64_t* ns);
  bool Literal(std::string_view word);
  void SkipSpace() {
    while (at_ < end_ && IsJsonWhitespace(*at_))
      ++at_;
  }
  bool Take(char c) {
    SkipSpace();
    if (at_ == end_ || *at_ != c)
      return false;
    ++at_;
    return true;
  }
  // After an object's '{': 1 when a member follows, 0 past the '}' of an empty object, -1 when
  // the text ends. Counts, not a flag through a pointer: the member loops are the hottest code
  // of an import, and a flag in memory cost a store and a load per member.
  int FirstMember() {
    SkipSpace();
    if (at_ == end_)
      return -1;
    if (*at_ != '}')
      return 1;
    ++at_;
    return 0;
  }
  // A member's name and its ':', the cursor past them; a view without data when declined.
  std::string_view MemberName() {
    if (!Take('"'))
      return {};
    const std::string_view name = String();
    return name.data() != nullptr && Take(':') ? name : std::string_view();
  }
  // After a member's value: 1 past its ',' (another member follows), 0 past the object's '}',
  // -1 for anything else.
  int NextMember() {
    SkipSpace();
    if (at_ == end_)
      return -1;
    const char c = *at_++;
    return c == ',' ? 1 : c == '}' ? 0 : -1;
  }
  bool Kept(std::string_view key) const;

  // Arg keys as they were last written, to recognise the next one from its bytes. A trace's
  // events of one kind name the same args in the same order (a device slice's launch_id,
  // categories, device, stream, correlation), so the key that followed a key last time is
  // compared at the cursor, quotes and ':' included, before the key is scanned: on a match the
  // scan, the interning lookup and the keep test are the entry's. Only a prediction: a key that
  // is not the one predicted is read as before.
  struct KnownKey {
    std::string quoted;  // "key": as written, no whitespace; empty for an unused entry
    // When the key is kept: interned, its text in |quoted|. Keys that are not kept are not
    // interned, as before there were entries.
    std::optional<ArgKey> key;
    // The last array or object written under the key, as written and compacted: an op's input
    // shapes and types repeat from one call to the next, and a container with the same bytes
    // is the same container, read without scanning it again. Empty for none.
    std::string container;
    std::string compact;
    std::string_view text() const { return std::string_view(quoted).substr(1, quoted.size() - 3); }
    void SetKept(bool kept) {
      if (kept)
        key.emplace(text());
      else
        key.reset();
    }
  };
  static constexpr size_t kKnownKeys = 32;
  static constexpr uint8_t kNoKnownKey = 0xFF;
  // An args' first key is predicted by the event's name: kinds of events follow each other (an
  // op and its launch marker, each with args of its own), and one prediction for all missed
  // every time they took turns.
  static constexpr size_t kNameSlots = 16;
  // next_key_'s entry for the first key of the args of an event named |name|.
  static size_t FirstKeySlot(std::string_view name);
  // Containers up to this size are remembered by their key's entry.
  static constexpr size_t kMaxKnownContainerBytes = 256;
  // An arg's array or object at the cursor (CopyContainer), compacted; from |known|'s last one
  // when the bytes are the same. A view without data when declined.
  std::string_view Container(KnownKey& known);
  // The entry for |key|, filled in if it held another.
  uint8_t KnowKey(std::string_view key);
  // The entry whose key the cursor's next bytes are, the cursor moved past them and the ':';
  // kNoKnownKey otherwise.
  uint8_t PredictedKey(size_t previous) {
    const uint8_t slot = next_key_[previous];
    if (slot == kNoKnownKey)
      return kNoKnownKey;
    const std::string& quoted = known_keys_[slot].quoted;
    if (static_cast<size_t>(end_ - at_) < quoted.size() ||
        std::memcmp(at_, quoted.data(), quoted.size()) != 0) {
      return kNoKnownKey;
    }
    at_ += quoted.size();
    return slot;
  }

  const std::vector<std::string>* keep_args_;
  // Bit n: a kept key is n bytes long (keys of 63 bytes or more set bit 63). Most args are not
  // kept when an analysis asks for a few keys, and their lengths alone say so, without a
  // comparison against each kept key.
  uint64_t kept_lengths_ = 0;
  const char* at_ = nullptr;
  const char* end_ = nullptr;
  std::string compact_;                        // an array or object arg's text, reused
  std::vector<std::string_view> keys_;         // the event's arg names so far, for duplicates
  std::vector<std::string_view> other_names_;  // its other member names so far
  ArgListBuilder builder_;
  std::array<KnownKey, kKnownKeys> known_keys_;
  // By entry, the entry of the key that followed it last time; after them, by FirstKeySlot, the
  // entry of an args' first key.
  std::array<uint8_t, kKnownKeys + kNameSlots> next_key_;
};

}  // namespace rblnsim::trace::import

#endif  // RBLNSIM_PROFILER_TRACE_IMPORT_PLAIN_EVENT_H_
