# Writes OUTPUT, a header defining GATEAU_COMMIT: the commit the build comes
# from (git describe --always --dirty), "unknown" outside a git checkout
# (a tarball).  Run at every build (the gateau_commit target), not only when
# CMake configures, so that `gateau version` tells builds apart; the file
# is written only when the commit changed, so that an unchanged tree
# rebuilds nothing.
execute_process(COMMAND git describe --always --dirty
                WORKING_DIRECTORY ${SOURCE}
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET RESULT_VARIABLE found)
if(NOT found EQUAL 0 OR commit STREQUAL "")
  set(commit "unknown")
endif()
set(text "/* Written at each build by cmake/commit.cmake. */\n#define GATEAU_COMMIT \"${commit}\"\n")
set(old "")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUTPUT} "${text}")
endif()
