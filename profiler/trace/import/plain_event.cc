#include "profiler/trace/import/plain_event.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <optional>

#include "profiler/trace/import/integer_text.h"
#include "profiler/trace/import/time_text.h"

namespace rblnsim::trace::import {

namespace {

// The members the model reads, one bit each; any other member is validated and skipped.
enum Field : uint32_t { kPh, kCat, kName, kPid, kTid, kTs, kDur, kId, kArgs, kUnknown };

static_assert(std::endian::native == std::endian::little, "FieldOf packs names little-endian");

// Member names compared as little integers: a string comparison per candidate was a call each.
constexpr uint32_t Packed(std::string_view name) {
  uint32_t packed = 0;
  for (size_t i = name.size(); i-- > 0;)
    packed = (packed << 8) | static_cast<unsigned char>(name[i]);
  return packed;
}

// The names of the Fields, in Field order.
constexpr std::string_view kFieldNames[] = {"ph", "cat", "name", "pid", "tid",
                                            "ts", "dur", "id",   "args"};
static_assert(sizeof(kFieldNames) / sizeof(kFieldNames[0]) == kUnknown);

// A field's name packed is looked up in a table of sixteen slots, one multiplication away: a
// switch over the packed names was a call per member of every event and a chain of branches,
// and the branch after it took a twelfth of the plain scan's samples. The multiplier puts the
// nine names in nine slots (checked below).
constexpr uint32_t kFieldSlotMultiplier = 0xD5F4B3B3u;
constexpr size_t FieldSlot(uint32_t packed) {
  return (packed * kFieldSlotMultiplier) >> 28;
}

struct FieldSlotEntry {
  uint32_t packed = 0;
  uint32_t size = 0;  // 0: no field here (names are 2 to 4 bytes)
  Field field = kUnknown;
};

constexpr std::array<FieldSlotEntry, 16> kFieldSlots = [] {
  std::array<FieldSlotEntry, 16> slots{};
  for (uint32_t f = 0; f < kUnknown; ++f) {
    const uint32_t packed = Packed(kFieldNames[f]);
    slots[FieldSlot(packed)] = {packed, static_cast<uint32_t>(kFieldNames[f].size()),
                                static_cast<Field>(f)};
  }
  return slots;
}();

constexpr bool EveryFieldHasItsSlot() {
  for (uint32_t f = 0; f < kUnknown; ++f) {
    if (kFieldSlots[FieldSlot(Packed(kFieldNames[f]))].field != static_cast<Field>(f))
      return false;
  }
  return true;
}
static_assert(EveryFieldHasItsSlot(), "two field names share a slot: pick another multiplier");

// The field named by the |size| (2 to 4) bytes at the start of |word|, whatever follows them.
// Masked to the name, "ts" followed by a NUL packs to the same word as "ts": the name must also
// be as long as the field's, so that every byte of it is one of the field's letters.
inline Field FieldOfName(uint32_t word, size_t size) {
  const uint32_t packed = size >= 4 ? word : word & ((uint32_t{1} << (8 * size)) - 1);
  const FieldSlotEntry& entry = kFieldSlots[FieldSlot(packed)];
  return entry.packed == packed && entry.size == size ? entry.field : kUnknown;
}

// |key| is a member name inside the event's text, so its closing quote and the ':' follow it
// there: four bytes from its start are readable whenever it is two bytes long or more. They are
// read as one word: a memcpy of the name's own length was a call, and the word read back after
// its byte stores a store-forwarding stall.
Field FieldOf(std::string_view key) {
  if (key.size() < 2 || key.size() > 4)
    return kUnknown;
  uint32_t word = 0;
  std::memcpy(&word, key.data(), sizeof word);
  return FieldOfName(word, key.size());
}

// The member the cursor's next bytes name when they are a quoted name the model reads followed
// at once by its ':' (how Kineto and our writer write every one), moved past it; kUnknown, the
// cursor unmoved, for anything else, which the general reading then takes. One word read
// instead of a string scan, a call and two more reads per member: an event has about ten.
Field KnownMember(const char*& at, const char* end) {
  if (end - at < 8 || *at != '"')
    return kUnknown;
  uint64_t word = 0;
  std::memcpy(&word, at, sizeof word);
  auto byte = [word](int i) { return static_cast<char>(word >> (8 * i)); };
  // The name ends at the first quote after the opening one: two to four bytes in.
  int size = 2;
  while (size <= 4 && byte(size + 1) != '"')
    ++size;
  if (size > 4 || byte(1) == '"' || byte(2) == '"' || byte(size + 2) != ':')
    return kUnknown;
  const Field field = FieldOfName(static_cast<uint32_t>(word >> 8), static_cast<size_t>(size));
  if (field != kUnknown)
    at += size + 3;
  return field;
}

// The characters a JSON number token may hold, by byte: a table, because every ts and dur is
// such a token and six comparisons a byte showed in the scan's profile.
constexpr std::array<bool, 256> kNumberChars = [] {
  std::array<bool, 256> table{};
  for (char c = '0'; c <= '9'; ++c)
    table[static_cast<unsigned char>(c)] = true;
  for (const char c : {'-', '+', '.', 'e', 'E'})
    table[static_cast<unsigned char>(c)] = true;
  return table;
}();

bool IsNumberChar(char c) {
  return kNumberChars[static_cast<unsigned char>(c)];
}

}  // namespace

std::string_view PlainEventReader::String() {
  const char* const begin = at_;
#if defined(__SSE2__)
  // Sixteen bytes at a time to the first quote, backslash, control character or UTF-8 byte
  // (the latter two are the bytes below 0x20 as signed chars).
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i space = _mm_set1_epi8(0x20);
  while (end_ - at_ >= 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at_));
    const __m128i special =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, backslash)),
                     _mm_cmplt_epi8(bytes, space));
    const int mask = _mm_movemask_epi8(special);
    if (mask != 0) {
      at_ += __builtin_ctz(static_cast<unsigned>(mask));
      break;
    }
    at_ += 16;
  }
#endif
  for (; at_ < end_; ++at_) {
    const auto c = static_cast<unsigned char>(*at_);
    if (c == '"') {
      const std::string_view text(begin, static_cast<size_t>(at_ - begin));
      ++at_;
      return text;
    }
    // Escapes, control characters and UTF-8 are simdjson's to check and decode.
    if (c < 0x20 || c >= 0x80 || c == '\\')
      return {};
  }
  return {};
}

std::string_view PlainEventReader::NumberToken() {
  const char* const begin = at_;
  while (at_ < end_ && IsNumberChar(*at_))
    ++at_;
  return std::string_view(begin, static_cast<size_t>(at_ - begin));
}

namespace {

// The ASCII digits at |p| (sixteen bytes are readable there), eight at a time: their count and
// value when there are fewer than sixteen (count 0 for none), count -1 when there are more. A
// loop over them ended at a different digit for each number, a mispredicted branch per value
// read. Returned in registers and inlined: through a pointer, the value was stored and read back
// by the caller at once.
struct Digits {
  int count;
  uint64_t value;
};

[[gnu::always_inline]] inline Digits LeadingDigits(const char* p) {
  uint64_t chunk = 0;
  std::memcpy(&chunk, p, sizeof chunk);
  const int first = LeadingAsciiDigits(chunk);
  if (first < 8)
    return {first, first == 0 ? 0 : LeadingAsciiDigitsValue(chunk, first)};
  const uint64_t high = EightAsciiDigitsValue(chunk);
  std::memcpy(&chunk, p + 8, sizeof chunk);
  const int more = LeadingAsciiDigits(chunk);
  if (more == 8)
    return {-1, 0};
  if (more == 0)
    return {8, high};
  static constexpr uint64_t kScale[8] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
  return {8 + more, high * kScale[more] + LeadingAsciiDigitsValue(chunk, more)};
}

}  // namespace

bool PlainEventReader::Integer(int64_t* out) {
  // ShortPlainInteger(NumberToken()) in one pass for the common case: a sign, at most 18
  // digits, then no further number character.
  const char* p = at_;
  const bool negative = p < end_ && *p == '-';
  p += negative ? 1 : 0;
  const char* const digits = p;
  if (end_ - p >= 16) {
    const auto [count, word_value] = LeadingDigits(p);
    // None, sixteen or more, or a fraction or exponent after them: the loop below decides.
    if (count > 0 && !(p + count < end_ && IsNumberChar(p[count]))) {
      if (*digits == '0' && count > 1)
        return false;
      at_ = p + count;
      const auto value = static_cast<int64_t>(word_value);
      *out = negative ? -value : value;
      return true;
    }
  }
  int64_t value = 0;
  while (p < end_ && p - digits < 18) {
    const auto d = static_cast<unsigned>(*p - '0');
    if (d > 9)
      break;
    value = value * 10 + d;
    ++p;
  }
  const auto count = p - digits;
  if (count == 0 || (p < end_ && IsNumberChar(*p))) {
    const std::optional<int64_t> slow = ShortPlainInteger(NumberToken());
    *out = slow.value_or(0);
    return slow.has_value();
  }
  if (*digits == '0' && count > 1)
    return false;
  at_ = p;
  *out = negative ? -value : value;
  return true;
}

bool PlainEventReader::KinetoMicros(int64_t* ns) {
  const char* p = at_;
  const bool negative = p < end_ && *p == '-';
  p += negative ? 1 : 0;
  if (end_ - p < 16)
    return false;
  // At most 15 integer digits, as KinetoMicrosToNs reads them; a 16th is the general path's.
  const auto [count, whole] = LeadingDigits(p);
  if (count <= 0)
    return false;
  p += count;
  int64_t frac = 0;
  if (p < end_ && *p == '.') {
    if (end_ - p < 4)
      return false;
    for (int i = 1; i <= 3; ++i) {
      const auto d = static_cast<unsigned>(p[i] - '0');
      if (d > 9)
        return false;
      frac = frac * 10 + d;
    }
    p += 4;
  }
  // The token must end here, as NumberToken would end it.
  if (p < end_ && IsNumberChar(*p))
    return false;
  const int64_t value = static_cast<int64_t>(whole) * 1000 + frac;
  *ns = negative ? -value : value;
  at_ = p;
  return true;
}

bool PlainEventReader::Literal(std::string_view word) {
  if (static_cast<size_t>(end_ - at_) < word.size() ||
      std::memcmp(at_, word.data(), word.size()) != 0) {
    return false;
  }
  at_ += word.size();
  return true;
}

namespace {
uint64_t LengthBit(size_t size) {
  return uint64_t{1} << std::min<size_t>(size, 63);
}
}  // namespace

void PlainEventReader::KeepArgsChanged() {
  kept_lengths_ = 0;
  for (const std::string& key : *keep_args_)
    kept_lengths_ |= LengthBit(key.size());
  for (KnownKey& known : known_keys_) {
    if (!known.quoted.empty())
      known.SetKept(Kept(known.text()));
  }
}

size_t PlainEventReader::FirstKeySlot(std::string_view name) {
  // The name's length and its first and last eight bytes (or its first and last byte).
  uint64_t word = name.size();
  if (name.size() >= 8) {
    uint64_t first = 0;
    uint64_t last = 0;
    std::memcpy(&first, name.data(), sizeof first);
    std::memcpy(&last, name.data() + name.size() - 8, sizeof last);
    word ^= first ^ (last * 0xC2B2AE3D27D4EB4Full);
  } else if (!name.empty()) {
    word ^= static_cast<uint64_t>(static_cast<unsigned char>(name.front())) << 8 |
            static_cast<uint64_t>(static_cast<unsigned char>(name.back())) << 16;
  }
  static_assert(kNameSlots == 16, "the slot is the hash's top four bits");
  return kKnownKeys + ((word * 0x9E3779B97F4A7C15ull) >> 60);
}

uint8_t PlainEventReader::KnowKey(std::string_view key) {
  uint64_t word = 0;
  std::memcpy(&word, key.data(), std::min(key.size(), sizeof word));
  const auto slot = static_cast<uint8_t>(((word ^ key.size()) * 0x9E3779B97F4A7C15ull) >> 59);
  static_assert(kKnownKeys == 32, "the slot is the hash's top five bits");
  KnownKey& known = known_keys_[slot];
  if (known.quoted.size() != key.size() + 3 ||
      known.quoted.compare(1, key.size(), key.data(), key.size()) != 0) {
    known.quoted.assign(1, '"').append(key).append("\":");
    known.container.clear();
    known.SetKept(Kept(key));
  }
  return slot;
}

bool PlainEventReader::Kept(std::string_view key) const {
  if (keep_args_->empty())
    return true;
  return (kept_lengths_ & LengthBit(key.size())) != 0 &&
         std::find(keep_args_->begin(), keep_args_->end(), key) != keep_args_->end();
}

bool PlainEventReader::Scalar(PlainScalar* out) {
  SkipSpace();
  if (at_ == end_)
    return false;
  const char* const token = at_;
  switch (*at_) {
    case '"':
      ++at_;
      out->kind = PlainScalar::kString;
      out->text = String();
      return out->text.data() != nullptr;
    case 't':
      out->kind = PlainScalar::kTrue;
      break;
    case 'f':
      out->kind = PlainScalar::kFalse;
      break;
    case 'n':
      out->kind = PlainScalar::kNull;
      break;
    default: {
      // Fractions, exponents and integers past 18 digits are the walk's: it reads them as
      // doubles or keeps their digits.
      if (!Integer(&out->integer))
        return false;
      out->kind = PlainScalar::kInteger;
      out->text = std::string_view(token, static_cast<size_t>(at_ - token));
      return true;
    }
  }
  out->text = out->kind == PlainScalar::kTrue    ? "true"
              : out->kind == PlainScalar::kFalse ? "false"
                                                 : "null";
  return Literal(out->text);
}

bool PlainEventReader::Read(const char* begin,
                            const char* end,
                            uint64_t offset,
                            int ns_exponent,
                            ArgPool* pool,
                            RawEvent* event) {
  at_ = begin;
  end_ = end;
  event->Clear();
  event->offset = offset;
  uint32_t seen = 0;
  other_names_.clear();
  if (!Take('{'))
    return false;
  for (int more = FirstMember(); more != 0; more = NextMember()) {
    if (more < 0)
      return false;
    SkipSpace();
    Field field = KnownMember(at_, end_);
    std::string_view key;
    if (field == kUnknown) {
      key = MemberName();
      if (key.data() == nullptr)
        return false;
      field = FieldOf(key);
    }
    if (field == kUnknown) {
      // Members the model does not read ("s", "bp", ...): still JSON, and still named once.
      if (std::find(other_names_.begin(), other_names_.end(), key) != other_names_.end() ||
          !SkipValue()) {
        return false;
      }
      other_names_.emplace_back(key.data(), key.size());
    } else {
      if (((seen >> field) & 1) != 0)
        return false;
      seen |= uint32_t{1} << field;
      if (!ReadField(field, ns_exponent, pool, event))
        return false;
    }
  }
  SkipSpace();
  return at_ == end_;
}

bool PlainEventReader::ReadField(uint32_t field, int ns_exponent, ArgPool* pool, RawEvent* event) {
  SkipSpace();
  if (at_ == end_)
    return false;
  const bool quoted = *at_ == '"';
  std::string_view text;
  if (quoted) {
    ++at_;
    text = String();
    if (text.data() == nullptr)
      return false;
  }
  switch (field) {
    case kPh:
    case kCat:
    case kName: {
      if (!quoted)
        return false;
      std::string& out = field == kPh ? event->ph : field == kCat ? event->cat : event->name;
      out.assign(text);
      // Stored, not or-ed in: GCC merged the two flags into one 16-bit read-modify-write of
      // bytes RawEvent::Clear had just stored one by one, a store-forwarding stall per event
      // (perf annotate: a sixth of this function's samples).
      if (field == kPh)
        event->has_ph = true;
      else if (field == kCat)
        event->has_cat = true;
      break;
    }
    case kPid:
    case kTid: {
      RowId& row = field == kPid ? event->pid : event->tid;
      row.present = true;
      if (quoted) {
        row.is_int = ParseWhole(text, &row.value);
        if (row.is_int)
          event->quoted_numbers = true;
        else
          row.text.assign(text);
      } else {
        if (!Integer(&row.value))
          return false;
        row.is_int = true;
      }
      break;
    }
    case kTs:
    case kDur: {
      int64_t* const ns = field == kTs ? &event->ts_ns : &event->dur_ns;
      if (!quoted && ns_exponent == 3 && KinetoMicros(ns)) {
        (field == kTs ? event->has_ts : event->has_dur) = true;
        break;
      }
      if (!quoted)
        text = NumberToken();
      if (!DecimalTextToNs(text, ns_exponent, ns))
        return false;
      event->quoted_numbers |= quoted;
      (field == kTs ? event->has_ts : event->has_dur) = true;
      break;
    }
    case kId: {
      if (quoted) {
        uint64_t id = 0;
        if (ParseWhole(text, &id))
          event->id = id;
      } else {
        const bool negative = *at_ == '-';
        int64_t value = 0;
        if (!Integer(&value))
          return false;
        if (!negative)  // "-0" is no id either
          event->id = static_cast<uint64_t>(value);
      }
      break;
    }
    case kArgs:
      if (quoted)
        return false;
      if (*at_ == '{') {
        if (!ReadArgs(event, pool))
          return false;
      } else if (!Literal("null")) {
        return false;
      }
      break;
    case kUnknown:
      return false;
  }
  return true;
}

bool PlainEventReader::SkipValue() {
  SkipSpace();
  if (at_ < end_ && (*at_ == '{' || *at_ == '['))
    return CopyContainer();
  PlainScalar scalar;
  return Scalar(&scalar);
}

bool PlainEventReader::ReadArgs(RawEvent* event, ArgPool* pool) {
  ++at_;  // the '{'
  keys_.clear();
  builder_.Clear();
  // A bit per (length, first byte) of the keys so far: a key whose bit is clear cannot repeat
  // one, and most are told so without comparing it against each (2% of an import's samples went
  // to those comparisons).
  uint64_t key_bits = 0;
  // The name is read already when written first, as Kineto and our writer write it.
  size_t previous = FirstKeySlot(event->name);
  for (int more = FirstMember(); more != 0; more = NextMember()) {
    if (more < 0)
      return false;
    SkipSpace();
    const char* const name_at = at_;
    uint8_t slot = PredictedKey(previous);
    std::string_view key;
    if (slot != kNoKnownKey) {
      // The key's bytes in the text: an entry's copy may be refilled by a later key of the
      // same event, and keys_ must still hold this one.
      key = std::string_view(name_at + 1, known_keys_[slot].quoted.size() - 3);
    } else {
      key = MemberName();
      if (key.data() == nullptr)
        return false;
      slot = KnowKey(key);
      next_key_[previous] = slot;
    }
    previous = slot;
    KnownKey& known = known_keys_[slot];
    const uint64_t key_bit =
        uint64_t{1} << ((key.size() * 7 + (key.empty() ? 0 : static_cast<unsigned char>(key[0]))) &
                        63);
    if ((key_bits & key_bit) != 0 && std::find(keys_.begin(), keys_.end(), key) != keys_.end())
      return false;  // the walk names the duplicate and where it was first
    key_bits |= key_bit;
    // From its two words, not the view: copied whole, the view was read back as one 16-byte load
    // of the two 8-byte stores that spilled it, a store-forwarding stall per arg.
    keys_.emplace_back(key.data(), key.size());
    const bool kept = known.key.has_value();
    // Each value read here rather than through Scalar(): args are most of an event's values,
    // and going through PlainScalar cost 1.2% more instructions for all of `check`.
    SkipSpace();
    if (at_ == end_)
      return false;
    const char c = *at_;
    if (c == '"') {
      ++at_;
      const std::string_view text = String();
      if (text.data() == nullptr)
        return false;
      if (kept)
        builder_.Add(*known.key, text);
    } else if (c == '{' || c == '[') {
      const std::string_view compact = Container(known);
      if (compact.data() == nullptr)
        return false;
      if (kept)
        builder_.Add(*known.key, RawJsonView{compact});
    } else if (c == 't' || c == 'f') {
      const bool value = c == 't';
      if (!Literal(value ? "true" : "false"))
        return false;
      if (kept)
        builder_.Add(*known.key, value);
    } else if (c == 'n') {
      if (!Literal("null"))
        return false;
      if (kept)
        builder_.Add(*known.key, RawJsonView{"null"});
    } else {
      // Fractions, exponents and integers past 18 digits are the walk's: it reads them as
      // doubles or keeps their digits.
      int64_t value = 0;
      if (!Integer(&value))
        return false;
      if (kept)
        builder_.AddInt(*known.key, value);
    }
  }
  event->args = builder_.Build(pool);
  return true;
}

std::string_view PlainEventReader::Container(KnownKey& known) {
  const std::string& raw = known.container;
  if (!raw.empty() && static_cast<size_t>(end_ - at_) >= raw.size() &&
      std::memcmp(at_, raw.data(), raw.size()) == 0) {
    // The same bytes as the container validated last time, up to and including its closing
    // bracket: the same container, and the same compact text.
    at_ += raw.size();
    return known.compact;
  }
  const char* const begin = at_;
  if (!CopyContainer())
    return {};
  const auto size = static_cast<size_t>(at_ - begin);
  if (size <= kMaxKnownContainerBytes) {
    known.container.assign(begin, size);
    known.compact = compact_;
  } else {
    known.container.clear();
  }
  return compact_;
}

bool PlainEventReader::CopyContainer() {
  compact_.clear();
  // Per open container: whether it is an object, and whether a member was read yet.
  struct Level {
    bool object = false;
    bool empty = true;
  };
  Level levels[kMaxPlainDepth];
  int depth = 0;
  auto open = [&](char bracket) {
    if (depth == kMaxPlainDepth)
      return false;
    levels[depth++] = Level{bracket == '{', true};
    compact_.push_back(bracket);
    ++at_;
    return true;
  };
  if (!open(*at_))
    return false;
  while (depth > 0) {
    Level& level = levels[depth - 1];
    const char close = level.object ? '}' : ']';
    SkipSpace();
    if (at_ == end_)
      return false;
    if (*at_ == close) {
      compact_.push_back(close);
      ++at_;
      --depth;
      continue;
    }
    if (!level.empty) {
      if (*at_ != ',')
        return false;
      ++at_;
      compact_.push_back(',');
      SkipSpace();
      if (at_ == end_)
        return false;
    }
    level.empty = false;
    if (level.object) {
      const std::string_view key = MemberName();
      if (key.data() == nullptr)
        return false;
      compact_.push_back('"');
      compact_.append(key);
      compact_.append("\":");
      SkipSpace();
      if (at_ == end_)
        return false;
    }
    if (*at_ == '{' || *at_ == '[') {
      if (!open(*at_))
        return false;
      continue;
    }
    PlainScalar scalar;
    if (!Scalar(&scalar))
      return false;
    if (scalar.kind == PlainScalar::kString)
      compact_.push_back('"');
    compact_.append(scalar.text);
    if (scalar.kind == PlainScalar::kString)
      compact_.push_back('"');
  }
  return true;
}

}  // namespace rblnsim::trace::import
