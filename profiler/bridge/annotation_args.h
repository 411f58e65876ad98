// A slice's annotations as trace args, and the memo that converts a launch's annotations once.
// A launch's slices (its marker and every device command) carry the same annotations, its
// launch_id, and each was converted anew: the key looked up, a raw value validated, the id
// parsed, the args encoded, about a third of the bridge's work per slice. The memo holds the
// last conversion and the counts it made; the next slice reuses it when its annotations are
// equal in content (not merely at the same address: a caller may reuse its buffers).
#ifndef RBLNSIM_PROFILER_BRIDGE_ANNOTATION_ARGS_H_
#define RBLNSIM_PROFILER_BRIDGE_ANNOTATION_ARGS_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "profiler/bridge/bridge_result.h"
#include "profiler/bridge/export_copy.h"
#include "profiler/trace/arg_list.h"

namespace rblnsim::bridge {

// A text standing in for a null string from the producer.
inline constexpr char kNullText[] = "(null)";

// The bridge's own arg keys, from a slice's typed fields.
inline constexpr std::string_view kCategoriesKey = "categories";
inline constexpr std::string_view kDeviceKey = "device";
inline constexpr std::string_view kStreamKey = "stream";
inline constexpr std::string_view kCorrelationKey = "correlation";

// Which of the bridge's own keys a slice adds after its annotations: an annotation under one of
// them yields to it, so the same annotations convert differently when these differ.
inline constexpr uint32_t kOwnCategories = 1u << 0;
inline constexpr uint32_t kOwnDeviceStreamCorrelation = 1u << 1;
inline constexpr uint32_t kOwnCorrelation = 1u << 2;

// The counts a conversion of annotations adds to BridgeStats.
struct AnnotationCounts {
  uint64_t null_strings = 0;
  uint64_t duplicate_arg_keys = 0;
  uint64_t invalid_raw_annotations = 0;
};

class AnnotationMemo {
 public:
  // What the last stored conversion made, for annotations equal to the ones it was made from.
  struct Converted {
    std::string_view encoded_args;  // as trace::ArgListBuilder::encoded() gave them
    uint32_t arg_count = 0;
    int64_t launch_id = 0;  // the first "launch_id" as a positive integer, else 0
    AnnotationCounts counts;
  };

  // The stored conversion if |annotations| equal the stored ones and |own_keys| do not change
  // it (they are equal, or no annotation is named like one of the bridge's keys); else null.
  const Converted* Find(std::span<const CopiedAnnotation> annotations, uint32_t own_keys) const;

  // Replaces the stored conversion with this one of |annotations|.
  void Store(std::span<const CopiedAnnotation> annotations,
             uint32_t own_keys,
             std::string_view encoded_args,
             uint32_t arg_count,
             int64_t launch_id,
             const AnnotationCounts& counts);

 private:
  // An annotation as stored: its texts in texts_, a null one as empty with its flag clear.
  struct Entry {
    uint32_t name_offset = 0;
    uint32_t name_size = 0;
    uint32_t value_offset = 0;
    uint32_t value_size = 0;
    bool has_name = false;
    bool has_value = false;
    int32_t value_is_quoted = 0;
  };
  bool Equal(const Entry& entry, const CopiedAnnotation& annotation) const;

  bool valid_ = false;
  uint32_t own_keys_ = 0;
  bool names_an_own_key_ = false;
  std::vector<Entry> entries_;
  std::string texts_;
  std::string encoded_;
  Converted converted_;
};

// Adds |annotations| to the empty |args| as a slice with |own_keys| carries them: in export
// order, a key once (a JSON object with repeated keys is read differently by different tools),
// an annotation under one of the bridge's own keys dropped (those come from the slice's typed
// fields), a raw value that is not JSON quoted, a null name or value as "(null)"; each of these
// counted in |stats|. Taken from |memo| when the last slice's annotations were the same, and
// stored there otherwise. Returns their launch id (AnnotatedLaunchId).
int64_t AddAnnotationArgs(std::span<const CopiedAnnotation> annotations,
                          uint32_t own_keys,
                          AnnotationMemo* memo,
                          trace::ArgListBuilder* args,
                          BridgeStats* stats);

}  // namespace rblnsim::bridge

#endif  // RBLNSIM_PROFILER_BRIDGE_ANNOTATION_ARGS_H_
