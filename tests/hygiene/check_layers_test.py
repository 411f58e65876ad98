#!/usr/bin/env python3
"""tools/check_layers.py on small fake checkouts: a tree that follows the table passes, and each
kind of broken rule fails naming the file, the line and the rule."""

import os
import subprocess
import sys
import tempfile
import unittest

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools",
                       "check_layers.py")

# A miniature of the real tree: one file per layer, each including only what it may.
CLEAN_TREE = {
    "base/status.h": "#include <string>\n#include <cstdint>\n",
    "scenario/scenario.h": '#include "base/status.h"\n#include <yaml-cpp/parser.h>\n',
    "models/device.h": '#include <systemc>\n#include "scenario/scenario.h"\n#include "base/status.h"\n',
    "profiler/abi/include/rbln/runtime/activity.h": "#include <cstdint>\n",
    "profiler/abi/export.h": '#include "rbln/runtime/activity.h"\n#include "base/status.h"\n',
    "profiler/trace/trace.h": '#include "base/status.h"\n',
    "profiler/plot/svg.h": '#include "profiler/trace/trace.h"\n',
    "profiler/report/table.h": '#include "profiler/trace/trace.h"\n',
    "profiler/bridge/bridge.h": ("#include <rbln/runtime/activity.h>\n"
                                 '#include "profiler/abi/export.h"\n'
                                 '#include "profiler/trace/trace.h"\n'),
    "profiler/analysis/index.h": '#include "profiler/plot/svg.h"\n#include "profiler/trace/trace.h"\n',
    "sim/simulation.h": ('#include "models/device.h"\n#include "profiler/abi/export.h"\n'
                         '#include "scenario/scenario.h"\n#include <systemc>\n'),
    "tools/rblnsim/main.cc": '#include "sim/simulation.h"\n#include "profiler/analysis/index.h"\n',
    "tools/rblnsim/run/run.cc": '#include "../main_helpers.h"\n',
    "tools/rblnsim/main_helpers.h": "\n",
    "bench/sim_bench.cc": '#include "models/device.h"\n',
    "tests/e2e/consumer.c": '#include "dlopen_helper.h"\n#include <stdio.h>\n',
    "tests/e2e/dlopen_helper.h": "\n",
    "tests/unit/models_test.cc": '#include "models/device.h"\n#include "tools/rblnsim/main_helpers.h"\n',
}


def make_checkout(directory, files):
    for path, text in files.items():
        full = os.path.join(directory, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)
    subprocess.run(["git", "init", "-q", directory], check=True)
    subprocess.run(["git", "-C", directory, "add", "-A"], check=True)


def run_checker(files):
    with tempfile.TemporaryDirectory(prefix="rblnsim-layers-") as directory:
        make_checkout(directory, files)
        result = subprocess.run([sys.executable, CHECKER, directory], capture_output=True,
                                text=True)
    return result.returncode, result.stdout


class CheckLayersTest(unittest.TestCase):
    def assert_fails_with(self, path, text, *fragments):
        """Adds |path| with |text| to the clean tree; the check must fail with every fragment."""
        tree = dict(CLEAN_TREE)
        tree[path] = text
        code, out = run_checker(tree)
        self.assertEqual(code, 1, out)
        for fragment in fragments:
            self.assertIn(fragment, out)
        self.assertEqual(len(out.splitlines()), 1, "one violation, one line:\n" + out)

    def test_clean_tree_passes(self):
        code, out = run_checker(CLEAN_TREE)
        self.assertEqual(code, 0, out)
        self.assertIn("{} files follow the layer table".format(len(CLEAN_TREE)), out)

    def test_empty_tree_fails(self):
        code, _ = run_checker({"README.md": "nothing to check\n"})
        self.assertEqual(code, 1)

    def test_base_includes_a_layer_above(self):
        self.assert_fails_with("base/clock.h", '#include <vector>\n\n#include "scenario/scenario.h"\n',
                               'base/clock.h:3: includes "scenario/scenario.h"',
                               "base/ may include the C++ standard library only")

    def test_base_includes_a_third_party_library(self):
        self.assert_fails_with("base/format.h", "#include <fmt/format.h>\n",
                               "base/format.h:1: includes <fmt/format.h>", "standard library only")

    def test_scenario_includes_systemc(self):
        self.assert_fails_with("scenario/time.h", "#include <systemc>\n",
                               "scenario/time.h:1: includes <systemc>", "scenario/ may include base/")

    def test_models_include_sim(self):
        self.assert_fails_with("models/engine.h", '#include "sim/simulation.h"\n',
                               'models/engine.h:1: includes "sim/simulation.h"',
                               "models/ may include base/, scenario/, systemc")

    def test_profiler_includes_scenario(self):
        self.assert_fails_with("profiler/trace/meta.h", '#include "scenario/scenario.h"\n',
                               'profiler/trace/meta.h:1: includes "scenario/scenario.h"',
                               "profiler/trace/ may include base/, profiler/abi/")

    def test_profiler_sub_layer_includes_a_later_one(self):
        self.assert_fails_with("profiler/trace/rows.h", '#include "profiler/analysis/index.h"\n',
                               'profiler/trace/rows.h:1: includes "profiler/analysis/index.h"',
                               "abi < trace < index < plot < report < bridge < analysis")

    def test_profiler_reaches_seam_headers_only_from_abi_on(self):
        # The seam headers belong to abi/, whichever include root finds them.
        self.assert_fails_with("profiler/abi/clock.h", '#include "profiler/bridge/bridge.h"\n',
                               "profiler/abi/clock.h:1", "profiler/abi/ may include base/")

    def test_tools_include_models_directly(self):
        self.assert_fails_with("tools/rblnsim/describe.cc", '#include "models/device.h"\n',
                               'tools/rblnsim/describe.cc:1: includes "models/device.h"',
                               "through the sim/ facade")

    def test_include_not_in_the_tree(self):
        self.assert_fails_with("sim/host_trace.h", '#include "sim/scenario/scenario.h"\n',
                               'sim/host_trace.h:1: includes "sim/scenario/scenario.h"',
                               "not found in the tree")

    def test_source_outside_every_layer(self):
        self.assert_fails_with("examples/demo.cc", '#include "sim/simulation.h"\n',
                               "examples/demo.cc:1: belongs to no layer")

    def test_untracked_files_are_not_checked(self):
        with tempfile.TemporaryDirectory(prefix="rblnsim-layers-") as directory:
            make_checkout(directory, CLEAN_TREE)
            with open(os.path.join(directory, "base", "scratch.h"), "w") as f:
                f.write('#include "sim/simulation.h"\n')
            result = subprocess.run([sys.executable, CHECKER, directory], capture_output=True,
                                    text=True)
        self.assertEqual(result.returncode, 0, result.stdout)


if __name__ == "__main__":
    unittest.main()
