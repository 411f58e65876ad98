# Same scenario and seed, simulated clock: two processes export byte-identical sessions.
set(ENV{RBLN_PROFILER} 1)
set(ENV{RBLNSIM_SCENARIO} ${SCENARIO})
set(ENV{RBLNSIM_CLOCK} sim)
execute_process(COMMAND ${CONSUMER} ${LIB} digest OUTPUT_VARIABLE a RESULT_VARIABLE rc1)
execute_process(COMMAND ${CONSUMER} ${LIB} digest OUTPUT_VARIABLE b RESULT_VARIABLE rc2)
if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0 OR NOT a STREQUAL b OR a STREQUAL "")
  message(FATAL_ERROR "exports differ or failed: '${a}' vs '${b}'")
endif()
