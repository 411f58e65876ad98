#include "profiler/trace/output_paths.h"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>

#include "profiler/trace/atomic_file.h"

namespace rblnsim::trace {

namespace {

// What a path resolves to: the file's identity when it exists, else the resolved name it
// would get. Two paths name the same file when either identity matches.
struct Resolved {
  std::optional<std::pair<dev_t, ino_t>> inode;
  std::string name;
};

std::string ResolveName(const std::string& path) {
  char buffer[PATH_MAX];
  if (::realpath(path.c_str(), buffer) != nullptr)
    return buffer;
  const size_t slash = path.find_last_of('/');
  const std::string dir =
      slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  if (::realpath(dir.c_str(), buffer) == nullptr)
    return path;
  std::string resolved = buffer;
  if (resolved.back() != '/')
    resolved += '/';
  return resolved + base;
}

Resolved Resolve(const std::string& path) {
  Resolved resolved;
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0)
    resolved.inode = std::make_pair(info.st_dev, info.st_ino);
  resolved.name = ResolveName(path);
  return resolved;
}

bool SameFile(const Resolved& a, const Resolved& b) {
  if (a.inode && b.inode)
    return *a.inode == *b.inode;
  return a.name == b.name;
}

Status Refuse(const NamedPath& output, const std::string& why) {
  return Status::Error(output.role + " '" + output.path + "': " + why);
}

}  // namespace

Status CheckOutputPaths(const std::vector<NamedPath>& inputs,
                        const std::vector<NamedPath>& outputs) {
  std::vector<Resolved> input_files;
  std::vector<const NamedPath*> input_names;
  for (const NamedPath& input : inputs) {
    if (input.path.empty())
      continue;
    input_files.push_back(Resolve(input.path));
    input_names.push_back(&input);
  }
  std::vector<Resolved> seen_outputs;
  std::vector<const NamedPath*> seen_names;
  for (const NamedPath& output : outputs) {
    if (output.path.empty())
      return Refuse(output, "the path is empty");
    struct stat link_info {};
    if (::lstat(output.path.c_str(), &link_info) == 0) {
      if (S_ISLNK(link_info.st_mode)) {
        return Refuse(output, "is a symbolic link; name its target to write there");
      }
      if (!S_ISREG(link_info.st_mode)) {
        return Refuse(output, S_ISDIR(link_info.st_mode) ? "is a directory"
                                                         : "exists and is not a regular file");
      }
    }
    const Resolved resolved = Resolve(output.path);
    for (size_t i = 0; i < input_files.size(); ++i) {
      if (SameFile(resolved, input_files[i])) {
        return Refuse(output, "is the same file as the input " + input_names[i]->role + " '" +
                                  input_names[i]->path + "'; writing it would destroy the input");
      }
    }
    for (size_t i = 0; i < seen_outputs.size(); ++i) {
      if (SameFile(resolved, seen_outputs[i])) {
        return Refuse(output, "is the same file as the output " + seen_names[i]->role + " '" +
                                  seen_names[i]->path + "'");
      }
    }
    seen_outputs.push_back(resolved);
    seen_names.push_back(&output);
  }
  return Status::Ok();
}

Status CheckOutputDirectory(const std::string& role, const std::string& dir) {
  if (dir.empty())
    return Status::Error(role + ": the path is empty");
  struct stat info {};
  if (::stat(dir.c_str(), &info) == 0) {
    if (!S_ISDIR(info.st_mode))
      return Status::Error(role + " '" + dir + "': needs a directory");
    if (::access(dir.c_str(), W_OK | X_OK) != 0) {
      return Status::Error(role + " '" + dir + "': the directory is not writable");
    }
    return Status::Ok();
  }
  return CheckWritable(dir);
}

}  // namespace rblnsim::trace
