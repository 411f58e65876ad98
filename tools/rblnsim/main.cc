// The rblnsim command line. Every subcommand validates its input once and reports bad input as
// one line on stderr with exit status 2.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "profiler/trace/temp_cleanup.h"
#include "tools/rblnsim/allocator_tuning.h"
#include "tools/rblnsim/bad_input.h"
#include "tools/rblnsim/command_line.h"
#include "tools/rblnsim/prefault.h"

int main(int argc, char** argv) {
  // SIGINT/SIGTERM remove the temporary files and directories of whatever command is running.
  rblnsim::trace::InstallTempCleanupOnSignals();
  CLI::App app{"rblnsim: Rebel100 NPU simulator and torch.profiler PrivateUse1 test harness"};

  rblnsim::cli::CommandLine options;
  rblnsim::cli::AddCommands(&app, &options);

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
  if (app.got_subcommand("run")) {
    rblnsim::EnablePrefault();           // the model leaves a core idle (prefault.h)
    rblnsim::ReturnFreedMemoryAtOnce();  // phases hand memory on (allocator_tuning.h)
    return rblnsim::cli::RunCommand(options.run);
  }
  if (app.got_subcommand("check"))
    return rblnsim::cli::CheckCommand(options.check);
  if (app.got_subcommand("analyze"))
    return rblnsim::cli::AnalyzeCommand(options.analyze);
  if (app.got_subcommand("sweep"))
    return rblnsim::cli::SweepCommand(options.sweep);
  if (app.got_subcommand("merge"))
    return rblnsim::cli::MergeCommand(options.merge);
  if (app.got_subcommand("describe"))
    return rblnsim::cli::DescribeCommand(options.describe);
  if (app.got_subcommand("compare"))
    return rblnsim::cli::CompareCommand(options.compare);
  if (app.got_subcommand("calibrate"))
    return rblnsim::cli::CalibrateCommand(options.calibrate);
  if (app.got_subcommand("diff"))
    return rblnsim::cli::DiffCommand(options.diff);
  return 2;
}
