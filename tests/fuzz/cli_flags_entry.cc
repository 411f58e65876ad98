// cli_flags_fuzzer: arbitrary bytes as a command line (arguments separated by NUL bytes) through
// every subcommand's flags and validators, exactly as main() declares them; nothing runs.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_entries.h"
#include "tools/rblnsim/bad_input.h"
#include "tools/rblnsim/command_line.h"

namespace rblnsim::fuzz {

namespace {

// The value given to |flag|, when the arguments hold it as "--flag value" or "--flag=value".
const std::string* ValueOf(const std::vector<std::string>& args, const std::string& flag) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == flag && i + 1 < args.size())
      return &args[i + 1];
  }
  return nullptr;
}

}  // namespace

std::string FuzzCliFlags(const uint8_t* data, size_t size) {
  std::vector<std::string> args = {"rblnsim"};
  std::string current;
  for (size_t i = 0; i < size && args.size() <= kMaxFuzzArgs; ++i) {
    if (data[i] == 0) {
      args.push_back(current);
      current.clear();
    } else {
      current += static_cast<char>(data[i]);
    }
  }
  if (!current.empty() && args.size() <= kMaxFuzzArgs)
    args.push_back(current);

  CLI::App app{"rblnsim"};
  cli::CommandLine options;
  cli::AddCommands(&app, &options);
  std::vector<const char*> argv;
  for (const std::string& arg : args)
    argv.push_back(arg.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::CallForHelp&) {
    return "";
  } catch (const CLI::CallForAllHelp&) {
    return "";
  } catch (const CLI::CallForVersion&) {
    return "";
  } catch (const CLI::ParseError& e) {
    // main() prints it after "rblnsim: ": it must stay one line.
    const std::string line = cli::OneLine(e.what());
    if (line.find('\n') != std::string::npos)
      return "a parse error that is not one line: " + line;
    return "";
  }
  // Accepted: what the validators promise holds in the parsed values.
  if (options.run.seed) {
    const std::string* text = ValueOf(args, "--seed");
    if (text != nullptr && text->find_first_not_of("0123456789") == std::string::npos &&
        std::strtoull(text->c_str(), nullptr, 10) != *options.run.seed) {
      return "--seed " + *text + " was parsed as " + std::to_string(*options.run.seed);
    }
  }
  if (!std::isfinite(options.compare.tolerance_pct) || options.compare.tolerance_pct < 0)
    return "compare accepted a tolerance that is not a finite number >= 0";
  if (options.analyze.outlier_ns && *options.analyze.outlier_ns < 0)
    return "analyze accepted a negative --outlier-ns";
  // '' would read as "not given" and the output silently not be written.
  if (std::find(args.begin(), args.end(), "--") == args.end()) {
    for (const char* flag : {"--trace", "--metrics", "--truth", "--json", "--out", "--plots"}) {
      const std::string* value = ValueOf(args, flag);
      if (value != nullptr && value->empty())
        return std::string("accepted an empty ") + flag;
    }
  }
  if (app.get_subcommands().size() != 1)
    return "parsed without exactly one subcommand";
  return "";
}

}  // namespace rblnsim::fuzz
