"""Writes a trace in the layout torch.profiler and torch-rbln produce on an RBLN-CR card, of an
eager workload whose CPU fallbacks take the shapes torch-rbln gives them, together with the truth
of what the script put in. Nothing here comes from the simulator, and nothing only rblnsim writes
is used (no "bytes" arg on copies): a detector that passes on it reads what a card shows.

The workload, in order (record_shapes=True):
  1. c = a + b, int32                 boxed, dtype-not-fp16 (the dispatch shim's dtype check)
  2. z = x + n, fp16, n holds NaN     the NaN/Inf scan of both inputs, then boxed, nan/inf input
  3. u + u, fp16 [29, 31]             boxed, unaligned (the shim's align fast path, before any
                                      scan)
  4. a.add_(b), int32                 boxed, written back with _copy_from_and_resize
  5. torch.topk(x, 4)                 boxed, pinned to the fallback by name; two results back
  6. torch.sort(x)                    boxed, no device kernel (the catch-all)
  7. masked_fill on [4, 100]          nested: the Python wrapper's gate, the op again on the CPU
  8. x @ w three times, with shapes A, B, A and a cache too small for two: compiles A, B, then A
     again (an eviction); each launches on the NPU
  9. y.cpu()                          the user's download
"""
import json

PID, TID = 3001, 3001


class Card:
    def __init__(self):
        self.events = []
        self.ts = 1_000_000.0  # us
        self.external_id = 0
        self.launch = 0
        self.stack = []

    def op(self, name, dims=None, types=None, dur=2.0, cat="cpu_op"):
        """An op of |dur| us of its own time, with children added inside the with-block."""
        card = self

        class Frame:
            def __enter__(self):
                card.external_id += 1
                args = {"External id": card.external_id, "Record function id": 0}
                if dims is not None:
                    args["Input Dims"] = dims
                    args["Input type"] = types
                self.event = {"ph": "X", "cat": cat, "name": name, "pid": PID, "tid": TID,
                              "ts": round(card.ts, 3), "args": args}
                card.events.append(self.event)
                card.ts += dur / 2
                return self

            def __exit__(self, *exc):
                card.ts += dur / 2
                self.event["dur"] = round(card.ts - self.event["ts"], 3)
                card.ts += 0.5
                return False

        return Frame()

    def leaf(self, name, dims=None, types=None, dur=2.0):
        with self.op(name, dims, types, dur):
            pass

    def copy_chain(self):
        """to -> _to_copy -> (empty_strided, copy_ -> _copy_from): either direction."""
        with self.op("aten::to"):
            with self.op("aten::_to_copy"):
                self.leaf("aten::empty_strided")
                with self.op("aten::copy_"):
                    self.leaf("aten::_copy_from", dur=20.0)

    def to_cpu(self, tensors):
        with self.op("aten::_to_cpu"):
            for _ in range(tensors):
                self.copy_chain()

    def scan(self):
        self.copy_chain()  # the borrowed host pointer: device data to the host
        with self.op("aten::to"):
            with self.op("aten::_to_copy"):
                self.leaf("aten::empty_strided")
                self.leaf("aten::copy_")
        with self.op("aten::isinf"):
            with self.op("aten::abs"):
                self.leaf("aten::empty")
                self.leaf("aten::abs")
            self.leaf("aten::eq")
        with self.op("aten::isnan"):
            self.leaf("aten::ne")
        self.leaf("aten::logical_or")
        self.leaf("aten::copy_")
        self.leaf("aten::any")
        with self.op("aten::item"):
            self.leaf("aten::_local_scalar_dense")

    def launch_on_npu(self, names):
        self.launch += 1
        start = self.ts
        self.events.append({"ph": "X", "cat": "privateuse1_runtime", "name": "rbln launch",
                            "pid": PID, "tid": TID, "ts": round(start, 3), "dur": 0,
                            "args": {"launch_id": self.launch}})
        flow = 0xF0000000 + self.launch
        self.events.append({"ph": "s", "id": flow, "pid": PID, "tid": TID, "ts": round(start, 3),
                            "cat": "ac2g", "name": "ac2g"})
        t = start + 11.0
        for name, lane in names:
            self.events.append({"ph": "X", "cat": "kernel" if lane == 0 else "gpu_memcpy",
                                "name": name, "pid": 0, "tid": lane, "ts": round(t, 3),
                                "dur": 1.5, "args": {"launch_id": self.launch}})
            self.events.append({"ph": "f", "id": flow, "pid": 0, "tid": lane, "ts": round(t, 3),
                                "cat": "ac2g", "name": "ac2g", "bp": "e"})
            t += 2.0
        self.ts += 1.0


def card_document(device_name, lanes, events, device_pid=0):
    """The trace file torch.profiler writes on a card: the host process and thread rows, the
    device process |device_name| with one thread row per lane ({tid: name}), then |events|."""
    rows = [
        {"name": "process_name", "ph": "M", "ts": 0, "pid": PID, "tid": 0,
         "args": {"name": "python3"}},
        {"name": "thread_name", "ph": "M", "ts": 0, "pid": PID, "tid": TID,
         "args": {"name": f"thread {TID} (python3)"}},
        {"name": "process_name", "ph": "M", "ts": 0, "pid": device_pid, "tid": 0,
         "args": {"name": device_name}},
    ] + [{"name": "thread_name", "ph": "M", "ts": 0, "pid": device_pid, "tid": tid,
          "args": {"name": name}} for tid, name in lanes.items()]
    return {
        "schemaVersion": 1,
        "deviceProperties": [{"id": 0, "name": "RBLN-CR13"}],
        "displayTimeUnit": "ms",
        "baseTimeNanoseconds": 1767189312000000000,
        "traceEvents": rows + events,
    }


def build():
    """Returns (trace dict, truth dict)."""
    c = Card()
    half2 = ["c10::Half", "c10::Half"]
    fallbacks = []

    with c.op("aten::add", [[64, 128], [64, 128], []], ["int", "int", "Scalar"], dur=30):
        c.to_cpu(2)
        c.ts += 40  # the CPU kernel: redispatchBoxed records no op
        c.copy_chain()
    fallbacks.append(("aten::add", "dtype-not-fp16", "boxed", 2, 1))

    with c.op("aten::add", [[128, 128], [128, 128], []], half2 + ["Scalar"], dur=30):
        c.scan()
        c.scan()
        c.to_cpu(2)
        c.ts += 40
        c.copy_chain()
    fallbacks.append(("aten::add", "nan/inf input", "boxed", 2, 1))

    with c.op("aten::add", [[29, 31], [29, 31], []], half2 + ["Scalar"], dur=30):
        c.to_cpu(1)  # the same tensor twice: moved once
        c.ts += 10
        c.copy_chain()
    fallbacks.append(("aten::add", "last dim not a multiple of 64", "boxed", 1, 1))

    with c.op("aten::add_", [[64, 128], [64, 128], []], ["int", "int", "Scalar"], dur=30):
        c.to_cpu(2)
        c.ts += 40
        c.leaf("aten::_copy_from_and_resize", dur=20)
    fallbacks.append(("aten::add_", "dtype-not-fp16", "boxed", 2, 1))

    with c.op("aten::topk", [[4, 128], [], [], [], []],
              ["c10::Half", "Scalar", "Scalar", "Scalar", "Scalar"], dur=30):
        c.to_cpu(1)
        c.ts += 20
        c.copy_chain()  # values
        c.copy_chain()  # indices
    fallbacks.append(("aten::topk", "op registered to the CPU fallback", "boxed", 1, 2))

    with c.op("aten::sort", [[4, 128], [], []], ["c10::Half", "Scalar", "Scalar"], dur=30):
        c.to_cpu(1)
        c.ts += 20
        c.copy_chain()
        c.copy_chain()
    fallbacks.append(("aten::sort", "op not supported on the device", "boxed", 1, 2))

    with c.op("aten::masked_fill", [[4, 100], [4, 100], []], ["c10::Half", "bool", "Scalar"],
              dur=30):
        c.copy_chain()
        c.copy_chain()
        c.leaf("aten::masked_fill", [[4, 100], [4, 100], []], ["c10::Half", "bool", "Scalar"],
               dur=15)
        with c.op("aten::copy_"):
            c.leaf("aten::_copy_from", dur=20)
    fallbacks.append(("aten::masked_fill", "last dim not a multiple of 64", "nested", 2, 1))

    recompiles = []
    instance = 0
    for rows in (64, 32, 64):
        dims = [[rows, 128], [128, 128]]
        with c.op("aten::matmul", dims, half2):
            with c.op("aten::mm", dims, half2, dur=10):
                with c.op("aten::mm", dims, half2, dur=800):
                    c.leaf("rbln::compile", dur=900)
                    instance += 1
                    c.launch_on_npu([(f"i{instance}_0_W0_args_0_0", 1),
                                     (f"i{instance}_0_W0_mm_0", 0)])
        recompiles.append(("aten::mm", instance, len(recompiles) == 2))
    c.copy_chain()  # y.cpu()

    trace = card_document("NPU 0", {0: "compute", 1: "copy"}, c.events)
    truth = {
        "fallbacks": [{"op": op, "reason": reason, "shape": shape, "downloads": down,
                       "uploads": up} for op, reason, shape, down, up in fallbacks],
        "recompiles": [{"op": op, "instance": i, "eviction": ev} for op, i, ev in recompiles],
        "user_downloads": 1,
        "scans": 2,
    }
    return trace, truth


def write(path):
    trace, truth = build()
    with open(path, "w", encoding="utf-8") as f:
        json.dump(trace, f)
    return truth
