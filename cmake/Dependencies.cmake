# Third-party libraries, all from Debian's packages.
#
# Under Emscripten, /usr/include must never be on the include path (glibc's
# headers break the build), so header-only libraries are reached through a
# private folder that links to just their own directory.
add_library(fusionlab_json INTERFACE)
if(EMSCRIPTEN)
  set(FUSIONLAB_PRIVATE_INCLUDE ${CMAKE_BINARY_DIR}/include)
  file(MAKE_DIRECTORY ${FUSIONLAB_PRIVATE_INCLUDE})
  if(NOT EXISTS /usr/include/nlohmann/json.hpp)
    message(FATAL_ERROR "nlohmann/json.hpp not found: apt-get install nlohmann-json3-dev")
  endif()
  file(CREATE_LINK /usr/include/nlohmann ${FUSIONLAB_PRIVATE_INCLUDE}/nlohmann SYMBOLIC)
  target_include_directories(fusionlab_json INTERFACE ${FUSIONLAB_PRIVATE_INCLUDE})
else()
  find_package(nlohmann_json 3.10 REQUIRED)
  target_link_libraries(fusionlab_json INTERFACE nlohmann_json::nlohmann_json)
endif()
