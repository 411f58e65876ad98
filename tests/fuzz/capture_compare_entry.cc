// capture_compare_fuzzer: arbitrary bytes as a captured trace, through what `rblnsim compare`
// and `rblnsim calibrate` make of a card's trace: the digest (launches, device slices by lane or
// engine, host self times, fallbacks) and the comparison. A trace compared with itself is the
// one input whose answer is known: no difference, every launch and command matched, no error.
#include <cmath>
#include <string>
#include <string_view>

#include "profiler/trace/dialect.h"
#include "profiler/trace/import/chrome_trace_import.h"
#include "tests/fuzz/fuzz_entries.h"
#include "tools/rblnsim/lib/compare/compare_digest.h"
#include "tools/rblnsim/lib/compare/compare_match.h"

namespace rblnsim::fuzz {

std::string FuzzCaptureCompare(const uint8_t* data, size_t size) {
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  auto imported = trace::ImportChromeTraceFromBuffer(json, "capture.json");
  if (!imported.ok())
    return "";  // the import's own contract is trace_import_fuzzer's
  (void)trace::DetectDialect(imported->trace);
  auto digest = cli::DigestTrace(imported->trace);
  if (!digest.ok()) {
    const std::string message = digest.status().message();
    return message.empty() || message.find('\n') != std::string::npos
               ? "a digest error that is not one line: " + message
               : "";
  }
  const cli::Comparison self = cli::CompareDigests(*digest, *digest, cli::CompareTolerance{});
  if (!self.differences.empty()) {
    const cli::Difference& d = self.differences.front();
    return "a trace differs from itself: " + d.kind + " " + d.what;
  }
  if (self.unmatched_sim_launches != 0 || self.unmatched_hw_launches != 0 ||
      self.unmatched_sim_slices != 0 || self.unmatched_hw_slices != 0) {
    return "a trace compared with itself left launches or commands unmatched";
  }
  const cli::FitError error = cli::ComputeFitError(self);
  const double objective = error.Objective();
  if (!std::isfinite(objective) || objective > 1e-9)
    return "a trace compared with itself has a fit error of " + std::to_string(objective);
  return "";
}

}  // namespace rblnsim::fuzz
