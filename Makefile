# The two quick-start commands are `make run` and `make test`; both install what is missing first.
JOBS ?= 2
SCENARIO ?= scenarios/profile_matmul.yaml

.PHONY: all setup configure build build-cli run test test-default test-asan test-tsan test-fuzz bench profile fuzz format clean

all: build

setup:
	@bash tools/setup.sh

build/build.ninja: | setup
	cmake --preset default >/dev/null

configure: build/build.ninja

build: configure
	cmake --build build -j $(JOBS)

# The CLI alone: what `make run` needs (tests and benchmarks are built by `make test` / `make bench`).
build-cli: configure
	cmake --build build -j $(JOBS) --target rblnsim

run: build-cli
	RBLN_PROFILER=1 build/bin/rblnsim run $(SCENARIO) --trace build/trace.json

test: test-default test-asan test-tsan test-fuzz

test-default: build
	bash tools/run_ctest.sh build default

build-asan/build.ninja: | setup
	cmake --preset asan >/dev/null

test-asan: build-asan/build.ninja
	cmake --build build-asan -j $(JOBS)
	bash tools/run_ctest.sh build-asan asan

# ThreadSanitizer over the tests of the code that runs threads (tests/CMakeLists.txt).
build-tsan/build.ninja: | setup
	cmake --preset tsan >/dev/null

test-tsan: build-tsan/build.ninja
	cmake --build build-tsan -j $(JOBS)
	bash tools/run_ctest.sh build-tsan tsan

# A bounded fuzz run (12 s per target, two targets at a time) from the committed corpora; builds only
# the fuzzers.
test-fuzz: | setup
	cmake --preset fuzz >/dev/null
	cmake --build build-fuzz -j $(JOBS) --target rblnsim_fuzzers
	bash tests/fuzz/run_fuzzers.sh build-fuzz 12

bench: build
	bash bench/run_all.sh

# perf and massif profiles of the simulator, the end-to-end path and a traced run: bench/PROFILE.md
profile: build
	@bash tools/setup.sh --profiling
	bash bench/profile.sh

fuzz: | setup
	cmake --preset fuzz >/dev/null
	cmake --build build-fuzz -j $(JOBS) --target rblnsim_fuzzers
	bash tests/fuzz/run_fuzzers.sh build-fuzz 300

# Every tracked C/C++ file, the same list the hygiene.format test checks.
format:
	bash tools/format.sh

clean:
	rm -rf build build-asan build-tsan build-fuzz
