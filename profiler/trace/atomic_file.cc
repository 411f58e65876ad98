#include "profiler/trace/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <optional>
#include <system_error>

#include "profiler/trace/temp_cleanup.h"

namespace rblnsim::trace {

namespace {

std::string ErrnoText(int error) {
  return std::generic_category().message(error);
}

// A path the user named that cannot be an output (no such directory, a directory itself): bad
// input.
Status PathError(const std::string& path, const std::string& what) {
  return Status::Error("cannot write '" + path + "': " + what);
}

// The path was fine but writing it failed (disk full, permissions, fsync/rename): an I/O error.
Status WriteError(const std::string& path, const std::string& what) {
  return Status::IoError("cannot write '" + path + "': " + what);
}

// "dir/" part of |path| including the slash, or "" for a bare file name.
std::string DirectoryPrefix(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

std::string DirectoryOf(const std::string& path) {
  const std::string prefix = DirectoryPrefix(path);
  if (prefix.empty())
    return ".";
  if (prefix == "/")
    return "/";
  return prefix.substr(0, prefix.size() - 1);
}

}  // namespace

Status CheckWritable(const std::string& path) {
  if (path.empty())
    return PathError(path, "empty path");
  if (path.back() == '/')
    return PathError(path, "is a directory");
  const std::string dir = DirectoryOf(path);
  struct stat info {};
  if (::stat(dir.c_str(), &info) != 0) {
    return PathError(path, "directory '" + dir + "': " + ErrnoText(errno));
  }
  if (!S_ISDIR(info.st_mode)) {
    return PathError(path, "'" + dir + "' is not a directory");
  }
  // AT_EACCESS: judge by the effective ids, which are what open() and rename() use.
  if (::faccessat(AT_FDCWD, dir.c_str(), W_OK | X_OK, AT_EACCESS) != 0) {
    return PathError(path, "directory '" + dir + "': " + ErrnoText(errno));
  }
  if (::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) {
    return PathError(path, "is a directory");
  }
  return Status::Ok();
}

Status WriteFileAtomically(const std::string& path,
                           const std::function<Status(OutputSink& sink)>& write) {
  RBLNSIM_RETURN_IF_ERROR(CheckWritable(path));

  // The name is unique per process and call, and O_EXCL guards against anything else that might
  // use the same pattern; the leading dot keeps half-written files out of casual listings.
  static std::atomic<uint64_t> counter{0};
  const std::string prefix = DirectoryPrefix(path);
  const std::string base = path.substr(prefix.size());
  std::string temp;
  int fd = -1;
  // The temporary is created and registered for removal on SIGINT/SIGTERM with those signals
  // held back, so no interrupt falls between the two and leaves it behind.
  ScopedTempPath guard;
  std::optional<SignalsHeldBack> held(std::in_place);
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    temp = prefix + "." + base + ".tmp." + std::to_string(::getpid()) + "." +
           std::to_string(counter.fetch_add(1));
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) {
      return WriteError(path, "cannot create temporary file '" + temp + "': " + ErrnoText(errno));
    }
  }
  if (fd < 0)
    return WriteError(path, "no free temporary file name next to it");
  guard = ScopedTempPath(temp, /*directory=*/false);
  held.reset();
  // A replaced file keeps its permissions (a trace someone made group-readable stays so).
  struct stat existing {};
  if (::stat(path.c_str(), &existing) == 0 && S_ISREG(existing.st_mode)) {
    (void)::fchmod(fd, existing.st_mode & 07777);
  }

  Status status;
  {
    FdSinkOptions sink_options;
    sink_options.direct_from_bytes = kWriteDirectFromBytes;
    FdSink sink(fd, path, sink_options);
    status = write(sink);
    const Status flushed = sink.Flush();
    if (status.ok())
      status = flushed;
  }
  if (status.ok() && ::fsync(fd) != 0)
    status = WriteError(path, "fsync: " + ErrnoText(errno));
  if (::close(fd) != 0 && status.ok())
    status = WriteError(path, "close: " + ErrnoText(errno));
  if (status.ok() && ::rename(temp.c_str(), path.c_str()) != 0) {
    status = WriteError(path, "rename from '" + temp + "': " + ErrnoText(errno));
  }
  if (!status.ok()) {
    ::unlink(temp.c_str());
    return status;
  }

  // Persist the directory entry too. Some filesystems refuse fsync on a directory; the file
  // content is already safe, so that is not worth failing the write for.
  const int dir_fd = ::open(DirectoryOf(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    (void)::fsync(dir_fd);
    ::close(dir_fd);
  }
  return Status::Ok();
}

}  // namespace rblnsim::trace
