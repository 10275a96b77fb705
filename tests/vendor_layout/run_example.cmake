# Runs one directory of examples/vendor_layout as its README says, for one architecture:
# configure with the vendor's flags, build with make, then for each dtype gen_data.py and ./demo,
# which must print "test pass!". Called by CMakeLists.txt with
#   -DSOURCE=<dir> -DWORK=<build dir> -DPREFIX=<lngrad install> -DARCH=dav-xxxx
#   -DPYTHON=<python3 with NumPy> -DMAKE=<make> -DDTYPES=float,half -DCXX=<compiler>
#   -DCXX_FLAGS=<flags> (the calling build's, for both languages: sanitizers reach the demo)
#   [-DHS=1,17,...] (row lengths passed to gen_data.py and ./demo after the dtype; none: their
#   default)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(step what)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

step("cmake" ${CMAKE_COMMAND} -G "Unix Makefiles" -DCMAKE_PREFIX_PATH=${PREFIX}
     -DCMAKE_ASC_RUN_MODE=cpu -DCMAKE_ASC_ARCHITECTURES=${ARCH} -DCMAKE_CXX_COMPILER=${CXX}
     "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_ASC_FLAGS=${CXX_FLAGS}" ${SOURCE})
step("make" ${MAKE} -j2)
string(REPLACE "," ";" DTYPES "${DTYPES}")
if(HS)
  string(REPLACE "," ";" HS "${HS}")
else()
  set(HS default)
endif()
foreach(dtype ${DTYPES})
  foreach(h IN LISTS HS)
    set(h_arg ${h})
    if(h STREQUAL "default")
      set(h_arg "")
    endif()
    step("gen_data.py ${dtype} ${h_arg}" ${PYTHON} ${SOURCE}/scripts/gen_data.py ${dtype} ${h_arg})
    step("./demo ${dtype} ${h_arg}" ${WORK}/demo ${dtype} ${h_arg})
    if(NOT step_output MATCHES "test pass!\n")
      message(FATAL_ERROR "./demo ${dtype} ${h_arg}: no pass line:\n${step_output}")
    endif()
    message(STATUS "${ARCH} ${dtype} ${h}:\n${step_output}")
  endforeach()
endforeach()
