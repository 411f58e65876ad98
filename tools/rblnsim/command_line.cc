// The rblnsim command line: every subcommand's flags and their validators, and nothing that
// runs. Kept apart from the commands so the parsing alone can be linked into the flag fuzzer
// (tests/fuzz/cli_flags_entry.cc) without the simulator behind the commands.
#include "tools/rblnsim/command_line.h"

#include <CLI/CLI.hpp>

#include "tools/rblnsim/flag_validators.h"
#include "tools/rblnsim/output_guard.h"

namespace rblnsim::cli {

void AddRunCommand(CLI::App* app, RunOptions* options) {
  CLI::App* run = app->add_subcommand(
      "run", "Simulate a scenario and print the key_averages table, the device events and a trace");
  run->add_option("scenario", options->scenario_path, "Scenario YAML file")->required();
  CLI::Option* trace =
      run->add_option("--trace", options->trace_path, "Chrome trace to write (default trace.json)")
          ->check(NonEmptyPath());
  run->add_flag("--no-trace", options->no_trace,
                "Write no Chrome trace; the reports and other outputs are as with one")
      ->excludes(trace);
  run->add_option("--set", options->sets, "Override a scenario key: path=value (repeatable)");
  run->add_option("--overlay", options->overlays,
                  "Layer a YAML overlay over the scenario (repeatable)");
  run->add_option("--seed", options->seed, "Override the scenario's seed")
      ->check(ExactInteger(IntegerRange::kUint64));
  run->add_option("--sort-by", options->sort_by, "key_averages sort key (default cpu_time_total)");
  run->add_option("--row-limit", options->row_limit, "Rows of the table (default 10)")
      ->check(CLI::NonNegativeNumber);
  run->add_option("--attribution", options->attribution,
                  "released: device time on its own rows (the released bridge); attributed: rolled "
                  "up to the launching op")
      ->check(CLI::IsMember({"released", "attributed"}));
  run->add_option("--metrics", options->metrics_path, "Write the run's figures as one JSON object")
      ->check(NonEmptyPath());
  run->add_option("--truth", options->truth_path,
                  "Write the simulator's ground truth (launch latency decomposition, fallbacks, "
                  "recompiles, round trips) as JSON")
      ->check(NonEmptyPath());
  run->add_option("--bridge", options->bridge,
                  "current: today's torch-rbln seam and trace dialect (NPU rows, 'rbln launch'); "
                  "c-abi: the older rbln_kineto C-ABI (chiplet/engine rows, rbln_run)")
      ->check(CLI::IsMember({"current", "c-abi"}));
  run->add_option("--roofline", options->roofline_dir,
                  "Print each device op's achieved FLOP/s and HBM bytes/s against the peaks, with "
                  "what bounded it, and write DIR/roofline.svg")
      ->check(NonEmptyPath());
  run->add_flag("--no-expect", options->no_expect,
                "Do not check the scenario's expect: block (for what-if variants of a scenario)");
}

// The contract's flags, on check and on analyze; there they need --check (|needs|), so none is
// given and silently ignored.
static void AddContractFlags(CLI::App* command,
                             ContractFlags* flags,
                             CLI::Option* needs = nullptr) {
  const auto need = [needs](CLI::Option* option) {
    if (needs != nullptr)
      option->needs(needs);
  };
  need(command->add_flag(
      "--sync", flags->sync,
      "The trace was recorded with RBLN_RUNTIME_FORCE_SYNC=1: device work must also end "
      "inside the launching op"));
  need(command
           ->add_option("--contract", flags->contract,
                        "Apply this version of the contract instead of the one the trace's "
                        "dialect shows: current (NPU rows, rbln launch) or c-abi (rbln_run)")
           ->check(CLI::IsMember({"current", "c-abi"})));
  need(command
           ->add_option("--min-launches", flags->min_launches,
                        "current: launches (and launches running a kernel) the trace must hold "
                        "(default 1)")
           ->check(CLI::NonNegativeNumber));
  need(command->add_option(
      "--launcher-contains", flags->launcher_contains,
      "current: a marker must lie inside a host slice whose name contains this, e.g. "
      "\"Torch-Compiled Region\" for graph mode (default: any host slice)"));
}

void AddCheckCommand(CLI::App* app, CheckCommandOptions* options) {
  CLI::App* check = app->add_subcommand(
      "check", "Verify the PrivateUse1 trace contract (markers, launch ids, flows, device rows)");
  check->add_option("trace", options->trace_path, "Chrome trace (.json or .json.gz)")->required();
  check->add_option("--json", options->json_path, "Also write the report as JSON")
      ->check(NonEmptyPath());
  AddContractFlags(check, &options->contract);
}

void AddAnalyzeCommand(CLI::App* app, AnalyzeOptions* options) {
  CLI::App* analyze = app->add_subcommand(
      "analyze",
      "Trace-only analyses: CPU fallbacks, recompiles, host round trips, the NaN/Inf scan, and "
      "submission latency per launch");
  analyze->add_option("trace", options->trace_path, "Chrome trace (.json or .json.gz)")->required();
  analyze->add_option("--json", options->json_path, "Also write both reports as JSON")
      ->check(NonEmptyPath());
  analyze
      ->add_option("--plots", options->plots_dir,
                   "Write latency_histogram.svg, queue_length.svg and device_busy.svg here")
      ->check(NonEmptyPath());
  analyze
      ->add_option("--truth", options->truth_path,
                   "Score the results against a ground-truth file from `rblnsim run "
                   "--truth`; exit 1 on any mismatch")
      ->check(NonEmptyPath());
  analyze
      ->add_option("--outlier-ns", options->outlier_ns,
                   "Slow-launch threshold in ns (default: the p99 submission latency)")
      ->check(ExactInteger(IntegerRange::kNonNegativeInt64));
  analyze
      ->add_option("--back-to-back-ns", options->back_to_back_ns,
                   "Device gaps shorter than this are back-to-back overhead (default 1000)")
      ->check(ExactInteger(IntegerRange::kNonNegativeInt64));
  CLI::Option* check =
      analyze->add_flag("--check", options->check,
                        "Also check the PrivateUse1 contract, as `rblnsim check` does, on the same "
                        "import (one pass over the file); exit 1 on a violation");
  AddContractFlags(analyze, &options->contract, check);
}

void AddDiffCommand(CLI::App* app, DiffOptions* options) {
  CLI::App* diff = app->add_subcommand(
      "diff",
      "What changed between two traces (simulated or from a card, either dialect): operators, "
      "launches, hidden host work and device time, aligned by op sequence; --fail-on gates CI");
  diff->add_option("base", options->base_path, "The base trace (.json or .json.gz)")->required();
  diff->add_option("new", options->new_path, "The trace to hold against it")->required();
  diff->add_option("--json", options->json_path, "Also write the whole diff as JSON")
      ->check(NonEmptyPath());
  diff->add_option("--markdown", options->markdown_path,
                   "Also write a markdown summary (for a CI system to post on a change)")
      ->check(NonEmptyPath());
  diff->add_option("--plots", options->plots_dir,
                   "Write op_delta.svg, latency_cdf.svg and device_classes.svg here")
      ->check(NonEmptyPath());
  diff->add_option("--fail-on", options->fail_on,
                   "Exit 1 when a rule is violated: METRIC:+LIMIT or METRIC:-LIMIT, LIMIT a "
                   "number with %, ns, us, ms or s, e.g. latency.p99:+10%, fallbacks:+0, "
                   "op[aten::mm].self_cpu:+20% (repeat the flag or separate rules with commas)")
      ->delimiter(',');
  diff->add_option("--rows", options->rows, "Rows per table in the report (default 20)")
      ->check(ExactInteger(IntegerRange::kNonNegativeInt64));
}

void AddSweepCommand(CLI::App* app, SweepOptions* options) {
  CLI::App* sweep = app->add_subcommand(
      "sweep", "Run the points of a scenario's sweep: block, one process per point");
  sweep->add_option("scenario", options->scenario_path, "Scenario YAML file with a sweep: block")
      ->required();
  sweep->add_option("--out", options->out_dir, "Output directory (points/, logs/, sweep.json)")
      ->required();
  sweep->add_option("--jobs,-j", options->jobs, "Points run at once (default: available CPUs)")
      ->check(CLI::Range(1, 4096));
  sweep->add_option("--shard-index", options->shard_index,
                    "This shard (default: SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX)");
  sweep->add_option("--shard-count", options->shard_count,
                    "Number of shards (default: SLURM_ARRAY_TASK_COUNT, RBLNSIM_SHARD_COUNT)");
  sweep->add_flag("--skip-existing", options->skip_existing,
                  "Skip points that already have a successful result file (resume)");
  sweep->add_flag("--traces", options->traces,
                  "Keep each point's Chrome trace as DIR/traces/point-KEY.trace.json");
  sweep->add_option("--set", options->sets, "Override a scenario key in every point: path=value");
  sweep->add_option("--overlay", options->overlays, "Layer a YAML overlay over the scenario");
  sweep
      ->add_option("--seed", options->seed,
                   "Replace the scenario's seed (the base of each point's)")
      ->check(ExactInteger(IntegerRange::kUint64));
}

void AddMergeCommand(CLI::App* app, MergeOptions* options) {
  CLI::App* merge = app->add_subcommand(
      "merge", "Merge sweep point files into results.csv, results.jsonl and SVG plots");
  merge
      ->add_option("dirs", options->dirs,
                   "Sweep output directories; results go to the first (more: shards copied from "
                   "other machines)")
      ->required();
  merge->add_flag("--no-plots", options->no_plots, "Skip the SVG plots");
}

void AddDescribeCommand(CLI::App* app, DescribeOptions* options) {
  CLI::App* describe = app->add_subcommand(
      "describe",
      "Print the resolved scenario (canonical YAML, or JSON for tools/capture/capture.py)");
  describe->add_option("scenario", options->scenario_path,
                       "Scenario YAML file (not with --parameters)");
  describe->add_option("--set", options->sets, "Override a scenario key: path=value (repeatable)");
  describe->add_option("--overlay", options->overlays,
                       "Layer a YAML overlay over the scenario (repeatable)");
  describe->add_flag(
      "--json", options->json,
      "JSON: every parameter, tensors, graphs, warm-up and profiled steps, env, seed, hash, "
      "host costs");
  describe->add_flag("--parameters", options->parameters,
                     "Print the scenario keys (path, type, default, range, meaning) instead of a "
                     "scenario: Markdown tables as in scenarios/README.md, or JSON with --json");
}

void AddCompareCommand(CLI::App* app, CompareOptions* options) {
  CLI::App* compare = app->add_subcommand(
      "compare",
      "Simulate a scenario and line it up with a trace captured on an RBLN-CR card, launch by "
      "launch: device time per op and command class, submission latency, counts, fallbacks");
  compare->add_option("scenario", options->scenario_path, "Scenario YAML file")->required();
  compare
      ->add_option("trace", options->trace_path,
                   "Captured Chrome trace (.json or .json.gz; metadata.json beside it is read)")
      ->required();
  compare->add_option("--json", options->json_path, "Also write the comparison as JSON")
      ->check(NonEmptyPath());
  compare
      ->add_option("--plots", options->plots_dir,
                   "Write SVG plots here: device time per op and per launch, latency CDFs")
      ->check(NonEmptyPath());
  compare->add_option("--set", options->sets, "Override a scenario key: path=value (repeatable)");
  compare->add_option(
      "--overlay", options->overlays,
      "Layer a YAML overlay over the scenario, e.g. calibrate's output (repeatable)");
  compare
      ->add_option(
          "--tolerance", options->tolerance_pct,
          "Relative difference (%) above which a time is listed as a difference (default 2)")
      ->check(FiniteNonNegative());
  compare->add_flag("--force", options->force,
                    "Compare even a trace whose launches do not look like a run of the scenario");
}

void AddCalibrateCommand(CLI::App* app, CalibrateOptions* options) {
  CLI::App* calibrate = app->add_subcommand(
      "calibrate",
      "Fit host costs, submission-path latencies and engine efficiencies to a trace captured on an "
      "RBLN-CR card; write them as an overlay for run --overlay");
  calibrate
      ->add_option("scenario", options->scenario_path, "Scenario YAML file (what the capture ran)")
      ->required();
  calibrate
      ->add_option("trace", options->trace_path,
                   "Captured Chrome trace (metadata.json beside it is read)")
      ->required();
  calibrate->add_option("--out", options->out_path, "Overlay YAML to write")
      ->required()
      ->check(NonEmptyPath());
  calibrate->add_option("--set", options->sets,
                        "Override a scenario key: path=value (repeatable; pinned)");
  calibrate->add_option("--overlay", options->overlays,
                        "Layer a YAML overlay under the fit (repeatable)");
  calibrate
      ->add_option("--refinements", options->refinements,
                   "Simulated refinement rounds after the closed-form estimate (default 1)")
      ->check(CLI::Range(0, 5));
  calibrate->add_option("--work-dir", options->work_dir,
                        "Keep the candidates' overlays, traces and logs here (default: a temporary "
                        "directory, removed)");
  calibrate->add_flag("--force", options->force,
                      "Fit even to a trace whose launches do not look like a run of the scenario");
}

void AddCommands(CLI::App* app, CommandLine* options) {
  app->require_subcommand(1);
  app->set_version_flag("--version", "rblnsim 0.1.0");
  AddRunCommand(app, &options->run);
  AddCheckCommand(app, &options->check);
  AddAnalyzeCommand(app, &options->analyze);
  AddDiffCommand(app, &options->diff);
  AddSweepCommand(app, &options->sweep);
  AddMergeCommand(app, &options->merge);
  AddDescribeCommand(app, &options->describe);
  AddCompareCommand(app, &options->compare);
  AddCalibrateCommand(app, &options->calibrate);
}

}  // namespace rblnsim::cli
