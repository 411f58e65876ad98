// torch.profiler's prof.key_averages() and .table() (torch/autograd/profiler_util.py), computed
// from a Trace: the CPU parent/child tree per thread, _remove_dup_nodes, self = total - children,
// PrivateUse1 device rows, grouping by name, and the exact table text (reference §3).
// Both trace dialects give the same table: a launch marker ("rbln_run" with the submit call's
// duration, or the zero-length "rbln launch") is a runtime event, never a row, a CPU op's child
// or a device event; it only links device work to its op for Attribution::kAttributed.
#ifndef RBLNSIM_PROFILER_REPORT_KEY_AVERAGES_H_
#define RBLNSIM_PROFILER_REPORT_KEY_AVERAGES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "profiler/index/trace_index.h"
#include "profiler/trace/trace.h"

namespace rblnsim::report {

// Whether device time shows on the CPU op that launched it.
enum class Attribution : uint8_t {
  // What the shipped bridge does: device events stay their own rows, CPU rows show 0 device time.
  kReleased = 0,
  // Each device event is attached as a kernel of the op that launched it: through its
  // "launch_id" arg and the launch marker with the same launch_id ("rbln_run" or "rbln launch",
  // trace/dialect.h; the innermost cpu_op/user_annotation enclosing the marker), or, without a
  // launch_id, through torch's own link: the cpu_op/user_annotation whose "External id" equals
  // the device event's.
  kAttributed = 1,
};

struct TableOptions {
  // A FunctionEventAvg attribute, sorted descending; "cuda"/"xpu"/"privateuse1" are rewritten to
  // "device" as torch does. Empty keeps first-appearance order (torch's sort_by=None).
  std::string sort_by;
  // Printing stops once this many rows were printed; negative prints all (torch semantics).
  int row_limit = 100;
  // use_device; printed upper-cased ("Self RBLN").
  std::string device_name = "RBLN";
  Attribution attribution = Attribution::kReleased;
};

// One key_averages() row.
struct KeyAverage {
  // The trace's own text (through its index): valid while that trace is. A row per distinct
  // name can mean a row per device slice, so the rows copy no names.
  std::string_view name;
  bool is_device = false;           // a PrivateUse1 row (kernel, memcpy, memset, gpu annotation)
  bool is_user_annotation = false;  // user_annotation / gpu_user_annotation: separate rows
  int64_t count = 0;
  int64_t self_cpu_ns = 0;
  int64_t cpu_total_ns = 0;
  int64_t self_device_ns = 0;
  int64_t device_total_ns = 0;
};

// How device events were attached in Attribution::kAttributed (all but device_events stay 0 in
// kReleased).
struct AttributionStats {
  int64_t device_events = 0;
  int64_t attributed = 0;
  int64_t missing_marker = 0;   // has a launch_id, but no launch marker carries it
  int64_t no_enclosing_op = 0;  // the marker lies inside no cpu_op/user_annotation
  int64_t unlinked = 0;         // neither a launch_id nor a matching "External id"
  int64_t unattributed() const { return missing_marker + no_enclosing_op + unlinked; }
};

struct KeyAverages {
  std::vector<KeyAverage> rows;  // first-appearance order (events sorted by start, -end)
  AttributionStats stats;
};

// Which rows ComputeKeyAverages materializes. Device commands are often one distinct name each
// (hundreds of thousands of rows); a reader of the host ops alone need not build them. Host rows'
// device times are the same either way.
enum class KeyAverageRows { kAll, kHostOnly };

// Launch ids, external ids and each marker's launching op come from |index|.
KeyAverages ComputeKeyAverages(const index::TraceIndex& index,
                               Attribution attribution,
                               KeyAverageRows which = KeyAverageRows::kAll);

// The same rows, in first-appearance order, as the table reads them. A trace whose device
// commands are named once each (the c-abi's "i<launch>_..." slices) has a row per device slice:
// as KeyAverage rows those were 64 bytes each, the largest block of a traced run's peak. A
// device row that is no GPU annotation has no CPU times and equal self and total device time,
// so it is kept packed in 16 bytes, and only the rows the table prints are ever unpacked.
struct KeyAverageRowSet {
  struct DeviceRow {
    int64_t device_ns = 0;
    uint32_t name = 0;   // row-name id (a name id of |names|)
    uint32_t count = 0;  // at most one per event, and an index holds fewer than 2^32 events
  };

  const index::NameTable* names = nullptr;  // of the index the rows were computed from
  uint32_t profiler_step = index::kNone;    // the name id that stands for every ProfilerStep#N
  std::vector<KeyAverage> full;             // host rows and GPU annotations
  std::vector<DeviceRow> device;            // the other device rows
  std::vector<bool> packed;                 // per row in order: whether it is |device|'s next
  AttributionStats stats;
  // With a limit on the packed rows (ComputeKeyAverageRows' |packed_limit|): what the packed
  // rows past it would add to the table's footer and name column. All zero without one.
  struct Beyond {
    int64_t self_device_ns = 0;
    bool any_self_device = false;
    size_t longest_name = 0;  // in code points
  };
  Beyond beyond;

  size_t size() const { return packed.size(); }
  KeyAverage Unpack(const DeviceRow& row) const;
  // Calls |fn|(const KeyAverage&) for every row in order; a packed row is unpacked for the call.
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    size_t next_full = 0;
    size_t next_device = 0;
    for (const bool is_packed : packed) {
      if (is_packed)
        fn(Unpack(device[next_device++]));
      else
        fn(full[next_full++]);
    }
  }
};

// |packed_limit|: make only the first that many packed device rows, and sum the others in
// KeyAverageRowSet::beyond (for a table that orders them all alike, see FormatKeyAveragesTable).
KeyAverageRowSet ComputeKeyAverageRows(const index::TraceIndex& index,
                                       Attribution attribution,
                                       KeyAverageRows which = KeyAverageRows::kAll,
                                       size_t packed_limit = SIZE_MAX);

// Stable descending sort, so ties keep first-appearance order. Unknown keys are an error.
Status SortKeyAverages(std::string_view sort_by, std::vector<KeyAverage>* rows);

// The table text for |rows| in the given order; "" when there are no rows.
std::string RenderKeyAveragesTable(const std::vector<KeyAverage>& rows,
                                   const TableOptions& options);

// ComputeKeyAverages + SortKeyAverages + RenderKeyAveragesTable. |stats| may be null.
StatusOr<std::string> FormatKeyAveragesTable(const index::TraceIndex& index,
                                             const TableOptions& options,
                                             AttributionStats* stats = nullptr);
// The same for a trace not indexed yet.
StatusOr<std::string> FormatKeyAveragesTable(const trace::Trace& trace,
                                             const TableOptions& options,
                                             AttributionStats* stats = nullptr);

// torch's _format_time: "1.000s", "1.000ms", "999.999us".
std::string FormatTime(double us);
// torch's _format_time_share: "60.00%", or "NaN" when |total_us| is 0.
std::string FormatTimeShare(double us, double total_us);

}  // namespace rblnsim::report

#endif  // RBLNSIM_PROFILER_REPORT_KEY_AVERAGES_H_
