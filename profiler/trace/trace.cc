#include "profiler/trace/trace.h"

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace rblnsim::trace {

namespace {
constexpr std::string_view kCategoryNames[] = {
    "cpu_op", "user_annotation", "python_function", "privateuse1_runtime", "privateuse1_driver",
    "kernel", "gpu_memcpy",      "gpu_memset",      "gpu_user_annotation", "",
};
}  // namespace

std::string_view CategoryName(Category category) {
  return kCategoryNames[static_cast<int>(category)];
}

Category CategoryFromName(std::string_view name) {
  for (int i = 0; i < static_cast<int>(Category::kOther); ++i) {
    if (kCategoryNames[i] == name)
      return static_cast<Category>(i);
  }
  // Kineto rewrites a kernel *name* "kernel" to "Kernel"; HTA also accepts "Kernel" as a cat.
  if (name == "Kernel")
    return Category::kKernel;
  return Category::kOther;
}

namespace {

// The process's category texts, each stored once. Reads take no lock: an entry is written
// before its id is handed out, and a reader that holds an id sees an array that has it. The
// array doubles as needed (a crafted trace may name a category per event); an outgrown array is
// kept, since a reader may still be reading through it, which at most doubles its size.
class CategoryTable {
 public:
  // The entry's id, 0-based.
  uint32_t Intern(std::string_view text) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (const auto found = ids_.find(text); found != ids_.end())
      return found->second;
    if (count_ == capacity_)
      Grow();
    const std::string* stored = &texts_.emplace_back(text);
    slots_[count_].store(stored, std::memory_order_release);
    ids_.emplace(*stored, count_);
    return count_++;
  }

  std::string_view Text(uint32_t id) const {
    return *published_.load(std::memory_order_acquire)[id].load(std::memory_order_acquire);
  }

 private:
  void Grow() {
    const uint32_t capacity = capacity_ == 0 ? 64 : capacity_ * 2;
    auto& slots = arrays_.emplace_back(new std::atomic<const std::string*>[capacity]);
    for (uint32_t i = 0; i < count_; ++i)
      slots[i].store(slots_[i].load(std::memory_order_relaxed), std::memory_order_relaxed);
    slots_ = slots.get();
    capacity_ = capacity;
    published_.store(slots_, std::memory_order_release);
  }

  std::mutex mutex_;
  std::deque<std::string> texts_;  // never moves an element
  std::unordered_map<std::string_view, uint32_t> ids_;
  uint32_t count_ = 0;
  uint32_t capacity_ = 0;
  // Every array made, the outgrown ones included: readers may still be reading through those.
  std::vector<std::unique_ptr<std::atomic<const std::string*>[]>> arrays_;
  std::atomic<const std::string*>* slots_ = nullptr;  // the writer's view, under the mutex
  std::atomic<std::atomic<const std::string*>*> published_{nullptr};
};

CategoryTable& Categories() {
  static CategoryTable* const table = new CategoryTable();
  return *table;
}

}  // namespace

std::string_view InternCategoryText(std::string_view text) {
  CategoryTable& table = Categories();
  return table.Text(table.Intern(text));
}

CategoryText::CategoryText(std::string_view text)
    : id_(text.empty() ? 0 : Categories().Intern(text) + 1) {}

CategoryText::operator std::string_view() const {
  return id_ == 0 ? std::string_view() : Categories().Text(id_ - 1);
}

std::string_view Event::cat() const {
  return category == Category::kOther ? std::string_view(cat_text) : CategoryName(category);
}

std::optional<int64_t> Event::IntArg(std::string_view key) const {
  const std::optional<ArgView> arg = FindArg(key);
  return arg ? IntArgValue(arg->value) : std::nullopt;
}

const ProcessRow* Trace::FindProcess(int64_t pid) const {
  for (const ProcessRow& row : processes) {
    if (row.pid == pid)
      return &row;
  }
  return nullptr;
}

const ThreadRow* Trace::FindThread(int64_t pid, int64_t tid) const {
  for (const ThreadRow& row : threads) {
    if (row.pid == pid && row.tid == tid)
      return &row;
  }
  return nullptr;
}

int64_t KinetoBaseTimeNs(int64_t system_ns) {
  constexpr int64_t kBucketNs = int64_t{7'889'238} * 1'000'000'000;
  return system_ns - (system_ns % kBucketNs);
}

}  // namespace rblnsim::trace
