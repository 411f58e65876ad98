// The in-memory trace model shared by the bridge (simulated runs), the importer (traces captured on
// cards) and everything downstream: writer, tables, checks, analyses. It mirrors what Kineto's
// Chrome-trace output holds, with times kept as absolute system-clock nanoseconds; the writer makes
// them relative to |base_time_ns| and prints µs with three decimals.
#ifndef RBLNSIM_PROFILER_TRACE_TRACE_H_
#define RBLNSIM_PROFILER_TRACE_TRACE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "profiler/trace/arg_list.h"
#include "profiler/trace/arg_pool.h"
#include "profiler/trace/compact_int.h"
#include "profiler/trace/event_name.h"

namespace rblnsim::trace {

// Kineto activity categories ("cat"). kOther keeps the original text in Event::cat_text.
enum class Category : uint8_t {
  kCpuOp = 0,
  kUserAnnotation = 1,
  kPythonFunction = 2,
  kPrivateUse1Runtime = 3,
  kPrivateUse1Driver = 4,
  kKernel = 5,
  kGpuMemcpy = 6,
  kGpuMemset = 7,
  kGpuUserAnnotation = 8,
  kOther = 9,
};

std::string_view CategoryName(Category category);
// A process-wide copy of |text| that lives until exit, for Event::cat_text: a trace names few
// categories outside the enumeration, each then stored once however many events carry it.
std::string_view InternCategoryText(std::string_view text);

// Event::cat_text: an interned text (InternCategoryText) held as a four-byte number of the
// process's category table, read as a string_view. Events number in the millions: a pointer took
// eight bytes of every one, and the number fits in the padding after the one-byte fields.
class CategoryText {
 public:
  CategoryText() = default;
  CategoryText(std::string_view text);                                      // NOLINT: interns
  CategoryText(const char* text) : CategoryText(std::string_view(text)) {}  // NOLINT
  operator std::string_view() const;  // NOLINT(google-explicit-constructor)
  bool empty() const { return id_ == 0; }

 private:
  uint32_t id_ = 0;  // 0: empty; else the table's entry id_ - 1
};

Category CategoryFromName(std::string_view name);

// PyTorch maps kernel/memcpy/memset to the PrivateUse1 device; the privateuse1_* runtime and
// driver types map to the CPU (kineto_shim.cpp deviceTypeFromActivity).
inline bool IsDeviceCategory(Category c) {
  return c == Category::kKernel || c == Category::kGpuMemcpy || c == Category::kGpuMemset;
}

enum class Phase : uint8_t { kComplete = 0, kInstant = 1 };
enum class FlowRole : uint8_t { kNone = 0, kStart = 1, kFinish = 2 };

// One "X" (complete) or "i" (instant) event. A flow end ("s"/"f" with cat ac2g) is attached to
// the event it is anchored on, the way Kineto writes it right after that event.
// Millions of these make up a large trace, so the layout is kept tight: a name of up to 22 bytes
// is held in place (EventName); the duration, the flow id, pid and tid take four bytes each
// (CompactInt, CompactFlowId: values of real traces fit, any other still reads back exactly);
// the one-byte fields sit together at the end, and a category without its own enumerator is a
// number of one interned copy (InternCategoryText) in the four bytes after them, rather than a
// string per event.
struct Event {
  EventName name;
  int64_t ts_ns = 0;  // absolute system-clock ns
  ArgList args;
  CompactInt dur_ns;      // 0 for instants; read and written as int64
  CompactFlowId flow_id;  // read and written as uint64
  CompactInt pid;
  CompactInt tid;
  Phase phase = Phase::kComplete;
  Category category = Category::kOther;
  FlowRole flow_role = FlowRole::kNone;
  CategoryText cat_text;  // only used when category == kOther

  int64_t end_ns() const { return ts_ns + dur_ns; }
  std::string_view cat() const;
  std::optional<ArgView> FindArg(std::string_view key) const { return args.Find(key); }
  // Integer value of an arg (a number, or a quoted decimal string); nullopt if absent/not integral.
  std::optional<int64_t> IntArg(std::string_view key) const;
};

static_assert(sizeof(Event) == 64, "Event's layout grew: every event of a trace pays for it");

struct ProcessRow {
  int64_t pid = 0;
  std::string name;
  std::string labels;
  int64_t sort_index = 0;
  // Further, different process_name values a file gave this pid, in file order (|name| is the
  // first). Kineto's default "GPU n" rows name pids 0-15 after the host process, so a device on
  // those pids ends up with two; the contract checks report it.
  std::vector<std::string> other_names = {};
};

struct ThreadRow {
  int64_t pid = 0;
  int64_t tid = 0;
  std::string name;
  int64_t sort_index = 0;
};

struct Trace {
  int64_t base_time_ns = 0;
  int64_t capture_start_ns = 0;  // system-clock ns of the profiling window
  int64_t capture_end_ns = 0;
  std::vector<RawJson> device_properties;                 // each one JSON object
  std::vector<std::pair<std::string, RawJson>> metadata;  // top-level "key": value pairs
  std::vector<ProcessRow> processes;
  std::vector<ThreadRow> threads;
  // The pools that hold pooled args of the events (arg_pool.h): kept as long as the trace.
  // Moving events to another trace moves their pools with them.
  std::vector<std::shared_ptr<const ArgPool>> arg_pools;
  std::vector<Event> events;  // logging order: host ops, then device activities
  std::string trace_name;

  const ProcessRow* FindProcess(int64_t pid) const;
  const ThreadRow* FindThread(int64_t pid, int64_t tid) const;
};

// Kineto's base time: wall clock floored to 7,889,238 s (about three months), so relative
// timestamps stay small while files from the same quarter share a base.
int64_t KinetoBaseTimeNs(int64_t system_ns);

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_TRACE_H_
