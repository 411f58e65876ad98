#include "bench/shared_trace_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "bench/synthetic_trace.h"

namespace rblnsim::bench {

namespace {

constexpr uint64_t kDefaultTraceMb = 520;

uint64_t TargetBytes() {
  const char* mb = std::getenv("RBLNSIM_BENCH_TRACE_MB");
  const uint64_t value = mb != nullptr ? std::strtoull(mb, nullptr, 10) : 0;
  return (value > 0 ? value : kDefaultTraceMb) * 1'000'000;
}

// Writes the file on construction; the destructor (at process exit) removes it.
struct OwnedFile {
  OwnedFile() {
    file.launches = LaunchesForBytes(TargetBytes());
    file.path = WriteSyntheticTraceFile(file.launches);
    struct stat st {};
    if (!file.path.empty() && ::stat(file.path.c_str(), &st) == 0)
      file.bytes = static_cast<uint64_t>(st.st_size);
  }
  OwnedFile(const OwnedFile&) = delete;
  OwnedFile& operator=(const OwnedFile&) = delete;
  ~OwnedFile() {
    if (!file.path.empty())
      ::unlink(file.path.c_str());
  }
  SharedTraceFile file;
};

}  // namespace

const SharedTraceFile& SharedTrace() {
  static const OwnedFile owned;
  return owned.file;
}

const trace::ImportResult& SharedImport() {
  static const std::unique_ptr<trace::ImportResult> imported = [] {
    const SharedTraceFile& file = SharedTrace();
    auto result = trace::ImportChromeTrace(file.path);
    if (!result.ok()) {
      std::fprintf(stderr, "cannot import the benchmark trace: %s\n",
                   result.status().message().c_str());
      std::abort();
    }
    return std::make_unique<trace::ImportResult>(std::move(*result));
  }();
  return *imported;
}

}  // namespace rblnsim::bench
