// The main() of every test binary. libsystemc.so defines main() as well; an object file's
// definition wins over a shared library's, so gtest runs. libsystemc.so still needs an sc_main
// symbol to link against, and tests never call it.
#include <gtest/gtest.h>

extern "C" int sc_main(int /*argc*/, char** /*argv*/) {
  return 0;
}

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
