// Every subcommand's options, and the one function that declares them all on a CLI11 app.
#ifndef RBLNSIM_TOOLS_RBLNSIM_COMMAND_LINE_H_
#define RBLNSIM_TOOLS_RBLNSIM_COMMAND_LINE_H_

#include "tools/rblnsim/analyze/analyze_command.h"
#include "tools/rblnsim/calibrate/calibrate_command.h"
#include "tools/rblnsim/check/check_command.h"
#include "tools/rblnsim/compare/compare_command.h"
#include "tools/rblnsim/describe/describe_command.h"
#include "tools/rblnsim/diff/diff_command.h"
#include "tools/rblnsim/merge/merge_command.h"
#include "tools/rblnsim/run/run_command.h"
#include "tools/rblnsim/sweep/sweep_command.h"

namespace CLI {
class App;
}

namespace rblnsim::cli {

struct CommandLine {
  RunOptions run;
  CheckCommandOptions check;
  AnalyzeOptions analyze;
  SweepOptions sweep;
  MergeOptions merge;
  DescribeOptions describe;
  CompareOptions compare;
  CalibrateOptions calibrate;
  DiffOptions diff;
};

// One subcommand is required; --version prints the version.
void AddCommands(CLI::App* app, CommandLine* options);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_COMMAND_LINE_H_
