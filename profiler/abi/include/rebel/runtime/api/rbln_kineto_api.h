/*
 * The rbln_kineto C-ABI between the RBLN runtime (producer of device activity) and a Kineto
 * bridge (consumer). Declared field for field and in the same order as the public header that
 * torch-rbln vendors, so either side can be swapped for the real one. It sits at the path
 * torch-rbln's C-ABI bridge includes it from ("rebel/runtime/api/rbln_kineto_api.h"), so that
 * bridge compiles against rblnsim with -I profiler/abi/include and nothing else.
 *
 * Lifetime: every pointer handed to the sink, and every string reachable from it, is valid only
 * during the sink call; a consumer copies what it keeps.
 */
#ifndef REBEL_RUNTIME_API_RBLN_KINETO_API_H_
#define REBEL_RUNTIME_API_RBLN_KINETO_API_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int RBLNRetCode; /* 0 is success */

/* Return codes beyond success. The real runtime documents only 0; these are rblnsim's. */
#define RBLN_KINETO_OK 0
#define RBLN_KINETO_ERR_INVALID_ARGUMENT 1 /* a required out-pointer or the sink is null */
#define RBLN_KINETO_ERR_NOT_ACTIVE 2       /* the profiler was off when the runtime started */
#define RBLN_KINETO_ERR_NO_SESSION 3       /* end without a matching begin */
#define RBLN_KINETO_ERR_SESSION_ACTIVE 4   /* begin while a session is already open */
#define RBLN_KINETO_ERR_RUNTIME 5          /* the simulated runtime failed (see stderr) */
#define RBLN_KINETO_ERR_BUSY                       \
  6 /* begin/end while a session is being ended or \
       delivered, e.g. from inside the sink */

typedef struct RblnKinetoDevice {
  int32_t pid;
  const char* name;
} RblnKinetoDevice;

typedef struct RblnKinetoLane {
  int32_t device_pid;
  int32_t resource_tid; /* unique within its device */
  const char* name;
} RblnKinetoLane;

typedef struct RblnKinetoAnnotation {
  const char* name;
  const char* value;
  int32_t value_is_quoted; /* 1: a string literal; 0: raw JSON (number, object) */
} RblnKinetoAnnotation;

typedef enum RblnKinetoActivityKind {
  RBLN_KINETO_KIND_RUNTIME = 0,
  RBLN_KINETO_KIND_COMPUTE = 1,
  RBLN_KINETO_KIND_DMA = 2,
  RBLN_KINETO_KIND_SYNC = 3
} RblnKinetoActivityKind;

typedef struct RblnKinetoSlice {
  int32_t device_pid;
  int32_t resource_tid;
  const char* name;
  const char* const* categories; /* display only */
  uint32_t categories_count;
  int64_t start_steady_ns; /* absolute std::chrono::steady_clock ns */
  int64_t end_steady_ns;
  const RblnKinetoAnnotation* annotations;
  uint32_t annotations_count;
  int64_t corr_id; /* 0 when unset */
  RblnKinetoActivityKind kind;
} RblnKinetoSlice;

typedef struct RblnKinetoExport {
  const RblnKinetoDevice* devices; /* sorted by pid */
  uint32_t devices_count;
  const RblnKinetoLane* lanes;
  uint32_t lanes_count;
  const RblnKinetoSlice* slices;
  uint32_t slices_count;
} RblnKinetoExport;

typedef void (*RblnKinetoExportSink)(const RblnKinetoExport* exp, void* user_data);

/* Sets *active_out to 1 when profiling was enabled when the runtime was created, else 0. */
RBLNRetCode rbln_kineto_is_active(int32_t* active_out);

/* Starts one session; discards anything captured before. */
RBLNRetCode rbln_kineto_begin_session(void);

/* Ends the session and calls |sink| exactly once, synchronously, with the materialised export.
 * If nothing was captured the sink is not called and *exported_out is 0, otherwise 1.
 *
 * Every slice lies between the begin call and the return of this call on the process's steady
 * clock: when simulated device work outlasts the real window, this call first waits for it, as a
 * device synchronize would (bounded; see RblnsimKinetoStats).
 *
 * No lock is held while the sink runs, so the sink may call back into the library:
 * rbln_kineto_is_active and rblnsim_kineto_last_session_stats answer normally (the stats are
 * already those of the session being delivered); begin or end, under either name, return
 * RBLN_KINETO_ERR_BUSY until this call has returned. */
RBLNRetCode rbln_kineto_end_session_and_export(RblnKinetoExportSink sink,
                                               void* user_data,
                                               int32_t* exported_out);

/* The same two calls under the names of the first published version (torch-rbln stage A). */
RBLNRetCode rbln_kineto_begin_scope(void);
RBLNRetCode rbln_kineto_end_scope_and_export(RblnKinetoExportSink sink,
                                             void* user_data,
                                             int32_t* exported_out);

/* rblnsim extension, looked up with dlsym by consumers that know it: what the last export
 * could not carry. Returns RBLN_KINETO_OK and fills the counters of the last ended session. */
typedef struct RblnsimKinetoStats {
  uint64_t records_captured;   /* device records in the profiler unit's buffer */
  uint64_t records_dropped;    /* device records lost to a full record buffer */
  uint64_t launches;           /* runs submitted during the session */
  uint64_t commands_timed_out; /* commands the command processor gave up on */
  /* Appended fields; the ones above keep their offsets. */
  uint64_t sync_wait_ns;       /* how long the end call waited for device work still running */
  uint64_t records_after_wait; /* records dropped: they would end past the bounded wait */
} RblnsimKinetoStats;

RBLNRetCode rblnsim_kineto_last_session_stats(RblnsimKinetoStats* stats_out);

#ifdef __cplusplus
}
#endif

#endif /* REBEL_RUNTIME_API_RBLN_KINETO_API_H_ */
