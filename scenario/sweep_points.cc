#include "scenario/sweep_points.h"

#include <algorithm>
#include <memory>

#include "scenario/loader.h"
#include "scenario/parse_sections.h"

namespace rblnsim::scenario {
namespace {

std::string PathOf(const std::string& set) {
  std::string path = set.substr(0, set.find('='));
  while (!path.empty() && path.front() == ' ') {
    path.erase(path.begin());
  }
  return path;
}

// The parts `sets` reach, in canonical order; every part when one path is outside all of them.
std::vector<ScenarioPart> PartsOf(const std::vector<std::string>& sets) {
  std::vector<ScenarioPart> parts;
  for (const std::string& set : sets) {
    const std::optional<ScenarioPart> part = PartOfKey(PathOf(set));
    if (!part) {
      return {std::begin(kScenarioParts), std::end(kScenarioParts)};
    }
    if (std::find(parts.begin(), parts.end(), *part) == parts.end()) {
      parts.push_back(*part);
    }
  }
  std::sort(parts.begin(), parts.end());
  return parts;
}

}  // namespace

StatusOr<SweepPoints> SweepPoints::Load(const std::string& path,
                                        const std::vector<std::string>& overlay_paths,
                                        const std::vector<std::string>& set_overrides) {
  RBLNSIM_ASSIGN_OR_RETURN(std::string text, ReadScenarioFile(path));
  // The full load first: its errors, sweep checks and all, are those of `rblnsim run`.
  SweepPoints points;
  RBLNSIM_ASSIGN_OR_RETURN(points.base_,
                           LoadScenarioFromString(text, path, overlay_paths, set_overrides));
  for (int64_t& count : points.validations_) {
    ++count;
  }
  RBLNSIM_ASSIGN_OR_RETURN(YamlNodePtr root,
                           MergeDocument(text, path, overlay_paths, set_overrides));
  auto without = std::make_shared<YamlNode>(*root);
  for (auto it = without->entries.begin(); it != without->entries.end(); ++it) {
    if (it->first->scalar == "sweep") {
      without->expanded_size -= it->first->expanded_size + it->second->expanded_size;
      without->entries.erase(it);
      break;
    }
  }
  points.without_sweep_ = std::move(without);
  std::vector<std::string> axis_paths;
  for (const SweepAxis& axis : points.base_.sweep.axes) {
    axis_paths.push_back(axis.path);
  }
  points.swept_parts_ = PartsOf(axis_paths);
  return points;
}

Scenario SweepPoints::PointTemplate() const {
  Scenario point = base_;
  point.sweep = Sweep();
  return point;
}

StatusOr<std::vector<ScenarioPart>> SweepPoints::LoadPoint(
    const std::vector<std::string>& point_sets,
    Scenario* point) const {
  RBLNSIM_ASSIGN_OR_RETURN(YamlNodePtr root, ApplySetOverrides(without_sweep_, point_sets));
  std::array<std::vector<std::string>, kScenarioPartCount> sets_of_part;
  for (const std::string& set : point_sets) {
    const std::optional<ScenarioPart> part = PartOfKey(PathOf(set));
    if (part) {
      sets_of_part[static_cast<size_t>(*part)].push_back(set);
    }
  }
  std::vector<ScenarioPart> parts;
  for (ScenarioPart part : PartsOf(point_sets)) {
    const size_t slot = static_cast<size_t>(part);
    if (!has_previous_ || sets_of_part[slot].empty() ||
        sets_of_part[slot] != previous_sets_[slot]) {
      parts.push_back(part);
    }
  }
  // Until this point validates, the previous point's parts are no longer a safe reuse.
  has_previous_ = false;
  for (ScenarioPart part : parts) {
    ++validations_[static_cast<size_t>(part)];
  }
  RBLNSIM_RETURN_IF_ERROR(ValidateParts(root, parts, point, nullptr));
  previous_sets_ = std::move(sets_of_part);
  has_previous_ = true;
  return parts;
}

}  // namespace rblnsim::scenario
