# ASC language, step 3: the driver must run. (Compiling a test .asc here would need lngrad's
# targets, which are imported only at the end of project().)
if(NOT CMAKE_ASC_COMPILER_WORKS)
  execute_process(COMMAND "${CMAKE_ASC_COMPILER}" --version
    RESULT_VARIABLE _lngrad_asc_rc OUTPUT_VARIABLE _lngrad_asc_out ERROR_VARIABLE _lngrad_asc_out)
  if(NOT _lngrad_asc_rc EQUAL 0)
    message(FATAL_ERROR "ASC: the ASC compiler ${CMAKE_ASC_COMPILER} does not run:\n"
      "${_lngrad_asc_out}")
  endif()
  message(STATUS "Check for working ASC compiler: ${CMAKE_ASC_COMPILER} - works")
  set(CMAKE_ASC_COMPILER_WORKS 1 CACHE INTERNAL "")
  unset(_lngrad_asc_rc)
  unset(_lngrad_asc_out)
endif()
