# Finds a Python 3 interpreter that can `import numpy` (Debian's python3-numpy installs into
# /usr/bin/python3, which another python3 earlier on PATH may hide). Sets the cache variable
# LNGRAD_PYTHON_NUMPY to it, or to NOTFOUND.
if(NOT DEFINED CACHE{LNGRAD_PYTHON_NUMPY} OR NOT LNGRAD_PYTHON_NUMPY)
  set(_lngrad_found NOTFOUND)
  find_program(_lngrad_path_python python3)
  foreach(candidate ${_lngrad_path_python} /usr/bin/python3)
    if(candidate AND EXISTS ${candidate})
      execute_process(COMMAND ${candidate} -c "import numpy" RESULT_VARIABLE _lngrad_rc
                      OUTPUT_QUIET ERROR_QUIET)
      if(_lngrad_rc EQUAL 0)
        set(_lngrad_found ${candidate})
        break()
      endif()
    endif()
  endforeach()
  set(LNGRAD_PYTHON_NUMPY ${_lngrad_found} CACHE FILEPATH "Python 3 with NumPy (tests)" FORCE)
  unset(_lngrad_path_python CACHE)
endif()

# Registers a test that fails with an explanation when no such interpreter exists, so that
# the NumPy checks are never silently skipped.
function(lngrad_require_numpy test_name)
  if(NOT LNGRAD_PYTHON_NUMPY)
    add_test(NAME ${test_name} COMMAND sh -c
             "echo 'no python3 with numpy found: install python3-numpy (./dev does) and reconfigure' >&2; exit 1")
  endif()
endfunction()
