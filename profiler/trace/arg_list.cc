#include "profiler/trace/arg_list.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <new>
#include <stdexcept>
#include <type_traits>

#include "profiler/trace/arg_keys.h"
#include "profiler/trace/shared_text.h"

namespace rblnsim::trace {

namespace {

// Each arg: a type byte, the key, then the value. The type byte's low bits are the stored kind
// (kInt64 to kRaw are the variant's indices; kInt32 is an int64 that fits in four bytes), its
// high bit says the key is an interned id (arg_keys.h, two bytes) rather than its text. Text
// (an inline key, a string, raw JSON) is a length, one byte below 255 or 255 and a uint32, then
// the bytes. Most events' args are a few ids and short strings under keys the whole trace
// shares, so this keeps a block at about half of what full keys and eight-byte numbers take.
// kSharedString and kSharedRaw are a string or raw JSON interned in the process's table
// (shared_text.h), stored as its four-byte id and read back as a view of the table's text.
// kInt8 is an int64 that fits in one byte (device ids, streams, zero flags).
//
// A block of the list's own starts with three uint32: count, bytes used (header included),
// bytes allocated. A block in a pool is never changed in place, so it needs neither capacity
// nor room to grow: its header is two uint16, count and payload bytes, or, for a block too large
// for those, kLongPooled, two spare bytes, then uint32 count and payload bytes. A pool packs
// blocks at two-byte alignment (all reads go through memcpy): with eight, and a twelve-byte
// header, a typical device slice's 35 bytes of args took 48.
constexpr size_t kHeaderBytes = 3 * sizeof(uint32_t);
constexpr size_t kPooledHeaderBytes = 2 * sizeof(uint16_t);
constexpr size_t kLongPooledHeaderBytes = 12;
constexpr uint16_t kLongPooled = 0xFFFF;
enum StoredKind : uint8_t {
  kInt64 = 0,
  kDouble = 1,
  kBool = 2,
  kString = 3,
  kRaw = 4,
  kInt32 = 5,
  kSharedString = 6,
  kSharedRaw = 7,
  kInt8 = 8,
};
constexpr uint8_t kInternedKey = 0x80;
constexpr uint8_t kKindMask = 0x7f;
constexpr uint8_t kLongText = 255;

uint32_t Length32(size_t n) {
  if (n > UINT32_MAX)
    throw std::length_error("trace arg longer than 4 GB");
  return static_cast<uint32_t>(n);
}

size_t TextSize(size_t n) {
  return (n < kLongText ? 1 : 1 + sizeof(uint32_t)) + n;
}

bool FitsInt32(int64_t i) {
  return i >= INT32_MIN && i <= INT32_MAX;
}

bool FitsInt8(int64_t i) {
  return i >= INT8_MIN && i <= INT8_MAX;
}

size_t IntSize(int64_t i) {
  return FitsInt8(i) ? 1 : FitsInt32(i) ? 4 : 8;
}

// The type byte and the key: a two-byte id, or the key's text.
size_t KeySize(const ArgKey& key) {
  return 1 + (key.id() ? sizeof(uint16_t) : TextSize(key.text().size()));
}

size_t EncodedSize(const ArgKey& key, const ArgValueView& value) {
  size_t payload = 8;
  if (const auto* i = std::get_if<int64_t>(&value))
    payload = IntSize(*i);
  else if (value.index() == kBool)
    payload = 1;
  else if (const auto* s = std::get_if<std::string_view>(&value))
    payload = TextSize(s->size());
  else if (const auto* r = std::get_if<RawJsonView>(&value))
    payload = TextSize(r->text.size());
  return KeySize(key) + payload;
}

char* PutText(char* out, std::string_view text) {
  const uint32_t n = Length32(text.size());
  if (n < kLongText) {
    *out++ = static_cast<char>(n);
  } else {
    *out++ = static_cast<char>(kLongText);
    std::memcpy(out, &n, sizeof n);
    out += sizeof n;
  }
  if (n != 0)
    std::memcpy(out, text.data(), n);
  return out + n;
}

// Writes the type byte (|kind| and whether the key is an id) and the key; returns the end.
char* PutKindAndKey(char* out, uint8_t kind, const ArgKey& key) {
  *out++ = static_cast<char>(kind | (key.id() ? kInternedKey : 0));
  if (const std::optional<uint16_t> id = key.id()) {
    std::memcpy(out, &*id, sizeof(uint16_t));
    return out + sizeof(uint16_t);
  }
  return PutText(out, key.text());
}

// An integer in the narrowest of its three forms.
char* EncodeInt(char* out, const ArgKey& key, int64_t i) {
  if (FitsInt8(i)) {
    out = PutKindAndKey(out, kInt8, key);
    *out = static_cast<char>(static_cast<int8_t>(i));
    return out + 1;
  }
  if (FitsInt32(i)) {
    out = PutKindAndKey(out, kInt32, key);
    const auto narrow = static_cast<int32_t>(i);
    std::memcpy(out, &narrow, sizeof narrow);
    return out + sizeof narrow;
  }
  out = PutKindAndKey(out, kInt64, key);
  std::memcpy(out, &i, sizeof i);
  return out + sizeof i;
}

char* Encode(char* out, const ArgKey& key, const ArgValueView& value) {
  if (const auto* i = std::get_if<int64_t>(&value))
    return EncodeInt(out, key, *i);
  out = PutKindAndKey(out, static_cast<uint8_t>(value.index()), key);
  if (const auto* d = std::get_if<double>(&value)) {
    std::memcpy(out, d, 8);
    return out + 8;
  }
  if (const auto* b = std::get_if<bool>(&value)) {
    *out = *b ? 1 : 0;
    return out + 1;
  }
  if (const auto* s = std::get_if<std::string_view>(&value))
    return PutText(out, *s);
  return PutText(out, std::get<RawJsonView>(value).text);
}

std::string_view GetText(const char** at) {
  uint32_t n = static_cast<uint8_t>(**at);
  ++*at;
  if (n == kLongText) {
    std::memcpy(&n, *at, sizeof n);
    *at += sizeof n;
  }
  std::string_view text(*at, n);
  *at += n;
  return text;
}

// The key of the arg at |*at|, moving past the type byte and the key; |*kind| gets the type
// byte and |*id| the interned id, when the key is one.
inline std::string_view GetKey(const char** at, uint8_t* kind, std::optional<uint16_t>* id) {
  *kind = static_cast<uint8_t>(**at);
  ++*at;
  if ((*kind & kInternedKey) == 0) {
    *id = std::nullopt;
    return GetText(at);
  }
  uint16_t key_id = 0;
  std::memcpy(&key_id, *at, sizeof key_id);
  *at += sizeof key_id;
  *id = key_id;
  return {};
}

// Decodes the value of kind |kind| at |*at| and moves past it.
ArgValueView GetValue(const char** at, uint8_t kind) {
  switch (kind & kKindMask) {
    case kInt8: {
      const auto i = static_cast<int8_t>(**at);
      ++*at;
      return int64_t{i};
    }
    case kInt32: {
      int32_t i = 0;
      std::memcpy(&i, *at, sizeof i);
      *at += sizeof i;
      return int64_t{i};
    }
    case kInt64: {
      int64_t i = 0;
      std::memcpy(&i, *at, 8);
      *at += 8;
      return i;
    }
    case kDouble: {
      double d = 0;
      std::memcpy(&d, *at, 8);
      *at += 8;
      return d;
    }
    case kBool: {
      const bool b = **at != 0;
      ++*at;
      return b;
    }
    case kString:
      return GetText(at);
    case kSharedString:
    case kSharedRaw: {
      uint32_t id = 0;
      std::memcpy(&id, *at, sizeof id);
      *at += sizeof id;
      const std::string_view text = SharedTextView(id);
      return (kind & kKindMask) == kSharedRaw ? ArgValueView(RawJsonView{text})
                                              : ArgValueView(text);
    }
    default:  // kRaw
      return RawJsonView{GetText(at)};
  }
}

// Moves past the value of kind |kind| at |*at| without reading it: searches skip most values.
inline void SkipValue(const char** at, uint8_t kind) {
  switch (kind & kKindMask) {
    case kInt32:
    case kSharedString:
    case kSharedRaw:
      *at += sizeof(uint32_t);
      return;
    case kInt64:
    case kDouble:
      *at += 8;
      return;
    case kBool:
    case kInt8:
      *at += 1;
      return;
    default:  // kString, kRaw
      GetText(at);
      return;
  }
}

// Decodes the arg at |*at| and moves past it.
ArgView Decode(const char** at) {
  uint8_t kind = 0;
  std::optional<uint16_t> id;
  ArgView arg;
  arg.key = GetKey(at, &kind, &id);
  if (id)
    arg.key = ArgKeyText(*id);
  arg.value = GetValue(at, kind);
  return arg;
}

// Whether the arg at |*at| has |key| (interned as |key_id|, if it is), moving past its key; its
// stored key goes to |*stored|.
inline bool KeyIs(const char** at,
                  std::string_view key,
                  std::optional<uint16_t> key_id,
                  uint8_t* kind,
                  std::string_view* stored) {
  std::optional<uint16_t> id;
  *stored = GetKey(at, kind, &id);
  if (id) {
    if (id != key_id)
      return false;
    *stored = ArgKeyText(*id);
    return true;
  }
  return *stored == key;
}

}  // namespace

ArgValueView ViewOf(const ArgValue& value) {
  return std::visit(
      [](const auto& v) -> ArgValueView {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>)
          return std::string_view(v);
        else if constexpr (std::is_same_v<T, RawJson>)
          return RawJsonView{v.text};
        else
          return v;  // the numbers and bools are the same alternatives
      },
      value);
}

ArgValue OwnedValue(const ArgValueView& value) {
  return std::visit(
      [](const auto& v) -> ArgValue {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string_view>)
          return std::string(v);
        else if constexpr (std::is_same_v<T, RawJsonView>)
          return RawJson{std::string(v.text)};
        else
          return v;
      },
      value);
}

bool operator==(const ArgValueView& view, const ArgValue& value) {
  return view == ViewOf(value);
}

std::optional<int64_t> IntArgValue(const ArgValueView& value) {
  if (const auto* i = std::get_if<int64_t>(&value))
    return *i;
  std::string_view text;
  if (const auto* s = std::get_if<std::string_view>(&value))
    text = *s;
  else if (const auto* raw = std::get_if<RawJsonView>(&value))
    text = raw->text;
  else
    return std::nullopt;
  if (text.empty())
    return std::nullopt;
  int64_t out = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (ec != std::errc() || ptr != text.data() + text.size())
    return std::nullopt;
  return out;
}

std::optional<int64_t> IntArgValue(const ArgValue& value) {
  return IntArgValue(ViewOf(value));
}

ArgView ArgList::Iterator::operator*() const {
  const char* at = at_;
  return Decode(&at);
}

ArgList::Iterator& ArgList::Iterator::operator++() {
  uint8_t kind = 0;
  std::optional<uint16_t> id;
  GetKey(&at_, &kind, &id);
  SkipValue(&at_, kind);
  return *this;
}

ArgList::ArgList(std::initializer_list<Arg> args) : ArgList(std::span(args.begin(), args.size())) {}

ArgList::ArgList(const std::vector<Arg>& args) : ArgList(std::span(args)) {}

ArgList::ArgList(std::span<const Arg> args) {
  ArgListBuilder builder;
  for (const Arg& arg : args)
    builder.Add(arg.key, ViewOf(arg.value));
  *this = builder.Build();
}

ArgList::ArgList(const ArgList& other) {
  if (other.data_ != nullptr)
    data_ = OwnCopy(other.payload(), 0);
}

ArgList::ArgList(ArgList&& other) noexcept : data_(other.data_) {
  other.data_ = nullptr;
}

ArgList& ArgList::operator=(const ArgList& other) {
  if (this != &other)
    *this = ArgList(other);
  return *this;
}

ArgList& ArgList::operator=(ArgList&& other) noexcept {
  if (this != &other) {
    Release();
    data_ = other.data_;
    other.data_ = nullptr;
  }
  return *this;
}

ArgList& ArgList::operator=(std::initializer_list<Arg> args) {
  return *this = ArgList(args);
}

ArgList::~ArgList() {
  Release();
}

void ArgList::Release() {
  if (data_ != nullptr && !pooled())  // a pooled block is the pool's
    ::operator delete(data_);
  data_ = nullptr;
}

ArgList::Payload ArgList::payload() const {
  if (data_ == nullptr)
    return {};
  const char* b = block();
  if (!pooled())
    return {b + kHeaderBytes, Header(1) - static_cast<uint32_t>(kHeaderBytes), Header(0)};
  uint16_t count = 0;
  uint16_t bytes = 0;
  std::memcpy(&count, b, sizeof count);
  std::memcpy(&bytes, b + sizeof count, sizeof bytes);
  if (count != kLongPooled)
    return {b + kPooledHeaderBytes, bytes, count};
  Payload long_form{b + kLongPooledHeaderBytes, 0, 0};
  std::memcpy(&long_form.count, b + 4, sizeof long_form.count);
  std::memcpy(&long_form.bytes, b + 8, sizeof long_form.bytes);
  return long_form;
}

char* ArgList::OwnCopy(const Payload& payload, size_t extra) {
  const uint32_t used = Length32(kHeaderBytes + payload.bytes);
  const uint32_t allocated = Length32(used + extra);
  char* own = static_cast<char*>(::operator new(allocated));
  const uint32_t header[3] = {payload.count, used, allocated};
  std::memcpy(own, header, sizeof header);
  if (payload.bytes != 0)
    std::memcpy(own + kHeaderBytes, payload.begin, payload.bytes);
  return own;
}

uint32_t ArgList::Header(int field) const {
  uint32_t value = 0;
  std::memcpy(&value, block() + field * sizeof value, sizeof value);
  return value;
}

void ArgList::SetHeader(int field, uint32_t value) {
  std::memcpy(block() + field * sizeof value, &value, sizeof value);
}

ArgList::Iterator ArgList::begin() const {
  return Iterator(payload().begin);
}

ArgList::Iterator ArgList::end() const {
  const Payload p = payload();
  return Iterator(p.begin == nullptr ? nullptr : p.begin + p.bytes);
}

ArgView ArgList::operator[](size_t i) const {
  Iterator it = begin();
  for (; i > 0; --i)
    ++it;
  return *it;
}

std::optional<ArgView> ArgList::Find(std::string_view key) const {
  if (data_ == nullptr)
    return std::nullopt;
  // Keys compare as ids: the lookup of |key| is paid once, not once per arg.
  return Find(ArgKey::Existing(key));
}

std::optional<ArgView> ArgList::Find(const ArgKey& key) const {
  if (data_ == nullptr)
    return std::nullopt;
  const Payload p = payload();
  const char* at = p.begin;
  const char* const end = p.begin + p.bytes;
  while (at < end) {
    uint8_t kind = 0;
    std::string_view stored;
    if (KeyIs(&at, key.text(), key.id(), &kind, &stored))
      return ArgView{stored, GetValue(&at, kind)};
    SkipValue(&at, kind);
  }
  return std::nullopt;
}

void ArgList::ReserveOwn(size_t extra) {
  const Payload p = payload();
  const size_t need = kHeaderBytes + p.bytes + extra;
  if (data_ != nullptr && !pooled() && need <= capacity())
    return;
  // The first block of its own is exact (most pushed lists hold one arg); later ones double,
  // for lists grown one push at a time. Builders hand over exact blocks instead.
  const size_t grown =
      data_ == nullptr || pooled() ? need : std::max<size_t>(need, size_t{capacity()} * 2);
  char* own = OwnCopy(p, grown - (kHeaderBytes + p.bytes));
  Release();
  data_ = own;
}

void ArgList::Add(std::string_view key, const ArgValueView& value) {
  Add(ArgKey(key), value);
}

void ArgList::Add(const ArgKey& key, const ArgValueView& value) {
  const size_t encoded = EncodedSize(key, value);
  ReserveOwn(encoded);
  const uint32_t used = Header(1);
  Encode(block() + used, key, value);
  SetHeader(1, Length32(used + encoded));
  SetHeader(0, Header(0) + 1);
}

void ArgList::Set(std::string_view key, const ArgValueView& value) {
  if (!Find(key)) {
    Add(key, value);
    return;
  }
  ArgListBuilder rebuilt;
  bool replaced = false;
  for (ArgView arg : *this) {
    if (!replaced && arg.key == key) {
      rebuilt.Add(key, value);
      replaced = true;
    } else {
      rebuilt.Add(arg.key, arg.value);
    }
  }
  *this = rebuilt.Build();
}

void ArgList::clear() {
  Release();
}

bool operator==(const ArgList& a, const ArgList& b) {
  auto ia = a.begin();
  auto ib = b.begin();
  for (; ia != a.end() && ib != b.end(); ++ia, ++ib) {
    const ArgView x = *ia;
    const ArgView y = *ib;
    if (x.key != y.key || !(x.value == y.value))
      return false;
  }
  return ia == a.end() && ib == b.end();
}

ArgListBuilder& ArgListBuilder::Add(std::string_view key, const ArgValueView& value) {
  return Add(ArgKey(key), value);
}

char* ArgListBuilder::Grow(size_t bytes) {
  if (size_ + bytes > capacity_) {
    // Grown by doubling and kept across events: after the first few events no arg allocates,
    // and nothing is zeroed that is written next.
    const size_t grown = std::max(size_ + bytes, std::max<size_t>(64, 2 * capacity_));
    auto bigger = std::make_unique_for_overwrite<char[]>(grown);
    if (size_ != 0)
      std::memcpy(bigger.get(), buffer_.get(), size_);
    buffer_ = std::move(bigger);
    capacity_ = grown;
  }
  char* at = buffer_.get() + size_;
  size_ += bytes;
  return at;
}

ArgListBuilder& ArgListBuilder::AppendEncoded(std::string_view encoded_args, uint32_t count) {
  if (!encoded_args.empty())
    std::memcpy(Grow(encoded_args.size()), encoded_args.data(), encoded_args.size());
  count_ += count;
  return *this;
}

ArgListBuilder& ArgListBuilder::Add(const ArgKey& key, const ArgValueView& value) {
  Encode(Append(EncodedSize(key, value)), key, value);
  return *this;
}

ArgListBuilder& ArgListBuilder::AddInt(const ArgKey& key, int64_t value) {
  EncodeInt(Append(KeySize(key) + IntSize(value)), key, value);
  return *this;
}

ArgListBuilder& ArgListBuilder::Add(const ArgKey& key, SharedText text) {
  char* out = Append(KeySize(key) + sizeof text.id);
  out = PutKindAndKey(out, text.raw ? kSharedRaw : kSharedString, key);
  std::memcpy(out, &text.id, sizeof text.id);
  return *this;
}

bool ArgListBuilder::Has(std::string_view key) const {
  return count_ != 0 && Has(ArgKey::Existing(key));
}

bool ArgListBuilder::Has(const ArgKey& key) const {
  const char* at = buffer_.get();
  for (uint32_t i = 0; i < count_; ++i) {
    uint8_t kind = 0;
    std::string_view stored;
    if (KeyIs(&at, key.text(), key.id(), &kind, &stored))
      return true;
    SkipValue(&at, kind);
  }
  return false;
}

ArgList ArgListBuilder::Build() {
  return Build(nullptr);
}

ArgList ArgListBuilder::Build(ArgPool* pool) {
  ArgList list;
  if (count_ != 0) {
    const ArgList::Payload payload{buffer_.get(), Length32(size_), count_};
    if (pool == nullptr) {
      list.data_ = ArgList::OwnCopy(payload, 0);
    } else {
      const bool compact = payload.count < kLongPooled && payload.bytes < kLongPooled;
      const size_t header = compact ? kPooledHeaderBytes : kLongPooledHeaderBytes;
      char* block = pool->Allocate(header + payload.bytes);
      if (compact) {
        const uint16_t fields[2] = {static_cast<uint16_t>(payload.count),
                                    static_cast<uint16_t>(payload.bytes)};
        std::memcpy(block, fields, sizeof fields);
      } else {
        const uint16_t marker[2] = {kLongPooled, 0};
        std::memcpy(block, marker, sizeof marker);
        std::memcpy(block + 4, &payload.count, sizeof payload.count);
        std::memcpy(block + 8, &payload.bytes, sizeof payload.bytes);
      }
      std::memcpy(block + header, payload.begin, payload.bytes);
      list.data_ = block + ArgList::kPooledBit;
    }
  }
  Clear();  // the buffer keeps its capacity for the next event
  return list;
}

}  // namespace rblnsim::trace
