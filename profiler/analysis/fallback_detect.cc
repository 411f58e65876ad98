#include "profiler/analysis/fallback_detect.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "profiler/analysis/dialect_rules.h"
#include "profiler/analysis/launch_latency.h"

namespace rblnsim::analysis {

namespace {

using index::HostKind;
using index::kNone;
using trace::Event;

// Subtree flags, and what a dispatcher op's children were found to be.
enum : uint8_t { kHasMarker = 1, kHasCopyFrom = 2, kHasCompile = 4, kHasToCpu = 8 };
enum : uint8_t { kCtxNone = 0, kCtxScan = 1, kCtxFallback = 2 };
// A copy's direction when its place in a fallback's call tree says it; kDirNone: read it from
// the chain itself (under _to_copy: to the host).
enum : uint8_t { kDirNone = 0, kDirToHost = 1, kDirToDevice = 2 };

// "i12_0_W0_mm_0" -> 12; -1 when the name does not start with an instance token.
int64_t ParseInstance(std::string_view name) {
  if (name.size() < 3 || name[0] != 'i' || name[1] < '0' || name[1] > '9')
    return -1;
  int64_t value = 0;
  size_t i = 1;
  for (; i < name.size() && name[i] >= '0' && name[i] <= '9' && value < (INT64_MAX - 9) / 10; ++i)
    value = value * 10 + (name[i] - '0');
  return i < name.size() && name[i] == '_' ? value : -1;
}

class Detector {
 public:
  Detector(const index::TraceIndex& index, OverheadReport* report)
      : index_(index),
        trace_(index.trace()),
        f_(index.forest()),
        report_(report),
        n_(static_cast<uint32_t>(f_.size())) {
    // One scan of the names for all of them: each Find alone scans every name of the trace.
    const std::string_view wanted[] = {
        "aten::to",         "aten::_to_copy",      "aten::copy_",
        "aten::_copy_from", platform::kToCpuFrame, platform::kCopyBackFrame,
        "aten::isinf",      "aten::isnan",         "aten::item",
        "rbln::compile"};
    uint32_t* const ids[] = {&to_,        &to_copy_, &copy_,  &copy_from_, &to_cpu_,
                             &copy_back_, &isinf_,   &isnan_, &item_,      &compile_};
    static_assert(std::size(wanted) == std::size(ids));
    uint32_t found[std::size(wanted)];
    index.names().FindEach(wanted, found);
    for (size_t i = 0; i < std::size(ids); ++i)
      *ids[i] = found[i];
  }

  void Run() {
    ComputeFlags();
    ctx_.assign(n_, kCtxNone);
    owner_.assign(n_, kNone);
    dir_.assign(n_, kDirNone);
    for (uint32_t d = 0; d < n_; ++d)
      VisitDispatcher(d);
    AttributeCopies();
    FindRecompiles();
    for (uint32_t pos = 0; pos < n_; ++pos) {
      if (f_.parent[pos] == kNone && f_.kind[pos] != HostKind::kMarker) {
        report_->host_ns += Ev(pos).dur_ns;
      }
    }
    if (!report_->bytes_known) {
      for (DetectedFallback& fb : report_->fallbacks)
        fb.bytes_to_host = fb.bytes_to_device = -1;
    }
  }

 private:
  const Event& Ev(uint32_t pos) const { return trace_.events[f_.event[pos]]; }
  bool Is(uint32_t pos, uint32_t name) const { return name != kNone && f_.name[pos] == name; }
  // The calls that move the bytes: _copy_from, and the boxed fallback's write-back.
  bool IsCopy(uint32_t pos) const {
    return f_.kind[pos] == HostKind::kOp && (Is(pos, copy_from_) || Is(pos, copy_back_));
  }

  // The op at |pos| and its input profile (Input type and Input Dims), as far as the trace shows
  // them; empty without record_shapes.
  std::string ProfileKey(uint32_t pos) const {
    const auto inputs = ReadOpInputs(Ev(pos));
    if (!inputs)
      return {};
    std::string key = Ev(pos).name.str();
    for (const OpInput& in : *inputs) {
      key += "|" + in.type;
      for (int64_t d : in.dims)
        key += "," + std::to_string(d);
    }
    return key;
  }

  // Pre-order: a node's descendants follow it, so one reverse pass ORs every subtree's flags.
  void ComputeFlags() {
    flags_.assign(n_, 0);
    for (uint32_t pos = n_; pos-- > 0;) {
      if (f_.kind[pos] == HostKind::kMarker)
        flags_[pos] |= kHasMarker;
      if (IsCopy(pos))
        flags_[pos] |= kHasCopyFrom;
      if (Is(pos, compile_))
        flags_[pos] |= kHasCompile;
      if (Is(pos, to_cpu_))
        flags_[pos] |= kHasToCpu;
      if (f_.parent[pos] != kNone)
        flags_[f_.parent[pos]] |= flags_[pos];
    }
  }

  void VisitDispatcher(uint32_t d) {
    // Any cpu_op may be a dispatcher frame: ATen ops, and custom ops registered for the backend
    // (rblnsim's own composite rblnsim::rotary among them) fall back the same way.
    if (f_.kind[d] != HostKind::kOp)
      return;
    kids_.clear();
    for (uint32_t c = f_.FirstChild(d); c < f_.end[d]; c = f_.NextSibling(c))
      kids_.push_back(c);
    for (size_t t = 0; t < kids_.size(); ++t) {
      if (f_.kind[kids_[t]] == HostKind::kOp && Is(kids_[t], to_cpu_)) {
        if ((flags_[d] & kHasMarker) == 0)
          VisitBoxed(d, t);
        return;
      }
    }
    size_t k = 0;
    while (k < kids_.size() && !(f_.kind[kids_[k]] == HostKind::kOp && Is(kids_[k], f_.name[d])))
      ++k;
    if (k == kids_.size())
      return;  // no nested kernel: not a dispatcher frame
    const int64_t scans = MarkScans(d, k);
    const uint32_t kernel = kids_[k];
    if (flags_[kernel] & (kHasMarker | kHasCompile))
      return;  // the compiled path
    if (flags_[kernel] & kHasToCpu)
      return;  // a boxed fallback inside the inner call: VisitBoxed reports it
    bool download = false;
    for (size_t i = 0; i < k; ++i)
      download |= Is(kids_[i], to_) && (flags_[kids_[i]] & kHasCopyFrom);
    bool upload = false;
    for (size_t i = k + 1; i < kids_.size(); ++i)
      upload |= Is(kids_[i], copy_) && (flags_[kids_[i]] & kHasCopyFrom);
    // Without any rbln_run in the trace (profiler off) every kernel looks marker-less; only the
    // upload of the CPU result then tells a fallback apart.
    if (!download || (f_.markers == 0 && !upload))
      return;

    report_->fallbacks.push_back(Found(platform::FallbackShape::kNested, d, kernel, scans));
    ClaimKids(kids_.size());
  }

  // Charges the current op's children but its scans to the fallback just found. For a boxed one
  // (|to_cpu| is the index of its aten::_to_cpu child) the children's place sets the direction
  // of their copies: to the host inside _to_cpu, back to the device after it.
  uint32_t ClaimKids(size_t to_cpu) {
    const auto index = static_cast<uint32_t>(report_->fallbacks.size() - 1);
    for (size_t i = 0; i < kids_.size(); ++i) {
      const uint32_t kid = kids_[i];
      if (ctx_[kid] == kCtxScan)
        continue;
      ctx_[kid] = kCtxFallback;
      owner_[kid] = index;
      if (i == to_cpu)
        dir_[kid] = kDirToHost;
      else if (i > to_cpu)
        dir_[kid] = kDirToDevice;
    }
    return index;
  }

  // The fallback at op |frame|: NaN/Inf when a scan ran before it (the quick checks had passed),
  // else the reason its inputs show, read from |frame| or the op |inner| inside it.
  DetectedFallback Found(platform::FallbackShape shape,
                         uint32_t frame,
                         uint32_t inner,
                         int64_t scans) const {
    DetectedFallback fb;
    fb.shape = shape;
    const Event& e = Ev(frame);
    fb.op = e.name;
    fb.ts_ns = e.ts_ns;
    fb.dur_ns = e.dur_ns;
    if (scans > 0) {
      fb.cause = FallbackCause::kNanInf;
    } else {
      auto inputs = ReadOpInputs(e);
      if (!inputs)
        inputs = ReadOpInputs(Ev(inner));
      fb.cause = InferCause(e.name, inputs);
    }
    return fb;
  }

  // torch-rbln's boxed cpu_fallback_rbln under op |d|, whose child kids_[t] is aten::_to_cpu:
  // what runs before it is the pre-dispatch scan, what _to_cpu holds moves the arguments to the
  // host, the CPU kernel records nothing, and what follows moves results back
  // (_copy_from_and_resize for written arguments, aten::to for returned tensors).
  void VisitBoxed(uint32_t d, size_t t) {
    int64_t scans = MarkScans(d, t);
    uint32_t frame = d;
    // A functional op may wrap the out= variant the handler ran in (aten::add over aten::add):
    // the fallback is the outer call, and a scan may sit there, before the inner one.
    const uint32_t p = f_.parent[d];
    if (p != kNone && f_.kind[p] == HostKind::kOp && f_.name[p] == f_.name[d]) {
      frame = p;
      for (uint32_t c = f_.FirstChild(p); c < d; c = f_.NextSibling(c))
        scans += ctx_[c] == kCtxScan ? 1 : 0;
      ctx_[d] = kCtxFallback;
    }
    DetectedFallback fb = Found(platform::FallbackShape::kBoxed, frame, d, scans);
    // A compile right before the handler failed: torch-rbln's compile_error fallback, whatever
    // scans passed before it. The failure is remembered, so a later call with the same inputs
    // reaches the kernel frame (the checks passed) and goes to the CPU uncompiled.
    bool compiled = false;
    for (size_t i = 0; i < t; ++i)
      compiled |= Is(kids_[i], compile_);
    // The profile is read only when a compile failed here or earlier: most traces have none.
    const std::string profile =
        compiled || !failed_profiles_.empty() ? ProfileKey(frame) : std::string();
    if (compiled || (frame != d && (fb.cause == FallbackCause::kUnknown || scans > 0) &&
                     !profile.empty() && failed_profiles_.count(profile) > 0)) {
      fb.cause = FallbackCause::kCompileError;
    }
    if (compiled && !profile.empty())
      failed_profiles_.insert(profile);
    report_->fallbacks.push_back(std::move(fb));
    const uint32_t index = ClaimKids(t);
    owner_[d] = index;
    if (frame != d)
      owner_[frame] = index;
  }

  // isinf ... isnan groups among the children of dispatcher op |d| before the kernel (index |k|),
  // each extended back over its two .to() calls and forward to its item(). Returns the number of
  // groups.
  int64_t MarkScans(uint32_t d, size_t k) {
    int64_t groups = 0;
    size_t covered = 0;  // children before this index belong to an earlier group
    for (size_t i = 0; i < k; ++i) {
      if (!Is(kids_[i], isinf_))
        continue;
      size_t j = i + 1;
      while (j < k && !Is(kids_[j], isnan_))
        ++j;
      if (j == k)
        continue;
      size_t first = i;
      while (first > covered && first + 2 > i && Is(kids_[first - 1], to_))
        --first;
      size_t last = j;
      for (size_t m = j + 1; m < k && m <= j + 5; ++m) {
        if (Is(kids_[m], item_)) {
          last = m;
          break;
        }
      }
      for (size_t m = first; m <= last; ++m)
        ctx_[kids_[m]] = kCtxScan;
      ++groups;
      report_->scan_host_ns += Ev(kids_[last]).end_ns() - Ev(kids_[first]).ts_ns;
      covered = last + 1;
      i = last;
    }
    report_->scans += groups;
    if (groups > 0)
      report_->scans_by_op[Ev(d).name.str()] += groups;
    return groups;
  }

  // Pre-order again: a node inherits its context, fallback and "under _to_copy" from its parent
  // unless the dispatcher pass labelled it.
  void AttributeCopies() {
    std::vector<uint8_t> under_to_copy(n_, 0);
    std::vector<uint8_t> in_copy(n_, 0);  // below a copy call already counted
    std::vector<uint32_t> root(n_, 0);    // the top-level node of each node's tree
    for (uint32_t pos = 0; pos < n_; ++pos) {
      const uint32_t p = f_.parent[pos];
      root[pos] = p == kNone ? pos : root[p];
      if (p != kNone && ctx_[pos] == kCtxNone) {
        ctx_[pos] = ctx_[p];
        owner_[pos] = owner_[p];
      }
      if (p != kNone && dir_[pos] == kDirNone)
        dir_[pos] = dir_[p];
      under_to_copy[pos] = Is(pos, to_copy_) || (p != kNone && under_to_copy[p]);
      in_copy[pos] = p != kNone && (in_copy[p] || IsCopy(p));
      if (!IsCopy(pos) || in_copy[pos])
        continue;
      const std::optional<int64_t> bytes = Ev(pos).IntArg(kBytesArg);
      if (bytes) {
        report_->bytes_known = true;
        if (*bytes <= 0)
          continue;  // served from the host copy: nothing crossed PCIe
      }
      DetectedRoundTrip rt;
      rt.cause = ctx_[pos] == kCtxScan       ? BounceCause::kScan
                 : ctx_[pos] == kCtxFallback ? BounceCause::kFallback
                                             : BounceCause::kCpu;
      // The chain's place decides where the fallback says it (a boxed fallback's .to(device)
      // is the same to -> _to_copy -> copy_ -> _copy_from chain as a download); else a copy
      // under _to_copy reads device data to the host, and a bare copy_ or a write-back writes.
      rt.to_host = dir_[pos] != kDirNone ? dir_[pos] == kDirToHost
                                         : !Is(pos, copy_back_) && under_to_copy[pos] != 0;
      rt.bytes = bytes.value_or(-1);
      rt.op = Ev(root[pos]).name;
      rt.ts_ns = Ev(pos).ts_ns;
      rt.dur_ns = Ev(pos).dur_ns;
      report_->round_trips.push_back(rt);
      if (owner_[pos] != kNone && bytes) {
        DetectedFallback& fb = report_->fallbacks[owner_[pos]];
        (rt.to_host ? fb.bytes_to_host : fb.bytes_to_device) += *bytes;
      }
    }
  }

  void FindRecompiles() {
    std::vector<std::pair<int64_t, size_t>> wanted;  // (launch_id, recompile index)
    std::unordered_set<std::string> compiled;        // op + argument profile, as far as shown
    for (uint32_t pos = 0; pos < n_; ++pos) {
      if (!Is(pos, compile_) || f_.kind[pos] == HostKind::kMarker)
        continue;
      DetectedRecompile rc;
      const uint32_t p = f_.parent[pos];
      rc.op = p == kNone ? std::string("(top level)") : Ev(p).name;
      // A second compile of the same op for the same argument profile: the compiled-op cache
      // evicted the first (TORCH_RBLN_COMPILED_OPS). Without record_shapes the profile is unknown
      // and no compile is called an eviction.
      if (std::string key = p == kNone ? std::string() : ProfileKey(p); !key.empty())
        rc.eviction = !compiled.insert(std::move(key)).second;
      rc.ts_ns = Ev(pos).ts_ns;
      rc.dur_ns = Ev(pos).dur_ns;
      const uint32_t stop = p == kNone ? n_ : f_.end[p];
      for (uint32_t c = f_.end[pos]; c < stop; c = f_.end[c]) {
        if (f_.kind[c] != HostKind::kMarker)
          continue;
        rc.launch_id = index_.LaunchId(f_.event[c]).value_or(-1);
        break;
      }
      // No launch after it, and the op went to the CPU: the compile failed.
      rc.failed = rc.launch_id < 0 && p != kNone && (flags_[p] & kHasToCpu) != 0;
      if (rc.launch_id >= 0)
        wanted.emplace_back(rc.launch_id, report_->recompiles.size());
      report_->recompiles.push_back(std::move(rc));
    }
    if (wanted.empty())
      return;
    std::sort(wanted.begin(), wanted.end());
    std::vector<std::pair<int64_t, int64_t>> first_seen;  // (instance, earliest slice start)
    const index::EventColumns& columns = index_.events();
    for (size_t i = 0; i < columns.size(); ++i) {
      if (!columns.Has(i, index::kDeviceSlice))
        continue;
      const Event& e = trace_.events[i];
      const int64_t instance = ParseInstance(e.name);
      if (instance < 0)
        continue;
      first_seen.emplace_back(instance, e.ts_ns);
      const std::optional<int64_t> id = index_.LaunchId(i);
      if (!id)
        continue;
      auto it = std::lower_bound(wanted.begin(), wanted.end(), std::make_pair(*id, size_t{0}));
      for (; it != wanted.end() && it->first == *id; ++it)
        report_->recompiles[it->second].instance = instance;
    }
    std::sort(first_seen.begin(), first_seen.end());
    for (DetectedRecompile& rc : report_->recompiles) {
      if (rc.instance < 0)
        continue;
      auto it = std::lower_bound(first_seen.begin(), first_seen.end(),
                                 std::make_pair(rc.instance, INT64_MIN));
      rc.new_instance =
          it != first_seen.end() && it->first == rc.instance && it->second >= rc.ts_ns;
    }
  }

  const index::TraceIndex& index_;
  const trace::Trace& trace_;
  const index::HostForest& f_;
  OverheadReport* report_;
  const uint32_t n_;
  uint32_t to_, to_copy_, copy_, copy_from_, isinf_, isnan_, item_, compile_, to_cpu_, copy_back_;
  std::vector<uint8_t> flags_;
  std::vector<uint8_t> ctx_;
  std::vector<uint32_t> owner_;  // the fallback a node's copies are charged to
  std::vector<uint8_t> dir_;     // kDir*: a copy's direction from its place in a fallback
  std::vector<uint32_t> kids_;   // scratch: children of the current dispatcher op
  std::unordered_set<std::string> failed_profiles_;  // op + inputs whose compile failed
};

}  // namespace

const char* BounceCauseName(BounceCause cause) {
  switch (cause) {
    case BounceCause::kCpu:
      return "cpu()";
    case BounceCause::kScan:
      return "nan/inf scan";
    case BounceCause::kFallback:
      return "fallback";
  }
  return "?";
}

std::vector<std::string> OverheadArgKeys() {
  return {std::string(kLaunchIdArg), std::string(kBytesArg), std::string(kInputDimsArg),
          std::string(kInputTypeArg)};
}

OverheadReport DetectOverhead(const index::TraceIndex& index) {
  const trace::Trace& trace = index.trace();
  OverheadReport report;
  report.launches = static_cast<int64_t>(index.forest().markers);
  report.wall_ns = trace.capture_end_ns - trace.capture_start_ns;
  if (report.wall_ns <= 0 && !trace.events.empty()) {
    int64_t lo = trace.events.front().ts_ns;
    int64_t hi = trace.events.front().end_ns();
    for (const Event& e : trace.events) {
      lo = std::min(lo, e.ts_ns);
      hi = std::max(hi, e.end_ns());
    }
    report.wall_ns = hi - lo;
  }
  Detector(index, &report).Run();
  return report;
}

}  // namespace rblnsim::analysis
