// What a simulation emits besides device records: the host's ATen call tree and runtime
// markers (as torch.profiler would record them) and the ground truth of what the host did, which
// the trace-only analyses are scored against. Times are sim ns (0 = the process start).
#ifndef RBLNSIM_MODELS_RECORDS_H_
#define RBLNSIM_MODELS_RECORDS_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/chunked_vector.h"
#include "base/rbln_vocabulary.h"
#include "scenario/scenario.h"

namespace rblnsim::sim {

enum class HostEventKind : uint8_t {
  kCpuOp = 0,           // an ATen op: cat cpu_op
  kUserAnnotation = 1,  // a region such as "Torch-Compiled Region"
  kRuntimeMarker = 2,   // rbln_run: emitted by the producer runtime, not by torch
};

struct HostEvent {
  uint32_t name_id = 0;  // into HostTimeline::names
  HostEventKind kind = HostEventKind::kCpuOp;
  // record_shapes=True args ("Input Dims", "Input type"): 1 + index into HostTimeline::shapes,
  // 0 when none were recorded. 16 bits fill the padding after |kind|: a run has few distinct
  // input signatures, and past 65535 of them shapes are simply not recorded.
  uint16_t shapes_id = 0;
  double start_ns = 0;
  double end_ns = 0;
  int64_t external_id = 0;       // torch's correlation id of the op
  int64_t sequence_number = -1;  // autograd sequence number, -1 when none
  int64_t launch_id = 0;         // runtime markers only
  // aten::_copy_from only: bytes that crossed PCIe (0: the host copy served the read); -1 none.
  int64_t bytes = -1;
};

// The tensor inputs of an op, typed: what record_shapes=True writes as "Input Dims" and "Input
// type" (sim/host_trace.cc writes the text). Scalar operands are not listed.
using InputSignature = std::vector<scenario::TensorType>;

struct HostTimeline {
  std::vector<std::string> names;
  // In start order; children after their parent. Chunked: a long session's spans are written
  // once, never copied by a doubling vector.
  ChunkedVector<HostEvent> events;
  std::vector<InputSignature> shapes;  // distinct input signatures, see HostEvent::shapes_id
};

// The runtime's fallback reasons (base/rbln_vocabulary.h); the host model never records kUnknown.
using platform::FallbackReason;
using platform::FallbackReasonName;

struct FallbackTruth {
  std::string op;  // aten name
  FallbackReason reason;
  platform::FallbackShape shape = platform::FallbackShape::kBoxed;
  int64_t external_id = 0;
  int64_t bytes_to_host = 0;
  int64_t bytes_to_device = 0;
};

struct RecompileTruth {
  std::string op;
  std::string program_key;
  int instance = 0;
  int64_t external_id = 0;
  bool eviction = false;  // this op and argument profile was compiled before and evicted (LRU)
  bool failed = false;    // the compile failed (compile: error) and the op ran on the CPU
};

struct LaunchTruth {
  int64_t launch_id = 0;
  std::string op;
  int64_t external_id = 0;  // the launching op
  int instance = 0;
  int64_t sequence = 0;
  // Decomposition of submit → first device start (sim ns).
  double marker_start_ns = 0;
  double host_overhead_ns = 0;  // runtime work before asking for a ring slot
  double ring_wait_ns = 0;      // blocked on a full ring
  double queue_wait_ns = 0;     // waiting behind earlier work on the device
  double transport_ns = 0;      // doorbell, descriptor fetch, decode, dispatch
  double first_device_start_ns = 0;
  double last_device_end_ns = 0;
  double completed_ns = 0;
  bool failed = false;
  // The roofline of the launch: its program's key and FLOPs, the bytes its commands booked on
  // HBM, and their engine time by what bounded each (indexed by platform::Bound). The key is the
  // program's own: the host's compile cache keeps every program it made for the life of the
  // process (the device records name their commands through them too), and a copy of the key
  // was an allocation per launch.
  std::string_view program;
  double flops = 0;
  int64_t hbm_bytes = 0;
  std::array<double, platform::kBoundCount> bound_ns{};
};

struct RoundTripTruth {
  std::string reason;  // "cpu()", "nan/inf scan", "fallback"
  bool to_host = true;
  int64_t bytes = 0;
  int64_t external_id = 0;
};

struct GroundTruth {
  ChunkedVector<LaunchTruth> launches;  // chunked as HostTimeline::events
  std::vector<FallbackTruth> fallbacks;
  std::vector<RecompileTruth> recompiles;
  std::vector<RoundTripTruth> round_trips;
  int64_t nan_inf_scans = 0;
  void Clear() { *this = GroundTruth(); }
};

}  // namespace rblnsim::sim

#endif  // RBLNSIM_MODELS_RECORDS_H_
