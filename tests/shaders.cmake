# Every chart shader must compile as GLSL ES 3.00: one CTest test per file, run
# by glslangValidator (Debian's glslang-tools), so a broken shader fails CI.
find_program(GLSLANG_VALIDATOR glslangValidator)
if(NOT GLSLANG_VALIDATOR)
  message(FATAL_ERROR "glslangValidator not found: apt-get install glslang-tools")
endif()

file(GLOB FUSIONLAB_SHADERS CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/shaders/*.vert ${PROJECT_SOURCE_DIR}/shaders/*.frag)
foreach(shader IN LISTS FUSIONLAB_SHADERS)
  get_filename_component(shader_name ${shader} NAME)
  add_test(NAME shader.${shader_name} COMMAND ${GLSLANG_VALIDATOR} ${shader})
endforeach()
