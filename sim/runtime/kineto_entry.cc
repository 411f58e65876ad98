// The C functions of librblnsim_kineto.so: the rbln_kineto C-ABI under both published names
// (stage A's begin_scope / end_scope_and_export and stage B's begin_session /
// end_session_and_export, same semantics) and the rblnsim stats extension. All of them drive the
// process-wide SimulatedRuntime, the one the activity API of librblnsim_runtime.so drives too.
#include "profiler/abi/rbln_kineto_api.h"
#include "sim/runtime/simulated_runtime.h"

using rblnsim::sim::SimulatedRuntime;

#define RBLNSIM_EXPORT __attribute__((visibility("default")))

extern "C" {

RBLNSIM_EXPORT RBLNRetCode rbln_kineto_is_active(int32_t* active_out) {
  return SimulatedRuntime::Get().producer().IsActive(active_out);
}

RBLNSIM_EXPORT RBLNRetCode rbln_kineto_begin_session(void) {
  return SimulatedRuntime::Get().producer().BeginSession();
}

RBLNSIM_EXPORT RBLNRetCode rbln_kineto_end_session_and_export(RblnKinetoExportSink sink,
                                                              void* user_data,
                                                              int32_t* exported_out) {
  return SimulatedRuntime::Get().producer().EndSession(sink, user_data, exported_out);
}

RBLNSIM_EXPORT RBLNRetCode rbln_kineto_begin_scope(void) {
  return SimulatedRuntime::Get().producer().BeginSession();
}

RBLNSIM_EXPORT RBLNRetCode rbln_kineto_end_scope_and_export(RblnKinetoExportSink sink,
                                                            void* user_data,
                                                            int32_t* exported_out) {
  return SimulatedRuntime::Get().producer().EndSession(sink, user_data, exported_out);
}

RBLNSIM_EXPORT RBLNRetCode rblnsim_kineto_last_session_stats(RblnsimKinetoStats* stats_out) {
  return SimulatedRuntime::Get().producer().LastSessionStats(stats_out);
}

}  // extern "C"
