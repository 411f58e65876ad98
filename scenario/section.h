// Typed, range-checked reads of one mapping in a scenario document. Every scenario section
// ("device.queue", "host", a tensor, a step) is read through a Section, so unknown keys, wrong
// types, missing units and out-of-range values produce the same one-line errors everywhere.
#ifndef RBLNSIM_SCENARIO_SECTION_H_
#define RBLNSIM_SCENARIO_SECTION_H_

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "scenario/yaml_tree.h"

namespace rblnsim::scenario {

// An allowed interval for a number, with its description for error messages.
struct Range {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_open = false;
  bool max_open = false;
  const char* unit = "";  // the base unit the bounds are in, for messages ("ns", "B/s")

  bool Contains(double value) const;
  std::string Describe() const;  // "at least 1", "positive", "in (0, 1]"
};

inline Range Any() {
  return Range{};
}
inline Range AtLeast(double min) {
  return Range{min};
}
inline Range Positive() {
  return Range{0, Range{}.max, true, false};
}
inline Range Between(double min, double max) {
  return Range{min, max, false, false};
}
inline Range Fraction() {
  return Range{0, 1, true, false};
}  // (0, 1]
inline Range HalfOpenUnit() {
  return Range{0, 1, false, true};
}  // [0, 1)

class Section {
 public:
  // `node` may be absent (nullptr) or an explicit null: both read as an empty mapping, so every
  // key keeps its default. `path` is the dotted key path ("" for the top level).
  static StatusOr<Section> Open(const YamlNode* node,
                                std::string path,
                                std::vector<std::string_view> allowed);

  const YamlNode* node() const { return node_; }
  const std::string& path() const { return path_; }
  const YamlNode* Get(std::string_view key) const;  // nullptr when absent
  std::string Path(std::string_view key) const;     // "device.queue" + "depth"
  // The key node itself, for errors about the key rather than its value.
  const YamlNode* KeyNode(std::string_view key) const;

  // Each reader leaves *out untouched when the key is absent.
  Status String(std::string_view key, std::string* out) const;
  Status Bool(std::string_view key, bool* out) const;
  Status Int(std::string_view key, Range range, int64_t* out) const;
  Status Int(std::string_view key, Range range, int* out) const;
  Status Double(std::string_view key, Range range, double* out) const;
  Status Time(std::string_view key, Range range, double* out_ns) const;
  Status TimeExact(std::string_view key, Range range, int64_t* out_ns) const;
  Status Frequency(std::string_view key, Range range, double* out_ghz) const;
  Status Size(std::string_view key, Range range, int64_t* out_bytes) const;
  Status Bandwidth(std::string_view key, Range range, double* out_bytes_per_s) const;
  // One of `names`; *out becomes its index.
  Status Choice(std::string_view key, const std::vector<std::string_view>& names, int* out) const;

  template <typename T>
  Status Enum(std::string_view key,
              const std::vector<std::pair<std::string_view, T>>& choices,
              T* out) const {
    std::vector<std::string_view> names;
    for (const auto& choice : choices) {
      names.push_back(choice.first);
    }
    int index = -1;
    RBLNSIM_RETURN_IF_ERROR(Choice(key, names, &index));
    if (index >= 0) {
      *out = choices[index].second;
    }
    return Status::Ok();
  }

 private:
  Section(const YamlNode* node, std::string path) : node_(node), path_(std::move(path)) {}

  const YamlNode* node_;  // a mapping, or nullptr for an absent/empty section
  std::string path_;
};

// The scalar text of `node`, or an error naming `path` and what was expected instead.
StatusOr<std::string_view> ScalarText(const YamlNode& node,
                                      const std::string& path,
                                      const char* expected);
// Node must be a sequence (an explicit null reads as empty).
Status ExpectSequence(const YamlNode& node, const std::string& path);
// A non-negative integer from a plain scalar, for list items such as shape dims.
StatusOr<int64_t> ReadIntNode(const YamlNode& node, const std::string& path, Range range);
StatusOr<double> ReadDoubleNode(const YamlNode& node, const std::string& path, Range range);
// Double-quoted, escaped: how error messages show user text.
std::string Quoted(std::string_view text);

}  // namespace rblnsim::scenario

#endif  // RBLNSIM_SCENARIO_SECTION_H_
