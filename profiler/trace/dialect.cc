#include "profiler/trace/dialect.h"

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

Dialect DetectDialect(const Trace& trace) {
  for (const ProcessRow& row : trace.processes) {
    // Kineto's default "GPU <n>" row can win the pid's name; the NPU name is then a second one.
    if (IsNpuProcess(row))
      return Dialect::kCurrent;
  }
  for (const Event& event : trace.events) {
    if (IsLaunchMarker(event, Dialect::kCurrent))
      return Dialect::kCurrent;
  }
  return Dialect::kCAbi;
}

}  // namespace rblnsim::trace
