#include "models/compiler/command_naming.h"

#include <charconv>
#include <cstring>
#include <optional>

namespace rblnsim::compiler {

namespace {
// An int64's longest decimal: "-9223372036854775808".
constexpr size_t kMaxIntChars = 20;

void AppendInt(int64_t value, std::string* out) {
  char buffer[kMaxIntChars];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  // (pointer, length): the (first, last) overload is the generic iterator replace.
  out->append(buffer, static_cast<size_t>(end - buffer));
}
}  // namespace

CommandNameTemplate::CommandNameTemplate(std::string_view text) {
  auto literal = [this](char c) {
    if (pieces_.empty() || pieces_.back().field != Field::kText)
      pieces_.push_back({Field::kText, {}});
    pieces_.back().text.push_back(c);
  };
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '{') {
      const size_t close = text.find('}', i);
      if (close != std::string_view::npos) {
        const std::string_view name = text.substr(i + 1, close - i - 1);
        std::optional<Field> field;
        if (name == "instance")
          field = Field::kInstance;
        else if (name == "sequence")
          field = Field::kSequence;
        else if (name == "workload")
          field = Field::kWorkload;
        else if (name == "layer")
          field = Field::kLayer;
        else if (name == "command")
          field = Field::kCommand;
        if (field) {
          pieces_.push_back({*field, {}});
          i = close + 1;
          continue;
        }
      }
    }
    // An unknown or unclosed field is text, from its brace on.
    literal(text[i]);
    ++i;
  }
  for (const Piece& piece : pieces_) {
    if (piece.field == Field::kText)
      bound_without_layers_ += piece.text.size();
    else if (piece.field == Field::kLayer)
      ++layer_fields_;
    else
      bound_without_layers_ += kMaxIntChars;
  }
}

template <typename PutText, typename PutInt>
void CommandNameTemplate::Expand(const CommandNameParts& parts,
                                 const PutText& put_text,
                                 const PutInt& put_int) const {
  for (const Piece& piece : pieces_) {
    switch (piece.field) {
      case Field::kText:
        put_text(piece.text);
        break;
      case Field::kInstance:
        put_int(parts.instance);
        break;
      case Field::kSequence:
        put_int(parts.sequence);
        break;
      case Field::kWorkload:
        put_int(parts.workload);
        break;
      case Field::kLayer:
        put_text(parts.layer);
        break;
      case Field::kCommand:
        put_int(parts.command);
        break;
    }
  }
}

void CommandNameTemplate::Append(const CommandNameParts& parts, std::string* out) const {
  // Composed on the stack and appended once: a session names every command it ran, and an
  // append per piece (each checking and growing the string) was most of the cost of a name.
  char buffer[256];
  if (bound_without_layers_ + layer_fields_ * parts.layer.size() > sizeof(buffer)) {
    Expand(
        parts, [out](std::string_view text) { out->append(text); },
        [out](int64_t value) { AppendInt(value, out); });
    return;
  }
  char* end = buffer;
  Expand(
      parts,
      [&end](std::string_view text) {
        std::memcpy(end, text.data(), text.size());
        end += text.size();
      },
      [&end](int64_t value) { end = std::to_chars(end, end + kMaxIntChars, value).ptr; });
  out->append(buffer, static_cast<size_t>(end - buffer));
}

void AppendCommandName(std::string_view name_template,
                       const CommandNameParts& parts,
                       std::string* out) {
  CommandNameTemplate(name_template).Append(parts, out);
}

std::string FormatCommandName(std::string_view name_template, const CommandNameParts& parts) {
  std::string out;
  AppendCommandName(name_template, parts, &out);
  return out;
}

}  // namespace rblnsim::compiler
