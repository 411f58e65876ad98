#include "profiler/trace/arg_list.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <new>
#include <stdexcept>
#include <type_traits>

namespace rblnsim::trace {

namespace {

// Each arg: a one-byte type (the variant index), the key's length and bytes, then the value:
// eight bytes for a number, one for a bool, a length and the bytes for text. Lengths are
// uint32: an importer window never holds an event anywhere near 4 GB.
constexpr size_t kHeaderBytes = 3 * sizeof(uint32_t);  // the block header: count, used, capacity
constexpr uint32_t kHeaderBytes32 = static_cast<uint32_t>(kHeaderBytes);

uint32_t Length32(size_t n) {
  if (n > UINT32_MAX)
    throw std::length_error("trace arg longer than 4 GB");
  return static_cast<uint32_t>(n);
}

size_t EncodedSize(std::string_view key, const ArgValueView& value) {
  size_t payload = 8;
  if (value.index() == 2)
    payload = 1;
  else if (const auto* s = std::get_if<std::string_view>(&value))
    payload = sizeof(uint32_t) + s->size();
  else if (const auto* r = std::get_if<RawJsonView>(&value))
    payload = sizeof(uint32_t) + r->text.size();
  return 1 + sizeof(uint32_t) + key.size() + payload;
}

char* PutText(char* out, std::string_view text) {
  const uint32_t n = Length32(text.size());
  std::memcpy(out, &n, sizeof n);
  if (n != 0)
    std::memcpy(out + sizeof n, text.data(), n);
  return out + sizeof n + n;
}

char* Encode(char* out, std::string_view key, const ArgValueView& value) {
  *out++ = static_cast<char>(value.index());
  out = PutText(out, key);
  if (const auto* i = std::get_if<int64_t>(&value)) {
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
  uint32_t n = 0;
  std::memcpy(&n, *at, sizeof n);
  std::string_view text(*at + sizeof n, n);
  *at += sizeof n + n;
  return text;
}

// Decodes the arg at |*at| and moves past it.
ArgView Decode(const char** at) {
  const auto type = static_cast<uint8_t>(**at);
  ++*at;
  ArgView arg;
  arg.key = GetText(at);
  switch (type) {
    case 0: {
      int64_t i = 0;
      std::memcpy(&i, *at, 8);
      *at += 8;
      arg.value = i;
      break;
    }
    case 1: {
      double d = 0;
      std::memcpy(&d, *at, 8);
      *at += 8;
      arg.value = d;
      break;
    }
    case 2:
      arg.value = **at != 0;
      ++*at;
      break;
    case 3:
      arg.value = GetText(at);
      break;
    default:
      arg.value = RawJsonView{GetText(at)};
      break;
  }
  return arg;
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
  Decode(&at_);
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
  std::memcpy(data_, other.data_, n);
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
    ::operator delete(data_);
    data_ = other.data_;
    other.data_ = nullptr;
  }
  return *this;
}

ArgList& ArgList::operator=(std::initializer_list<Arg> args) {
  return *this = ArgList(args);
}

ArgList::~ArgList() {
  ::operator delete(data_);
}

uint32_t ArgList::Header(int field) const {
  uint32_t value = 0;
  std::memcpy(&value, data_ + field * sizeof value, sizeof value);
  return value;
}

void ArgList::SetHeader(int field, uint32_t value) {
  std::memcpy(data_ + field * sizeof value, &value, sizeof value);
}

ArgList::Iterator ArgList::begin() const {
  return Iterator(data_ == nullptr ? nullptr : data_ + kHeaderBytes);
}

ArgList::Iterator ArgList::end() const {
  return Iterator(data_ == nullptr ? nullptr : data_ + used());
}

ArgView ArgList::operator[](size_t i) const {
  Iterator it = begin();
  for (; i > 0; --i)
    ++it;
  return *it;
}

std::optional<ArgView> ArgList::Find(std::string_view key) const {
  for (ArgView arg : *this) {
    if (arg.key == key)
      return arg;
  }
  return std::nullopt;
}

void ArgList::Reserve(size_t bytes) {
  if (data_ != nullptr && bytes <= capacity())
    return;
  // The first block is exact (most pushed lists hold one arg); later ones double, for lists
  // grown one push at a time. Builders hand over exact blocks instead.
  const size_t grown = data_ == nullptr ? bytes : std::max<size_t>(bytes, size_t{capacity()} * 2);
  char* block = static_cast<char*>(::operator new(Length32(grown)));
  if (data_ != nullptr) {
    std::memcpy(block, data_, used());
  } else {
    std::memset(block, 0, kHeaderBytes);
    std::memcpy(block + sizeof(uint32_t), &kHeaderBytes32, sizeof kHeaderBytes32);
  }
  ::operator delete(data_);
  data_ = block;
  SetHeader(2, Length32(grown));
}

void ArgList::Add(std::string_view key, const ArgValueView& value) {
  const size_t need = (data_ == nullptr ? kHeaderBytes : used()) + EncodedSize(key, value);
  Reserve(need);
  Encode(data_ + used(), key, value);
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
  ::operator delete(data_);
  data_ = nullptr;
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
  if (buffer_.empty())
    buffer_.resize(kHeaderBytes);
  const size_t at = buffer_.size();
  buffer_.resize(at + EncodedSize(key, value));
  Encode(buffer_.data() + at, key, value);
  ++count_;
  return *this;
}

bool ArgListBuilder::Has(std::string_view key) const {
  if (count_ == 0)
    return false;
  const char* at = buffer_.data() + kHeaderBytes;
  for (uint32_t i = 0; i < count_; ++i) {
    if (Decode(&at).key == key)
      return true;
  }
  return false;
}

ArgList ArgListBuilder::Build() {
  ArgList list;
  if (count_ != 0) {
    const uint32_t n = Length32(buffer_.size());
    list.data_ = static_cast<char*>(::operator new(n));
    std::memcpy(list.data_, buffer_.data(), n);
    list.SetHeader(0, count_);
    list.SetHeader(1, n);
    list.SetHeader(2, n);
  }
  Clear();  // the buffer keeps its capacity for the next event
  return list;
}

}  // namespace rblnsim::trace
