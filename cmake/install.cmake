# Install and export rules: after `cmake --install`, a user project does
#   find_package(lngrad REQUIRED)
#   target_link_libraries(app PRIVATE lngrad::lngrad)     # native API (include/ only)
#   target_link_libraries(kernel PRIVATE lngrad::ascendc) # + the Ascend C include root
include(CMakePackageConfigHelpers)

set(LNGRAD_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/lngrad)
set(LNGRAD_EXPORTED_TARGETS lngrad_base lngrad_core lngrad_aicore lngrad_tiling_data lngrad_adv
    lngrad_tiling lngrad_simt lngrad_reg lngrad_cube lngrad_matmul lngrad_acl lngrad_kernel_operator lngrad_ascendc)
install(TARGETS ${LNGRAD_EXPORTED_TARGETS}
  EXPORT lngradTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT lngradTargets NAMESPACE lngrad:: DESTINATION ${LNGRAD_INSTALL_CMAKEDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/lngrad-config.cmake.in
  ${PROJECT_BINARY_DIR}/lngrad-config.cmake INSTALL_DESTINATION ${LNGRAD_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/lngrad-config-version.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/lngrad-config.cmake
  ${PROJECT_BINARY_DIR}/lngrad-config-version.cmake DESTINATION ${LNGRAD_INSTALL_CMAKEDIR})

# The ASC package (cmake/asc): find_package(ASC) before project(x LANGUAGES ASC CXX), as the
# vendor's samples do, from an install (CMAKE_PREFIX_PATH=<prefix>) or from this build tree
# (ASC_DIR=<build>/asc). Its config finds lngrad next to it and the driver, lngrad-asc.
set(LNGRAD_ASC_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/ASC)
file(RELATIVE_PATH _lngrad_asc_to_prefix ${CMAKE_INSTALL_PREFIX}/${LNGRAD_ASC_INSTALL_CMAKEDIR}
     ${CMAKE_INSTALL_PREFIX})
set(LNGRAD_ASC_CONFIG_PREFIX
    "get_filename_component(_lngrad_asc_prefix \"\${CMAKE_CURRENT_LIST_DIR}/${_lngrad_asc_to_prefix}\" ABSOLUTE)")
set(LNGRAD_ASC_CONFIG_COMPILER "\${_lngrad_asc_prefix}/${CMAKE_INSTALL_BINDIR}/lngrad-asc")
set(LNGRAD_ASC_CONFIG_LNGRAD_DIR "\${_lngrad_asc_prefix}/${LNGRAD_INSTALL_CMAKEDIR}")
set(LNGRAD_ASC_CONFIG_MODULES "\${CMAKE_CURRENT_LIST_DIR}/asc_modules")
configure_file(${PROJECT_SOURCE_DIR}/cmake/asc/asc-config.cmake.in
  ${PROJECT_BINARY_DIR}/asc-install/asc-config.cmake @ONLY)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/asc-install/asc-config-version.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY AnyNewerVersion ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/asc-install/asc-config.cmake
  ${PROJECT_BINARY_DIR}/asc-install/asc-config-version.cmake
  DESTINATION ${LNGRAD_ASC_INSTALL_CMAKEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/cmake/asc/asc_modules
  DESTINATION ${LNGRAD_ASC_INSTALL_CMAKEDIR})

# Build tree: lngrad's targets exported where they are built (with the build-only flag targets
# they name as link-only dependencies), the modules from the source tree.
set(_lngrad_build_cmakedir ${PROJECT_BINARY_DIR}/asc/lngrad)
export(TARGETS ${LNGRAD_EXPORTED_TARGETS} lngrad_warnings lngrad_strict_fp lngrad_aicore_simd
  NAMESPACE lngrad::
  FILE ${_lngrad_build_cmakedir}/lngradTargets.cmake)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/lngrad-config.cmake.in
  ${_lngrad_build_cmakedir}/lngrad-config.cmake INSTALL_DESTINATION ${_lngrad_build_cmakedir}
  INSTALL_PREFIX ${PROJECT_BINARY_DIR})
set(LNGRAD_ASC_CONFIG_PREFIX "")
set(LNGRAD_ASC_CONFIG_COMPILER "$<TARGET_FILE:lngrad_asc_compiler>")
set(LNGRAD_ASC_CONFIG_LNGRAD_DIR "${_lngrad_build_cmakedir}")
set(LNGRAD_ASC_CONFIG_MODULES "${PROJECT_SOURCE_DIR}/cmake/asc/asc_modules")
configure_file(${PROJECT_SOURCE_DIR}/cmake/asc/asc-config.cmake.in
  ${PROJECT_BINARY_DIR}/asc-build/asc-config.cmake.in @ONLY)
file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/asc/asc-config.cmake
  INPUT ${PROJECT_BINARY_DIR}/asc-build/asc-config.cmake.in)
configure_file(${PROJECT_BINARY_DIR}/asc-install/asc-config-version.cmake
  ${PROJECT_BINARY_DIR}/asc/asc-config-version.cmake COPYONLY)
