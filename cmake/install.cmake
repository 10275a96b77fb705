# Install and export rules: after `cmake --install`, a user project does
#   find_package(lngrad REQUIRED)
#   target_link_libraries(app PRIVATE lngrad::lngrad)     # native API
#   target_link_libraries(kernel PRIVATE lngrad::ascendc) # Ascend C include root + runtime
include(CMakePackageConfigHelpers)

set(LNGRAD_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/lngrad)
set(_lngrad_export_targets lngrad lngrad_warnings lngrad_strict_fp)
foreach(t lngrad_devmath lngrad_tiling lngrad_ascendc)
  if(TARGET ${t})
    list(APPEND _lngrad_export_targets ${t})
  endif()
endforeach()

install(TARGETS ${_lngrad_export_targets}
  EXPORT lngradTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} ${CMAKE_INSTALL_INCLUDEDIR}/ascendc)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# lngrad_devmath's header (lngrad/devmath/devmath.h), used by the Ascend C normalization headers.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/core/device/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT lngradTargets NAMESPACE lngrad:: DESTINATION ${LNGRAD_INSTALL_CMAKEDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/lngrad-config.cmake.in
  ${PROJECT_BINARY_DIR}/lngrad-config.cmake INSTALL_DESTINATION ${LNGRAD_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/lngrad-config-version.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/lngrad-config.cmake
  ${PROJECT_BINARY_DIR}/lngrad-config-version.cmake DESTINATION ${LNGRAD_INSTALL_CMAKEDIR})
