// Writing files. WriteFileAtomically never leaves a torn file behind: the content goes to a
// temporary file in the target's directory (same filesystem, so rename() is atomic), is fsync'ed,
// and replaces the target only when everything succeeded. Readers see the old file or the new
// one, never a mix. It writes through FdSink (fd_sink.h).
#ifndef RBLNSIM_PROFILER_TRACE_ATOMIC_FILE_H_
#define RBLNSIM_PROFILER_TRACE_ATOMIC_FILE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "base/status.h"
#include "profiler/trace/fd_sink.h"
#include "profiler/trace/json_writer.h"

namespace rblnsim::trace {

// Reports, before any expensive work starts, why |path| could not be written: its directory is
// missing or not a directory, the directory is not writable, or |path| is a directory. Messages
// name the path and carry the errno text.
Status CheckWritable(const std::string& path);

// A file's first 64 MiB go through the page cache, where the command that usually follows (an
// analyze of the trace just written) reads them back; past that, whole buffers are written with
// O_DIRECT (fd_sink.h: for a trace of gigabytes the page-cache copy costs more than the JSON
// text, and the closing fsync would wait for all of it).
inline constexpr uint64_t kWriteDirectFromBytes = uint64_t{64} << 20;

// Creates a temporary file next to |path|, lets |write| fill it through |sink|, then flushes,
// fsyncs, renames it over |path| and fsyncs the directory. If |write| or any step fails, the
// temporary file is removed, |path| keeps its old content (or stays absent), and the first error
// is returned. The new file gets the usual 0666 & ~umask permissions.
Status WriteFileAtomically(const std::string& path,
                           const std::function<Status(OutputSink& sink)>& write);

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_ATOMIC_FILE_H_
