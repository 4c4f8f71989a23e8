#!/usr/bin/env bash
# The endgame database's batch-array build on a real single-node Slurm
# (docs/tablebase.md, "A Slurm array"): a private munged, slurmctld and
# slurmd (one node named after `hostname -s`, 2 CPUs, loopback only, no
# cgroups, every file in a temporary directory) are started here; a 3-task
# job array (`sbatch --array=0-2 --wait`) builds one layer of bohnenspiel,
# task i running `engine tb build --layer N --shard i/3`; `engine tb join`
# assembles it; the joined layer must equal the one-process build byte for
# byte and hold the Bellman identity (`engine tb verify --bellman`). The
# daemons are stopped and the directory removed on every exit, failure
# included. Needs the packages tests/setup.d/slurm.sh installs and
# root (slurmd starts jobs as their user). Bounded: 5 minutes in all; 15 s
# wall on this 2-core machine at load 2, 30 s at load 18.
#
# TB_SLURM_LAYER picks the layer (default 12, 1 352 078 boards).
set -euo pipefail
cd "$(dirname "$0")/../.."

layer=${TB_SLURM_LAYER:-12}
trap 'echo "slurm suite: failed at line $LINENO: $BASH_COMMAND" >&2' ERR

for tool in munged slurmctld slurmd sbatch scontrol sinfo; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "slurm suite: $tool is not on PATH; run tests/setup first (tests/setup.d/slurm.sh)" >&2
    exit 1
  fi
done
if [ "$(id -u)" -ne 0 ]; then
  echo "slurm suite: needs root (slurmd runs the array's tasks as the submitting user)" >&2
  exit 1
fi

cargo build -q -p engine
engine=$PWD/target/debug/engine
# The bound starts after the build (a cold build is not the suite's time).
deadline=$((SECONDS + 300))

work=$(mktemp -d /tmp/slurm-suite.XXXXXX)
# why 755: munged wants every directory above its socket searchable by all
# (any user's job may ask it for a credential).
chmod 755 "$work"
started=()

# why kill by pid file: only the daemons this script started are stopped,
# never a Slurm or munge the machine runs for itself.
cleanup() {
  local status=$?
  if [ "$status" -ne 0 ]; then
    for log in "$work"/*.log "$work"/out/*.txt; do
      [ -e "$log" ] || continue
      echo "--- ${log#"$work"/} (last 30 lines)" >&2
      tail -n 30 "$log" >&2
    done
  fi
  if [ -e "$work/slurm.conf" ]; then
    SLURM_CONF=$work/slurm.conf scancel --quiet --full --user=root 2>/dev/null || true
  fi
  for pidfile in "${started[@]}"; do
    [ -s "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Waits until the command succeeds, failing at the suite's deadline.
wait_for() {
  local what=$1
  shift
  until "$@" >/dev/null 2>&1; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "slurm suite: timed out waiting for $what" >&2
      exit 1
    fi
    sleep 0.5
  done
}

# munge: a key and a socket of our own.
mkdir -m 700 "$work/key"
mkdir -m 755 "$work/munge"
head -c 1024 /dev/urandom >"$work/key/munge.key"
chmod 400 "$work/key/munge.key"
started+=("$work/munge/munged.pid")
munged --key-file="$work/key/munge.key" --socket="$work/munge/munge.socket" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/munged.log" \
  --seed-file="$work/munge/munged.seed"
wait_for munged test -S "$work/munge/munge.socket"

# Slurm: free ports on loopback, state and spool in the directory.
node=$(hostname -s)
# Two CPUs, or one on a one-core machine (slurmd drains a node that has
# fewer than its configuration says).
cpus=$(nproc)
[ "$cpus" -le 2 ] || cpus=2
port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
ctld_port=$(port)
slurmd_port=$(port)
mkdir -p "$work/state" "$work/spool" "$work/out"
cat >"$work/slurm.conf" <<EOF
ClusterName=tbtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/munge.socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups (often unavailable in containers): processes are tracked by
# their parent pid, tasks are not bound.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
PlugStackConfig=$work/plugstack.conf
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=tb Nodes=$node Default=YES MaxTime=10 State=UP
EOF
: >"$work/plugstack.conf"
export SLURM_CONF=$work/slurm.conf
started+=("$work/slurmctld.pid" "$work/slurmd.pid")
slurmctld -f "$SLURM_CONF"
wait_for slurmctld scontrol ping
slurmd -f "$SLURM_CONF" -N "$node"
idle() { [ "$(sinfo -h -n "$node" -o %t)" = idle ]; }
wait_for "node $node to be idle" idle

# The layers below, once; the one-process build of the layer from them.
below=$((layer - 1))
"$engine" tb build --game bohnenspiel --max-beans "$below" --out "$work/array" >/dev/null
cp -r "$work/array" "$work/single"
"$engine" tb build --game bohnenspiel --max-beans "$layer" --out "$work/single" >/dev/null

# The array: three tasks, each one shard; --wait returns the worst exit code.
left=$((deadline - SECONDS))
timeout "$left" sbatch --wait --array=0-2 --job-name=tb-shard --time=5 \
  --output="$work/out/shard-%a.txt" \
  --wrap="echo task \$SLURM_ARRAY_TASK_ID of job \$SLURM_ARRAY_JOB_ID on \$SLURMD_NODENAME; exec $engine tb build --game bohnenspiel --layer $layer --shard \$SLURM_ARRAY_TASK_ID/3 --out $work/array" || {
  status=$?
  echo "slurm suite: the array failed (sbatch --wait exited $status); the tasks' output:" >&2
  cat "$work"/out/shard-*.txt >&2 || true
  exit 1
}
for i in 0 1 2; do
  grep -q "^task $i of job [0-9]* on $node\$" "$work/out/shard-$i.txt" || {
    echo "slurm suite: array task $i did not run on $node:" >&2
    cat "$work/out/shard-$i.txt" >&2
    exit 1
  }
  test -s "$work/array/bohnenspiel-$layer.shard-$i-of-3" || {
    echo "slurm suite: array task $i wrote no shard file" >&2
    exit 1
  }
done

"$engine" tb join --game bohnenspiel --layer "$layer" --shards 3 --out "$work/array" >/dev/null
cmp "$work/array/bohnenspiel-$layer.tb" "$work/single/bohnenspiel-$layer.tb"
# The Bellman identity on 20,000 random boards of every layer of the array's
# database (the layers below were built in one process, the top one by the
# array): each value against the rules library's moves and the layers below.
"$engine" tb verify --tb "$work/array" --bellman 20000 | tail -n 2
echo "slurm suite: layer $layer built by a 3-task Slurm array equals the one-process build ($(stat -c %s "$work/single/bohnenspiel-$layer.tb") bytes)"
