// Command names as the RBLN Profiler prints them:
// i{instance}_{sequence}_W{workload}_{layer}_{command}. Consumers must not depend on the exact form
// (it changes between releases), so the template is a scenario setting.
#ifndef RBLNSIM_MODELS_COMPILER_COMMAND_NAMING_H_
#define RBLNSIM_MODELS_COMPILER_COMMAND_NAMING_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rblnsim::compiler {

struct CommandNameParts {
  int instance = 0;
  int64_t sequence = 0;
  int workload = 0;
  std::string_view layer;
  int command = 0;
};

// A template read once: the producer names every command of a session (millions in a long
// window), and reading the template's text again for each was a twentieth of an end-to-end run.
class CommandNameTemplate {
 public:
  explicit CommandNameTemplate(std::string_view text);
  // Expands {instance}, {sequence}, {workload}, {layer} and {command}; other text is copied.
  void Append(const CommandNameParts& parts, std::string* out) const;

 private:
  enum class Field : uint8_t { kText, kInstance, kSequence, kWorkload, kLayer, kCommand };
  struct Piece {
    Field field = Field::kText;
    std::string text;  // kText only
  };
  std::vector<Piece> pieces_;
};

// The same for a template used once.
void AppendCommandName(std::string_view name_template,
                       const CommandNameParts& parts,
                       std::string* out);
std::string FormatCommandName(std::string_view name_template, const CommandNameParts& parts);

}  // namespace rblnsim::compiler

#endif  // RBLNSIM_MODELS_COMPILER_COMMAND_NAMING_H_
