#include "profiler/trace/trace.h"

#include <mutex>
#include <unordered_set>

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

const std::string& InternedCategory(std::string_view text) {
  // Node-based, so a stored string never moves; guarded, since imports may run on threads.
  static std::mutex mutex;
  static std::unordered_set<std::string>* const pool = new std::unordered_set<std::string>();
  const std::lock_guard<std::mutex> lock(mutex);
  return *pool->emplace(text).first;
}

}  // namespace

std::string_view InternCategoryText(std::string_view text) {
  return InternedCategory(text);
}

CategoryText::CategoryText(std::string_view text) : text_(&InternedCategory(text)) {}

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
