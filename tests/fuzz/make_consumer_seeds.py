#!/usr/bin/env python3
"""Writes the seed corpus of kineto_consumer_fuzzer: a few producer sessions encoded in the byte
layout documented in kineto_export_decoder.h. Run it after changing that layout:

    python3 tests/fuzz/make_consumer_seeds.py tests/fuzz/corpus/kineto_consumer_fuzzer
"""
import os
import struct
import sys

DICTIONARY = [
    "", "rbln_run", "launch_id", "i1_0_W0_mm_0", "i1_0_W0_args_0_0", "kernel", "Neural Engine",
    "categories", "1", "2", "-1", "0", "9223372036854775807", "18446744073709551616", "1e400",
    "-0.0", '{"a": [1, 2.5, null]}', "[1, 2", "{", "nan", "true", "null", '"quoted"', "01", "1.",
]  # the rest of the 32 entries are only reached by index
DICT_SIZE = 32

NORMAL, TWICE, NO_CALL_BUT_EXPORTED, CALL_NOT_EXPORTED, NULL_EXPORT = 0, 1, 2, 3, 4
UNSET, GARBAGE, NOTHING = 5, 6, 7
RUNTIME, COMPUTE, DMA, SYNC = 0, 1, 2, 3


def u8(v): return struct.pack("<B", v)
def u32(v): return struct.pack("<I", v)
def i32(v): return struct.pack("<i", v)
def i64(v): return struct.pack("<q", v)
def u64(v): return struct.pack("<Q", v)


def s(text):
    """A string: None is null, a dictionary entry by index, anything else raw bytes."""
    if text is None:
        return u8(0)
    if isinstance(text, str) and text in DICTIONARY:
        return u8(DICTIONARY.index(text) + 1)
    raw = text.encode() if isinstance(text, str) else text
    assert len(raw) <= 255 - DICT_SIZE - 1
    return u8(DICT_SIZE + 1 + len(raw)) + raw


def array(items, null=False, claimed=None):
    count = len(items) if claimed is None else claimed
    head = (0x40 if null else 0)
    if count > 63:
        return u8(head | 0x80) + u32(count) + b"".join(items)
    return u8(head | count) + b"".join(items)


def slice_(pid, tid, name, start, dur, kind, launch=None, categories=(), corr=0, raw_time=None):
    out = i32(pid) + i32(tid) + s(name) + array([s(c) for c in categories])
    if raw_time is None:
        out += u8(0) + i32(start) + i32(dur)
    else:
        out += u8(1) + i64(raw_time[0]) + i64(raw_time[1])
    notes = [] if launch is None else [s("launch_id") + s(str(launch)) + u8(0)]
    return out + array(notes) + i64(corr) + i32(kind)


def session(mode, devices, lanes, slices, stats=None):
    flags = mode | (0x10 if stats else 0)
    out = u8(flags)
    if stats:
        out += b"".join(u64(v) for v in stats)
    out += array([i32(pid) + s(name) for pid, name in devices])
    out += array([i32(pid) + i32(tid) + s(name) for pid, tid, name in lanes])
    return out + array(slices)


HOST, CHIPLET = 4321, 100
ROWS = ([(HOST, "python3"), (CHIPLET, "rbln0 chiplet 0 (RBLN-CR13)")],
        [(HOST, HOST, "thread 4321 (python3)"), (CHIPLET, 1, "Neural Engine"), (CHIPLET, 9, "Neural DMA")])


def seed_like():
    slices = []
    for launch in (1, 2):
        base = launch * 100_000
        slices.append(slice_(HOST, HOST, "rbln_run", base, 9_000, RUNTIME, launch, corr=launch))
        slices.append(slice_(CHIPLET, 9, "i1_0_W0_args_0_0", base + 20_000, 1_500, DMA, launch,
                             ["Neural DMA", "chiplet 0"], corr=launch))
        slices.append(slice_(CHIPLET, 1, "i1_0_W0_mm_0", base + 22_000, 6_000, COMPUTE, launch,
                             ["Neural Engine"], corr=launch))
    return session(NORMAL, *ROWS, slices, stats=(4, 0, 2, 0))


def hostile():
    slices = [
        slice_(CHIPLET, 1, None, 5_000, -2_000, COMPUTE, 1),                 # null name, end < start
        slice_(CHIPLET, 77, "dangling lane", 5_000, 10, DMA, 1),             # unknown lane
        slice_(999, 1, "dangling device", 5_000, 10, DMA, 1),                # unknown device
        slice_(CHIPLET, 1, "far", 0, 0, 42, raw_time=(2**63 - 1, -2**63)),  # extremes, bad kind
        i32(CHIPLET) + i32(1) + s("raw") + array([s(None), s("x")]) + u8(0) + i32(7) + i32(1)
        + array([s("launch_id") + s("[1, 2") + u8(0), s(None) + s(None) + u8(0),
                 s("device") + s("1e400") + u8(0), s("k") + s(b"\xff\xfe\x00z") + u8(9) + i32(-3)])
        + i64(-1) + i32(SYNC),
    ]
    devices = [(CHIPLET, None), (5, "unsorted"), (CHIPLET, "dup")]
    lanes = [(CHIPLET, 1, None), (12345, 1, "lane of no device"), (CHIPLET, 1, "dup")]
    return session(NORMAL, devices, lanes, slices)


def huge_counts():
    # A null lane array claiming 4e9 lanes, and a real slice array claiming more than the cap
    # (the decoder allocates the cap's worth of all-zero slices).
    return (u8(NORMAL) + array([i32(HOST) + s("python3")])
            + array([], null=True, claimed=0xFFFFFFFF) + array([], claimed=0xFFFFFFFF))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    seeds = {
        "seed_like": seed_like(),
        "nothing_captured": session(NOTHING, [], [], []),
        "sink_called_twice": session(TWICE, *ROWS, [slice_(CHIPLET, 1, "mm", 10, 10, COMPUTE, 1)]),
        "null_export": session(NULL_EXPORT, *ROWS, []),
        "exported_unset": session(UNSET, *ROWS, [slice_(HOST, HOST, "rbln_run", 1, 1, RUNTIME, 1)]),
        "hostile": hostile(),
        "huge_counts": huge_counts(),
    }
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
