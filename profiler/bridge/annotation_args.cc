#include "profiler/bridge/annotation_args.h"

#include <array>
#include <cstring>

#include "profiler/bridge/flows.h"
#include "profiler/bridge/json_syntax.h"

namespace rblnsim::bridge {

namespace {

bool IsOwnKey(std::string_view name) {
  return name == kCategoriesKey || name == kDeviceKey || name == kStreamKey ||
         name == kCorrelationKey;
}

// Short texts, mostly a key and a number: sizes first, and no call for an empty one.
inline bool SameText(std::string_view stored, std::string_view text) {
  return stored.size() == text.size() &&
         (text.empty() || std::memcmp(stored.data(), text.data(), text.size()) == 0);
}

// Adds |annotations| to the empty |args|, in export order. A key may appear once per slice (a
// JSON object with repeated keys is read differently by different tools), and the bridge's own
// keys (|own_keys|) win because they come from the slice's typed fields.
void AddAnnotations(std::span<const CopiedAnnotation> annotations,
                    uint32_t own_keys,
                    trace::ArgListBuilder* args,
                    AnnotationCounts* counts) {
  // The bridge's own keys, named up front so annotations can yield to them. No second vector per
  // conversion: a linear look over a handful of keys.
  std::array<std::string_view, 4> own{};
  size_t own_count = 0;
  if ((own_keys & kOwnCategories) != 0)
    own[own_count++] = kCategoriesKey;
  if ((own_keys & kOwnDeviceStreamCorrelation) != 0) {
    own[own_count++] = kDeviceKey;
    own[own_count++] = kStreamKey;
    own[own_count++] = kCorrelationKey;
  } else if ((own_keys & kOwnCorrelation) != 0) {
    own[own_count++] = kCorrelationKey;
  }
  auto used = [&](const trace::ArgKey& key) {
    for (size_t i = 0; i < own_count; ++i)
      if (own[i] == key.text())
        return true;
    return args->Has(key);
  };
  for (const CopiedAnnotation& annotation : annotations) {
    std::string_view key = kNullText;
    if (annotation.name.has_value())
      key = *annotation.name;
    else
      ++counts->null_strings;
    const trace::ArgKey stored(key);  // one lookup for the check and the add
    if (used(stored)) {
      ++counts->duplicate_arg_keys;
      continue;
    }
    if (!annotation.value.has_value()) {
      ++counts->null_strings;
      args->Add(stored, annotation.value_is_quoted != 0
                            ? trace::ArgValueView(std::string_view(kNullText))
                            : trace::ArgValueView(trace::RawJsonView{"null"}));
    } else if (annotation.value_is_quoted != 0) {
      args->Add(stored, std::string_view(*annotation.value));
    } else if (IsValidJsonValue(*annotation.value)) {
      args->Add(stored, trace::RawJsonView{*annotation.value});
    } else {
      // Written verbatim it would corrupt the whole trace file; quoted it still shows.
      ++counts->invalid_raw_annotations;
      args->Add(stored, std::string_view(*annotation.value));
    }
  }
}

void AddCounts(const AnnotationCounts& counts, BridgeStats* stats) {
  stats->null_strings += counts.null_strings;
  stats->duplicate_arg_keys += counts.duplicate_arg_keys;
  stats->invalid_raw_annotations += counts.invalid_raw_annotations;
}

}  // namespace

inline bool AnnotationMemo::Equal(const Entry& entry, const CopiedAnnotation& annotation) const {
  if (entry.value_is_quoted != annotation.value_is_quoted ||
      entry.has_name != annotation.name.has_value() ||
      entry.has_value != annotation.value.has_value())
    return false;
  const char* texts = texts_.data();
  return (!entry.has_name ||
          SameText({texts + entry.name_offset, entry.name_size}, *annotation.name)) &&
         (!entry.has_value ||
          SameText({texts + entry.value_offset, entry.value_size}, *annotation.value));
}

const AnnotationMemo::Converted* AnnotationMemo::Find(std::span<const CopiedAnnotation> annotations,
                                                      uint32_t own_keys) const {
  if (!valid_ || annotations.size() != entries_.size())
    return nullptr;
  if (names_an_own_key_ && own_keys != own_keys_)
    return nullptr;
  for (size_t i = 0; i < annotations.size(); ++i) {
    if (!Equal(entries_[i], annotations[i]))
      return nullptr;
  }
  return &converted_;
}

void AnnotationMemo::Store(std::span<const CopiedAnnotation> annotations,
                           uint32_t own_keys,
                           std::string_view encoded_args,
                           uint32_t arg_count,
                           int64_t launch_id,
                           const AnnotationCounts& counts) {
  entries_.resize(annotations.size());
  texts_.clear();  // keeps its capacity from launch to launch
  names_an_own_key_ = false;
  for (size_t i = 0; i < annotations.size(); ++i) {
    const CopiedAnnotation& annotation = annotations[i];
    Entry& entry = entries_[i];
    entry.has_name = annotation.name.has_value();
    entry.has_value = annotation.value.has_value();
    entry.value_is_quoted = annotation.value_is_quoted;
    const std::string_view name = entry.has_name ? *annotation.name : std::string_view();
    const std::string_view value = entry.has_value ? *annotation.value : std::string_view();
    entry.name_offset = static_cast<uint32_t>(texts_.size());
    entry.name_size = static_cast<uint32_t>(name.size());
    texts_ += name;
    entry.value_offset = static_cast<uint32_t>(texts_.size());
    entry.value_size = static_cast<uint32_t>(value.size());
    texts_ += value;
    names_an_own_key_ = names_an_own_key_ || (entry.has_name && IsOwnKey(name));
  }
  own_keys_ = own_keys;
  encoded_.assign(encoded_args);
  converted_ = {encoded_, arg_count, launch_id, counts};
  valid_ = true;
}

int64_t AddAnnotationArgs(std::span<const CopiedAnnotation> annotations,
                          uint32_t own_keys,
                          AnnotationMemo* memo,
                          trace::ArgListBuilder* args,
                          BridgeStats* stats) {
  if (annotations.empty())
    return 0;
  if (const AnnotationMemo::Converted* known = memo->Find(annotations, own_keys)) {
    args->AppendEncoded(known->encoded_args, known->arg_count);
    AddCounts(known->counts, stats);
    return known->launch_id;
  }
  AnnotationCounts counts;
  AddAnnotations(annotations, own_keys, args, &counts);
  const int64_t launch_id = AnnotatedLaunchId(annotations);
  memo->Store(annotations, own_keys, args->encoded(), static_cast<uint32_t>(args->size()),
              launch_id, counts);
  AddCounts(counts, stats);
  return launch_id;
}

}  // namespace rblnsim::bridge
