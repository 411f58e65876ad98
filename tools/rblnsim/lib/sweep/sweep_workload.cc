#include "tools/rblnsim/lib/sweep/sweep_workload.h"

#include <simdjson.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "scenario/op_catalog.h"
#include "sim/device_facts.h"

namespace rblnsim::cli {
namespace {

using scenario::Step;
using scenario::TensorType;
using Types = std::map<std::string, TensorType>;

class FlopCounter {
 public:
  explicit FlopCounter(const scenario::Scenario& scenario) : scenario_(scenario) {
    for (const scenario::TensorSpec& t : scenario.workload.tensors)
      tensors_[t.name] = TensorType{t.shape, t.dtype};
  }

  // Steps outside the window only create tensors; |count| adds their FLOPs |times| over.
  void Walk(const std::vector<Step>& steps, double times, bool count) {
    for (const Step& step : steps) {
      if (step.kind == Step::Kind::kOp) {
        Op(step, &tensors_, times, count);
      } else if (step.kind == Step::Kind::kRepeat) {
        Walk(step.body, times * static_cast<double>(step.count), count);
      } else if (step.kind == Step::Kind::kGraph) {
        Graph(step, times, count);
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
  // Names in a graph body resolve to an earlier body output, then a graph input, then a workload
  // tensor, as the host model resolves them.
  void Graph(const Step& step, double times, bool count) {
    const auto graph = scenario_.workload.graphs.find(step.graph);
    if (graph == scenario_.workload.graphs.end())
      return;
    Types scope;
    for (const auto& t : scenario_.workload.tensors)
      scope[t.name] = TensorType{t.shape, t.dtype};
    for (size_t i = 0; i < graph->second.params.size() && i < step.inputs.size(); ++i) {
      const auto found = tensors_.find(step.inputs[i]);
      if (found != tensors_.end())
        scope[graph->second.params[i]] = found->second;
    }
    for (const Step& body_step : graph->second.body)
      Op(body_step, &scope, times, count);
    const auto result = scope.find(graph->second.result);
    if (result != scope.end() && !step.output.empty())
      tensors_[step.output] = result->second;
  }

  void Op(const Step& step, Types* scope, double times, bool count) {
    const scenario::OpInfo* op = scenario::FindOp(step.op);
    if (op == nullptr)
      return;
    std::vector<TensorType> inputs;
    for (const std::string& name : step.inputs) {
      const auto found = scope->find(name);
      if (found == scope->end())
        return;
      inputs.push_back(found->second);
    }
    StatusOr<TensorType> out = scenario::InferOutput(*op, inputs, step.scalars);
    if (!out.ok())
      return;
    (*scope)[step.output] = *out;
    if (!count || !op->device_supported || op->op_class != scenario::OpClass::kMatmul)
      return;
    // The contracted dimension: the last of the left operand (of a for addmm's bias, a, b).
    const TensorType& left = op->rule == scenario::OpRule::kAddmm ? inputs[1] : inputs[0];
    const double k = left.shape.empty() ? 1.0 : static_cast<double>(left.shape.back());
    const double flops = 2.0 * static_cast<double>(out->NumElements()) * k;
    flops_ += flops * times;
    if (flops > largest_flops_) {
      largest_flops_ = flops;
      largest_dtype_ = left.dtype;
    }
  }

  const scenario::Scenario& scenario_;
  Types tensors_;
  double flops_ = 0;
  double largest_flops_ = 0;
  std::optional<scenario::DType> largest_dtype_;
};

}  // namespace

WorkloadFlops CountWorkloadFlops(const scenario::Scenario& scenario) {
  FlopCounter counter(scenario);
  counter.Walk(scenario.workload.warmup, 1, /*count=*/false);
  counter.Walk(scenario.workload.profile, 1, /*count=*/true);
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
