#include "scenario/loader.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <span>

#include "scenario/canonical.h"
#include "scenario/parse_sections.h"
#include "scenario/suggest.h"
#include "scenario/utf8.h"
#include "scenario/yaml_tree.h"

namespace rblnsim::scenario {
namespace {

// Per-value sweep validation re-checks the section the value lands in (~0.1 us per node); cap
// the total work near 0.2 s.
constexpr int64_t kMaxSweepValidationNodes = 2'000'000;

std::string Position(const std::string& name, int line, int column) {
  return name + ":" + std::to_string(line) + ":" + std::to_string(column);
}

// Reads at most kMaxScenarioFileBytes + 1 bytes, so /dev/zero or a huge file costs nothing.
StatusOr<std::string> ReadFile(const std::string& path) {
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (file == nullptr) {
    return Status::Error(path + ": cannot open scenario file: " + std::strerror(errno));
  }
  std::string text(kMaxScenarioFileBytes + 1, '\0');
  const size_t read = std::fread(text.data(), 1, text.size(), file.get());
  if (std::ferror(file.get())) {
    return Status::Error(path + ": cannot read scenario file: " + std::strerror(errno));
  }
  text.resize(read);
  return text;
}

// Scenario files are UTF-8 text. Binary junk and ill-formed UTF-8 are rejected here, at their
// exact position, instead of whatever yaml-cpp would make of them.
Status CheckText(const std::string& text, const std::string& name) {
  if (text.size() > kMaxScenarioFileBytes) {
    return Status::Error(Position(name, 1, 1) + ": file is larger than " +
                         std::to_string(kMaxScenarioFileBytes >> 10) + " KiB");
  }
  int line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const Utf8Sequence sequence = NextUtf8(text, i);
    const bool control =
        sequence.length == 1 && ((c < 0x20 && c != '\n' && c != '\r' && c != '\t') || c == 0x7f);
    if (sequence.length == 0 || control) {
      char byte[8];
      std::snprintf(byte, sizeof(byte), "0x%02x", c);
      // Stray bytes read as binary data; a sequence that is well-shaped but names no character
      // (overlong, surrogate, beyond U+10FFFF) is worth its own words.
      const bool shaped = sequence.problem != nullptr && c >= 0xC0 &&
                          std::string_view(sequence.problem) != "a truncated sequence";
      const std::string what = shaped ? "ill-formed UTF-8 (byte " + std::string(byte) + " starts " +
                                            sequence.problem + ")"
                                      : "binary data (byte " + std::string(byte) + ")";
      return Status::Error(Position(name, line, static_cast<int>(i - line_start) + 1) + ": " +
                           what + "; a scenario must be UTF-8 YAML text");
    }
    if (c == '\n') {
      ++line;
      line_start = i + 1;
    }
    i += sequence.length;
  }
  return Status::Ok();
}

// Checks and parses one file's text; nullptr for an empty document.
StatusOr<YamlNodePtr> ParseFileText(const std::string& text, const std::string& name) {
  RBLNSIM_RETURN_IF_ERROR(CheckText(text, name));
  return ParseYaml(text, std::make_shared<Origin>(Origin{name, false}));
}

Status CheckTopLevel(const YamlNodePtr& root, const std::string& name, const char* what) {
  if (root == nullptr) {
    return Status::Error(Position(name, 1, 1) + ": empty " + what + " (no YAML content)");
  }
  if (root->kind != YamlNode::Kind::kMap) {
    return NodeError(*root, std::string("the top level of the ") + what +
                                " must be a mapping of keys (scenario, device, workload, ...), " +
                                "got a " + root->KindName());
  }
  return Status::Ok();
}

// Applies each sweep value alone and validates the result, so a bad value fails at load time
// instead of at its sweep point.
Status CheckSweepValues(const YamlNodePtr& document,
                        const std::vector<SweepAxisNodes>& axes,
                        const std::string& source_path,
                        const Scenario& validated) {
  if (axes.empty()) {
    return Status::Ok();
  }
  // Each value is checked against the document without its sweep: the sweep was validated once
  // already, and re-reading it per value would make the work quadratic in the number of values.
  auto root = std::make_shared<YamlNode>(*document);
  for (auto it = root->entries.begin(); it != root->entries.end(); ++it) {
    if (it->first->scalar == "sweep") {
      root->expanded_size -= it->first->expanded_size + it->second->expanded_size;
      root->entries.erase(it);
      break;
    }
  }
  // Sections are independent, so a value is validated with the one part its path reaches; the
  // work is values x that part, not values x document.
  int64_t work = 0;
  for (const SweepAxisNodes& axis : axes) {
    const std::string top = axis.path.substr(0, axis.path.find('.'));
    const YamlNode* section = PartOfKey(top) ? root->Find(top) : root.get();
    const int64_t size = section != nullptr ? section->expanded_size : 1;
    work += static_cast<int64_t>(axis.values.size()) * size;
  }
  if (work > kMaxSweepValidationNodes) {
    return NodeError(*axes.front().key, "the sweep is too large to validate (" +
                                            std::to_string(work) + " value x section nodes, " +
                                            "more than " +
                                            std::to_string(kMaxSweepValidationNodes) + ")");
  }
  Scenario scratch = validated;  // ValidateParts rewrites only the part it reads
  for (const SweepAxisNodes& axis : axes) {
    for (const YamlNodePtr& value : axis.values) {
      const std::string shown =
          "sweep value " + Printable(ToFlowYaml(*value)) + " for " + Printable(axis.path);
      StatusOr<YamlNodePtr> applied = SetAtPath(YamlNodePtr(root), axis.path, value, axis.key);
      Status status = applied.status();
      const std::optional<ScenarioPart> part = PartOfKey(axis.path);
      if (applied.ok() && part) {
        status = ValidateParts(*applied, {*part}, &scratch, nullptr);
      } else if (applied.ok()) {
        status = ValidateDocument(*applied, source_path, nullptr).status();
      }
      if (status.ok()) {
        continue;
      }
      // Errors about the value or the path already point at the sweep entry; keep their place.
      const std::string& message = status.message();
      for (const YamlNode* site : {value.get(), axis.key}) {
        const std::string prefix = FormatLocation(*site) + ": ";
        if (message.compare(0, prefix.size(), prefix) == 0) {
          return NodeError(*site, shown + ": " + message.substr(prefix.size()));
        }
      }
      // Anything else arose elsewhere in the document (a shape the new value breaks, say).
      return NodeError(*value, shown + " makes the scenario invalid: " + message);
    }
  }
  return Status::Ok();
}

}  // namespace

StatusOr<YamlNodePtr> MergeDocument(const std::string& text,
                                    const std::string& virtual_path,
                                    const std::vector<std::string>& overlay_paths,
                                    const std::vector<std::string>& set_overrides) {
  RBLNSIM_ASSIGN_OR_RETURN(YamlNodePtr root, ParseFileText(text, virtual_path));
  RBLNSIM_RETURN_IF_ERROR(CheckTopLevel(root, virtual_path, "scenario file"));
  int64_t merge_budget = kMaxExpandedNodes;
  for (const std::string& overlay_path : overlay_paths) {
    RBLNSIM_ASSIGN_OR_RETURN(std::string overlay_text, ReadFile(overlay_path));
    RBLNSIM_ASSIGN_OR_RETURN(YamlNodePtr overlay, ParseFileText(overlay_text, overlay_path));
    if (overlay == nullptr) {
      continue;  // an empty overlay changes nothing
    }
    RBLNSIM_RETURN_IF_ERROR(CheckTopLevel(overlay, overlay_path, "overlay file"));
    RBLNSIM_ASSIGN_OR_RETURN(root, MergeYaml(root, overlay, &merge_budget));
  }
  return ApplySetOverrides(root, set_overrides);
}

StatusOr<YamlNodePtr> ApplySetOverrides(YamlNodePtr root,
                                        const std::vector<std::string>& set_overrides) {
  for (const std::string& set_text : set_overrides) {
    RBLNSIM_ASSIGN_OR_RETURN(root, ApplySetOverride(root, set_text));
  }
  // Each source was bounded on its own; the merge of several could still exceed the budget.
  if (root->expanded_size > kMaxExpandedNodes) {
    return NodeError(*root, "more than " + std::to_string(kMaxExpandedNodes) +
                                " nodes after merging overlays (YAML alias bomb?)");
  }
  return root;
}

StatusOr<std::string> ReadScenarioFile(const std::string& path) {
  return ReadFile(path);
}

StatusOr<Scenario> LoadScenarioFromString(const std::string& text,
                                          const std::string& virtual_path,
                                          const std::vector<std::string>& overlay_paths,
                                          const std::vector<std::string>& set_overrides) {
  RBLNSIM_ASSIGN_OR_RETURN(YamlNodePtr root,
                           MergeDocument(text, virtual_path, overlay_paths, set_overrides));
  std::vector<SweepAxisNodes> sweep_axes;
  RBLNSIM_ASSIGN_OR_RETURN(Scenario scenario, ValidateDocument(root, virtual_path, &sweep_axes));
  RBLNSIM_RETURN_IF_ERROR(CheckSweepValues(root, sweep_axes, virtual_path, scenario));
  return scenario;
}

StatusOr<Scenario> LoadScenario(const std::string& path,
                                const std::vector<std::string>& overlay_paths,
                                const std::vector<std::string>& set_overrides) {
  RBLNSIM_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  return LoadScenarioFromString(text, path, overlay_paths, set_overrides);
}

namespace {

bool StepsTyped(const std::vector<Step>& steps) {
  return std::all_of(steps.begin(), steps.end(),
                     [](const Step& step) { return step.Typed() && StepsTyped(step.body); });
}

// |from| is the same step list loaded back from the canonical form: the same shape, step by step.
void CopyTypes(std::span<const Step> from, std::vector<Step>* to) {
  for (size_t i = 0; i < from.size() && i < to->size(); ++i) {
    (*to)[i].types = from[i].types;
    (*to)[i].graph_types = from[i].graph_types;
    CopyTypes(from[i].body, &(*to)[i].body);
  }
}

}  // namespace

bool WorkloadTyped(const Workload& workload) {
  return StepsTyped(workload.warmup) && StepsTyped(workload.profile);
}

Status TypeWorkload(Workload* workload) {
  // Warm-up and profile run as one sequence, so they load as one profile list (a workload built
  // in code may leave either empty; the loader asks for a profile).
  Scenario only_workload;
  only_workload.name = "workload";
  only_workload.workload = *workload;
  std::vector<Step>& sequence = only_workload.workload.profile;
  sequence.insert(sequence.begin(), workload->warmup.begin(), workload->warmup.end());
  only_workload.workload.warmup.clear();
  if (sequence.empty())
    return Status::Ok();
  const std::string text = CanonicalPart(only_workload, ScenarioPart::kHeader) +
                           CanonicalPart(only_workload, ScenarioPart::kWorkload);
  RBLNSIM_ASSIGN_OR_RETURN(Scenario loaded,
                           LoadScenarioFromString(text, "<workload built in code>"));
  const std::span<const Step> typed = loaded.workload.profile;
  CopyTypes(typed.first(workload->warmup.size()), &workload->warmup);
  CopyTypes(typed.subspan(workload->warmup.size()), &workload->profile);
  return Status::Ok();
}

std::vector<std::vector<std::string>> ExpandSweep(const Sweep& sweep) {
  std::vector<std::vector<std::string>> points;
  if (sweep.axes.empty()) {
    return points;
  }
  for (const SweepAxis& axis : sweep.axes) {
    if (axis.values.empty()) {
      return points;
    }
  }
  if (sweep.mode == Sweep::Mode::kZip) {
    for (size_t i = 0; i < sweep.axes.front().values.size(); ++i) {
      std::vector<std::string> point;
      for (const SweepAxis& axis : sweep.axes) {
        point.push_back(axis.path + "=" + axis.values[std::min(i, axis.values.size() - 1)]);
      }
      points.push_back(std::move(point));
    }
    return points;
  }
  std::vector<size_t> index(sweep.axes.size(), 0);  // an odometer, last axis fastest
  while (true) {
    std::vector<std::string> point;
    for (size_t a = 0; a < sweep.axes.size(); ++a) {
      point.push_back(sweep.axes[a].path + "=" + sweep.axes[a].values[index[a]]);
    }
    points.push_back(std::move(point));
    size_t a = sweep.axes.size();
    while (a > 0 && ++index[a - 1] == sweep.axes[a - 1].values.size()) {
      index[--a] = 0;
    }
    if (a == 0) {
      return points;
    }
  }
}

}  // namespace rblnsim::scenario
