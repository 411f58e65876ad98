#include "profiler/trace/dialect.h"

#include <algorithm>

namespace rblnsim::trace {

std::string_view DialectName(Dialect dialect) {
  return dialect == Dialect::kCurrent ? "current" : "c-abi";
}

std::optional<Dialect> DialectFromName(std::string_view name) {
  if (name == "current")
    return Dialect::kCurrent;
  if (name == "c-abi")
    return Dialect::kCAbi;
  return std::nullopt;
}

std::string_view LaunchMarkerName(Dialect dialect) {
  return dialect == Dialect::kCurrent ? kCurrentMarkerName : kCAbiMarkerName;
}

bool IsLaunchMarker(const Event& event) {
  return event.category == Category::kPrivateUse1Runtime &&
         (event.name == kCAbiMarkerName || event.name == kCurrentMarkerName);
}

bool IsLaunchMarker(const Event& event, Dialect dialect) {
  return event.category == Category::kPrivateUse1Runtime && event.name == LaunchMarkerName(dialect);
}

std::string NpuRowName(int64_t device) {
  return std::string(kNpuRowPrefix) + std::to_string(device);
}

bool IsNpuRowName(std::string_view process_name) {
  return process_name.starts_with(kNpuRowPrefix);
}

std::string_view LaneName(int64_t tid) {
  return tid >= 0 && tid < kLaneCount ? kLaneNames[tid] : std::string_view();
}

std::optional<int64_t> LaneForCategory(Category category) {
  switch (category) {
    case Category::kKernel:
      return 0;
    case Category::kGpuMemcpy:
      return 1;
    case Category::kPrivateUse1Runtime:
      return 2;
    case Category::kPrivateUse1Driver:
      return 3;
    default:
      return std::nullopt;
  }
}

std::optional<LaneKind> LaneKindFromName(std::string_view name) {
  for (int64_t i = 0; i < kLaneCount; ++i) {
    if (kLaneNames[i] == name)
      return static_cast<LaneKind>(i);
  }
  return std::nullopt;
}

bool IsNpuProcess(const ProcessRow& row) {
  if (IsNpuRowName(row.name))
    return true;
  for (const std::string& name : row.other_names) {
    if (IsNpuRowName(name))
      return true;
  }
  return false;
}

bool HasNpuProcessRow(const Trace& trace) {
  // Kineto's default "GPU <n>" row can win the pid's name; IsNpuProcess reads the later ones too.
  return std::any_of(trace.processes.begin(), trace.processes.end(), IsNpuProcess);
}

Dialect DetectDialect(const Trace& trace) {
  if (HasNpuProcessRow(trace))
    return Dialect::kCurrent;
  for (const Event& event : trace.events) {
    if (IsLaunchMarker(event, Dialect::kCurrent))
      return Dialect::kCurrent;
  }
  return Dialect::kCAbi;
}

namespace {

// Digits from |pos| up to |end_char|; the position after end_char, or npos.
size_t SkipNumber(std::string_view text, size_t pos, char end_char) {
  const size_t start = pos;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
    ++pos;
  if (pos == start || pos >= text.size() || text[pos] != end_char)
    return std::string_view::npos;
  return pos + 1;
}

}  // namespace

std::string_view CommandKey(std::string_view name) {
  if (name.size() < 2 || name[0] != 'i')
    return name;
  size_t pos = SkipNumber(name, 1, '_');
  if (pos != std::string_view::npos)
    pos = SkipNumber(name, pos, '_');
  if (pos == std::string_view::npos || pos >= name.size() || name[pos] != 'W')
    return name;
  pos = SkipNumber(name, pos + 1, '_');
  if (pos == std::string_view::npos || pos >= name.size())
    return name;
  return name.substr(pos);
}

std::string_view LaneClassName(std::string_view thread_name) {
  while (!thread_name.empty() &&
         ((thread_name.back() >= '0' && thread_name.back() <= '9') || thread_name.back() == ' '))
    thread_name.remove_suffix(1);
  return thread_name;
}

}  // namespace rblnsim::trace
