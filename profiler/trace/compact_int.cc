#include "profiler/trace/compact_int.h"

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <new>
#include <unordered_map>

namespace rblnsim::trace {

namespace {

// Entries the encoding can count below kInlineMin before it would leave int32.
constexpr int64_t kMaxWide = int64_t{CompactInt::kInlineMin} - INT32_MIN;
constexpr int kChunkBits = 16;
constexpr size_t kChunkValues = size_t{1} << kChunkBits;
constexpr size_t kChunks = static_cast<size_t>(kMaxWide) / kChunkValues;

// Out-of-range values, each once, for as long as the process lives: events holding them may be
// anywhere, and a trace names few such values however many events carry them. Values live in
// chunks that never move, so a read takes no lock: a trace whose every tid is wide (a thread
// handle rather than an OS tid) reads one on nearly every event. Writers take the lock.
struct WideTable {
  std::mutex mutex;
  std::unordered_map<int64_t, int32_t> raw_of;
  size_t size = 0;
  std::array<std::atomic<int64_t*>, kChunks> chunks{};
};

WideTable& Table() {
  static WideTable* const table = new WideTable();  // never destroyed: events may outlive main
  return *table;
}

// Table entries count downwards from just below the inline range.
size_t IndexOf(int32_t raw) {
  return static_cast<size_t>(int64_t{CompactInt::kInlineMin} - 1 - raw);
}
int32_t RawAt(size_t index) {
  return static_cast<int32_t>(int64_t{CompactInt::kInlineMin} - 1 - static_cast<int64_t>(index));
}

}  // namespace

int32_t CompactInt::EncodeWide(int64_t value) {
  WideTable& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  const auto found = table.raw_of.find(value);
  if (found != table.raw_of.end())
    return found->second;
  const size_t index = table.size;
  if (index >= static_cast<size_t>(kMaxWide))
    throw std::bad_alloc();  // a billion distinct ids: the readers report it as out of memory
  std::atomic<int64_t*>& chunk = table.chunks[index >> kChunkBits];
  if (chunk.load(std::memory_order_relaxed) == nullptr)
    chunk.store(std::make_unique<int64_t[]>(kChunkValues).release(), std::memory_order_release);
  chunk.load(std::memory_order_relaxed)[index & (kChunkValues - 1)] = value;
  const int32_t raw = RawAt(index);
  table.raw_of.emplace(value, raw);
  ++table.size;
  return raw;
}

int64_t CompactInt::Wide(int32_t raw) {
  // |raw| was handed out after its value was stored, and reached this thread with the event
  // that holds it; the chunk pointer is published with release for the chunk's first reader.
  const size_t index = IndexOf(raw);
  const int64_t* chunk = Table().chunks[index >> kChunkBits].load(std::memory_order_acquire);
  return chunk[index & (kChunkValues - 1)];
}

}  // namespace rblnsim::trace
