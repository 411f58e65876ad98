#include "tools/rblnsim/run/expectations.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "profiler/report/device_events.h"
#include "tools/rblnsim/run/run_outputs.h"

namespace rblnsim::cli {

namespace {

class Printer {
 public:
  explicit Printer(std::FILE* out) : out_(out) {}
  void Check(bool ok, const std::string& what, const std::string& actual) {
    if (!any_)
      std::fprintf(out_, "\nexpectations:\n");
    any_ = true;
    std::fprintf(out_, "  %s  %s (got %s)\n", ok ? "PASS" : "FAIL", what.c_str(), actual.c_str());
    all_ok_ &= ok;
  }
  bool all_ok() const { return all_ok_; }

 private:
  std::FILE* out_;
  bool any_ = false;
  bool all_ok_ = true;
};

}  // namespace

bool CheckExpectations(const scenario::Scenario& scenario,
                       const trace::Trace& trace,
                       const std::vector<const trace::Event*>& device_events,
                       const sim::SessionData& session,
                       std::FILE* out) {
  const scenario::Expect& expect = scenario.expect;
  Printer p(out);
  if (expect.device_events) {
    p.Check(static_cast<int64_t>(device_events.size()) == *expect.device_events,
            "device_events == " + std::to_string(*expect.device_events),
            std::to_string(device_events.size()));
  }
  if (expect.self_rbln_total_us) {
    int64_t total_ns = 0;
    for (const trace::Event* e : device_events)
      total_ns += e->dur_ns;
    const double got_us = static_cast<double>(total_ns) / 1000.0;
    const double want = *expect.self_rbln_total_us;
    char what[160];
    std::snprintf(what, sizeof(what), "self_rbln_total_us within %.0f%% of %.3f",
                  expect.self_rbln_tolerance * 100, want);
    char got[64];
    std::snprintf(got, sizeof(got), "%.3f", got_us);
    p.Check(std::fabs(got_us - want) <= expect.self_rbln_tolerance * want, what, got);
  }
  if (!expect.op_calls.empty()) {
    // Only the ops the scenario names are counted, looked up by the event's own text.
    std::map<std::string, int64_t, std::less<>> calls;
    for (const auto& [op, want] : expect.op_calls)
      calls.emplace(op, 0);
    for (const trace::Event& e : trace.events) {
      if (e.category != trace::Category::kCpuOp)
        continue;
      if (auto it = calls.find(e.name.view()); it != calls.end())
        ++it->second;
    }
    for (const auto& [op, want] : expect.op_calls) {
      p.Check(calls.at(op) == want, "op_calls[" + op + "] == " + std::to_string(want),
              std::to_string(calls.at(op)));
    }
  }
  if (expect.latency_p99_max_ns) {
    const std::vector<double> latencies = SortedSubmissionLatenciesNs(session.truth);
    const double p99 = NearestRank(latencies, 99);
    char what[96];
    std::snprintf(what, sizeof(what), "latency_p99 <= %.0f ns", *expect.latency_p99_max_ns);
    char got[64];
    std::snprintf(got, sizeof(got), "%.0f ns over %zu launches", p99, latencies.size());
    p.Check(!latencies.empty() && p99 <= *expect.latency_p99_max_ns, what, got);
  }
  if (expect.fallbacks) {
    p.Check(static_cast<int64_t>(session.truth.fallbacks.size()) == *expect.fallbacks,
            "fallbacks == " + std::to_string(*expect.fallbacks),
            std::to_string(session.truth.fallbacks.size()));
  }
  if (expect.no_fallbacks && *expect.no_fallbacks) {
    // Names the first op that ran on the CPU, so the failure says where to look.
    std::string got = "none";
    if (!session.truth.fallbacks.empty()) {
      const sim::FallbackTruth& first = session.truth.fallbacks.front();
      got = std::to_string(session.truth.fallbacks.size()) + ", first " + first.op + " (" +
            sim::FallbackReasonName(first.reason) + ")";
    }
    p.Check(session.truth.fallbacks.empty(), "no_fallbacks", got);
  }
  return p.all_ok();
}

}  // namespace rblnsim::cli
