# One way to declare libraries and tests, so every target is built the same way.

# rblnsim_library(NAME SRCS ... DEPS ...)
function(rblnsim_library name)
  cmake_parse_arguments(ARG "" "" "SRCS;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SRCS})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
endfunction()

find_package(GTest REQUIRED)
include(GoogleTest)

# rblnsim_test(NAME SRCS ... DEPS ...)
# Every test binary gets tests/test_main.cc: its own main() (libsystemc.so defines one too, and
# whichever wins decides whether gtest runs at all) and a stub sc_main. ctest runs each TEST in its
# own process, which is also what SystemC's one-elaboration-per-process rule needs.
function(rblnsim_test name)
  cmake_parse_arguments(ARG "" "" "SRCS;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SRCS} ${CMAKE_SOURCE_DIR}/tests/test_main.cc)
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gmock)
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  gtest_discover_tests(${name}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
    PROPERTIES ENVIRONMENT "RBLNSIM_SOURCE_DIR=${CMAKE_SOURCE_DIR};RBLNSIM_BUILD_DIR=${CMAKE_BINARY_DIR};SC_COPYRIGHT_MESSAGE=DISABLE"
    DISCOVERY_TIMEOUT 30)
endfunction()
