# Sourced by bench/run inside measure(), in file-name order: the disk: scale the big trace down to what fits.
# It shares bench/run's variables, helpers and results map R.
# shellcheck shell=bash
# The load before anything of the benchmark's own runs (the build of the next step would show in a later reading):
# it says whether someone else is using the machine.
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
# At the peak (the memory run of (4)) the disk holds every input (parse trace 0.36 GB, archive 0.43 GB, small
# workloads and data/ < 0.1 GB, big trace ~5.2 GB) and the big trace's Parquet (under a third of its JSON), plus
# ~2 GB of headroom for the warehouses of (2) and (3) and Spark's scratch: ~13 GB.
need_gb=$(( quick ? 1 : 13 ))
avail_gb=$(df -P -BG "$out" | awk 'NR==2 { gsub("G", "", $4); print $4 }')
disk_note=""
if [ "$avail_gb" -lt "$need_gb" ]; then
  # Scale the 5 GB trace down to what fits (trace + its Parquet ~1.35x the trace, after ~4 GB for the rest), and say so.
  fit_mb=$(( (avail_gb > 5 ? avail_gb - 4 : 1) * 1000 * 100 / 135 ))
  fit_layers=$(( fit_mb * 1000 / (big_steps * 20) ))
  [ "$fit_layers" -lt "$big_layers" ] && big_layers=$fit_layers
  disk_note="Only ${avail_gb} GB were free on $(df -P "$out" | awk 'NR==2 {print $6}'), so the memory run used a smaller trace than the 5 GB of issue 12 ($big_layers layers)."
  log "only ${avail_gb} GB free: big trace reduced to ${big_layers} layers"
fi
