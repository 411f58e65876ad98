// An owned deep copy of one RblnKinetoExport. Every pointer the producer hands to the sink dies
// when the sink returns, so the sink does nothing but this copy; all interpretation happens later
// on these plain values.
#ifndef RBLNSIM_PROFILER_BRIDGE_EXPORT_COPY_H_
#define RBLNSIM_PROFILER_BRIDGE_EXPORT_COPY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profiler/abi/rbln_kineto_api.h"

namespace rblnsim::bridge {

// A null C string stays distinguishable from "" so the converter can count it.
using CopiedString = std::optional<std::string>;

struct CopiedDevice {
  int32_t pid = 0;
  CopiedString name;
};

struct CopiedLane {
  int32_t device_pid = 0;
  int32_t resource_tid = 0;
  CopiedString name;
};

struct CopiedAnnotation {
  CopiedString name;
  CopiedString value;
  int32_t value_is_quoted = 1;
};

struct CopiedSlice {
  int32_t device_pid = 0;
  int32_t resource_tid = 0;
  CopiedString name;
  std::vector<std::string> categories;  // null entries already skipped, as the adapter does
  int64_t start_steady_ns = 0;
  int64_t end_steady_ns = 0;
  std::vector<CopiedAnnotation> annotations;
  int64_t corr_id = 0;
  // Kept as the raw integer: a producer may send a value outside RblnKinetoActivityKind, and
  // holding that in the enum type would be undefined behaviour in C++.
  int32_t kind = RBLN_KINETO_KIND_RUNTIME;
};

struct CopiedExport {
  std::vector<CopiedDevice> devices;
  std::vector<CopiedLane> lanes;
  std::vector<CopiedSlice> slices;
  uint64_t null_arrays = 0;  // arrays that were null with a non-zero count, read as empty
};

// Copies everything reachable from |exp|. Only the producer's documented pointers are followed;
// a null array with a non-zero count is treated as empty and counted rather than dereferenced.
CopiedExport CopyExport(const RblnKinetoExport& exp);

}  // namespace rblnsim::bridge

#endif  // RBLNSIM_PROFILER_BRIDGE_EXPORT_COPY_H_
