#include <fmt/format.h>

#include <algorithm>

#include "profiler/diff/diff_report.h"

namespace rblnsim::diff {

namespace {

std::string Header(const TraceDiff& diff, const DiffLabels& labels) {
  std::string text =
      fmt::format("base: {} ({} dialect, {} events)\nnew:  {} ({} dialect, {} events)\n",
                  labels.base_path, trace::DialectName(diff.base_dialect), diff.base_events,
                  labels.new_path, trace::DialectName(diff.new_dialect), diff.new_events);
  if (!diff.same_dialect()) {
    text +=
        "the dialects differ: the launch delay and per-lane device time follow each "
        "dialect's layout and are not compared; everything else is\n";
  }
  return text;
}

// Columns padded to their widest cell: the first left-aligned, the others right-aligned.
std::string RenderAligned(const DiffTable& table) {
  std::string out = table.title + "\n";
  for (const std::string& note : table.notes)
    out += "  " + note + "\n";
  if (table.rows.empty())
    return out;
  std::vector<size_t> width(table.header.size(), 0);
  const auto measure = [&](const std::vector<std::string>& cells) {
    for (size_t c = 0; c < cells.size() && c < width.size(); ++c)
      width[c] = std::max(width[c], cells[c].size());
  };
  measure(table.header);
  for (const auto& row : table.rows)
    measure(row);
  const auto line = [&](const std::vector<std::string>& cells) {
    std::string text = " ";
    for (size_t c = 0; c < cells.size() && c < width.size(); ++c) {
      const size_t pad = width[c] - cells[c].size();
      text += " ";
      text += c == 0 ? cells[c] + std::string(pad, ' ') : std::string(pad, ' ') + cells[c];
    }
    while (!text.empty() && text.back() == ' ')
      text.pop_back();
    return text + "\n";
  };
  out += line(table.header);
  for (const auto& row : table.rows)
    out += line(row);
  if (table.hidden_rows > 0)
    out += fmt::format("  ... {} more row{} (--rows, or --json for all)\n", table.hidden_rows,
                       table.hidden_rows == 1 ? "" : "s");
  return out;
}

std::string MarkdownCell(const std::string& cell) {
  std::string out;
  for (char c : cell) {
    if (c == '|')
      out += "\\|";
    else
      out += c;
  }
  return out;
}

std::string RenderMarkdown(const DiffTable& table) {
  std::string out = "### " + table.title + "\n\n";
  for (const std::string& note : table.notes)
    out += note + "\n\n";
  if (table.rows.empty())
    return out;
  const auto line = [](const std::vector<std::string>& cells) {
    std::string text = "|";
    for (const std::string& cell : cells)
      text += " " + MarkdownCell(cell) + " |";
    return text + "\n";
  };
  out += line(table.header);
  std::string rule = "|";
  for (size_t c = 0; c < table.header.size(); ++c)
    rule += c == 0 ? " --- |" : " ---: |";
  out += rule + "\n";
  for (const auto& row : table.rows)
    out += line(row);
  if (table.hidden_rows > 0)
    out += fmt::format("\n{} more row{} in the JSON report.\n", table.hidden_rows,
                       table.hidden_rows == 1 ? "" : "s");
  return out + "\n";
}

}  // namespace

std::string FormatDiffText(const TraceDiff& diff,
                           const DiffLabels& labels,
                           const GateResult* gate,
                           size_t row_limit) {
  std::string out = Header(diff, labels);
  out += DiffHeadline(diff, gate) + "\n";
  if (!diff.HasDifferences() && gate == nullptr)
    return out;
  for (const DiffTable& table : DiffTables(diff, gate, row_limit))
    out += "\n" + RenderAligned(table);
  return out;
}

std::string FormatDiffMarkdown(const TraceDiff& diff,
                               const DiffLabels& labels,
                               const GateResult* gate,
                               size_t row_limit) {
  const bool failed = gate != nullptr && !gate->passed();
  std::string out = fmt::format("## rblnsim diff: {}\n\n", failed ? "gate failed" : "report");
  out += fmt::format("**{}**\n\n", MarkdownCell(DiffHeadline(diff, gate)));
  out +=
      fmt::format("- base: `{}` ({} dialect, {} events)\n- new: `{}` ({} dialect, {} events)\n\n",
                  labels.base_path, trace::DialectName(diff.base_dialect), diff.base_events,
                  labels.new_path, trace::DialectName(diff.new_dialect), diff.new_events);
  for (const DiffTable& table : DiffTables(diff, gate, row_limit))
    out += RenderMarkdown(table);
  return out;
}

}  // namespace rblnsim::diff
