// How the allocator gives memory back. A simulated run moves from phase to phase with hundreds
// of megabytes changing hands at each step: the C-ABI export and the bridge's event array are
// freed as the trace is assembled, the args no report reads as the index is built. mimalloc
// keeps freed memory committed for a while (its decommit delay) in case it is reused, and the
// next phase's allocations land beside it: the traced 10^6-launch run peaked 0.11 GB higher
// than its live data (bench/profiles.md, 2026-12-07).
#ifndef RBLNSIM_TOOLS_RBLNSIM_ALLOCATOR_TUNING_H_
#define RBLNSIM_TOOLS_RBLNSIM_ALLOCATOR_TUNING_H_

namespace rblnsim {

// Freed memory goes back to the system at once. A no-op without mimalloc (glibc unmaps large
// blocks as they are freed). `run` calls it; the trace readers keep the default, which lets their
// import reuse what the window it reads frees.
void ReturnFreedMemoryAtOnce();

}  // namespace rblnsim

#endif  // RBLNSIM_TOOLS_RBLNSIM_ALLOCATOR_TUNING_H_
