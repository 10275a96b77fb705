# Included by python/CMakeLists.txt with the tests: the torch_npu stand-in's (issue 31).
# python.torch_npu: its behaviour (pytest, tests/test_torch_npu.py). python.torch_npu_op: an
# operator directory (tests/torch_npu_op) configured, built and run as the kit's PyTorch samples
# are, against this build tree's ASC package and torch_npu. Both skip, saying why, where no
# torch_npu was built (no torch with C++ headers, or LNGRAD_TORCH_OPS=OFF).
set(_torch_npu_tests python.torch_npu python.torch_npu_op)
if(NOT TARGET _torch_npu)
  set(_torch_npu_why "no torch to build torch_npu against")
  if(_lngrad_torch_why)
    set(_torch_npu_why "${_lngrad_torch_why}")
  elseif(LNGRAD_TORCH_OPS STREQUAL "OFF")
    set(_torch_npu_why "LNGRAD_TORCH_OPS=OFF")
  endif()
  foreach(t ${_torch_npu_tests})
    add_test(NAME ${t} COMMAND sh -c "echo '${t} skipped: torch_npu not built (${_torch_npu_why})'; exit 77")
    set_tests_properties(${t} PROPERTIES SKIP_RETURN_CODE 77 LABELS python)
  endforeach()
  return()
endif()
add_test(NAME python.torch_npu
  COMMAND ${Python_EXECUTABLE} -m pytest -q -p no:cacheprovider
          ${CMAKE_CURRENT_SOURCE_DIR}/tests/test_torch_npu.py)
add_test(NAME python.torch_npu_op
  COMMAND ${CMAKE_CTEST_COMMAND}
    --build-and-test ${CMAKE_CURRENT_SOURCE_DIR}/tests/torch_npu_op
                     ${CMAKE_CURRENT_BINARY_DIR}/torch_npu_op
    --build-generator ${CMAKE_GENERATOR}
    --build-options -DASC_DIR=${PROJECT_BINARY_DIR}/asc -DPython3_EXECUTABLE=${Python_EXECUTABLE}
                    -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
    --test-command ${CMAKE_CTEST_COMMAND} --output-on-failure)
set_tests_properties(${_torch_npu_tests} PROPERTIES LABELS python TIMEOUT 600
  ENVIRONMENT "PYTHONPATH=${CMAKE_CURRENT_BINARY_DIR}"
  # CI=...: torch's run_tests() then writes XML reports through xmlrunner, which is not ours.
  ENVIRONMENT_MODIFICATION "ASCEND_HOME_PATH=unset:;CI=unset:")
