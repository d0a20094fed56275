# Writes the shell completions and the manual page by running the built gpurun
# (cmake -DGPURUN=PATH -DOUT=DIR -P cmake/shell_files.cmake): they come from its own command-line
# definition, so they always match its options.
foreach(pair "completion;bash;gpurun.bash" "completion;zsh;_gpurun" "completion;fish;gpurun.fish"
             "man;-;gpurun.1")
  list(GET pair 0 command)
  list(GET pair 1 argument)
  list(GET pair 2 file)
  if(argument STREQUAL "-")
    set(argument "")
  endif()
  execute_process(COMMAND ${GPURUN} ${command} ${argument} OUTPUT_FILE ${OUT}/${file}
                  RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "gpurun ${command} ${argument} failed (${result})")
  endif()
endforeach()
