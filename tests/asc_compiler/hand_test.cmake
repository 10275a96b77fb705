# asc_compiler.by_hand (CMakeLists.txt): lngrad-asc used by hand on hand/*.asc.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/tmp)
set(ENV{TMPDIR} ${WORK_DIR}/tmp)
# This build's flags (sanitizers) on every compile and link.
separate_arguments(EXTRA_FLAGS UNIX_COMMAND "${EXTRA_FLAGS}")

function(run_driver)
  cmake_parse_arguments(R "" "RC;OUT;ERR" "ARGS" ${ARGN})
  execute_process(COMMAND ${DRIVER} ${EXTRA_FLAGS} ${R_ARGS} WORKING_DIRECTORY ${WORK_DIR}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${R_RC} "${rc}" PARENT_SCOPE)
  set(${R_OUT} "${out}" PARENT_SCOPE)
  set(${R_ERR} "${err}" PARENT_SCOPE)
endfunction()

function(expect_match what regex text)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "${what}: expected /${regex}/ in:\n${text}")
  endif()
endfunction()

# 1. Compile, with a dependency file as make writes it.
run_driver(ARGS --npu-arch=dav-3510 -g -O1 -MD -c ${SRC_DIR}/hand_op.asc
  -o hand_op.o RC rc OUT out ERR err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compiling hand_op.asc failed (${rc}):\n${out}${err}")
endif()
file(READ ${WORK_DIR}/hand_op.d dep)
expect_match("dependency file" "hand_op\\.o:" "${dep}")
expect_match("dependency file" "${SRC_DIR}/hand_op\\.asc" "${dep}")
expect_match("dependency file" "hand_config\\.h" "${dep}")
expect_match("dependency file" "${SRC_DIR}/hand_ub\\.h" "${dep}")
if(dep MATCHES "lngrad-asc-")
  message(FATAL_ERROR "the dependency file names the rewritten copy:\n${dep}")
endif()

# 2. The debug line table names the .asc (gdb breaks and lists there).
find_program(READELF readelf)
if(READELF)
  execute_process(COMMAND ${READELF} --debug-dump=line ${WORK_DIR}/hand_op.o
    OUTPUT_VARIABLE lines ERROR_QUIET)
  expect_match("debug line table" "hand_op\\.asc" "${lines}")
endif()

# 3. Link (the driver passes the command to the C++ compiler) and run.
run_driver(ARGS hand_op.o -o hand_op ${LINK_LIBS} -pthread RC rc OUT out ERR err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "linking hand_op failed (${rc}):\n${out}${err}")
endif()
execute_process(COMMAND ${WORK_DIR}/hand_op RESULT_VARIABLE rc OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hand_op failed (${rc}):\n${out}${err}")
endif()
expect_match("hand_op" "npu_arch=3510 soc=Ascend950PR_9599\n" "${out}")
expect_match("hand_op" "file=${SRC_DIR}/hand_op\\.asc line=34\n" "${out}")
expect_match("hand_op" "\nhand pass\n" "${out}")

# 4. A compile error after a two-line launch names its own .asc line.
run_driver(ARGS -c ${SRC_DIR}/hand_error.asc -o hand_error.o RC rc OUT out ERR err)
if(rc EQUAL 0)
  message(FATAL_ERROR "hand_error.asc compiled")
endif()
expect_match("compile error" "hand_error\\.asc:5:[0-9]+: error:" "${err}")

# 5. A launch in a macro body is refused, naming the continuation line.
run_driver(ARGS -c ${SRC_DIR}/hand_macro.asc -o hand_macro.o RC rc OUT out ERR err)
if(rc EQUAL 0)
  message(FATAL_ERROR "hand_macro.asc compiled")
endif()
expect_match("macro launch"
  "hand_macro\\.asc:4: error: a <<<\\.\\.\\.>>> kernel launch inside a macro body" "${err}")

# 6. --rewrite-only prints the C++ the compiler gets, one line longer than the .asc.
run_driver(ARGS --rewrite-only ${SRC_DIR}/hand_op.asc RC rc OUT out ERR err)
expect_match("rewrite" "^#line 1 \"${SRC_DIR}/hand_op\\.asc\"\n" "${out}")
string(FIND "${out}" "::lngrad::acl::LaunchKernel(\"Scale<int32_t, 3>\", __FILE__, __LINE__" at)
if(at LESS 0)
  message(FATAL_ERROR "rewrite: no launch of Scale<int32_t, 3> in:\n${out}")
endif()
file(READ ${SRC_DIR}/hand_op.asc src)
string(REGEX MATCHALL "\n" src_newlines "${src}")
string(REGEX MATCHALL "\n" out_newlines "${out}")
list(LENGTH src_newlines n_src)
list(LENGTH out_newlines n_out)
math(EXPR n_expected "${n_src} + 1")
if(NOT n_out EQUAL n_expected)
  message(FATAL_ERROR "rewrite: ${n_out} lines for ${n_src} .asc lines")
endif()

# 7. A missing input is an error naming it; the scratch directories are gone.
run_driver(ARGS -c ${WORK_DIR}/missing.asc RC rc OUT out ERR err)
expect_match("missing input" "lngrad-asc: error: cannot read .*missing\\.asc" "${err}")
file(GLOB left ${WORK_DIR}/tmp/*)
if(left)
  message(FATAL_ERROR "scratch files left behind: ${left}")
endif()
