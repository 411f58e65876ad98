// The versioned artifacts this layer owns: metrics.json, sweep point files and compare --json.
// Each reads back what its writer wrote, field for field, and refuses a file of another format
// version with one line that names the file and both versions.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "tests/unit/import/temp_dir_test.h"
#include "tests/unit/replace_first.h"
#include "tools/rblnsim/compare/compare_json.h"
#include "tools/rblnsim/lib/artifacts/metrics_file.h"
#include "tools/rblnsim/lib/sweep/sweep_point_file.h"

namespace rblnsim::cli {
namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void ExpectOneLineNaming(const Status& status, const std::string& path, const std::string& what) {
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message().find('\n'), std::string::npos) << status.message();
  EXPECT_NE(status.message().find(path), std::string::npos) << status.message();
  EXPECT_NE(status.message().find(what), std::string::npos) << status.message();
}

class ArtifactTest : public trace::TempDirTest {};

RunMetrics SampleMetrics() {
  RunMetrics m;
  m.scenario = "profile_matmul";
  m.seed = 8987877525781821;
  m.end_to_end_ns = 4070017.919999987;
  m.launches = 3;
  m.launches_per_s = 737.0974916985156;
  m.device_events = 18;
  m.self_rbln_total_ns = 36710;
  m.latency_p50_ns = 11650.0;
  m.latency_p90_ns = 11700.5;
  m.latency_p99_ns = 11800.0;
  m.latency_max_ns = 11900.0;
  m.fallbacks = 1;
  m.recompiles = 2;
  m.records_dropped = 3;
  m.commands_timed_out = 4;
  m.max_ring_occupancy = 5;
  m.engine_busy_pct = {{"chiplet0/Neural Engine Clusters", 0.30004781895407573},
                       {"chiplet0/Neural DMA", 0.1535973335464014}};
  m.device_busy_pct = 0.9019616306750836;
  return m;
}

TEST_F(ArtifactTest, MetricsReadBackAsWritten) {
  const std::string path = (dir_ / "metrics.json").string();
  const RunMetrics written = SampleMetrics();
  ASSERT_TRUE(WriteMetricsFile(path, written).ok());
  EXPECT_NE(ReadAll(path).find("\"format\": \"rblnsim-metrics/1\""), std::string::npos);
  auto read = ReadMetricsFile(path);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->scenario, written.scenario);
  EXPECT_EQ(read->seed, written.seed);
  EXPECT_EQ(read->end_to_end_ns, written.end_to_end_ns);
  EXPECT_EQ(read->launches, written.launches);
  EXPECT_EQ(read->launches_per_s, written.launches_per_s);
  EXPECT_EQ(read->device_events, written.device_events);
  EXPECT_EQ(read->self_rbln_total_ns, written.self_rbln_total_ns);
  EXPECT_EQ(read->latency_p50_ns, written.latency_p50_ns);
  EXPECT_EQ(read->latency_p90_ns, written.latency_p90_ns);
  EXPECT_EQ(read->latency_p99_ns, written.latency_p99_ns);
  EXPECT_EQ(read->latency_max_ns, written.latency_max_ns);
  EXPECT_EQ(read->fallbacks, written.fallbacks);
  EXPECT_EQ(read->recompiles, written.recompiles);
  EXPECT_EQ(read->records_dropped, written.records_dropped);
  EXPECT_EQ(read->commands_timed_out, written.commands_timed_out);
  EXPECT_EQ(read->max_ring_occupancy, written.max_ring_occupancy);
  EXPECT_EQ(read->engine_busy_pct, written.engine_busy_pct);
  EXPECT_EQ(read->device_busy_pct, written.device_busy_pct);
}

TEST_F(ArtifactTest, MetricsOfAnotherVersionOrWithoutOneAreRefused) {
  const std::string path = (dir_ / "metrics.json").string();
  ASSERT_TRUE(WriteMetricsFile(path, SampleMetrics()).ok());
  const std::string text = ReadAll(path);
  const std::string newer = Write(
      "newer.json", testing::ReplaceFirst(text, "\"rblnsim-metrics/1\"", "\"rblnsim-metrics/2\""));
  ExpectOneLineNaming(ReadMetricsFile(newer).status(), newer, "'rblnsim-metrics/2'");
  const std::string unversioned =
      Write("old.json", testing::ReplaceFirst(text, "\"format\": \"rblnsim-metrics/1\",", ""));
  ExpectOneLineNaming(ReadMetricsFile(unversioned).status(), unversioned, "no format field");
  const std::string truncated =
      Write("short.json", testing::ReplaceFirst(text, "\"device_busy_pct\"", "\"other\""));
  ExpectOneLineNaming(ReadMetricsFile(truncated).status(), truncated, "missing or mistyped");
}

PointRecord SamplePoint() {
  PointRecord p;
  p.key = "133f485f0d6e1ac9";
  p.index = 3;
  p.points_total = 10;
  p.sweep_id = "bb0cbb7868f4c855";
  p.scenario = "pcie_latency_sweep";
  p.params = {{"device.pcie.latency", "300ns"}, {"env.RBLN_RUNTIME_FORCE_SYNC", "1"}};
  p.seed = 8987877525781821;
  p.matmul_flops = 536870912.0;
  p.peak_flops_per_s = 1.048576e+15;
  p.device_active_ns = 151784.0;
  p.ok = true;
  p.metrics_json = R"({"format":"rblnsim-metrics/1","launches":16,"latency_p50_ns":1250.5})";
  return p;
}

TEST_F(ArtifactTest, PointRecordsReadBackAsWritten) {
  const std::string path = (dir_ / "point.json").string();
  const PointRecord written = SamplePoint();
  ASSERT_TRUE(WritePointRecord(path, written).ok());
  auto read = ReadPointRecord(path);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->key, written.key);
  EXPECT_EQ(read->index, written.index);
  EXPECT_EQ(read->points_total, written.points_total);
  EXPECT_EQ(read->sweep_id, written.sweep_id);
  EXPECT_EQ(read->scenario, written.scenario);
  EXPECT_EQ(read->params, written.params);
  EXPECT_EQ(read->seed, written.seed);
  EXPECT_EQ(read->matmul_flops, written.matmul_flops);
  EXPECT_EQ(read->peak_flops_per_s, written.peak_flops_per_s);
  EXPECT_EQ(read->device_active_ns, written.device_active_ns);
  EXPECT_TRUE(read->ok);
  EXPECT_EQ(read->metrics_json, written.metrics_json);

  PointRecord failed = written;
  failed.ok = false;
  failed.error = "rblnsim run exited 1";
  ASSERT_TRUE(WritePointRecord(path, failed).ok());
  auto read_failed = ReadPointRecord(path);
  ASSERT_TRUE(read_failed.ok()) << read_failed.status().message();
  EXPECT_FALSE(read_failed->ok);
  EXPECT_EQ(read_failed->error, failed.error);
}

TEST_F(ArtifactTest, PointRecordsOfAnotherVersionAreRefused) {
  const std::string path = (dir_ / "point.json").string();
  ASSERT_TRUE(WritePointRecord(path, SamplePoint()).ok());
  const std::string newer =
      Write("newer.json", testing::ReplaceFirst(ReadAll(path), "\"rblnsim-sweep-point/1\"",
                                                "\"rblnsim-sweep-point/2\""));
  ExpectOneLineNaming(ReadPointRecord(newer).status(), newer, "'rblnsim-sweep-point/2'");
}

CompareDocument SampleComparison() {
  DigestSlice slice;
  slice.key = "mm_1";
  slice.engine_class = "Neural Engine Clusters";
  slice.kind = EngineKind::kMatmul;
  slice.start_ns = 100;
  slice.dur_ns = 40;
  DigestLaunch launch;
  launch.op = "aten::mm";
  launch.slices = {slice};
  launch.device_ns = 40;
  TraceDigest sim;
  sim.launches = {launch, launch};
  sim.host_ops["aten::mm"] = {2, 300.0, {}, {}};
  sim.device_keys["mm_1"] = 2;
  sim.device_events = 2;
  TraceDigest hw = sim;
  hw.launches[1].slices[0].dur_ns = 80;
  hw.launches[1].device_ns = 80;
  hw.launches.push_back(launch);
  hw.fallbacks["aten::sort"] = 1;
  hw.device_events = 3;
  sim.lanes["Neural Engine Clusters"] = {EngineKind::kMatmul, 2, 80};
  hw.lanes["Neural Engine Clusters"] = {EngineKind::kMatmul, 3, 160};
  hw.lanes["Device Sync"] = {EngineKind::kSync, 1, 5};
  CompareHeader header;
  header.scenario = "profile_matmul";
  header.scenario_hash = "1819fae1fef47e68";
  header.trace_path = "/tmp/card/trace.json";
  header.tolerance.relative_pct = 3.0;
  header.import_json = R"({"dropped":{"bad_ts":2},"events":12})";
  return MakeCompareDocument(header, CompareDigests(sim, hw, header.tolerance));
}

TEST_F(ArtifactTest, CompareDocumentsReadBackAsWritten) {
  const std::string path = (dir_ / "compare.json").string();
  const CompareDocument w = SampleComparison();
  ASSERT_FALSE(w.differences.empty());  // the sample exercises every array
  ASSERT_FALSE(w.fallbacks.empty());
  ASSERT_TRUE(WriteCompareDocument(path, w).ok());
  auto r = ReadCompareDocument(path);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->scenario, w.scenario);
  EXPECT_EQ(r->scenario_hash, w.scenario_hash);
  EXPECT_EQ(r->trace_path, w.trace_path);
  EXPECT_EQ(r->tolerance.relative_pct, 3.0);
  EXPECT_EQ(r->tolerance.absolute_ns, w.tolerance.absolute_ns);
  EXPECT_EQ(r->import_json, w.import_json);
  EXPECT_EQ(r->launches_matched, 2);
  EXPECT_EQ(r->launches_only_hw, 1);
  EXPECT_EQ(r->commands_matched, w.commands_matched);
  ASSERT_EQ(r->ops.size(), w.ops.size());
  EXPECT_EQ(r->ops[0].op, "aten::mm");
  EXPECT_EQ(r->ops[0].hw_launches, 3);
  EXPECT_EQ(r->ops[0].hw_without_device, w.ops[0].hw_without_device);
  EXPECT_EQ(r->ops[0].sim_without_device, w.ops[0].sim_without_device);
  EXPECT_EQ(r->ops[0].hw_device_ns, w.ops[0].hw_device_ns);
  EXPECT_EQ(r->ops[0].hw_latency.p50_ns, w.ops[0].hw_latency.p50_ns);
  ASSERT_EQ(r->lanes.size(), 2u);
  EXPECT_EQ(r->lanes[0].lane, "Device Sync");
  EXPECT_EQ(r->lanes[0].sim_slices, 0);
  EXPECT_EQ(r->lanes[0].hw_ns, 5);
  EXPECT_EQ(r->lanes[1].kind, EngineKind::kMatmul);
  EXPECT_EQ(r->lanes[1].sim_ns, 80);
  EXPECT_EQ(r->lanes[1].hw_slices, 3);
  ASSERT_EQ(r->classes.size(), 1u);
  EXPECT_EQ(r->classes[0].kind, EngineKind::kMatmul);
  EXPECT_EQ(r->classes[0].hw_ns, w.classes[0].hw_ns);
  EXPECT_EQ(r->hw_latency.count, w.hw_latency.count);
  ASSERT_EQ(r->host_ops.size(), 1u);
  EXPECT_EQ(r->host_ops[0].sim_self_ns, 150.0);
  EXPECT_EQ(r->sim_device_events, 2);
  EXPECT_EQ(r->hw_device_events, 3);
  ASSERT_EQ(r->fallbacks.size(), 1u);
  EXPECT_EQ(r->fallbacks[0].name, "aten::sort");
  EXPECT_EQ(r->fallbacks[0].hw, 1);
  EXPECT_EQ(r->error.op_device_mean_pct, w.error.op_device_mean_pct);
  EXPECT_EQ(r->error.host_self_pct, w.error.host_self_pct);
  ASSERT_EQ(r->differences.size(), w.differences.size());
  for (size_t i = 0; i < w.differences.size(); ++i) {
    EXPECT_EQ(r->differences[i].kind, w.differences[i].kind);
    EXPECT_EQ(r->differences[i].what, w.differences[i].what);
    EXPECT_EQ(r->differences[i].sim, w.differences[i].sim);
    EXPECT_EQ(r->differences[i].hw, w.differences[i].hw);
  }
}

TEST_F(ArtifactTest, CompareDocumentsOfAnotherVersionAreRefused) {
  const std::string path = (dir_ / "compare.json").string();
  ASSERT_TRUE(WriteCompareDocument(path, SampleComparison()).ok());
  const std::string text = ReadAll(path);
  const std::string newer = Write(
      "newer.json", testing::ReplaceFirst(text, "\"rblnsim-compare/2\"", "\"rblnsim-compare/7\""));
  ExpectOneLineNaming(ReadCompareDocument(newer).status(), newer, "'rblnsim-compare/7'");
  const std::string unversioned =
      Write("old.json", testing::ReplaceFirst(text, "\"format\": \"rblnsim-compare/2\",", ""));
  ExpectOneLineNaming(ReadCompareDocument(unversioned).status(), unversioned, "no format field");
}

}  // namespace
}  // namespace rblnsim::cli
