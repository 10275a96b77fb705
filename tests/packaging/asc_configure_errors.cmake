# packaging.asc_configure_errors (CMakeLists.txt): configuring asc_op/ must fail with the message.
function(expect_configure_error tag message)
  set(bin ${WORK}/${tag})
  file(REMOVE_RECURSE ${bin})
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${bin} -G ${GENERATOR}
    -DASC_DIR=${ASC_DIR} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  # CMake wraps long messages: compare with the whitespace collapsed.
  string(REGEX REPLACE "[ \t\r\n]+" " " text "${out}${err}")
  if(rc EQUAL 0)
    message(FATAL_ERROR "${tag}: configure succeeded:\n${out}${err}")
  endif()
  string(FIND "${text}" "${message}" at)
  if(at LESS 0)
    message(FATAL_ERROR "${tag}: expected \"${message}\" in:\n${out}${err}")
  endif()
endfunction()

# npu is accepted (the hybrid samples' cache default): it runs on the CPU simulation.
expect_configure_error(sim
  "CMAKE_ASC_RUN_MODE=sim is not available: lngrad runs Ascend C kernels on the CPU"
  -DCMAKE_ASC_RUN_MODE=sim)
expect_configure_error(arch
  "CMAKE_ASC_ARCHITECTURES='dav-1001': lngrad simulates one of dav-2201, dav-2002, dav-3510"
  -DCMAKE_ASC_ARCHITECTURES=dav-1001)
