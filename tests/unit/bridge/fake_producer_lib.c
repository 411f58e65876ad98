/*
 * A minimal producer shared library for KinetoApi::Load(): the three entry points plus the
 * stats extension, with fixed answers the test recognises. No export is ever made. Built a second
 * time with RBLNSIM_FAKE_OMIT_END defined, to check that a missing symbol is named in the error.
 */
#include "profiler/abi/rbln_kineto_api.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT RBLNRetCode rbln_kineto_is_active(int32_t* active_out) {
  if (active_out == 0)
    return RBLN_KINETO_ERR_INVALID_ARGUMENT;
  *active_out = 1;
  return RBLN_KINETO_OK;
}

EXPORT RBLNRetCode rbln_kineto_begin_session(void) {
  return RBLN_KINETO_OK;
}

#ifndef RBLNSIM_FAKE_OMIT_END
EXPORT RBLNRetCode rbln_kineto_end_session_and_export(RblnKinetoExportSink sink,
                                                      void* user_data,
                                                      int32_t* exported_out) {
  (void)user_data;
  if (sink == 0 || exported_out == 0)
    return RBLN_KINETO_ERR_INVALID_ARGUMENT;
  *exported_out = 0;
  return RBLN_KINETO_OK;
}
#endif

EXPORT RBLNRetCode rblnsim_kineto_last_session_stats(RblnsimKinetoStats* stats_out) {
  if (stats_out == 0)
    return RBLN_KINETO_ERR_INVALID_ARGUMENT;
  stats_out->records_captured = 7;
  stats_out->records_dropped = 0;
  stats_out->launches = 0;
  stats_out->commands_timed_out = 0;
  return RBLN_KINETO_OK;
}
