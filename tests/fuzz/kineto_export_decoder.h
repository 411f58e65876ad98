// Decodes a fuzzer input into one producer session: the consumer's clocks and capture window, how
// the producer behaves towards the sink, its stats extension, and an RblnKinetoExport that owns
// all its memory. Every pointer in the export is valid (or null where the ABI allows a null
// array); everything else is whatever the bytes say: empty arrays, rows and slices referring to
// ids that do not exist, end < start, null names, categories and annotation strings, raw
// annotation values that are not JSON, out-of-range kinds, and counts up to a cap for which the
// elements really are allocated (a count is never larger than its array).
//
// Byte layout (little-endian; the input reads as zeros once it runs out):
//   u8 flags      bits 0-2 SinkMode, bit 3 is_active answers 2 (not 1: no session),
//                 bit 4 stats extension present, bit 5 stats call fails, bit 6 custom clocks
//   [bit 6]       u64 steady, u64 system (each mod 2^62), i32 window start - system (µs),
//                 i32 window length (µs, negative = an invalid window)
//   [bit 4]       u64 records_captured, records_dropped, launches, commands_timed_out
//   array devices { i32 pid, str name }
//   array lanes   { i32 device_pid, i32 resource_tid, str name }
//   array slices  { i32 device_pid, i32 resource_tid, str name, array categories { str },
//                   time, array annotations { str name, str value, quoted }, i64 corr_id,
//                   i32 kind }
// array:  u8 h; bit 6 = null pointer; bit 7 = count is a following u32, else count = h & 63.
// str:    u8 s; 0 = null, 1..kDictionarySize = a dictionary entry, else (s - kDictionarySize - 1)
//         raw bytes (a NUL inside ends the C string early).
// time:   u8 t; even = i32 start offset and i32 duration (ns, from the steady anchor), odd = i64
//         start and i64 end as they are.
// quoted: u8 q; 0 and 1 as they are, anything else a raw i32.
#ifndef RBLNSIM_TESTS_FUZZ_KINETO_EXPORT_DECODER_H_
#define RBLNSIM_TESTS_FUZZ_KINETO_EXPORT_DECODER_H_

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "profiler/abi/rbln_kineto_api.h"
#include "tests/fuzz/fuzz_bytes.h"

namespace rblnsim::fuzz {

// How the fake producer's end_session treats the sink and exported_out.
enum class SinkMode : uint8_t {
  kNormal = 0,              // one call, exported_out 1
  kCallTwice = 1,           // two calls, exported_out 1
  kNoCallButExported = 2,   // no call, exported_out 1
  kCallButNotExported = 3,  // one call, exported_out 0
  kNullExport = 4,          // sink(nullptr), exported_out 1
  kExportedUnset = 5,       // one call, exported_out never written
  kExportedGarbage = 6,     // one call, exported_out 7
  kNothingCaptured = 7,     // no call, exported_out 0 (the ABI's empty session)
};

// Entries of the string dictionary (kineto_export_decoder.cc); make_consumer_seeds.py mirrors it.
inline constexpr uint8_t kDictionarySize = 32;

// Elements actually allocated per array, whatever count the input claims.
inline constexpr uint32_t kMaxRows = 512;
inline constexpr uint32_t kMaxSlices = 4096;
inline constexpr uint32_t kMaxSliceItems = 64;  // categories or annotations of one slice

// The standard anchors (flags bit 6 clear): the values tests/unit/bridge's fakes use.
inline constexpr int64_t kFuzzSteadyAnchorNs = 1'000'000;
inline constexpr int64_t kFuzzSystemAnchorNs = 1'700'000'000'000'000'000;
inline constexpr int64_t kFuzzWindowNs = 1'000'000'000;

struct DecodedSession {
  SinkMode sink_mode = SinkMode::kNormal;
  int32_t active_value = 1;
  bool has_stats = false;
  bool stats_fail = false;
  RblnsimKinetoStats stats = {};
  int64_t steady_anchor_ns = kFuzzSteadyAnchorNs;
  int64_t system_anchor_ns = kFuzzSystemAnchorNs;
  int64_t capture_start_ns = kFuzzSystemAnchorNs;
  int64_t capture_end_ns = kFuzzSystemAnchorNs + kFuzzWindowNs;

  RblnKinetoExport view = {};  // points into the storage below

  // Owned storage. A deque keeps every string's c_str() stable while more are added.
  std::deque<std::string> strings;
  std::vector<RblnKinetoDevice> devices;
  std::vector<RblnKinetoLane> lanes;
  std::vector<RblnKinetoSlice> slices;
  std::deque<std::vector<const char*>> categories;
  std::deque<std::vector<RblnKinetoAnnotation>> annotations;

  DecodedSession() = default;
  DecodedSession(const DecodedSession&) = delete;
  DecodedSession& operator=(const DecodedSession&) = delete;
};

// Fills |session| from |in|. |session| must be freshly constructed.
void DecodeSession(FuzzBytes* in, DecodedSession* session);

}  // namespace rblnsim::fuzz

#endif  // RBLNSIM_TESTS_FUZZ_KINETO_EXPORT_DECODER_H_
