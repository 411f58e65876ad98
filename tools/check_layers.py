#!/usr/bin/env python3
"""Fails, naming file:line and the rule, on an #include that breaks the layer table.

    tools/check_layers.py [ROOT]

ROOT (default: the checkout this script sits in) must be a git work tree. Every tracked .h/.cc/.c
file is checked (an untracked scratch file never fails the build); one outside the layer folders
fails as belonging to no layer, so a new folder gets its row in the table below.

An include is resolved the way the compiler finds it (the including file's folder, then the
include roots CMakeLists.txt passes with include_directories) and charged to the layer of the
file it resolves to. An in-tree include that resolves nowhere is a failure too: after a move it
is the stale path the compiler happens to reach through another root, or a header that is gone.
SystemC (<systemc>, <tlm>, <sysc/...>) is a layer of its own. base/ may include the C++ standard
library only, which is checked against the list of standard headers below.
"""

import os
import re
import subprocess
import sys

# Mirrors include_directories() in the top-level CMakeLists.txt: the checkout itself, and the seam
# headers at the paths consumers include them from (<rbln/runtime/activity.h>).
INCLUDE_ROOTS = ("", "profiler/abi/include")

# profiler/ is plain C++ in eight sub-layers; each may include base/ and the sub-layers before it.
# The edges that hold today: trace -> base; abi -> base; index -> trace; plot -> trace;
# report -> trace, index; bridge -> abi, trace; analysis -> trace, index, plot;
# diff -> analysis, report, plot, index, trace. The order keeps
# them acyclic as they grow.
PROFILER_ORDER = ("abi", "trace", "index", "plot", "report", "bridge", "analysis", "diff")

EVERYTHING = "*"

# layer -> the layers it may include (besides itself).
MAY_INCLUDE = {
    "base": set(),
    "scenario": {"base"},
    "models": {"base", "scenario", "systemc"},
    # The facade elaborates and runs the models, so it drives the SystemC kernel too.
    "sim": {"base", "scenario", "models", "profiler", "systemc"},
    "tools": EVERYTHING,
    "bench": EVERYTHING,
    "tests": EVERYTHING,
}
for _i, _sub in enumerate(PROFILER_ORDER):
    MAY_INCLUDE["profiler/" + _sub] = {"base"} | {"profiler/" + s for s in PROFILER_ORDER[:_i]}

LAYER_FOLDERS = ("base", "scenario", "models", "sim", "profiler", "tools", "bench", "tests")
SOURCE_SUFFIXES = (".h", ".cc", ".c")

# A rule beyond the table: the CLI reaches the simulator through the sim/ facade only.
TOOLS_VIA_SIM = "tools/ reaches models/ through the sim/ facade, never directly"

SYSTEMC_HEADER = re.compile(r"^(systemc|systemc\.h|tlm|tlm\.h|tlm_utils/.*|tlm_core/.*|sysc/.*)$")

# The C++20 standard library (and its C compatibility headers): all base/ may include.
STD_HEADERS = frozenset("""
algorithm any array atomic barrier bit bitset cassert cctype cerrno cfenv cfloat charconv chrono
cinttypes climits clocale cmath codecvt compare complex concepts condition_variable coroutine
csetjmp csignal cstdarg cstddef cstdint cstdio cstdlib cstring ctime cuchar cwchar cwctype deque
exception execution expected filesystem format forward_list fstream functional future
initializer_list iomanip ios iosfwd iostream istream iterator latch limits list locale map memory
memory_resource mutex new numbers numeric optional ostream queue random ranges ratio regex
scoped_allocator semaphore set shared_mutex source_location span sstream stack stdexcept
stop_token streambuf string string_view syncstream system_error thread tuple type_traits typeindex
typeinfo unordered_map unordered_set utility valarray variant vector version
""".split())

INCLUDE_LINE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def layer_of(path):
    """The layer a checkout-relative path belongs to, or None outside the layer folders."""
    parts = path.split("/")
    if parts[0] == "profiler":
        if len(parts) > 2 and parts[1] in PROFILER_ORDER:
            return "profiler/" + parts[1]
        return None  # a file directly under profiler/ belongs to no sub-layer
    return parts[0] if parts[0] in LAYER_FOLDERS else None


def may_include(src, dst):
    if src == dst:
        return True
    allowed = MAY_INCLUDE[src]
    if allowed == EVERYTHING:
        return True
    if dst in allowed:
        return True
    # sim/ may include any part of profiler/.
    return dst.startswith("profiler/") and "profiler" in allowed


def describe_rule(src):
    allowed = MAY_INCLUDE[src]
    if src == "base":
        return "base/ may include the C++ standard library only"
    names = sorted(a + ("" if a == "systemc" else "/") for a in allowed)
    if src.startswith("profiler/"):
        return "{}/ may include {} (profiler order: {})".format(
            src, ", ".join(names), " < ".join(PROFILER_ORDER))
    return "{}/ may include {}".format(src, ", ".join(names))


def tracked_sources(root):
    """Every tracked C/C++ file; those outside the layer folders fail as belonging to no layer."""
    out = subprocess.run(["git", "-C", root, "ls-files", "-z"],
                         check=True, capture_output=True).stdout.decode()
    return sorted(p for p in out.split("\0") if p.endswith(SOURCE_SUFFIXES))


def resolve(root, including, spelled, quoted):
    """The checkout-relative path |spelled| reaches from |including|, or None if not in the tree."""
    candidates = []
    if quoted:
        candidates.append(os.path.join(os.path.dirname(including), spelled))
    candidates += [os.path.join(r, spelled) for r in INCLUDE_ROOTS]
    for c in candidates:
        c = os.path.normpath(c)
        if not c.startswith("..") and os.path.isfile(os.path.join(root, c)):
            return c
    return None


def check_file(root, path):
    """Yields one message per broken rule in |path|."""
    src = layer_of(path)
    if src is None:
        yield "{}:1: belongs to no layer (add its folder to tools/check_layers.py)".format(path)
        return
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        lines = f.readlines()
    for number, line in enumerate(lines, start=1):
        m = INCLUDE_LINE.match(line)
        if not m:
            continue
        quoted = m.group(1) == '"'
        spelled = m.group(2)
        where = "{}:{}: includes {}".format(path, number,
                                           '"{}"'.format(spelled) if quoted else "<{}>".format(spelled))
        target = resolve(root, path, spelled, quoted)
        if target is None:
            if SYSTEMC_HEADER.match(spelled):
                dst = "systemc"
            elif quoted:
                yield where + ": not found in the tree (stale path after a move?)"
                continue
            elif src == "base" and spelled not in STD_HEADERS:
                yield where + ": " + describe_rule(src)
                continue
            else:
                continue  # a system or third-party header outside the layer table
        else:
            dst = layer_of(target)
            if dst is None:
                yield where + ": resolves to {}, which belongs to no layer".format(target)
                continue
        if not may_include(src, dst):
            yield where + ": " + describe_rule(src)
        elif src == "tools" and dst == "models":
            yield where + ": " + TOOLS_VIA_SIM


def check_tree(root):
    messages = []
    files = tracked_sources(root)
    for path in files:
        messages.extend(check_file(root, path))
    return files, messages


def main(argv):
    if len(argv) > 2:
        print("usage: check_layers.py [ROOT]", file=sys.stderr)
        return 2
    root = argv[1] if len(argv) == 2 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files, messages = check_tree(root)
    for m in messages:
        print(m)
    if not files:
        print("check_layers: no tracked sources under {}".format(root), file=sys.stderr)
        return 1
    if messages:
        print("check_layers: {} broken include rule(s) in {} files".format(len(messages), len(files)),
              file=sys.stderr)
        return 1
    print("check_layers: {} files follow the layer table".format(len(files)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
