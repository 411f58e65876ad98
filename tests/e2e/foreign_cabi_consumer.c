/*
 * A foreign process driving librblnsim_kineto.so the way torch-rbln's C-ABI bridge does: dlopen,
 * the real steady clock, its own pid/tid. Each session's real window (begin call -> end return)
 * is shorter than the simulated window the scenario describes.
 *
 *   foreign_cabi_consumer LIB.so sessions   4 sessions: every slice inside its window, no drift,
 *                                           markers on this thread, this process not a device
 *   foreign_cabi_consumer LIB.so scope      the same through the stage-A names (begin_scope)
 *   foreign_cabi_consumer LIB.so reentrant  the sink calls back in: is_active answers, begin and
 *                                           end get RBLN_KINETO_ERR_BUSY, nothing hangs
 *   foreign_cabi_consumer LIB.so clock_sim  (RBLNSIM_CLOCK=sim) begin is refused, no session
 *
 * Exits 0 only if every check held; prints one line per session.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "profiler/abi/rbln_kineto_api.h"
#include "tests/e2e/kineto_dlopen.h"

static IsActiveFn is_active;
static BeginFn begin;
static EndFn end;
static StatsFn stats;
static int failures;

static int64_t steady_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void check(int ok, const char* what, long long detail) {
  if (!ok) {
    fprintf(stderr, "FAIL: %s (%lld)\n", what, detail);
    ++failures;
  }
}

struct Session {
  int64_t window_begin, window_end; /* before the begin call, after the end call returned */
  int64_t begin_return;
  int sink_calls;
  uint32_t device_slices, markers;
  int64_t first_start, last_end;
  int reentrant; /* call back into the library from the sink */
  RBLNRetCode cb_active_rc, cb_begin_rc, cb_end_rc;
  int32_t cb_active;
};

static int is_device(const RblnKinetoExport* e, int32_t pid) {
  for (uint32_t i = 0; i < e->devices_count; ++i)
    if (e->devices[i].pid == pid)
      return 1;
  return 0;
}

static void sink(const RblnKinetoExport* e, void* user) {
  struct Session* s = (struct Session*)user;
  s->sink_calls++;
  const int32_t pid = (int32_t)getpid();
  const int32_t tid = (int32_t)syscall(SYS_gettid);
  check(!is_device(e, pid), "this process is declared as a device", pid);
  for (uint32_t i = 0; i < e->slices_count; ++i) {
    const RblnKinetoSlice* x = &e->slices[i];
    check(x->start_steady_ns >= s->window_begin, "slice starts before the begin call",
          s->window_begin - x->start_steady_ns);
    check(x->end_steady_ns >= x->start_steady_ns, "slice ends before it starts", i);
    /* The end call has not returned yet, but nothing may lie in the future: now bounds it. */
    check(x->end_steady_ns <= steady_now_ns(), "slice ends in the future", x->end_steady_ns);
    if (x->kind == RBLN_KINETO_KIND_RUNTIME && strcmp(x->name, "rbln_run") == 0) {
      s->markers++;
      check(x->device_pid == pid, "marker not on this process", x->device_pid);
      check(x->resource_tid == tid, "marker not on this thread", x->resource_tid);
      continue;
    }
    check(is_device(e, x->device_pid), "device slice on an unknown device", x->device_pid);
    s->device_slices++;
    if (s->first_start == 0 || x->start_steady_ns < s->first_start)
      s->first_start = x->start_steady_ns;
    if (x->end_steady_ns > s->last_end)
      s->last_end = x->end_steady_ns;
  }
  if (s->reentrant) {
    s->cb_active_rc = is_active(&s->cb_active);
    s->cb_begin_rc = begin();
    int32_t exported = -1;
    s->cb_end_rc = end(sink, s, &exported);
  }
}

static int run_sessions(BeginFn b, EndFn e, int count, int reentrant) {
  struct Session all[4];
  memset(all, 0, sizeof(all));
  for (int k = 0; k < count; ++k) {
    struct Session* s = &all[k];
    s->reentrant = reentrant;
    int32_t exported = 0;
    s->window_begin = steady_now_ns();
    RBLNRetCode brc = b();
    const int64_t end_called = steady_now_ns();
    s->begin_return = end_called;
    RBLNRetCode erc = e(sink, s, &exported);
    s->window_end = steady_now_ns();
    check(brc == 0 && erc == 0 && exported == 1 && s->sink_calls == 1, "session failed",
          brc * 100 + erc);
    check(s->last_end <= s->window_end, "slice after the end call returned",
          s->last_end - s->window_end);
    RblnsimKinetoStats st;
    memset(&st, 0, sizeof(st));
    check(stats(&st) == 0, "stats", 0);
    check(st.records_after_wait == 0, "records dropped after the wait",
          (long long)st.records_after_wait);
    check((int64_t)st.sync_wait_ns <= s->window_end - end_called,
          "sync wait longer than the end call", (long long)st.sync_wait_ns);
    printf(
        "session %d: device_slices=%u markers=%u first_start=+%.3fms last_end=+%.3fms "
        "end_call=+%.3fms end_return=+%.3fms sync_wait=%.3fms\n",
        k + 1, s->device_slices, s->markers, (s->first_start - s->window_begin) / 1e6,
        (s->last_end - s->window_begin) / 1e6, (end_called - s->window_begin) / 1e6,
        (s->window_end - s->window_begin) / 1e6, st.sync_wait_ns / 1e6);
    if (reentrant) {
      check(s->cb_active_rc == 0 && s->cb_active == 1, "is_active from the sink", s->cb_active_rc);
      check(s->cb_begin_rc == RBLN_KINETO_ERR_BUSY, "begin from the sink", s->cb_begin_rc);
      check(s->cb_end_rc == RBLN_KINETO_ERR_BUSY, "end from the sink", s->cb_end_rc);
    }
  }
  for (int k = 1; k < count; ++k) {
    /* No drift: every session's simulated window starts at its own begin, so the device work of
     * session k sits as far from its begin call as in session 2 (session 1 also elaborates and
     * warms up inside its begin call). The same work has the same span in every session. */
    const int64_t offset = all[k].first_start - all[k].window_begin;
    check(offset >= 0 && offset < 20000000, "device work far from its begin call", offset);

    const int64_t span = all[k].last_end - all[k].first_start;
    const int64_t span0 = all[0].last_end - all[0].first_start;
    check(span - span0 < 2000 && span0 - span < 2000, "the same work has a different span",
          span - span0);
    check(all[k].device_slices == all[0].device_slices, "device slice count differs",
          all[k].device_slices);
    check(all[k].first_start > all[k - 1].window_end, "session overlaps the previous one", k);
  }
  /* No drift, robust to a preempted begin call: the mapping is taken inside the begin call, so
   * the simulated offset of the first device slice lies in [first - begin return, first - begin
   * call]. Sessions 2..4 run the same window, so these intervals share that offset; a drift of
   * D per session moves the later intervals D further and they stop overlapping. */
  int64_t max_lo = INT64_MIN, min_hi = INT64_MAX;
  for (int k = 1; k < count; ++k) {
    const int64_t lo = all[k].first_start - all[k].begin_return;
    const int64_t hi = all[k].first_start - all[k].window_begin;
    if (lo > max_lo)
      max_lo = lo;
    if (hi < min_hi)
      min_hi = hi;
  }
  if (count > 2)
    check(max_lo <= min_hi + 50000, "drift across sessions", max_lo - min_hi);
  check(all[0].device_slices == 18 && all[0].markers == 3, "seed counts", all[0].device_slices);
  return failures;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: foreign_cabi_consumer LIB.so sessions|scope|reentrant|clock_sim\n");
    return 2;
  }
  KinetoProducer producer;
  if (!LoadKinetoProducer(argv[1], "foreign_cabi_consumer", &producer))
    return 1;
  is_active = producer.is_active;
  begin = producer.begin_session;
  end = producer.end_session;
  stats = producer.last_session_stats;
  BeginFn begin_scope = producer.begin_scope;
  EndFn end_scope = producer.end_scope;
  int32_t active = -1;
  check(is_active(&active) == 0 && active == 1, "is_active", active);
  const char* mode = argv[2];
  if (strcmp(mode, "sessions") == 0) {
    run_sessions(begin, end, 4, 0);
  } else if (strcmp(mode, "scope") == 0) {
    run_sessions(begin_scope, end_scope, 4, 0);
  } else if (strcmp(mode, "reentrant") == 0) {
    run_sessions(begin, end, 2, 1);
  } else if (strcmp(mode, "clock_sim") == 0) {
    struct Session s;
    memset(&s, 0, sizeof(s));
    int32_t exported = -1;
    const RBLNRetCode brc = begin();
    const RBLNRetCode erc = end(sink, &s, &exported);
    printf("clock_sim: begin_rc=%d end_rc=%d sink_calls=%d exported=%d\n", brc, erc, s.sink_calls,
           exported);
    check(brc == RBLN_KINETO_ERR_RUNTIME, "begin not refused", brc);
    check(erc == RBLN_KINETO_ERR_NO_SESSION && s.sink_calls == 0 && exported == 0,
          "a session exists after the refused begin", erc);
  } else {
    fprintf(stderr, "unknown mode %s\n", mode);
    return 2;
  }
  printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
  return failures ? 1 : 0;
}
