#include "profiler/bridge/kineto_api.h"

#include <dlfcn.h>

#include <iterator>

namespace rblnsim::bridge {

namespace {

// dlerror() returns null when nothing failed since the last call; never build a string from it.
std::string LastDlError() {
  const char* error = dlerror();
  return error != nullptr ? std::string(error) : std::string("no dlerror text");
}

// Resolves |name| in |handle|. A symbol may legitimately be null, so success is judged by
// dlerror() being clear afterwards, not by the returned pointer alone.
StatusOr<void*> FindSymbol(void* handle, const std::string& so_path, const char* name) {
  dlerror();
  void* symbol = dlsym(handle, name);
  const char* error = dlerror();
  if (error != nullptr || symbol == nullptr) {
    return Status::Error(so_path + ": missing symbol " + name + ": " +
                         (error != nullptr ? std::string(error) : std::string("resolved to null")));
  }
  return symbol;
}

// Converts an object pointer from dlsym to a function pointer type (POSIX guarantees this works).
template <typename Fn>
Fn AsFunction(void* symbol) {
  return reinterpret_cast<Fn>(symbol);
}

}  // namespace

StatusOr<KinetoApi> KinetoApi::Load(const std::string& so_path) {
  if (so_path.empty())
    return Status::Error("rbln_kineto producer path is empty");
  // RTLD_NOW surfaces unresolved dependencies here, with the path in the message, instead of as a
  // lazy-binding abort in the middle of a session.
  void* handle = dlopen(so_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    return Status::Error("cannot load rbln_kineto producer " + so_path + ": " + LastDlError());
  }
  KinetoApi api;
  RBLNSIM_ASSIGN_OR_RETURN(void* is_active, FindSymbol(handle, so_path, "rbln_kineto_is_active"));
  RBLNSIM_ASSIGN_OR_RETURN(void* begin, FindSymbol(handle, so_path, "rbln_kineto_begin_session"));
  RBLNSIM_ASSIGN_OR_RETURN(void* end,
                           FindSymbol(handle, so_path, "rbln_kineto_end_session_and_export"));
  api.is_active = AsFunction<IsActiveFn>(is_active);
  api.begin_session = AsFunction<BeginSessionFn>(begin);
  api.end_session_and_export = AsFunction<EndSessionAndExportFn>(end);
  // Optional: the real runtime does not have it, so its absence is not an error.
  StatusOr<void*> stats = FindSymbol(handle, so_path, "rblnsim_kineto_last_session_stats");
  if (stats.ok())
    api.last_session_stats = AsFunction<LastSessionStatsFn>(*stats);
  return api;
}

StatusOr<KinetoApi> KinetoApi::FromFunctions(IsActiveFn is_active,
                                             BeginSessionFn begin_session,
                                             EndSessionAndExportFn end_session_and_export,
                                             LastSessionStatsFn last_session_stats) {
  if (is_active == nullptr)
    return Status::Error("rbln_kineto_is_active is null");
  if (begin_session == nullptr)
    return Status::Error("rbln_kineto_begin_session is null");
  if (end_session_and_export == nullptr) {
    return Status::Error("rbln_kineto_end_session_and_export is null");
  }
  KinetoApi api;
  api.is_active = is_active;
  api.begin_session = begin_session;
  api.end_session_and_export = end_session_and_export;
  api.last_session_stats = last_session_stats;
  return api;
}

std::string RetCodeName(RBLNRetCode code) {
  // Indexed by value: the header numbers its codes 0..5 without gaps.
  static constexpr const char* kNames[] = {
      "RBLN_KINETO_OK",
      "RBLN_KINETO_ERR_INVALID_ARGUMENT",
      "RBLN_KINETO_ERR_NOT_ACTIVE",
      "RBLN_KINETO_ERR_NO_SESSION",
      "RBLN_KINETO_ERR_SESSION_ACTIVE",
      "RBLN_KINETO_ERR_RUNTIME",
  };
  static_assert(RBLN_KINETO_OK == 0 && RBLN_KINETO_ERR_INVALID_ARGUMENT == 1 &&
                RBLN_KINETO_ERR_NOT_ACTIVE == 2 && RBLN_KINETO_ERR_NO_SESSION == 3 &&
                RBLN_KINETO_ERR_SESSION_ACTIVE == 4 && RBLN_KINETO_ERR_RUNTIME == 5);
  if (code < 0 || code >= static_cast<RBLNRetCode>(std::size(kNames))) {
    return "code " + std::to_string(code);
  }
  return std::string(kNames[code]) + " (" + std::to_string(code) + ")";
}

}  // namespace rblnsim::bridge
