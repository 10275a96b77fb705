# ASC language, step 2 (every configure): the rules that compile .asc sources with lngrad-asc and
# link them, and the run mode and architecture of the vendor's CMake options.
include(CMakeCommonLanguageInclude)

set(CMAKE_ASC_OUTPUT_EXTENSION .o)
set(CMAKE_INCLUDE_FLAG_ASC "-I")
set(CMAKE_INCLUDE_SYSTEM_FLAG_ASC "-isystem ")
set(CMAKE_ASC_COMPILE_OPTIONS_PIC "-fPIC")
set(CMAKE_ASC_COMPILE_OPTIONS_PIE "-fPIE")
set(CMAKE_ASC_LINK_OPTIONS_PIE "-pie")
set(CMAKE_ASC_LINK_OPTIONS_NO_PIE "-no-pie")
set(CMAKE_ASC_COMPILE_OPTIONS_SYSROOT "--sysroot=")
set(CMAKE_SHARED_LIBRARY_ASC_FLAGS "-fPIC")
set(CMAKE_SHARED_LIBRARY_CREATE_ASC_FLAGS "-shared")
set(CMAKE_SHARED_LIBRARY_SONAME_ASC_FLAG "-Wl,-soname,")
set(CMAKE_SHARED_LIBRARY_RUNTIME_ASC_FLAG "-Wl,-rpath,")
set(CMAKE_SHARED_LIBRARY_RUNTIME_ASC_FLAG_SEP ":")
set(CMAKE_SHARED_LIBRARY_RPATH_LINK_ASC_FLAG "-Wl,-rpath-link,")
set(CMAKE_EXECUTABLE_RUNTIME_ASC_FLAG "-Wl,-rpath,")
set(CMAKE_EXECUTABLE_RUNTIME_ASC_FLAG_SEP ":")
set(CMAKE_ASC_LINK_LIBRARY_FLAG "-l")
set(CMAKE_LINK_LIBRARY_FLAG "-l")

# The run mode. The vendor defaults to npu; lngrad has only the CPU simulation.
if(NOT DEFINED CMAKE_ASC_RUN_MODE OR CMAKE_ASC_RUN_MODE STREQUAL "")
  set(CMAKE_ASC_RUN_MODE cpu)
endif()
# npu: the samples that make it their cache default (and reach find_package(ASC) only in that
# mode) run on the CPU simulation too; sim (the CANN simulator) has no counterpart.
if(CMAKE_ASC_RUN_MODE STREQUAL "npu")
  # The variable keeps its value: the sample's own generator expressions test it.
  message(STATUS "ASC: CMAKE_ASC_RUN_MODE=npu runs on lngrad's simulated AI core (the CPU)")
elseif(CMAKE_ASC_RUN_MODE STREQUAL "sim")
  message(FATAL_ERROR "ASC: CMAKE_ASC_RUN_MODE=${CMAKE_ASC_RUN_MODE} is not available: lngrad runs "
    "Ascend C kernels on the CPU (a simulated AI core), with no NPU and no CANN simulator. "
    "Configure with -DCMAKE_ASC_RUN_MODE=cpu or leave it unset.")
elseif(NOT CMAKE_ASC_RUN_MODE STREQUAL "cpu")
  message(FATAL_ERROR "ASC: CMAKE_ASC_RUN_MODE='${CMAKE_ASC_RUN_MODE}' is unknown: lngrad runs "
    "Ascend C kernels on the CPU, use cpu (or leave it unset).")
endif()

# The language standard: C++20 or later (lngrad's Ascend C headers need it).
if(NOT DEFINED CMAKE_ASC_STANDARD OR CMAKE_ASC_STANDARD STREQUAL "")
  set(CMAKE_ASC_STANDARD "${CMAKE_ASC_STANDARD_DEFAULT}")
endif()
if(NOT CMAKE_ASC_STANDARD MATCHES "^[0-9]+$" OR CMAKE_ASC_STANDARD LESS 20)
  message(FATAL_ERROR "ASC: CMAKE_ASC_STANDARD='${CMAKE_ASC_STANDARD}': lngrad's Ascend C headers "
    "need C++20 or later (20, 23).")
endif()
set(_lngrad_asc_std "-std=c++${CMAKE_ASC_STANDARD}")

# Sets <var> to <value> unless it is defined already (by the user or a toolchain file).
macro(_lngrad_asc_default var value)
  if(NOT DEFINED ${var})
    set(${var} "${value}")
  endif()
endmacro()

_lngrad_asc_default(CMAKE_ASC_FLAGS_DEBUG_INIT "-O0 -g")
_lngrad_asc_default(CMAKE_ASC_FLAGS_RELEASE_INIT "-O3 -DNDEBUG")
_lngrad_asc_default(CMAKE_ASC_FLAGS_RELWITHDEBINFO_INIT "-O2 -g -DNDEBUG")
_lngrad_asc_default(CMAKE_ASC_FLAGS_MINSIZEREL_INIT "-Os -DNDEBUG")
set(CMAKE_ASC_FLAGS_INIT "$ENV{ASCFLAGS} ${CMAKE_ASC_FLAGS_INIT}")
cmake_initialize_per_config_variable(CMAKE_ASC_FLAGS "Flags used by the ASC compiler")

# CMAKE_ASC_ARCHITECTURES: one of the architectures lngrad simulates, passed as --npu-arch (a
# target's own --npu-arch option comes later on the command line and wins).
if(CMAKE_ASC_ARCHITECTURES)
  set(_lngrad_asc_archs dav-2201 dav-2002 dav-3510)
  list(LENGTH CMAKE_ASC_ARCHITECTURES _lngrad_asc_count)
  if(NOT _lngrad_asc_count EQUAL 1 OR NOT CMAKE_ASC_ARCHITECTURES IN_LIST _lngrad_asc_archs)
    message(FATAL_ERROR "ASC: CMAKE_ASC_ARCHITECTURES='${CMAKE_ASC_ARCHITECTURES}': lngrad "
      "simulates one of dav-2201, dav-2002, dav-3510.")
  endif()
  string(APPEND CMAKE_ASC_FLAGS " --npu-arch=${CMAKE_ASC_ARCHITECTURES}")
  unset(_lngrad_asc_archs)
  unset(_lngrad_asc_count)
endif()
# As the vendor's CPU mode does: debug information, so gdb steps through the .asc.
string(APPEND CMAKE_ASC_FLAGS " -g")

# The project's C++ compiler compiles the rewritten sources too (known here when project() lists
# CXX with ASC); otherwise the driver's own (the one lngrad was built with, or $LNGRAD_ASC_CXX).
set(_lngrad_asc_cxx "")
if(CMAKE_CXX_COMPILER)
  set(_lngrad_asc_cxx "\"--cxx=${CMAKE_CXX_COMPILER}\"")
endif()

set(_lngrad_asc_launcher "")
if(CMAKE_ASC_COMPILER_LAUNCHER)
  string(JOIN " " _lngrad_asc_launcher ${CMAKE_ASC_COMPILER_LAUNCHER})
endif()

# The compiler writes gcc-style dependency files (the driver names the .asc in them).
set(CMAKE_DEPFILE_FLAGS_ASC "-MD -MT <DEP_TARGET> -MF <DEP_FILE>")
set(CMAKE_ASC_DEPFILE_FORMAT gcc)
if((NOT DEFINED CMAKE_DEPENDS_USE_COMPILER OR CMAKE_DEPENDS_USE_COMPILER)
   AND CMAKE_GENERATOR MATCHES "Makefiles|WMake")
  set(CMAKE_ASC_DEPENDS_USE_COMPILER TRUE)
endif()

# `-x asc`: a source given LANGUAGE ASC is an ASC source whatever its extension.
if(NOT CMAKE_ASC_COMPILE_OBJECT)
  set(CMAKE_ASC_COMPILE_OBJECT "${_lngrad_asc_launcher} <CMAKE_ASC_COMPILER> ${_lngrad_asc_cxx} \
<DEFINES> <INCLUDES> ${_lngrad_asc_std} <FLAGS> -o <OBJECT> -c -x asc <SOURCE>")
endif()
if(NOT CMAKE_ASC_CREATE_PREPROCESSED_SOURCE)
  set(CMAKE_ASC_CREATE_PREPROCESSED_SOURCE "<CMAKE_ASC_COMPILER> ${_lngrad_asc_cxx} <DEFINES> <INCLUDES> \
${_lngrad_asc_std} <FLAGS> -E -x asc <SOURCE> > <PREPROCESSED_SOURCE>")
endif()
_lngrad_asc_default(CMAKE_ASC_ARCHIVE_CREATE "<CMAKE_AR> qc <TARGET> <LINK_FLAGS> <OBJECTS>")
_lngrad_asc_default(CMAKE_ASC_ARCHIVE_APPEND "<CMAKE_AR> q <TARGET> <LINK_FLAGS> <OBJECTS>")
_lngrad_asc_default(CMAKE_ASC_ARCHIVE_FINISH "<CMAKE_RANLIB> <TARGET>")
# Linking: the driver hands the command to the C++ compiler unchanged, less the device compiler's
# options (--cce-*, --gcc-toolchain=: the kit's PyTorch samples link with it). A target with ASC
# sources links through the driver as with the vendor's, although lngrad's libraries are C++
# (whose preference is 30).
set(CMAKE_ASC_LINKER_PREFERENCE 40)
if(NOT CMAKE_ASC_LINK_EXECUTABLE)
  set(CMAKE_ASC_LINK_EXECUTABLE "<CMAKE_ASC_COMPILER> ${_lngrad_asc_cxx} <FLAGS> <CMAKE_ASC_LINK_FLAGS> \
<LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
endif()
if(NOT CMAKE_ASC_CREATE_SHARED_LIBRARY)
  set(CMAKE_ASC_CREATE_SHARED_LIBRARY "<CMAKE_ASC_COMPILER> ${_lngrad_asc_cxx} \
<CMAKE_SHARED_LIBRARY_ASC_FLAGS> \
<LANGUAGE_COMPILE_FLAGS> <LINK_FLAGS> <CMAKE_SHARED_LIBRARY_CREATE_ASC_FLAGS> \
<SONAME_FLAG><TARGET_SONAME> -o <TARGET> <OBJECTS> <LINK_LIBRARIES>")
endif()
if(NOT CMAKE_ASC_CREATE_SHARED_MODULE)
  set(CMAKE_ASC_CREATE_SHARED_MODULE "${CMAKE_ASC_CREATE_SHARED_LIBRARY}")
endif()

# As the vendor's CPU mode links its runtime into every target, every target of the project
# links lngrad::ascendc (samples such as add_tpipe_tque link nothing themselves). The target is
# imported at the end of project() (find_package(ASC)); names resolve when generating.
if(COMMAND _lngrad_asc_import_targets)
  link_libraries(lngrad::ascendc)
endif()

unset(_lngrad_asc_std)
unset(_lngrad_asc_cxx)
unset(_lngrad_asc_launcher)
set(CMAKE_ASC_INFORMATION_LOADED 1)
