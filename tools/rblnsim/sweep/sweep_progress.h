// Sweep progress on stderr: on a terminal one bar redrawn in place with \r; otherwise (a log
// file, a CI job, a Slurm output file) one plain "point k/n done" line per point, which stays
// readable when the output is not a terminal.
#ifndef RBLNSIM_TOOLS_RBLNSIM_SWEEP_SWEEP_PROGRESS_H_
#define RBLNSIM_TOOLS_RBLNSIM_SWEEP_SWEEP_PROGRESS_H_

#include <chrono>
#include <cstddef>
#include <string>

#include "tools/rblnsim/lib/sweep/sweep_plan.h"

namespace rblnsim::cli {

class Progress {
 public:
  Progress(size_t total, bool tty);
  void Done(const SweepPoint& point, bool ok, double wall_s);
  // A line of its own (a failure report), keeping the bar below it on a terminal.
  void Message(const std::string& line);
  // Ends the bar's line; a no-op without a terminal.
  void Finish();
  size_t done() const { return done_; }

 private:
  void Draw() const;

  size_t total_;
  bool tty_;
  size_t done_ = 0;
  size_t failed_ = 0;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_SWEEP_SWEEP_PROGRESS_H_
