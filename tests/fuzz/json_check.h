// Strict JSON validation for the fuzzers' oracles: the trace writer promises valid JSON in valid
// UTF-8 whatever the model holds (json_writer.h), so every document it writes must parse.
#ifndef RBLNSIM_TESTS_FUZZ_JSON_CHECK_H_
#define RBLNSIM_TESTS_FUZZ_JSON_CHECK_H_

#include <simdjson.h>

#include <string>
#include <string_view>

namespace rblnsim::fuzz {

// "" when |text| is one valid JSON document (simdjson validates UTF-8 too), else why not.
inline std::string JsonProblem(std::string_view text) {
  // Deeper than the importer's own limit plus the trace's three enclosing levels, so a valid
  // document is never refused for its depth alone.
  constexpr size_t kMaxDepth = 4096;
  simdjson::dom::parser parser;
  if (parser.allocate(text.size() + 64, kMaxDepth) != simdjson::SUCCESS)
    return "could not allocate the JSON parser";
  const simdjson::padded_string padded(text);
  simdjson::dom::element root;
  const simdjson::error_code error = parser.parse(padded).get(root);
  if (error != simdjson::SUCCESS)
    return std::string("JSON that simdjson (the parser of rblnsim's importer) rejects: ") +
           simdjson::error_message(error);
  return "";
}

}  // namespace rblnsim::fuzz

#endif  // RBLNSIM_TESTS_FUZZ_JSON_CHECK_H_
