# Shared by the bench/ scripts (sourced, not run): make_trace DIR N writes a
# generated N-version trace into DIR (a new git repository) with
# git fast-import. One commit per version whose kernel.py (~11 KB of Triton)
# changes every time; a memory/v<N>.json step record per version (both
# geomean fields, by-shape latencies, a pitfall, an open direction); every
# 7th version reverted with a dead-end list; a bookkeeping commit every 100
# versions; a profiler capture every 50.
make_trace() {
  local trace=$1 n=$2
  git init -q -b main "$trace"
  # The fast-import stream: kernel.py grows a little each version; every 7th
  # version is reverted with a dead-end list; every 100th commit is bookkeeping.
  awk -v n="$n" 'BEGIN {
    body = ""
    for (i = 0; i < 200; i++) body = body sprintf("    acc_%d = tl.load(ptr + offs * %d, mask=m)  # stage %d\n", i, i, i)
    for (v = 0; v < n; v++) {
      t = 1700000000 + v * 60
      if (v % 7 == 3) msg = sprintf("v%d: reverted (+0.4%%) - dead-end recorded: wider tiles (x, y), more warps, e.g. 8 of them. Next: try split-K", v)
      else msg = sprintf("v%d: kept %d.1 -> %d.0us (-0.9%%)", v, 100 + n - v, 100 + n - v)
      kernel = "import triton\nimport triton.language as tl\n# version " v "\n@triton.jit\ndef kernel(ptr):\n" body "    return " v "\n"
      mem = sprintf("{\"version\": \"v%d\", \"performance\": {\"latency_us_geomean\": %d.0, \"latency_us_by_shape\": {\"M=1\": %d.5, \"M=64\": %d.25}, \"latency_us\": %d.0}, \"correctness\": {\"status\": \"PASS\", \"max_abs_err\": 0.001, \"max_rel_err\": 0.0001}, \"quality_gate\": {\"result\": \"PASS\"}, \"optimization\": {\"action_category\": \"memory\", \"action_description\": \"vectorised the loads of stage %d to 128-bit\"}, \"pitfalls_and_fixes\": [{\"error_type\": \"OOB\", \"error_message\": \"read past the end\", \"root_cause\": \"mask\", \"fix_applied\": \"masked load\", \"lesson\": \"mask tails\"}], \"open_directions\": [{\"direction\": \"split-K\", \"rationale\": \"more parallelism\"}]}\n", v, 100 + n - v, 100 + n - v, 100 + n - v, 100 + n - v, v)
      printf "commit refs/heads/main\nauthor b <b@example.com> %d +0000\ncommitter b <b@example.com> %d +0000\ndata %d\n%s\n", t, t, length(msg), msg
      printf "M 644 inline kernel.py\ndata %d\n", length(kernel); printf "%s\n", kernel
      printf "M 644 inline memory/v%d.json\ndata %d\n%s\n", v, length(mem), mem
      sol = "{\"spec\": {\"target_hardware\": [\"NVIDIA B200\"]}}"
      if (v == 0) printf "M 644 inline solution.json\ndata %d\n%s\n", length(sol), sol
      summ = "Kernel: rms_kernel_x\n"
      if (v % 50 == 0) printf "M 644 inline profiles/v%d_ncu/summary.txt\ndata %d\n%s\n", v, length(summ), summ
      if (v % 100 == 99) {
        note = sprintf("notes after v%d", v)
        printf "commit refs/heads/main\nauthor b <b@example.com> %d +0000\ncommitter b <b@example.com> %d +0000\ndata %d\n%s\n\n", t + 1, t + 1, length(note), note
      }
    }
  }' | git -C "$trace" fast-import --quiet
  git -C "$trace" checkout -q main
  git -C "$trace" gc -q
}

# "wall cpu" of one run of "$@", cpu = user + sys of it and its children
# (whatever its exit status).
measure() {
  local TIMEFORMAT='%R %U %S' out
  out=$({ time "$@" >/dev/null 2>&1; } 2>&1) || true # a failing run is timed too
  awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' <<<"$out"
}

# median of the numbers on stdin
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.3f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# median_run N CMD...: runs CMD N times, prints "wall_median cpu_median" (s).
median_run() {
  local n=$1 i w c walls="" cpus=""
  shift
  for i in $(seq "$n"); do
    read -r w c < <(measure "$@")
    walls+="$w"$'\n'
    cpus+="$c"$'\n'
  done
  echo "$(printf '%s' "$walls" | median) $(printf '%s' "$cpus" | median)"
}

# ratio A B: A / B with two decimals
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "n/a" }'; }

# The machine, for the record of a run.
machine() {
  echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"
}
