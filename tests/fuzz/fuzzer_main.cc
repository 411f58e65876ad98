// The libFuzzer entry point of every target. CMake compiles this file once per fuzzer with
// RBLNSIM_FUZZ_ENTRY naming that target's function from fuzz_entries.h, so the fuzzer and the
// regression replay (tests/unit/fuzz_regressions) run exactly the same body.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/fuzz/fuzz_entries.h"

#ifndef RBLNSIM_FUZZ_ENTRY
#error "define RBLNSIM_FUZZ_ENTRY to the fuzz_entries.h function this fuzzer runs"
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string problem = rblnsim::fuzz::RBLNSIM_FUZZ_ENTRY(data, size);
  if (!problem.empty()) {
    // A broken contract is a finding like a crash: abort so libFuzzer saves the input.
    std::fprintf(stderr, "rblnsim fuzz: contract violated: %s\n", problem.c_str());
    std::abort();
  }
  return 0;
}
