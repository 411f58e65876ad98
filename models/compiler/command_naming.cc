#include "models/compiler/command_naming.h"

#include <charconv>
#include <optional>

namespace rblnsim::compiler {

namespace {
void AppendInt(int64_t value, std::string* out) {
  char buffer[24];
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
}

void CommandNameTemplate::Append(const CommandNameParts& parts, std::string* out) const {
  for (const Piece& piece : pieces_) {
    switch (piece.field) {
      case Field::kText:
        out->append(piece.text);
        break;
      case Field::kInstance:
        AppendInt(parts.instance, out);
        break;
      case Field::kSequence:
        AppendInt(parts.sequence, out);
        break;
      case Field::kWorkload:
        AppendInt(parts.workload, out);
        break;
      case Field::kLayer:
        out->append(parts.layer);
        break;
      case Field::kCommand:
        AppendInt(parts.command, out);
        break;
    }
  }
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
