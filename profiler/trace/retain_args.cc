#include "profiler/trace/retain_args.h"

#include <memory>
#include <utility>
#include <vector>

namespace rblnsim::trace {

RetainedArgs RetainOnlyArgs(std::span<const std::string> keys, Trace* trace) {
  RetainedArgs counts;
  auto pool = std::make_shared<ArgPool>();
  // Looked up once: a key no list has interned is one no list holds as an id.
  std::vector<ArgKey> kept;
  for (const std::string& key : keys)
    kept.push_back(ArgKey::Existing(key));
  ArgListBuilder builder;
  for (Event& event : trace->events) {
    if (event.args.empty())
      continue;
    const size_t dropped = builder.AddKept(event.args, kept);
    counts.args_dropped += dropped;
    counts.events_changed += dropped > 0;
    // Even an event that keeps every arg is copied: its block may lie in a pool that goes.
    event.args = builder.Build(pool.get());
  }
  trace->arg_pools.clear();
  trace->arg_pools.push_back(std::move(pool));
  return counts;
}

}  // namespace rblnsim::trace
