#!/usr/bin/env bash
# Runs clang-tidy (the checks .clang-tidy enables, every finding an error) on the C/C++ files that
# differ from a base commit, using BUILD_DIR/compile_commands.json. The hygiene.tidy_changed test.
#
#   tools/tidy_changed.sh BUILD_DIR
#
# The base: $RBLNSIM_TIDY_BASE if set; else `git merge-base HEAD origin/main`; when that is HEAD
# itself (a checkout of main) or there is no origin/main, HEAD~1, so the last commit is checked.
# A clone without that history (shallow, or a single commit) has nothing to compare: the script
# says so and exits 77, which ctest reports as skipped. Uncommitted edits count as changes.
#
# A changed .cc/.c is checked as its own translation unit; a changed header through the .cc of the
# same name, with diagnostics limited to the changed files. A changed .cc the tree does not compile
# (the unit tests, built only in the sanitized trees) is checked with the flags the tree's units
# share. At most $RBLNSIM_TIDY_MAX_FILES units (default 4, each 10-20 s of clang-tidy) keep the
# test fast; 0 checks them all.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)
max_files=${RBLNSIM_TIDY_MAX_FILES:-4}
skip=77

if ! command -v clang-tidy >/dev/null 2>&1; then
  echo "tidy_changed: clang-tidy is not installed (make setup)" >&2
  exit 1
fi
if [[ ! -f $build_dir/compile_commands.json ]]; then
  echo "tidy_changed: $build_dir/compile_commands.json is missing (configure with cmake --preset default)" >&2
  exit 1
fi
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "tidy_changed: $root is not a git checkout: no changes to check" >&2
  exit "$skip"
fi

commit_exists() { git rev-parse --verify --quiet "$1^{commit}" >/dev/null; }

if [[ -n ${RBLNSIM_TIDY_BASE:-} ]]; then
  if ! commit_exists "$RBLNSIM_TIDY_BASE"; then
    echo "tidy_changed: RBLNSIM_TIDY_BASE=$RBLNSIM_TIDY_BASE is not a commit here" >&2
    exit 1
  fi
  base=$RBLNSIM_TIDY_BASE
  why="RBLNSIM_TIDY_BASE"
else
  base=""
  if commit_exists origin/main; then
    base=$(git merge-base HEAD origin/main 2>/dev/null || true)
    why="merge-base with origin/main"
  fi
  if [[ -z $base || $base == "$(git rev-parse HEAD)" ]]; then
    if ! commit_exists HEAD~1; then
      echo "tidy_changed: skipped: no base to compare with (no merge-base with origin/main and" \
           "no parent commit: a shallow or single-commit clone); set RBLNSIM_TIDY_BASE" >&2
      exit "$skip"
    fi
    base=$(git rev-parse HEAD~1)
    why="HEAD~1"
  fi
fi

mapfile -t changed < <(git diff --name-only --diff-filter=ACMR "$base" -- '*.h' '*.cc' '*.c' | sort)
echo "tidy_changed: base $(git rev-parse --short "$base") ($why): ${#changed[@]} changed C/C++ files"
if ((${#changed[@]} == 0)); then
  exit 0
fi

# The units are checked with a copy of the compile commands, rewritten twice. The build
# force-includes GCC precompiled headers (cmake_pch.hxx), which clang cannot read: the copy leaves
# them out, so each file is seen with the includes it names itself. And a unity build compiles
# generated Unity/unity_N_cxx.cxx files that #include a target's sources: the copy gives each such
# source its batch's command, so it is checked as the unit it is in a RBLNSIM_UNITY=OFF tree.
tidy_db=$(mktemp -d)
trap 'rm -rf "$tidy_db"' EXIT
python3 - "$build_dir/compile_commands.json" "$tidy_db/compile_commands.json" "${changed[@]}" <<'EOF'
import json, os, re, shlex, sys
entries = json.load(open(sys.argv[1]))
def strip(args):
    out, skip = [], False
    for i, a in enumerate(args):
        if skip:
            skip = False
            continue
        if a == "-include" and i + 1 < len(args) and args[i + 1].endswith("cmake_pch.hxx"):
            skip = True
            continue
        if a == "-Winvalid-pch":
            continue
        out.append(a)
    return out
def unity_sources(path):
    if not re.search(r"/Unity/unity_[0-9]+_(cxx|c)[.](cxx|c)$", path):
        return None
    return re.findall(r'^#include "([^"]+)"$', open(path).read(), re.M)
expanded = []
for entry in entries:
    args = strip(entry["arguments"] if "arguments" in entry else shlex.split(entry["command"]))
    path = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
    sources = unity_sources(path)
    for source in sources if sources is not None else [path]:
        expanded.append({"directory": entry["directory"], "file": source,
                         "arguments": [source if a in (entry["file"], path) else a for a in args]})
# A changed .cc the tree does not compile (a unit test: the default preset leaves them to the
# sanitized trees) is checked with the flags the tree's units share: one unit's command line, plus
# every define and include directory another unit names. The project compiles all its C++ alike.
known = {e["file"] for e in expanded}
template = next((e for e in expanded if e["file"].endswith(".cc")), None)
if template is not None:
    extra, seen = [], set(template["arguments"])
    for e in expanded:
        args = e["arguments"]
        for i, a in enumerate(args):
            if a.startswith(("-D", "-I")) and len(a) > 2 and a not in seen:
                seen.add(a)
                extra.append(a)
            elif a == "-isystem" and i + 1 < len(args) and args[i + 1] not in seen:
                seen.add(args[i + 1])
                extra += ["-isystem", args[i + 1]]
    for source in sys.argv[3:]:
        path = os.path.join(os.getcwd(), source)
        if path in known or not source.endswith(".cc") or not os.path.isfile(path):
            continue
        args = [path if a == template["file"] else a for a in template["arguments"]]
        args[1:1] = extra
        expanded.append({"directory": template["directory"], "file": path, "arguments": args})
        print(f"tidy_changed: {source}: not compiled in this tree; checked with the flags its "
              "units share")
json.dump(expanded, open(sys.argv[2], "w"))
EOF

# The translation units compile_commands.json knows, relative to the checkout.
mapfile -t known < <(python3 - "$tidy_db/compile_commands.json" "$root" <<'EOF'
import json, os, sys
root = sys.argv[2]
for entry in json.load(open(sys.argv[1])):
    path = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
    if path.startswith(root + os.sep):
        print(os.path.relpath(path, root))
EOF
)
declare -A is_unit=()
for f in "${known[@]}"; do is_unit[$f]=1; done

units=()
headers=()
declare -A queued=()
for f in "${changed[@]}"; do
  unit=""
  case $f in
    *.h)
      headers+=("$f")
      for candidate in "${f%.h}.cc" "${f%.h}.c"; do
        [[ -n ${is_unit[$candidate]:-} ]] && unit=$candidate && break
      done
      [[ -z $unit ]] && echo "tidy_changed: $f: no ${f%.h}.cc in the build; checked only through changed units that include it"
      ;;
    *)
      if [[ -n ${is_unit[$f]:-} ]]; then
        unit=$f
      else
        echo "tidy_changed: $f: not compiled in $build_dir (another preset's target?), not checked"
      fi
      ;;
  esac
  if [[ -n $unit && -z ${queued[$unit]:-} ]]; then
    queued[$unit]=1
    units+=("$unit")
  fi
done

if ((${#units[@]} == 0)); then
  echo "tidy_changed: no changed file is a translation unit of $build_dir"
  exit 0
fi
if ((max_files > 0 && ${#units[@]} > max_files)); then
  echo "tidy_changed: checking the first $max_files of ${#units[@]} units" \
       "(RBLNSIM_TIDY_MAX_FILES=0 checks them all)"
  units=("${units[@]:0:max_files}")
fi

# Diagnostics in headers only for the headers that changed: an untouched header's findings belong
# to whoever changes it next, and the enabled checks hold on today's tree anyway.
header_filter='^$'
if ((${#headers[@]} > 0)); then
  header_filter="/($(printf '%s\n' "${headers[@]}" | sed -e 's/[.[\*^$()+?{|]/\\&/g' | paste -sd '|'))\$"
fi

# The build uses GCC; clang does not know some of its warning options.
printf '%s\0' "${units[@]}" |
  xargs -0 -n 1 -P 2 clang-tidy -p "$tidy_db" --quiet --warnings-as-errors='*' \
    --extra-arg=-Wno-unknown-warning-option --header-filter="$header_filter" ||
  {
    echo "tidy_changed: clang-tidy found problems in the files changed since $(git rev-parse --short "$base")" >&2
    exit 1
  }
echo "tidy_changed: ${#units[@]} units clean: ${units[*]}"
