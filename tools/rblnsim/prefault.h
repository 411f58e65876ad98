// Faulting large blocks in on a second thread. The first write to every page of fresh memory
// costs a fault, and on a virtual machine whose host takes freed memory back (free page
// reporting: Firecracker, cloud CI runners) that fault is dear: a third to four fifths of a
// cold end-to-end window, bridge or simulator run went to `clear_page_erms` (bench/profiles.md).
// Most of our large blocks are reserved well before they are filled (a trace's events, a
// session's record chunks), and one core is usually idle meanwhile: a thread that faults a block
// in as soon as it is allocated takes those faults off the thread that fills it.
#ifndef RBLNSIM_TOOLS_RBLNSIM_PREFAULT_H_
#define RBLNSIM_TOOLS_RBLNSIM_PREFAULT_H_

#include <cstddef>

namespace rblnsim {

// Turns the background faulting on (or off again); until it is on, nothing is queued.
// The commands that simulate call it: the model runs on one thread and leaves a core idle. The
// trace readers do not: their import and analyses keep both cores busy, and there the thread
// cost more than it saved (`analyze --check`, 6 pairs: 1.10x wall, +13% peak). RBLNSIM_PREFAULT=0
// keeps it off regardless.
void EnablePrefault(bool on = true);

// Queues |bytes| at |p| (page-aligned) for the background thread to fault in with
// MADV_POPULATE_WRITE, one huge page at a time; the contents are not touched. Never blocks on the
// thread and never allocates more than the thread itself on the first call. Nothing is queued
// while it is not enabled, when the queue is full, or when the kernel lacks MADV_POPULATE_WRITE
// (before Linux 5.14): the caller's first writes then fault as they would without this. A block
// freed before its turn is harmless: populating memory no longer in use only faults pages in.
void PrefaultInBackground(void* p, std::size_t bytes);

// Waits until every queued block has been faulted in (tests).
void WaitForPrefaults();

}  // namespace rblnsim

#endif  // RBLNSIM_TOOLS_RBLNSIM_PREFAULT_H_
