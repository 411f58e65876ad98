/*
 * How the C consumers in tests/e2e load a C-ABI producer the way torch-rbln's bridge does:
 * dlopen with RTLD_NOW | RTLD_LOCAL, then the entry points by name. Header-only, for C.
 */
#ifndef RBLNSIM_TESTS_E2E_KINETO_DLOPEN_H_
#define RBLNSIM_TESTS_E2E_KINETO_DLOPEN_H_

#include <dlfcn.h>
#include <stdio.h>

#include "profiler/abi/rbln_kineto_api.h"

typedef RBLNRetCode (*IsActiveFn)(int32_t*);
typedef RBLNRetCode (*BeginFn)(void);
typedef RBLNRetCode (*EndFn)(RblnKinetoExportSink, void*, int32_t*);
typedef RBLNRetCode (*StatsFn)(RblnsimKinetoStats*);

typedef struct KinetoProducer {
  void* lib;
  IsActiveFn is_active;
  BeginFn begin_session;
  EndFn end_session;
  StatsFn last_session_stats;
  BeginFn begin_scope; /* the stage-A names */
  EndFn end_scope;
} KinetoProducer;

/* Opens |path| and resolves every entry point; on failure prints one line prefixed with |who|
 * and returns 0. */
static inline int LoadKinetoProducer(const char* path, const char* who, KinetoProducer* out) {
  out->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!out->lib) {
    fprintf(stderr, "%s: dlopen: %s\n", who, dlerror());
    return 0;
  }
  out->is_active = (IsActiveFn)dlsym(out->lib, "rbln_kineto_is_active");
  out->begin_session = (BeginFn)dlsym(out->lib, "rbln_kineto_begin_session");
  out->end_session = (EndFn)dlsym(out->lib, "rbln_kineto_end_session_and_export");
  out->last_session_stats = (StatsFn)dlsym(out->lib, "rblnsim_kineto_last_session_stats");
  out->begin_scope = (BeginFn)dlsym(out->lib, "rbln_kineto_begin_scope");
  out->end_scope = (EndFn)dlsym(out->lib, "rbln_kineto_end_scope_and_export");
  if (!out->is_active || !out->begin_session || !out->end_session || !out->last_session_stats ||
      !out->begin_scope || !out->end_scope) {
    fprintf(stderr, "%s: missing symbol\n", who);
    return 0;
  }
  return 1;
}

#endif /* RBLNSIM_TESTS_E2E_KINETO_DLOPEN_H_ */
