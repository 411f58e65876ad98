// Synthetic inputs for the profiler benchmarks, shaped like what a simulated torch-rbln run
// produces so that the measured rates carry over to real traces:
//   - a trace::Trace with, per launch, an aten::mm cpu_op carrying Kineto's usual args, the
//     rbln_run marker inside it (launch_id, ac2g flow start) and a few device slices on named
//     device rows (launch_id, device/stream/correlation args, ac2g flow finish);
//   - an abi::ProducerCapture holding device records in cycles and host markers in steady ns,
//     the input of the producer export and the bridge.
// Every launch passes the contract checks, so check/analyze run their full paths.
#ifndef RBLNSIM_BENCH_SYNTHETIC_TRACE_H_
#define RBLNSIM_BENCH_SYNTHETIC_TRACE_H_

#include <cstdint>
#include <string>

#include "profiler/abi/producer_capture.h"
#include "profiler/trace/trace.h"

namespace rblnsim::bench {

// Device slices per launch in both generators (a DMA in, the compute, a DMA out).
inline constexpr int kSlicesPerLaunch = 3;

trace::Trace MakeSyntheticTrace(int64_t launches);

// Size in bytes of MakeSyntheticTrace(launches) written as Chrome trace JSON.
uint64_t ChromeTraceBytes(int64_t launches);

// The number of launches whose Chrome trace is at least |bytes| long (estimated from a small
// trace, plus a margin; the caller checks the real size).
int64_t LaunchesForBytes(uint64_t bytes);

// |slices| device records in launches of kSlicesPerLaunch, one marker per launch.
abi::ProducerCapture MakeSyntheticCapture(int64_t slices);

// Writes MakeSyntheticTrace(launches) to a fresh file under $TMPDIR (or /tmp) and returns its
// path; the trace is freed before returning, so only the file remains.
std::string WriteSyntheticTraceFile(int64_t launches);

// Reads |path| through once, so that it is in the page cache (a file written with O_DIRECT is
// not).
void ReadIntoPageCache(const std::string& path);

}  // namespace rblnsim::bench

#endif  // RBLNSIM_BENCH_SYNTHETIC_TRACE_H_
