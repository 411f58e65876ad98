#include "scenario/env.h"

#include <cctype>
#include <string>
#include <utility>

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

// TORCH_RBLN_DISABLE_FALLBACK's names, sorted as torch-rbln lists them in its error.
struct Category {
  std::string_view name;
  uint32_t bits;
};
constexpr Category kCategories[] = {
    {"all", kFallbackAll},
    {"compile_error", kFallbackCompileError},
    {"host_round_trip", kFallbackHostRoundTrip},
    {"non_blocking_copy", kFallbackNonBlockingCopy},
    {"strided_copy_error", kFallbackStridedCopyError},
    {"unsupported_op", kFallbackUnsupportedOp},
};

StatusOr<uint32_t> ParseDisabledFallbacks(std::string_view value) {
  uint32_t bits = 0;
  size_t start = 0;
  while (start <= value.size()) {
    size_t comma = value.find(',', start);
    if (comma == std::string_view::npos)
      comma = value.size();
    std::string_view token = value.substr(start, comma - start);
    while (!token.empty() && (token.front() == ' ' || token.front() == '\t'))
      token.remove_prefix(1);
    while (!token.empty() && (token.back() == ' ' || token.back() == '\t'))
      token.remove_suffix(1);
    start = comma + 1;
    if (token.empty())
      continue;
    const Category* found = nullptr;
    for (const Category& c : kCategories) {
      if (c.name == token)
        found = &c;
    }
    if (found == nullptr) {
      std::string expected;
      for (const Category& c : kCategories)
        expected += (expected.empty() ? "" : ",") + std::string(c.name);
      return Status::Error("Invalid TORCH_RBLN_DISABLE_FALLBACK option `" + Printable(token) +
                           "`, expected one of: " + expected);
    }
    bits |= found->bits;
  }
  return bits;
}

constexpr std::pair<std::string_view, LogLevel> kLogLevels[] = {{"DEBUG", LogLevel::kDebug},
                                                                {"INFO", LogLevel::kInfo},
                                                                {"WARNING", LogLevel::kWarning},
                                                                {"ERROR", LogLevel::kError}};

}  // namespace

std::string EnvVariableText(std::string_view variable, const EnvConfig& env) {
  if (variable == "RBLN_PROFILER")
    return env.rbln_profiler ? "1" : "0";
  if (variable == "RBLN_PROFILER_DIR")
    return env.rbln_profiler_dir;
  if (variable == "TORCH_RBLN_DEPLOY")
    return env.torch_rbln_deploy ? "ON" : "OFF";
  if (variable == "RBLN_RUNTIME_FORCE_SYNC")
    return env.runtime_force_sync ? "1" : "0";
  if (variable == "TORCH_RBLN_DISABLE_FALLBACK") {
    if ((env.disabled_fallbacks & kFallbackAll) == kFallbackAll)
      return "all";
    std::string text;
    for (const Category& c : kCategories) {
      if (c.bits != kFallbackAll && (env.disabled_fallbacks & c.bits) != 0)
        text += (text.empty() ? "" : ",") + std::string(c.name);
    }
    return text;
  }
  if (variable == "TORCH_RBLN_COMPILED_OPS")
    return std::to_string(env.torch_rbln_compiled_ops);
  if (variable == "RBLN_FLOAT32_PRECISION")
    return env.float32_precision == Float32Precision::kExact ? "exact" : "device";
  if (variable == "TORCH_RBLN_LOG_LEVEL") {
    for (const auto& [name, level] : kLogLevels) {
      if (level == env.torch_rbln_log_level)
        return std::string(name);
    }
  }
  return "";
}

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
  } else if (variable == "TORCH_RBLN_DISABLE_FALLBACK") {
    RBLNSIM_ASSIGN_OR_RETURN(env->disabled_fallbacks, ParseDisabledFallbacks(value));
  } else if (variable == "TORCH_RBLN_COMPILED_OPS") {
    // torch-rbln's flag: an integer, one or more (OpFunction.cpp).
    int64_t count = 0;
    const std::string text(value);
    size_t used = 0;
    try {
      count = std::stoll(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != text.size() || count < 1 || count > (int64_t{1} << 40))
      return Invalid(value, "one or more (an integer)");
    env->torch_rbln_compiled_ops = count;
  } else if (variable == "RBLN_FLOAT32_PRECISION") {
    const std::string lower = Lower(value);
    if (lower == "device") {
      env->float32_precision = Float32Precision::kDevice;
    } else if (lower == "exact") {
      env->float32_precision = Float32Precision::kExact;
    } else {
      return Invalid(value, "device or exact");
    }
  } else if (variable == "TORCH_RBLN_LOG_LEVEL") {
    const std::string lower = Lower(value);
    bool known = false;
    for (const auto& [name, level] : kLogLevels) {
      if (Lower(name) == lower) {
        env->torch_rbln_log_level = level;
        known = true;
      }
    }
    if (!known)
      return Invalid(value, "DEBUG, INFO, WARNING or ERROR");
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
