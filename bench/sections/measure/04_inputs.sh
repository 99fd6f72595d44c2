# Sourced by bench/run inside measure(), in file-name order: the inputs, generated with the project's generator.
# It shares bench/run's variables, helpers and results map R.
# shellcheck shell=bash
log "generating inputs"
gen_t0=$(date +%s.%N)
tl 1g generate --out "$out/in-parse" --name parse --ranks 1 --steps "$parse_steps" --layers "$parse_layers" --no-gzip > /dev/null
tl 1g generate --out "$out/in-half" --name half --ranks 1 --steps "$parse_steps" --layers "$(( parse_layers / 2 ))" --no-gzip > /dev/null
tl 1g generate --out "$out/in-big" --name big --ranks 1 --steps "$big_steps" --layers "$big_layers" --no-gzip > /dev/null
tl 1g generate --out "$out/in-archive" --name llama-8rank --ranks "$ranks" --steps "$arch_steps" --layers "$arch_layers" --no-gzip > /dev/null
tl 1g generate --out "$out/in-small1" --name small-1 --ranks "$small_ranks" --steps "$small_steps" --layers "$small_layers" --no-gzip > /dev/null
gen_t1=$(date +%s.%N)
# The many-workload archive of (7): the one small workload copied under small_count names (a workload is its
# folder and its card <name>/<name>.yaml; nothing in the card or the traces names it).
mkdir -p "$out/in-small$small_count"
for i in $(seq 1 "$small_count"); do
  cp -r "$out/in-small1/small-1" "$out/in-small$small_count/small-$i"
  [ "$i" = 1 ] || mv "$out/in-small$small_count/small-$i/small-1.yaml" "$out/in-small$small_count/small-$i/small-$i.yaml"
done
small_bytes=$(find "$out/in-small1" -name '*.json' -printf '%s\n' | awk '{ s += $1 } END { print s }')
# The bundled sample archive of (6), copied so that nothing is written next to it.
cp -r "$home/data" "$out/in-data"
data_bytes=$(find "$out/in-data" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
data_workloads=$(find "$out/in-data" -mindepth 1 -maxdepth 1 -type d | wc -l)
parse_file=$(find "$out/in-parse" -name '*.json')
big_file=$(find "$out/in-big" -name '*.json')
parse_bytes=$(stat -c %s "$parse_file")
big_bytes=$(stat -c %s "$big_file")
arch_bytes=$(find "$out/in-archive" -name '*.json' -printf '%s\n' | awk '{ s += $1 } END { print s }')
half_file=$(find "$out/in-half" -name '*.json')
half_bytes=$(stat -c %s "$half_file")
gen_bytes=$(( parse_bytes + half_bytes + big_bytes + arch_bytes ))
gen_mbs=$(calc "%.0f" "$gen_bytes / 1e6 / ($gen_t1 - $gen_t0)")
log "inputs: parse $parse_bytes B, big $big_bytes B, archive $arch_bytes B ($gen_mbs MB/s generated)"
