#include "profiler/diff/sequence_align.h"

#include <algorithm>

namespace rblnsim::diff {

namespace {

enum class Step : uint8_t { kMatch, kBaseOnly, kNewOnly };

// Myers' greedy forward search, keeping each round's furthest-reaching x per diagonal so the
// path can be walked back. Appends the edit script of a/b to |script|; false (script untouched)
// when more than max_edits edits are needed.
bool MyersScript(std::span<const uint32_t> a,
                 std::span<const uint32_t> b,
                 size_t max_edits,
                 std::vector<Step>* script) {
  const auto n = static_cast<int64_t>(a.size());
  const auto m = static_cast<int64_t>(b.size());
  const int64_t limit = std::min<int64_t>(static_cast<int64_t>(max_edits), n + m);
  std::vector<std::vector<int64_t>> rounds;  // rounds[d][k + d]: furthest x on diagonal k
  std::vector<int64_t> v(static_cast<size_t>(2 * limit + 3), 0);
  const int64_t offset = limit + 1;
  int64_t found_d = -1;
  for (int64_t d = 0; d <= limit && found_d < 0; ++d) {
    for (int64_t k = -d; k <= d; k += 2) {
      int64_t x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]))
                      ? v[offset + k + 1]
                      : v[offset + k - 1] + 1;
      int64_t y = x - k;
      while (x < n && y < m && a[x] == b[y]) {
        ++x;
        ++y;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found_d = d;
        break;
      }
    }
    rounds.emplace_back(v.begin() + offset - d, v.begin() + offset + d + 1);
  }
  if (found_d < 0)
    return false;
  std::vector<Step> reversed;
  int64_t x = n, y = m;
  for (int64_t d = found_d; d > 0; --d) {
    const std::vector<int64_t>& prev = rounds[d - 1];
    const int64_t k = x - y;
    const auto at = [&](int64_t kk) { return prev[kk + d - 1]; };
    const bool down = k == -d || (k != d && at(k - 1) < at(k + 1));
    const int64_t prev_k = down ? k + 1 : k - 1;
    const int64_t prev_x = at(prev_k);
    const int64_t prev_y = prev_x - prev_k;
    const int64_t snake_x = down ? prev_x : prev_x + 1;
    for (; x > snake_x; --x, --y)
      reversed.push_back(Step::kMatch);
    reversed.push_back(down ? Step::kNewOnly : Step::kBaseOnly);
    x = prev_x;
    y = prev_y;
  }
  for (; x > 0; --x)
    reversed.push_back(Step::kMatch);
  script->insert(script->end(), reversed.rbegin(), reversed.rend());
  return true;
}

// Matches equal heads; at a difference skips the fewest elements of one side (up to
// |lookahead|) that bring the heads together again, else drops one of each.
void GreedyScript(std::span<const uint32_t> a,
                  std::span<const uint32_t> b,
                  size_t lookahead,
                  std::vector<Step>* script) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] == b[j]) {
      script->push_back(Step::kMatch);
      ++i, ++j;
      continue;
    }
    size_t skip_a = 0, skip_b = 0;
    for (size_t s = 1; s <= lookahead; ++s) {
      if (i + s < a.size() && a[i + s] == b[j]) {
        skip_a = s;
        break;
      }
      if (j + s < b.size() && b[j + s] == a[i]) {
        skip_b = s;
        break;
      }
    }
    if (skip_a == 0 && skip_b == 0)
      skip_a = skip_b = 1;
    script->insert(script->end(), skip_a, Step::kBaseOnly);
    script->insert(script->end(), skip_b, Step::kNewOnly);
    i += skip_a;
    j += skip_b;
  }
  script->insert(script->end(), a.size() - i, Step::kBaseOnly);
  script->insert(script->end(), b.size() - j, Step::kNewOnly);
}

}  // namespace

Alignment AlignSequences(std::span<const uint32_t> base,
                         std::span<const uint32_t> next,
                         const AlignOptions& options) {
  Alignment alignment;
  size_t prefix = 0;
  while (prefix < base.size() && prefix < next.size() && base[prefix] == next[prefix])
    ++prefix;
  size_t suffix = 0;
  while (suffix < base.size() - prefix && suffix < next.size() - prefix &&
         base[base.size() - 1 - suffix] == next[next.size() - 1 - suffix])
    ++suffix;
  const std::span<const uint32_t> a = base.subspan(prefix, base.size() - prefix - suffix);
  const std::span<const uint32_t> b = next.subspan(prefix, next.size() - prefix - suffix);

  std::vector<Step> script(prefix, Step::kMatch);
  if (!MyersScript(a, b, options.max_edits, &script)) {
    alignment.approximate = true;
    GreedyScript(a, b, options.lookahead, &script);
  }
  script.insert(script.end(), suffix, Step::kMatch);

  // Runs: maximal stretches of matches, and of edits between them.
  size_t i = 0, j = 0;
  for (size_t s = 0; s < script.size();) {
    AlignedRun run;
    run.matched = script[s] == Step::kMatch;
    run.base_begin = i;
    run.new_begin = j;
    for (; s < script.size() && (script[s] == Step::kMatch) == run.matched; ++s) {
      if (script[s] != Step::kNewOnly)
        ++run.base_count, ++i;
      if (script[s] != Step::kBaseOnly)
        ++run.new_count, ++j;
    }
    if (run.matched)
      alignment.matched += run.base_count;
    alignment.runs.push_back(run);
  }
  return alignment;
}

}  // namespace rblnsim::diff
