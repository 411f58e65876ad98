// Where the arg blocks of a trace's events may live instead of one heap block each. A bridge or
// an importer hands out hundreds of thousands of events a second, each with a block of a few
// dozen bytes: as separate allocations they land on the allocator's small-object pages, which
// are written for the first time 4 KiB at a time (a page fault each, and the largest share of
// the faults left in an end-to-end window). A pool places them one after another in blocks of
// megabytes, which the executables' operator new backs with huge pages.
//
// A pool only grows: its blocks are released with it. The events whose args it holds must not
// outlive it, which is why a Trace keeps the pools of its events (Trace::arg_pools) and a
// BridgeResult its own. One writer at a time.
#ifndef RBLNSIM_PROFILER_TRACE_ARG_POOL_H_
#define RBLNSIM_PROFILER_TRACE_ARG_POOL_H_

#include <cstddef>

#include "base/block_arena.h"

namespace rblnsim::trace {

class ArgPool {
 public:
  // At least the 4 MiB from which operator new places a block on whole huge pages.
  static constexpr size_t kBlockBytes = size_t{4} << 20;

  ArgPool() = default;
  ArgPool(const ArgPool&) = delete;
  ArgPool& operator=(const ArgPool&) = delete;

  // |bytes| of storage at an even address (a list tags its pointer's low bit; blocks are read
  // through memcpy and need no more), valid as long as the pool.
  char* Allocate(size_t bytes) { return arena_.Allocate(bytes); }
  // Bytes of the blocks the pool holds, for memory accounting.
  size_t reserved_bytes() const { return arena_.reserved_bytes(); }

 private:
  BlockArena arena_{kBlockBytes, 2};
};

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_ARG_POOL_H_
