# Sourced by bin/tracelake. run_child CMD...: runs CMD (a program, or a function that execs one) as the launcher's child (where it cannot exec it: it has work
# to do after CMD exits) and returns CMD's exit code, passing a TERM, INT or HUP sent to the launcher (a scheduler's
# kill, `kill` of the pid a job was started as) on to CMD as a TERM: without that the JVM ran on alone after the
# launcher was gone. Standard input is handed on explicitly, as a command started with & in a script reads
# /dev/null otherwise (the sql prompt reads its statements there).
run_child() {
  "$@" <&0 &
  local child=$! rc
  # shellcheck disable=SC2064 # the child's pid is meant to be fixed now
  trap "kill -TERM $child 2>/dev/null" TERM INT HUP
  while :; do
    wait "$child"
    rc=$?
    # a wait cut short by a trapped signal returns at once: wait again while the child is still running
    kill -0 "$child" 2>/dev/null || break
  done
  trap - TERM INT HUP
  return "$rc"
}
