// Reads the ground-truth JSON that `rblnsim run --truth` writes (tools/rblnsim/run_outputs.cc).
#include <simdjson.h>

#include "profiler/analysis/truth_score.h"

namespace rblnsim::analysis {

namespace {

namespace dom = simdjson::dom;

class Reader {
 public:
  explicit Reader(const std::string& path) : path_(path) {}

  Status Error(const std::string& what) const { return Status::Error(path_ + ": " + what); }

  Status Int(dom::element object, const char* key, int64_t* out) const {
    if (object[key].get_int64().get(*out) != simdjson::SUCCESS) {
      return Error(std::string("expected an integer \"") + key + "\"");
    }
    return Status::Ok();
  }
  Status Str(dom::element object, const char* key, std::string* out) const {
    std::string_view text;
    if (object[key].get_string().get(text) != simdjson::SUCCESS) {
      return Error(std::string("expected a string \"") + key + "\"");
    }
    *out = std::string(text);
    return Status::Ok();
  }
  Status Array(dom::element doc, const char* key, dom::array* out) const {
    if (doc[key].get_array().get(*out) != simdjson::SUCCESS) {
      return Error(std::string("expected an array \"") + key + "\"");
    }
    return Status::Ok();
  }

 private:
  const std::string& path_;
};

}  // namespace

StatusOr<GroundTruthFile> LoadGroundTruth(const std::string& path) {
  Reader r(path);
  dom::parser parser;
  dom::element doc;
  if (auto error = parser.load(path).get(doc)) {
    return r.Error(std::string("cannot read the ground truth: ") + simdjson::error_message(error));
  }
  GroundTruthFile truth;
  dom::array array;
  RBLNSIM_RETURN_IF_ERROR(r.Array(doc, "launches", &array));
  for (dom::element e : array) {
    GroundTruthFile::Launch l;
    RBLNSIM_RETURN_IF_ERROR(r.Int(e, "launch_id", &l.launch_id));
    RBLNSIM_RETURN_IF_ERROR(r.Int(e, "latency_ns", &l.latency_ns));
    if (e["failed"].get_bool().get(l.failed) != simdjson::SUCCESS)
      l.failed = false;
    truth.launches.push_back(l);
  }
  RBLNSIM_RETURN_IF_ERROR(r.Array(doc, "fallbacks", &array));
  for (dom::element e : array) {
    GroundTruthFile::Fallback f;
    RBLNSIM_RETURN_IF_ERROR(r.Str(e, "op", &f.op));
    RBLNSIM_RETURN_IF_ERROR(r.Str(e, "reason", &f.reason));
    RBLNSIM_RETURN_IF_ERROR(r.Int(e, "bytes_to_host", &f.bytes_to_host));
    RBLNSIM_RETURN_IF_ERROR(r.Int(e, "bytes_to_device", &f.bytes_to_device));
    truth.fallbacks.push_back(std::move(f));
  }
  RBLNSIM_RETURN_IF_ERROR(r.Array(doc, "recompiles", &array));
  for (dom::element e : array) {
    GroundTruthFile::Recompile c;
    RBLNSIM_RETURN_IF_ERROR(r.Str(e, "op", &c.op));
    RBLNSIM_RETURN_IF_ERROR(r.Int(e, "instance", &c.instance));
    truth.recompiles.push_back(std::move(c));
  }
  RBLNSIM_RETURN_IF_ERROR(r.Array(doc, "round_trips", &array));
  for (dom::element e : array) {
    GroundTruthFile::RoundTrip t;
    std::string direction;
    RBLNSIM_RETURN_IF_ERROR(r.Str(e, "reason", &t.reason));
    RBLNSIM_RETURN_IF_ERROR(r.Str(e, "direction", &direction));
    RBLNSIM_RETURN_IF_ERROR(r.Int(e, "bytes", &t.bytes));
    if (direction != "device_to_host" && direction != "host_to_device") {
      return r.Error("round trip direction \"" + direction +
                     "\" is neither device_to_host nor "
                     "host_to_device");
    }
    t.to_host = direction == "device_to_host";
    truth.round_trips.push_back(std::move(t));
  }
  RBLNSIM_RETURN_IF_ERROR(r.Int(doc, "nan_inf_scans", &truth.nan_inf_scans));
  return truth;
}

}  // namespace rblnsim::analysis
