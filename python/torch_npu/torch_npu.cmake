# Included by python/CMakeLists.txt after torch_ops.cmake, when the torch operators are built (a
# torch with C++ headers and the C++11 ABI, found by python/torch_ops/find_torch.py): the
# torch_npu stand-in for lngrad's simulated device (issue 31), a package in
# <build>/python/torch_npu with the layout of torch_npu's wheel: __init__.py and testing/,
# include/torch_npu/csrc/core/npu/*.h and lib/libtorch_npu.so (the PrivateUse1 backend on lngrad's
# ACL runtime). The kit's PyTorch samples find it with `import torch_npu`.
set(_torch_npu_out ${CMAKE_CURRENT_BINARY_DIR}/torch_npu)
add_library(_torch_npu SHARED ${CMAKE_CURRENT_LIST_DIR}/csrc/npu_runtime.cpp
  ${CMAKE_CURRENT_LIST_DIR}/csrc/npu_device.cpp ${CMAKE_CURRENT_LIST_DIR}/csrc/npu_ops.cpp)
target_include_directories(_torch_npu PRIVATE ${CMAKE_CURRENT_LIST_DIR}/include)
target_include_directories(_torch_npu SYSTEM PRIVATE ${_lngrad_torch_inc})
# lngrad's runtime is linked in and exported (default visibility): the package loads this library
# with RTLD_GLOBAL before any operator library, so the symbols of an operator's own static copy of
# lngrad (the ASC package links one into every target) resolve to this one, and both see one set
# of devices, streams and device memory (docs/python.md).
# torch_python too, as torch_npu's library needs it: operator libraries that bind with pybind11
# (the kit's pybind sample) link torch_npu and find torch's type casters through it (torch keeps
# torch._C's libraries out of the global scope).
find_library(_torch_npu_torch_python torch_python HINTS ${_lngrad_torch_libdir} NO_CACHE)
if(NOT _torch_npu_torch_python)
  message(FATAL_ERROR "torch ${LNGRAD_TORCH_VERSION}'s library torch_python not found in "
    "${_lngrad_torch_libdir}")
endif()
target_link_libraries(_torch_npu PRIVATE lngrad::ascendc lngrad_warnings ${_lngrad_torch_cpu}
  ${_lngrad_c10} -Wl,--no-as-needed ${_torch_npu_torch_python} -Wl,--as-needed)
set_target_properties(_torch_npu PROPERTIES OUTPUT_NAME torch_npu
  LIBRARY_OUTPUT_DIRECTORY ${_torch_npu_out}/lib)
file(GLOB_RECURSE _torch_npu_files CONFIGURE_DEPENDS RELATIVE ${CMAKE_CURRENT_LIST_DIR}
  ${CMAKE_CURRENT_LIST_DIR}/*.py ${CMAKE_CURRENT_LIST_DIR}/include/*.h)
foreach(f ${_torch_npu_files})
  configure_file(${CMAKE_CURRENT_LIST_DIR}/${f} ${_torch_npu_out}/${f} COPYONLY)
endforeach()
add_dependencies(_lngrad _torch_npu)
file(WRITE ${_torch_npu_out}/_build_info.py
  "# Written by CMake (python/torch_npu/torch_npu.cmake): the torch lib/libtorch_npu.so was built for.\n"
  "TORCH_VERSION = \"${LNGRAD_TORCH_VERSION}\"\n")
