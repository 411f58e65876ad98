// SVG plots of a merged sweep: <DIR>/plots/<metric>_vs_<param>.svg for every numeric metric
// against every swept parameter, one series per combination of the other parameters (a single
// series for a 1-D sweep). Parameters plot on a numeric axis when their values are numbers, all
// with the same unit suffix ("900ns") or square shapes ("[512, 512]" plots at 512); otherwise
// each distinct value gets a position, named in the axis label. Wide positive ranges use log axes.
#ifndef RBLNSIM_TOOLS_RBLNSIM_LIB_SWEEP_SWEEP_PLOTS_H_
#define RBLNSIM_TOOLS_RBLNSIM_LIB_SWEEP_SWEEP_PLOTS_H_

#include <string>

#include "base/status.h"
#include "tools/rblnsim/lib/sweep/sweep_table.h"

namespace rblnsim::cli {

// Writes the plots into |plots_dir| (which must exist) and returns how many.
StatusOr<size_t> WritePlots(const std::string& plots_dir, const ResultTable& table);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_LIB_SWEEP_SWEEP_PLOTS_H_
