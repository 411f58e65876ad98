// The registry's keep list is complete: every registered analysis gives the same result on a trace
// imported with only KeptArgKeys() as on the same trace imported with every arg. An analysis that
// reads an arg its ...ArgKeys() does not list sees nothing under `rblnsim analyze` and fails here.
#include "profiler/analysis/registry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "base/concurrent_task.h"
#include "profiler/analysis/contract_checks.h"
#include "profiler/trace/import/chrome_trace_import.h"

namespace rblnsim::analysis {
namespace {

// Captures in both dialects with fallbacks (record_shapes args, bytes), launches and flows.
constexpr const char* kTraces[] = {
    "fallback_dtype_c_abi.json",           "fallback_dtype_current.json",
    "profile_matmul_c_abi.json",           "profile_matmul_current.json",
    "alignment_eager_mlp_sync_c_abi.json", "alignment_eager_mlp_sync_current.json",
};

std::string TracePath(const char* name) {
  return std::string(RBLNSIM_CAPTURE_CORPUS_DIR) + "/" + name;
}

size_t ArgCount(const trace::Trace& t) {
  size_t n = 0;
  for (const trace::Event& e : t.events)
    n += e.args.size();
  return n;
}

TEST(AnalysisRegistry, EveryAnalysisSeesTheArgsItReads) {
  ASSERT_FALSE(Analyses().empty());
  trace::ImportOptions kept_only;
  kept_only.keep_args = KeptArgKeys();
  for (const char* name : kTraces) {
    SCOPED_TRACE(name);
    auto full = trace::ImportChromeTrace(TracePath(name));
    ASSERT_TRUE(full.ok()) << full.status().message();
    auto kept = trace::ImportChromeTrace(TracePath(name), kept_only);
    ASSERT_TRUE(kept.ok()) << kept.status().message();
    // The comparison means something only if the keep list dropped args.
    EXPECT_LT(ArgCount(kept->trace), ArgCount(full->trace));
    auto full_index = index::TraceIndex::Build(full->trace);
    auto kept_index = index::TraceIndex::Build(kept->trace);
    ASSERT_TRUE(full_index.ok() && kept_index.ok());
    for (const AnalysisEntry& analysis : Analyses()) {
      EXPECT_EQ(analysis.run(*kept_index), analysis.run(*full_index)) << analysis.name;
    }
  }
}

TEST(AnalysisRegistry, DroppingAReadArgChangesAResult) {
  // The check above can fail: without "bytes" the round trips lose their sizes.
  trace::ImportOptions without_bytes;
  without_bytes.keep_args = KeptArgKeys();
  std::erase(*without_bytes.keep_args, "bytes");
  auto full = trace::ImportChromeTrace(TracePath("fallback_dtype_c_abi.json"));
  auto starved = trace::ImportChromeTrace(TracePath("fallback_dtype_c_abi.json"), without_bytes);
  ASSERT_TRUE(full.ok() && starved.ok());
  auto full_index = index::TraceIndex::Build(full->trace);
  auto starved_index = index::TraceIndex::Build(starved->trace);
  ASSERT_TRUE(full_index.ok() && starved_index.ok());
  bool any_differs = false;
  for (const AnalysisEntry& analysis : Analyses())
    any_differs |= analysis.run(*starved_index) != analysis.run(*full_index);
  EXPECT_TRUE(any_differs);
}

// `analyze --check` runs the contract beside the analyses on one index. Every analysis is run
// here on a second thread while every other one runs on this thread, and each must give what it
// gives alone. The tree built with RBLNSIM_TSAN runs this under ThreadSanitizer, which also
// reports any shared state the analyses would write while reading the index.
TEST(AnalysisRegistry, AnalysesSideBySideOnOneIndexGiveTheirResultsAlone) {
  ASSERT_GE(Analyses().size(), 2u);
  for (const char* name : kTraces) {
    SCOPED_TRACE(name);
    auto imported = trace::ImportChromeTrace(TracePath(name));
    ASSERT_TRUE(imported.ok()) << imported.status().message();
    auto index = index::TraceIndex::Build(imported->trace);
    ASSERT_TRUE(index.ok());
    std::vector<std::string> alone;
    for (const AnalysisEntry& analysis : Analyses())
      alone.push_back(analysis.run(*index));
    for (size_t beside = 0; beside < Analyses().size(); ++beside) {
      std::string on_second_thread;
      std::vector<std::string> on_this_thread(Analyses().size());
      {
        ConcurrentTask task;
        task.Start([&] { on_second_thread = Analyses()[beside].run(*index); });
        for (size_t i = 0; i < Analyses().size(); ++i) {
          if (i != beside)
            on_this_thread[i] = Analyses()[i].run(*index);
        }
        task.Wait();
      }
      EXPECT_EQ(on_second_thread, alone[beside]) << Analyses()[beside].name;
      for (size_t i = 0; i < Analyses().size(); ++i) {
        if (i != beside) {
          EXPECT_EQ(on_this_thread[i], alone[i]) << Analyses()[i].name;
        }
      }
    }
  }
}

TEST(AnalysisRegistry, KeptArgKeysAreTheUnionOnce) {
  const std::vector<std::string> all = KeptArgKeys();
  for (const AnalysisEntry& analysis : Analyses()) {
    for (const std::string& key : analysis.arg_keys())
      EXPECT_EQ(std::count(all.begin(), all.end(), key), 1) << analysis.name << " " << key;
  }
  constexpr std::string_view kContract[] = {"contract"};
  EXPECT_EQ(KeptArgKeys(kContract), ContractArgKeys());
  constexpr std::string_view kUnknown[] = {"no such analysis"};
  EXPECT_TRUE(KeptArgKeys(kUnknown).empty());
}

}  // namespace
}  // namespace rblnsim::analysis
