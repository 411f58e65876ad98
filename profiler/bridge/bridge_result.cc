#include "profiler/bridge/bridge_result.h"

#include <iterator>

#include "profiler/trace/json_writer.h"

namespace rblnsim::bridge {

namespace {

trace::RawJson ObjectOf(const std::vector<std::pair<std::string, uint64_t>>& fields) {
  trace::StringSink sink;
  trace::JsonWriter json(&sink);
  json.BeginObject();
  for (const auto& [name, value] : fields)
    json.Key(name).Uint(value);
  json.EndObject();
  json.sink();  // hands the buffered text over
  return trace::RawJson{sink.text()};
}

}  // namespace

std::vector<std::pair<std::string, uint64_t>> BridgeStats::Counters() const {
  return {
#define RBLNSIM_BRIDGE_LIST_COUNTER(field, description) {#field, field},
      RBLNSIM_BRIDGE_COUNTERS(RBLNSIM_BRIDGE_LIST_COUNTER)
#undef RBLNSIM_BRIDGE_LIST_COUNTER
  };
}

void BridgeResult::AppendRows(trace::Trace* trace) const {
  for (const trace::ProcessRow& row : processes) {
    if (trace->FindProcess(row.pid) == nullptr)
      trace->processes.push_back(row);
  }
  for (const trace::ThreadRow& row : threads) {
    if (trace->FindThread(row.pid, row.tid) == nullptr)
      trace->threads.push_back(row);
  }
}

void BridgeResult::AppendTo(trace::Trace* trace) const& {
  AppendRows(trace);
  trace->events.insert(trace->events.end(), events.begin(), events.end());
}

void BridgeResult::AppendTo(trace::Trace* trace) && {
  AppendRows(trace);
  trace->events.insert(trace->events.end(), std::make_move_iterator(events.begin()),
                       std::make_move_iterator(events.end()));
  events.clear();
  events.shrink_to_fit();
  if (arg_pool != nullptr)
    trace->arg_pools.push_back(std::move(arg_pool));
}

std::vector<std::pair<std::string, trace::RawJson>> BridgeResult::StatsAsMetadata() const {
  std::vector<std::pair<std::string, trace::RawJson>> metadata;
  metadata.emplace_back("rbln_bridge", ObjectOf(stats.Counters()));
  if (stats.has_producer_stats) {
    metadata.emplace_back("rbln_producer",
                          ObjectOf({
                              {"records_captured", stats.producer.records_captured},
                              {"records_dropped", stats.producer.records_dropped},
                              {"launches", stats.producer.launches},
                              {"commands_timed_out", stats.producer.commands_timed_out},
                          }));
  }
  return metadata;
}

}  // namespace rblnsim::bridge
