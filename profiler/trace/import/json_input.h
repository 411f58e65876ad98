// Loads a trace file into one buffer that simdjson can read in place: plain JSON as is, gzip
// (recognised by its magic bytes, not the file name) inflated in a streaming way. The buffer ends
// with simdjson's padding, so any sub-range of it is a valid padded view.
#ifndef RBLNSIM_PROFILER_TRACE_IMPORT_JSON_INPUT_H_
#define RBLNSIM_PROFILER_TRACE_IMPORT_JSON_INPUT_H_

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "profiler/base/status.h"

namespace rblnsim::trace::import {

class JsonInput {
 public:
  JsonInput() = default;

  // Copies |text| into a padded buffer.
  static StatusOr<JsonInput> FromText(std::string_view text);
  // Reads |path|; gzip input is inflated. Errors read "<path>: byte <offset>: <what>", with the
  // offset into the compressed file for gzip damage.
  static StatusOr<JsonInput> FromFile(const std::string& path);

  const char* data() const { return bytes_.get(); }
  size_t size() const { return size_; }
  // Bytes readable from data(): size() plus at least simdjson's padding.
  size_t capacity() const { return capacity_; }
  std::string_view view() const { return {data(), size_}; }
  bool was_gzip() const { return was_gzip_; }

 private:
  struct FreeDeleter {
    void operator()(char* p) const { std::free(p); }
  };
  // malloc/realloc rather than std::string: growing a multi-GB inflate buffer must neither
  // zero-fill every step nor throw when memory runs out (a gzip bomb is an error, not a crash).
  bool Reserve(size_t bytes);
  void ShrinkToFit();
  void PadEnd();

  std::unique_ptr<char, FreeDeleter> bytes_;
  size_t size_ = 0;
  size_t capacity_ = 0;
  bool was_gzip_ = false;

  friend class InputReader;
};

}  // namespace rblnsim::trace::import

#endif  // RBLNSIM_PROFILER_TRACE_IMPORT_JSON_INPUT_H_
