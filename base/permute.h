// Reordering arrays in place by a permutation: position i takes what stood at position
// source_of(i). Sorting a list of indices and then moving the items once is cheaper than sorting
// large items, and in place no second copy of the items is held: each cycle of the permutation
// is followed once, with one item of each array held aside.
#ifndef RBLNSIM_BASE_PERMUTE_H_
#define RBLNSIM_BASE_PERMUTE_H_

#include <cstddef>
#include <tuple>
#include <utility>
#include <vector>

namespace rblnsim {

// |source_of(i)| for i in [0, n) must be a permutation of [0, n); every array has n items and
// is reordered the same way (keys and their values kept side by side, say).
template <typename SourceOf, typename... Ts>
void PermuteInPlace(size_t n, SourceOf source_of, std::vector<Ts>&... arrays) {
  std::vector<bool> placed(n, false);
  for (size_t start = 0; start < n; ++start) {
    if (placed[start])
      continue;
    std::tuple<Ts...> held(std::move(arrays[start])...);
    size_t slot = start;
    for (size_t from = source_of(slot); from != start; from = source_of(slot)) {
      ((arrays[slot] = std::move(arrays[from])), ...);
      placed[slot] = true;
      slot = from;
    }
    std::apply([&](auto&... item) { ((arrays[slot] = std::move(item)), ...); }, held);
    placed[slot] = true;
  }
}

}  // namespace rblnsim

#endif  // RBLNSIM_BASE_PERMUTE_H_
