/*
 * A consumer that misuses the rbln_kineto C-ABI on purpose, through dlopen like torch-rbln would:
 * end without begin, begin twice, end twice, null out-pointers, a null sink. Every misuse must
 * return its defined error code (rbln_kineto_api.h), never call the sink, leave exported_out 0,
 * and leave the producer usable: a correct session afterwards still exports.
 *
 *   abi_misuse LIB.so      (RBLN_PROFILER=1, RBLNSIM_SCENARIO=a scenario with device work)
 *
 * Prints one line per step and exits 0 only if every step behaved.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "profiler/abi/rbln_kineto_api.h"
#include "tests/e2e/kineto_dlopen.h"

static IsActiveFn is_active;
static BeginFn begin;
static EndFn end;
static StatsFn stats;
static int failures;

static void count_calls(const RblnKinetoExport* exp, void* user_data) {
  (void)exp;
  ++*(int*)user_data;
}

static void expect(int ok, const char* step, RBLNRetCode rc, int sink_calls, int32_t exported) {
  printf("%-4s %-46s rc=%d sink_calls=%d exported=%d\n", ok ? "ok" : "FAIL", step, rc, sink_calls,
         exported);
  if (!ok)
    ++failures;
}

/* An end call that must fail with |want| without touching the sink; exported_out starts at a
 * sentinel so "left unwritten" is caught as well as "written 1". */
static void expect_end_refused(const char* step, RBLNRetCode want) {
  int sink_calls = 0;
  int32_t exported = -1;
  const RBLNRetCode rc = end(count_calls, &sink_calls, &exported);
  expect(rc == want && sink_calls == 0 && exported == 0, step, rc, sink_calls, exported);
}

static void expect_session_exports(const char* step) {
  int sink_calls = 0;
  int32_t exported = -1;
  RBLNRetCode rc = begin();
  if (rc == RBLN_KINETO_OK)
    rc = end(count_calls, &sink_calls, &exported);
  expect(rc == RBLN_KINETO_OK && sink_calls == 1 && exported == 1, step, rc, sink_calls, exported);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: abi_misuse LIB.so\n");
    return 2;
  }
  KinetoProducer producer;
  if (!LoadKinetoProducer(argv[1], "abi_misuse", &producer))
    return 1;
  is_active = producer.is_active;
  begin = producer.begin_session;
  end = producer.end_session;
  stats = producer.last_session_stats;

  /* Before anything else: the very first call ends a session that never began. */
  expect_end_refused("end without begin (first call)", RBLN_KINETO_ERR_NO_SESSION);

  RBLNRetCode rc = is_active(NULL);
  expect(rc == RBLN_KINETO_ERR_INVALID_ARGUMENT, "is_active(NULL)", rc, 0, 0);
  rc = stats(NULL);
  expect(rc == RBLN_KINETO_ERR_INVALID_ARGUMENT, "last_session_stats(NULL)", rc, 0, 0);
  int32_t active = -1;
  rc = is_active(&active);
  expect(rc == RBLN_KINETO_OK && active == 1, "is_active", rc, 0, active);

  /* Begin twice: the second is refused and the first session stays open and intact. */
  rc = begin();
  expect(rc == RBLN_KINETO_OK, "begin", rc, 0, 0);
  rc = begin();
  expect(rc == RBLN_KINETO_ERR_SESSION_ACTIVE, "begin while a session is open", rc, 0, 0);
  {
    int sink_calls = 0;
    int32_t exported = -1;
    rc = end(count_calls, &sink_calls, &exported);
    expect(rc == RBLN_KINETO_OK && sink_calls == 1 && exported == 1,
           "end of the session begun first", rc, sink_calls, exported);
  }

  /* End twice: the session is gone. Also with a null exported_out, which must not be written. */
  expect_end_refused("end after the session ended", RBLN_KINETO_ERR_NO_SESSION);
  {
    int sink_calls = 0;
    rc = end(count_calls, &sink_calls, NULL);
    expect(rc == RBLN_KINETO_ERR_NO_SESSION && sink_calls == 0, "end without begin, exported NULL",
           rc, sink_calls, 0);
  }

  /* A null sink for a session that captured work: refused, and the session is still closed. */
  rc = begin();
  {
    int32_t exported = -1;
    const RBLNRetCode end_rc = end(NULL, NULL, &exported);
    expect(rc == RBLN_KINETO_OK && end_rc == RBLN_KINETO_ERR_INVALID_ARGUMENT && exported == 0,
           "end with a null sink", end_rc, 0, exported);
  }
  expect_end_refused("end after the null-sink end", RBLN_KINETO_ERR_NO_SESSION);

  /* After all of that, the producer still works. */
  expect_session_exports("a correct session afterwards");
  RblnsimKinetoStats last;
  memset(&last, 0, sizeof(last));
  rc = stats(&last);
  expect(rc == RBLN_KINETO_OK && last.records_captured > 0, "last_session_stats", rc, 0, 0);

  printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
  return failures ? 1 : 0;
}
