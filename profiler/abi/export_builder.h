// Materialises a ProducerCapture as the flat C arrays of RblnKinetoExport: device cycles become
// steady-clock ns through the clock fit, every launch's rbln_run marker and device slices carry
// the same launch_id annotation and corr_id. The builder owns every string and array the view
// points into, so the view is valid exactly as long as the builder.
#ifndef RBLNSIM_PROFILER_ABI_EXPORT_BUILDER_H_
#define RBLNSIM_PROFILER_ABI_EXPORT_BUILDER_H_

#include <string>
#include <vector>

#include "profiler/abi/producer_capture.h"
#include "profiler/abi/rbln_kineto_api.h"

namespace rblnsim::abi {

class ExportBuilder {
 public:
  // Takes the capture: its name strings become the export's (a session has one per command).
  ExportBuilder(ProducerCapture capture, double nominal_ghz);
  ExportBuilder(const ExportBuilder&) = delete;
  ExportBuilder& operator=(const ExportBuilder&) = delete;

  const RblnKinetoExport& view() const { return view_; }
  bool empty() const { return slices_.empty(); }

 private:
  std::vector<std::string> device_names_;
  std::vector<std::string> lane_names_;
  SliceNames slice_names_;
  std::vector<std::vector<std::string>> category_sets_;
  std::vector<std::vector<const char*>> category_ptrs_;
  std::vector<char> launch_text_;  // launch_id values as JSON number text, each NUL-ended
  std::vector<RblnKinetoAnnotation> annotations_;
  std::vector<RblnKinetoDevice> devices_;
  std::vector<RblnKinetoLane> lanes_;
  std::vector<RblnKinetoSlice> slices_;
  RblnKinetoExport view_{};
};

}  // namespace rblnsim::abi

#endif  // RBLNSIM_PROFILER_ABI_EXPORT_BUILDER_H_
