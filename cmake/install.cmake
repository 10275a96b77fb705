# Install and export rules: after `cmake --install`, a user project does
#   find_package(lngrad REQUIRED)
#   target_link_libraries(app PRIVATE lngrad::lngrad)     # native API (include/ only)
#   target_link_libraries(kernel PRIVATE lngrad::ascendc) # + the Ascend C include root
include(CMakePackageConfigHelpers)

set(LNGRAD_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/lngrad)
install(TARGETS lngrad_base lngrad_core lngrad_aicore lngrad_adv lngrad_tiling lngrad_acl
  lngrad_ascendc
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
