// The exported C functions of librblnsim_kineto.so. libsystemc.so references sc_main, so a library
// loaded with dlopen into a consumer's process must define one, or loading fails with
// "undefined symbol: sc_main". The simulation never goes through it: sc_start is called directly.
#include "profiler/abi/rbln_kineto_api.h"
#include "sim/runtime/simulated_runtime.h"

using rblnsim::sim::SimulatedRuntime;

extern "C" {

__attribute__((visibility("default"))) int sc_main(int /*argc*/, char** /*argv*/) { return 0; }

__attribute__((visibility("default"))) RBLNRetCode rbln_kineto_is_active(int32_t* active_out) {
  return SimulatedRuntime::Get().producer().IsActive(active_out);
}

__attribute__((visibility("default"))) RBLNRetCode rbln_kineto_begin_session(void) {
  return SimulatedRuntime::Get().producer().BeginSession();
}

__attribute__((visibility("default"))) RBLNRetCode rbln_kineto_end_session_and_export(
    RblnKinetoExportSink sink,
    void* user_data,
    int32_t* exported_out) {
  return SimulatedRuntime::Get().producer().EndSession(sink, user_data, exported_out);
}

__attribute__((visibility("default"))) RBLNRetCode rblnsim_kineto_last_session_stats(
    RblnsimKinetoStats* stats_out) {
  return SimulatedRuntime::Get().producer().LastSessionStats(stats_out);
}

}  // extern "C"
