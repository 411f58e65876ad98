#include "scenario/section.h"

#include <cmath>

#include "scenario/suggest.h"
#include "scenario/units.h"

namespace rblnsim::scenario {
namespace {

using Kind = YamlNode::Kind;

std::string Join(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

Status RangeError(const YamlNode& node,
                  const std::string& path,
                  const Range& range,
                  std::string_view shown) {
  return NodeError(node, "out of range: " + path + " must be " + range.Describe() + ", got " +
                             std::string(shown));
}

// Reads a dimensional value; `parse` converts the text and `value` gives the number to range-check.
template <typename T, typename Parse>
Status ReadUnit(const Section& section,
                std::string_view key,
                Range range,
                T* out,
                Parse parse,
                const char* expected) {
  const YamlNode* node = section.Get(key);
  if (node == nullptr) {
    return Status::Ok();
  }
  const std::string path = section.Path(key);
  RBLNSIM_ASSIGN_OR_RETURN(std::string_view text, ScalarText(*node, path, expected));
  StatusOr<T> value = parse(text);
  if (!value.ok()) {
    return NodeError(*node, path + ": " + value.status().message());
  }
  if (!range.Contains(static_cast<double>(*value))) {
    return RangeError(*node, path, range, "'" + Printable(text) + "'");
  }
  *out = *value;
  return Status::Ok();
}

}  // namespace

bool Range::Contains(double value) const {
  if (std::isnan(value)) {
    return false;
  }
  if (min_open ? value <= min : value < min) {
    return false;
  }
  if (max_open ? value >= max : value > max) {
    return false;
  }
  return true;
}

std::string Range::Describe() const {
  const bool has_min = std::isfinite(min);
  const bool has_max = std::isfinite(max);
  const auto bound = [&](double value) { return FormatNumber(value) + unit; };
  if (has_min && !has_max) {
    if (min == 0 && min_open) {
      return "positive";
    }
    return (min_open ? "greater than " : "at least ") + bound(min);
  }
  if (!has_min && has_max) {
    return (max_open ? "less than " : "at most ") + bound(max);
  }
  if (!has_min && !has_max) {
    return "a number";
  }
  return std::string(min_open ? "in (" : "in [") + bound(min) + ", " + bound(max) +
         (max_open ? ")" : "]");
}

std::string Quoted(std::string_view text) {
  return "'" + Printable(text) + "'";
}

StatusOr<std::string_view> ScalarText(const YamlNode& node,
                                      const std::string& path,
                                      const char* expected) {
  if (node.kind == Kind::kNull) {
    return NodeError(node, path + " has no value; expected " + expected);
  }
  if (node.kind != Kind::kScalar) {
    return NodeError(node, path + ": expected " + expected + ", got a " + node.KindName());
  }
  return std::string_view(node.scalar);
}

Status ExpectSequence(const YamlNode& node, const std::string& path) {
  if (node.kind == Kind::kSequence || node.kind == Kind::kNull) {
    return Status::Ok();
  }
  return NodeError(node, path + ": expected a list, got a " + node.KindName());
}

StatusOr<int64_t> ReadIntNode(const YamlNode& node, const std::string& path, Range range) {
  RBLNSIM_ASSIGN_OR_RETURN(std::string_view text, ScalarText(node, path, "an integer"));
  if (node.quoted) {
    return NodeError(node, path + ": expected an integer, got the string " + Quoted(text));
  }
  StatusOr<int64_t> value = ParseInteger(text);
  if (!value.ok()) {
    return NodeError(node, path + ": " + value.status().message());
  }
  if (!range.Contains(static_cast<double>(*value))) {
    return RangeError(node, path, range, text);
  }
  return *value;
}

StatusOr<double> ReadDoubleNode(const YamlNode& node, const std::string& path, Range range) {
  RBLNSIM_ASSIGN_OR_RETURN(std::string_view text, ScalarText(node, path, "a number"));
  if (node.quoted) {
    return NodeError(node, path + ": expected a number, got the string " + Quoted(text));
  }
  StatusOr<double> value = ParseNumber(text);
  if (!value.ok()) {
    return NodeError(node, path + ": " + value.status().message());
  }
  if (!range.Contains(*value)) {
    return RangeError(node, path, range, text);
  }
  return *value;
}

StatusOr<Section> Section::Open(const YamlNode* node,
                                std::string path,
                                std::vector<std::string_view> allowed) {
  if (node == nullptr || node->kind == Kind::kNull) {
    return Section(nullptr, std::move(path));
  }
  if (node->kind != Kind::kMap) {
    return NodeError(*node, (path.empty() ? std::string("the top level") : path) +
                                " must be a mapping of keys, got a " + node->KindName());
  }
  for (const auto& [key, value] : node->entries) {
    bool known = false;
    for (std::string_view name : allowed) {
      known = known || key->scalar == name;
    }
    if (!known) {
      const std::string where = path.empty() ? "at the top level" : "in " + path;
      return NodeError(*key, "unknown key " + Quoted(key->scalar) + " " + where +
                                 DidYouMean(key->scalar, allowed));
    }
  }
  return Section(node, std::move(path));
}

const YamlNode* Section::Get(std::string_view key) const {
  return node_ == nullptr ? nullptr : node_->Find(key);
}

const YamlNode* Section::KeyNode(std::string_view key) const {
  if (node_ == nullptr) {
    return nullptr;
  }
  for (const auto& [k, v] : node_->entries) {
    if (k->scalar == key) {
      return k.get();
    }
  }
  return nullptr;
}

std::string Section::Path(std::string_view key) const {
  return Join(path_, key);
}

Status Section::String(std::string_view key, std::string* out) const {
  const YamlNode* node = Get(key);
  if (node == nullptr) {
    return Status::Ok();
  }
  RBLNSIM_ASSIGN_OR_RETURN(std::string_view text, ScalarText(*node, Path(key), "a string"));
  *out = std::string(text);
  return Status::Ok();
}

Status Section::Bool(std::string_view key, bool* out) const {
  const YamlNode* node = Get(key);
  if (node == nullptr) {
    return Status::Ok();
  }
  RBLNSIM_ASSIGN_OR_RETURN(std::string_view text, ScalarText(*node, Path(key), "true or false"));
  if (!node->quoted && (text == "true" || text == "True" || text == "TRUE")) {
    *out = true;
  } else if (!node->quoted && (text == "false" || text == "False" || text == "FALSE")) {
    *out = false;
  } else {
    return NodeError(*node, Path(key) + ": expected true or false, got " + Quoted(text));
  }
  return Status::Ok();
}

Status Section::Int(std::string_view key, Range range, int64_t* out) const {
  const YamlNode* node = Get(key);
  if (node == nullptr) {
    return Status::Ok();
  }
  RBLNSIM_ASSIGN_OR_RETURN(*out, ReadIntNode(*node, Path(key), range));
  return Status::Ok();
}

Status Section::Int(std::string_view key, Range range, int* out) const {
  // Callers pass ranges inside int; clamp anyway so a wide range cannot overflow the cast.
  range.min = std::max(range.min, double{std::numeric_limits<int>::min()});
  range.max = std::min(range.max, double{std::numeric_limits<int>::max()});
  int64_t wide = *out;
  RBLNSIM_RETURN_IF_ERROR(Int(key, range, &wide));
  *out = static_cast<int>(wide);
  return Status::Ok();
}

Status Section::Double(std::string_view key, Range range, double* out) const {
  const YamlNode* node = Get(key);
  if (node == nullptr) {
    return Status::Ok();
  }
  RBLNSIM_ASSIGN_OR_RETURN(*out, ReadDoubleNode(*node, Path(key), range));
  return Status::Ok();
}

Status Section::Time(std::string_view key, Range range, double* out_ns) const {
  return ReadUnit(*this, key, range, out_ns, ParseTimeNs, "a time such as 850ns");
}

Status Section::TimeExact(std::string_view key, Range range, int64_t* out_ns) const {
  return ReadUnit(*this, key, range, out_ns, ParseTimeNsExact, "a time such as 1000s");
}

Status Section::Frequency(std::string_view key, Range range, double* out_ghz) const {
  return ReadUnit(*this, key, range, out_ghz, ParseFrequencyGhz, "a frequency such as 1GHz");
}

Status Section::Size(std::string_view key, Range range, int64_t* out_bytes) const {
  return ReadUnit(*this, key, range, out_bytes, ParseSizeBytes, "a size such as 64MiB");
}

Status Section::Bandwidth(std::string_view key, Range range, double* out_bytes_per_s) const {
  return ReadUnit(*this, key, range, out_bytes_per_s, ParseBandwidthBytesPerS,
                  "a bandwidth such as 1.2TB/s");
}

Status Section::Choice(std::string_view key,
                       const std::vector<std::string_view>& names,
                       int* out) const {
  const YamlNode* node = Get(key);
  if (node == nullptr) {
    return Status::Ok();
  }
  std::string list;
  for (std::string_view name : names) {
    list += (list.empty() ? "" : " | ") + std::string(name);
  }
  RBLNSIM_ASSIGN_OR_RETURN(std::string_view text, ScalarText(*node, Path(key), list.c_str()));
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == text) {
      *out = static_cast<int>(i);
      return Status::Ok();
    }
  }
  return NodeError(
      *node, Path(key) + ": " + Quoted(text) + " is not one of " + list + DidYouMean(text, names));
}

}  // namespace rblnsim::scenario
