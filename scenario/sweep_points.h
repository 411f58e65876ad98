// Loading the points of a sweep in O(points + document) instead of O(points x document). The
// scenario, its overlays and --set arguments are read, merged and validated once. A point then
// applies its own --set arguments to that shared tree (copying only the nodes on each path) and
// validates again only the top-level parts those arguments reach; the other parts of the point
// stay as the caller holds them. The result equals LoadScenario(path, overlays, sets + point)
// with the sweep removed.
#ifndef RBLNSIM_SCENARIO_SWEEP_POINTS_H_
#define RBLNSIM_SCENARIO_SWEEP_POINTS_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "scenario/canonical.h"
#include "scenario/scenario.h"
#include "scenario/yaml_tree.h"

namespace rblnsim::scenario {

class SweepPoints {
 public:
  // Loads the scenario exactly as LoadScenario does (sweep included, each value checked).
  static StatusOr<SweepPoints> Load(const std::string& path,
                                    const std::vector<std::string>& overlay_paths,
                                    const std::vector<std::string>& set_overrides);

  const Scenario& base() const { return base_; }
  // base() without its sweep: the starting value of the Scenario passed to every LoadPoint.
  Scenario PointTemplate() const;
  // The parts the sweep's axes reach; every point validates these again, and only these.
  const std::vector<ScenarioPart>& swept_parts() const { return swept_parts_; }

  // Validates the point given by `point_sets` ("path=value", one per axis) into *point and
  // returns the parts it rewrote: those the paths reach, less any whose own values equal the
  // previous point's (in grid order the earlier axes change rarely, so a workload axis listed
  // first costs one workload validation per value, not per point). *point must therefore be
  // PointTemplate() for the first call and the previous result after that. A path outside every
  // known part validates the whole document (and fails).
  StatusOr<std::vector<ScenarioPart>> LoadPoint(const std::vector<std::string>& point_sets,
                                                Scenario* point) const;

  // How many times each part was validated, base load included: what the tests watch to know a
  // point does not re-read the document.
  int64_t validations(ScenarioPart part) const { return validations_[static_cast<size_t>(part)]; }

 private:
  SweepPoints() = default;

  Scenario base_;
  YamlNodePtr without_sweep_;  // the merged document, its sweep: key removed
  std::vector<ScenarioPart> swept_parts_;
  mutable std::array<int64_t, kScenarioPartCount> validations_{};
  // The --set arguments of each part at the previous point, and whether there was one.
  mutable std::array<std::vector<std::string>, kScenarioPartCount> previous_sets_;
  mutable bool has_previous_ = false;
};

}  // namespace rblnsim::scenario

#endif  // RBLNSIM_SCENARIO_SWEEP_POINTS_H_
