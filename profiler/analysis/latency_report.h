// Text and JSON renderings of a LatencyReport (launch_latency.h).
#ifndef RBLNSIM_PROFILER_ANALYSIS_LATENCY_REPORT_H_
#define RBLNSIM_PROFILER_ANALYSIS_LATENCY_REPORT_H_

#include <string>

#include "profiler/analysis/launch_latency.h"
#include "profiler/trace/json_writer.h"

namespace rblnsim::analysis {

// The percentile table (overall and per launching op), slow launches, queue length and the
// device idle split. Times in µs with three decimals, i.e. exact ns; instants relative to the
// report's window start.
std::string FormatLatencyReportText(const LatencyReport& report);

// One JSON object (absolute ns): summary, per-op percentiles, outliers, queue, idle, and every
// launch. Written as the value at the writer's current position.
void WriteLatencyReportJson(const LatencyReport& report, trace::JsonWriter* json);

// "12.345us": ns as µs with three decimals.
std::string UsText(int64_t ns);

}  // namespace rblnsim::analysis

#endif  // RBLNSIM_PROFILER_ANALYSIS_LATENCY_REPORT_H_
