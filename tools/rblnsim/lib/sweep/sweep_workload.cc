#include "tools/rblnsim/lib/sweep/sweep_workload.h"

#include <simdjson.h>

#include <algorithm>
#include <optional>
#include <string>

#include "scenario/op_catalog.h"
#include "sim/device_facts.h"

namespace rblnsim::cli {
namespace {

using scenario::OpSignature;
using scenario::Step;

// Reads the types the loader resolved for each step; nothing here re-infers a shape.
class FlopCounter {
 public:
  explicit FlopCounter(const scenario::Scenario& scenario) : scenario_(scenario) {}

  // |times|: how often the steps run (repeat counts multiplied out).
  void Walk(const std::vector<Step>& steps, double times) {
    for (const Step& step : steps) {
      if (step.kind == Step::Kind::kOp) {
        Op(step.op, step.types, times);
      } else if (step.kind == Step::Kind::kRepeat) {
        Walk(step.body, times * static_cast<double>(step.count));
      } else if (step.kind == Step::Kind::kGraph) {
        const auto graph = scenario_.workload.graphs.find(step.graph);
        if (graph == scenario_.workload.graphs.end())
          continue;
        for (size_t i = 0; i < graph->second.body.size() && i < step.graph_types.size(); ++i)
          Op(graph->second.body[i].op, step.graph_types[i], times);
      }
    }
  }

  WorkloadFlops Result() const {
    WorkloadFlops result;
    result.matmul_flops = flops_;
    result.largest_dtype = largest_dtype_;
    return WithPeakOf(result, scenario_.device);
  }

 private:
  void Op(const std::string& name, const OpSignature& types, double times) {
    const scenario::OpInfo* op = scenario::FindOp(name);
    if (op == nullptr || !op->device_supported || op->op_class != scenario::OpClass::kMatmul)
      return;
    // The contracted dimension: the last of the left operand (of a for addmm's bias, a, b).
    const size_t left_index = op->rule == scenario::OpRule::kAddmm ? 1 : 0;
    if (types.inputs.size() <= left_index)
      return;
    const scenario::TensorType& left = types.inputs[left_index];
    const double k = left.shape.empty() ? 1.0 : static_cast<double>(left.shape.back());
    const double flops = 2.0 * static_cast<double>(types.output.NumElements()) * k;
    flops_ += flops * times;
    if (flops > largest_flops_) {
      largest_flops_ = flops;
      largest_dtype_ = left.dtype;
    }
  }

  const scenario::Scenario& scenario_;
  double flops_ = 0;
  double largest_flops_ = 0;
  std::optional<scenario::DType> largest_dtype_;
};

}  // namespace

WorkloadFlops CountWorkloadFlops(const scenario::Scenario& scenario) {
  FlopCounter counter(scenario);
  counter.Walk(scenario.workload.profile, 1);
  return counter.Result();
}

WorkloadFlops WithPeakOf(const WorkloadFlops& flops, const scenario::DeviceConfig& device) {
  WorkloadFlops result = flops;
  result.peak_flops_per_s =
      flops.largest_dtype ? sim::PeakMatmulFlopsPerSecond(device, *flops.largest_dtype) : 0;
  return result;
}

StatusOr<double> DeviceActiveNsFromTruth(const std::string& truth_path) {
  simdjson::dom::parser parser;
  simdjson::dom::array launches;
  if (auto error = parser.load(truth_path)["launches"].get_array().get(launches)) {
    return Status::Error(
        truth_path + ": no launches array in the truth file: " + simdjson::error_message(error));
  }
  std::vector<std::pair<int64_t, int64_t>> spans;
  for (simdjson::dom::element launch : launches) {
    int64_t start = 0, end = 0;
    bool failed = false;
    if (launch["first_device_start_ns"].get_int64().get(start) ||
        launch["last_device_end_ns"].get_int64().get(end) ||
        launch["failed"].get_bool().get(failed))
      return Status::Error(truth_path + ": a launch lacks its device start, end or failed flag");
    if (!failed && end > start)
      spans.emplace_back(start, end);
  }
  std::sort(spans.begin(), spans.end());
  double active_ns = 0;
  int64_t covered_until = INT64_MIN;
  for (const auto& [start, end] : spans) {
    const int64_t from = std::max(start, covered_until);
    if (end > from)
      active_ns += static_cast<double>(end - from);
    covered_until = std::max(covered_until, end);
  }
  return active_ns;
}

}  // namespace rblnsim::cli
