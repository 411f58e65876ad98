// The rblnsim command line. Every subcommand validates its input once and reports bad input as
// one line on stderr with exit status 2.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "profiler/trace/temp_cleanup.h"
#include "tools/rblnsim/analyze_command.h"
#include "tools/rblnsim/bad_input.h"
#include "tools/rblnsim/calibrate_command.h"
#include "tools/rblnsim/check_command.h"
#include "tools/rblnsim/compare_command.h"
#include "tools/rblnsim/describe_command.h"
#include "tools/rblnsim/merge_command.h"
#include "tools/rblnsim/run_command.h"
#include "tools/rblnsim/sweep_command.h"

int main(int argc, char** argv) {
  // SIGINT/SIGTERM remove the temporary files and directories of whatever command is running.
  rblnsim::trace::InstallTempCleanupOnSignals();
  CLI::App app{"rblnsim: Rebel100 NPU simulator and torch.profiler PrivateUse1 test harness"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "rblnsim 0.1.0");

  rblnsim::cli::RunOptions run;
  rblnsim::cli::AddRunCommand(&app, &run);
  rblnsim::cli::CheckCommandOptions check;
  rblnsim::cli::AddCheckCommand(&app, &check);
  rblnsim::cli::AnalyzeOptions analyze;
  rblnsim::cli::AddAnalyzeCommand(&app, &analyze);
  rblnsim::cli::SweepOptions sweep;
  rblnsim::cli::AddSweepCommand(&app, &sweep);
  rblnsim::cli::MergeOptions merge;
  rblnsim::cli::AddMergeCommand(&app, &merge);
  rblnsim::cli::DescribeOptions describe;
  rblnsim::cli::AddDescribeCommand(&app, &describe);
  rblnsim::cli::CompareOptions compare;
  rblnsim::cli::AddCompareCommand(&app, &compare);
  rblnsim::cli::CalibrateOptions calibrate;
  rblnsim::cli::AddCalibrateCommand(&app, &calibrate);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "rblnsim: %s (run with --help for usage)\n",
                 rblnsim::cli::OneLine(e.what()).c_str());
    return 2;
  }
  if (app.got_subcommand("run"))
    return rblnsim::cli::RunCommand(run);
  if (app.got_subcommand("check"))
    return rblnsim::cli::CheckCommand(check);
  if (app.got_subcommand("analyze"))
    return rblnsim::cli::AnalyzeCommand(analyze);
  if (app.got_subcommand("sweep"))
    return rblnsim::cli::SweepCommand(sweep);
  if (app.got_subcommand("merge"))
    return rblnsim::cli::MergeCommand(merge);
  if (app.got_subcommand("describe"))
    return rblnsim::cli::DescribeCommand(describe);
  if (app.got_subcommand("compare"))
    return rblnsim::cli::CompareCommand(compare);
  if (app.got_subcommand("calibrate"))
    return rblnsim::cli::CalibrateCommand(calibrate);
  return 2;
}
