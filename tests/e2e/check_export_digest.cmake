# Same scenario and seed: two processes export the same session. The library stamps the real
# steady clock, so the digest covers rows, names, kinds, launch ids and every time relative to the
# session's first slice (durations and layout), not absolute timestamps.
set(ENV{RBLN_PROFILER} 1)
set(ENV{RBLNSIM_SCENARIO} ${SCENARIO})
unset(ENV{RBLNSIM_CLOCK})
execute_process(COMMAND ${CONSUMER} ${LIB} digest OUTPUT_VARIABLE a RESULT_VARIABLE rc1)
execute_process(COMMAND ${CONSUMER} ${LIB} digest OUTPUT_VARIABLE b RESULT_VARIABLE rc2)
if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0 OR NOT a STREQUAL b OR a STREQUAL "")
  message(FATAL_ERROR "exports differ or failed: '${a}' vs '${b}'")
endif()
