#include "models/compiler/command_naming.h"

#include <charconv>

namespace rblnsim::compiler {

namespace {
void AppendInt(int64_t value, std::string* out) {
  char buffer[24];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out->append(buffer, end);
}
}  // namespace

void AppendCommandName(std::string_view name_template,
                       const CommandNameParts& parts,
                       std::string* out) {
  size_t i = 0;
  while (i < name_template.size()) {
    const char c = name_template[i];
    if (c == '{') {
      const size_t close = name_template.find('}', i);
      if (close != std::string_view::npos) {
        const std::string_view field = name_template.substr(i + 1, close - i - 1);
        bool known = true;
        if (field == "instance") {
          AppendInt(parts.instance, out);
        } else if (field == "sequence") {
          AppendInt(parts.sequence, out);
        } else if (field == "workload") {
          AppendInt(parts.workload, out);
        } else if (field == "layer") {
          out->append(parts.layer);
        } else if (field == "command") {
          AppendInt(parts.command, out);
        } else {
          known = false;
        }
        if (known) {
          i = close + 1;
          continue;
        }
      }
    }
    out->push_back(c);
    ++i;
  }
}

std::string FormatCommandName(std::string_view name_template, const CommandNameParts& parts) {
  std::string out;
  AppendCommandName(name_template, parts, &out);
  return out;
}

}  // namespace rblnsim::compiler
