#include "tools/rblnsim/lib/compare/capture_context.h"

#include <fmt/format.h>
#include <simdjson.h>
#include <sys/stat.h>

#include "scenario/canonical.h"
#include "scenario/env.h"
#include "scenario/loader.h"

namespace rblnsim::cli {

namespace {

std::string MetadataPathFor(const std::string& trace_path) {
  const size_t slash = trace_path.rfind('/');
  return (slash == std::string::npos ? std::string() : trace_path.substr(0, slash + 1)) +
         "metadata.json";
}

// A field that is absent keeps the default; one that is present must have the documented type,
// or a capture's record of what it ran would be ignored without a word.
Status OptionalString(const std::string& path,
                      simdjson::dom::object root,
                      const char* key,
                      std::string* out) {
  simdjson::dom::element value;
  if (root[key].get(value))
    return Status::Ok();
  std::string_view text;
  if (value.get_string().get(text))
    return Status::Error(fmt::format("{}: {} is not a string", path, key));
  *out = std::string(text);
  return Status::Ok();
}

Status ApplyMetadata(const std::string& path, CaptureContext* context) {
  simdjson::dom::parser parser;
  simdjson::dom::object root;
  if (auto error = parser.load(path).get_object().get(root)) {
    return Status::Error(fmt::format("{}: {}", path, simdjson::error_message(error)));
  }
  RBLNSIM_RETURN_IF_ERROR(OptionalString(path, root, "card_name", &context->card_name));
  RBLNSIM_RETURN_IF_ERROR(
      OptionalString(path, root, "torch_rbln_version", &context->torch_rbln_version));
  RBLNSIM_RETURN_IF_ERROR(OptionalString(path, root, "scenario_hash", &context->captured_hash));
  simdjson::dom::element sets_value;
  if (!root["sets"].get(sets_value)) {
    simdjson::dom::array sets;
    if (sets_value.get_array().get(sets))
      return Status::Error(fmt::format("{}: sets is not an array of strings", path));
    for (simdjson::dom::element set : sets) {
      std::string_view text;
      if (set.get_string().get(text))
        return Status::Error(fmt::format("{}: sets is not an array of strings", path));
      context->captured_sets.emplace_back(text);
    }
  }
  simdjson::dom::element env_value;
  if (root["env"].get(env_value))
    return Status::Ok();  // no env recorded: keep the scenario's
  simdjson::dom::object env;
  if (env_value.get_object().get(env))
    return Status::Error(fmt::format("{}: env is not an object", path));
  for (const auto field : env) {
    if (field.key == "RBLN_PROFILER")
      continue;  // forced on below
    std::string_view value;
    if (field.value.get_string().get(value)) {
      return Status::Error(fmt::format("{}: env.{} is not a string", path, field.key));
    }
    if (value.empty())
      continue;  // unset on the card: the scenario's value stood
    Status set = scenario::SetEnvVariable(field.key, value, &context->scenario.env);
    if (!set.ok())
      return set.WithPrefix(fmt::format("{}: env.{}: ", path, field.key));
  }
  return Status::Ok();
}

}  // namespace

StatusOr<CaptureContext> ResolveCaptureContext(const std::string& scenario_path,
                                               const std::vector<std::string>& overlays,
                                               const std::vector<std::string>& sets,
                                               const std::string& trace_path) {
  CaptureContext context;
  RBLNSIM_ASSIGN_OR_RETURN(context.scenario, scenario::LoadScenario(scenario_path, overlays, sets));
  context.scenario_hash = scenario::ScenarioHash(context.scenario);
  const std::string metadata = MetadataPathFor(trace_path);
  struct stat info;
  if (stat(metadata.c_str(), &info) == 0 && S_ISREG(info.st_mode)) {
    context.metadata_path = metadata;
    RBLNSIM_RETURN_IF_ERROR(ApplyMetadata(metadata, &context));
  }
  context.scenario.env.rbln_profiler = true;
  return context;
}

std::string DescribeCaptureContext(const CaptureContext& c) {
  const scenario::EnvConfig& env = c.scenario.env;
  std::string line = fmt::format(
      "capture: {} | simulated with TORCH_RBLN_DEPLOY={} RBLN_RUNTIME_FORCE_SYNC={} ({})",
      c.card_name.empty() ? "card unknown" : c.card_name, env.torch_rbln_deploy ? "ON" : "OFF",
      env.runtime_force_sync ? 1 : 0,
      c.metadata_path.empty() ? "no metadata.json beside the trace: the scenario's env"
                              : "from " + c.metadata_path);
  if (!c.torch_rbln_version.empty())
    line += ", torch-rbln " + c.torch_rbln_version;
  line += "\n";
  if (!c.captured_hash.empty() && c.captured_hash != c.scenario_hash) {
    line += fmt::format(
        "note: the trace was captured from scenario hash {}; the scenario loaded here is {} "
        "(expected with a calibration overlay, otherwise check the scenario{})\n",
        c.captured_hash, c.scenario_hash,
        c.captured_sets.empty() ? ""
                                : "; the capture used --set " +
                                      fmt::format("{}", fmt::join(c.captured_sets, " --set ")));
  }
  return line;
}

}  // namespace rblnsim::cli
