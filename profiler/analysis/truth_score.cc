#include "profiler/analysis/truth_score.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

namespace rblnsim::analysis {

namespace {

constexpr size_t kMaxMismatches = 10;

// Multiset comparison of signal keys: equal keys pair up, the rest are missed or false.
SignalScore Match(std::string signal,
                  std::vector<std::string> truth,
                  std::vector<std::string> got) {
  SignalScore score;
  score.signal = std::move(signal);
  score.truth = static_cast<int64_t>(truth.size());
  std::sort(truth.begin(), truth.end());
  std::sort(got.begin(), got.end());
  auto note = [&](const char* what, const std::string& key) {
    if (score.mismatches.size() < kMaxMismatches)
      score.mismatches.push_back(what + key);
  };
  size_t t = 0;
  size_t g = 0;
  while (t < truth.size() || g < got.size()) {
    if (t < truth.size() && g < got.size() && truth[t] == got[g]) {
      ++score.found;
      ++t;
      ++g;
    } else if (g == got.size() || (t < truth.size() && truth[t] < got[g])) {
      ++score.missed;
      note("missed: ", truth[t++]);
    } else {
      ++score.false_signals;
      note("false: ", got[g++]);
    }
  }
  return score;
}

std::string BytesKey(bool known, int64_t to_host, int64_t to_device) {
  return known ? fmt::format(" ({} B to host, {} B to device)", to_host, to_device) : "";
}

void ScoreLatency(const TruthFile& truth, const LatencyReport& latency, TruthScore* score) {
  std::vector<std::pair<int64_t, int64_t>> measured;  // (launch_id, submission latency)
  for (const LaunchLatency& l : latency.launches) {
    if (l.has_device())
      measured.emplace_back(l.launch_id, l.submission_latency_ns());
  }
  std::sort(measured.begin(), measured.end());
  std::vector<int64_t> known_ids;
  for (const TruthFile::Launch& l : truth.launches) {
    known_ids.push_back(l.launch_id);
    if (l.failed)
      continue;
    ++score->launches_truth;
    auto it =
        std::lower_bound(measured.begin(), measured.end(), std::make_pair(l.launch_id, INT64_MIN));
    if (it == measured.end() || it->first != l.launch_id) {
      ++score->launches_missing;
      continue;
    }
    ++score->launches_matched;
    const int64_t error = std::llabs(it->second - l.latency_ns);
    score->latency_max_abs_error_ns = std::max(score->latency_max_abs_error_ns, error);
    if (error > score->latency_tolerance_ns)
      ++score->latency_over_tolerance;
  }
  std::sort(known_ids.begin(), known_ids.end());
  for (const auto& [id, value] : measured) {
    if (!std::binary_search(known_ids.begin(), known_ids.end(), id))
      ++score->launches_extra;
  }
}

}  // namespace

TruthScore ScoreAgainstTruth(const TruthFile& truth,
                             const LatencyReport& latency,
                             const OverheadReport& overhead,
                             int64_t latency_tolerance_ns) {
  TruthScore score;
  score.latency_tolerance_ns = latency_tolerance_ns;
  const bool bytes = overhead.bytes_known;

  std::vector<std::string> want;
  std::vector<std::string> got;
  // The shape is part of the key: a detector that calls a boxed fallback nested read the call
  // tree wrong even when it named the op and reason right.
  for (const auto& f : truth.fallbacks) {
    want.push_back(f.op + " " + f.reason + " [" + f.shape + "]" +
                   BytesKey(bytes, f.bytes_to_host, f.bytes_to_device));
  }
  for (const DetectedFallback& f : overhead.fallbacks) {
    got.push_back(f.op + " " + FallbackCauseName(f.cause) + " [" +
                  platform::FallbackShapeName(f.shape) + "]" +
                  BytesKey(bytes, f.bytes_to_host, f.bytes_to_device));
  }
  score.signals.push_back(Match("fallback", std::move(want), std::move(got)));

  // Instances are compared when the trace shows them for every recompile.
  // A failed compile has no instance on either side.
  const bool instances =
      std::all_of(overhead.recompiles.begin(), overhead.recompiles.end(),
                  [](const DetectedRecompile& r) { return r.failed || r.instance >= 0; });
  auto instance_text = [&](bool failed, int64_t instance) {
    return failed ? std::string(" (failed)") : instances ? " i" + std::to_string(instance) : "";
  };
  want.clear();
  got.clear();
  for (const auto& r : truth.recompiles) {
    want.push_back(r.op + instance_text(r.failed, r.instance) +
                   (r.eviction ? " (evicted before)" : ""));
  }
  for (const DetectedRecompile& r : overhead.recompiles) {
    got.push_back(r.op + instance_text(r.failed, r.instance) +
                  (r.eviction ? " (evicted before)" : ""));
  }
  score.signals.push_back(Match("recompile", std::move(want), std::move(got)));

  want.clear();
  got.clear();
  auto trip = [&](const std::string& reason, bool to_host, int64_t n) {
    return reason + (to_host ? " device_to_host" : " host_to_device") +
           (bytes ? " " + std::to_string(n) + " B" : "");
  };
  for (const auto& t : truth.round_trips)
    want.push_back(trip(t.reason, t.to_host, t.bytes));
  for (const DetectedRoundTrip& t : overhead.round_trips) {
    got.push_back(trip(BounceCauseName(t.cause), t.to_host, t.bytes));
  }
  score.signals.push_back(Match("round_trip", std::move(want), std::move(got)));

  SignalScore scans;
  scans.signal = "nan_inf_scan";
  scans.truth = truth.nan_inf_scans;
  scans.found = std::min(truth.nan_inf_scans, overhead.scans);
  scans.missed = truth.nan_inf_scans - scans.found;
  scans.false_signals = overhead.scans - scans.found;
  score.signals.push_back(std::move(scans));

  ScoreLatency(truth, latency, &score);
  score.passed =
      score.launches_missing == 0 && score.launches_extra == 0 && score.latency_over_tolerance == 0;
  for (const SignalScore& s : score.signals)
    score.passed &= s.missed == 0 && s.false_signals == 0;
  return score;
}

std::string FormatTruthScoreText(const TruthScore& score) {
  std::string out = fmt::format("ground truth: {}\n", score.passed ? "match" : "MISMATCH");
  for (const SignalScore& s : score.signals) {
    out += fmt::format("  {:<13} truth {:>6}  found {:>6}  missed {:>6}  false {:>6}\n", s.signal,
                       s.truth, s.found, s.missed, s.false_signals);
    for (const std::string& m : s.mismatches)
      out += "      " + m + "\n";
  }
  out += fmt::format(
      "  {:<13} {} of {} launches matched, {} missing, {} extra; max |error| {} ns (tolerance {} "
      "ns, {} over)\n",
      "latency", score.launches_matched, score.launches_truth, score.launches_missing,
      score.launches_extra, score.latency_max_abs_error_ns, score.latency_tolerance_ns,
      score.latency_over_tolerance);
  return out;
}

void WriteTruthScoreJson(const TruthScore& score, trace::JsonWriter* json) {
  json->BeginObject();
  json->Key("passed").Bool(score.passed);
  json->Key("signals").BeginArray();
  for (const SignalScore& s : score.signals) {
    json->BeginObject().Key("signal").String(s.signal).Key("truth").Int(s.truth);
    json->Key("found").Int(s.found).Key("missed").Int(s.missed).Key("false").Int(s.false_signals);
    json->Key("mismatches").BeginArray();
    for (const std::string& m : s.mismatches)
      json->String(m);
    json->EndArray().EndObject();
  }
  json->EndArray();
  json->Key("latency").BeginObject();
  json->Key("launches_truth").Int(score.launches_truth);
  json->Key("launches_matched").Int(score.launches_matched);
  json->Key("launches_missing").Int(score.launches_missing);
  json->Key("launches_extra").Int(score.launches_extra);
  json->Key("max_abs_error_ns").Int(score.latency_max_abs_error_ns);
  json->Key("tolerance_ns").Int(score.latency_tolerance_ns);
  json->Key("over_tolerance").Int(score.latency_over_tolerance);
  json->EndObject();
  json->EndObject();
}

}  // namespace rblnsim::analysis
