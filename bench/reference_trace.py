#!/usr/bin/env python3
"""A Chrome trace read the way rblnsim's importer reads it, in plain Python after json.load.

Kept: X and instant events with integer pid/tid (Kineto's "Spans"/"Traces"/"" rows only give the
capture window), ac2g flows attached to the X event they are anchored on (right after it, else
the first free X event at the same pid/tid/ts), process/thread names, times as absolute ns.
"""
import gzip
import json
import re

HOST_CATS = frozenset(("cpu_op", "user_annotation", "python_function"))
LAUNCHER_CATS = frozenset(("cpu_op", "user_annotation"))
KINETO_DEVICE_CATS = frozenset(("kernel", "gpu_memcpy", "gpu_memset"))
DEVICE_RULE_CATS = frozenset(("kernel", "gpu_memcpy", "privateuse1_driver"))
NOT_DEVICE_CATS = frozenset(("cpu_op", "user_annotation", "python_function", "privateuse1_runtime"))
BOOKKEEPING_PIDS = frozenset(("Spans", "Traces", ""))
INT_TEXT = re.compile(r"[+-]?[0-9]+\Z")
MARKER = "rbln_run"
LAUNCH_ID = "launch_id"

# Event tuple fields.
PH, CAT, NAME, PID, TID, TS, DUR, ARGS = range(8)
START, FINISH = 1, 2


def row_id(value):
    """(is_int, int value or text) as the importer reads pid/tid: integers or integral text."""
    if isinstance(value, bool) or value is None:
        return False, value
    if isinstance(value, int):
        return True, value
    if isinstance(value, str) and INT_TEXT.match(value):
        return True, int(value)
    return False, value


def to_ns(us):
    """Kineto's µs (three decimals) as integer ns. Non-integer numbers arrive as their JSON text
    (load() passes parse_float=str): a double cannot hold a capture-length µs offset to the ns."""
    if isinstance(us, int):
        return us * 1000
    if isinstance(us, str):
        whole, dot, frac = us.partition(".")
        if "e" not in frac and "E" not in frac and "e" not in whole and "E" not in whole:
            ns = int(whole or "0") * 1000
            if frac:
                part = int((frac + "00")[:3])
                ns += -part if whole.startswith("-") else part
            return ns
        return round(float(us) * 1000.0)
    return 0


def category(cat):
    return "kernel" if cat == "Kernel" else cat


def int_arg(args, key=LAUNCH_ID):
    """Integer value of an arg: a JSON integer or a decimal string; None otherwise."""
    if not args:
        return None
    v = args.get(key)
    if v is None or isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str) and INT_TEXT.match(v):
        return int(v)
    return None


class Trace:
    """The importer's model: kept X/instant events, flows by event index, rows and the window."""

    def __init__(self, doc):
        base = doc.get("baseTimeNanoseconds", 0) or 0
        self.events = []
        self.flow = {}  # event index -> (flow id, START/FINISH)
        self.orphans = []  # (role, flow id, pid, tid, ts) of flows anchored nowhere
        self.process_names = {}
        self.process_name_sets = {}  # pid -> every process_name value seen
        self.thread_names = {}
        span_begin = span_end = window_end = first = last = None
        last_complete = None
        pending = []
        events = self.events
        for raw in doc.get("traceEvents", ()):
            ph = raw.get("ph")
            pid_int, pid = row_id(raw.get("pid"))
            tid_int, tid = row_id(raw.get("tid"))
            if ph == "X" or ph == "i" or ph == "I":
                ts = to_ns(raw.get("ts", 0)) + base
                dur = to_ns(raw.get("dur", 0)) if ph == "X" else 0
                if not (pid_int and tid_int):
                    if "pid" in raw and not pid_int and pid in BOOKKEEPING_PIDS:
                        if ph == "X" and pid == "Spans" and raw.get("cat") == "Trace":
                            span_begin = ts if span_begin is None else min(span_begin, ts)
                            span_end = ts + dur if span_end is None else max(span_end, ts + dur)
                        elif ph != "X" and raw.get("name") == "Record Window End":
                            window_end = ts
                    continue
                first = ts if first is None else min(first, ts)
                last = ts + dur if last is None else max(last, ts + dur)
                if ph == "X":
                    last_complete = len(events)
                events.append((ph == "X", category(raw.get("cat", "")), raw.get("name", ""), pid,
                               tid, ts, dur, raw.get("args")))
            elif ph == "M":
                if not pid_int:
                    continue
                name = raw.get("name")
                args = raw.get("args") or {}
                if name == "process_name":
                    self.process_names.setdefault(pid, str(args.get("name", "")))
                    self.process_name_sets.setdefault(pid, set()).add(str(args.get("name", "")))
                elif name == "thread_name" and tid_int:
                    self.thread_names.setdefault((pid, tid), str(args.get("name", "")))
            elif ph == "s" or ph == "f":
                if raw.get("cat") != "ac2g" or not (pid_int and tid_int):
                    continue
                role = START if ph == "s" else FINISH
                fid = raw.get("id", 0)
                fid = fid if isinstance(fid, int) and not isinstance(fid, bool) else 0
                ts = to_ns(raw.get("ts", 0)) + base
                if fid <= 0:
                    self.orphans.append((role, fid, pid, tid, ts))
                    continue
                if last_complete is not None and last_complete not in self.flow:
                    e = events[last_complete]
                    if e[PID] == pid and e[TID] == tid and e[TS] == ts:
                        self.flow[last_complete] = (fid, role)
                        continue
                pending.append((role, fid, pid, tid, ts))
        if pending:
            self._resolve(pending)
        start = span_begin if span_begin is not None else first
        end = window_end if window_end is not None else span_end if span_end is not None else last
        # Times are absolute (base added as they are read), as the importer makes them.
        self.capture_start = start if start is not None else 0
        self.capture_end = end if end is not None else self.capture_start

    def _resolve(self, pending):
        wanted = {(p[2], p[3], p[4]): [] for p in pending}
        for i, e in enumerate(self.events):
            if e[PH]:
                at = wanted.get((e[PID], e[TID], e[TS]))
                if at is not None:
                    at.append(i)
        for p in pending:
            free = next((i for i in wanted[(p[2], p[3], p[4])] if i not in self.flow), None)
            if free is None:
                self.orphans.append(p)
            else:
                self.flow[free] = (p[1], p[0])


def load(path):
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with opener(path, "rb") as f:
        return json.load(f, parse_float=str)
