# Installs the built marrow into a scratch prefix, then builds and runs three consumers: one with
# find_package and marrow::marrow, one that links only marrow::model with Assimp and simdjson
# hidden from CMake, and one compiled with the flags of the installed marrow.pc.
# Variables: BUILD_DIR (marrow's build tree), SOURCE_DIR (this folder), WORK_DIR (scratch).
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "cmake --install failed: ${rc}")
endif()
include(GNUInstallDirs)
foreach(required include/marrow/marrow.hpp include/marrow/version.hpp ${CMAKE_INSTALL_LIBDIR}/cmake/marrow/marrowConfig.cmake
                 ${CMAKE_INSTALL_LIBDIR}/pkgconfig/marrow.pc ${CMAKE_INSTALL_LIBEXECDIR}/marrow/marrow-assimp-worker)
  if(NOT EXISTS ${WORK_DIR}/prefix/${required})
    message(FATAL_ERROR "install is missing ${required}")
  endif()
endforeach()

function(build_and_run name source)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${source} -B ${WORK_DIR}/${name} -G Ninja
                          -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix ${ARGN}
                  RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "configuring ${name} failed: ${rc}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/${name} RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "building ${name} failed: ${rc}")
  endif()
  execute_process(COMMAND ${WORK_DIR}/${name}/${name} RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "${name} returned ${rc}")
  endif()
endfunction()

build_and_run(consumer ${SOURCE_DIR})
build_and_run(model_consumer ${SOURCE_DIR}/model_only
              -DCMAKE_DISABLE_FIND_PACKAGE_assimp=ON -DCMAKE_DISABLE_FIND_PACKAGE_simdjson=ON
              -DCMAKE_DISABLE_FIND_PACKAGE_draco=ON -DCMAKE_DISABLE_FIND_PACKAGE_meshoptimizer=ON
              -DCMAKE_DISABLE_FIND_PACKAGE_GIF=ON -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON)

# pkg-config: the model-only program again, compiled and linked with marrow.pc's flags alone.
find_program(PKG_CONFIG pkg-config REQUIRED)
set(ENV{PKG_CONFIG_PATH} ${WORK_DIR}/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig)
execute_process(COMMAND ${PKG_CONFIG} --cflags --libs marrow OUTPUT_VARIABLE flags RESULT_VARIABLE rc
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(rc)
  message(FATAL_ERROR "pkg-config cannot read the installed marrow.pc: ${rc}")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
execute_process(COMMAND c++ -std=c++20 -O1 ${SOURCE_DIR}/model_only/main.cpp ${flags} -o ${WORK_DIR}/pc_consumer
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "compiling with pkg-config's flags for marrow failed: ${rc}")
endif()
execute_process(COMMAND ${WORK_DIR}/pc_consumer RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the pkg-config consumer returned ${rc}")
endif()
