// A scenario document as an immutable tree that remembers where every node came from. yaml-cpp's
// own Node cannot do that across files: merged overlay nodes lose their file, and --set values
// have no file at all. Building our own tree from yaml-cpp's parser events also lets aliases stay
// shared (a DAG), with their expanded size counted as the tree is built, so an alias bomb is
// rejected in linear time before anything walks it.
#ifndef RBLNSIM_SCENARIO_YAML_TREE_H_
#define RBLNSIM_SCENARIO_YAML_TREE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "scenario/scenario.h"

namespace rblnsim::scenario {

// A file, or one --set argument.
struct Origin {
  std::string name;     // the path as given, or the whole --set text
  bool is_set = false;  // positions inside a --set are not reported
};

struct YamlNode;
using YamlNodePtr = std::shared_ptr<const YamlNode>;

struct YamlNode {
  enum class Kind { kNull, kScalar, kSequence, kMap };
  Kind kind = Kind::kNull;
  std::shared_ptr<const Origin> origin;
  int line = 1;                    // 1-based
  int column = 1;                  // 1-based
  std::string scalar;              // kScalar: the text as written, quotes removed
  bool quoted = false;             // kScalar: quoted or explicitly tagged, so always a string
  std::vector<YamlNodePtr> items;  // kSequence
  std::vector<std::pair<YamlNodePtr, YamlNodePtr>> entries;  // kMap: scalar key → value, in order
  // Nodes in this subtree with every alias expanded (saturates at INT64_MAX).
  int64_t expanded_size = 1;

  // The value for `key`, or nullptr. Linear in the map size; maps here are small.
  const YamlNode* Find(std::string_view key) const;
  const char* KindName() const;  // "null", "scalar", "sequence", "mapping"
};

// Recomputes node->expanded_size from its children, for edits that build new nodes.
void RecountExpandedSize(YamlNode* node);

// Limits that keep a hostile document cheap to reject.
inline constexpr int64_t kMaxExpandedNodes = 1'000'000;
inline constexpr int kMaxNestingDepth = 64;

// "file:line:column" or "--set text" for a node.
std::string FormatLocation(const YamlNode& node);
// An error pinned to `node`: "file:line:column: message".
Status NodeError(const YamlNode& node, const std::string& message);
// The SourceLoc the scenario structs carry.
SourceLoc ToSourceLoc(const YamlNode& node);

// Parses one YAML document. An empty or comment-only document gives nullptr. Syntax errors,
// several documents, duplicate keys, non-scalar keys, nesting deeper than kMaxNestingDepth and
// more than kMaxExpandedNodes after alias expansion are errors at their position.
StatusOr<YamlNodePtr> ParseYaml(std::string_view text, std::shared_ptr<const Origin> origin);

// Edits (yaml_edit.cc). Nodes are shared and immutable: an edit copies the nodes on its path.

// Deep merge: maps merge key by key, anything else in `overlay` replaces `base`, and a null value
// in an overlay map deletes the key. `budget` counts visited nodes (alias-bomb guard).
StatusOr<YamlNodePtr> MergeYaml(const YamlNodePtr& base,
                                const YamlNodePtr& overlay,
                                int64_t* budget);

// Sets the value at a dotted key path ("device.queue.depth"; a number selects a sequence item),
// creating maps as needed. A null value deletes the key. Keys the path creates, and errors about
// the path, are placed at `site` (default: `value`), e.g. the sweep key that named the path.
StatusOr<YamlNodePtr> SetAtPath(const YamlNodePtr& root,
                                std::string_view path,
                                const YamlNodePtr& value,
                                const YamlNode* site = nullptr);

// Applies one "--set path=value" argument; the value is parsed as a YAML scalar or flow node.
StatusOr<YamlNodePtr> ApplySetOverride(const YamlNodePtr& root, const std::string& set_text);

// `text` as a YAML double-quoted scalar, control characters escaped.
std::string YamlDoubleQuoted(std::string_view text);

// A node as a one-line YAML flow text that parses back to the same value ("16", "[64, 64]",
// "\"a b\""), for sweep values re-applied as --set.
std::string ToFlowYaml(const YamlNode& node);

}  // namespace rblnsim::scenario

#endif  // RBLNSIM_SCENARIO_YAML_TREE_H_
