# The layering test (docs/architecture.md), run by ctest as
#   cmake -DLIB=<lib/> -DLAYERS=<a|b|...> -DCXX=<compiler>
#         -DINCLUDES_<layer>=<dir|dir|...> ... -P check_layers.cmake
# LAYERS and each layer's include directories come from the build itself
# (lib/CMakeLists.txt, the targets' INCLUDE_DIRECTORIES), so this checks the
# layering that is built, not a copy of it.
#  1. Proof that the build refuses an upward include: for each layer, a
#     source including a header of the layer above does not preprocess with
#     that layer's include directories, while one including a header of its
#     own layer does (so the failure is the missing header, nothing else).
#  2. Every quoted #include of every file, headers too (a header that only
#     higher layers include is never compiled in its own), names a file of its
#     own layer or one below.
cmake_minimum_required(VERSION 3.25)
string(REPLACE "|" ";" layers "${LAYERS}")
set(failures "")
set(scratch "${CMAKE_CURRENT_BINARY_DIR}/layering-check")
file(MAKE_DIRECTORY "${scratch}")

function(first_header layer out)
  file(GLOB_RECURSE headers RELATIVE "${LIB}/${layer}" "${LIB}/${layer}/*.hpp")
  list(SORT headers)
  list(GET headers 0 h)
  set(${out} "${h}" PARENT_SCOPE)
endfunction()

function(preprocess layer header out_ok out_log)
  string(REPLACE "|" ";" dirs "${INCLUDES_${layer}}")
  set(flags "")
  foreach(d IN LISTS dirs)
    list(APPEND flags "-I${d}")
  endforeach()
  file(WRITE "${scratch}/${layer}.cpp" "#include \"${header}\"\n")
  execute_process(COMMAND "${CXX}" -std=c++20 -E -fdirectives-only -o /dev/null ${flags} "${scratch}/${layer}.cpp"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
  if(rc EQUAL 0)
    set(${out_ok} TRUE PARENT_SCOPE)
  else()
    set(${out_ok} FALSE PARENT_SCOPE)
  endif()
  set(${out_log} "${log}" PARENT_SCOPE)
endfunction()

list(LENGTH layers n)
math(EXPR last "${n} - 1")
foreach(i RANGE 0 ${last})
  list(GET layers ${i} layer)
  if(NOT DEFINED INCLUDES_${layer})
    message(FATAL_ERROR "no include directories given for layer ${layer}")
  endif()
  first_header(${layer} own)
  preprocess(${layer} "${own}" ok log)
  if(NOT ok)
    string(APPEND failures "\n  ${layer}: its own header ${own} does not preprocess:\n${log}")
  endif()
  if(i LESS last)
    math(EXPR j "${i} + 1")
    list(GET layers ${j} upper)
    first_header(${upper} up)
    preprocess(${layer} "${up}" ok log)
    if(ok)
      string(APPEND failures "\n  ${layer}: an include of ${up} (layer ${upper}) preprocesses; the build would not refuse it")
    elseif(NOT log MATCHES "${up}")
      string(APPEND failures "\n  ${layer}: including ${up} failed, but not for the missing header:\n${log}")
    endif()
  endif()
endforeach()

# 2. Every file's quoted includes, by the layer that holds what they name.
set(visible "")
foreach(layer IN LISTS layers)
  list(APPEND visible "${layer}")
  file(GLOB_RECURSE files "${LIB}/${layer}/*.hpp" "${LIB}/${layer}/*.cpp" "${LIB}/${layer}/*.in")
  foreach(f IN LISTS files)
    file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" inc "${line}")
      set(home "")
      foreach(l IN LISTS layers)
        if(EXISTS "${LIB}/${l}/${inc}")
          set(home "${l}")
        endif()
      endforeach()
      file(RELATIVE_PATH rel "${LIB}" "${f}")
      if(home STREQUAL "")
        string(APPEND failures "\n  lib/${rel}: includes \"${inc}\", which is in no layer")
      elseif(NOT home IN_LIST visible)
        string(APPEND failures "\n  lib/${rel} (layer ${layer}): includes \"${inc}\" of the higher layer ${home}")
      endif()
    endforeach()
  endforeach()
endforeach()

if(failures)
  message(FATAL_ERROR "layering violated (docs/architecture.md):${failures}")
endif()
message(STATUS "layering holds: ${LAYERS}")
