# ASC language, step 1 (first configure only): finds the compiler, lngrad's driver lngrad-asc,
# and records it in CMakeFiles/<version>/CMakeASCCompiler.cmake.
# Precedence: -DCMAKE_ASC_COMPILER, the ASC environment variable, the driver of the lngrad that
# find_package(ASC) found, lngrad-asc on PATH.
if(NOT CMAKE_ASC_COMPILER AND DEFINED ENV{ASC} AND NOT "$ENV{ASC}" STREQUAL "")
  set(CMAKE_ASC_COMPILER "$ENV{ASC}" CACHE FILEPATH "ASC compiler (lngrad-asc)")
endif()
if(NOT CMAKE_ASC_COMPILER AND LNGRAD_ASC_COMPILER)
  set(CMAKE_ASC_COMPILER "${LNGRAD_ASC_COMPILER}" CACHE FILEPATH "ASC compiler (lngrad-asc)")
endif()
find_program(CMAKE_ASC_COMPILER NAMES lngrad-asc DOC "ASC compiler (lngrad-asc)")
mark_as_advanced(CMAKE_ASC_COMPILER)
if(NOT CMAKE_ASC_COMPILER OR NOT EXISTS "${CMAKE_ASC_COMPILER}")
  message(FATAL_ERROR "ASC: no ASC compiler: lngrad-asc not found ('${CMAKE_ASC_COMPILER}'); "
    "call find_package(ASC) before project(), or set CMAKE_ASC_COMPILER")
endif()

if(NOT CMAKE_ASC_SOURCE_FILE_EXTENSIONS)
  set(CMAKE_ASC_SOURCE_FILE_EXTENSIONS asc)
endif()
set(CMAKE_ASC_COMPILER_ENV_VAR "ASC")
set(CMAKE_ASC_COMPILER_ID "lngrad")
# lngrad's Ascend C headers are C++20 (the vendor's default is C++17).
if(NOT CMAKE_ASC_STANDARD_DEFAULT)
  set(CMAKE_ASC_STANDARD_DEFAULT 20)
endif()
execute_process(COMMAND "${CMAKE_ASC_COMPILER}" --version
  OUTPUT_VARIABLE _lngrad_asc_version RESULT_VARIABLE _lngrad_asc_rc ERROR_QUIET)
if(_lngrad_asc_rc EQUAL 0 AND _lngrad_asc_version MATCHES "\\(lngrad ([0-9.]+)\\)")
  set(CMAKE_ASC_COMPILER_VERSION "${CMAKE_MATCH_1}")
endif()
unset(_lngrad_asc_version)
unset(_lngrad_asc_rc)

configure_file(${CMAKE_CURRENT_LIST_DIR}/CMakeASCCompiler.cmake.in
  ${CMAKE_PLATFORM_INFO_DIR}/CMakeASCCompiler.cmake @ONLY)
