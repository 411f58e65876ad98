// The three rbln_kineto entry points (plus rblnsim's optional stats extension) as function
// pointers, so the bridge can run against a dlopen()ed producer, the symbols linked into the CLI,
// or fakes in tests, with no code path that differs between them.
#ifndef RBLNSIM_PROFILER_BRIDGE_KINETO_API_H_
#define RBLNSIM_PROFILER_BRIDGE_KINETO_API_H_

#include <string>

#include "base/status.h"
#include "profiler/abi/rbln_kineto_api.h"

namespace rblnsim::bridge {

struct KinetoApi {
  using IsActiveFn = RBLNRetCode (*)(int32_t* active_out);
  using BeginSessionFn = RBLNRetCode (*)();
  using EndSessionAndExportFn = RBLNRetCode (*)(RblnKinetoExportSink sink,
                                                void* user_data,
                                                int32_t* exported_out);
  using LastSessionStatsFn = RBLNRetCode (*)(RblnsimKinetoStats* stats_out);

  IsActiveFn is_active = nullptr;
  BeginSessionFn begin_session = nullptr;
  EndSessionAndExportFn end_session_and_export = nullptr;
  // rblnsim extension; null when the producer (e.g. the real librbln) does not provide it.
  LastSessionStatsFn last_session_stats = nullptr;

  // Opens |so_path| with dlopen and resolves the three required symbols and the optional
  // extension. The library is never closed: a producer runtime may own threads and static state
  // whose teardown is not safe to trigger mid-process, and the real runtime stays loaded too.
  static StatusOr<KinetoApi> Load(const std::string& so_path);

  // Wraps given entry points (the CLI's linked symbols, or test fakes). The three required
  // pointers must be non-null; |last_session_stats| may be null.
  static StatusOr<KinetoApi> FromFunctions(IsActiveFn is_active,
                                           BeginSessionFn begin_session,
                                           EndSessionAndExportFn end_session_and_export,
                                           LastSessionStatsFn last_session_stats = nullptr);
};

// "RBLN_KINETO_ERR_NO_SESSION (3)" for the documented codes, "code 42" otherwise.
std::string RetCodeName(RBLNRetCode code);

}  // namespace rblnsim::bridge

#endif  // RBLNSIM_PROFILER_BRIDGE_KINETO_API_H_
