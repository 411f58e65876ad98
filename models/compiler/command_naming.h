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
  // Calls put_text(std::string_view) and put_int(int64_t) for the pieces in order.
  template <typename PutText, typename PutInt>
  void Expand(const CommandNameParts& parts, const PutText& put_text, const PutInt& put_int) const;
  std::vector<Piece> pieces_;
  // The longest a name can be, its layers aside: the text pieces and twenty characters (an
  // int64's longest decimal) per number field; and how many {layer} fields there are.
  size_t bound_without_layers_ = 0;
  size_t layer_fields_ = 0;
};

// The same for a template used once.
void AppendCommandName(std::string_view name_template,
                       const CommandNameParts& parts,
                       std::string* out);
std::string FormatCommandName(std::string_view name_template, const CommandNameParts& parts);

}  // namespace rblnsim::compiler

#endif  // RBLNSIM_MODELS_COMPILER_COMMAND_NAMING_H_
