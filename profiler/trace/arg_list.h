// An event's "args", packed into one allocation. A large trace holds millions of events with a
// handful of args each; as a vector of owning key/value strings that was six or more heap blocks
// per event, most of them smaller than the allocator's own header, and the largest share of a
// traced run's memory. Here every value of an event lies in one block sized exactly (when built
// by ArgListBuilder), with its key as a two-byte id of the process's key table (arg_keys.h) or,
// for keys that table does not take, as text; readers see string views into the block or the
// table.
#ifndef RBLNSIM_PROFILER_TRACE_ARG_LIST_H_
#define RBLNSIM_PROFILER_TRACE_ARG_LIST_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "profiler/trace/arg_keys.h"
#include "profiler/trace/arg_pool.h"
#include "profiler/trace/shared_text.h"

namespace rblnsim::trace {

// Raw JSON text (a number, object, array, true/false/null) written without quoting.
struct RawJson {
  std::string text;
  bool operator==(const RawJson&) const = default;
};

// An "args" value: integers and doubles stay numbers, strings are quoted, RawJson is verbatim.
using ArgValue = std::variant<int64_t, double, bool, std::string, RawJson>;

// An owning key/value pair: what builders hand in and what a caller gets to keep.
struct Arg {
  std::string key;
  ArgValue value;
  bool operator==(const Arg&) const = default;
};

struct RawJsonView {
  std::string_view text;
  bool operator==(const RawJsonView&) const = default;
};

// A value as stored: the alternatives of ArgValue, with text viewed in place.
using ArgValueView = std::variant<int64_t, double, bool, std::string_view, RawJsonView>;

ArgValueView ViewOf(const ArgValue& value);
ArgValue OwnedValue(const ArgValueView& value);
bool operator==(const ArgValueView& view, const ArgValue& value);

// Integer reading of an arg value: a number, or a string / raw JSON that is all decimal (card
// traces quote some ids); nullopt otherwise.
std::optional<int64_t> IntArgValue(const ArgValueView& value);
std::optional<int64_t> IntArgValue(const ArgValue& value);

// One arg read from an ArgList: valid while the list is alive and unchanged.
struct ArgView {
  std::string_view key;
  ArgValueView value;
  Arg Owned() const { return {std::string(key), OwnedValue(value)}; }
};

class ArgList {
 public:
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = ArgView;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = ArgView;
    Iterator() = default;
    explicit Iterator(const char* at) : at_(at) {}
    ArgView operator*() const;
    Iterator& operator++();
    Iterator operator++(int) {
      Iterator before = *this;
      ++*this;
      return before;
    }
    bool operator==(const Iterator&) const = default;

   private:
    const char* at_ = nullptr;
  };

  ArgList() = default;
  ArgList(std::initializer_list<Arg> args);
  // From owning args, for callers that assemble them first (tests, rare paths).
  ArgList(const std::vector<Arg>& args);  // NOLINT(google-explicit-constructor)
  explicit ArgList(std::span<const Arg> args);
  ArgList(const ArgList& other);
  ArgList(ArgList&& other) noexcept;
  ArgList& operator=(const ArgList& other);
  ArgList& operator=(ArgList&& other) noexcept;
  ArgList& operator=(std::initializer_list<Arg> args);
  ~ArgList();

  bool empty() const { return data_ == nullptr || count() == 0; }
  size_t size() const { return data_ == nullptr ? 0 : count(); }
  Iterator begin() const;
  Iterator end() const;
  // Linear: args are few per event, and only tests index them.
  ArgView operator[](size_t i) const;
  // The first arg with |key|, as Kineto's readers take it.
  std::optional<ArgView> Find(std::string_view key) const;
  // The same, for a key looked up once (arg_keys.h): ids compare without the key's text.
  std::optional<ArgView> Find(const ArgKey& key) const;

  void Add(std::string_view key, const ArgValueView& value);
  void Add(const ArgKey& key, const ArgValueView& value);
  void push_back(const Arg& arg) { Add(arg.key, ViewOf(arg.value)); }
  // Replaces the first arg with |key|, or appends one.
  void Set(std::string_view key, const ArgValueView& value);
  void clear();
  // Bytes held in the list's own heap block (capacity), for memory accounting; 0 for a block in
  // an ArgPool, which the pool accounts for.
  size_t heap_bytes() const { return capacity(); }
  // Whether the block lives in an ArgPool (ArgListBuilder::Build(pool)): read-only in place, and
  // copied into a block of the list's own by the first change.
  bool pooled() const { return (reinterpret_cast<uintptr_t>(data_) & kPooledBit) != 0; }

  friend bool operator==(const ArgList& a, const ArgList& b);

 private:
  friend class ArgListBuilder;
  // The encoded args of a block, after its header (which differs between own and pooled
  // blocks, see arg_list.cc).
  struct Payload {
    const char* begin = nullptr;
    uint32_t bytes = 0;
    uint32_t count = 0;
  };
  Payload payload() const;
  uint32_t count() const { return payload().count; }
  // Bytes allocated for a block of the list's own; 0 for none or a pooled one.
  uint32_t capacity() const { return data_ == nullptr || pooled() ? 0 : Header(2); }
  // The block, without the pooled tag.
  char* block() const { return data_ - (reinterpret_cast<uintptr_t>(data_) & kPooledBit); }
  // A field of an own block's header.
  uint32_t Header(int field) const;
  void SetHeader(int field, uint32_t value);
  // A block of its own holding |payload| with room for |extra| more bytes.
  static char* OwnCopy(const Payload& payload, size_t extra);
  // Makes the list's block its own, with room for |extra| more bytes of args.
  void ReserveOwn(size_t extra);
  void Release();

  // A pooled block is tagged in the pointer's low bit (data_ is one past the block's start,
  // which is at least 8-aligned), not in the block: a list may be destroyed after its pool, and
  // must then not read the block.
  static constexpr uintptr_t kPooledBit = 1;

  // One pointer per list, since every event holds one: the block starts with a header (count
  // and bytes, arg_list.cc), then the encoded args.
  char* data_ = nullptr;
};

// Collects one event's args in a reused buffer, then hands them out as an ArgList of exactly
// their size: one allocation per event however many args it has.
class ArgListBuilder {
 public:
  ArgListBuilder& Add(std::string_view key, const ArgValueView& value);
  ArgListBuilder& Add(const ArgKey& key, const ArgValueView& value);
  // The same as Add(key, int64_t{value}) without the variant: the bridge and the importer add
  // millions of integers.
  ArgListBuilder& AddInt(const ArgKey& key, int64_t value);
  // A value interned in the process's table (shared_text.h): four bytes in the block, read back
  // as the string or raw JSON it stands for.
  ArgListBuilder& Add(const ArgKey& key, SharedText text);
  size_t size() const { return count_; }
  bool Has(std::string_view key) const;
  bool Has(const ArgKey& key) const;
  void Clear() {
    size_ = 0;
    count_ = 0;
  }
  ArgList Build();
  // The same, with the block placed in |pool|, which must outlive the list.
  ArgList Build(ArgPool* pool);

  // The args added since the last Clear or Build, encoded (valid until the builder changes).
  // Appending a copy of them with their count adds the same args again, without the lookups and
  // checks that made them: for a caller that adds one run of args to many events.
  std::string_view encoded() const { return {buffer_.get(), size_}; }
  ArgListBuilder& AppendEncoded(std::string_view encoded_args, uint32_t count);

 private:
  // Room for one more arg of |bytes| encoded bytes, counted; returns where to write it.
  char* Append(size_t bytes) {
    char* at = Grow(bytes);
    ++count_;
    return at;
  }
  // Room for |bytes| more encoded bytes, not counted as an arg.
  char* Grow(size_t bytes);

  std::unique_ptr<char[]> buffer_;  // the encoded args, as a block holds them after its header
  size_t size_ = 0;
  size_t capacity_ = 0;
  uint32_t count_ = 0;
};

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_ARG_LIST_H_
