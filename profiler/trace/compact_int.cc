#include "profiler/trace/compact_int.h"

#include <deque>
#include <mutex>
#include <new>
#include <unordered_map>

namespace rblnsim::trace {

namespace {

// Out-of-range values, each once, for as long as the process lives: events holding them may be
// anywhere, and a trace names few such values however many events carry them.
struct WideTable {
  std::mutex mutex;
  std::deque<int64_t> values;
  std::unordered_map<int64_t, int32_t> raw_of;
};

WideTable& Table() {
  static WideTable* const table = new WideTable();  // never destroyed: events may outlive main
  return *table;
}

// Entries the encoding can count below kInlineMin before it would leave int32.
constexpr int64_t kMaxWide = int64_t{CompactInt::kInlineMin} - INT32_MIN;

}  // namespace

int32_t CompactInt::EncodeWide(int64_t value) {
  WideTable& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  const auto found = table.raw_of.find(value);
  if (found != table.raw_of.end())
    return found->second;
  const auto index = static_cast<int64_t>(table.values.size());
  if (index >= kMaxWide)
    throw std::bad_alloc();  // a billion distinct ids: the readers report it as out of memory
  const auto raw = static_cast<int32_t>(int64_t{kInlineMin} - 1 - index);
  table.values.push_back(value);
  table.raw_of.emplace(value, raw);
  return raw;
}

int64_t CompactInt::Wide(int32_t raw) {
  WideTable& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  return table.values[static_cast<size_t>(int64_t{kInlineMin} - 1 - raw)];
}

}  // namespace rblnsim::trace
