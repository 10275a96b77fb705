# Fails unless every #include of FILES / FILES2 names a header of the Ascend C include root
# (kernel_operator.h, lib/..., adv_api/..., kernel_tiling/...) -- nothing from lngrad.
foreach(file ${FILES} ${FILES2})
  file(STRINGS ${file} includes REGEX "^[ \t]*#[ \t]*include")
  if(NOT includes)
    message(FATAL_ERROR "${file}: no #include found")
  endif()
  foreach(line IN LISTS includes)
    if(NOT line MATCHES "#[ \t]*include[ \t]*\"(kernel_operator\\.h|lib/normalization/[a-z_]+\\.h|adv_api/normalization/[a-z_]+\\.h|kernel_tiling/kernel_tiling\\.h)\"")
      message(FATAL_ERROR "${file}: '${line}' is not an Ascend C include-root header")
    endif()
  endforeach()
  message(STATUS "${file}: ${includes}")
endforeach()
