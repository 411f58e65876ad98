#include "tools/rblnsim/lib/sweep/sweep_plan.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

#include "scenario/canonical.h"
#include "scenario/env.h"
#include "scenario/loader.h"
#include "scenario/sweep_points.h"
#include "tools/rblnsim/lib/sweep/sweep_workload.h"

namespace rblnsim::cli {
namespace {

std::string Trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ')
    text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ')
    text.remove_suffix(1);
  return std::string(text);
}

// "device.queue.depth=4" -> {"device.queue.depth", "4"}.
std::pair<std::string, std::string> SplitSet(const std::string& set) {
  const size_t equals = set.find('=');
  if (equals == std::string::npos)
    return {Trim(set), ""};
  return {Trim(std::string_view(set).substr(0, equals)), set.substr(equals + 1)};
}

// A swept value for tables and plots: a quoted YAML scalar ("0", 'ON') loses its quotes and its
// escapes are decoded ("e\nf" is e, newline, f; the JSON and CSV writers escape it again); the
// --set text keeps them, since YAML needs them to keep "0" a string.
std::string DisplayValue(const std::string& text) {
  if (text.size() < 2 || text.front() != text.back() || (text[0] != '"' && text[0] != '\''))
    return text;
  const char quote = text[0];
  const std::string_view body(text.data() + 1, text.size() - 2);
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    if (quote == '\'') {
      out += body[i];
      if (body[i] == '\'' && i + 1 < body.size() && body[i + 1] == '\'')
        ++i;  // '' is one quote
      continue;
    }
    if (body[i] != '\\' || i + 1 >= body.size()) {
      out += body[i];
      continue;
    }
    const char escaped = body[++i];
    switch (escaped) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case '0':
        out += '\0';
        break;
      case 'x':
        if (i + 2 < body.size() && std::isxdigit(static_cast<unsigned char>(body[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(body[i + 2]))) {
          out += static_cast<char>(std::stoi(std::string(body.substr(i + 1, 2)), nullptr, 16));
          i += 2;
          break;
        }
        out += escaped;
        break;
      default:  // \\, \", and any escape this display does not decode, kept as its character
        out += escaped;
    }
  }
  return out;
}

// True when one path is the other or lies inside it.
bool Overlaps(const std::string& a, const std::string& b) {
  const auto inside = [](const std::string& inner, const std::string& outer) {
    return inner.size() > outer.size() && inner.compare(0, outer.size(), outer) == 0 &&
           inner[outer.size()] == '.';
  };
  return a == b || inside(a, b) || inside(b, a);
}

std::string Describe(const SweepPoint& point) {
  std::string text;
  for (const auto& [path, value] : point.params)
    text += (text.empty() ? "" : ", ") + path + "=" + value;
  return "sweep point " + std::to_string(point.index) + " (" + text + ")";
}

// A swept value would be silently replaced by a --set or by the process environment, which
// `rblnsim run` applies last; every point would then run the same configuration.
Status CheckNothingOverridesAnAxis(const scenario::Sweep& sweep,
                                   const std::vector<std::string>& sets,
                                   const GetEnv& getenv) {
  for (const scenario::SweepAxis& axis : sweep.axes) {
    for (const std::string& set : sets) {
      if (Overlaps(SplitSet(set).first, axis.path)) {
        return Status::Error("--set " + set + " overlaps the swept key " + axis.path +
                             "; drop it or remove the axis from sweep:");
      }
    }
    if (axis.path.rfind("env.", 0) != 0)
      continue;
    const std::string variable = axis.path.substr(4);
    const char* value = getenv(variable.c_str());
    if (value != nullptr && value[0] != '\0') {
      return Status::Error("the environment variable " + variable + "=" + value +
                           " overrides the swept key " + axis.path + " in every point; unset it");
    }
  }
  return Status::Ok();
}

}  // namespace

StatusOr<SweepPlan> PlanSweep(const SweepInputs& inputs, const GetEnv& getenv) {
  // The document is read and validated once; each point re-validates, re-hashes and re-counts
  // only the parts its axes reach, so planning costs points + document, not their product.
  RBLNSIM_ASSIGN_OR_RETURN(
      scenario::SweepPoints loader,
      scenario::SweepPoints::Load(inputs.scenario_path, inputs.overlays, inputs.sets));
  scenario::Scenario base = loader.base();
  if (base.sweep.axes.empty()) {
    return Status::Error(inputs.scenario_path +
                         ": the scenario has no sweep: block, so there is nothing to sweep "
                         "(simulate it with rblnsim run)");
  }
  RBLNSIM_RETURN_IF_ERROR(CheckNothingOverridesAnAxis(base.sweep, inputs.sets, getenv));
  if (inputs.seed)
    base.seed = *inputs.seed;
  RBLNSIM_RETURN_IF_ERROR(scenario::ApplyProcessEnvironment(&base, getenv));

  SweepPlan plan;
  plan.scenario_name = base.name;
  plan.sweep_id = scenario::ScenarioHash(base);
  for (const scenario::SweepAxis& axis : base.sweep.axes)
    plan.axes.push_back(axis.path);

  // The point as `rblnsim run` resolves it, without the sweep block: its identity must not depend
  // on the other points. The seed override and the process environment are applied after each
  // load, as `run` applies them; parts a point did not rewrite keep their digest from before.
  scenario::Scenario resolved = loader.PointTemplate();
  scenario::ScenarioDigest digest;
  std::optional<WorkloadFlops> workload_flops;  // of the workload the last point resolved
  std::map<std::string, size_t> index_of_key;
  for (std::vector<std::string>& point_sets : scenario::ExpandSweep(base.sweep)) {
    SweepPoint point;
    point.index = plan.points.size();
    for (const std::string& set : point_sets) {
      auto [path, value] = SplitSet(set);
      point.params.emplace_back(std::move(path), DisplayValue(value));
    }
    point.sets = std::move(point_sets);
    StatusOr<std::vector<scenario::ScenarioPart>> changed = loader.LoadPoint(point.sets, &resolved);
    Status loaded = changed.status();
    if (loaded.ok()) {
      if (inputs.seed)
        resolved.seed = *inputs.seed;
      loaded = scenario::ApplyProcessEnvironment(&resolved, getenv);
    }
    if (!loaded.ok())
      return loaded.WithPrefix(Describe(point) + ": ");
    const auto was_changed = [&](scenario::ScenarioPart part) {
      return std::find(changed->begin(), changed->end(), part) != changed->end();
    };
    if (point.index == 0) {
      digest = scenario::DigestScenario(resolved);
    } else {
      for (scenario::ScenarioPart part : *changed)
        scenario::UpdateDigest(resolved, part, &digest);
    }
    point.key = scenario::DigestHash(digest);
    const auto [it, inserted] = index_of_key.emplace(point.key, point.index);
    if (!inserted) {
      return Status::Error(Describe(plan.points[it->second]) + " and " + Describe(point) +
                           " resolve to the same scenario (key " + point.key + ")");
    }
    point.seed = DeriveSeed(resolved.seed, point.key);
    // The workload's FLOPs are walked again only when this point rewrote the workload.
    if (!workload_flops || was_changed(scenario::ScenarioPart::kWorkload))
      workload_flops = CountWorkloadFlops(resolved);
    const WorkloadFlops flops = WithPeakOf(*workload_flops, resolved.device);
    point.matmul_flops = flops.matmul_flops;
    point.peak_flops_per_s = flops.peak_flops_per_s;
    plan.points.push_back(std::move(point));
  }
  return plan;
}

uint64_t DeriveSeed(uint64_t base_seed, const std::string& key) {
  return scenario::Fnv1a64("rblnsim-sweep-seed/" + std::to_string(base_seed) + "/" + key) &
         ((uint64_t{1} << 53) - 1);
}

std::vector<size_t> ShardPoints(size_t point_count, int shard_index, int shard_count) {
  std::vector<size_t> selected;
  for (size_t i = static_cast<size_t>(shard_index); i < point_count;
       i += static_cast<size_t>(shard_count)) {
    selected.push_back(i);
  }
  return selected;
}

}  // namespace rblnsim::cli
