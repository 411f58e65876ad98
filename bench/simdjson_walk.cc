#include "bench/simdjson_walk.h"

#include <string_view>

namespace rblnsim::bench {
namespace {

namespace od = simdjson::ondemand;

// Walks |value| and everything inside it; returns a checksum of what it read.
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

}  // namespace

std::optional<WalkResult> WalkTraceFile(const std::string& path, od::parser* parser) {
  simdjson::padded_string text;
  if (simdjson::padded_string::load(path).get(text))
    return std::nullopt;
  od::document doc;
  od::array array;
  if (parser->iterate(text).get(doc) || doc["traceEvents"].get_array().get(array))
    return std::nullopt;
  WalkResult result;
  for (auto element : array) {
    od::value event;
    if (element.get(event))
      return std::nullopt;
    result.checksum += WalkValue(event);
    ++result.events;
  }
  return result;
}

}  // namespace rblnsim::bench
