// The explain and latency reports (text and JSON), the plots, and scoring against a ground-truth
// file.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "profiler/analysis/explain_report.h"
#include "profiler/analysis/fallback_detect.h"
#include "profiler/analysis/latency_plots.h"
#include "profiler/analysis/latency_report.h"
#include "profiler/analysis/launch_latency.h"
#include "profiler/analysis/roofline_report.h"
#include "profiler/analysis/truth_score.h"
#include "profiler/index/trace_index.h"
#include "tests/unit/analysis_latency/synthetic_trace.h"

namespace rblnsim::analysis {
namespace {

using testing::SyntheticTrace;

// One fp32 add that falls back (2 downloads of 512 B, 1 upload), one compiled mm with a scan of
// one input, one launch with 1 us submission latency, and a .cpu() download.
SyntheticTrace Mixed() {
  SyntheticTrace t;
  t.Op("aten::add", 0, 1000, t.Inputs("[[8, 16], [8, 16]]", "[\"float\", \"float\"]"));
  t.Download(10, 512);
  t.Download(110, 512);
  t.Op("aten::add", 300, 100);
  t.Upload(500, 512);
  t.Op("aten::mm", 2000, 5000);
  t.Scan(2010, 0);
  t.Op("aten::mm", 3000, 3000);
  t.Marker(1, 3500, 100);
  t.Slice("i1_0_W0_mm_0", 1, 4500, 200);
  t.Download(8000, 4096);
  return t;
}

bool ValidJson(const std::string& text) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  return parser.parse(text).get(doc) == simdjson::SUCCESS;
}

TEST(ExplainReport, CleanTrace) {
  SyntheticTrace t;
  t.Op("aten::mm", 0, 1000);
  t.Marker(1, 100, 10);
  auto index = index::TraceIndex::Build(t.trace);
  ASSERT_TRUE(index.ok());
  const std::string text = FormatExplainText(DetectOverhead(*index));
  EXPECT_EQ(text.rfind("[clean]  RBLN EXPLAIN   (region wall 10.000ms | device mem: not in a "
                       "trace)\n  checked: host_bounce, cpu_fallback, recompile -- none fired\n",
                       0),
            0u)
      << text;
  EXPECT_NE(text.find("NPU rows"), std::string::npos) << text;
}

TEST(ExplainReport, SignalsTableDetailBlocksAndRuntimeLine) {
  const SyntheticTrace t = Mixed();
  auto index = index::TraceIndex::Build(t.trace);
  ASSERT_TRUE(index.ok());
  const OverheadReport r = DetectOverhead(*index);
  const std::string text = FormatExplainText(r);
  // One kind fired: the fallback. Its copies and the user's .cpu() are not host bounces.
  EXPECT_EQ(text.rfind("[overhead: 1 signal]  RBLN EXPLAIN   (", 0), 0u) << text;
  EXPECT_EQ(text.find("host_bounce/"), std::string::npos) << text;
  EXPECT_NE(text.find("Signal                 Count  Bytes  Note\n"), std::string::npos) << text;
  EXPECT_NE(text.find("dispatch/cpu_fallback      1     --  try: "), std::string::npos) << text;
  EXPECT_NE(text.find("\n  dispatch/cpu_fallback:  (sum 1.000us wall)\n    aten::add  1\n"
                      "    why: dtype-not-fp16 1\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("1 nested"), std::string::npos) << text;
  EXPECT_NE(text.find("their copies: 1.00 KB to the host, 512 B back to the device"),
            std::string::npos)
      << text;
  // Runtime copy calls that crossed: three 60 ns downloads (two fallback, one .cpu(); the scan's
  // read of 0 bytes was served on the host) and one 40 ns upload.
  EXPECT_NE(text.find("  runtime: 0.220us in copy calls (0.0% of region wall)\n"
                      "    v2h 180ns/3  h2v 40ns/1\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  nan/inf scan: 1 input scanned before dispatch"), std::string::npos)
      << text;
  EXPECT_EQ(ExplainRows(r).size(), 1u);

  trace::StringSink sink;
  trace::JsonWriter json(&sink);
  WriteExplainJson(r, &json);
  json.Finish();
  EXPECT_TRUE(ValidJson(sink.text())) << sink.text();
  EXPECT_NE(sink.text().find("\"reason\":\"dtype-not-fp16\",\"shape\":\"nested\""),
            std::string::npos)
      << sink.text();
  EXPECT_NE(sink.text().find("\"v2h\":{\"ns\":180,\"calls\":3}"), std::string::npos) << sink.text();
}

TEST(ExplainReport, UserCpuDownloadsAloneAreNotOverhead) {
  SyntheticTrace t;
  t.Download(0, 100);
  auto index = index::TraceIndex::Build(t.trace);
  ASSERT_TRUE(index.ok());
  const std::string text = FormatExplainText(DetectOverhead(*index));
  EXPECT_EQ(text.rfind("[clean]", 0), 0u) << text;
  EXPECT_NE(text.find("v2h 60ns/1"), std::string::npos) << text;
}

TEST(RooflineReport, RowsPerProgramWithTheirBound) {
  std::vector<RooflineLaunch> launches;
  // Two launches of one GEMV, HBM-bound; one GEMM, compute-bound; a small op whose launches take
  // longer to reach the device than to run there.
  for (int i = 0; i < 2; ++i)
    launches.push_back(
        {"aten::mm", "gemv", 1e8, int64_t{100'000'000}, 40'000, {5e3, 30e3, 0, 0, 8e3}, 12e3});
  launches.push_back(
      {"aten::mm", "gemm", 1e12, int64_t{1'000'000'000}, 1e6, {9e5, 1e5, 0, 0, 1e4}, 12e3});
  launches.push_back({"aten::add", "add", 1e3, int64_t{3000}, 2e3, {0, 0, 0, 0, 2e3}, 6e3});
  const std::vector<RooflineRow> rows = SummarizeRoofline(launches);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].program, "gemv");
  EXPECT_EQ(rows[0].launches, 2);
  EXPECT_EQ(platform::BoundName(rows[0].bound), std::string("hbm"));
  EXPECT_EQ(platform::BoundName(rows[1].bound), std::string("compute"));
  EXPECT_FALSE(rows[0].HostBound());
  EXPECT_TRUE(rows[2].HostBound());
  EXPECT_DOUBLE_EQ(rows[0].Intensity(), 1.0);
  EXPECT_DOUBLE_EQ(rows[0].BytesPerS(), 2.5e12);  // 200 MB in 80 us
  const RooflinePeaks peaks{1e15, 5e12};
  const std::string text = FormatRooflineText(rows, peaks);
  EXPECT_NE(text.find("ridge 200 FLOP/byte"), std::string::npos) << text;
  EXPECT_NE(text.find("2.50 TB/s         1.0       50%  hbm (70%)"), std::string::npos) << text;
  EXPECT_NE(text.find("host (75%)"), std::string::npos) << text;  // 6 of 8 us
  const report::LinePlot plot = RooflinePlot(rows, peaks);
  ASSERT_EQ(plot.series.size(), 4u);            // the roof and three points
  EXPECT_DOUBLE_EQ(plot.series[0].y[1], 1e15);  // the roof at the ridge
}

TEST(ExplainReport, NumberFormats) {
  EXPECT_EQ(CountText(0), "0");
  EXPECT_EQ(CountText(999), "999");
  EXPECT_EQ(CountText(1000), "1,000");
  EXPECT_EQ(CountText(1234567), "1,234,567");
  EXPECT_EQ(CountText(-1600), "-1,600");
  EXPECT_EQ(BytesText(-1), "--");
  EXPECT_EQ(BytesText(8), "8 B");
  EXPECT_EQ(BytesText(10000), "9.77 KB");
  EXPECT_EQ(BytesText(128 << 20), "128.00 MB");
}

TEST(LatencyReport, TextAndJson) {
  const SyntheticTrace t = Mixed();
  auto index = index::TraceIndex::Build(t.trace);
  ASSERT_TRUE(index.ok());
  const LatencyReport r = AnalyzeLaunchLatency(*index, LatencyOptions());
  const std::string text = FormatLatencyReportText(r);
  EXPECT_NE(text.find("1 launch, 1 with device work, 1 launching op"), std::string::npos) << text;
  EXPECT_NE(text.find("submission (all)          1       1.000us"), std::string::npos) << text;
  EXPECT_NE(text.find("launch delay (all)        1       0.900us"), std::string::npos) << text;
  EXPECT_NE(text.find("aten::mm                  1       1.000us"), std::string::npos) << text;
  EXPECT_NE(text.find("slow launches (> 1.000us = p99): none"), std::string::npos) << text;
  EXPECT_NE(text.find("queue length"), std::string::npos);
  trace::StringSink sink;
  trace::JsonWriter json(&sink);
  WriteLatencyReportJson(r, &json);
  json.Finish();
  ASSERT_TRUE(ValidJson(sink.text())) << sink.text();
  EXPECT_NE(sink.text().find("\"submission_latency_ns\":1000"), std::string::npos) << sink.text();
}

TEST(LatencyPlots, ThreeCharts) {
  const SyntheticTrace t = Mixed();
  auto index = index::TraceIndex::Build(t.trace);
  ASSERT_TRUE(index.ok());
  const LatencyReport r = AnalyzeLaunchLatency(*index, LatencyOptions());
  EXPECT_EQ(LatencyHistogram(r).values, std::vector<double>{1.0});
  EXPECT_EQ(QueueLengthPlot(r).series.at(0).y, (std::vector<double>{1, 0}));
  EXPECT_EQ(DeviceBusyPlot(t.trace, r).series.at(0).x.size(), static_cast<size_t>(kBusyBuckets));
  const LatencyPlots plots = RenderLatencyPlots(t.trace, r);
  if (plots.latency_histogram_svg.empty())
    GTEST_SKIP() << "report/svg_plot.cc renders nothing yet";
  EXPECT_NE(plots.latency_histogram_svg.find("<svg"), std::string::npos);
  EXPECT_NE(plots.queue_length_svg.find("<svg"), std::string::npos);
  EXPECT_NE(plots.device_busy_svg.find("<svg"), std::string::npos);
}

class TruthScoreTest : public ::testing::Test {
 protected:
  // The ground truth of Mixed(), as `rblnsim run --truth` would write it.
  // Mixed()'s fallback is the nested shape (the op again, then copy_ back).
  static TruthFile Truth(const std::string& fallback_reason,
                         int64_t latency_ns,
                         const std::string& shape = "nested") {
    TruthFile truth;
    truth.scenario = "mixed";
    TruthFile::Launch& launch = truth.launches.emplace_back();
    launch.launch_id = 1;
    launch.latency_ns = latency_ns;
    truth.fallbacks.push_back({"aten::add", fallback_reason, shape, 0, 1024, 512});
    truth.round_trips = {{"fallback", true, 512},
                         {"fallback", true, 512},
                         {"fallback", false, 512},
                         {"cpu()", true, 4096}};
    truth.nan_inf_scans = 1;
    return truth;
  }
  TruthScore Score(const TruthFile& written) {
    // One file per test: ctest runs the tests of this fixture in parallel processes.
    const std::string path = ::testing::TempDir() + "truth_score_" +
                             ::testing::UnitTest::GetInstance()->current_test_info()->name() +
                             ".json";
    EXPECT_TRUE(WriteTruthFile(path, written).ok());
    auto truth = ReadTruthFile(path);
    EXPECT_TRUE(truth.ok()) << truth.status().message();
    std::remove(path.c_str());
    auto index = index::TraceIndex::Build(trace_.trace);
    EXPECT_TRUE(index.ok());
    return ScoreAgainstTruth(*truth, AnalyzeLaunchLatency(*index, {}), DetectOverhead(*index));
  }
  SyntheticTrace trace_ = Mixed();
};

TEST_F(TruthScoreTest, Match) {
  const TruthScore s = Score(Truth("dtype-not-fp16", 1001));  // 1 ns off: within tolerance
  EXPECT_TRUE(s.passed) << FormatTruthScoreText(s);
  EXPECT_EQ(s.latency_max_abs_error_ns, 1);
  EXPECT_EQ(s.launches_matched, 1);
  EXPECT_NE(FormatTruthScoreText(s).find("ground truth: match"), std::string::npos);
}

TEST_F(TruthScoreTest, WrongReasonIsMissedPlusFalse) {
  const TruthScore s = Score(Truth("nan/inf input", 1000));
  EXPECT_FALSE(s.passed);
  EXPECT_EQ(s.signals[0].signal, "fallback");
  EXPECT_EQ(s.signals[0].missed, 1);
  EXPECT_EQ(s.signals[0].false_signals, 1);
  EXPECT_NE(FormatTruthScoreText(s).find("missed: aten::add nan/inf input"), std::string::npos);
}

TEST_F(TruthScoreTest, WrongShapeIsMissedPlusFalse) {
  const TruthScore s = Score(Truth("dtype-not-fp16", 1000, "boxed"));
  EXPECT_FALSE(s.passed);
  EXPECT_EQ(s.signals[0].missed, 1);
  EXPECT_NE(FormatTruthScoreText(s).find("missed: aten::add dtype-not-fp16 [boxed]"),
            std::string::npos)
      << FormatTruthScoreText(s);
}

TEST_F(TruthScoreTest, LatencyOffByTwoNsFails) {
  const TruthScore s = Score(Truth("dtype-not-fp16", 1002));
  EXPECT_FALSE(s.passed);
  EXPECT_EQ(s.latency_over_tolerance, 1);
  trace::StringSink sink;
  trace::JsonWriter json(&sink);
  WriteTruthScoreJson(s, &json);
  json.Finish();
  EXPECT_TRUE(ValidJson(sink.text()));
}

TEST(TruthFile, ErrorsNameTheFile) {
  const std::string path = ::testing::TempDir() + "bad_truth.json";
  std::ofstream(path) << R"({"format": 1, "scenario": "s", "launches": [{"launch_id": "x"}]})";
  auto truth = ReadTruthFile(path);
  ASSERT_FALSE(truth.ok());
  EXPECT_EQ(truth.status().message().rfind(path + ": ", 0), 0u) << truth.status().message();
  std::remove(path.c_str());
  EXPECT_FALSE(ReadTruthFile("/nonexistent/truth.json").ok());
}

TEST(TruthFile, WriterAndReaderRoundTrip) {
  TruthFile truth;
  truth.scenario = "round trip";
  truth.launches.push_back(
      {7, "aten::mm", 3, 2, 5, 100, 150, 180, 190, 50, 1.5, 2.5, 3.5, 4.5, true});
  truth.fallbacks.push_back({"aten::add", "dtype-not-fp16", "nested", 4, 64, 32});
  truth.recompiles.push_back({"aten::mm", "mm_128", 2, true, false});
  truth.recompiles.push_back({"aten::add", "add_29x31", 5, false, true});
  truth.round_trips.push_back({"cpu()", false, 4096});
  truth.nan_inf_scans = 2;
  truth.records_dropped = 1;
  truth.commands_timed_out = 3;
  const std::string path = ::testing::TempDir() + "round_trip_truth.json";
  ASSERT_TRUE(WriteTruthFile(path, truth).ok());
  auto read = ReadTruthFile(path);
  ASSERT_TRUE(read.ok()) << read.status().message();
  // Written again, the file is byte for byte the same: every field survived.
  const std::string again = path + ".again";
  ASSERT_TRUE(WriteTruthFile(again, *read).ok());
  std::ifstream a(path), b(again);
  const std::string first((std::istreambuf_iterator<char>(a)), std::istreambuf_iterator<char>());
  const std::string second((std::istreambuf_iterator<char>(b)), std::istreambuf_iterator<char>());
  EXPECT_EQ(first, second);
  EXPECT_EQ(first.find("{\n  \"format\": 3,"), 0u) << first;
  EXPECT_EQ(read->fallbacks.at(0).shape, "nested");
  EXPECT_TRUE(read->recompiles.at(0).eviction);
  EXPECT_FALSE(read->recompiles.at(0).failed);
  EXPECT_TRUE(read->recompiles.at(1).failed);
  EXPECT_EQ(read->launches.at(0).transport_ns, 4.5);
  EXPECT_TRUE(read->launches.at(0).failed);
  EXPECT_FALSE(read->round_trips.at(0).to_host);
  EXPECT_EQ(read->commands_timed_out, 3);
  std::remove(path.c_str());
  std::remove(again.c_str());
}

TEST(TruthFile, OtherFormatVersionsAreRefused) {
  const std::string path = ::testing::TempDir() + "versioned_truth.json";
  for (const char* text :
       {R"({"scenario": "s", "launches": []})", R"({"format": 1, "scenario": "s", "launches": []})",
        R"({"format": 2, "scenario": "s", "launches": []})"}) {
    std::ofstream(path) << text;
    auto truth = ReadTruthFile(path);
    ASSERT_FALSE(truth.ok()) << text;
    EXPECT_NE(truth.status().message().find("format"), std::string::npos)
        << truth.status().message();
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace rblnsim::analysis
