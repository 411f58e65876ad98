// The edits a loader makes to a parsed document before validating it: overlay merges, --set paths
// and the flow-text form of sweep values. Nodes are immutable and shared, so every edit copies the
// path it changes and keeps the rest.
#include <unordered_map>

#include "scenario/suggest.h"
#include "scenario/yaml_tree.h"

namespace rblnsim::scenario {
namespace {

using Kind = YamlNode::Kind;

// Whether `text` can be written as a plain scalar inside a flow collection and read back as is.
bool IsPlainSafe(const std::string& text) {
  if (text.empty() || text.front() == ' ' || text.back() == ' ') {
    return false;
  }
  if (text.find_first_of(",[]{}#&*!|>'\"%@`\n\t\\") != std::string::npos) {
    return false;
  }
  if (text.find(": ") != std::string::npos || text.back() == ':') {
    return false;
  }
  // "-", "?" and ":" start a plain scalar only when a non-space follows ("-5" but not "- x").
  const bool indicator = text.front() == '-' || text.front() == '?' || text.front() == ':';
  return !indicator || (text.size() > 1 && text[1] != ' ');
}

std::string DoubleQuotedImpl(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

StatusOr<YamlNodePtr> MergeYaml(const YamlNodePtr& base,
                                const YamlNodePtr& overlay,
                                int64_t* budget) {
  if (overlay == nullptr) {
    return base;
  }
  if (--*budget < 0) {
    return NodeError(*overlay, "too many nodes to merge (YAML alias bomb?)");
  }
  if (base == nullptr || base->kind != Kind::kMap || overlay->kind != Kind::kMap) {
    return overlay;
  }
  auto merged = std::make_shared<YamlNode>(*base);
  // An index keeps merging two large maps (many tensors, say) linear.
  std::unordered_map<std::string_view, size_t> index;
  for (size_t i = 0; i < merged->entries.size(); ++i) {
    index[merged->entries[i].first->scalar] = i;
  }
  for (const auto& [key, value] : overlay->entries) {
    const auto it = index.find(key->scalar);
    if (it == index.end()) {
      if (value->kind == Kind::kNull) {
        continue;
      }
      index[key->scalar] = merged->entries.size();
      merged->entries.emplace_back(key, value);
    } else if (value->kind == Kind::kNull) {
      merged->entries[it->second].second = nullptr;  // deleted; compacted below
    } else {
      YamlNodePtr& slot = merged->entries[it->second].second;
      RBLNSIM_ASSIGN_OR_RETURN(slot, MergeYaml(slot, value, budget));
    }
  }
  std::erase_if(merged->entries, [](const auto& entry) { return entry.second == nullptr; });
  RecountExpandedSize(merged.get());
  return YamlNodePtr(merged);
}

namespace {

// Nodes the path creates, and errors about the path, take their position from `site`.
StatusOr<YamlNodePtr> SetRecursive(const YamlNodePtr& node,
                                   const std::vector<std::string>& keys,
                                   size_t index,
                                   const YamlNodePtr& value,
                                   const YamlNode& site) {
  if (index == keys.size()) {
    return value->kind == Kind::kNull ? YamlNodePtr() : value;
  }
  const std::string& key = keys[index];
  std::string prefix;
  for (size_t i = 0; i < index; ++i) {
    prefix += (i ? "." : "") + keys[i];
  }
  if (node != nullptr && node->kind == Kind::kSequence) {
    const bool is_index =
        !key.empty() && key.size() < 10 && key.find_first_not_of("0123456789") == std::string::npos;
    const size_t item = is_index ? std::stoul(key) : node->items.size();
    if (item >= node->items.size()) {
      return NodeError(site, "'" + prefix + "' is a sequence of " +
                                 std::to_string(node->items.size()) + " items; '" + Printable(key) +
                                 "' is not an index into it");
    }
    auto copy = std::make_shared<YamlNode>(*node);
    RBLNSIM_ASSIGN_OR_RETURN(YamlNodePtr child,
                             SetRecursive(copy->items[item], keys, index + 1, value, site));
    if (child == nullptr) {
      return NodeError(site, "cannot delete a sequence item");
    }
    copy->items[item] = child;
    RecountExpandedSize(copy.get());
    return YamlNodePtr(copy);
  }
  if (node != nullptr && node->kind != Kind::kMap && node->kind != Kind::kNull) {
    return NodeError(site, "'" + prefix + "' is a " + node->KindName() + ", not a mapping; " +
                               "cannot set '" + Printable(key) + "' inside it");
  }
  std::shared_ptr<YamlNode> copy;
  if (node != nullptr && node->kind == Kind::kMap) {
    copy = std::make_shared<YamlNode>(*node);
  } else {
    copy = std::make_shared<YamlNode>(site);  // a new map, placed at the site
    copy->kind = Kind::kMap;
    copy->scalar.clear();
    copy->items.clear();
    copy->entries.clear();
  }
  auto it = copy->entries.begin();
  while (it != copy->entries.end() && it->first->scalar != key) {
    ++it;
  }
  const YamlNodePtr existing = it != copy->entries.end() ? it->second : nullptr;
  RBLNSIM_ASSIGN_OR_RETURN(YamlNodePtr child, SetRecursive(existing, keys, index + 1, value, site));
  if (child == nullptr) {
    if (it != copy->entries.end()) {
      copy->entries.erase(it);
    }
  } else if (it != copy->entries.end()) {
    it->second = child;
  } else {
    auto key_node = std::make_shared<YamlNode>(site);
    key_node->kind = Kind::kScalar;
    key_node->scalar = key;
    key_node->quoted = false;
    key_node->items.clear();
    key_node->entries.clear();
    key_node->expanded_size = 1;
    copy->entries.emplace_back(key_node, child);
  }
  RecountExpandedSize(copy.get());
  return YamlNodePtr(copy);
}

}  // namespace

StatusOr<YamlNodePtr> SetAtPath(const YamlNodePtr& root,
                                std::string_view path,
                                const YamlNodePtr& value,
                                const YamlNode* site) {
  if (site == nullptr) {
    site = value.get();
  }
  std::vector<std::string> keys;
  size_t start = 0;
  while (true) {
    const size_t dot = path.find('.', start);
    keys.emplace_back(path.substr(start, dot == std::string_view::npos ? path.npos : dot - start));
    if (keys.back().empty()) {
      return NodeError(*site, "empty key in path '" + Printable(path) + "'");
    }
    if (dot == std::string_view::npos) {
      break;
    }
    start = dot + 1;
  }
  RBLNSIM_ASSIGN_OR_RETURN(YamlNodePtr result, SetRecursive(root, keys, 0, value, *site));
  if (result == nullptr) {
    return NodeError(*site, "cannot delete the whole document");
  }
  return result;
}

StatusOr<YamlNodePtr> ApplySetOverride(const YamlNodePtr& root, const std::string& set_text) {
  auto origin = std::make_shared<Origin>(Origin{"--set " + Printable(set_text), true});
  const size_t equals = set_text.find('=');
  if (equals == std::string::npos) {
    return Status::Error(origin->name + ": expected path=value, e.g. device.queue.depth=16");
  }
  std::string_view path = std::string_view(set_text).substr(0, equals);
  while (!path.empty() && path.back() == ' ') {
    path.remove_suffix(1);
  }
  while (!path.empty() && path.front() == ' ') {
    path.remove_prefix(1);
  }
  if (path.empty()) {
    return Status::Error(origin->name + ": the path before '=' is empty");
  }
  RBLNSIM_ASSIGN_OR_RETURN(YamlNodePtr value, ParseYaml(set_text.substr(equals + 1), origin));
  if (value == nullptr) {
    auto null_node = std::make_shared<YamlNode>();
    null_node->origin = origin;
    value = null_node;
  }
  return SetAtPath(root, path, value);
}

std::string YamlDoubleQuoted(std::string_view text) {
  return DoubleQuotedImpl(text);
}

std::string ToFlowYaml(const YamlNode& node) {
  switch (node.kind) {
    case Kind::kNull:
      return "null";
    case Kind::kScalar:
      return !node.quoted && IsPlainSafe(node.scalar) ? node.scalar : DoubleQuotedImpl(node.scalar);
    case Kind::kSequence: {
      std::string out = "[";
      for (size_t i = 0; i < node.items.size(); ++i) {
        out += (i ? ", " : "") + ToFlowYaml(*node.items[i]);
      }
      return out + "]";
    }
    case Kind::kMap: {
      std::string out = "{";
      for (size_t i = 0; i < node.entries.size(); ++i) {
        out += (i ? ", " : "") + ToFlowYaml(*node.entries[i].first) + ": " +
               ToFlowYaml(*node.entries[i].second);
      }
      return out + "}";
    }
  }
  return "null";
}

}  // namespace rblnsim::scenario
