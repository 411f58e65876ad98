#include "profiler/analysis/dialect_rules.h"

#include <string>

namespace rblnsim::analysis {

namespace {

using trace::Category;

constexpr std::string_view kLaneNames[] = {"compute", "copy", "host", "collective"};

bool StartsWithNpu(const std::string& name) {
  return name.compare(0, kNpuRowPrefix.size(), kNpuRowPrefix) == 0;
}

}  // namespace

Dialect DetectDialect(const trace::Trace& trace) {
  for (const trace::ProcessRow& row : trace.processes) {
    if (IsNpuProcess(row))
      return Dialect::kCurrent;
  }
  for (const trace::Event& e : trace.events) {
    if (e.name == kCurrentMarkerName && IsLaunchMarker(e))
      return Dialect::kCurrent;
  }
  return Dialect::kCAbi;
}

bool IsLaunchMarker(const trace::Event& event) {
  return event.category == Category::kPrivateUse1Runtime &&
         (event.name == kCAbiMarkerName || event.name == kCurrentMarkerName);
}

const char* DialectName(Dialect dialect) {
  return dialect == Dialect::kCurrent ? "current" : "c-abi";
}

std::optional<Dialect> DialectFromName(std::string_view name) {
  if (name == "current")
    return Dialect::kCurrent;
  if (name == "c-abi")
    return Dialect::kCAbi;
  return std::nullopt;
}

const char* MarkerNameOf(Dialect dialect) {
  return dialect == Dialect::kCurrent ? kCurrentMarkerName : kCAbiMarkerName;
}

bool IsNpuProcess(const trace::ProcessRow& row) {
  if (StartsWithNpu(row.name))
    return true;
  for (const std::string& name : row.other_names) {
    if (StartsWithNpu(name))
      return true;
  }
  return false;
}

std::string_view LaneName(LaneKind kind) {
  return kLaneNames[static_cast<int>(kind)];
}

std::optional<LaneKind> LaneFromName(std::string_view name) {
  for (int i = 0; i < 4; ++i) {
    if (kLaneNames[i] == name)
      return static_cast<LaneKind>(i);
  }
  return std::nullopt;
}

std::optional<LaneKind> LaneOfCategory(Category category) {
  switch (category) {
    case Category::kKernel:
      return LaneKind::kCompute;
    case Category::kGpuMemcpy:
      return LaneKind::kCopy;
    case Category::kPrivateUse1Runtime:
      return LaneKind::kHost;
    case Category::kPrivateUse1Driver:
      return LaneKind::kCollective;
    default:
      return std::nullopt;
  }
}

}  // namespace rblnsim::analysis
