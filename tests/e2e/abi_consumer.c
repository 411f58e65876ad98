/*
 * A consumer that knows only the three rbln_kineto C functions, like torch-rbln's adapter: it
 * dlopens the producer library and checks what one session exports.
 *
 *   abi_consumer LIB.so active      profiler on: markers, device slices, names, rows, durations
 *   abi_consumer LIB.so inactive    profiler off: inactive, sink never called, exported 0
 *   abi_consumer LIB.so twice       two sessions in one process: simulated time continues
 *   abi_consumer LIB.so digest      prints a digest of the whole export with times relative to
 *                                   its first slice (determinism checks on the real clock)
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/abi/rbln_kineto_api.h"

typedef RBLNRetCode (*IsActiveFn)(int32_t*);
typedef RBLNRetCode (*BeginFn)(void);
typedef RBLNRetCode (*EndFn)(RblnKinetoExportSink, void*, int32_t*);

struct Summary {
  int sink_calls;
  int failures;
  uint32_t markers, device_slices, sync_slices;
  int64_t device_ns, first_start, last_end;
  char first_names[4][64];
  uint64_t digest;
};

static int fail(struct Summary* s, const char* what) {
  fprintf(stderr, "abi_consumer: %s\n", what);
  s->failures++;
  return 0;
}

static uint64_t mix(uint64_t h, const void* data, size_t n) {
  const unsigned char* p = (const unsigned char*)data;
  for (size_t i = 0; i < n; ++i)
    h = (h ^ p[i]) * 1099511628211ULL;
  return h;
}

static uint64_t mix_str(uint64_t h, const char* s) {
  return s ? mix(h, s, strlen(s) + 1) : mix(h, "", 1);
}

static int known_lane(const RblnKinetoExport* e, int32_t pid, int32_t tid) {
  for (uint32_t i = 0; i < e->lanes_count; ++i) {
    if (e->lanes[i].device_pid == pid && e->lanes[i].resource_tid == tid)
      return 1;
  }
  return 0;
}

static int known_device(const RblnKinetoExport* e, int32_t pid) {
  for (uint32_t i = 0; i < e->devices_count; ++i) {
    if (e->devices[i].pid == pid)
      return 1;
  }
  return 0;
}

static void sink(const RblnKinetoExport* e, void* user) {
  struct Summary* s = (struct Summary*)user;
  s->sink_calls++;
  uint64_t h = 1469598103934665603ULL;
  for (uint32_t i = 0; i < e->devices_count; ++i) {
    if (i > 0 && e->devices[i - 1].pid > e->devices[i].pid)
      fail(s, "devices not sorted by pid");
    h = mix(h, &e->devices[i].pid, sizeof(int32_t));
    h = mix_str(h, e->devices[i].name);
  }
  for (uint32_t i = 0; i < e->lanes_count; ++i) {
    if (!known_device(e, e->lanes[i].device_pid))
      fail(s, "lane refers to an unknown device");
    h = mix(h, &e->lanes[i].device_pid, 8);
    h = mix_str(h, e->lanes[i].name);
  }
  /* The earliest device slices by start time (stable in export order). */
  const RblnKinetoSlice* first[4] = {0, 0, 0, 0};
  for (uint32_t i = 0; i < e->slices_count; ++i) {
    const RblnKinetoSlice* x = &e->slices[i];
    /* The rbln_run marker sits on the launching host thread, which is not a device row. */
    const int host_marker = x->kind == RBLN_KINETO_KIND_RUNTIME && strcmp(x->name, "rbln_run") == 0;
    if (host_marker && known_device(e, x->device_pid))
      fail(s, "the host process is declared as a device");
    if (!host_marker && !known_lane(e, x->device_pid, x->resource_tid))
      fail(s, "slice refers to an unknown row");
    if (x->end_steady_ns < x->start_steady_ns)
      fail(s, "slice ends before it starts");
    int has_launch = 0;
    for (uint32_t a = 0; a < x->annotations_count; ++a) {
      if (strcmp(x->annotations[a].name, "launch_id") == 0)
        has_launch = 1;
      h = mix_str(h, x->annotations[a].name);
      h = mix_str(h, x->annotations[a].value);
    }
    if (!has_launch)
      fail(s, "slice without a launch_id annotation");
    /* Times relative to the session's first slice: the real steady clock moves between
     * processes, the simulated layout must not. */
    const int64_t rel_start = x->start_steady_ns - e->slices[0].start_steady_ns;
    const int64_t rel_end = x->end_steady_ns - e->slices[0].start_steady_ns;
    h = mix(h, &rel_start, 8);
    h = mix(h, &rel_end, 8);
    if (!host_marker) {
      h = mix(h, &x->device_pid, sizeof(x->device_pid));
      h = mix(h, &x->resource_tid, sizeof(x->resource_tid));
    }
    h = mix(h, &x->corr_id, 8);
    h = mix(h, &x->kind, sizeof(x->kind));
    h = mix_str(h, x->name);
    for (uint32_t c = 0; c < x->categories_count; ++c)
      h = mix_str(h, x->categories[c]);
    if (x->kind == RBLN_KINETO_KIND_RUNTIME) {
      if (strcmp(x->name, "rbln_run") == 0)
        s->markers++;
      continue;
    }
    if (x->kind == RBLN_KINETO_KIND_SYNC) {
      s->sync_slices++;
      continue;
    }
    s->device_slices++;
    s->device_ns += x->end_steady_ns - x->start_steady_ns;
    if (s->first_start == 0 || x->start_steady_ns < s->first_start)
      s->first_start = x->start_steady_ns;
    if (x->end_steady_ns > s->last_end)
      s->last_end = x->end_steady_ns;
    for (int k = 0; k < 4; ++k) {
      if (first[k] == NULL || x->start_steady_ns < first[k]->start_steady_ns) {
        for (int m = 3; m > k; --m)
          first[m] = first[m - 1];
        first[k] = x;
        break;
      }
    }
  }
  for (int k = 0; k < 4; ++k) {
    if (first[k])
      snprintf(s->first_names[k], sizeof(s->first_names[k]), "%s", first[k]->name);
  }
  s->digest = h;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: abi_consumer LIB.so active|inactive|twice|digest\n");
    return 2;
  }
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "abi_consumer: dlopen: %s\n", dlerror());
    return 1;
  }
  IsActiveFn is_active = (IsActiveFn)dlsym(lib, "rbln_kineto_is_active");
  BeginFn begin = (BeginFn)dlsym(lib, "rbln_kineto_begin_session");
  EndFn end = (EndFn)dlsym(lib, "rbln_kineto_end_session_and_export");
  if (!is_active || !begin || !end) {
    fprintf(stderr, "abi_consumer: missing symbol\n");
    return 1;
  }
  const char* mode = argv[2];
  int32_t active = -1;
  if (is_active(&active) != 0)
    return 1;

  if (strcmp(mode, "inactive") == 0) {
    struct Summary s;
    memset(&s, 0, sizeof(s));
    int32_t exported = -1;
    RBLNRetCode begin_rc = begin();
    RBLNRetCode end_rc = end(sink, &s, &exported);
    printf("active=%d begin_rc=%d end_rc=%d sink_calls=%d exported=%d\n", active, begin_rc, end_rc,
           s.sink_calls, exported);
    return (active == 0 && begin_rc != 0 && s.sink_calls == 0 && exported == 0) ? 0 : 1;
  }

  if (active != 1) {
    fprintf(stderr, "abi_consumer: profiler inactive\n");
    return 1;
  }
  struct Summary first;
  memset(&first, 0, sizeof(first));
  int32_t exported = 0;
  if (begin() != 0 || end(sink, &first, &exported) != 0)
    return 1;
  if (strcmp(mode, "digest") == 0) {
    printf("digest=%016llx\n", (unsigned long long)first.digest);
    return first.failures ? 1 : 0;
  }
  printf("exported=%d sink_calls=%d markers=%u device_slices=%u sync_slices=%u device_us=%.3f\n",
         exported, first.sink_calls, first.markers, first.device_slices, first.sync_slices,
         first.device_ns / 1000.0);
  printf("first=['%s', '%s', '%s', '%s']\n", first.first_names[0], first.first_names[1],
         first.first_names[2], first.first_names[3]);
  if (strcmp(mode, "twice") == 0) {
    struct Summary second;
    memset(&second, 0, sizeof(second));
    if (begin() != 0 || end(sink, &second, &exported) != 0)
      return 1;
    printf("second: device_slices=%u starts_after_first=%d\n", second.device_slices,
           second.first_start > first.last_end);
    return (first.failures == 0 && second.failures == 0 &&
            second.device_slices == first.device_slices && second.first_start > first.last_end)
               ? 0
               : 1;
  }
  return first.failures == 0 && first.sink_calls == 1 && exported == 1 ? 0 : 1;
}
