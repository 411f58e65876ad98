// Sorting rows that usually arrive almost sorted. Kineto and the bridge log host ops in start
// order and the runtime's markers after them, and a producer's export holds its markers and then
// its device records, so the items sorted are one or two sorted runs: checking and merging costs
// one pass, where a full sort of millions of items was a visible part of `rblnsim check` /
// `analyze` on large traces.
#ifndef RBLNSIM_BASE_SORTED_RUNS_H_
#define RBLNSIM_BASE_SORTED_RUNS_H_

#include <algorithm>
#include <functional>
#include <vector>

namespace rblnsim {

// The same result as std::sort(items, less) for a strict total order (ties cannot reorder), in
// linear time when |items| is sorted or two sorted runs.
template <typename T, typename Less>
void SortAlmostSorted(std::vector<T>* items, Less less) {
  auto first_descent = std::is_sorted_until(items->begin(), items->end(), less);
  if (first_descent == items->end())
    return;
  if (std::is_sorted(first_descent, items->end(), less)) {
    std::inplace_merge(items->begin(), first_descent, items->end(), less);
    return;
  }
  std::sort(items->begin(), items->end(), less);
}

template <typename T>
void SortAlmostSorted(std::vector<T>* items) {
  SortAlmostSorted(items, std::less<T>());
}

}  // namespace rblnsim

#endif  // RBLNSIM_BASE_SORTED_RUNS_H_
