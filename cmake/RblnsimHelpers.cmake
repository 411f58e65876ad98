# One way to declare libraries and tests, so every target is built the same way.

# The standard headers nearly every file includes cost about a second of parsing per file, so the
# libraries share one precompiled header of them (test targets have their own, with gtest).
#
# -Winvalid-pch turns a header GCC refuses to use (flags that drifted apart) into a build error
# rather than a silent slow build. Through a precompiled header GCC 12 no longer treats libstdc++
# as a system header for its middle-end warnings and reports its known false bounds warnings inside
# std::string's memcpy (GCC PR 105329 and kin), so those are off where the header is used; the
# sanitizer and fuzz builds check bounds at run time.
set(RBLNSIM_PCH_OPTIONS -Winvalid-pch
    $<$<CXX_COMPILER_ID:GNU>:-Wno-array-bounds -Wno-stringop-overflow -Wno-stringop-overread
                               -Wno-restrict>)
set(RBLNSIM_PCH_STD_HEADERS
    <algorithm> <cstdint> <filesystem> <fstream> <functional> <map> <memory> <optional> <sstream>
    <string> <string_view> <unordered_map> <utility> <variant> <vector>)
file(WRITE ${CMAKE_BINARY_DIR}/rblnsim_std_pch.cc "")
add_library(rblnsim_std_pch OBJECT ${CMAKE_BINARY_DIR}/rblnsim_std_pch.cc)
target_compile_options(rblnsim_std_pch PRIVATE ${RBLNSIM_PCH_OPTIONS})
target_precompile_headers(rblnsim_std_pch PRIVATE ${RBLNSIM_PCH_STD_HEADERS})

# rblnsim_library(NAME [NO_PCH] SRCS ... DEPS ...)
# NO_PCH: the library parses its own headers (and keeps every warning), for code compiled with
# flags the shared header was not built with.
function(rblnsim_library name)
  cmake_parse_arguments(ARG "NO_PCH" "" "SRCS;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SRCS})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
  if(NOT ARG_NO_PCH)
    target_compile_options(${name} PRIVATE ${RBLNSIM_PCH_OPTIONS})
    target_precompile_headers(${name} REUSE_FROM rblnsim_std_pch)
  endif()
endfunction()

find_package(GTest REQUIRED)
include(GoogleTest)

# rblnsim_test(NAME [ONE_PROCESS_PER_TEST] SRCS ... DEPS ...)
# Every test binary gets tests/test_main.cc: its own main() (libsystemc.so defines one too, and
# whichever wins decides whether gtest runs at all) and a stub sc_main.
#
# A binary is one ctest test that runs all of its TESTs in one process. ONE_PROCESS_PER_TEST is
# for binaries whose TESTs elaborate the simulator: SystemC allows one elaboration per process, so
# ctest runs each of their TESTs in its own process. Only those pay a process per TEST: under the
# sanitizers a process costs about 0.15 s before its first test, which over 760 TESTs was half
# of CI's sanitized test run.
#
# Every test gets RBLNSIM_TEST_ENVIRONMENT. Not through gtest_discover_tests' PROPERTIES: that
# list is re-split at each of the several CMake layers it passes through, so a "A;B;C" value
# arrives as ENVIRONMENT A plus two stray property names. Instead a small script, included by
# ctest after the discovered tests, sets the whole list on the tests the discovery named (its
# TEST_LIST), where ctest reads it as one value.
set(RBLNSIM_TEST_ENVIRONMENT
    "RBLNSIM_SOURCE_DIR=${CMAKE_SOURCE_DIR}"
    "RBLNSIM_BUILD_DIR=${CMAKE_BINARY_DIR}"
    "SC_COPYRIGHT_MESSAGE=DISABLE")
#
# Test code is compiled at -O1 in the optimised builds and at -O0 in the sanitized one: a quarter
# less compile time for the largest share of the tree, while the libraries under test keep the
# build's own optimisation.
#
# gtest and gmock cost about 2.5 s of parsing per file and a hundred test files include them, so
# every test target reuses one precompiled header, built once with test_main.cc (compiled once too).
set(RBLNSIM_TEST_COMPILE_OPTIONS $<$<CONFIG:RelWithDebInfo,Release>:-O1> $<$<CONFIG:Debug>:-O0> ${RBLNSIM_PCH_OPTIONS})
# Built only for the trees that have unit tests (a test binary pulls it in).
add_library(rblnsim_test_main OBJECT EXCLUDE_FROM_ALL ${CMAKE_SOURCE_DIR}/tests/test_main.cc)
target_link_libraries(rblnsim_test_main PRIVATE GTest::gtest GTest::gmock)
# Compiled as the executables are (-fPIE, not a library's -fPIC): GCC rejects a header built with
# another code model.
set_target_properties(rblnsim_test_main PROPERTIES POSITION_INDEPENDENT_CODE OFF)
target_compile_options(rblnsim_test_main PRIVATE ${RBLNSIM_TEST_COMPILE_OPTIONS} -fPIE)
target_precompile_headers(rblnsim_test_main PRIVATE
  <gmock/gmock.h> <gtest/gtest.h> ${RBLNSIM_PCH_STD_HEADERS})

function(rblnsim_test name)
  cmake_parse_arguments(ARG "ONE_PROCESS_PER_TEST" "" "SRCS;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SRCS} $<TARGET_OBJECTS:rblnsim_test_main>)
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gmock)
  target_compile_options(${name} PRIVATE ${RBLNSIM_TEST_COMPILE_OPTIONS})
  # The shared header is C++ only; a target with C sources (the ABI layout check) parses its own.
  set(c_sources ${ARG_SRCS})
  list(FILTER c_sources INCLUDE REGEX "\\.c$")
  if(NOT c_sources)
    target_precompile_headers(${name} REUSE_FROM rblnsim_test_main)
  endif()
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  if(NOT ARG_ONE_PROCESS_PER_TEST)
    add_test(NAME ${name} COMMAND ${name} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${RBLNSIM_TEST_ENVIRONMENT}")
    return()
  endif()
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

# rblnsim_fast_allocator(TARGET): an executable of ours allocates through mimalloc (see
# RBLNSIM_MIMALLOC). Linked as a shared library ahead of libc, it replaces malloc for the whole
# process; tools/rblnsim/operator_new.cc keeps operator new throwing over it and advises large
# blocks as huge pages, faulted in on a second thread (tools/rblnsim/prefault.h).
function(rblnsim_fast_allocator target)
  if(RBLNSIM_MIMALLOC)
    target_sources(${target} PRIVATE ${CMAKE_SOURCE_DIR}/tools/rblnsim/operator_new.cc)
    target_link_libraries(${target} PRIVATE mimalloc rblnsim_prefault)
    target_compile_definitions(${target} PRIVATE RBLNSIM_WITH_MIMALLOC=1)
  endif()
endfunction()
