// Giving a container's memory back. `v = {}` reads as if it did, but for a std::vector it is the
// initializer-list assignment: the vector is emptied and keeps its capacity. Large temporary
// arrays (a probe table, sort keys, a session's launch records) that a phase lets go of before
// the next must really go, or they stay resident through the process's peak.
#ifndef RBLNSIM_BASE_RELEASE_MEMORY_H_
#define RBLNSIM_BASE_RELEASE_MEMORY_H_

namespace rblnsim {

template <typename Container>
void ReleaseMemory(Container& container) {
  container = Container();  // move assignment: the old storage goes with the moved-from one
}

}  // namespace rblnsim

#endif  // RBLNSIM_BASE_RELEASE_MEMORY_H_
