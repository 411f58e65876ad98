// The FunctionEvent half of key_averages(): which events become rows, the CPU tree, kernel
// attribution, dup-node folding and the per-name sums. The table text is in
// key_averages_table.cc.
#include "profiler/report/key_averages.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <utility>

#include "base/release_memory.h"
#include "base/sorted_runs.h"
#include "profiler/index/trace_index.h"
#include "profiler/trace/dialect.h"
#include "profiler/trace/json_escape.h"

namespace rblnsim::report {

namespace {

using trace::Category;
using trace::Event;

// torch's _filter_name: utility ops that never become FunctionEvents.
bool IsFilteredName(std::string_view name) {
  return name == "[memory]" || name == "[OutOfMemory]" ||
         name == "profiler::_record_function_enter" ||
         name == "profiler::_record_function_enter_new" ||
         name == "profiler::_record_function_exit" || name == "aten::is_leaf" ||
         name == "aten::output_nr" || name == "aten::_version";
}

bool IsOpCategory(Category c) {
  return c == Category::kCpuOp || c == Category::kUserAnnotation;
}

bool IsUserAnnotation(Category c) {
  return c == Category::kUserAnnotation || c == Category::kGpuUserAnnotation;
}

// torch's _rewrite_name(with_wildcard=True): the numbered ProfilerStep#N ranges of a schedule
// share one row.
constexpr std::string_view kProfilerStepRow = "ProfilerStep*";
std::string_view RowName(std::string_view name) {
  return name.starts_with("ProfilerStep#") ? kProfilerStepRow : name;
}

// A row-name id's text: its name's, except that |profiler_step|, the first ProfilerStep#N's id,
// stands for all of them.
std::string_view RowNameText(const index::NameTable& names, uint32_t profiler_step, uint32_t name) {
  return name == profiler_step ? kProfilerStepRow : names.text(name);
}

// torch's (start, -end) order, stable: ties keep logging order, i.e. event index order. Host
// nodes and device spans are sorted by it, and merged by it.
template <typename A, typename B>
bool BeforeInTorchOrder(const A& a, const B& b) {
  if (a.start_ns != b.start_ns)
    return a.start_ns < b.start_ns;
  if (a.end_ns != b.end_ns)
    return a.end_ns > b.end_ns;
  return a.event_index < b.event_index;
}

// One host FunctionEvent. Times stay integer ns; torch's float µs only matter when printing. Nodes
// are small and hold no containers: a trace of millions of events costs one flat vector, children
// are an intrusive list (their order never matters: only sums and counts are read). A node's
// times are its event's (EventTree::SpanOf), and its attributed kernels' sum lies beside the
// nodes, only when kernels are attributed (torch's dup folding replaces a parent's kernels by
// its child's, which a sum does as well as a list).
struct Node {
  uint32_t event_index = 0;  // position in trace.events and the index's columns
  uint32_t name = 0;         // row-name id (RowNameText)
  int32_t parent = -1;
  int32_t first_child = -1;
  int32_t next_sibling = -1;
  int32_t child_count = 0;
  // Whether it is a launch marker (rbln_run / rbln launch) is the index's kLaunchMarker flag
  // (EventTree::IsMarker): a runtime event, neither a device event nor a CPU op. It only names
  // its launching op (the index's) for attribution; it is no row and no child, so the op's self
  // time is the same whether the marker is the c-abi's timed one or the current zero-length one.
};
static_assert(sizeof(Node) == 24, "a node per host event: millions of them");

// An event's place in torch's (start, -end) order.
struct Times {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  uint32_t event_index = 0;
};

// A PrivateUse1 event (kernel, memcpy, memset, GPU user annotation). Device events are never a
// CPU op's parent or child and are never folded, so they stay out of the tree: a row each in
// first-appearance order, their durations summed, kernels attached to their op. Most events of a
// profiled run are device slices: the tree keeps only their event indices and reads a span from
// the trace when it visits one (EventTree::SpanOf).
struct DeviceSpan {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  uint32_t event_index = 0;
  uint32_t name = 0;  // row-name id

  bool operator<(const DeviceSpan& other) const { return BeforeInTorchOrder(*this, other); }
};

// Integer ids (launch ids, external ids) -> the first node given each. Both are counters in
// practice, so a flat table over their range serves them when that range is compact (a hash map
// of millions of entries was most of key_averages' time); sparse ids fall back to a hash map.
class FirstNodeById {
 public:
  // |entries| in the order that decides which node is first.
  explicit FirstNodeById(const std::vector<std::pair<int64_t, int>>& entries) {
    if (entries.empty())
      return;
    const auto [lo, hi] =
        std::minmax_element(entries.begin(), entries.end(),
                            [](const auto& a, const auto& b) { return a.first < b.first; });
    min_ = lo->first;
    const uint64_t range = static_cast<uint64_t>(hi->first) - static_cast<uint64_t>(lo->first);
    if (range < 4 * entries.size() + 1024) {
      table_.assign(range + 1, -1);
      for (const auto& [id, node] : entries) {
        int& slot = table_[static_cast<uint64_t>(id) - static_cast<uint64_t>(min_)];
        if (slot < 0)
          slot = node;
      }
      dense_ = true;
      return;
    }
    map_.reserve(entries.size());
    for (const auto& [id, node] : entries)
      map_.emplace(id, node);
  }

  // -1 when no node has |id|.
  int Find(int64_t id) const {
    if (dense_) {
      const uint64_t offset = static_cast<uint64_t>(id) - static_cast<uint64_t>(min_);
      return id >= min_ && offset < table_.size() ? table_[offset] : -1;
    }
    const auto it = map_.find(id);
    return it == map_.end() ? -1 : it->second;
  }

 private:
  bool dense_ = false;
  int64_t min_ = 0;
  std::vector<int> table_;
  std::unordered_map<int64_t, int> map_;
};

// Rows by (row name, variant: device, user annotation). A name nearly always comes in one
// variant, and a trace can hold millions of names (a device slice each): every name has one
// slot, for the variant it came in first, and the rare others share a hash map.
class RowSlots {
 public:
  static constexpr int32_t kNone = -1;

  explicit RowSlots(size_t names) : slot_(names, kNone), variant_(names, 0) {}

  // The row of (name, variant), kNone when it has none yet; the caller then sets it (to a row,
  // or to any other negative value that stands for one).
  int32_t& Slot(uint32_t name, uint8_t variant) {
    int32_t& slot = slot_[name];
    if (slot == kNone) {
      variant_[name] = variant;
      return slot;
    }
    if (variant_[name] == variant)
      return slot;
    return others_.try_emplace(uint64_t{name} * 4 + variant, kNone).first->second;
  }

 private:
  std::vector<int32_t> slot_;
  std::vector<uint8_t> variant_;
  std::unordered_map<uint64_t, int32_t> others_;  // nodes: a reference survives a rehash
};

// A packed device row past Aggregate's limit: summed, never made.
constexpr int32_t kBeyond = -2;

class EventTree {
 public:
  // Launch markers serve only attribution: without it (|with_markers| false) they are left out
  // from the start, as they are no rows and no children either way.
  EventTree(const index::TraceIndex& index, bool with_markers) : index_(index) {
    const trace::Trace& trace = index.trace();
    // Per name, once: filtered or not, and its row. A row is its name's id, except that every
    // ProfilerStep#N shares the first one's (a trace's device commands are often all distinct
    // names, so this pass must not hash them).
    const index::NameTable& names = index.names();
    std::vector<uint8_t> filtered(names.size());
    profiler_step_name_.resize(names.size());
    for (uint32_t n = 0; n < names.size(); ++n) {
      filtered[n] = IsFilteredName(names.text(n));
      if (RowName(names.text(n)) != names.text(n)) {
        if (profiler_step_ == index::kNone)
          profiler_step_ = n;
        profiler_step_name_[n] = true;
      }
    }
    const index::EventColumns& columns = index.events();
    // The FunctionEvents: complete events that torch does not filter out by name.
    auto is_function_event = [&](size_t e) {
      return trace.events[e].phase == trace::Phase::kComplete && !filtered[columns.name[e]] &&
             (with_markers || !columns.Has(e, index::kLaunchMarker));
    };
    // The device events, as a bit per event while they come in torch's order in the trace (as
    // a rule: a list of millions of positions is then spared), else as that list, sorted.
    size_t device_count = 0;
    size_t host_count = 0;
    bool device_in_order = true;
    uint32_t last_device = 0;
    device_event_.resize(trace.events.size());
    for (size_t e = 0; e < trace.events.size(); ++e) {
      if (!is_function_event(e))
        continue;
      if (!columns.Has(e, index::kPrivateUse1)) {
        ++host_count;
        continue;
      }
      device_event_[e] = true;
      const auto event = static_cast<uint32_t>(e);
      if (device_count++ > 0 && !(SpanOf(last_device) < SpanOf(event)))
        device_in_order = false;
      last_device = event;
    }
    nodes_.reserve(host_count);
    if (device_count == 0)
      ReleaseMemory(device_event_);
    if (device_count > 0 && !device_in_order) {
      device_.reserve(device_count);
      for (size_t e = 0; e < trace.events.size(); ++e) {
        if (device_event_[e])
          device_.push_back(static_cast<uint32_t>(e));
      }
      ReleaseMemory(device_event_);
      SortAlmostSorted(&device_, [this](uint32_t a, uint32_t b) { return SpanOf(a) < SpanOf(b); });
    }
    for (size_t e = 0; e < trace.events.size(); ++e) {
      if (!is_function_event(e) || columns.Has(e, index::kPrivateUse1))
        continue;
      Node& node = nodes_.emplace_back();
      node.event_index = static_cast<uint32_t>(e);
      node.name = RowNameId(columns.name[e]);
    }
    // torch sorts function_events by (start, -end), stably (Node::operator<). Host ops in start
    // order, then the runtime's markers: usually two sorted runs, merged in one pass; the device
    // activities likewise. Every child then comes after its parent, which the passes below rely
    // on.
    SortAlmostSorted(&nodes_, [this](const Node& a, const Node& b) {
      return BeforeInTorchOrder(TimesOf(a.event_index), TimesOf(b.event_index));
    });
    alive_.resize(nodes_.size());
    for (size_t i = 0; i < nodes_.size(); ++i)
      alive_[i] = static_cast<int>(i);
    PopulateCpuChildren();
  }

  void Attribute(Attribution attribution, AttributionStats* stats) {
    if (attribution == Attribution::kReleased) {
      for (DeviceCursor d(*this); !d.done(); d.Next())
        stats->device_events += trace::IsDeviceCategory(index_.events().category[d.event()]);
      return;
    }
    // Only attribution climbs from a marker to its op; the map goes before the rows are built.
    kernels_ns_.assign(nodes_.size(), 0);
    node_of_event_.assign(index_.trace().events.size(), -1);
    for (size_t i = 0; i < nodes_.size(); ++i)
      node_of_event_[nodes_[i].event_index] = static_cast<int>(i);
    std::vector<std::pair<int64_t, int>> markers, ops;
    for (int i : alive_) {
      const Node& node = nodes_[i];
      if (IsMarker(node)) {
        if (auto launch = index_.LaunchId(node.event_index))
          markers.emplace_back(*launch, i);
      } else if (IsOpCategory(index_.events().category[node.event_index])) {
        auto external_id = index_.ExternalId(node.event_index);
        if (external_id && *external_id > 0)
          ops.emplace_back(*external_id, i);
      }
    }
    const FirstNodeById marker_by_launch(markers);
    const FirstNodeById op_by_external_id(ops);
    ReleaseMemory(markers);
    ReleaseMemory(ops);
    for (DeviceCursor d(*this); !d.done(); d.Next()) {
      const uint32_t event = d.event();
      const DeviceSpan node = SpanOf(event);
      if (!trace::IsDeviceCategory(index_.events().category[node.event_index]))
        continue;
      ++stats->device_events;
      int op = -1;
      if (auto launch = index_.LaunchId(node.event_index)) {
        const int marker = marker_by_launch.Find(*launch);
        if (marker < 0) {
          ++stats->missing_marker;
          continue;
        }
        op = EnclosingOp(marker);
        if (op < 0) {
          ++stats->no_enclosing_op;
          continue;
        }
      } else if (auto external_id = index_.ExternalId(node.event_index)) {
        op = op_by_external_id.Find(*external_id);
      }
      if (op < 0) {
        ++stats->unlinked;
        continue;
      }
      kernels_ns_[op] += node.end_ns - node.start_ns;
      ++stats->attributed;
    }
    ReleaseMemory(node_of_event_);
  }

  // Markers have served attribution; from here on they are neither rows nor children.
  void DropLaunchMarkers() {
    std::erase_if(alive_, [this](int i) { return IsMarker(nodes_[i]); });
  }

  // torch's _remove_dup_nodes, including its quirk that the folded child's kernels replace the
  // parent's instead of adding to them.
  void RemoveDupNodes() {
    while (true) {
      std::vector<int> kept;
      kept.reserve(alive_.size());
      for (int i : alive_) {
        Node& node = nodes_[i];
        if (node.parent >= 0) {
          Node& parent = nodes_[node.parent];
          if (parent.name == node.name && parent.child_count == 1) {
            parent.first_child = node.first_child;
            parent.child_count = node.child_count;
            if (!kernels_ns_.empty())
              kernels_ns_[node.parent] = kernels_ns_[i];
            for (int child = node.first_child; child >= 0; child = nodes_[child].next_sibling)
              nodes_[child].parent = node.parent;
            continue;
          }
        }
        kept.push_back(i);
      }
      if (kept.size() == alive_.size())
        return;
      alive_ = std::move(kept);
    }
  }

  // The rows, in first-appearance order; |rows| arrives with its stats set. Only the first
  // |packed_limit| plain device rows (kPackedVariant) are made; what every later one would add
  // to the table's footer and name column is summed in rows->beyond. A trace can have a row per
  // device slice, and a table that orders them all alike prints no later one.
  void Aggregate(KeyAverageRows which, size_t packed_limit, KeyAverageRowSet* rows) const {
    // Children follow their parents in alive_, so a reverse pass sees every child first. Without
    // attributed kernels every device total is 0, and no array is needed to say so.
    std::vector<int64_t> device_total_ns;
    if (!kernels_ns_.empty()) {
      device_total_ns.assign(nodes_.size(), 0);
      for (auto it = alive_.rbegin(); it != alive_.rend(); ++it) {
        const Node& node = nodes_[*it];
        int64_t total = kernels_ns_[*it];
        for (int child = node.first_child; child >= 0; child = nodes_[child].next_sibling)
          total += device_total_ns[child];
        device_total_ns[*it] = total;
      }
    }
    auto device_total = [&](int node) {
      return device_total_ns.empty() ? int64_t{0} : device_total_ns[node];
    };

    // Rows by (row name, device, user annotation), in first-appearance order. A plain device
    // row (kPackedVariant) goes to the packed list, every other to the full one.
    // Device slices may be named once each (a launch's "i<n>_..." names), so there can be a row
    // per slice: the keys are counted first and the rows reserved once, rather than grown by
    // doubling with the old and new arrays both alive at the largest step.
    // Bit 1: a device row; bit 0: a user annotation's.
    auto variant_of = [&](uint32_t event_index, bool device) {
      const bool user_annotation = IsUserAnnotation(index_.events().category[event_index]);
      return static_cast<uint8_t>((device ? 2 : 0) + (user_annotation ? 1 : 0));
    };
    constexpr uint8_t kPackedVariant = 2;
    const bool with_device = which == KeyAverageRows::kAll;
    size_t full_count = 0;
    size_t packed_count = 0;
    {
      RowSlots seen(index_.names().size());
      auto count_key = [&](uint32_t name, uint32_t event_index, bool device) {
        const uint8_t variant = variant_of(event_index, device);
        int32_t& slot = seen.Slot(name, variant);
        if (slot == RowSlots::kNone) {
          slot = 0;
          ++(variant == kPackedVariant ? packed_count : full_count);
        }
      };
      ForEachInOrder(
          with_device, [&](int i) { count_key(nodes_[i].name, nodes_[i].event_index, false); },
          [&](const DeviceSpan& span) { count_key(span.name, span.event_index, true); });
    }
    packed_count = std::min(packed_count, packed_limit);
    rows->names = &index_.names();
    rows->profiler_step = profiler_step_;
    rows->full.reserve(full_count);
    rows->device.reserve(packed_count);
    rows->packed.reserve(full_count + packed_count);
    RowSlots row_of_key(index_.names().size());
    KeyAverageRowSet::Beyond& beyond = rows->beyond;
    // The row of (name, variant), made the first time it is seen: its index in the packed
    // device rows for kPackedVariant, else in the full rows; kBeyond for a packed row past the
    // limit.
    auto slot_of = [&](uint32_t name, uint8_t variant) -> int32_t {
      int32_t& slot = row_of_key.Slot(name, variant);
      if (slot != RowSlots::kNone)
        return slot;
      const bool packed = variant == kPackedVariant;
      if (packed && rows->device.size() >= packed_limit) {
        beyond.longest_name =
            std::max(beyond.longest_name,
                     trace::Utf8Length(RowNameText(index_.names(), profiler_step_, name)));
        return slot = kBeyond;
      }
      rows->packed.push_back(packed);
      if (packed) {
        slot = static_cast<int32_t>(rows->device.size());
        rows->device.push_back({0, name, 0});
        return slot;
      }
      slot = static_cast<int32_t>(rows->full.size());
      KeyAverage& row = rows->full.emplace_back();
      row.name = RowNameText(index_.names(), profiler_step_, name);
      row.is_device = (variant & 2) != 0;
      row.is_user_annotation = (variant & 1) != 0;
      return slot;
    };
    auto row_of = [&](uint32_t name, uint8_t variant) -> KeyAverage& {
      KeyAverage& row = rows->full[slot_of(name, variant)];
      ++row.count;
      return row;
    };
    ForEachInOrder(
        with_device,
        [&](int i) {
          const Node& node = nodes_[i];
          KeyAverage& row = row_of(node.name, variant_of(node.event_index, false));
          const Times times = TimesOf(node.event_index);
          const int64_t cpu_total = times.end_ns - times.start_ns;
          int64_t self_cpu = cpu_total;
          int64_t self_device = device_total(i);
          for (int child = node.first_child; child >= 0; child = nodes_[child].next_sibling) {
            const Times child_times = TimesOf(nodes_[child].event_index);
            self_cpu -= child_times.end_ns - child_times.start_ns;
            self_device -= device_total(child);
          }
          row.cpu_total_ns += cpu_total;
          row.self_cpu_ns += self_cpu;
          row.device_total_ns += device_total(i);
          row.self_device_ns += self_device;
        },
        [&](const DeviceSpan& span) {
          const int64_t dur_ns = span.end_ns - span.start_ns;
          const uint8_t variant = variant_of(span.event_index, true);
          if (variant != kPackedVariant) {
            KeyAverage& row = row_of(span.name, variant);
            row.device_total_ns += dur_ns;
            row.self_device_ns += dur_ns;
            return;
          }
          const int32_t slot = slot_of(span.name, variant);
          if (slot == kBeyond) {
            beyond.self_device_ns += dur_ns;
            beyond.any_self_device = beyond.any_self_device || dur_ns > 0;
            return;
          }
          KeyAverageRowSet::DeviceRow& row = rows->device[slot];
          ++row.count;
          row.device_ns += dur_ns;
        });
  }

 private:
  // Visits the alive host nodes (host(i)) and, with |with_device|, the device events
  // (device(span)) in torch's one (start, -end) order of all events: both lists are sorted by it.
  template <typename Host, typename Device>
  void ForEachInOrder(bool with_device, Host host, Device device) const {
    DeviceCursor d(*this);
    if (!with_device)
      d.Finish();
    for (int i : alive_) {
      for (; !d.done(); d.Next()) {
        const DeviceSpan span = SpanOf(d.event());
        if (!BeforeInTorchOrder(span, TimesOf(nodes_[i].event_index)))
          break;
        device(span);
      }
      host(i);
    }
    for (; !d.done(); d.Next())
      device(SpanOf(d.event()));
  }

  // Walks the device events in torch's order: device_ when it holds them, else the flagged
  // events in trace order.
  class DeviceCursor {
   public:
    explicit DeviceCursor(const EventTree& tree)
        : tree_(tree),
          listed_(tree.device_event_.empty()),
          end_(listed_ ? tree.device_.size() : tree.device_event_.size()) {
      Seek(0);
    }
    bool done() const { return at_ >= end_; }
    uint32_t event() const { return listed_ ? tree_.device_[at_] : static_cast<uint32_t>(at_); }
    void Next() { Seek(at_ + 1); }
    void Finish() { at_ = end_; }

   private:
    void Seek(size_t at) {
      if (!listed_) {
        while (at < end_ && !tree_.device_event_[at])
          ++at;
      }
      at_ = at;
    }

    const EventTree& tree_;
    bool listed_;
    size_t end_;
    size_t at_ = 0;
  };

  // Saturated, so a corrupt duration in an imported trace cannot overflow.
  static int64_t EndNs(const Event& event) {
    return event.ts_ns + std::clamp<int64_t>(event.dur_ns, 0,
                                             std::numeric_limits<int64_t>::max() -
                                                 std::max<int64_t>(event.ts_ns, 0));
  }

  // The row-name id of name |name|: its own, or the one every ProfilerStep#N shares.
  uint32_t RowNameId(uint32_t name) const {
    return profiler_step_name_[name] ? profiler_step_ : name;
  }

  bool IsMarker(const Node& node) const {
    return index_.events().Has(node.event_index, index::kLaunchMarker);
  }

  Times TimesOf(uint32_t event_index) const {
    const Event& event = index_.trace().events[event_index];
    return {event.ts_ns, EndNs(event), event_index};
  }

  DeviceSpan SpanOf(uint32_t event_index) const {
    const Times times = TimesOf(event_index);
    return {times.start_ns, times.end_ns, event_index,
            RowNameId(index_.events().name[event_index])};
  }

  // torch's _populate_cpu_children: per-thread stacks over the (start, -end) order; an event is
  // a child only if [start, end) lies inside the parent, partial overlaps give no relation.
  void PopulateCpuChildren() {
    std::vector<std::vector<int>> stacks(index_.rows().size());  // per (pid, tid) row
    for (int i : alive_) {
      Node& node = nodes_[i];
      std::vector<int>& stack = stacks[index_.events().row[node.event_index]];
      if (IsMarker(node))
        continue;  // no row and no child; its launching op comes from the index
      const Times times = TimesOf(node.event_index);
      while (!stack.empty()) {
        Node& parent = nodes_[stack.back()];
        const int64_t parent_end_ns = TimesOf(parent.event_index).end_ns;
        if (times.start_ns >= parent_end_ns || times.end_ns > parent_end_ns) {
          stack.pop_back();
          continue;
        }
        node.next_sibling = parent.first_child;
        parent.first_child = i;
        ++parent.child_count;
        node.parent = stack.back();
        break;
      }
      stack.push_back(i);
    }
  }

  // The launching op of |marker|: the index's innermost cpu_op / user_annotation enclosing it,
  // or, when that op is one of torch's filtered utility ops (no FunctionEvent), the next one out.
  int EnclosingOp(int marker) const {
    const index::HostForest& forest = index_.forest();
    const uint32_t marker_node = index_.events().node[nodes_[marker].event_index];
    if (marker_node == index::kNone)
      return -1;
    for (uint32_t op = forest.Launcher(marker_node); op != index::kNone; op = forest.parent[op]) {
      const int node = node_of_event_[forest.event[op]];
      if (node >= 0)
        return node;
    }
    return -1;
  }

  const index::TraceIndex& index_;
  uint32_t profiler_step_ = index::kNone;  // the name id every ProfilerStep#N row shares
  std::vector<Node> nodes_;                // host events, (start, -end, logging) order
  std::vector<int64_t> kernels_ns_;        // per node, with attribution: its kernels' sum
  std::vector<bool> profiler_step_name_;   // per name id: a ProfilerStep#N
  std::vector<uint32_t> device_;           // PrivateUse1 events' indices, the same order...
  std::vector<bool> device_event_;         // ... or, while the trace has them in it, a bit each
  std::vector<int> alive_;                 // indices into nodes_ not folded away, in that order
  std::vector<int> node_of_event_;         // trace event -> its node, or -1; in Attribute
};

}  // namespace

KeyAverage KeyAverageRowSet::Unpack(const DeviceRow& row) const {
  KeyAverage out;
  out.name = RowNameText(*names, profiler_step, row.name);
  out.is_device = true;
  out.count = row.count;
  out.self_device_ns = row.device_ns;
  out.device_total_ns = row.device_ns;
  return out;
}

KeyAverageRowSet ComputeKeyAverageRows(const index::TraceIndex& index,
                                       Attribution attribution,
                                       KeyAverageRows which,
                                       size_t packed_limit) {
  KeyAverageRowSet rows;
  EventTree tree(index, /*with_markers=*/attribution == Attribution::kAttributed);
  // Kernels are attached before folding, as torch attaches them while parsing.
  tree.Attribute(attribution, &rows.stats);
  tree.DropLaunchMarkers();
  tree.RemoveDupNodes();
  tree.Aggregate(which, packed_limit, &rows);
  return rows;
}

KeyAverages ComputeKeyAverages(const index::TraceIndex& index,
                               Attribution attribution,
                               KeyAverageRows which) {
  const KeyAverageRowSet rows = ComputeKeyAverageRows(index, attribution, which);
  KeyAverages result;
  result.stats = rows.stats;
  result.rows.reserve(rows.size());
  rows.ForEach([&result](const KeyAverage& row) { result.rows.push_back(row); });
  return result;
}

}  // namespace rblnsim::report
