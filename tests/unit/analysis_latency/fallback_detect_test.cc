// CPU fallbacks, the NaN/Inf scan, recompiles and host round trips read from synthetic eager
// traces laid out the way torch-rbln's dispatcher records them.
#include "profiler/analysis/fallback_detect.h"

#include <gtest/gtest.h>

#include "profiler/index/trace_index.h"
#include "profiler/trace/import/chrome_trace_import.h"
#include "tests/unit/analysis_latency/synthetic_trace.h"
#include "tests/unit/import/kineto_json_builder.h"

namespace rblnsim::analysis {
namespace {

using testing::SyntheticTrace;

OverheadReport Detect(const trace::Trace& trace) {
  auto index = index::TraceIndex::Build(trace);
  EXPECT_TRUE(index.ok());
  return DetectOverhead(*index);
}

TEST(Fallback, DtypeFromInputType) {
  SyntheticTrace t;
  t.Op("aten::add", 1000, 1000, t.Inputs("[[64, 128], [64, 128]]", "[\"float\", \"float\"]"));
  t.Download(1010, 32768);
  t.Download(1110, 32768);
  t.Op("aten::add", 1300, 100);  // the CPU kernel: no rbln_run under it
  t.Upload(1500, 32768);
  t.Marker(1, 5000, 10);  // the trace has launches elsewhere
  const OverheadReport r = Detect(t.trace);
  ASSERT_EQ(r.fallbacks.size(), 1u);
  EXPECT_EQ(r.fallbacks[0].op, "aten::add");
  EXPECT_EQ(r.fallbacks[0].cause, FallbackCause::kDtype);
  EXPECT_EQ(r.fallbacks[0].ts_ns, 1000);
  EXPECT_EQ(r.fallbacks[0].bytes_to_host, 65536);
  EXPECT_EQ(r.fallbacks[0].bytes_to_device, 32768);
  ASSERT_EQ(r.round_trips.size(), 3u);
  for (const DetectedRoundTrip& rt : r.round_trips)
    EXPECT_EQ(rt.cause, BounceCause::kFallback);
  EXPECT_TRUE(r.round_trips[0].to_host);
  EXPECT_FALSE(r.round_trips[2].to_host);
  EXPECT_EQ(r.scans, 0);
}

// torch-rbln's boxed cpu_fallback_rbln: aten::_to_cpu holds the per-tensor downloads, the CPU
// kernel records nothing, then .to(device) brings the result back: a chain shaped like a download
// that is an upload by its place after _to_cpu.
TEST(Fallback, BoxedShapeWithDirectionsFromThePlaceInTheCallTree) {
  SyntheticTrace t;
  t.Op("aten::add", 1000, 1000, t.Inputs("[[64, 128], [64, 128]]", "[\"int\", \"int\"]"));
  t.Op("aten::_to_cpu", 1005, 300);
  t.Download(1010, 32768);
  t.Download(1110, 32768);
  t.Download(1500, 32768);  // .to(device) of the result
  t.Marker(1, 5000, 10);
  const OverheadReport r = Detect(t.trace);
  ASSERT_EQ(r.fallbacks.size(), 1u);
  EXPECT_EQ(r.fallbacks[0].shape, platform::FallbackShape::kBoxed);
  EXPECT_EQ(r.fallbacks[0].cause, FallbackCause::kDtype);
  EXPECT_EQ(r.fallbacks[0].bytes_to_host, 65536);
  EXPECT_EQ(r.fallbacks[0].bytes_to_device, 32768);
  ASSERT_EQ(r.round_trips.size(), 3u);
  EXPECT_TRUE(r.round_trips[0].to_host);
  EXPECT_TRUE(r.round_trips[1].to_host);
  EXPECT_FALSE(r.round_trips[2].to_host);
  for (const DetectedRoundTrip& rt : r.round_trips)
    EXPECT_EQ(rt.cause, BounceCause::kFallback);
}

TEST(Fallback, BoxedWriteBackOfAnInPlaceOp) {
  SyntheticTrace t;
  t.Op("aten::add_", 0, 1000, t.Inputs("[[8, 64], [8, 64]]", "[\"int\", \"int\"]"));
  t.Op("aten::_to_cpu", 5, 250);
  t.Download(10, 2048);
  t.Download(120, 2048);
  t.Op("aten::_copy_from_and_resize", 600, 100, {{"bytes", int64_t{2048}}});
  t.Marker(1, 5000, 10);
  const OverheadReport r = Detect(t.trace);
  ASSERT_EQ(r.fallbacks.size(), 1u);
  EXPECT_EQ(r.fallbacks[0].op, "aten::add_");
  EXPECT_EQ(r.fallbacks[0].bytes_to_device, 2048);
  ASSERT_EQ(r.round_trips.size(), 3u);
  EXPECT_FALSE(r.round_trips[2].to_host);
  EXPECT_EQ(r.round_trips[2].dur_ns, 100);
}

// A functional op over the out= variant the boxed handler ran in is one fallback, named by the
// outer call; a NaN/Inf scan in the outer frame gives the reason.
TEST(Fallback, BoxedInsideTheOutVariantIsOneFallback) {
  SyntheticTrace t;
  t.Op("aten::add", 0, 3000, t.Inputs("[[64, 128], [64, 128]]", "[\"c10::Half\", \"c10::Half\"]"));
  t.Scan(10, 16384);
  t.Op("aten::add", 1000, 1500);
  t.Op("aten::_to_cpu", 1005, 150);
  t.Download(1010, 0);  // the scan already brought it to the host
  t.Download(1300, 16384);
  t.Marker(1, 5000, 10);
  const OverheadReport r = Detect(t.trace);
  ASSERT_EQ(r.fallbacks.size(), 1u);
  EXPECT_EQ(r.fallbacks[0].ts_ns, 0);
  EXPECT_EQ(r.fallbacks[0].dur_ns, 3000);
  EXPECT_EQ(r.fallbacks[0].shape, platform::FallbackShape::kBoxed);
  EXPECT_EQ(r.fallbacks[0].cause, FallbackCause::kNanInf);
  EXPECT_EQ(r.scans, 1);
}

// A boxed frame with a launch inside it ran on the device after all: no fallback.
TEST(Fallback, BoxedFrameWithALaunchIsNotAFallback) {
  SyntheticTrace t;
  t.Op("aten::add", 0, 1000);
  t.Op("aten::_to_cpu", 5, 100);
  t.Marker(1, 500, 10);
  EXPECT_TRUE(Detect(t.trace).fallbacks.empty());
}

TEST(Recompile, SameOpAndProfileCompiledAgainIsAnEviction) {
  SyntheticTrace t;
  int64_t ts = 0;
  for (const char* dims : {"[[4, 64], [4, 64]]", "[[8, 64], [8, 64]]", "[[4, 64], [4, 64]]"}) {
    t.Op("aten::add", ts, 1000, t.Inputs(dims, "[\"c10::Half\", \"c10::Half\"]"));
    t.Annotation("rbln::compile", ts + 10, 500);
    ts += 2000;
  }
  const OverheadReport r = Detect(t.trace);
  ASSERT_EQ(r.recompiles.size(), 3u);
  EXPECT_FALSE(r.recompiles[0].eviction);
  EXPECT_FALSE(r.recompiles[1].eviction);
  EXPECT_TRUE(r.recompiles[2].eviction);
}

TEST(Fallback, CompiledPathWithScanIsNotAFallback) {
  SyntheticTrace t;
  t.Op("aten::matmul", 0, 5000);
  t.Op("aten::mm", 10, 4900,
       t.Inputs("[[512, 512], [512, 512]]", "[\"c10::Half\", \"c10::Half\"]"));
  t.Scan(100, 0);  // x already has a host copy: the scan's download moves nothing
  t.Scan(500, 0);
  t.Op("aten::mm", 1000, 1000);
  t.Marker(1, 1100, 50);
  t.Slice("i1_0_W0_mm_0", 1, 1200, 10);
  t.Download(5000, 524288);  // y.cpu()
  const OverheadReport r = Detect(t.trace);
  EXPECT_TRUE(r.fallbacks.empty());
  EXPECT_EQ(r.scans, 2);
  EXPECT_EQ(r.scan_host_ns, 2 * 390);  // each from its download to its item()
  EXPECT_EQ(r.host_ns, 5000 + 100);
  EXPECT_TRUE(r.bytes_known);
  ASSERT_EQ(r.round_trips.size(), 1u);
  EXPECT_EQ(r.round_trips[0].cause, BounceCause::kCpu);
  EXPECT_TRUE(r.round_trips[0].to_host);
  EXPECT_EQ(r.round_trips[0].bytes, 524288);
  EXPECT_EQ(r.launches, 1);
}

TEST(Fallback, ScanThenFallbackMeansNanInf) {
  SyntheticTrace t;
  t.Op("aten::add", 0, 3000,
       t.Inputs("[[128, 128], [128, 128]]", "[\"c10::Half\", \"c10::Half\"]"));
  int64_t ts = t.Scan(10, 32768);
  ts = t.Scan(ts, 32768);
  ts = t.Download(ts, 0);
  ts = t.Download(ts, 0);
  t.Op("aten::add", ts + 50, 100);
  t.Upload(ts + 200, 32768);
  t.Marker(1, 9000, 10);
  const OverheadReport r = Detect(t.trace);
  ASSERT_EQ(r.fallbacks.size(), 1u);
  EXPECT_EQ(r.fallbacks[0].cause, FallbackCause::kNanInf);
  EXPECT_EQ(r.fallbacks[0].bytes_to_host, 0);
  EXPECT_EQ(r.fallbacks[0].bytes_to_device, 32768);
  EXPECT_EQ(r.scans, 2);
  ASSERT_EQ(r.round_trips.size(), 3u);
  EXPECT_EQ(r.round_trips[0].cause, BounceCause::kScan);
  EXPECT_EQ(r.round_trips[1].cause, BounceCause::kScan);
  EXPECT_EQ(r.round_trips[2].cause, BounceCause::kFallback);
  EXPECT_FALSE(r.round_trips[2].to_host);
}

TEST(Fallback, CustomOpsFallBackLikeAtenOps) {
  SyntheticTrace t;
  t.Op("rblnsim::rotary", 0, 1000,
       t.Inputs("[[1, 16, 1, 128], [1, 1, 1, 128]]", "[\"c10::Half\", \"c10::Half\"]"));
  t.Download(10, 4096);
  t.Op("rblnsim::rotary", 200, 100);
  t.Upload(400, 4096);
  t.Marker(1, 5000, 10);
  const OverheadReport r = Detect(t.trace);
  ASSERT_EQ(r.fallbacks.size(), 1u);
  EXPECT_EQ(r.fallbacks[0].op, "rblnsim::rotary");
  EXPECT_EQ(r.fallbacks[0].cause, FallbackCause::kUnsupportedOp);
}

TEST(Fallback, WithoutMarkersOnlyTheUploadTellsAFallbackApart) {
  // Profiler off: the compiled kernel has no rbln_run either, but no upload follows it.
  SyntheticTrace kernel;
  kernel.Op("aten::add", 0, 1000);
  kernel.Download(10, 100);
  kernel.Op("aten::add", 200, 100);
  EXPECT_TRUE(Detect(kernel.trace).fallbacks.empty());

  SyntheticTrace fallback = kernel;
  fallback.Upload(400, 100);
  const OverheadReport r = Detect(fallback.trace);
  ASSERT_EQ(r.fallbacks.size(), 1u);
  EXPECT_EQ(r.fallbacks[0].cause, FallbackCause::kUnknown);  // no Input args, a supported op
}

TEST(Fallback, WithoutBytesArgsEveryCopyCountsWithUnknownSize) {
  SyntheticTrace t;
  t.Op("aten::sort", 0, 1000);
  t.Download(10, std::nullopt);
  t.Op("aten::sort", 200, 100);
  t.Upload(400, std::nullopt);
  t.Marker(1, 5000, 10);
  const OverheadReport r = Detect(t.trace);
  EXPECT_FALSE(r.bytes_known);
  ASSERT_EQ(r.fallbacks.size(), 1u);
  EXPECT_EQ(r.fallbacks[0].cause, FallbackCause::kUnsupportedOp);
  EXPECT_EQ(r.fallbacks[0].bytes_to_host, -1);
  ASSERT_EQ(r.round_trips.size(), 2u);
  EXPECT_EQ(r.round_trips[0].bytes, -1);
}

TEST(Recompile, CompileSpanAndItsNewInstance) {
  SyntheticTrace t;
  t.Op("aten::mm", 0, 10000);
  t.Op("aten::mm", 100, 8900);
  t.Annotation("rbln::compile", 200, 4800);
  t.Marker(5, 6000, 100);
  t.Slice("i2_0_W0_mm_0", 5, 7000, 10);
  t.Slice("i1_3_W0_mm_0", 4, 50, 10);  // an earlier launch of instance 1
  const OverheadReport r = Detect(t.trace);
  EXPECT_TRUE(r.fallbacks.empty());
  ASSERT_EQ(r.recompiles.size(), 1u);
  EXPECT_EQ(r.recompiles[0].op, "aten::mm");
  EXPECT_EQ(r.recompiles[0].dur_ns, 4800);
  EXPECT_EQ(r.recompiles[0].launch_id, 5);
  EXPECT_EQ(r.recompiles[0].instance, 2);
  EXPECT_TRUE(r.recompiles[0].new_instance);
}

// A compile that fails: the compile opens inside the device kernel's frame, no launch follows, and
// the boxed fallback runs. The second call of the same shape finds the failure cached and goes
// straight to the fallback, so only the same input profile tells it was a compile error too.
TEST(Fallback, FailedCompileThenFallbackAndItsCachedRepeat) {
  SyntheticTrace t;
  const auto half = [&] {
    return t.Inputs("[[29, 64], [29, 64]]", "[\"c10::Half\", \"c10::Half\"]");
  };
  t.Op("aten::add", 0, 10000, half());
  t.Op("aten::add", 100, 9800, half());
  t.Annotation("rbln::compile", 200, 6000);
  t.Op("aten::_to_cpu", 6300, 300);
  t.Download(6310, 3712);
  t.Download(6410, 3712);
  t.Download(7000, 3712);  // .to(device) of the result
  t.Op("aten::add", 20000, 2000, half());
  t.Op("aten::add", 20100, 1800, half());
  t.Op("aten::_to_cpu", 20200, 300);
  t.Download(20210, 3712);
  t.Download(20310, 3712);
  t.Download(21000, 3712);
  // An fp16 add of another shape, boxed without a compile: not a compile error.
  t.Op("aten::add", 30000, 2000,
       t.Inputs("[[32, 64], [32, 64]]", "[\"c10::Half\", \"c10::Half\"]"));
  t.Op("aten::add", 30100, 1800,
       t.Inputs("[[32, 64], [32, 64]]", "[\"c10::Half\", \"c10::Half\"]"));
  t.Op("aten::_to_cpu", 30200, 300);
  t.Download(30210, 4096);
  t.Download(31000, 4096);
  t.Marker(1, 50000, 10);
  const OverheadReport r = Detect(t.trace);
  ASSERT_EQ(r.fallbacks.size(), 3u);
  EXPECT_EQ(r.fallbacks[0].cause, FallbackCause::kCompileError);
  EXPECT_EQ(r.fallbacks[1].cause, FallbackCause::kCompileError);
  EXPECT_NE(r.fallbacks[2].cause, FallbackCause::kCompileError);
  ASSERT_EQ(r.recompiles.size(), 1u);
  EXPECT_EQ(r.recompiles[0].op, "aten::add");
  EXPECT_EQ(r.recompiles[0].dur_ns, 6000);
  EXPECT_EQ(r.recompiles[0].launch_id, -1);
  EXPECT_TRUE(r.recompiles[0].failed);
}

TEST(InputArgs, CausesInTheRuntimesOrder) {
  auto cause = [](const char* op, const char* dims, const char* types) {
    SyntheticTrace t;
    return InferCause(op, ReadOpInputs(t.Op(op, 0, 1, SyntheticTrace::Inputs(dims, types))));
  };
  EXPECT_EQ(cause("aten::add", "[[], []]", "[\"c10::Half\", \"c10::Half\"]"),
            FallbackCause::kAllScalar);
  EXPECT_EQ(cause("aten::add", "[[4, 100], [4, 100]]", "[\"c10::Half\", \"c10::Half\"]"),
            FallbackCause::kUnaligned);
  EXPECT_EQ(cause("aten::add", "[[4, 1], [4,128]]", "[\"c10::Half\",\"c10::Half\"]"),
            FallbackCause::kUnknown);
  EXPECT_EQ(cause("aten::mm", "[[4, 100], [100, 4]]", "[\"c10::Half\", \"c10::Half\"]"),
            FallbackCause::kUnknown);  // not elementwise: no alignment rule
  EXPECT_EQ(cause("aten::topk", "[[4, 128], []]", "[\"c10::Half\", \"Scalar\"]"),
            FallbackCause::kExplicitOp);  // topk.values is pinned to the fallback by name
  EXPECT_EQ(cause("aten::sort", "[[4, 128]]", "[\"c10::Half\"]"), FallbackCause::kUnsupportedOp);
  // masked_fill's bool mask is not a dtype reason; its data tensor is.
  EXPECT_EQ(cause("aten::masked_fill", "[[4, 128], [4, 128], []]",
                  "[\"c10::Half\", \"bool\", \"Scalar\"]"),
            FallbackCause::kUnknown);
  EXPECT_EQ(cause("aten::masked_fill", "[[4, 100], [4, 100], []]",
                  "[\"c10::Half\", \"bool\", \"Scalar\"]"),
            FallbackCause::kUnaligned);
  EXPECT_EQ(
      cause("aten::masked_fill", "[[4, 128], [4, 128], []]", "[\"int\", \"bool\", \"Scalar\"]"),
      FallbackCause::kDtype);
  EXPECT_EQ(cause("aten::logical_not", "[[4, 128]]", "[\"bool\"]"), FallbackCause::kDtype);
  // An op with no device kernel never reaches the dispatch shim's dtype check: the catch-all
  // takes it whatever its inputs.
  EXPECT_EQ(cause("aten::sort", "[[4, 128]]", "[\"float\"]"), FallbackCause::kUnsupportedOp);
  EXPECT_EQ(cause("aten::add", "[[4, 128], [4, 128]]", "[\"int\", \"int\"]"),
            FallbackCause::kDtype);
  EXPECT_EQ(InferCause("aten::add", std::nullopt), FallbackCause::kUnknown);
  EXPECT_EQ(InferCause("aten::cumsum", std::nullopt), FallbackCause::kExplicitOp);
  EXPECT_EQ(InferCause("aten::gelu", std::nullopt), FallbackCause::kUnsupportedOp);
  // clamp.Tensor_out is pinned, but clamp with scalar bounds runs on the device: a clamp that
  // fell back did so for its inputs, not its name.
  EXPECT_EQ(InferCause("aten::clamp", std::nullopt), FallbackCause::kUnknown);
}

TEST(InputArgs, ParsesKinetoLayouts) {
  SyntheticTrace t;
  auto inputs = ReadOpInputs(
      t.Op("aten::cat", 0, 1,
           SyntheticTrace::Inputs("[[[2, 3], [2, 3]], [], null]", "[\"TensorList\", \"Scalar\"]")));
  ASSERT_TRUE(inputs.has_value());
  ASSERT_EQ(inputs->size(), 3u);
  EXPECT_TRUE((*inputs)[0].nested);
  EXPECT_EQ((*inputs)[1].type, "Scalar");
  EXPECT_TRUE((*inputs)[2].nested);
  // JSON text stored as a string arg, as some exporters write it.
  trace::Event& e = t.Op("aten::add", 0, 1);
  e.args.push_back({"Input Dims", std::string("[[4,100]]")});
  ASSERT_TRUE(ReadOpInputs(e).has_value());
  EXPECT_EQ(ReadOpInputs(e)->at(0).dims, (std::vector<int64_t>{4, 100}));
  trace::Event& bad = t.Op("aten::add", 0, 1);
  bad.args.push_back({"Input Dims", trace::RawJson{"[[4,"}});
  EXPECT_FALSE(ReadOpInputs(bad).has_value());
  EXPECT_EQ(BaseOpName("aten::add.Tensor"), "aten::add");
  EXPECT_EQ(BaseOpName("aten::add_"), "aten::add");
  EXPECT_EQ(BaseOpName("aten::_softmax"), "aten::_softmax");
  EXPECT_TRUE(IsDeviceSupportedOp("aten::linear"));
  EXPECT_FALSE(IsDeviceSupportedOp("aten::relu"));
}

TEST(Fallback, ReadsInputArgsAfterAChromeTraceRoundTrip) {
  // The importer keeps array args as raw JSON text; the detector reads them the same way.
  using B = rblnsim::testing::KinetoJsonBuilder;
  B b;
  const std::string shapes =
      "\"Input Dims\": [[4, 100], [4, 100]], \"Input type\": [\"c10::Half\", \"c10::Half\"]";
  b.Complete("cpu_op", "aten::add", 1, 1, 1000, 1000, shapes);
  b.Complete("cpu_op", "aten::to", 1, 1, 1010, 100);
  b.Complete("cpu_op", "aten::_to_copy", 1, 1, 1015, 90);
  b.Complete("cpu_op", "aten::copy_", 1, 1, 1020, 80);
  b.Complete("cpu_op", "aten::_copy_from", 1, 1, 1025, 70, "\"bytes\": 800");
  b.Complete("cpu_op", "aten::add", 1, 1, 1200, 100, shapes);
  b.Complete("cpu_op", "aten::copy_", 1, 1, 1400, 50);
  b.Complete("cpu_op", "aten::_copy_from", 1, 1, 1405, 40, "\"bytes\": 800");
  b.Complete("privateuse1_runtime", "rbln_run", 1, 1, 5000, 10, "\"launch_id\": 1");
  auto imported = trace::ImportChromeTraceFromBuffer(b.Build(), "t.json");
  ASSERT_TRUE(imported.ok()) << imported.status().message();
  const OverheadReport r = Detect(imported->trace);
  ASSERT_EQ(r.fallbacks.size(), 1u);
  EXPECT_EQ(r.fallbacks[0].cause, FallbackCause::kUnaligned);
  EXPECT_EQ(r.fallbacks[0].bytes_to_host, 800);
}

}  // namespace
}  // namespace rblnsim::analysis
