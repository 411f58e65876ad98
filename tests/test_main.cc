// The main() of every test binary. libsystemc.so defines main() as well; an object file's
// definition wins over a shared library's, so gtest runs. libsystemc.so still needs an sc_main
// symbol to link against, and tests never call it.
#include <gtest/gtest.h>

#include <cstdio>

extern "C" int sc_main(int /*argc*/, char** /*argv*/) {
  return 0;
}

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  const int status = RUN_ALL_TESTS();
  // ctest counts a binary as one test: one that ran none (a filter that matched nothing, tests
  // that failed to register) must not pass as if all were green.
  if (status == 0 && !GTEST_FLAG_GET(list_tests) &&
      testing::UnitTest::GetInstance()->test_to_run_count() == 0) {
    std::fprintf(stderr, "%s: no tests ran\n", argv[0]);
    return 1;
  }
  return status;
}
