# Runs one bundle on the NPU and holds its simulated cycles to the checked-in
# table, so that every change to the cycles is deliberate and shows in review.
#
#   cmake -DNPUSIM=... -DBUNDLE=examples/B -DTABLE=examples/cycles-tpuv3-like.tsv
#         -DREPORT=OUT.json [-DTOLERANCE_PERCENT=2] [-DARGS="--mode;full;--verify"] -P cycles_check.cmake
#   cmake -DNPUSIM=... -DBUNDLE=examples/B -DSAME_AS=FULL.json -DREPORT=OUT.json
#         -DARGS="--mode;timing" -P cycles_check.cmake
#
# The table has one "BUNDLE CYCLES" pair per line ('#' starts a comment). The run
# fails when npusim fails, when the bundle has no row, or when the total moves by
# more than TOLERANCE_PERCENT from its row; scripts/update-cycles-table.sh
# rewrites the table from fresh runs. With SAME_AS instead of TABLE, every
# step's cycles and the total must equal those of the report SAME_AS (timing
# mode against full mode: skipping values must not change the timed program).
foreach(var NPUSIM BUNDLE REPORT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "cycles_check.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT DEFINED TOLERANCE_PERCENT)
  set(TOLERANCE_PERCENT 2)
endif()
if(NOT DEFINED ARGS)
  set(ARGS --mode full --verify)
endif()

get_filename_component(report_dir ${REPORT} DIRECTORY)
file(MAKE_DIRECTORY ${report_dir})
execute_process(COMMAND ${NPUSIM} run ${BUNDLE} ${ARGS} --report ${REPORT} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "npusim run ${BUNDLE} failed (exit ${status})")
endif()

file(READ ${REPORT} report)
string(JSON cycles GET "${report}" totals cycles)
get_filename_component(name ${BUNDLE} NAME)

if(DEFINED SAME_AS)
  file(READ ${SAME_AS} other)
  string(JSON steps LENGTH "${report}" steps)
  string(JSON other_steps LENGTH "${other}" steps)
  if(NOT steps EQUAL other_steps)
    message(FATAL_ERROR "${name}: ${steps} steps, ${SAME_AS} has ${other_steps}")
  endif()
  set(differences "")
  if(steps GREATER 0)
    math(EXPR last "${steps} - 1")
    foreach(i RANGE ${last})
      string(JSON step_name GET "${report}" steps ${i} name)
      string(JSON a ERROR_VARIABLE no_a GET "${report}" steps ${i} timing cycles)
      string(JSON b ERROR_VARIABLE no_b GET "${other}" steps ${i} timing cycles)
      if(no_a AND no_b)
        continue()
      endif()
      if(NOT "${a}" STREQUAL "${b}")
        string(APPEND differences "\n  step ${i} ${step_name}: ${a} here, ${b} in ${SAME_AS}")
      endif()
    endforeach()
  endif()
  string(JSON other_cycles GET "${other}" totals cycles)
  if(NOT differences STREQUAL "" OR NOT cycles EQUAL other_cycles)
    message(FATAL_ERROR "${name}: ${cycles} cycles in all, ${other_cycles} in ${SAME_AS}${differences}")
  endif()
  message(STATUS "${name}: ${cycles} cycles, step by step as in ${SAME_AS}")
  return()
endif()
if(NOT DEFINED TABLE)
  message(FATAL_ERROR "cycles_check.cmake: -DTABLE=... or -DSAME_AS=... is required")
endif()

file(STRINGS ${TABLE} rows)
set(expected "")
foreach(row IN LISTS rows)
  if(row MATCHES "^[ \t]*#" OR row MATCHES "^[ \t]*$")
    continue()
  endif()
  if(NOT row MATCHES "^([^ \t]+)[ \t]+([0-9]+)[ \t]*$")
    message(FATAL_ERROR "${TABLE}: malformed row '${row}' (want: BUNDLE CYCLES)")
  endif()
  if(CMAKE_MATCH_1 STREQUAL name)
    set(expected ${CMAKE_MATCH_2})
  endif()
endforeach()
# The command that rewrites this table's row (the held-out workloads' table takes
# --experiments).
set(update "scripts/update-cycles-table.sh ${name}")
if(TABLE MATCHES "bench/experiments/")
  set(update "scripts/update-cycles-table.sh --experiments ${name}")
endif()
if(expected STREQUAL "")
  message(FATAL_ERROR "${TABLE} has no row for ${name}: add '${name} ${cycles}' "
                      "(${update})")
endif()

# |cycles - expected| * 100 <= TOLERANCE_PERCENT * expected, in integers.
math(EXPR difference "${cycles} - ${expected}")
if(difference LESS 0)
  math(EXPR difference "0 - ${difference}")
endif()
math(EXPR lhs "${difference} * 100")
math(EXPR rhs "${TOLERANCE_PERCENT} * ${expected}")
if(lhs GREATER rhs)
  message(FATAL_ERROR "${name}: ${cycles} simulated cycles, the table ${TABLE} says ${expected} "
                      "(more than ${TOLERANCE_PERCENT}% apart). If the change is meant, update the table "
                      "in the same commit: ${update}")
endif()
message(STATUS "${name}: ${cycles} cycles (table: ${expected})")
