#include "profiler/trace/shared_text.h"

#include <array>
#include <atomic>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>

namespace rblnsim::trace {

namespace {

struct SharedTextTable {
  std::mutex mutex;
  std::deque<std::string> texts;  // a deque: a stored text never moves
  std::unordered_map<std::string_view, uint32_t> ids;
  std::atomic<uint32_t> count{0};
  // Readers take a text by id without the lock: each slot is written once, before its id is
  // handed out.
  std::array<std::atomic<const std::string*>, kMaxSharedTexts> slots{};
};

// Never destroyed: lists in static storage may be read during exit.
SharedTextTable& TextTable() {
  static SharedTextTable* const table = new SharedTextTable();
  return *table;
}

}  // namespace

std::optional<SharedText> InternSharedText(std::string_view text, bool raw) {
  if (text.size() > kMaxSharedTextBytes)
    return std::nullopt;
  SharedTextTable& table = TextTable();
  const std::lock_guard<std::mutex> lock(table.mutex);
  if (const auto found = table.ids.find(text); found != table.ids.end())
    return SharedText{found->second, raw};
  if (table.texts.size() >= kMaxSharedTexts)
    return std::nullopt;
  const std::string& stored = table.texts.emplace_back(text);
  const auto id = static_cast<uint32_t>(table.texts.size() - 1);
  table.ids.emplace(stored, id);
  table.slots[id].store(&stored, std::memory_order_release);
  table.count.store(id + 1, std::memory_order_release);
  return SharedText{id, raw};
}

std::string_view SharedTextView(uint32_t id) {
  return *TextTable().slots[id].load(std::memory_order_acquire);
}

uint32_t SharedTextCount() {
  return TextTable().count.load(std::memory_order_acquire);
}

}  // namespace rblnsim::trace
