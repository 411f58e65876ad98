// The member names of one JSON object, to refuse duplicates: JSON leaves them undefined, and a
// reader that lets the last (or first) one win silently drops the other. Objects in a trace
// have a handful of members, so a 64-bit mask of name hashes settles most names without a
// string comparison and without allocating; an object with many members moves to a hash map.
#ifndef RBLNSIM_PROFILER_TRACE_IMPORT_MEMBER_NAMES_H_
#define RBLNSIM_PROFILER_TRACE_IMPORT_MEMBER_NAMES_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace rblnsim::trace::import {

class MemberNames {
 public:
  // Forgets every name (keeps the memory, for the next object).
  void Clear() {
    mask_ = 0;
    listed_count_ = 0;
    if (!many_.empty())
      many_.clear();
  }

  // Adds |name|, found at byte |offset|; the view must stay valid until Clear(). Returns the
  // offset of an equal name added before, if there is one. Inline: it runs for every member of
  // every args object.
  std::optional<uint64_t> Add(std::string_view name, uint64_t offset) {
    const uint64_t bit = Bit(name);
    if ((mask_ & bit) == 0 && listed_count_ < kMaxListed) {
      mask_ |= bit;
      listed_[listed_count_++] = {name, offset};
      return std::nullopt;
    }
    return AddSlow(name, offset, bit);
  }

 private:
  // Past this many names a lookup would compare too many strings: the map takes over.
  static constexpr size_t kMaxListed = 32;

  static uint64_t Bit(std::string_view name) {
    if (name.empty())
      return 1;
    const auto first = static_cast<unsigned char>(name.front());
    const auto last = static_cast<unsigned char>(name.back());
    return uint64_t{1} << ((name.size() * 5 + first * 7 + last * 13) & 63);
  }

  // A name whose bit is taken (maybe the same name), or one past kMaxListed.
  std::optional<uint64_t> AddSlow(std::string_view name, uint64_t offset, uint64_t bit);

  uint64_t mask_ = 0;
  size_t listed_count_ = 0;
  std::array<std::pair<std::string_view, uint64_t>, kMaxListed> listed_;
  std::unordered_map<std::string_view, uint64_t> many_;
};

}  // namespace rblnsim::trace::import

#endif  // RBLNSIM_PROFILER_TRACE_IMPORT_MEMBER_NAMES_H_
