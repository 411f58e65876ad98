#include "profiler/analysis/dialect_rules.h"

#include <string>

namespace rblnsim::analysis {

namespace {

using trace::Category;

using trace::kLaneNames;

}  // namespace

const char* MarkerNameOf(Dialect dialect) {
  return trace::LaunchMarkerName(dialect).data();  // the names are string literals
}

std::string_view LaneName(LaneKind kind) {
  return kLaneNames[static_cast<int>(kind)];
}

std::optional<LaneKind> LaneFromName(std::string_view name) {
  return trace::LaneKindFromName(name);
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
