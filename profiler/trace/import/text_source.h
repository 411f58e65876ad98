// Where the JSON text of a trace comes from, read front to back in pieces: a plain file, a gzip
// file inflated as it is read (every member; recognised by its magic bytes, not its name), or
// text already in memory. The importer never needs more than the piece it is looking at, so a
// gigabyte trace is not held in memory at once (text_window.h keeps the piece).
#ifndef RBLNSIM_PROFILER_TRACE_IMPORT_TEXT_SOURCE_H_
#define RBLNSIM_PROFILER_TRACE_IMPORT_TEXT_SOURCE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/status.h"
#include "profiler/trace/import/mapped_text.h"

namespace rblnsim::trace::import {

class TextSource {
 public:
  virtual ~TextSource() = default;
  // Copies the next bytes of the text to |out| (at most |capacity|); 0 only at the end. Errors
  // are one line without the path: "byte <offset>: <what>" with the offset into the compressed
  // file for gzip damage, or "read error: ...".
  virtual StatusOr<size_t> Read(char* out, size_t capacity) = 0;
  virtual bool was_gzip() const { return false; }
  // The size of the whole text when known without reading it (not for gzip).
  virtual std::optional<uint64_t> size_hint() const { return std::nullopt; }
  // The whole text mapped into memory (a plain regular file), for a reader that reads it in
  // place instead of calling Read; nullptr otherwise, or when it was taken already.
  virtual std::unique_ptr<MappedText> TakeMapping() { return nullptr; }
};

// Opens |path|. Errors name the path ("<path>: cannot open: ..."). A plain regular file is
// mapped when it can be (TakeMapping).
StatusOr<std::unique_ptr<TextSource>> OpenTextSource(const std::string& path);

// Reads |text|, which must outlive the source; no copy is made.
std::unique_ptr<TextSource> TextSourceFromMemory(std::string_view text);

}  // namespace rblnsim::trace::import

#endif  // RBLNSIM_PROFILER_TRACE_IMPORT_TEXT_SOURCE_H_
