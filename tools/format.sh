#!/usr/bin/env bash
# Formats every tracked C/C++ file with the repository's .clang-format (`make format`), or with
# --check fails, naming each file and line, if any of them differs (the hygiene.format test).
#
#   tools/format.sh [--check]
#
# One file list for both, so what `make format` fixes is exactly what the check holds.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mode=fix
if [[ ${1:-} == --check ]]; then
  mode=check
elif [[ $# -gt 0 ]]; then
  echo "usage: $0 [--check]" >&2
  exit 2
fi

if ! command -v clang-format >/dev/null 2>&1; then
  echo "format: clang-format is not installed (make setup)" >&2
  exit 1
fi

mapfile -d '' files < <(git ls-files -z -- '*.h' '*.cc' '*.c')
if ((${#files[@]} == 0)); then
  echo "format: no tracked C/C++ files in $(pwd)" >&2
  exit 1
fi

if [[ $mode == fix ]]; then
  printf '%s\0' "${files[@]}" | xargs -0 clang-format -i
  echo "format: ${#files[@]} files formatted"
  exit 0
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
if printf '%s\0' "${files[@]}" | xargs -0 clang-format --dry-run --Werror 2>"$log"; then
  echo "format: ${#files[@]} files match .clang-format"
  exit 0
fi
# clang-format names every differing line; a summary of the files keeps the failure readable.
head -n 60 "$log" >&2
mapfile -t differing < <(grep -oE '^[^:]+:[0-9]+:[0-9]+: (error|warning)' "$log" | cut -d: -f1 | sort -u)
echo "format: ${#differing[@]} of ${#files[@]} files differ from .clang-format; run 'make format':" >&2
printf '  %s\n' "${differing[@]}" >&2
exit 1
