// Lines two runs up by what the host did, not by when: the longest common subsequence of their op
// sequences (Myers' O((N+M)D) difference algorithm on what is left after the common prefix and
// suffix), so a fallback that inserts a download and a CPU kernel, or a scan that disappears,
// shows as an unmatched stretch at its place and every op around it still pairs with its
// counterpart. Runs that differ in more than max_edits places fall back to a greedy match within
// a bounded lookahead, flagged as approximate, so a pathological pair costs linear time and
// memory, never quadratic.
#ifndef RBLNSIM_PROFILER_DIFF_SEQUENCE_ALIGN_H_
#define RBLNSIM_PROFILER_DIFF_SEQUENCE_ALIGN_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace rblnsim::diff {

// A stretch of the alignment: |base_count| elements of the base from |base_begin| and
// |new_count| of the new run from |new_begin|; matched stretches have equal counts and equal
// elements, unmatched ones have at least one side non-empty.
struct AlignedRun {
  bool matched = false;
  size_t base_begin = 0;
  size_t base_count = 0;
  size_t new_begin = 0;
  size_t new_count = 0;
};

struct AlignOptions {
  size_t max_edits = 2048;  // Myers' D, beyond which the greedy match takes over
  size_t lookahead = 64;    // the greedy match's window on each side
};

struct Alignment {
  std::vector<AlignedRun> runs;  // in sequence order, covering both sequences
  size_t matched = 0;            // elements matched (per side)
  bool approximate = false;      // the greedy match aligned some of it
};

Alignment AlignSequences(std::span<const uint32_t> base,
                         std::span<const uint32_t> next,
                         const AlignOptions& options = {});

}  // namespace rblnsim::diff

#endif  // RBLNSIM_PROFILER_DIFF_SEQUENCE_ALIGN_H_
