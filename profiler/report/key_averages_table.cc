// The text half of key_averages(): torch's _build_table, sort_by and row_limit. Widths count code
// points like Python's len(), so non-ASCII names line up the way torch prints them.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <functional>
#include <vector>

#include "base/permute.h"
#include "profiler/report/key_averages.h"
#include "profiler/trace/json_writer.h"

namespace rblnsim::report {

namespace {

constexpr size_t kColumnWidth = 12;
constexpr size_t kMaxNameColumnWidth = 55;
constexpr std::string_view kSpacing = "  ";

double UsFromNs(int64_t ns) {
  return static_cast<double>(ns) / 1000.0;
}

double Average(double total, int64_t count) {
  return count == 0 ? 0.0 : total / static_cast<double>(count);
}

// f"{value:.{decimals}f}": to_chars is correctly rounded like Python and ignores the locale.
std::string Fixed(double value, int decimals) {
  char buf[400];  // room for any finite double in fixed notation
  const auto result =
      std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::fixed, decimals);
  if (result.ec != std::errc())
    return "nan";
  return std::string(buf, result.ptr);
}

// The first |count| code points of |text|.
std::string_view Utf8Prefix(std::string_view text, size_t count) {
  size_t offset = 0;
  for (size_t i = 0; i < count && offset < text.size(); ++i) {
    size_t bad_len = 0;
    const size_t len = trace::Utf8SequenceLength(text.substr(offset), &bad_len);
    offset += len != 0 ? len : bad_len;
  }
  return text.substr(0, offset);
}

// One line built like torch's row_format: every cell right-aligned in its width, each followed
// by two spaces (hence the trailing spaces on every table line).
class Line {
 public:
  void Cell(std::string_view text, size_t width) {
    const size_t length = trace::Utf8Length(text);
    if (length < width)
      text_.append(width - length, ' ');
    text_.append(text);
    text_.append(kSpacing);
  }
  void Separator(size_t width) {
    text_.append(width, '-');
    text_.append(kSpacing);
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

using SortKey = std::function<double(const KeyAverage&)>;

bool LookupSortKey(const std::string& attribute, SortKey* key) {
  if (attribute == "cpu_time_total") {
    *key = [](const KeyAverage& r) { return UsFromNs(r.cpu_total_ns); };
  } else if (attribute == "self_cpu_time_total") {
    *key = [](const KeyAverage& r) { return UsFromNs(r.self_cpu_ns); };
  } else if (attribute == "cpu_time") {
    *key = [](const KeyAverage& r) { return Average(UsFromNs(r.cpu_total_ns), r.count); };
  } else if (attribute == "device_time_total") {
    *key = [](const KeyAverage& r) { return UsFromNs(r.device_total_ns); };
  } else if (attribute == "self_device_time_total") {
    *key = [](const KeyAverage& r) { return UsFromNs(r.self_device_ns); };
  } else if (attribute == "device_time") {
    *key = [](const KeyAverage& r) { return Average(UsFromNs(r.device_total_ns), r.count); };
  } else if (attribute == "count") {
    *key = [](const KeyAverage& r) { return static_cast<double>(r.count); };
  } else {
    return false;
  }
  return true;
}

void ReplaceAll(std::string* text, std::string_view from, std::string_view to) {
  for (size_t pos = text->find(from); pos != std::string::npos;
       pos = text->find(from, pos + to.size())) {
    text->replace(pos, from.size(), to);
  }
}

Status SortKeyFor(std::string_view sort_by, SortKey* key) {
  std::string attribute(sort_by);
  ReplaceAll(&attribute, "cuda", "device");
  ReplaceAll(&attribute, "xpu", "device");
  ReplaceAll(&attribute, "privateuse1", "device");
  if (!LookupSortKey(attribute, key)) {
    return Status::Error("unknown sort_by key '" + std::string(sort_by) +
                         "' (expected cpu_time_total, self_cpu_time_total, cpu_time, "
                         "device_time_total, self_device_time_total, device_time or count)");
  }
  return Status::Ok();
}

// Whether |sort_by| gives every packed device row (no CPU time, equal self and total device
// time) the same key: no sort, or a CPU time key.
bool PackedRowsTie(std::string_view sort_by) {
  if (sort_by.empty())
    return true;
  std::string attribute(sort_by);
  ReplaceAll(&attribute, "cuda", "device");
  ReplaceAll(&attribute, "xpu", "device");
  ReplaceAll(&attribute, "privateuse1", "device");
  return attribute == "cpu_time_total" || attribute == "self_cpu_time_total" ||
         attribute == "cpu_time";
}

// The column widths and footer sums of a table: they cover every row, printed or not, as
// torch's do.
struct TableTotals {
  size_t name_width = 0;
  int64_t self_cpu_ns = 0;
  int64_t self_device_ns = 0;
  bool has_device_time = false;

  void Add(const KeyAverage& row) {
    name_width = std::max(name_width, trace::Utf8Length(row.name) + 4);
    self_cpu_ns += row.self_cpu_ns;
    // The footer counts device rows only, and not GPU annotations (torch's sum rule).
    if (row.is_device && !row.is_user_annotation)
      self_device_ns += row.self_device_ns;
    has_device_time = has_device_time || row.self_device_ns > 0;
  }
  // The rows a limited row set did not make (KeyAverageRowSet::beyond).
  void Add(const KeyAverageRowSet::Beyond& beyond) {
    if (beyond.longest_name > 0)
      name_width = std::max(name_width, beyond.longest_name + 4);
    self_device_ns += beyond.self_device_ns;
    has_device_time = has_device_time || beyond.any_self_device;
  }
};

// The rows the table prints, in the order SortKeyAverages would give them: descending by |key|,
// ties in first-appearance order, the first |row_limit| (all when negative). A trace whose
// device slices are named once each has a row per slice, millions of them, and the table prints
// row_limit of them: only those are kept, in a heap whose top is the one to drop next.
class PrintedRows {
 public:
  PrintedRows(const SortKey* key, int row_limit) : key_(key), row_limit_(row_limit) {}

  void Offer(const KeyAverage& row) {
    const uint64_t position = next_position_++;
    if (key_ == nullptr || row_limit_ < 0) {
      // Every row of an unlimited table is printed: kept as it is, ranked apart (below).
      if (row_limit_ < 0 || all_.size() < static_cast<size_t>(row_limit_)) {
        all_.push_back(row);
        if (key_ != nullptr)
          order_.push_back({(*key_)(row), static_cast<uint32_t>(order_.size())});
      }
      return;
    }
    if (row_limit_ == 0)
      return;
    Ranked ranked{(*key_)(row), position, row};
    if (rows_.size() == static_cast<size_t>(row_limit_)) {
      // A later row never wins a tie: it must be strictly greater than the last kept.
      if (!(ranked.key > rows_.front().key))
        return;
      std::pop_heap(rows_.begin(), rows_.end(), Before);
      rows_.back() = ranked;
    } else {
      rows_.push_back(ranked);
    }
    std::push_heap(rows_.begin(), rows_.end(), Before);
  }

  // The kept rows in print order.
  std::vector<KeyAverage> Take() {
    if (key_ == nullptr || row_limit_ < 0) {
      // Millions of rows are ranked by 16-byte entries and put in order in place, not copied
      // with their keys (a table of every device slice's row printed sorted).
      std::stable_sort(order_.begin(), order_.end(),
                       [](const Order& a, const Order& b) { return a.key > b.key; });
      PermuteInPlace(
          order_.size(), [&](size_t i) { return size_t{order_[i].row}; }, all_);
      return std::move(all_);
    }
    std::sort(rows_.begin(), rows_.end(), Before);
    std::vector<KeyAverage> out;
    out.reserve(rows_.size());
    for (const Ranked& ranked : rows_)
      out.push_back(ranked.row);
    return out;
  }

 private:
  struct Order {
    double key;
    uint32_t row;  // in all_, in first-appearance order, which the stable sort keeps for ties
  };
  struct Ranked {
    double key;
    uint64_t position;  // first appearance: breaks ties, which makes the order total
    KeyAverage row;
  };
  static bool Before(const Ranked& a, const Ranked& b) {
    return a.key != b.key ? a.key > b.key : a.position < b.position;
  }

  const SortKey* key_;
  int row_limit_;
  uint64_t next_position_ = 0;
  std::vector<Ranked> rows_;     // with a key and a limit: a heap, the last in print order on top
  std::vector<KeyAverage> all_;  // without a key, or without a limit
  std::vector<Order> order_;     // all_ ranked, with a key
};

std::string RenderRows(const TableTotals& totals,
                       const std::vector<KeyAverage>& printed,
                       const TableOptions& options);

}  // namespace

std::string FormatTime(double us) {
  if (us >= 1000.0 * 1000.0)
    return Fixed(us / (1000.0 * 1000.0), 3) + "s";
  if (us >= 1000.0)
    return Fixed(us / 1000.0, 3) + "ms";
  return Fixed(us, 3) + "us";
}

std::string FormatTimeShare(double us, double total_us) {
  if (total_us == 0)
    return "NaN";
  return Fixed(us * 100.0 / total_us, 2) + "%";
}

Status SortKeyAverages(std::string_view sort_by, std::vector<KeyAverage>* rows) {
  SortKey key;
  RBLNSIM_RETURN_IF_ERROR(SortKeyFor(sort_by, &key));
  // Python's sorted(reverse=True) is stable too: equal keys keep their order.
  std::stable_sort(rows->begin(), rows->end(),
                   [&key](const KeyAverage& a, const KeyAverage& b) { return key(a) > key(b); });
  return Status::Ok();
}

std::string RenderKeyAveragesTable(const std::vector<KeyAverage>& rows,
                                   const TableOptions& options) {
  if (rows.empty())
    return "";
  TableTotals totals;
  PrintedRows printed(nullptr, options.row_limit);
  for (const KeyAverage& row : rows) {
    totals.Add(row);
    printed.Offer(row);
  }
  return RenderRows(totals, printed.Take(), options);
}

namespace {

std::string RenderRows(const TableTotals& totals,
                       const std::vector<KeyAverage>& printed,
                       const TableOptions& options) {
  std::string device = options.device_name;
  for (char& c : device) {
    if (c >= 'a' && c <= 'z')
      c = static_cast<char>(c - 'a' + 'A');
  }
  const size_t name_width = std::min(totals.name_width, kMaxNameColumnWidth);
  const bool has_device_time = totals.has_device_time;
  const double self_cpu_total_us = UsFromNs(totals.self_cpu_ns);
  const double self_device_total_us = UsFromNs(totals.self_device_ns);

  std::vector<std::string> headers = {"Self CPU %", "Self CPU", "CPU total %", "CPU total",
                                      "CPU time avg"};
  if (has_device_time) {
    headers.insert(headers.end(), {"Self " + device, "Self " + device + " %", device + " total",
                                   device + " time avg"});
  }
  headers.push_back("# of Calls");

  std::string out;
  const auto append = [&out](const std::string& line) {
    out += line;
    out += '\n';
  };
  Line separator;
  separator.Separator(name_width);
  for (size_t i = 0; i < headers.size(); ++i)
    separator.Separator(kColumnWidth);
  Line header;
  header.Cell("Name", name_width);
  for (const std::string& text : headers)
    header.Cell(text, kColumnWidth);
  append(separator.text());
  append(header.text());
  append(separator.text());

  for (const KeyAverage& row : printed) {
    std::string name(row.name);
    if (trace::Utf8Length(name) >= kMaxNameColumnWidth - 3) {
      name = std::string(Utf8Prefix(name, kMaxNameColumnWidth - 3)) + "...";
    }
    const double cpu_total_us = UsFromNs(row.cpu_total_ns);
    const double device_total_us = UsFromNs(row.device_total_ns);
    Line line;
    line.Cell(name, name_width);
    line.Cell(FormatTimeShare(UsFromNs(row.self_cpu_ns), self_cpu_total_us), kColumnWidth);
    line.Cell(FormatTime(UsFromNs(row.self_cpu_ns)), kColumnWidth);
    line.Cell(FormatTimeShare(cpu_total_us, self_cpu_total_us), kColumnWidth);
    line.Cell(FormatTime(cpu_total_us), kColumnWidth);
    line.Cell(FormatTime(Average(cpu_total_us, row.count)), kColumnWidth);
    if (has_device_time) {
      line.Cell(FormatTime(UsFromNs(row.self_device_ns)), kColumnWidth);
      line.Cell(FormatTimeShare(UsFromNs(row.self_device_ns), self_device_total_us), kColumnWidth);
      line.Cell(FormatTime(device_total_us), kColumnWidth);
      line.Cell(FormatTime(Average(device_total_us, row.count)), kColumnWidth);
    }
    line.Cell(std::to_string(row.count), kColumnWidth);
    append(line.text());
  }
  append(separator.text());
  append("Self CPU time total: " + FormatTime(self_cpu_total_us));
  if (has_device_time)
    append("Self " + device + " time total: " + FormatTime(self_device_total_us));
  return out;
}

}  // namespace

StatusOr<std::string> FormatKeyAveragesTable(const index::TraceIndex& index,
                                             const TableOptions& options,
                                             AttributionStats* stats) {
  SortKey key;
  if (!options.sort_by.empty())
    RBLNSIM_RETURN_IF_ERROR(SortKeyFor(options.sort_by, &key));
  // A packed device row has no CPU time: ordered by a CPU key (or not at all) they all tie, keep
  // their first-appearance order, and the table prints no packed row past the row_limit-th.
  // Only those are made; the others are only summed, for the footer and the name column.
  const size_t packed_limit = options.row_limit >= 0 && PackedRowsTie(options.sort_by)
                                  ? static_cast<size_t>(options.row_limit)
                                  : SIZE_MAX;
  const KeyAverageRowSet rows =
      ComputeKeyAverageRows(index, options.attribution, KeyAverageRows::kAll, packed_limit);
  if (stats != nullptr)
    *stats = rows.stats;
  if (rows.size() == 0)
    return std::string();
  TableTotals totals;
  PrintedRows printed(options.sort_by.empty() ? nullptr : &key, options.row_limit);
  rows.ForEach([&](const KeyAverage& row) {
    totals.Add(row);
    printed.Offer(row);
  });
  totals.Add(rows.beyond);
  return RenderRows(totals, printed.Take(), options);
}

StatusOr<std::string> FormatKeyAveragesTable(const trace::Trace& trace,
                                             const TableOptions& options,
                                             AttributionStats* stats) {
  RBLNSIM_ASSIGN_OR_RETURN(index::TraceIndex index, index::TraceIndex::Build(trace));
  return FormatKeyAveragesTable(index, options, stats);
}

}  // namespace rblnsim::report
