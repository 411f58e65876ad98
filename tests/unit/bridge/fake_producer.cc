#include "tests/unit/bridge/fake_producer.h"

#include <gtest/gtest.h>

#include <cassert>
#include <cstring>
#include <memory>

#include "profiler/bridge/rbln_bridge.h"

namespace rblnsim::bridge::fakes {

namespace {

FakeProducer* g_current = nullptr;

RBLNRetCode CIsActive(int32_t* active_out) {
  return g_current->IsActive(active_out);
}
RBLNRetCode CBegin() {
  return g_current->Begin();
}
RBLNRetCode CEnd(RblnKinetoExportSink sink, void* user_data, int32_t* exported_out) {
  return g_current->EndAndExport(sink, user_data, exported_out);
}
RBLNRetCode CStats(RblnsimKinetoStats* stats_out) {
  return g_current->LastStats(stats_out);
}

// Owns every byte of one materialised export. Destroy() overwrites all of it before freeing, so
// a stale pointer in the consumer reads 0xA5 garbage even without ASan.
class ExportBuffers {
 public:
  ~ExportBuffers() { Destroy(); }

  const char* String(const std::optional<std::string>& text) {
    if (!text.has_value())
      return nullptr;
    return static_cast<const char*>(Allocate(text->c_str(), text->size() + 1));
  }

  template <typename T>
  const T* Array(const std::vector<T>& items) {
    if (items.empty())
      return nullptr;
    return static_cast<const T*>(Allocate(items.data(), items.size() * sizeof(T)));
  }

  void Destroy() {
    for (Block& block : blocks_) {
      std::memset(block.data.get(), 0xA5, block.size);
    }
    blocks_.clear();
  }

 private:
  struct Block {
    std::unique_ptr<unsigned char[]> data;
    size_t size;
  };

  const void* Allocate(const void* bytes, size_t size) {
    Block block{std::make_unique<unsigned char[]>(size), size};
    std::memcpy(block.data.get(), bytes, size);
    blocks_.push_back(std::move(block));
    return blocks_.back().data.get();
  }

  std::vector<Block> blocks_;
};

RblnKinetoSlice MakeSlice(const FakeSlice& in, ExportBuffers* buffers) {
  std::vector<const char*> categories;
  for (const auto& category : in.categories)
    categories.push_back(buffers->String(category));
  std::vector<RblnKinetoAnnotation> annotations;
  for (const FakeAnnotation& a : in.annotations) {
    annotations.push_back({buffers->String(a.name), buffers->String(a.value), a.value_is_quoted});
  }
  RblnKinetoSlice out = {};
  out.device_pid = in.device_pid;
  out.resource_tid = in.resource_tid;
  out.name = buffers->String(in.name);
  out.categories = buffers->Array(categories);
  out.categories_count = static_cast<uint32_t>(categories.size());
  out.start_steady_ns = in.start_steady_ns;
  out.end_steady_ns = in.end_steady_ns;
  out.annotations = buffers->Array(annotations);
  out.annotations_count = static_cast<uint32_t>(annotations.size());
  out.corr_id = in.corr_id;
  // Byte copy: an out-of-range value in the C enum type is fine in C, not in C++.
  std::memcpy(&out.kind, &in.kind, sizeof(out.kind));
  return out;
}

}  // namespace

FakeProducer::FakeProducer() {
  assert(g_current == nullptr && "one FakeProducer at a time");
  g_current = this;
}

FakeProducer::~FakeProducer() {
  g_current = nullptr;
}

KinetoApi FakeProducer::Api(bool with_stats) const {
  return *KinetoApi::FromFunctions(&CIsActive, &CBegin, &CEnd, with_stats ? &CStats : nullptr);
}

RBLNRetCode FakeProducer::IsActive(int32_t* active_out) {
  ++is_active_calls;
  if (is_active_code != RBLN_KINETO_OK)
    return is_active_code;
  *active_out = active;
  return RBLN_KINETO_OK;
}

RBLNRetCode FakeProducer::Begin() {
  ++begin_calls;
  return begin_code;
}

RBLNRetCode FakeProducer::EndAndExport(RblnKinetoExportSink sink,
                                       void* user_data,
                                       int32_t* exported_out) {
  ++end_calls;
  if (end_code != RBLN_KINETO_OK)
    return end_code;
  const bool captured = !devices.empty() || !lanes.empty() || !slices.empty();
  if (behavior == SinkBehavior::kNormal && !captured) {
    *exported_out = 0;
    return RBLN_KINETO_OK;
  }
  if (behavior == SinkBehavior::kReportWithoutCall) {
    *exported_out = 1;
    return RBLN_KINETO_OK;
  }

  ExportBuffers buffers;
  std::vector<RblnKinetoDevice> c_devices;
  for (const FakeDevice& d : devices)
    c_devices.push_back({d.pid, buffers.String(d.name)});
  std::vector<RblnKinetoLane> c_lanes;
  for (const FakeLane& l : lanes) {
    c_lanes.push_back({l.device_pid, l.resource_tid, buffers.String(l.name)});
  }
  std::vector<RblnKinetoSlice> c_slices;
  for (const FakeSlice& s : slices)
    c_slices.push_back(MakeSlice(s, &buffers));
  RblnKinetoExport exp = {};
  exp.devices = buffers.Array(c_devices);
  exp.devices_count = static_cast<uint32_t>(c_devices.size());
  exp.lanes = buffers.Array(c_lanes);
  exp.lanes_count = static_cast<uint32_t>(c_lanes.size());
  exp.slices = buffers.Array(c_slices);
  exp.slices_count = static_cast<uint32_t>(c_slices.size());

  // The export struct itself lives on the heap too, so a kept pointer to it is a
  // heap-use-after-free that ASan names, not a silent stack read.
  const RblnKinetoExport* heap_exp = buffers.Array(std::vector<RblnKinetoExport>{exp});

  const int calls = behavior == SinkBehavior::kCallTwice ? 2 : 1;
  for (int i = 0; i < calls; ++i) {
    ++sink_calls;
    sink(behavior == SinkBehavior::kNullExport ? nullptr : heap_exp, user_data);
  }
  // The export's lifetime ends here, as the ABI says: poison and free everything.
  buffers.Destroy();
  if (behavior != SinkBehavior::kLeaveExportedUnset) {
    *exported_out = behavior == SinkBehavior::kCallButReportNotExported ? 0 : 1;
  }
  return RBLN_KINETO_OK;
}

RBLNRetCode FakeProducer::LastStats(RblnsimKinetoStats* stats_out) {
  if (stats_code != RBLN_KINETO_OK)
    return stats_code;
  *stats_out = stats;
  return RBLN_KINETO_OK;
}

void AddStandardRows(FakeProducer* fake) {
  fake->devices = {{1, "RBLN 0"}, {100, "python3"}};
  fake->lanes = {{1, 1, "compute"}, {1, 2, "dma"}, {100, 100, "main thread"}};
}

StatusOr<BridgeResult> RunOneSession(FakeProducer* fake, bool with_stats) {
  FakeClock clock(kSteadyAnchorNs, kSystemAnchorNs);
  RblnBridge bridge(fake->Api(with_stats), &clock);
  RBLNSIM_ASSIGN_OR_RETURN(bool active, bridge.Configure());
  if (!active)
    return Status::Error("fake producer is inactive");
  RBLNSIM_RETURN_IF_ERROR(bridge.Start());
  return bridge.Stop(kSystemAnchorNs, kSystemAnchorNs + kWindowNs);
}

BridgeResult RunFake(FakeProducer* fake) {
  StatusOr<BridgeResult> result = RunOneSession(fake);
  EXPECT_TRUE(result.ok()) << result.status().message();
  return result.ok() ? std::move(result).value() : BridgeResult{};
}

}  // namespace rblnsim::bridge::fakes
