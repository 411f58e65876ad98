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
#
# Every discovered test gets RBLNSIM_TEST_ENVIRONMENT. Not through gtest_discover_tests'
# PROPERTIES: that list is re-split at each of the several CMake layers it passes through, so a
# "A;B;C" value arrives as ENVIRONMENT A plus two stray property names. Instead a small script,
# included by ctest after the discovered tests, sets the whole list on the tests the discovery
# named (its TEST_LIST), where ctest reads it as one value.
set(RBLNSIM_TEST_ENVIRONMENT
    "RBLNSIM_SOURCE_DIR=${CMAKE_SOURCE_DIR}"
    "RBLNSIM_BUILD_DIR=${CMAKE_BINARY_DIR}"
    "SC_COPYRIGHT_MESSAGE=DISABLE")
function(rblnsim_test name)
  cmake_parse_arguments(ARG "" "" "SRCS;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SRCS} ${CMAKE_SOURCE_DIR}/tests/test_main.cc)
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gmock)
  # Test code is compiled at -O1 in the optimised builds: a quarter less compile time for the
  # largest share of the tree, while the libraries under test keep the build's own -O2.
  target_compile_options(${name} PRIVATE $<$<CONFIG:RelWithDebInfo,Release>:-O1>)
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  gtest_discover_tests(${name}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
    TEST_LIST ${name}_TESTS
    DISCOVERY_TIMEOUT 30)
  set(env_script ${CMAKE_CURRENT_BINARY_DIR}/${name}_environment.cmake)
  file(WRITE ${env_script}
    "if(${name}_TESTS)\n"
    "  set_tests_properties(\${${name}_TESTS} PROPERTIES ENVIRONMENT [==[${RBLNSIM_TEST_ENVIRONMENT}]==])\n"
    "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${env_script})
endfunction()
