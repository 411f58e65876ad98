#include "profiler/analysis/truth_file.h"

#include <simdjson.h>

#include "profiler/trace/atomic_file.h"
#include "profiler/trace/json_writer.h"

namespace rblnsim::analysis {

namespace {

namespace dom = simdjson::dom;

class Reader {
 public:
  explicit Reader(const std::string& path) : path_(path) {}

  Status Error(const std::string& what) const { return Status::Error(path_ + ": " + what); }

  Status Int(dom::element object, const char* key, int64_t* out) const {
    if (object[key].get_int64().get(*out) != simdjson::SUCCESS)
      return Error(std::string("expected an integer \"") + key + "\"");
    return Status::Ok();
  }
  Status Double(dom::element object, const char* key, double* out) const {
    if (object[key].get_double().get(*out) != simdjson::SUCCESS)
      return Error(std::string("expected a number \"") + key + "\"");
    return Status::Ok();
  }
  Status Bool(dom::element object, const char* key, bool* out) const {
    if (object[key].get_bool().get(*out) != simdjson::SUCCESS)
      return Error(std::string("expected true or false \"") + key + "\"");
    return Status::Ok();
  }
  Status Str(dom::element object, const char* key, std::string* out) const {
    std::string_view text;
    if (object[key].get_string().get(text) != simdjson::SUCCESS)
      return Error(std::string("expected a string \"") + key + "\"");
    *out = std::string(text);
    return Status::Ok();
  }
  Status Array(dom::element doc, const char* key, dom::array* out) const {
    if (doc[key].get_array().get(*out) != simdjson::SUCCESS)
      return Error(std::string("expected an array \"") + key + "\"");
    return Status::Ok();
  }

 private:
  const std::string& path_;
};

Status ReadLaunch(const Reader& r, dom::element e, TruthFile::Launch* l) {
  RBLNSIM_RETURN_IF_ERROR(r.Int(e, "launch_id", &l->launch_id));
  RBLNSIM_RETURN_IF_ERROR(r.Str(e, "op", &l->op));
  RBLNSIM_RETURN_IF_ERROR(r.Int(e, "external_id", &l->external_id));
  RBLNSIM_RETURN_IF_ERROR(r.Int(e, "instance", &l->instance));
  RBLNSIM_RETURN_IF_ERROR(r.Int(e, "sequence", &l->sequence));
  RBLNSIM_RETURN_IF_ERROR(r.Int(e, "marker_start_ns", &l->marker_start_ns));
  RBLNSIM_RETURN_IF_ERROR(r.Int(e, "first_device_start_ns", &l->first_device_start_ns));
  RBLNSIM_RETURN_IF_ERROR(r.Int(e, "last_device_end_ns", &l->last_device_end_ns));
  RBLNSIM_RETURN_IF_ERROR(r.Int(e, "completed_ns", &l->completed_ns));
  RBLNSIM_RETURN_IF_ERROR(r.Int(e, "latency_ns", &l->latency_ns));
  RBLNSIM_RETURN_IF_ERROR(r.Double(e, "host_overhead_ns", &l->host_overhead_ns));
  RBLNSIM_RETURN_IF_ERROR(r.Double(e, "ring_wait_ns", &l->ring_wait_ns));
  RBLNSIM_RETURN_IF_ERROR(r.Double(e, "queue_wait_ns", &l->queue_wait_ns));
  RBLNSIM_RETURN_IF_ERROR(r.Double(e, "transport_ns", &l->transport_ns));
  return r.Bool(e, "failed", &l->failed);
}

}  // namespace

Status WriteTruthFile(const std::string& path, const TruthFile& truth) {
  return trace::WriteFileAtomically(path, [&](trace::OutputSink& sink) {
    trace::JsonWriter json(&sink, 2);
    json.BeginObject();
    json.Key("format").Int(kTruthFileFormat);
    json.Key("scenario").String(truth.scenario);
    json.Key("time_domain").String("system-clock ns, as the trace's absolute timestamps");
    json.Key("launches").BeginArray();
    for (const TruthFile::Launch& l : truth.launches) {
      json.BeginObject();
      json.Key("launch_id").Int(l.launch_id);
      json.Key("op").String(l.op);
      json.Key("external_id").Int(l.external_id);
      json.Key("instance").Int(l.instance);
      json.Key("sequence").Int(l.sequence);
      json.Key("marker_start_ns").Int(l.marker_start_ns);
      json.Key("first_device_start_ns").Int(l.first_device_start_ns);
      json.Key("last_device_end_ns").Int(l.last_device_end_ns);
      json.Key("completed_ns").Int(l.completed_ns);
      json.Key("latency_ns").Int(l.latency_ns);
      json.Key("host_overhead_ns").Double(l.host_overhead_ns);
      json.Key("ring_wait_ns").Double(l.ring_wait_ns);
      json.Key("queue_wait_ns").Double(l.queue_wait_ns);
      json.Key("transport_ns").Double(l.transport_ns);
      json.Key("failed").Bool(l.failed);
      json.EndObject();
    }
    json.EndArray();
    json.Key("fallbacks").BeginArray();
    for (const TruthFile::Fallback& f : truth.fallbacks) {
      json.BeginObject();
      json.Key("op").String(f.op);
      json.Key("reason").String(f.reason);
      json.Key("shape").String(f.shape);
      json.Key("external_id").Int(f.external_id);
      json.Key("bytes_to_host").Int(f.bytes_to_host);
      json.Key("bytes_to_device").Int(f.bytes_to_device);
      json.EndObject();
    }
    json.EndArray();
    json.Key("recompiles").BeginArray();
    for (const TruthFile::Recompile& c : truth.recompiles) {
      json.BeginObject();
      json.Key("op").String(c.op);
      json.Key("program").String(c.program);
      json.Key("instance").Int(c.instance);
      json.Key("eviction").Bool(c.eviction);
      json.Key("failed").Bool(c.failed);
      json.EndObject();
    }
    json.EndArray();
    json.Key("round_trips").BeginArray();
    for (const TruthFile::RoundTrip& t : truth.round_trips) {
      json.BeginObject();
      json.Key("reason").String(t.reason);
      json.Key("direction")
          .String(std::string_view(t.to_host ? "device_to_host" : "host_to_device"));
      json.Key("bytes").Int(t.bytes);
      json.EndObject();
    }
    json.EndArray();
    json.Key("nan_inf_scans").Int(truth.nan_inf_scans);
    json.Key("records_dropped").Int(truth.records_dropped);
    json.Key("commands_timed_out").Int(truth.commands_timed_out);
    json.EndObject();
    json.Finish();
    sink.Append("\n");
    return sink.status();
  });
}

StatusOr<TruthFile> ReadTruthFile(const std::string& path) {
  Reader r(path);
  dom::parser parser;
  dom::element doc;
  if (auto error = parser.load(path).get(doc))
    return r.Error(std::string("cannot read the ground truth: ") + simdjson::error_message(error));
  int64_t format = 0;
  if (doc["format"].get_int64().get(format) != simdjson::SUCCESS) {
    return r.Error(
        "no \"format\" version: not a ground-truth file of this rblnsim (rerun "
        "`rblnsim run --truth`)");
  }
  if (format != kTruthFileFormat) {
    return r.Error("ground-truth format " + std::to_string(format) + ", this rblnsim reads " +
                   std::to_string(kTruthFileFormat) + " (rerun `rblnsim run --truth`)");
  }
  TruthFile truth;
  RBLNSIM_RETURN_IF_ERROR(r.Str(doc, "scenario", &truth.scenario));
  dom::array array;
  RBLNSIM_RETURN_IF_ERROR(r.Array(doc, "launches", &array));
  for (dom::element e : array) {
    RBLNSIM_RETURN_IF_ERROR(ReadLaunch(r, e, &truth.launches.emplace_back()));
  }
  RBLNSIM_RETURN_IF_ERROR(r.Array(doc, "fallbacks", &array));
  for (dom::element e : array) {
    TruthFile::Fallback& f = truth.fallbacks.emplace_back();
    RBLNSIM_RETURN_IF_ERROR(r.Str(e, "op", &f.op));
    RBLNSIM_RETURN_IF_ERROR(r.Str(e, "reason", &f.reason));
    RBLNSIM_RETURN_IF_ERROR(r.Str(e, "shape", &f.shape));
    RBLNSIM_RETURN_IF_ERROR(r.Int(e, "external_id", &f.external_id));
    RBLNSIM_RETURN_IF_ERROR(r.Int(e, "bytes_to_host", &f.bytes_to_host));
    RBLNSIM_RETURN_IF_ERROR(r.Int(e, "bytes_to_device", &f.bytes_to_device));
  }
  RBLNSIM_RETURN_IF_ERROR(r.Array(doc, "recompiles", &array));
  for (dom::element e : array) {
    TruthFile::Recompile& c = truth.recompiles.emplace_back();
    RBLNSIM_RETURN_IF_ERROR(r.Str(e, "op", &c.op));
    RBLNSIM_RETURN_IF_ERROR(r.Str(e, "program", &c.program));
    RBLNSIM_RETURN_IF_ERROR(r.Int(e, "instance", &c.instance));
    RBLNSIM_RETURN_IF_ERROR(r.Bool(e, "eviction", &c.eviction));
    RBLNSIM_RETURN_IF_ERROR(r.Bool(e, "failed", &c.failed));
  }
  RBLNSIM_RETURN_IF_ERROR(r.Array(doc, "round_trips", &array));
  for (dom::element e : array) {
    TruthFile::RoundTrip& t = truth.round_trips.emplace_back();
    std::string direction;
    RBLNSIM_RETURN_IF_ERROR(r.Str(e, "reason", &t.reason));
    RBLNSIM_RETURN_IF_ERROR(r.Str(e, "direction", &direction));
    RBLNSIM_RETURN_IF_ERROR(r.Int(e, "bytes", &t.bytes));
    if (direction != "device_to_host" && direction != "host_to_device") {
      return r.Error("round trip direction \"" + direction +
                     "\" is neither device_to_host nor host_to_device");
    }
    t.to_host = direction == "device_to_host";
  }
  RBLNSIM_RETURN_IF_ERROR(r.Int(doc, "nan_inf_scans", &truth.nan_inf_scans));
  RBLNSIM_RETURN_IF_ERROR(r.Int(doc, "records_dropped", &truth.records_dropped));
  RBLNSIM_RETURN_IF_ERROR(r.Int(doc, "commands_timed_out", &truth.commands_timed_out));
  return truth;
}

}  // namespace rblnsim::analysis
