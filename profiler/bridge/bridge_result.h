// What one bridge session produces: the device/lane rows, the converted events and every counter
// of what was dropped, repaired or found inconsistent. Nothing is dropped silently: Kineto never
// reads a plugin's errors(), so these counters go into the trace's top-level metadata instead.
#ifndef RBLNSIM_PROFILER_BRIDGE_BRIDGE_RESULT_H_
#define RBLNSIM_PROFILER_BRIDGE_BRIDGE_RESULT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "profiler/abi/rbln_kineto_api.h"
#include "profiler/trace/trace.h"

namespace rblnsim::bridge {

// X(field, description). One table, so the struct, the metadata writer and the docs never drift.
#define RBLNSIM_BRIDGE_COUNTERS(X)                                                               \
  X(slices_received, "slices (c-abi) or activities (current) in the export")                     \
  X(slices_kept, "slices or activities converted into events (markers not included)")            \
  X(dropped_out_of_window, "slices entirely outside the capture window, after the clock offset") \
  X(dropped_unknown_row, "slices whose device or (device, lane) is not in the export")           \
  X(null_names, "slices with a null name, kept as \"(null)\"")                                   \
  X(null_strings, "other null strings (device/lane/annotation names and values), replaced")      \
  X(null_arrays, "null arrays with a non-zero count, read as empty")                             \
  X(negative_duration, "slices with end < start, kept with duration 0")                          \
  X(invalid_raw_annotations, "raw (unquoted) annotation values that are not JSON, kept quoted")  \
  X(duplicate_arg_keys, "annotations dropped because their key was already used on the slice")   \
  X(unsorted_devices, "devices whose pid is below the previous device's pid")                    \
  X(duplicate_rows, "devices or lanes repeated in the export, first one kept")                   \
  X(lanes_unknown_device, "lanes whose device is not in the export, not added")                  \
  X(launches, "distinct launches with a launch marker (rbln_run / rbln launch) in the window")   \
  X(flows_started, "ac2g flow starts (one per launch that has device slices)")                   \
  X(flows_finished, "ac2g flow finishes (one per device slice of a marked launch)")              \
  X(duplicate_markers, "rbln_run markers repeating an earlier marker's launch id, no flow")      \
  X(markers_without_device_work, "markers whose launch has no device slice, no flow")            \
  X(orphan_device_slices, "device slices whose launch has no marker (or no launch id), no flow") \
  X(sink_calls, "times the producer called the sink")                                            \
  X(protocol_sink_repeated, "sink calls after the first (ignored)")                              \
  X(protocol_sink_missing, "exported_out was 1 but the sink was never called")                   \
  X(protocol_sink_unreported, "the sink was called but exported_out was 0")                      \
  X(protocol_exported_out_invalid, "exported_out was neither 0 nor 1")                           \
  X(protocol_null_export, "the sink was called with a null export")                              \
  /* The runtime-activities seam (current dialect) only. */                                      \
  X(dropped_unknown_kind, "activities whose kind is none of the four lanes, dropped")            \
  X(launches_received, "launch records in the export")                                           \
  X(launch_zero_id, "launch records with id 0, which no activity can name, ignored")             \
  X(duplicate_launch_ids, "launch records repeating an earlier launch's id, ignored")            \
  X(launches_past_flow_block, "launches beyond the flow-id block: no marker, no arrow")          \
  X(launches_without_activities, "launches that ran no activity in the window: no marker")       \
  X(markers_out_of_window, "launch markers outside the capture window: dropped with their flow") \
  X(activities_without_launch, "activities with launch 0 (not part of a launch): no launch_id")  \
  X(activities_unknown_launch, "activities naming a launch id missing from the launch list")     \
  X(activities_past_flow_block, "activities of launches beyond the flow-id block: no arrow")

struct BridgeStats {
#define RBLNSIM_BRIDGE_DECLARE_COUNTER(field, description) uint64_t field = 0;
  RBLNSIM_BRIDGE_COUNTERS(RBLNSIM_BRIDGE_DECLARE_COUNTER)
#undef RBLNSIM_BRIDGE_DECLARE_COUNTER

  // From rblnsim_kineto_last_session_stats, when the producer has that extension and it succeeded.
  bool has_producer_stats = false;
  RblnsimKinetoStats producer = {};

  uint64_t ProtocolErrors() const {
    return protocol_sink_repeated + protocol_sink_missing + protocol_sink_unreported +
           protocol_exported_out_invalid + protocol_null_export;
  }
  // (name, value) of every counter above, in table order.
  std::vector<std::pair<std::string, uint64_t>> Counters() const;
};

struct BridgeResult {
  std::vector<trace::ProcessRow> processes;
  std::vector<trace::ThreadRow> threads;
  std::vector<trace::Event> events;  // export order, flows attached to their anchor slices
  // Where the events' args live (null when none are pooled): kept with the events, and moved
  // into the trace by AppendTo() &&.
  std::shared_ptr<trace::ArgPool> arg_pool;
  BridgeStats stats;

  // Adds the rows whose pid (process) or (pid, tid) (thread) the trace does not have yet, so a
  // device pid that is also the host process keeps the host side's row, then appends the events.
  // Does not touch the trace's metadata: see StatsAsMetadata().
  void AppendTo(trace::Trace* trace) const&;
  // The same, moving the events instead of copying them (a long capture holds millions).
  void AppendTo(trace::Trace* trace) &&;

  // Top-level metadata entries: "rbln_bridge" with every counter, and "rbln_producer" with the
  // producer's own counters when the stats extension answered.
  std::vector<std::pair<std::string, trace::RawJson>> StatsAsMetadata() const;

 private:
  void AppendRows(trace::Trace* trace) const;
};

}  // namespace rblnsim::bridge

#endif  // RBLNSIM_PROFILER_BRIDGE_BRIDGE_RESULT_H_
