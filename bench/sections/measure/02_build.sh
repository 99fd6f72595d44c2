# Sourced by bench/run inside measure(), in file-name order: the build (mvn package) and the java command line.
# It shares bench/run's variables, helpers and results map R.
# shellcheck shell=bash
if [ "${BENCH_NO_BUILD:-0}" != 1 ]; then
  log "building (mvn package, tests compiled but not run)"
  (cd "$home" && mvn -q -B -DskipTests package) >&2
fi
target="$home/jobs/target"
cp_main="$target/tracelake-jobs-0.1.0-SNAPSHOT.jar:$(cat "$target/classpath.txt")"
read -r -a jvm_opts <<< "$(cat "$target/jvm-options.txt")"
java_cmd="${JAVA_HOME:+$JAVA_HOME/bin/}java"
export SPARK_LOCAL_IP=127.0.0.1
