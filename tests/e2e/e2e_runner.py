"""What the e2e runners share: how ctest names a test, and one scratch folder per test process.

A runner defines its tests as functions test_NAME(); tests/e2e/CMakeLists.txt registers one ctest
per argument-less test_NAME() it finds in the file (a function taking arguments, such as one run
per scenario, is registered by its own loop there), and ctest runs `RUNNER BUILD_DIR NAME [ARG...]`.

Every temporary file or folder a test makes through the tempfile module lands under its scratch
folder, which is removed when the test ends, passed or failed. RBLNSIM_KEEP_TEMP=1 keeps it (the
path is printed) for a look at the logs of a failure.
"""
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile


def run_rblnsim(build, args, env=None, check=True, timeout=300):
    """Runs build/bin/rblnsim with |args| in an environment cleared of RBLN* / TORCH_RBLN* (so the
    caller's shell cannot change a test), plus |env|. With |check|, a non-zero exit fails with the
    command's output."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith(("RBLN", "TORCH_RBLN"))}
    full_env.update(env or {})
    proc = subprocess.run([os.path.join(build, "bin", "rblnsim")] + args, env=full_env,
                          capture_output=True, text=True, timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError(
            f"rblnsim {args} exited {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc


@contextlib.contextmanager
def scratch_root(prefix):
    root = tempfile.mkdtemp(prefix=prefix)
    previous = tempfile.tempdir
    tempfile.tempdir = root
    try:
        yield root
    finally:
        tempfile.tempdir = previous
        if os.environ.get("RBLNSIM_KEEP_TEMP"):
            print(f"RBLNSIM_KEEP_TEMP: kept {root}", file=sys.stderr)
        else:
            shutil.rmtree(root, ignore_errors=True)


def run_named_test(namespace, argv, prefix):
    """Calls namespace's test_NAME(ARG...) for `argv` = [RUNNER, BUILD_DIR, NAME, ARG...] inside a
    scratch root named |prefix|; returns NAME and the arguments for the runner's "ok" line."""
    if len(argv) < 3:
        raise SystemExit(f"usage: {argv[0]} BUILD_DIR NAME [ARG...]")
    name, args = argv[2], argv[3:]
    test = namespace.get("test_" + name)
    if test is None:
        raise SystemExit(f"{argv[0]}: no test named {name}")
    with scratch_root(prefix):
        test(*args)
    return " ".join([name] + args)


def main(namespace, prefix, ok_line="ok {}"):
    """A runner's main(): sets the runner's BUILD from argv[1], runs the named test in a scratch
    root named |prefix| and prints |ok_line| with what ran."""
    namespace["BUILD"] = sys.argv[1]
    ran = run_named_test(namespace, sys.argv, prefix)
    print(ok_line.format(ran))
