#!/usr/bin/env python3
"""tools/capture/capture.py without a card: the generated torch program must be valid Python and
say exactly what the scenario says, and a real capture must refuse to start without
RBLN_PROFILER=1 (the runtime reads it once, at start).

    capture_tests.py BUILD_DIR dry_run SCENARIO.yaml
    capture_tests.py BUILD_DIR NAME            (the other tests)"""
import ast
import collections
import json
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
import e2e_runner  # noqa: E402
import fake_torch_card  # noqa: E402

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CAPTURE = os.path.join(SOURCE, "tools", "capture", "capture.py")
SEED = os.path.join(SOURCE, "scenarios", "profile_matmul.yaml")
BUILD = None

# What each scenario op must become, by the callee's dotted name (or "@" for the matmul
# operator): the torch call whose ATen name the simulator records for it.
CALLEE = {
    "mm": "torch.mm", "matmul": "@", "bmm": "torch.bmm", "linear": "F.linear",
    "addmm": "torch.addmm", "sdpa": "F.scaled_dot_product_attention",
    "attention": "F.scaled_dot_product_attention", "rms_norm": "F.rms_norm",
    "embedding": "F.embedding", "silu": "F.silu", "relu": "F.relu", "gelu": "F.gelu",
    "softmax": "torch.softmax", "rotary": "_rotary", "masked_fill": ".masked_fill",
    "to_fp32": ".to", "to_fp16": ".to", "to_bf16": ".to", "reshape": "torch.reshape",
    "transpose": "torch.transpose", "cat": "torch.cat", "topk": "torch.topk",
}


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RBLN", "TORCH_RBLN"))}
    env.update(extra)
    return env


def capture(args, env=None):
    return subprocess.run([sys.executable, CAPTURE] + args, env=env or clean_env(),
                          capture_output=True, text=True, timeout=120)


def describe(scenario):
    proc = subprocess.run([os.path.join(BUILD, "bin", "rblnsim"), "describe", scenario, "--json"],
                          capture_output=True, text=True, timeout=60, check=True)
    return json.loads(proc.stdout)


def callee(node):
    """Dotted name of a call's function: torch.add, F.linear, .masked_fill for methods."""
    parts = []
    func = node.func
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if isinstance(func, ast.Name):
        return ".".join([func.id] + parts[::-1])
    return "." + parts[0] if parts else "?"


class Census(ast.NodeVisitor):
    """Counts what the workload does: calls inside the warm-up and profile `with` blocks and the
    graph modules' forward(), loops, and the torch.compile'd modules."""

    def __init__(self):
        self.calls = collections.Counter()
        self.loops = []
        self.compiled = {}  # variable -> class
        self._inside = 0

    def visit_FunctionDef(self, node):
        if node.name == "forward":
            self._inside += 1
            self.generic_visit(node)
            self._inside -= 1

    def visit_With(self, node):
        self._inside += 1
        self.generic_visit(node)
        self._inside -= 1

    def visit_For(self, node):
        if isinstance(node.iter, ast.Call) and callee(node.iter) == "range":
            self.loops.append(node.iter.args[0].value)
        self.generic_visit(node)

    def visit_BinOp(self, node):
        if isinstance(node.op, ast.MatMult) and self._inside:
            self.calls["@"] += 1
        self.generic_visit(node)

    def visit_Assign(self, node):
        value = node.value
        if isinstance(value, ast.Call) and callee(value) == "torch.compile":
            backend = {k.arg: k.value.value for k in value.keywords}.get("backend")
            assert backend == "rbln", ast.dump(value)
            self.compiled[node.targets[0].id] = callee(value.args[0])
        self.generic_visit(node)

    def visit_Call(self, node):
        if not self._inside:
            self.generic_visit(node)
            return
        name = callee(node)
        method = name.split(".")[-1]
        if (method in ("cpu", "to", "masked_fill") or method.endswith("_")) and \
                not name.startswith("torch"):
            name = "." + name.split(".")[-1]
        self.calls[name] += 1
        self.generic_visit(node)


def expected(described):
    """What the program must contain, counted from the scenario JSON."""
    calls, loops = collections.Counter(), []
    syncs = [0]

    def walk(steps):
        for step in steps:
            if "op" in step and step["op"].endswith("_"):  # in place: a method of its input
                calls["." + step["op"]] += 1
            elif "op" in step:
                calls[CALLEE.get(step["op"], "torch." + step["op"])] += 1
            elif "cpu" in step:
                calls[".cpu"] += 1
            elif "synchronize" in step:
                syncs[0] += 1
            elif "repeat" in step:
                loops.append(step["repeat"])
                walk(step["steps"])
            elif "graph" in step:
                calls["graph:" + step["graph"]] += 1

    for phase in ("warmup", "profile"):
        walk(described[phase])
        # The simulator drains the device at the end of each phase; so does the program.
        if not described[phase] or "synchronize" not in described[phase][-1]:
            syncs[0] += 1
    for graph in described["graphs"]:
        walk(graph["steps"])
    return calls, sorted(loops), syncs[0]


def op_steps(steps):
    """The op steps of a step list, repeat bodies included, in order."""
    for step in steps:
        if "op" in step:
            yield step
        elif "repeat" in step:
            yield from op_steps(step["steps"])


def test_dry_run(scenario):
    proc = capture([scenario, "--dry-run", "--rblnsim", os.path.join(BUILD, "bin", "rblnsim")])
    assert proc.returncode == 0, proc.stderr
    program = proc.stdout
    tree = ast.parse(compile(program, "program.py", "exec", ast.PyCF_ONLY_AST))
    described = describe(scenario)
    census = Census()
    census.visit(tree)
    calls, loops, syncs = expected(described)
    assert sorted(census.loops) == loops, (census.loops, loops)
    assert census.calls["torch.rbln.synchronize"] == syncs, (census.calls, syncs)
    assert len(census.compiled) == len(described["graphs"]), census.compiled
    for graph in described["graphs"]:
        variable = next(v for v, cls in census.compiled.items() if cls.endswith(graph["name"]))
        calls[variable] = calls.pop("graph:" + graph["name"], 0)
    for name, count in calls.items():
        assert census.calls[name] == count, (name, census.calls[name], count, program)
    # Every workload tensor is created at module level, on the device the scenario names.
    assigned = {t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets
                if isinstance(t, ast.Name)}
    for tensor in described["tensors"]:
        assert tensor["name"] in assigned, tensor["name"]
    assert "profile(activities=activities, record_shapes=True)" in program
    # Each op line says the types rblnsim resolved for it, the ones the card must see.
    for step in op_steps(described["warmup"] + described["profile"]):
        typed = f"line {step['line']}: ({', '.join(step['types']['inputs'])}) -> {step['types']['out']}"
        assert typed in program, (typed, program)
    # metadata.json is written even when the card query fails.
    assert "_metadata[\"card_error\"]" in program
    assert "ProfilerActivity.PrivateUse1" in program or "privateuse1" not in described["activities"]
    assert f"'hash': '{described['hash']}'" in program
    # Nothing imports torch before the RBLN_PROFILER check.
    assert program.index('os.environ.get("RBLN_PROFILER")') < program.index("import torch")


def test_refuses_without_profiler():
    with tempfile.TemporaryDirectory(prefix="rblnsim-capture-") as tmp:
        out = os.path.join(tmp, "cap")
        for env in (clean_env(), clean_env(RBLN_PROFILER="0")):
            proc = capture([SEED, "--out", out], env=env)
            assert proc.returncode == 2, (proc.returncode, proc.stderr)
            lines = proc.stderr.strip().splitlines()
            assert len(lines) == 1 and "RBLN_PROFILER=1" in lines[0], proc.stderr
            assert "Traceback" not in proc.stderr and not os.path.exists(out), proc.stderr


def test_dry_run_never_imports_torch():
    with tempfile.TemporaryDirectory(prefix="rblnsim-capture-") as tmp:
        for package in ("torch", "torch_rbln"):
            os.makedirs(os.path.join(tmp, package))
            with open(os.path.join(tmp, package, "__init__.py"), "w", encoding="utf-8") as f:
                f.write(f"raise ImportError('{package} imported by a dry run')\n")
        env = clean_env(PYTHONPATH=tmp)
        proc = capture([SEED, "--dry-run", "--rblnsim", os.path.join(BUILD, "bin", "rblnsim")], env=env)
        assert proc.returncode == 0 and "import torch" in proc.stdout, proc.stderr
        # ...while a real run does import it (after the RBLN_PROFILER check).
        env["RBLN_PROFILER"] = "1"
        proc = capture([SEED, "--out", os.path.join(tmp, "cap"), "--rblnsim",
                        os.path.join(BUILD, "bin", "rblnsim")], env=env)
        assert proc.returncode == 2 and "torch imported by a dry run" in proc.stderr, proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_bad_scenario_exits_2():
    with tempfile.TemporaryDirectory(prefix="rblnsim-capture-") as tmp:
        bad = os.path.join(tmp, "bad.yaml")
        with open(bad, "w", encoding="utf-8") as f:
            f.write("scenario: bad\nworkload:\n  profile:\n    - {op: mn, inputs: [x, x], out: y}\n")
        proc = capture([bad, "--dry-run", "--rblnsim", os.path.join(BUILD, "bin", "rblnsim")])
        assert proc.returncode == 2 and "bad.yaml:4" in proc.stderr, proc.stderr
        assert proc.stdout == "", proc.stdout


def capture_on_fake_card(tmp, scenario, run_args=(), properties_fail=False):
    """capture.py under the stand-in torch, whose trace is a simulated run of |scenario| with
    |run_args|; returns the capture's output directory."""
    rblnsim = os.path.join(BUILD, "bin", "rblnsim")
    fake_torch_card.write_modules(os.path.join(tmp, "fake"), properties_fail=properties_fail)
    card_trace = os.path.join(tmp, "card.json")
    subprocess.run([rblnsim, "run", scenario, "--trace", card_trace, "--no-expect"] + list(run_args),
                   env=clean_env(RBLN_PROFILER="1"), capture_output=True, check=True)
    out = os.path.join(tmp, "cap")
    env = clean_env(RBLN_PROFILER="1", PYTHONPATH=os.path.join(tmp, "fake"), FAKE_TRACE=card_trace)
    proc = capture([scenario, "--out", out, "--rblnsim", rblnsim], env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


def test_fake_card_pipeline():
    rblnsim = os.path.join(BUILD, "bin", "rblnsim")
    for name in ("profile_matmul", "alignment_compiled_mlps_async"):
        scenario = os.path.join(SOURCE, "scenarios", name + ".yaml")
        with tempfile.TemporaryDirectory(prefix="rblnsim-capture-") as tmp:
            out = capture_on_fake_card(tmp, scenario, ["--set", "device.matmul.efficiency=0.5"])
            assert sorted(os.listdir(out)) == ["metadata.json", "program.py", "trace.json"], os.listdir(out)
            with open(os.path.join(out, "metadata.json"), encoding="utf-8") as f:
                meta = json.load(f)
            assert meta["card_name"] == "RBLN-CR13" and meta["torch_rbln_version"] == "0.12.0+fake"
            assert meta["scenario_hash"] == describe(scenario)["hash"], meta
            assert meta["env"]["RBLN_PROFILER"] == "1" and meta["env"]["TORCH_RBLN_DEPLOY"] == "OFF"
            assert "card_error" not in meta, meta
            compared = subprocess.run([rblnsim, "compare", scenario, os.path.join(out, "trace.json")],
                                      env=clean_env(), capture_output=True, text=True, timeout=60)
            assert compared.returncode == 0, compared.stderr
            assert "from " + os.path.join(out, "metadata.json") in compared.stdout, compared.stdout
            # Today's torch-rbln writes the current dialect: matmul shows on the NPU's compute lane.
            assert "device_time_class  compute" in compared.stdout, compared.stdout


def test_a_failed_card_query_is_recorded_not_lost():
    scenario = os.path.join(SOURCE, "scenarios", "profile_matmul.yaml")
    with tempfile.TemporaryDirectory(prefix="rblnsim-capture-") as tmp:
        out = capture_on_fake_card(tmp, scenario, properties_fail=True)
        with open(os.path.join(out, "metadata.json"), encoding="utf-8") as f:
            meta = json.load(f)
        assert meta["card_name"] == "unknown", meta
        assert meta["card_error"] == "RuntimeError: no RBLN device 0", meta
        assert meta["scenario_hash"] == describe(scenario)["hash"], meta


def main():
    e2e_runner.main(globals(), "rblnsim-capture-")


if __name__ == "__main__":
    main()
