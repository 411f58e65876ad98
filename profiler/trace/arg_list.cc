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
constexpr size_t kHeaderBytes = 3 * sizeof(uint32_t);  // the block header: count, used, capacity
constexpr uint32_t kHeaderBytes32 = static_cast<uint32_t>(kHeaderBytes);
enum StoredKind : uint8_t {
  kInt64 = 0,
  kDouble = 1,
  kBool = 2,
  kString = 3,
  kRaw = 4,
  kInt32 = 5,
  kSharedString = 6,
  kSharedRaw = 7,
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

// The type byte and the key: a two-byte id, or the key's text.
size_t KeySize(const ArgKey& key) {
  return 1 + (key.id() ? sizeof(uint16_t) : TextSize(key.text().size()));
}

size_t EncodedSize(const ArgKey& key, const ArgValueView& value) {
  size_t payload = 8;
  if (const auto* i = std::get_if<int64_t>(&value))
    payload = FitsInt32(*i) ? 4 : 8;
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

char* Encode(char* out, const ArgKey& key, const ArgValueView& value) {
  uint8_t kind = static_cast<uint8_t>(value.index());
  const auto* i = std::get_if<int64_t>(&value);
  if (i != nullptr && FitsInt32(*i))
    kind = kInt32;
  out = PutKindAndKey(out, kind, key);
  if (kind == kInt32) {
    const auto narrow = static_cast<int32_t>(*i);
    std::memcpy(out, &narrow, sizeof narrow);
    return out + sizeof narrow;
  }
  if (i != nullptr) {
    std::memcpy(out, i, 8);
    return out + 8;
  }
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
  if (other.data_ == nullptr)
    return;
  const uint32_t n = other.used();
  data_ = static_cast<char*>(::operator new(n));
  std::memcpy(data_, other.block(), n);
  SetHeader(2, n);
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

uint32_t ArgList::Header(int field) const {
  uint32_t value = 0;
  std::memcpy(&value, block() + field * sizeof value, sizeof value);
  return value;
}

void ArgList::SetHeader(int field, uint32_t value) {
  std::memcpy(block() + field * sizeof value, &value, sizeof value);
}

ArgList::Iterator ArgList::begin() const {
  return Iterator(data_ == nullptr ? nullptr : block() + kHeaderBytes);
}

ArgList::Iterator ArgList::end() const {
  return Iterator(data_ == nullptr ? nullptr : block() + used());
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
  const char* at = block() + kHeaderBytes;
  const char* const end = block() + used();
  while (at < end) {
    uint8_t kind = 0;
    std::string_view stored;
    if (KeyIs(&at, key.text(), key.id(), &kind, &stored))
      return ArgView{stored, GetValue(&at, kind)};
    SkipValue(&at, kind);
  }
  return std::nullopt;
}

void ArgList::Reserve(size_t bytes) {
  if (data_ != nullptr && bytes <= capacity())
    return;
  // The first block is exact (most pushed lists hold one arg); later ones double, for lists
  // grown one push at a time. Builders hand over exact blocks instead.
  const size_t grown = data_ == nullptr ? bytes : std::max<size_t>(bytes, size_t{capacity()} * 2);
  char* own = static_cast<char*>(::operator new(Length32(grown)));
  if (data_ != nullptr) {
    std::memcpy(own, block(), used());
  } else {
    std::memset(own, 0, kHeaderBytes);
    std::memcpy(own + sizeof(uint32_t), &kHeaderBytes32, sizeof kHeaderBytes32);
  }
  Release();
  data_ = own;
  SetHeader(2, Length32(grown));
}

void ArgList::Add(std::string_view key, const ArgValueView& value) {
  Add(ArgKey(key), value);
}

void ArgList::Add(const ArgKey& key, const ArgValueView& value) {
  const size_t need = (data_ == nullptr ? kHeaderBytes : used()) + EncodedSize(key, value);
  Reserve(need);
  Encode(block() + used(), key, value);
  SetHeader(1, Length32(need));
  SetHeader(0, count() + 1);
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

char* ArgListBuilder::Append(size_t bytes) {
  if (buffer_.empty())
    buffer_.resize(kHeaderBytes);
  const size_t at = buffer_.size();
  buffer_.resize(at + bytes);
  ++count_;
  return buffer_.data() + at;
}

ArgListBuilder& ArgListBuilder::Add(const ArgKey& key, const ArgValueView& value) {
  Encode(Append(EncodedSize(key, value)), key, value);
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
  const char* at = buffer_.data() + kHeaderBytes;
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
    const uint32_t n = Length32(buffer_.size());
    char* block = pool != nullptr ? pool->Allocate(n) : static_cast<char*>(::operator new(n));
    std::memcpy(block, buffer_.data(), n);
    list.data_ = pool != nullptr ? block + ArgList::kPooledBit : block;
    list.SetHeader(0, count_);
    list.SetHeader(1, n);
    list.SetHeader(2, pool != nullptr ? 0 : n);
  }
  Clear();  // the buffer keeps its capacity for the next event
  return list;
}

}  // namespace rblnsim::trace
