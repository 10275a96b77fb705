# Included by python/CMakeLists.txt: the target _lngrad_torch (lngrad/_lngrad_torch.so) and
# lngrad/_torch_ops_info.py (the torch version it was built for), when a torch to build against
# is found.
execute_process(COMMAND "${Python_EXECUTABLE}" ${CMAKE_CURRENT_LIST_DIR}/find_torch.py
  OUTPUT_VARIABLE _lngrad_torch RESULT_VARIABLE _lngrad_torch_rc ERROR_VARIABLE _lngrad_torch_err
  OUTPUT_STRIP_TRAILING_WHITESPACE)
set(_lngrad_torch_why "")
if(NOT _lngrad_torch_rc EQUAL 0)
  string(STRIP "${_lngrad_torch_err}" _lngrad_torch_err)
  string(REGEX REPLACE ".*\n" "" _lngrad_torch_why "${_lngrad_torch_err}")
else()
  string(REPLACE "\n" ";" _lngrad_torch "${_lngrad_torch}")
  list(GET _lngrad_torch 0 LNGRAD_TORCH_VERSION)
  list(GET _lngrad_torch 1 _lngrad_torch_abi)
  list(GET _lngrad_torch 2 _lngrad_torch_inc)
  list(GET _lngrad_torch 3 _lngrad_torch_libdir)
  string(REPLACE "," ";" _lngrad_torch_libdir "${_lngrad_torch_libdir}")
  string(REPLACE "," ";" _lngrad_torch_inc "${_lngrad_torch_inc}")
  find_path(_lngrad_torch_library_h torch/library.h PATHS ${_lngrad_torch_inc} NO_DEFAULT_PATH
    NO_CACHE)
  find_library(_lngrad_torch_cpu torch_cpu HINTS ${_lngrad_torch_libdir} NO_CACHE)
  find_library(_lngrad_c10 c10 HINTS ${_lngrad_torch_libdir} NO_CACHE)
  if(NOT _lngrad_torch_abi EQUAL 1)
    set(_lngrad_torch_why "torch ${LNGRAD_TORCH_VERSION} uses the pre-C++11 ABI")
  elseif(NOT _lngrad_torch_library_h)
    set(_lngrad_torch_why "torch ${LNGRAD_TORCH_VERSION} has no C++ headers (Debian: libtorch-dev)")
  elseif(NOT _lngrad_torch_cpu OR NOT _lngrad_c10)
    set(_lngrad_torch_why "torch ${LNGRAD_TORCH_VERSION}'s libraries torch_cpu and c10 not found")
  endif()
endif()

if(_lngrad_torch_why)
  if(LNGRAD_TORCH_OPS STREQUAL "ON")
    message(FATAL_ERROR "LNGRAD_TORCH_OPS=ON but the torch operators cannot be built: "
      "${_lngrad_torch_why}")
  endif()
  message(STATUS "lngrad: torch operators not built (${_lngrad_torch_why}); lngrad.torch keeps "
    "its Python path")
  return()
endif()
message(STATUS "lngrad: torch operators for torch ${LNGRAD_TORCH_VERSION}")
add_library(_lngrad_torch MODULE ${CMAKE_CURRENT_LIST_DIR}/ops.cpp
  ${CMAKE_CURRENT_LIST_DIR}/output_cache.cpp)
target_include_directories(_lngrad_torch SYSTEM PRIVATE ${_lngrad_torch_inc})
target_link_libraries(_lngrad_torch PRIVATE lngrad::lngrad lngrad_warnings ${_lngrad_torch_cpu}
  ${_lngrad_c10})
set_target_properties(_lngrad_torch PROPERTIES PREFIX "" LIBRARY_OUTPUT_DIRECTORY
  ${CMAKE_CURRENT_BINARY_DIR}/lngrad)
set(_lngrad_torch_info ${CMAKE_CURRENT_BINARY_DIR}/lngrad/_torch_ops_info.py)
file(WRITE ${_lngrad_torch_info}
  "# Written by CMake (python/torch_ops/torch_ops.cmake): the torch _lngrad_torch was built for.\n"
  "TORCH_VERSION = \"${LNGRAD_TORCH_VERSION}\"\n")
# pip builds only _lngrad (pyproject.toml build.targets): the operators come with it.
add_dependencies(_lngrad _lngrad_torch)
install(TARGETS _lngrad_torch LIBRARY DESTINATION lngrad COMPONENT python)
install(FILES ${_lngrad_torch_info} DESTINATION lngrad COMPONENT python)
