#include "profiler/trace/arg_keys.h"

#include <array>
#include <cstring>
#include <string>

#include "profiler/trace/interned_texts.h"

namespace rblnsim::trace {

namespace {

using KeyTable = InternedTexts<kMaxInternedArgKeys>;
static_assert(kMaxInternedArgKeys <= 65536, "ids are stored in two bytes");

// Never destroyed: lists in static storage may be read during exit.
KeyTable& Shared() {
  static auto* const table = new KeyTable();
  return *table;
}

// A thread's view of the table, one entry per hash slot: the key's text copied in (keys are
// short), and either its id or the table size at which it was seen absent. An absent answer
// stays good until the table grows.
struct CacheEntry {
  uint8_t size = 0;
  bool filled = false;
  bool present = false;
  uint16_t id = 0;
  uint32_t absent_at = 0;
  char text[kMaxInternedArgKeyBytes];
};
constexpr size_t kCacheSlots = 128;
constinit thread_local std::array<CacheEntry, kCacheSlots> cache{};

uint64_t Load(const char* at, size_t bytes) {
  uint64_t word = 0;
  std::memcpy(&word, at, bytes);
  return word;
}

bool SameText(const char* a, const char* b, size_t n) {
  if (n >= 8) {
    if (Load(a, 8) != Load(b, 8) || Load(a + n - 8, 8) != Load(b + n - 8, 8))
      return false;
    return n <= 16 || std::memcmp(a + 8, b + 8, n - 16) == 0;
  }
  if (n >= 4)
    return Load(a, 4) == Load(b, 4) && Load(a + n - 4, 4) == Load(b + n - 4, 4);
  for (size_t i = 0; i < n; ++i) {
    if (a[i] != b[i])
      return false;
  }
  return true;
}

// Every arg of every event looks its key up here, so the hash reads a few words, not each byte:
// the first and last eight bytes (four, or three single bytes, for shorter keys) and the length.
size_t SlotOf(std::string_view key) {
  const char* p = key.data();
  const size_t n = key.size();
  uint64_t a = 0;
  uint64_t b = 0;
  if (n >= 8) {
    a = Load(p, 8);
    b = Load(p + n - 8, 8);
  } else if (n >= 4) {
    a = Load(p, 4);
    b = Load(p + n - 4, 4);
  } else if (n > 0) {
    a = static_cast<uint8_t>(p[0]) | (uint64_t{static_cast<uint8_t>(p[n / 2])} << 8) |
        (uint64_t{static_cast<uint8_t>(p[n - 1])} << 16);
  }
  const uint64_t hash = (a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full) ^ n;
  return static_cast<size_t>(hash >> 57) & (kCacheSlots - 1);
}

int32_t Lookup(std::string_view key, bool intern) {
  if (key.size() > kMaxInternedArgKeyBytes)
    return kNoArgKeyId;
  CacheEntry& entry = cache[SlotOf(key)];
  const bool cached =
      entry.filled && entry.size == key.size() && SameText(entry.text, key.data(), key.size());
  // The common case, a key this thread has seen: no word of the shared table is read.
  if (cached && entry.present)
    return entry.id;
  KeyTable& table = Shared();
  if (cached) {
    // Absent, and nothing was added since: a lookup still finds nothing, and so does an
    // interning call once the table is full.
    const uint32_t count = table.size();
    if (entry.absent_at == count && (!intern || count >= kMaxInternedArgKeys))
      return kNoArgKeyId;
  }
  uint32_t count = 0;
  const std::optional<uint32_t> found = table.Lookup(key, intern, &count);
  entry.filled = true;
  entry.size = static_cast<uint8_t>(key.size());
  if (!key.empty())  // an empty view may have no data pointer at all
    std::memcpy(entry.text, key.data(), key.size());
  entry.present = found.has_value();
  entry.id = static_cast<uint16_t>(found.value_or(0));
  entry.absent_at = count;
  return found ? static_cast<int32_t>(*found) : kNoArgKeyId;
}

}  // namespace

int32_t InternArgKeyId(std::string_view key) {
  return Lookup(key, /*intern=*/true);
}

int32_t FindArgKeyId(std::string_view key) {
  return Lookup(key, /*intern=*/false);
}

std::string_view ArgKeyText(uint16_t id) {
  return Shared().Text(id);
}

uint32_t InternedArgKeyCount() {
  return Shared().size();
}

}  // namespace rblnsim::trace
