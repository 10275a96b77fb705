# Included at the end of project() (CMAKE_PROJECT_INCLUDE, set by find_package(ASC) before it):
# imports lngrad's targets and the vendor's link names.
if(_LNGRAD_ASC_PREVIOUS_PROJECT_INCLUDE)
  include("${_LNGRAD_ASC_PREVIOUS_PROJECT_INCLUDE}")
endif()
_lngrad_asc_import_targets()
