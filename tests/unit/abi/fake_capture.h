// A CaptureSource for tests: a capture built from plain numbers, one device with a compute and
// a DMA lane, 1 GHz so device cycles are ns after the first sync point.
#ifndef RBLNSIM_TESTS_UNIT_ABI_FAKE_CAPTURE_H_
#define RBLNSIM_TESTS_UNIT_ABI_FAKE_CAPTURE_H_

#include <functional>

#include "profiler/abi/producer_runtime.h"

namespace rblnsim::abi::testing {

// Device records at [start, end) ns after |base_ns| for launch 1 (compute, DMA) and a marker
// for it at |base_ns| on pid/tid 7/8.
inline ProducerCapture TwoSliceCapture(int64_t base_ns, int64_t end_ns = 40) {
  ProducerCapture c;
  c.devices = {{100, "rbln0 chiplet 0"}};
  c.lanes = {{100, 1, "compute"}, {100, 2, "dma"}};
  c.names = {"i1_0_W0_args_0_0", "i1_0_W0_mm_0"};
  c.category_sets = {{"dma"}, {"compute"}};
  c.slices.push_back({100, 2, 0, 0, 10, 20, 1, SliceKind::kDma});
  c.slices.push_back({100, 1, 1, 1, 20, end_ns, 1, SliceKind::kCompute});
  c.markers.push_back({7, 8, base_ns, base_ns + 5, 1});
  c.sync_points = {{0, base_ns}, {1000, base_ns + 1000}};
  return c;
}

class FakeSource : public CaptureSource {
 public:
  bool active = true;
  bool activities_active = true;
  bool real_clock = false;
  Status begin_status;
  std::function<ProducerCapture()> make = [] { return TwoSliceCapture(1'000'000); };
  int begins = 0;
  int ends = 0;

  StatusOr<bool> Active() override { return active; }
  StatusOr<bool> ActiveForActivities() override { return activities_active; }
  Status Begin() override {
    ++begins;
    return begin_status;
  }
  StatusOr<ProducerCapture> End() override {
    ++ends;
    return make();
  }
  double nominal_clock_ghz() const override { return 1.0; }
  bool stamps_real_clock() const override { return real_clock; }
};

}  // namespace rblnsim::abi::testing

#endif  // RBLNSIM_TESTS_UNIT_ABI_FAKE_CAPTURE_H_
