/*
 * Compiled as C11: the ABI header must mean the same layout to a C producer as to the C++ bridge.
 * The expected offsets are the x86-64 System V natural-alignment layout, worked out by hand from
 * rbln-kineto-abi.md (int32 4, int64/uint64/pointers 8, enum 4, padding up to each alignment),
 * so a reordered or retyped field fails the build here rather than corrupting data at run time.
 */
#include "tests/unit/bridge/abi_layout_check.h"

#include <stddef.h>
#include <stdint.h>

#include "profiler/abi/rbln_kineto_api.h"

#if defined(__x86_64__)

#define CHECK_AT(type, field, offset) \
  _Static_assert(offsetof(type, field) == (offset), #type "." #field " offset")
#define CHECK_SIZE(type, size) _Static_assert(sizeof(type) == (size), #type " size")

CHECK_SIZE(RBLNRetCode, 4);
CHECK_SIZE(RblnKinetoActivityKind, 4);
CHECK_SIZE(RblnKinetoExportSink, 8);

CHECK_AT(RblnKinetoDevice, pid, 0);
CHECK_AT(RblnKinetoDevice, name, 8);
CHECK_SIZE(RblnKinetoDevice, 16);

CHECK_AT(RblnKinetoLane, device_pid, 0);
CHECK_AT(RblnKinetoLane, resource_tid, 4);
CHECK_AT(RblnKinetoLane, name, 8);
CHECK_SIZE(RblnKinetoLane, 16);

CHECK_AT(RblnKinetoAnnotation, name, 0);
CHECK_AT(RblnKinetoAnnotation, value, 8);
CHECK_AT(RblnKinetoAnnotation, value_is_quoted, 16);
CHECK_SIZE(RblnKinetoAnnotation, 24);

CHECK_AT(RblnKinetoSlice, device_pid, 0);
CHECK_AT(RblnKinetoSlice, resource_tid, 4);
CHECK_AT(RblnKinetoSlice, name, 8);
CHECK_AT(RblnKinetoSlice, categories, 16);
CHECK_AT(RblnKinetoSlice, categories_count, 24);
CHECK_AT(RblnKinetoSlice, start_steady_ns, 32);
CHECK_AT(RblnKinetoSlice, end_steady_ns, 40);
CHECK_AT(RblnKinetoSlice, annotations, 48);
CHECK_AT(RblnKinetoSlice, annotations_count, 56);
CHECK_AT(RblnKinetoSlice, corr_id, 64);
CHECK_AT(RblnKinetoSlice, kind, 72);
CHECK_SIZE(RblnKinetoSlice, 80);

CHECK_AT(RblnKinetoExport, devices, 0);
CHECK_AT(RblnKinetoExport, devices_count, 8);
CHECK_AT(RblnKinetoExport, lanes, 16);
CHECK_AT(RblnKinetoExport, lanes_count, 24);
CHECK_AT(RblnKinetoExport, slices, 32);
CHECK_AT(RblnKinetoExport, slices_count, 40);
CHECK_SIZE(RblnKinetoExport, 48);

CHECK_AT(RblnsimKinetoStats, records_captured, 0);
CHECK_AT(RblnsimKinetoStats, records_dropped, 8);
CHECK_AT(RblnsimKinetoStats, launches, 16);
CHECK_AT(RblnsimKinetoStats, commands_timed_out, 24);
CHECK_AT(RblnsimKinetoStats, sync_wait_ns, 32);
CHECK_AT(RblnsimKinetoStats, records_after_wait, 40);
CHECK_SIZE(RblnsimKinetoStats, 48);

#endif /* __x86_64__ */

#define ENTRY(type, field) \
  { #type "." #field, offsetof(type, field), sizeof(((type*)0)->field) }
#define WHOLE(type) \
  { #type, 0, sizeof(type) }

static const RblnsimAbiLayoutEntry kEntries[] = {
    WHOLE(RblnKinetoDevice),
    ENTRY(RblnKinetoDevice, pid),
    ENTRY(RblnKinetoDevice, name),
    WHOLE(RblnKinetoLane),
    ENTRY(RblnKinetoLane, device_pid),
    ENTRY(RblnKinetoLane, resource_tid),
    ENTRY(RblnKinetoLane, name),
    WHOLE(RblnKinetoAnnotation),
    ENTRY(RblnKinetoAnnotation, name),
    ENTRY(RblnKinetoAnnotation, value),
    ENTRY(RblnKinetoAnnotation, value_is_quoted),
    WHOLE(RblnKinetoSlice),
    ENTRY(RblnKinetoSlice, device_pid),
    ENTRY(RblnKinetoSlice, resource_tid),
    ENTRY(RblnKinetoSlice, name),
    ENTRY(RblnKinetoSlice, categories),
    ENTRY(RblnKinetoSlice, categories_count),
    ENTRY(RblnKinetoSlice, start_steady_ns),
    ENTRY(RblnKinetoSlice, end_steady_ns),
    ENTRY(RblnKinetoSlice, annotations),
    ENTRY(RblnKinetoSlice, annotations_count),
    ENTRY(RblnKinetoSlice, corr_id),
    ENTRY(RblnKinetoSlice, kind),
    WHOLE(RblnKinetoExport),
    ENTRY(RblnKinetoExport, devices),
    ENTRY(RblnKinetoExport, devices_count),
    ENTRY(RblnKinetoExport, lanes),
    ENTRY(RblnKinetoExport, lanes_count),
    ENTRY(RblnKinetoExport, slices),
    ENTRY(RblnKinetoExport, slices_count),
    WHOLE(RblnsimKinetoStats),
    ENTRY(RblnsimKinetoStats, records_captured),
    ENTRY(RblnsimKinetoStats, records_dropped),
    ENTRY(RblnsimKinetoStats, launches),
    ENTRY(RblnsimKinetoStats, commands_timed_out),
    ENTRY(RblnsimKinetoStats, sync_wait_ns),
    ENTRY(RblnsimKinetoStats, records_after_wait),
};

const RblnsimAbiLayoutEntry* RblnsimAbiLayoutFromC(size_t* count) {
  *count = sizeof(kEntries) / sizeof(kEntries[0]);
  return kEntries;
}
