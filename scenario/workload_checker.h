// The type-tracking walk over a workload, shared by parse_workload.cc (tensors and eager steps)
// and parse_graphs.cc (compiled graphs and their calls). Internal to the loader.
#ifndef RBLNSIM_SCENARIO_WORKLOAD_CHECKER_H_
#define RBLNSIM_SCENARIO_WORKLOAD_CHECKER_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "scenario/op_catalog.h"
#include "scenario/scenario.h"
#include "scenario/section.h"
#include "scenario/yaml_tree.h"

namespace rblnsim::scenario {

// A tensor name: [A-Za-z_][A-Za-z0-9_]*, at most 64 characters.
bool IsIdentifier(std::string_view name);

// The tensor name in `node`, checked to be an identifier.
StatusOr<std::string> ReadTensorName(const YamlNode& node, const std::string& path);

class WorkloadChecker {
 public:
  explicit WorkloadChecker(Workload* workload) : workload_(workload) {}

  Status Tensors(const YamlNode* node);
  // Graph definitions: structure only; each call type-checks the body with its arguments.
  Status Graphs(const YamlNode* node);
  // A step list; `executed` accumulates the steps it runs with every repeat unrolled.
  Status Steps(const YamlNode& list,
               const std::string& path,
               int depth,
               std::vector<Step>* out,
               int64_t* executed);

 private:
  struct TensorState {
    TensorType type;
    bool on_device = true;
    const YamlNode* assigned_at = nullptr;  // where the current type was last set
  };
  // Where a graph's parts are, for errors found when it is called.
  struct GraphNodes {
    const GraphSpec* spec = nullptr;
    std::vector<const YamlNode*> step_inputs;  // each body step's inputs: list
    const YamlNode* output = nullptr;
  };

  Status OneStep(const YamlNode& item,
                 const std::string& path,
                 int depth,
                 Step* step,
                 int64_t* executed);
  Status OpStep(const Section& s, Step* step);
  Status GraphStep(const Section& s, Step* step);
  Status Repeat(const Section& s, int depth, Step* step, int64_t* executed);
  StatusOr<const TensorState*> Lookup(const YamlNode& name_node, const std::string& path) const;
  // Records a tensor's state before its first assignment in each enclosing repeat body, so a
  // body that changes a type can be found without copying every tensor per repeat.
  void Assign(const std::string& name, TensorState state);

  Workload* workload_;
  std::map<std::string, TensorState> tensors_;
  std::map<std::string, GraphNodes> graphs_;
  // One journal per open repeat body: name → type before the body (nullopt: did not exist).
  std::vector<std::map<std::string, std::optional<TensorType>>> journals_;
};

}  // namespace rblnsim::scenario

#endif  // RBLNSIM_SCENARIO_WORKLOAD_CHECKER_H_
