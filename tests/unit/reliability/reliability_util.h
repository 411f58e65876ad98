// Helpers for the fault-injection and reliability tests: run the rblnsim CLI as a user would (with
// a wall-clock limit, so a hang fails the test instead of stalling ctest), read the counters the
// trace carries as top-level metadata, capture what the producer prints on stderr, and run one
// session through the rbln_kineto C functions copying what the sink hands over.
//
// Tests that simulate in-process rely on ctest running each TEST in its own process (SystemC
// elaborates once per process); a test needing a second simulation runs it with InChild().
#ifndef RBLNSIM_TESTS_UNIT_RELIABILITY_RELIABILITY_UTIL_H_
#define RBLNSIM_TESTS_UNIT_RELIABILITY_RELIABILITY_UTIL_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "profiler/abi/rbln_kineto_api.h"
#include "scenario/scenario.h"
#include "sim/session.h"

namespace rblnsim::testing {

// $RBLNSIM_SOURCE_DIR/<relative>, the checkout the test was built from.
std::string SourcePath(const std::string& relative);

// A fresh directory under $TMPDIR, removed with everything in it when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct ProcessResult {
  int exit_code = -1;      // -1 when killed by a signal (including the wall-clock limit)
  bool timed_out = false;  // the limit was reached and the process was killed
  double wall_seconds = 0;
  std::string out;
  std::string err;
};

// Runs the rblnsim CLI of this build tree ($RBLNSIM_BUILD_DIR/bin/rblnsim) with |args|. The
// environment is the test's minus every RBLN*/TORCH_RBLN* variable, plus |env| ("NAME=value").
ProcessResult RunRblnsim(const std::vector<std::string>& args,
                         const std::vector<std::string>& env = {},
                         double limit_seconds = 120);

// The integer members of the top-level metadata object |key| ("rbln_bridge", "rbln_producer") of
// the trace at |path|, read through the project's importer.
StatusOr<std::map<std::string, uint64_t>> TraceCounters(const std::string& path,
                                                        const std::string& key);

// Device slices (kernel, gpu_memcpy, privateuse1_driver) in the trace at |path|.
StatusOr<int64_t> CountDeviceSlices(const std::string& path);

// Runs |body| with fd 2 redirected to a file and returns what was written to it.
std::string CaptureStderr(const std::function<void()>& body);

// One slice as copied out of the sink.
struct ExportedSlice {
  std::string name;
  int32_t kind = 0;
  int64_t start_steady_ns = 0;
  int64_t end_steady_ns = 0;
  std::optional<int64_t> launch_id;
};

struct AbiSession {
  RBLNRetCode begin_code = -1;
  RBLNRetCode end_code = -1;
  int32_t exported = -1;
  int sink_calls = 0;
  std::vector<ExportedSlice> slices;  // export order
  RBLNRetCode stats_code = -1;
  RblnsimKinetoStats stats = {};
};

// begin_session, end_session_and_export and rblnsim_kineto_last_session_stats on the producer
// linked into this binary (librblnsim_kineto.so). The runtime must already be configured.
AbiSession RunAbiSession();

// One simulated session in this process through sim::SimulateSession, as `rblnsim run` takes it
// (the runtime activity seam). Aborts when the scenario cannot be simulated or its warm-up
// fails: the tests call it inside InChild(), which then reports no values.
sim::SimulatedSession SimulateInProcess(const scenario::Scenario& scenario);

// Device slices only (kind COMPUTE, DMA or SYNC), in export order.
std::vector<ExportedSlice> DeviceSlices(const std::vector<ExportedSlice>& slices);

}  // namespace rblnsim::testing

#endif  // RBLNSIM_TESTS_UNIT_RELIABILITY_RELIABILITY_UTIL_H_
