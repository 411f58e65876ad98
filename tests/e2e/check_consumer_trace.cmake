# Runs a consumer that writes a trace from the producer library in its own process, then
# `rblnsim check` on that trace: the consumer must pass, and every rule of the current contract,
# flows included, must PASS (none may be n/a: each had something to check).
execute_process(COMMAND ${CONSUMER} trace ${OUT} ${OP}
                RESULT_VARIABLE consumer_rc OUTPUT_VARIABLE consumer_out ERROR_VARIABLE consumer_err)
message("${consumer_out}${consumer_err}")
if(NOT consumer_rc EQUAL 0)
  message(FATAL_ERROR "consumer failed (${consumer_rc})")
endif()
execute_process(COMMAND ${RBLNSIM} check ${OUT} ${CHECK_ARGS}
                RESULT_VARIABLE check_rc OUTPUT_VARIABLE check_out ERROR_VARIABLE check_err)
message("${check_out}${check_err}")
if(NOT check_rc EQUAL 0)
  message(FATAL_ERROR "rblnsim check failed (${check_rc})")
endif()
foreach(rule contract:\ current npu-row min-launches one-marker-per-launch marker-inside-host-op
             activity-on-matching-lane activity-after-marker kernel-launches flow-start-at-marker
             flow-ids-unique flow-finish-on-launch flow-finish-count no-orphan-finish
             one-process-name capture-window)
  if(NOT check_out MATCHES "${rule}")
    message(FATAL_ERROR "rblnsim check did not report ${rule}")
  endif()
endforeach()
if(check_out MATCHES "N/A |FAIL ")
  message(FATAL_ERROR "a rule was vacuous or failed")
endif()
