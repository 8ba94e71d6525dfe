#!/usr/bin/env bash
# scripts/otm-slurm-archive on a real Slurm (issue 12): a single-node Slurm
# (Debian's slurm-wlm and munge, configured in a temporary directory, started
# and stopped here; docs/scale-out.md) runs the array over six generated
# traces into a bare git repository seeded with a small generated store.
# Then the remote must hold every admission, one commit per trace that
# admitted something (a trace is one batch), an index.json equal to its
# records with no journal, and pass the nine store gates and the store's own
# checker (../shared/gpu-wiki/tools, when there with python3-jsonschema). Exit 77 (ctest: skipped)
# without slurm-wlm and munge (scripts/bootstrap --test installs them).
#   slurm_archive.sh BIN_DIR SOURCE_DIR
set -euo pipefail
bin=$1 src=$2
started=$(date +%s%N)
say() { echo "slurm_archive: $*"; }
skip() { say "skipped: $*"; exit 77; }
fail() { say "FAIL: $*" >&2; exit 1; }
case "$bin$src" in *' '*) skip "Makefile.pipeline cannot run from a path with a space ($src)" ;; esac

command -v git >/dev/null || skip "git is not installed"
# A short path: munge's socket path must fit a sockaddr_un (108 bytes).
tmp=$(mktemp -d /tmp/otm-slurm.XXXXXX)
# munged wants every directory above its socket searchable by all.
chmod 755 "$tmp"
slurm_dir=$tmp/slurm
export SLURM_CONF=$slurm_dir/slurm.conf

# Whatever happens, the jobs are cancelled and the three daemons stopped
# (by the pids in their pid files: only what this test started).
# The daemons given are asked to stop at once (each takes a second or
# more), then waited for, and killed after 10 s.
stop_daemons() {
  local f pid pids=()
  for f in "$@"; do
    pid=$(cat "$f" 2>/dev/null) || continue
    kill "$pid" 2>/dev/null && pids+=("$pid")
  done
  for _ in $(seq 100); do
    for pid in "${pids[@]}"; do
      if kill -0 "$pid" 2>/dev/null; then sleep 0.1; continue 2; fi
    done
    return 0
  done
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
}
cleanup() {
  local rc=$? stopping
  stopping=$(date +%s%N)
  if [ -f "$slurm_dir/slurmctld.pid" ]; then
    scancel --quiet --user="$(id -un)" 2>/dev/null || true
    for _ in $(seq 50); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
  fi
  # munged last: the Slurm daemons authenticate through it while stopping.
  stop_daemons "$slurm_dir/slurmd.pid" "$slurm_dir/slurmctld.pid"
  stop_daemons "$slurm_dir/munge/munged.pid"
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then
    for f in "$slurm_dir"/log/*.log "$tmp"/results/slurm/*.out; do
      [ -f "$f" ] && { echo "--- $f (last lines)"; tail -20 "$f"; }
    done
  fi
  rm -rf "$tmp"
  [ "$rc" -ne 0 ] || say "stopped in $((($(date +%s%N) - stopping) / 1000000)) ms"
  exit "$rc"
}
trap cleanup EXIT

# --- six small generated traces --------------------------------------------
traces=$tmp/traces
i=0
for spec in rmsnorm:triton:full softmax:cuda:full silu:gluon:full layernorm:triton:no-memory \
  gelu:cuda:broken-json logsumexp:triton:no-profiles; do
  IFS=: read -r op dsl variant <<<"$spec"
  "$bin/otm-make-trace" --versions 12 --operator "$op" --dsl "$dsl" --variant "$variant" --seed $((961 + i)) \
    --number $((961 + i)) "$traces" >/dev/null || fail "otm-make-trace $spec"
  i=$((i + 1))
done

# The submission, without Slurm: one array of six tasks, the table job after
# it (checked before the skip, so a machine without Slurm still checks it).
"$src/scripts/otm-slurm-archive" --dry-run --results "$tmp/results" -p otmtest --otm-bin "$bin" "$traces" \
  "$tmp/remote.git" >"$tmp/dry-run.txt" || fail "--dry-run failed"
grep -q -- "--array=0-5 " "$tmp/dry-run.txt" || fail "--dry-run: no --array=0-5 in: $(cat "$tmp/dry-run.txt")"
grep -q -- "--dependency=afterany:" "$tmp/dry-run.txt" || fail "--dry-run: no afterany dependency"
[ "$(grep -c '^#   [0-5] .*/kernel_opt_96' "$tmp/dry-run.txt")" -eq 6 ] || fail "--dry-run does not list six traces"
[ ! -e "$tmp/results" ] || fail "--dry-run wrote $tmp/results"

# The tasks admit through the git-backed live store (otm-wiki-gate --remote).
gate_help=$("$bin/otm-wiki-gate" --help 2>&1 || true)
grep -q -- '--remote' <<<"$gate_help" ||
  skip "this build's otm-wiki-gate has no --remote (the git-backed live store)"

# The daemons live in sbin, which a user's PATH may lack.
PATH=$PATH:/usr/sbin:/sbin
for c in munged slurmctld slurmd sbatch squeue sinfo scancel; do
  command -v "$c" >/dev/null ||
    skip "$c is not installed: slurm-wlm and munge are needed (scripts/bootstrap --test installs them)"
done

# --- a single-node Slurm (the recipe of docs/scale-out.md) -----------------
mkdir -p "$slurm_dir"/{munge,state,spool,log}
head -c 1024 /dev/urandom >"$slurm_dir/munge/munge.key"
chmod 400 "$slurm_dir/munge/munge.key"
munged --key-file="$slurm_dir/munge/munge.key" --socket="$slurm_dir/munge/munge.socket" \
  --pid-file="$slurm_dir/munge/munged.pid" --log-file="$slurm_dir/munge/munged.log" \
  --seed-file="$slurm_dir/munge/munged.seed" || fail "munged did not start"

# Two free ports (a Slurm of the machine's own may hold the defaults).
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
ctl_port=0
for _ in $(seq 20); do
  p=$((20000 + RANDOM % 30000))
  port_free "$p" && port_free $((p + 1)) && { ctl_port=$p; break; }
done
[ "$ctl_port" -ne 0 ] || fail "no two free ports found"
node=$(hostname -s)
user=$(id -un)
cat >"$SLURM_CONF" <<EOF
ClusterName=otmtest
SlurmctldHost=$node
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$slurm_dir/munge/munge.socket
SlurmctldPort=$ctl_port
SlurmdPort=$((ctl_port + 1))
StateSaveLocation=$slurm_dir/state
SlurmdSpoolDir=$slurm_dir/spool
SlurmctldPidFile=$slurm_dir/slurmctld.pid
SlurmdPidFile=$slurm_dir/slurmd.pid
SlurmctldLogFile=$slurm_dir/log/slurmctld.log
SlurmdLogFile=$slurm_dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
SchedulerType=sched/builtin
# Schedule a freed CPU's next task at once (the default delays batch jobs by
# up to 3 s, which made this test wait more than it worked).
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
NodeName=$node CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=otmtest Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start"
slurmd -f "$SLURM_CONF" || fail "slurmd did not start"
idle=0
for _ in $(seq 100); do
  sinfo -h -o %T 2>/dev/null | grep -q '^idle' && { idle=1; break; }
  sleep 0.2
done
if [ "$idle" -ne 1 ]; then
  [ "$(id -u)" -eq 0 ] || skip "a single-node Slurm did not come up as $user (not root)"
  fail "the Slurm node is not idle after 20 s ($(sinfo -h 2>&1 | head -1))"
fi
up=$(date +%s%N)

# --- a bare remote seeded with a small store -------------------------------
git() { command git -c core.autocrlf=false -c commit.gpgsign=false -c core.hooksPath=/dev/null "$@"; }
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=otm-test \
  GIT_AUTHOR_EMAIL=otm-test@example.invalid GIT_COMMITTER_NAME=otm-test GIT_COMMITTER_EMAIL=otm-test@example.invalid
"$bin/otm-bench-store" --records 40 "$tmp/seed" 2>/dev/null || fail "otm-bench-store"
# Its keys index is a cache stamped with this index.json's identity, never
# committed (docs/admission.md): each clone builds its own.
rm -f "$tmp/seed/records/.otm-index-keys"
git -c init.defaultBranch=main init -q "$tmp/seed"
git -C "$tmp/seed" add -A
git -C "$tmp/seed" commit -qm "seed: 40 generated records"
git clone -q --bare "$tmp/seed" "$tmp/remote.git"
seed_records=$(find "$tmp/seed/records" -name '*.json' ! -name index.json | wc -l)
ready=$(date +%s%N)

# --- the array ------------------------------------------------------------
rc=0
"$src/scripts/otm-slurm-archive" --wait --results "$tmp/results" --scratch "$tmp/node-scratch" \
  --otm-bin "$bin" "$traces" "$tmp/remote.git" >"$tmp/submit.log" 2>&1 || rc=$?
done_at=$(date +%s%N)
cat "$tmp/submit.log"
[ "$rc" -eq 0 ] || fail "otm-slurm-archive --wait exited $rc"
report=$tmp/results/archive-report.jsonl
[ "$(wc -l <"$report")" -eq 6 ] || fail "the report has $(wc -l <"$report") rows, want 6"
grep -q '"status": *"failed"' "$report" && fail "a trace failed"
[ -z "$(ls "$tmp/node-scratch")" ] || fail "a task left its scratch directory: $(ls "$tmp/node-scratch")"

# --- the remote store ------------------------------------------------------
sum() { grep -o "\"$1\": *[0-9]*" "$report" | awk -F: '{ s += $2 } END { print s + 0 }'; }
inserted=$(sum admitted) confirmed=$(sum confirmed) conflicts=$(sum conflicts)
[ "$inserted" -ge 6 ] || fail "only $inserted records admitted"
git clone -q "$tmp/remote.git" "$tmp/check"
records=$(find "$tmp/check/records" -name '*.json' ! -name index.json | wc -l)
[ "$records" -eq $((seed_records + inserted)) ] ||
  fail "the remote holds $records records, want $seed_records seeded + $inserted admitted"
commits=$(git -C "$tmp/check" rev-list --count HEAD)
# One commit per trace that admitted anything: its batch.
batches=$(grep -c '"admitted": *[1-9]\|"confirmed": *[1-9]\|"conflicts": *[1-9]' "$report" || true)
[ "$commits" -eq $((1 + batches)) ] ||
  fail "$commits commits, want 1 (seed) + one per trace that admitted ($batches; $inserted inserts, $confirmed confirms, $conflicts conflicts)"
# index.json alone lists exactly the records (their paths), each once: no
# journal is ever committed (docs/admission.md).
[ ! -e "$tmp/check/records/index.journal" ] || fail "the remote holds an index journal"
index_paths=$(grep -o '"path": *"[^"]*"' "$tmp/check/records/index.json" | sed 's/.*"\([^"]*\)"$/\1/' | sort -u)
file_paths=$(cd "$tmp/check" && find records -name '*.json' ! -name index.json | sort)
[ "$index_paths" = "$file_paths" ] || fail "the index does not list exactly the records: $(diff <(echo "$index_paths") <(echo "$file_paths") | head -5)"
"$bin/otm-validate" --store-gates "$tmp/check" >"$tmp/gates.txt" 2>&1 || { cat "$tmp/gates.txt"; fail "store gates"; }
checker=${OTM_REAL_STORE:-$src/../shared/gpu-wiki}/tools/check_kernel_wiki.py
if [ -f "$checker" ] && python3 -c 'import jsonschema' 2>/dev/null; then
  python3 "$checker" --out "$tmp/check" --full >"$tmp/checker.txt" 2>&1 || { cat "$tmp/checker.txt"; fail "the store's own checker"; }
elif [ "${OTM_REQUIRE_REAL_STORE:-}" = 1 ]; then
  fail "the store's own checker cannot run ($checker, python3-jsonschema)"
else
  say "note: the store's own checker not run: $checker or python3-jsonschema missing"
fi

ms() { echo $((($2 - $1) / 1000000)); }
say "ok: $inserted records admitted ($confirmed confirmed, $conflicts conflicts) by 6 array tasks into the remote," \
  "$commits commits; traces and Slurm up in $(ms "$started" "$up") ms, the seed store in $(ms "$up" "$ready") ms," \
  "the array and its table in $(ms "$ready" "$done_at") ms, total $(ms "$started" "$(date +%s%N)") ms"
