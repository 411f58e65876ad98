"""The eager torch-rbln program equivalent to a scenario described by `rblnsim describe --json`.

Each scenario step becomes one statement, so the program can be read side by side with the YAML:
op steps become the torch call whose ATen name the simulator records (scenarios/README.md, "Ops"),
`cpu` a .cpu(), `synchronize` torch.rbln.synchronize(), `repeat` a for loop and a graph call a
torch.compile(backend="rbln") module. Standard library only: --dry-run must work without torch.
"""
import keyword
import pprint

from program_ops import op_expression

_DTYPES = {
    "fp16": "torch.float16", "bf16": "torch.bfloat16", "fp32": "torch.float32",
    "fp8": "torch.float8_e4m3fn", "int64": "torch.int64", "int32": "torch.int32",
    "bool": "torch.bool",
}
# Set before torch_rbln is imported: it reads TORCH_RBLN_DISABLE_FALLBACK, TORCH_RBLN_COMPILED_OPS
# and TORCH_RBLN_LOG_LEVEL at import.
_ENV_NAMES = ("RBLN_PROFILER", "RBLN_PROFILER_DIR", "TORCH_RBLN_DEPLOY", "RBLN_RUNTIME_FORCE_SYNC",
              "TORCH_RBLN_DISABLE_FALLBACK", "TORCH_RBLN_COMPILED_OPS", "RBLN_FLOAT32_PRECISION",
              "TORCH_RBLN_LOG_LEVEL")
_ACTIVITIES = {"cpu": "ProfilerActivity.CPU", "privateuse1": "ProfilerActivity.PrivateUse1"}
# Names the program itself uses at module level; scenario names never shadow them.
_RESERVED = {"torch", "F", "os", "sys", "json", "profile", "ProfilerActivity", "DeviceType",
             "OUT_DIR", "SCENARIO", "activities", "prof", "device_events", "range", "float",
             "print", "globals", "len", "open", "self"}

_PRELUDE = '''\
import json
import os
import sys

if os.environ.get("RBLN_PROFILER") != "1":
    sys.stderr.write("RBLN_PROFILER=1 must be set before the process starts: "
                     "RBLN_PROFILER=1 python3 " + " ".join(sys.argv) + "\\n")
    sys.exit(2)
# The scenario's env: section, for every variable the process environment leaves unset (an empty
# value counts as unset), the same rule as `rblnsim run`. All are read after this point.
for _name, _value in SCENARIO["env"].items():
    if _name != "RBLN_PROFILER" and _value and not os.environ.get(_name):
        os.environ[_name] = _value

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
import torch_rbln  # noqa: E402,F401  (registers device "rbln", torch.rbln and backend "rbln")
from torch.profiler import DeviceType, ProfilerActivity, profile  # noqa: E402

OUT_DIR = globals().get("OUT_DIR") or (sys.argv[1] if len(sys.argv) > 1 else ".")


def _write_atomically(path, write):
    """write(temporary_path), then rename over path: a reader never sees a torn file."""
    temporary = f"{path}.tmp-{os.getpid()}"
    try:
        write(temporary)
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def _rotary(x, cos, sin):
    """rblnsim's `rotary` composite: x * cos + rotate_half(x) * sin."""
    half = x.shape[-1] // 2
    rotated = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    return x * cos + rotated * sin
'''

_EPILOGUE = '''
print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=10))
device_events = [e for e in prof.events() if e.device_type == DeviceType.PrivateUse1]
print(f"{len(device_events)} device events, for example:", [e.name for e in device_events[:4]])

os.makedirs(OUT_DIR, exist_ok=True)
_write_atomically(os.path.join(OUT_DIR, "trace.json"), prof.export_chrome_trace)
# Everything below the trace is best effort: a failure is written into metadata.json, never lost.
try:
    _properties = torch.rbln.get_device_properties(0)
    _card_name, _card_error = getattr(_properties, "name", str(_properties)), None
except Exception as error:  # noqa: BLE001  (any failure of the runtime query is recorded)
    _card_name, _card_error = "unknown", f"{type(error).__name__}: {error}"
_metadata = {
    "scenario": SCENARIO["name"],
    "scenario_hash": SCENARIO["hash"],
    "scenario_source": SCENARIO["source"],
    "sets": SCENARIO["sets"],
    "overlays": SCENARIO["overlays"],
    "torch_version": torch.__version__,
    "torch_rbln_version": getattr(torch_rbln, "__version__", "unknown"),
    "card_name": _card_name,
    "env": {name: os.environ.get(name, "") for name in SCENARIO["env"]},
    "device_events": len(device_events),
    "python": sys.version.split()[0],
    "captured_by": "tools/capture/capture.py",
}
if _card_error:
    _metadata["card_error"] = _card_error


def _dump_metadata(path):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(_metadata, f, indent=2)
        f.write("\\n")


_write_atomically(os.path.join(OUT_DIR, "metadata.json"), _dump_metadata)
print(f"wrote {os.path.join(OUT_DIR, 'trace.json')} and metadata.json")
'''


class _Names:
    """Scenario names -> Python identifiers, one namespace for the whole program: tensors, graph
    modules and their classes. Keywords and the program's own names get a trailing underscore."""

    def __init__(self, taken=()):
        self._map = {}
        self._used = set(_RESERVED) | set(taken)

    def __call__(self, name, kind="tensor"):
        key = (kind, name)
        if key not in self._map:
            candidate = "".join(c if c.isalnum() or c == "_" else "_" for c in name) or "_"
            if candidate[0].isdigit():
                candidate = "t_" + candidate
            while keyword.iskeyword(candidate) or candidate in self._used:
                candidate += "_"
            self._used.add(candidate)
            self._map[key] = candidate
        return self._map[key]


def _shape(dims):
    return f"({dims[0]},)" if len(dims) == 1 else "(" + ", ".join(str(d) for d in dims) + ")"


def _tensor(spec, name):
    shape, dtype, device = _shape(spec["shape"]), _DTYPES[spec["dtype"]], repr(spec["device"])
    init = spec["init"]
    if init in ("zeros", "ones"):
        return f"{name} = torch.{init}({shape}, dtype={dtype}, device={device})"
    if init in ("nan", "inf"):
        return f"{name} = torch.full({shape}, float({init!r}), dtype={dtype}, device={device})"
    if spec["dtype"] in ("int64", "int32"):  # small valid indices (embedding rows 0 and 1)
        return f"{name} = torch.randint(0, 2, {shape}, dtype={dtype}, device={device})"
    if spec["dtype"] in ("bool", "fp8"):  # no randn of these dtypes: draw fp32, then convert
        convert = "> 0" if spec["dtype"] == "bool" else f".to({dtype})"
        return f"{name} = (torch.randn({shape}){convert}).to({device})"
    return f"{name} = torch.randn({shape}, dtype={dtype}, device={device})"


class _Emitter:
    """Program lines; each step's line ends with "# line N", its line in the scenario file."""

    def __init__(self, names):
        self.lines = []
        self.names = names

    def emit(self, depth, text, line=0, types=None):
        comment = f"  # line {line}" if line else ""
        if types:  # the types rblnsim resolved: what the card must see for the traces to compare
            comment += f"{':' if line else '  #'} ({', '.join(types['inputs'])}) -> {types['out']}"
        self.lines.append("    " * depth + text + comment)

    def steps(self, steps, depth):
        if not steps:
            self.emit(depth, "pass")
        for step in steps:
            self.step(step, depth)

    def step(self, step, depth):
        line = step.get("line", 0)
        if "op" in step:
            args = [self.names(name) for name in step["inputs"]]
            expression = op_expression(step["op"], args, step["scalars"])
            types = step.get("types")
            if step["op"].endswith("_"):  # in place: it writes its first input
                self.emit(depth, expression, line, types)
                return
            out = self.names(step["out"]) if step["out"] else "_"
            self.emit(depth, f"{out} = {expression}", line, types)
        elif "cpu" in step:
            self.emit(depth, f"{self.names(step['cpu'])}.cpu()", line)
        elif "synchronize" in step:
            self.emit(depth, "torch.rbln.synchronize()", line)
        elif "repeat" in step:
            self.emit(depth, f"for _ in range({int(step['repeat'])}):", line)
            self.steps(step["steps"], depth + 1)
        elif "graph" in step:
            args = ", ".join(self.names(name) for name in step["inputs"])
            out = self.names(step["out"]) if step["out"] else "_"
            self.emit(depth, f"{out} = {self.names(step['graph'], 'graph')}({args})", line)
        else:
            raise ValueError(f"unknown step {step!r}")


def _graph_class(graph, tensor_names, names, emitter):
    """A torch.nn.Module whose forward is the graph body; weights are its buffers."""
    body = _Names(taken={"self"})
    params = [body(p) for p in graph["inputs"]]
    weights = {}
    local = set(graph["inputs"])
    for step in graph["steps"]:
        for name in step["inputs"]:
            if name not in local and name in tensor_names and name not in weights:
                weights[name] = "w_" + names(name)
        local.add(step["out"])
    class_name = names("Graph_" + graph["name"], "class")
    emitter.emit(0, f"class {class_name}(torch.nn.Module):")
    emitter.emit(1, f'"""workload.graphs.{graph["name"]}: one device program, one launch per call."""')
    emitter.emit(0, "")
    emitter.emit(1, "def __init__(self):")
    emitter.emit(2, "super().__init__()")
    for tensor, attribute in weights.items():
        emitter.emit(2, f'self.register_buffer("{attribute}", {names(tensor)}, persistent=False)')
    emitter.emit(0, "")
    emitter.emit(1, f"def forward(self, {', '.join(params)}):")
    resolved = {}
    for step in graph["steps"]:
        args = [resolved.get(n) or (body(n) if n in graph["inputs"] else "self." + weights[n])
                for n in step["inputs"]]
        resolved[step["out"]] = body(step["out"])
        emitter.emit(2, f"{resolved[step['out']]} = {op_expression(step['op'], args, step['scalars'])}",
                     step.get("line", 0))
    emitter.emit(2, f"return {resolved.get(graph['output'], body(graph['output']))}")
    emitter.emit(0, "")
    emitter.emit(0, "")
    call = names(graph["name"], "graph")
    emitter.emit(0, f'{call} = torch.compile({class_name}(), backend="rbln")')
    emitter.emit(0, "")


def _closing_sync(out, steps):
    """The simulator drains the device at the end of each phase; so does the program, unless the
    phase already ends with a synchronize step."""
    if not steps or "synchronize" not in steps[-1]:
        out.emit(1, "torch.rbln.synchronize()")


def generate_program(described, sets=(), overlays=()):
    """The program text for one `rblnsim describe --json` document."""
    names = _Names()
    tensor_names = {t["name"] for t in described["tensors"]}
    scenario = {
        "name": described["scenario"], "hash": described["hash"], "source": described["source"],
        "sets": list(sets), "overlays": list(overlays),
        "env": {name: described["env"].get(name, "") for name in _ENV_NAMES},
    }
    out = _Emitter(names)
    out.emit(0, f'"""Eager torch-rbln program of scenario {described["scenario"]!r} '
             f'(rblnsim hash {described["hash"]}).')
    out.emit(0, "")
    out.emit(0, "Generated by tools/capture/capture.py from `rblnsim describe --json`; run it with")
    out.emit(0, "RBLN_PROFILER=1 python3 program.py OUT_DIR.")
    points = len(described.get("sweep_points", []))
    if points:
        out.emit(0, f"The scenario sweeps {points} points; this is the base scenario unless")
        out.emit(0, "capture.py --point N selected one (see SCENARIO['sets']).")
    out.emit(0, '"""')
    out.lines.extend(("SCENARIO = " + pprint.pformat(scenario, width=99, sort_dicts=False)).splitlines())
    out.lines.extend(_PRELUDE.splitlines())
    out.emit(0, "")
    out.emit(0, "# workload.tensors")
    for spec in described["tensors"]:
        out.emit(0, _tensor(spec, names(spec["name"])))
    out.emit(0, "")
    for graph in described["graphs"]:
        out.emit(0, "")
        _graph_class(graph, tensor_names, names, out)
    activities = ", ".join(_ACTIVITIES[a] for a in described["activities"])
    out.emit(0, f"activities = [{activities}]")
    out.emit(0, "")
    out.emit(0, "# workload.warmup: outside the profiled window (compiles every program once)")
    out.emit(0, "with torch.inference_mode():")
    out.steps(described["warmup"], 1)
    _closing_sync(out, described["warmup"])
    out.emit(0, "")
    out.emit(0, "# workload.profile, with torch.rbln.synchronize() before the window closes")
    # record_shapes: the Input Dims / Input type a fallback's reason is read from.
    out.emit(0, "with torch.inference_mode(), profile(activities=activities, record_shapes=True) as prof:")
    out.steps(described["profile"], 1)
    _closing_sync(out, described["profile"])
    out.lines.extend(_EPILOGUE.splitlines())
    return "\n".join(out.lines) + "\n"
