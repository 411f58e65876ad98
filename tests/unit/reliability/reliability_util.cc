#include "tests/unit/reliability/reliability_util.h"

#include <fcntl.h>
#include <signal.h>
#include <simdjson.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <thread>

#include "profiler/trace/import/chrome_trace_import.h"

extern char** environ;

namespace rblnsim::testing {

namespace {

std::string EnvOrEmpty(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

// A variable rblnsim_test sets on every test; without it the paths below would point nowhere.
std::string RequiredEnv(const char* name) {
  const std::string value = EnvOrEmpty(name);
  if (value.empty()) {
    std::fprintf(stderr, "%s is not set: run the test through ctest\n", name);
    std::abort();
  }
  return value;
}

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::string SourcePath(const std::string& relative) {
  return RequiredEnv("RBLNSIM_SOURCE_DIR") + "/" + relative;
}

TempDir::TempDir() {
  const std::string base = EnvOrEmpty("TMPDIR").empty() ? "/tmp" : EnvOrEmpty("TMPDIR");
  path_ = base + "/rblnsim-reliability-XXXXXX";
  if (mkdtemp(path_.data()) == nullptr)
    std::abort();
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

ProcessResult RunRblnsim(const std::vector<std::string>& args,
                         const std::vector<std::string>& env,
                         double limit_seconds) {
  const TempDir dir;
  const std::string out_path = dir.path() + "/stdout";
  const std::string err_path = dir.path() + "/stderr";
  const std::string binary = RequiredEnv("RBLNSIM_BUILD_DIR") + "/bin/rblnsim";

  // Built before fork(): the child only calls async-signal-safe functions.
  std::vector<std::string> argv_text = {binary};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<std::string> env_text;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view entry(*e);
    if (!entry.starts_with("RBLN") && !entry.starts_with("TORCH_RBLN"))
      env_text.emplace_back(entry);
  }
  env_text.insert(env_text.end(), env.begin(), env.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (std::string& e : env_text)
    envp.push_back(e.data());
  envp.push_back(nullptr);

  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    const int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
      _exit(127);
    execve(binary.c_str(), argv.data(), envp.data());
    _exit(127);
  }
  ProcessResult result;
  int status = 0;
  while (true) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid)
      break;
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    if (elapsed.count() > limit_seconds && !result.timed_out) {
      result.timed_out = true;
      kill(pid, SIGKILL);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = ReadWholeFile(out_path);
  result.err = ReadWholeFile(err_path);
  return result;
}

StatusOr<std::map<std::string, uint64_t>> TraceCounters(const std::string& path,
                                                        const std::string& key) {
  RBLNSIM_ASSIGN_OR_RETURN(trace::ImportResult imported, trace::ImportChromeTrace(path));
  for (const auto& [name, raw] : imported.trace.metadata) {
    if (name != key)
      continue;
    simdjson::dom::parser parser;
    simdjson::dom::object object;
    if (parser.parse(simdjson::padded_string(raw.text)).get(object) != simdjson::SUCCESS)
      return Status::Error(key + " is not a JSON object: " + raw.text);
    std::map<std::string, uint64_t> counters;
    for (auto field : object) {
      uint64_t value = 0;
      if (field.value.get(value) == simdjson::SUCCESS)
        counters[std::string(field.key)] = value;
    }
    return counters;
  }
  return Status::Error(path + " has no top-level \"" + key + "\"");
}

StatusOr<int64_t> CountDeviceSlices(const std::string& path) {
  RBLNSIM_ASSIGN_OR_RETURN(trace::ImportResult imported, trace::ImportChromeTrace(path));
  int64_t count = 0;
  for (const trace::Event& event : imported.trace.events) {
    const bool device = event.category == trace::Category::kKernel ||
                        event.category == trace::Category::kGpuMemcpy ||
                        event.category == trace::Category::kPrivateUse1Driver;
    if (device && event.phase == trace::Phase::kComplete)
      ++count;
  }
  return count;
}

std::string CaptureStderr(const std::function<void()>& body) {
  const TempDir dir;
  const std::string path = dir.path() + "/stderr";
  std::fflush(stderr);
  const int saved = dup(2);
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (saved < 0 || fd < 0 || dup2(fd, 2) < 0)
    std::abort();
  close(fd);
  body();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  return ReadWholeFile(path);
}

namespace {

void CopyingSink(const RblnKinetoExport* exp, void* user_data) {
  auto* session = static_cast<AbiSession*>(user_data);
  ++session->sink_calls;
  for (uint32_t i = 0; i < exp->slices_count; ++i) {
    const RblnKinetoSlice& in = exp->slices[i];
    ExportedSlice out;
    out.name = in.name == nullptr ? "" : in.name;
    out.kind = static_cast<int32_t>(in.kind);
    out.start_steady_ns = in.start_steady_ns;
    out.end_steady_ns = in.end_steady_ns;
    for (uint32_t a = 0; a < in.annotations_count; ++a) {
      const RblnKinetoAnnotation& note = in.annotations[a];
      if (note.name != nullptr && note.value != nullptr && std::strcmp(note.name, "launch_id") == 0)
        out.launch_id = std::strtoll(note.value, nullptr, 10);
    }
    session->slices.push_back(std::move(out));
  }
}

}  // namespace

AbiSession RunAbiSession() {
  AbiSession session;
  session.begin_code = rbln_kineto_begin_session();
  session.end_code = rbln_kineto_end_session_and_export(&CopyingSink, &session, &session.exported);
  session.stats_code = rblnsim_kineto_last_session_stats(&session.stats);
  return session;
}

std::vector<ExportedSlice> DeviceSlices(const std::vector<ExportedSlice>& slices) {
  std::vector<ExportedSlice> device;
  for (const ExportedSlice& slice : slices) {
    if (slice.kind != RBLN_KINETO_KIND_RUNTIME)
      device.push_back(slice);
  }
  return device;
}

sim::SimulatedSession SimulateInProcess(const scenario::Scenario& scenario) {
  auto simulated = sim::SimulateSession({&scenario, trace::Dialect::kCurrent,
                                         /*keep_device_records=*/true});
  if (!simulated.ok()) {
    std::fprintf(stderr, "%s\n", simulated.status().message().c_str());
    std::abort();
  }
  if (!simulated->warmup.ok()) {
    std::fprintf(stderr, "warm-up: %s\n", simulated->warmup.message().c_str());
    std::abort();
  }
  return std::move(*simulated);
}

}  // namespace rblnsim::testing
