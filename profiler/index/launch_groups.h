// Events grouped by launch id: ids ascending, each group's events in trace order. It reads like
// the std::map<int64_t, std::vector<size_t>> it replaces (range-for over (id, events) pairs,
// find, at, count, size), but is three flat arrays: a trace of hundreds of thousands of launches
// cost a map node and a vector allocation per launch in each of the launch table's two maps,
// tens of MB of a large import's peak.
#ifndef RBLNSIM_PROFILER_INDEX_LAUNCH_GROUPS_H_
#define RBLNSIM_PROFILER_INDEX_LAUNCH_GROUPS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

namespace rblnsim::index {

class LaunchGroups {
 public:
  using Group = std::pair<int64_t, std::span<const size_t>>;

  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Group;
    using difference_type = std::ptrdiff_t;
    using pointer = const Group*;
    using reference = const Group&;

    Iterator(const LaunchGroups* groups, size_t at) : groups_(groups), at_(at) { Load(); }
    // The group is held by the iterator, so it->second lives as long as the iterator does.
    const Group& operator*() const { return group_; }
    const Group* operator->() const { return &group_; }
    Iterator& operator++() {
      ++at_;
      Load();
      return *this;
    }
    bool operator==(const Iterator& other) const { return at_ == other.at_; }

   private:
    void Load() {
      if (at_ < groups_->ids_.size())
        group_ = groups_->GroupAt(at_);
    }

    const LaunchGroups* groups_;
    size_t at_;
    Group group_;
  };

  // |entries|: (launch id, event) in trace order.
  void Build(std::vector<std::pair<int64_t, size_t>> entries) {
    std::stable_sort(entries.begin(), entries.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    ids_.clear();
    offsets_.clear();
    events_.clear();
    events_.reserve(entries.size());
    for (const auto& [id, event] : entries) {
      if (ids_.empty() || ids_.back() != id) {
        ids_.push_back(id);
        offsets_.push_back(events_.size());
      }
      events_.push_back(event);
    }
    offsets_.push_back(events_.size());
  }

  size_t size() const { return ids_.size(); }
  bool empty() const { return ids_.empty(); }
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, ids_.size()}; }
  Iterator find(int64_t id) const {
    const auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
    return it != ids_.end() && *it == id ? Iterator(this, static_cast<size_t>(it - ids_.begin()))
                                         : end();
  }
  size_t count(int64_t id) const { return find(id) == end() ? 0 : 1; }
  // As std::map::at: throws std::out_of_range for an id with no events.
  std::span<const size_t> at(int64_t id) const {
    const Iterator it = find(id);
    if (it == end())
      throw std::out_of_range("LaunchGroups::at: no such launch id");
    return (*it).second;
  }

 private:
  Group GroupAt(size_t at) const {
    return {ids_[at], std::span<const size_t>(events_.data() + offsets_[at],
                                              offsets_[at + 1] - offsets_[at])};
  }

  std::vector<int64_t> ids_;
  std::vector<size_t> offsets_;  // ids_.size() + 1 once built
  std::vector<size_t> events_;
};

}  // namespace rblnsim::index

#endif  // RBLNSIM_PROFILER_INDEX_LAUNCH_GROUPS_H_
