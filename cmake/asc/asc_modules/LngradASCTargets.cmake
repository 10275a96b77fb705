# The targets a vendor-style ASC project links, all lngrad::ascendc: the names of the vendor's
# samples (tiling_api, register, platform, unified_dlog, graph_base, ascendalog) and those its kernel-launch
# modules link (ascendcl, acl_rt, ascendc_runtime, runtime, error_manager, profapi,
# ge_common_base, mmpa, ascend_dump, c_sec), and the profiling libraries of the kit's
# torch_library_report_tensor sample (nnopbase, msprofiler). dl and m stay the system libraries.
set(LNGRAD_ASC_VENDOR_LINK_NAMES
  tiling_api register platform unified_dlog graph_base ascendalog
  ascendcl acl_rt ascendc_runtime runtime error_manager profapi ge_common_base mmpa ascend_dump
  c_sec nnopbase msprofiler)

macro(_lngrad_asc_import_targets)
  if(NOT TARGET lngrad::ascendc)
    # lngrad's targets need a C or C++ compiler (Threads); ASC is C++.
    if(NOT CMAKE_C_COMPILER_LOADED AND NOT CMAKE_CXX_COMPILER_LOADED)
      enable_language(CXX)
    endif()
    find_package(lngrad CONFIG REQUIRED PATHS "${LNGRAD_ASC_LNGRAD_DIR}" NO_DEFAULT_PATH)
  endif()
  # The C++ compiler compiles ASC sources: its implicit include directories are the ASC
  # language's, which CMake leaves off the command line (Debian's Torch package lists
  # /usr/include, and `-isystem /usr/include` breaks libstdc++'s #include_next <stdlib.h>).
  if(CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES AND NOT CMAKE_ASC_IMPLICIT_INCLUDE_DIRECTORIES)
    set(CMAKE_ASC_IMPLICIT_INCLUDE_DIRECTORIES ${CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES})
  endif()
  foreach(_lngrad_asc_name IN LISTS LNGRAD_ASC_VENDOR_LINK_NAMES)
    if(NOT TARGET ${_lngrad_asc_name})
      add_library(${_lngrad_asc_name} INTERFACE IMPORTED)
      set_target_properties(${_lngrad_asc_name} PROPERTIES INTERFACE_LINK_LIBRARIES lngrad::ascendc)
    endif()
  endforeach()
  unset(_lngrad_asc_name)
endmacro()

# The vendor package's helper functions for kernel libraries. ascendc_library(name STATIC|SHARED
# sources...) builds the sources as ASC; ascendc_compile_options() splits its options at
# -forward-options-to-host-compiler into device options (ignored by lngrad-asc: there is no
# device compile) and host options (passed to the C++ compiler).
function(ascendc_library target_name target_type)
  if(NOT target_type MATCHES "^(STATIC|SHARED)$")
    message(FATAL_ERROR "ascendc_library(${target_name} ${target_type}): the type must be STATIC "
      "or SHARED")
  endif()
  set_source_files_properties(${ARGN} PROPERTIES LANGUAGE ASC)
  add_library(${target_name} ${target_type} ${ARGN})
  set_target_properties(${target_name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_link_libraries(${target_name} PUBLIC lngrad::ascendc)
endfunction()

function(ascendc_fatbin_library target_name)
  message(FATAL_ERROR "ascendc_fatbin_library(${target_name}): a device binary needs the "
    "vendor's compiler; lngrad runs Ascend C kernels on the CPU (use ascendc_library)")
endfunction()

function(ascendc_compile_definitions target_name target_scope)
  target_compile_definitions(${target_name} ${target_scope} ${ARGN})
endfunction()

function(ascendc_include_directories target_name target_scope)
  target_include_directories(${target_name} ${target_scope} ${ARGN})
endfunction()

function(ascendc_compile_options target_name target_scope)
  set(device "")
  set(host "")
  set(in_host OFF)
  foreach(arg IN LISTS ARGN)
    if(in_host)
      list(APPEND host "${arg}")
    elseif(arg STREQUAL "-forward-options-to-host-compiler")
      set(in_host ON)
    else()
      list(APPEND device "${arg}")
    endif()
  endforeach()
  # SHELL: keeps each group whole (CMake de-duplicates single options across calls).
  string(JOIN " " device ${device})
  string(JOIN " " host ${host})
  if(device)
    target_compile_options(${target_name} ${target_scope} "SHELL:-Xaicore-start ${device} -Xaicore-end")
  endif()
  if(host)
    target_compile_options(${target_name} ${target_scope} "SHELL:-Xhost-start ${host} -Xhost-end")
  endif()
endfunction()
