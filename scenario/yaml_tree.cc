#include "scenario/yaml_tree.h"

#include <yaml-cpp/anchor.h>
#include <yaml-cpp/emitterstyle.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <limits>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "scenario/suggest.h"
#include "scenario/utf8.h"

namespace rblnsim::scenario {
namespace {

using Kind = YamlNode::Kind;

int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? std::numeric_limits<int64_t>::max() : sum;
}

Status MarkError(const Origin& origin, const YAML::Mark& mark, const std::string& message) {
  if (origin.is_set) {
    return Status::Error(origin.name + ": " + message);
  }
  const int line = mark.line >= 0 ? mark.line + 1 : 1;
  const int column = mark.column >= 0 ? mark.column + 1 : 1;
  return Status::Error(origin.name + ":" + std::to_string(line) + ":" + std::to_string(column) +
                       ": " + message);
}

// Turns yaml-cpp parser events into YamlNodes. Aliases reuse the anchored node, so the tree is a
// DAG and memory stays linear in the file size; expanded_size tracks the tree it stands for.
class TreeBuilder : public YAML::EventHandler {
 public:
  explicit TreeBuilder(std::shared_ptr<const Origin> origin) : origin_(std::move(origin)) {}

  const Status& status() const { return status_; }
  YamlNodePtr root() const { return root_; }
  const YAML::Mark& document_mark() const { return document_mark_; }

  void OnDocumentStart(const YAML::Mark& mark) override { document_mark_ = mark; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (status_.ok()) {
      Add(NewNode(Kind::kNull, mark), anchor, nullptr);
    }
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (!status_.ok()) {
      return;
    }
    const auto it = anchors_.find(anchor);
    // yaml-cpp rejects undefined anchors itself; an alias to an unfinished node is a cycle.
    if (it == anchors_.end()) {
      return Fail(mark, "alias refers to a node that contains it");
    }
    Add(it->second, YAML::NullAnchor, &mark);
  }
  void OnScalar(const YAML::Mark& mark,
                const std::string& tag,
                YAML::anchor_t anchor,
                const std::string& value) override {
    if (!status_.ok()) {
      return;
    }
    // A file's bytes were checked before parsing; --set arguments were not, and this is the one
    // place every scalar passes (yaml-cpp refuses surrogate and out-of-range escapes itself).
    Utf8Sequence why;
    if (FindInvalidUtf8(value, &why) != std::string::npos) {
      return Fail(mark, std::string("ill-formed UTF-8 in a scalar (") + why.problem +
                            "); scenario text must be UTF-8");
    }
    auto node = NewNode(Kind::kScalar, mark);
    node->scalar = value;
    node->quoted = tag != "?";  // "?" marks a plain scalar; "!" a quoted one; else a tag
    Add(node, anchor, nullptr);
  }
  void OnSequenceStart(const YAML::Mark& mark,
                       const std::string&,
                       YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    Push(Kind::kSequence, mark, anchor);
  }
  void OnSequenceEnd() override { Pop(); }
  void OnMapStart(const YAML::Mark& mark,
                  const std::string&,
                  YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    Push(Kind::kMap, mark, anchor);
  }
  void OnMapEnd() override { Pop(); }

 private:
  struct Frame {
    std::shared_ptr<YamlNode> node;
    YAML::anchor_t anchor = YAML::NullAnchor;
    YamlNodePtr pending_key;
    std::unordered_set<std::string> keys;
  };

  std::shared_ptr<YamlNode> NewNode(Kind kind, const YAML::Mark& mark) const {
    auto node = std::make_shared<YamlNode>();
    node->kind = kind;
    node->origin = origin_;
    node->line = mark.line + 1;
    node->column = mark.column + 1;
    return node;
  }

  void Fail(const YAML::Mark& mark, const std::string& message) {
    if (status_.ok()) {
      status_ = MarkError(*origin_, mark, message);
    }
  }

  void Push(Kind kind, const YAML::Mark& mark, YAML::anchor_t anchor) {
    if (!status_.ok()) {
      return;
    }
    if (static_cast<int>(stack_.size()) >= kMaxNestingDepth) {
      return Fail(mark, "nesting deeper than " + std::to_string(kMaxNestingDepth) + " levels");
    }
    stack_.push_back(Frame{NewNode(kind, mark), anchor, nullptr, {}});
  }

  void Pop() {
    if (!status_.ok()) {
      return;
    }
    Frame frame = std::move(stack_.back());
    stack_.pop_back();
    if (frame.pending_key) {  // yaml-cpp always pairs keys with values; be safe anyway
      auto null_value = NewNode(Kind::kNull, YAML::Mark());
      null_value->line = frame.pending_key->line;
      null_value->column = frame.pending_key->column;
      frame.node->entries.emplace_back(frame.pending_key, null_value);
    }
    Add(frame.node, frame.anchor, nullptr);
  }

  void Add(YamlNodePtr node, YAML::anchor_t anchor, const YAML::Mark* alias_mark) {
    if (anchor != YAML::NullAnchor) {
      anchors_[anchor] = node;
    }
    if (stack_.empty()) {
      root_ = std::move(node);
      return;
    }
    Frame& frame = stack_.back();
    YamlNode& parent = *frame.node;
    if (parent.kind == Kind::kMap && !frame.pending_key) {
      if (node->kind != Kind::kScalar) {
        return Fail(Where(*node, alias_mark), "mapping keys must be plain strings");
      }
      if (!frame.keys.insert(node->scalar).second) {
        return Fail(Where(*node, alias_mark), "duplicate key '" + Printable(node->scalar) + "'");
      }
      frame.pending_key = std::move(node);
      return;
    }
    parent.expanded_size = SaturatingAdd(parent.expanded_size, node->expanded_size);
    if (parent.kind == Kind::kMap) {
      parent.expanded_size = SaturatingAdd(parent.expanded_size, 1);  // the key
      parent.entries.emplace_back(std::move(frame.pending_key), node);
      frame.pending_key = nullptr;
    } else {
      parent.items.push_back(node);
    }
    if (parent.expanded_size > kMaxExpandedNodes) {
      Fail(Where(*node, alias_mark),
           "more than " + std::to_string(kMaxExpandedNodes) +
               " YAML nodes once aliases are expanded (YAML alias bomb?)");
    }
  }

  static YAML::Mark Where(const YamlNode& node, const YAML::Mark* alias_mark) {
    if (alias_mark != nullptr) {
      return *alias_mark;
    }
    YAML::Mark mark;
    mark.line = node.line - 1;
    mark.column = node.column - 1;
    return mark;
  }

  std::shared_ptr<const Origin> origin_;
  Status status_;
  YamlNodePtr root_;
  YAML::Mark document_mark_;
  std::vector<Frame> stack_;
  std::unordered_map<YAML::anchor_t, YamlNodePtr> anchors_;
};

// yaml-cpp's scanner queues every token of a flow collection before the parser's own depth guard
// runs, so a file of a million '[' costs hundreds of MB. Bound bracket nesting first with a rough
// lexical pass: quoted scalars and comments are skipped; brackets inside plain or block scalars
// count, which only matters past kMaxNestingDepth unclosed ones.
// Also finds a quoted scalar that is never closed: yaml-cpp reads it to the end of the file as
// one string, so the error would otherwise surface far away (e.g. as a bad scenario name).
Status CheckFlowDepth(std::string_view text, const Origin& origin) {
  int depth = 0;
  int line = 0;
  size_t line_start = 0;
  char quote = 0;
  YAML::Mark quote_mark;
  bool comment = false;
  char previous = '\n';
  char last_token = '\n';  // the last non-blank character on this line outside quotes
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = i + 1;
      comment = false;
      previous = c;
      if (quote == 0)
        last_token = c;
      continue;
    }
    if (comment) {
      continue;
    }
    if (quote != 0) {
      if (c == quote && quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
        ++i;  // '' is an escaped quote
      } else if (c == quote) {
        quote = 0;
        last_token = c;
      } else if (quote == '"' && c == '\\' && i + 1 < text.size() && text[i + 1] != '\n') {
        ++i;
      }
      previous = c;
      continue;
    }
    const bool after_space = previous == '\n' || previous == ' ' || previous == '\t';
    if (c == '#' && after_space) {
      comment = true;
      continue;
    }
    // A quote opens a scalar only where a value starts: after "key:", "- ", "? ", "[", "{", ","
    // or at the start of a line; elsewhere (it's, the 'x) it is part of a plain scalar.
    const bool value_start = last_token == '\n' || last_token == ':' || last_token == '-' ||
                             last_token == '?' || last_token == '[' || last_token == '{' ||
                             last_token == ',';
    if ((c == '"' || c == '\'') && value_start &&
        (after_space || previous == '[' || previous == '{' || previous == ',')) {
      quote = c;
      quote_mark.line = line;
      quote_mark.column = static_cast<int>(i - line_start);
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxNestingDepth) {
        YAML::Mark mark;
        mark.line = line;
        mark.column = static_cast<int>(i - line_start);
        return MarkError(origin, mark,
                         "nesting deeper than " + std::to_string(kMaxNestingDepth) + " levels");
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
    if (c != ' ' && c != '\t')
      last_token = c;
    previous = c;
  }
  if (quote != 0) {
    return MarkError(origin, quote_mark,
                     std::string("unterminated quoted string: the ") +
                         (quote == '"' ? "double" : "single") +
                         " quote opened here is never closed");
  }
  return Status::Ok();
}

}  // namespace

const YamlNode* YamlNode::Find(std::string_view key) const {
  for (const auto& [k, v] : entries) {
    if (k->scalar == key) {
      return v.get();
    }
  }
  return nullptr;
}

const char* YamlNode::KindName() const {
  switch (kind) {
    case Kind::kNull:
      return "null";
    case Kind::kScalar:
      return "scalar";
    case Kind::kSequence:
      return "sequence";
    case Kind::kMap:
      return "mapping";
  }
  return "?";
}

void RecountExpandedSize(YamlNode* node) {
  node->expanded_size = 1;
  for (const YamlNodePtr& item : node->items) {
    node->expanded_size = SaturatingAdd(node->expanded_size, item->expanded_size);
  }
  for (const auto& [key, value] : node->entries) {
    node->expanded_size = SaturatingAdd(node->expanded_size, key->expanded_size);
    node->expanded_size = SaturatingAdd(node->expanded_size, value->expanded_size);
  }
}

std::string FormatLocation(const YamlNode& node) {
  if (node.origin == nullptr) {
    return "<unknown>";
  }
  if (node.origin->is_set) {
    return node.origin->name;
  }
  return node.origin->name + ":" + std::to_string(node.line) + ":" + std::to_string(node.column);
}

Status NodeError(const YamlNode& node, const std::string& message) {
  return Status::Error(FormatLocation(node) + ": " + message);
}

SourceLoc ToSourceLoc(const YamlNode& node) {
  SourceLoc loc;
  if (node.origin != nullptr) {
    loc.file = node.origin->name;
  }
  if (node.origin != nullptr && !node.origin->is_set) {
    loc.line = node.line;
    loc.column = node.column;
  }
  return loc;
}

StatusOr<YamlNodePtr> ParseYaml(std::string_view text, std::shared_ptr<const Origin> origin) {
  RBLNSIM_RETURN_IF_ERROR(CheckFlowDepth(text, *origin));
  std::istringstream stream{std::string(text)};
  try {
    YAML::Parser parser(stream);
    TreeBuilder builder(origin);
    if (!parser.HandleNextDocument(builder)) {
      return YamlNodePtr();
    }
    if (!builder.status().ok()) {
      return builder.status();
    }
    TreeBuilder second(origin);
    if (parser.HandleNextDocument(second)) {
      return MarkError(*origin, second.document_mark(),
                       "a second YAML document; a scenario file holds exactly one");
    }
    return builder.root();
  } catch (const YAML::Exception& error) {
    return MarkError(*origin, error.mark, "YAML syntax error: " + Printable(error.msg));
  } catch (const std::exception& error) {
    return MarkError(*origin, YAML::Mark::null_mark(), "cannot parse: " + Printable(error.what()));
  }
}

}  // namespace rblnsim::scenario
