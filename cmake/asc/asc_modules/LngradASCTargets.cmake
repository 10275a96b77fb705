# The targets a vendor-style ASC project links, all lngrad::ascendc: the names of the vendor's
# samples (tiling_api, register, platform, unified_dlog, graph_base) and those its kernel-launch
# modules link (ascendcl, acl_rt, ascendc_runtime, runtime, error_manager, profapi,
# ge_common_base, mmpa, ascend_dump, c_sec). dl and m stay the system libraries.
set(LNGRAD_ASC_VENDOR_LINK_NAMES
  tiling_api register platform unified_dlog graph_base
  ascendcl acl_rt ascendc_runtime runtime error_manager profapi ge_common_base mmpa ascend_dump
  c_sec)

macro(_lngrad_asc_import_targets)
  if(NOT TARGET lngrad::ascendc)
    # lngrad's targets need a C or C++ compiler (Threads); ASC is C++.
    if(NOT CMAKE_C_COMPILER_LOADED AND NOT CMAKE_CXX_COMPILER_LOADED)
      enable_language(CXX)
    endif()
    find_package(lngrad CONFIG REQUIRED PATHS "${LNGRAD_ASC_LNGRAD_DIR}" NO_DEFAULT_PATH)
  endif()
  foreach(_lngrad_asc_name IN LISTS LNGRAD_ASC_VENDOR_LINK_NAMES)
    if(NOT TARGET ${_lngrad_asc_name})
      add_library(${_lngrad_asc_name} INTERFACE IMPORTED)
      set_target_properties(${_lngrad_asc_name} PROPERTIES INTERFACE_LINK_LIBRARIES lngrad::ascendc)
    endif()
  endforeach()
  unset(_lngrad_asc_name)
endmacro()
