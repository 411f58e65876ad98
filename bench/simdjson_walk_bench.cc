// The importer's anchor: a bare simdjson On-Demand walk over the same file the importer suite
// reads (shared_trace_file.h), touching every field of every event and every value inside them
// (strings unescaped, numbers parsed), building nothing. What the importer does beyond this walk
// (errors with byte offsets, duplicate keys, rows, flows, the model) is its own cost; the ratio
// of the two MB/s figures is what bench/RESULTS.md judges.
#include <benchmark/benchmark.h>
#include <simdjson.h>

#include <cstdint>
#include <string_view>

#include "bench/shared_trace_file.h"

namespace rblnsim::bench {
namespace {

namespace od = simdjson::ondemand;

// Walks |value| and everything inside it; returns a checksum so nothing is optimised away.
uint64_t WalkValue(od::value value) {
  od::json_type type;
  if (value.type().get(type))
    return 0;
  switch (type) {
    case od::json_type::object: {
      uint64_t sum = 0;
      od::object object;
      if (value.get_object().get(object))
        return 0;
      for (auto field : object) {
        std::string_view key;
        if (field.unescaped_key().get(key))
          return sum;
        sum += key.size() + WalkValue(field.value());
      }
      return sum;
    }
    case od::json_type::array: {
      uint64_t sum = 0;
      od::array array;
      if (value.get_array().get(array))
        return 0;
      for (auto element : array) {
        od::value inner;
        if (element.get(inner))
          return sum;
        sum += WalkValue(inner);
      }
      return sum;
    }
    case od::json_type::string: {
      std::string_view s;
      return value.get_string().get(s) ? 0 : s.size();
    }
    case od::json_type::number: {
      double d = 0;
      return value.get_double().get(d) ? 0 : static_cast<uint64_t>(d);
    }
    case od::json_type::boolean: {
      bool b = false;
      return value.get_bool().get(b) ? 0 : static_cast<uint64_t>(b);
    }
    default:
      return value.is_null() ? 1 : 0;
  }
}

void BM_SimdjsonWalk(benchmark::State& state) {
  const SharedTraceFile& file = SharedTrace();
  if (file.path.empty()) {
    state.SkipWithError("cannot write the benchmark trace");
    return;
  }
  od::parser parser;
  int64_t events = 0;
  for (auto _ : state) {
    // Loading is part of the walk, as reading the file is part of the import.
    simdjson::padded_string text;
    if (simdjson::padded_string::load(file.path).get(text)) {
      state.SkipWithError("cannot load the benchmark trace");
      return;
    }
    od::document doc;
    od::array array;
    if (parser.iterate(text).get(doc) || doc["traceEvents"].get_array().get(array)) {
      state.SkipWithError("the benchmark trace is not a trace");
      return;
    }
    uint64_t sum = 0;
    events = 0;
    for (auto element : array) {
      od::value event;
      if (element.get(event)) {
        state.SkipWithError("invalid event");
        return;
      }
      sum += WalkValue(event);
      ++events;
    }
    benchmark::DoNotOptimize(sum);
  }
  SetReadCounters(state, file.bytes, events);
}
BENCHMARK(BM_SimdjsonWalk)->Iterations(3)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace rblnsim::bench
