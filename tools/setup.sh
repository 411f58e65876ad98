#!/usr/bin/env bash
# Installs the Debian packages rblnsim builds, tests and benchmarks with; --profiling adds perf
# and valgrind for `make profile`.
# Idempotent: packages already present are not touched, and apt-get runs only when one is missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libsystemc-dev libyaml-cpp-dev libsimdjson-dev libcli11-dev libfmt-dev zlib1g-dev libmimalloc-dev
  googletest libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev
  clang clang-tidy clang-format libclang-rt-14-dev
  python3 parallel time ccache
)
if [[ ${1:-} == --profiling ]]; then
  packages+=(linux-perf valgrind)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
if [[ $(id -u) -eq 0 ]]; then
  sudo=""
elif command -v sudo >/dev/null 2>&1; then
  sudo="sudo"
else
  echo "setup: installing packages needs root, and sudo is not installed: run 'make setup' as root once (su -c 'make setup'), then 'make run' / 'make test' as this user" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
