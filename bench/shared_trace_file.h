// The large trace the importer and analysis suites share: generated once per process with the
// project's own writer (synthetic_trace.h), removed when the process exits, so no benchmark run
// leaves hundreds of MB behind. Its size is RBLNSIM_BENCH_TRACE_MB (default 520, so the importer
// is measured on more than 500 MB); smoke runs set it small.
#ifndef RBLNSIM_BENCH_SHARED_TRACE_FILE_H_
#define RBLNSIM_BENCH_SHARED_TRACE_FILE_H_

#include <cstdint>
#include <string>

#include "profiler/trace/import/chrome_trace_import.h"

namespace rblnsim::bench {

struct SharedTraceFile {
  std::string path;  // empty if it could not be written
  uint64_t bytes = 0;
  int64_t launches = 0;
};

const SharedTraceFile& SharedTrace();

// The shared file imported once (for the suites that start from an imported trace). Aborts the
// process if the import fails: every figure after that would be meaningless.
const trace::ImportResult& SharedImport();

}  // namespace rblnsim::bench

#endif  // RBLNSIM_BENCH_SHARED_TRACE_FILE_H_
