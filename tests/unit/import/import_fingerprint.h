// Everything an import produced, as text, for tests that compare two ways of importing the same
// input: the trace as the writer prints it, the import summary and the orphan flows, or the error.
#ifndef RBLNSIM_TESTS_UNIT_IMPORT_IMPORT_FINGERPRINT_H_
#define RBLNSIM_TESTS_UNIT_IMPORT_IMPORT_FINGERPRINT_H_

#include <gtest/gtest.h>

#include <string>

#include "profiler/trace/chrome_trace_writer.h"
#include "profiler/trace/import/chrome_trace_import.h"
#include "profiler/trace/json_writer.h"

namespace rblnsim::testing {

inline std::string ImportFingerprint(const StatusOr<trace::ImportResult>& r) {
  if (!r.ok())
    return "error: " + r.status().message();
  trace::StringSink sink;
  EXPECT_TRUE(trace::WriteChromeTrace(r->trace, sink).ok());
  std::string out = sink.text() + trace::FormatImportSummary(*r);
  for (const trace::OrphanFlow& o : r->orphan_flows)
    out += std::to_string(o.byte_offset) + " " + o.reason + "\n";
  return out;
}

}  // namespace rblnsim::testing

#endif  // RBLNSIM_TESTS_UNIT_IMPORT_IMPORT_FINGERPRINT_H_
