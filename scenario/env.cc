#include "scenario/env.h"

#include <cctype>

#include "scenario/registry.h"
#include "scenario/suggest.h"

namespace rblnsim::scenario {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

Status Invalid(std::string_view value, const char* expected) {
  return Status::Error("'" + Printable(value) + "' is invalid; expected " + expected);
}

StatusOr<bool> ZeroOrOne(std::string_view value) {
  if (value == "1") {
    return true;
  }
  if (value == "0") {
    return false;
  }
  return Invalid(value, "0 or 1");
}

}  // namespace

const std::vector<std::string_view>& EnvVariableNames() {
  static const std::vector<std::string_view> kNames = ChildKeys("env");
  return kNames;
}

Status SetEnvVariable(std::string_view variable, std::string_view value, EnvConfig* env) {
  if (variable == "RBLN_PROFILER") {
    RBLNSIM_ASSIGN_OR_RETURN(env->rbln_profiler, ZeroOrOne(value));
  } else if (variable == "RBLN_RUNTIME_FORCE_SYNC") {
    RBLNSIM_ASSIGN_OR_RETURN(env->runtime_force_sync, ZeroOrOne(value));
  } else if (variable == "TORCH_RBLN_DEPLOY") {
    const std::string lower = Lower(value);
    if (lower == "on" || lower == "1" || lower == "true") {
      env->torch_rbln_deploy = true;
    } else if (lower == "off" || lower == "0" || lower == "false") {
      env->torch_rbln_deploy = false;
    } else {
      return Invalid(value, "ON or OFF (or 1/0, true/false)");
    }
  } else if (variable == "RBLN_PROFILER_DIR") {
    env->rbln_profiler_dir = std::string(value);
  } else {
    return Status::Error("unknown variable '" + Printable(variable) + "'" +
                         DidYouMean(variable, EnvVariableNames()));
  }
  return Status::Ok();
}

Status ApplyProcessEnvironment(Scenario* scenario, std::function<const char*(const char*)> getenv) {
  for (std::string_view name : EnvVariableNames()) {
    const std::string variable(name);
    const char* value = getenv(variable.c_str());
    if (value == nullptr || value[0] == '\0') {
      continue;
    }
    Status status = SetEnvVariable(variable, value, &scenario->env);
    if (!status.ok()) {
      return Status::Error("environment variable " + variable + ": " + status.message());
    }
  }
  return Status::Ok();
}

}  // namespace rblnsim::scenario
