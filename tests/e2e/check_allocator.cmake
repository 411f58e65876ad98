# Which allocator a binary of ours runs with. The producer libraries run inside a consumer's
# process and must never bring an allocator of their own; the rblnsim tool links mimalloc (when
# built with RBLNSIM_MIMALLOC), and then a run of it must really allocate through it.
#   -DREADELF=readelf -DBINARY=path -DMIMALLOC=ON|OFF [-DRUN=ON]
execute_process(COMMAND ${READELF} -d ${BINARY} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "readelf failed on ${BINARY}")
endif()
string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*\\[[^]]+\\]" needed "${out}")
set(libs)
foreach(entry IN LISTS needed)
  string(REGEX REPLACE ".*\\[(.+)\\]" "\\1" name "${entry}")
  list(APPEND libs "${name}")
endforeach()
list(FILTER libs INCLUDE REGEX "^libmimalloc")
if(MIMALLOC AND NOT libs)
  message(FATAL_ERROR "${BINARY} does not link mimalloc")
endif()
if(NOT MIMALLOC AND libs)
  message(FATAL_ERROR "${BINARY} links ${libs}: a producer library keeps its host process's allocator, a sanitized build its sanitizer's")
endif()
if(RUN)
  # mimalloc prints its heap statistics at exit when asked: only if it serves the allocations.
  execute_process(COMMAND ${CMAKE_COMMAND} -E env MIMALLOC_SHOW_STATS=1 ${BINARY} --version
                  OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT err MATCHES "heap stats")
    message(FATAL_ERROR "${BINARY} --version did not allocate through mimalloc (exit ${rc}):\n${err}")
  endif()
endif()
message(STATUS "${BINARY}: allocator as expected")
