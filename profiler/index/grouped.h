// Values grouped by key, built in one vector and sorted once. It reads like a
// std::map<Key, std::vector<Value>> (groups in key order, each in insertion order) without a map
// node and a vector per key: a trace's flows give one key per launch, hundreds of thousands.
#ifndef RBLNSIM_PROFILER_INDEX_GROUPED_H_
#define RBLNSIM_PROFILER_INDEX_GROUPED_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "base/permute.h"
#include "base/release_memory.h"

namespace rblnsim::index {

template <typename Key, typename Value>
class Grouped {
 public:
  using Group = std::pair<Key, std::span<Value>>;
  using const_iterator = typename std::vector<Group>::const_iterator;

  Grouped() = default;
  // The groups view values_: a move keeps its buffer; a copy points its groups at its own.
  Grouped(Grouped&&) noexcept = default;
  Grouped& operator=(Grouped&&) noexcept = default;
  Grouped(const Grouped& other) : keys_(other.keys_), values_(other.values_) {
    groups_.reserve(other.groups_.size());
    for (const auto& [key, values] : other.groups_) {
      const auto offset = static_cast<size_t>(values.data() - other.values_.data());
      groups_.emplace_back(key, std::span<Value>(values_.data() + offset, values.size()));
    }
  }
  Grouped& operator=(const Grouped& other) {
    if (this != &other)
      *this = Grouped(other);
    return *this;
  }

  // Only before Seal().
  void Reserve(size_t values) {
    keys_.reserve(values);
    values_.reserve(values);
  }
  void Add(Key key, Value value) {
    keys_.push_back(std::move(key));
    values_.push_back(std::move(value));
  }

  // Groups what was added; lookups and iteration see nothing before it.
  void Seal() {
    // Keys mostly arrive in order (launch ids grow through a trace): then the values already
    // stand where the groups want them.
    if (!std::is_sorted(keys_.begin(), keys_.end()))
      PutInKeyOrder();
    size_t groups = 0;
    for (size_t i = 0; i < keys_.size(); ++i)
      groups += i == 0 || keys_[i - 1] < keys_[i] ? 1 : 0;
    groups_.reserve(groups_.size() + groups);
    for (size_t begin = 0; begin < keys_.size();) {
      size_t end = begin + 1;
      while (end < keys_.size() && !(keys_[begin] < keys_[end]))
        ++end;
      groups_.emplace_back(keys_[begin], std::span<Value>(values_.data() + begin, end - begin));
      begin = end;
    }
    ReleaseMemory(keys_);
  }

  const_iterator begin() const { return groups_.begin(); }
  const_iterator end() const { return groups_.end(); }
  size_t size() const { return groups_.size(); }
  bool empty() const { return groups_.empty(); }

  const_iterator find(const Key& key) const {
    auto it = std::lower_bound(groups_.begin(), groups_.end(), key,
                               [](const Group& g, const Key& k) { return g.first < k; });
    return it != groups_.end() && !(key < it->first) ? it : groups_.end();
  }
  size_t count(const Key& key) const { return find(key) != end() ? 1 : 0; }
  // As std::map::at: throws std::out_of_range for a key with no values.
  std::span<Value> at(const Key& key) const {
    const auto it = find(key);
    if (it == end())
      throw std::out_of_range("Grouped::at: no such key");
    return it->second;
  }

 private:
  // Stable: each group keeps its values in insertion order. In place, needing only an index per
  // value on top of what was added.
  void PutInKeyOrder() {
    std::vector<uint32_t> order(keys_.size());
    std::iota(order.begin(), order.end(), uint32_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return keys_[a] < keys_[b]; });
    // Slot i takes the key and value at order[i].
    PermuteInPlace(
        order.size(), [&](size_t i) { return size_t{order[i]}; }, keys_, values_);
  }

  std::vector<Key> keys_;  // until Seal
  std::vector<Value> values_;
  std::vector<Group> groups_;
};

}  // namespace rblnsim::index

#endif  // RBLNSIM_PROFILER_INDEX_GROUPED_H_
