#include "tools/rblnsim/lib/sweep/sweep_table.h"

#include <algorithm>

#include "profiler/trace/atomic_file.h"
#include "profiler/trace/json_writer.h"

namespace rblnsim::cli {
namespace {

// RFC 4180: a cell holding a comma, quote or line break is quoted, quotes doubled.
std::string CsvCell(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos)
    return text;
  std::string out = "\"";
  for (char c : text) {
    out += c;
    if (c == '"')
      out += '"';
  }
  return out + "\"";
}

// Adds |name| to the columns: a nested metric goes right after its siblings already listed, so
// the engine_busy_pct.* columns stay together even when later points add engines.
void AddColumn(const std::string& name, std::vector<std::string>* columns) {
  if (std::find(columns->begin(), columns->end(), name) != columns->end())
    return;
  const size_t dot = name.find('.');
  if (dot != std::string::npos) {
    const std::string prefix = name.substr(0, dot + 1);
    for (size_t i = columns->size(); i > 0; --i) {
      if ((*columns)[i - 1].compare(0, prefix.size(), prefix) == 0) {
        columns->insert(columns->begin() + static_cast<std::ptrdiff_t>(i), name);
        return;
      }
    }
  }
  columns->push_back(name);
}

}  // namespace

StatusOr<ResultTable> BuildTable(const std::string& scenario,
                                 const std::vector<std::string>& axes,
                                 const std::vector<const PointRecord*>& points,
                                 const std::vector<int64_t>& indices) {
  ResultTable table;
  table.scenario = scenario;
  table.axes = axes;
  bool any_flops = false, any_active = false;
  std::optional<double> peak;
  bool peaks_agree = true;
  for (size_t p = 0; p < points.size(); ++p) {
    const PointRecord& record = *points[p];
    TableRow row;
    row.index = indices[p];
    row.key = record.key;
    row.seed = record.seed;
    row.metrics_json = record.metrics_json;
    for (const std::string& axis : axes) {
      std::string value;
      for (const auto& [path, text] : record.params) {
        if (path == axis)
          value = text;
      }
      row.params.push_back(value);
    }
    StatusOr<std::vector<Metric>> metrics = FlattenMetrics(record.metrics_json);
    if (!metrics.ok())
      return metrics.status().WithPrefix("point " + record.key + ": ");
    for (Metric& metric : *metrics) {
      AddColumn(metric.name, &table.columns);
      row.values[metric.name] = std::move(metric);
    }
    if (record.device_active_ns >= 0) {
      any_active = true;
      row.values[kDeviceActiveNs] =
          Metric{kDeviceActiveNs, trace::FormatJsonDouble(record.device_active_ns),
                 record.device_active_ns};
    }
    if (record.matmul_flops > 0) {
      any_flops = true;
      if (record.device_active_ns > 0) {
        // FLOP per ns is GFLOP/s; a thousand of them make a TFLOP/s.
        const double tflops = record.matmul_flops / record.device_active_ns / 1e3;
        row.values[kAchievedTflops] =
            Metric{kAchievedTflops, trace::FormatJsonDouble(tflops), tflops};
      }
      const double point_peak = record.peak_flops_per_s / 1e12;
      peaks_agree = peaks_agree && (!peak || *peak == point_peak);
      peak = point_peak;
    }
    table.rows.push_back(std::move(row));
  }
  if (any_active)
    table.columns.push_back(kDeviceActiveNs);
  if (any_flops)
    table.columns.push_back(kAchievedTflops);
  if (peak && peaks_agree)
    table.peak_tflops = *peak;
  return table;
}

Status WriteCsv(const std::string& path, const ResultTable& table) {
  return trace::WriteFileAtomically(path, [&](trace::OutputSink& sink) {
    std::string line = "key";
    for (const std::string& axis : table.axes)
      line += "," + CsvCell(axis);
    for (const std::string& column : table.columns)
      line += "," + CsvCell(column);
    sink.Append(line + "\n");
    for (const TableRow& row : table.rows) {
      line = row.key;
      for (const std::string& value : row.params)
        line += "," + CsvCell(value);
      for (const std::string& column : table.columns) {
        const auto found = row.values.find(column);
        line += "," + (found == row.values.end() ? "" : CsvCell(found->second.text));
      }
      sink.Append(line + "\n");
    }
    return sink.status();
  });
}

Status WriteJsonl(const std::string& path, const ResultTable& table) {
  return trace::WriteFileAtomically(path, [&](trace::OutputSink& sink) {
    for (const TableRow& row : table.rows) {
      trace::JsonWriter json(&sink, 0);
      json.BeginObject();
      json.Key("key").String(row.key);
      json.Key("index").Int(row.index);
      json.Key("seed").Uint(row.seed);
      json.Key("params").BeginObject();
      for (size_t a = 0; a < table.axes.size(); ++a)
        json.Key(table.axes[a]).String(row.params[a]);
      json.EndObject();
      json.Key("metrics").Raw(row.metrics_json);
      json.Key("derived").BeginObject();
      for (const char* name : {kDeviceActiveNs, kAchievedTflops}) {
        const auto found = row.values.find(name);
        if (found != row.values.end())
          json.Key(name).Double(found->second.value);
      }
      json.EndObject();
      json.EndObject();
      json.Finish();
    }
    return sink.status();
  });
}

}  // namespace rblnsim::cli
