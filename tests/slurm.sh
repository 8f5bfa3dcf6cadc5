#!/bin/sh
# tests/slurm.sh - the README's Slurm recipe, run on a real Slurm.
#
#   sh tests/slurm.sh      (SLURM_TEST_KEEP=1: keep the temporary directory)
#
# README's Slurm block is examples/slurm/array.sbatch and mpi.sbatch, which
# users copy; a recipe never submitted is a guess about Slurm (which
# variables a task sees, what a requeue does to a running count), so this
# submits them.  As root (slurmd starts a job as its submitter, which takes
# root) it installs Debian's slurm-wlm and munge when they are missing,
# their packages' own daemons kept from starting, makes a one-node cluster
# in a temporary directory (its own munge key and socket, a slurm.conf for
# this host with at most 2 CPUs, no cgroups, no accounting), and starts
# munged, slurmctld and slurmd.  array.sbatch counts N = 17 in 4 tasks of
# one CPU, with the subunits engine: seconds a task, long enough to requeue
# task 2 (scontrol requeue) once its journal holds some but not all of its
# units.  Slurm must then count one restart, the task's log (appended to)
# must hold the SIGTERM that stopped it, and its journal two sessions, the
# second recording only the units the first had not.  Every task must end
# COMPLETED, and nqueens merge --verify on the four journals must print
# OEIS's counts; mpi.sbatch must count the same with nqueens-mpi (make mpi)
# under mpirun in the job.  Every daemon started is stopped by its PID,
# also when a step fails, and the directory removed.  One line per check,
# "ok   slurm/NAME", "FAIL slurm/NAME" or "skip slurm/NAME (why)", then
# "N passed, N failed, N skipped"; exit 1 on a failure.  Where Slurm
# cannot be installed or started (not root, no apt-get), its checks are
# skipped, never passed.
set -u
cd "$(dirname "$0")/.." || exit 1

# The counts, and OEIS's answers (A000170 total, A002562 unique): the
# array's N = 17 in 4 tasks; nqueens-mpi's N = 19, which takes it seconds.
N=17 PARTS=4 TOTAL=95815104 UNIQUE=11977939
MPI_N=19 MPI_TOTAL=4968057848 MPI_UNIQUE=621012754
TIMEOUT=${SLURM_TEST_TIMEOUT:-240} # seconds for each job to finish

passed=0
failed=0
skipped=0
pass() {
    echo "ok   slurm/$1"
    passed=$((passed + 1))
}
# fail NAME WHY [FILE]: the reason, and the file's last lines.
fail() {
    echo "FAIL slurm/$1"
    echo "     $2"
    [ $# -gt 2 ] && [ -s "$3" ] && tail -n 15 "$3" | sed 's/^/     | /'
    failed=$((failed + 1))
}
skip() { # NAME WHY
    echo "skip slurm/$1 ($2)"
    skipped=$((skipped + 1))
}
summary() {
    echo "$passed passed, $failed failed, $skipped skipped"
    [ "$failed" -eq 0 ]
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/nq-slurm.XXXXXX") || exit 1
pids=        # the daemons this script started and has not stopped
started=     # every daemon it started
killed=      # those that SIGTERM did not stop in 10 seconds
policy=      # /usr/sbin/policy-rc.d, when this script wrote it
# stop: every job cancelled (its slurmstepd would outlive slurmd), then
# the daemons, last started first, each waited for.
stop() {
    [ -n "$pids" ] || return 0
    scancel --quiet --full "--user=$(id -un)" 2>/dev/null
    i=0
    while [ $i -lt 40 ] && [ -n "$(squeue -h 2>/dev/null)" ]; do
        sleep 0.5
        i=$((i + 1))
    done
    for pid in $pids; do
        kill "$pid" 2>/dev/null
    done
    for pid in $pids; do
        i=0
        while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do
            sleep 0.2
            i=$((i + 1))
        done
        if kill -0 "$pid" 2>/dev/null; then
            killed="$killed $pid"
            kill -9 "$pid" 2>/dev/null
        fi
    done
    pids=
}
cleanup() {
    stop
    [ -n "$policy" ] && rm -f "$policy"
    if [ -n "${SLURM_TEST_KEEP:-}" ]; then
        echo "kept: $tmp (the logs, journals and slurm.conf)"
    else
        rm -rf "$tmp"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# skip_all WHY: Slurm is not to be had here; every case from the first
# not yet run says so.
cases="start array-directives array-requeued-mid-run array-completed
array-resumed array-merge-verify limit-completed limit-requeued-itself
limit-part-whole mpi-directives mpi-requeued-mid-run mpi-completed
mpi-resumed mpi-merge-verify daemons-stopped"
skip_all() {
    for c in $cases; do
        skip "$c" "$1"
    done
    summary
    exit
}

# Root only: slurmd starts a job as its submitter, which takes root, and
# so do the packages.
[ "$(id -u)" = 0 ] ||
    skip_all "not root: slurmd runs jobs only as root; nothing installed"

# Debian's packages, with their init scripts kept from starting the
# daemons (invoke-rc.d obeys policy-rc.d; exit 101: action forbidden):
# this script starts its own, with its own configuration.
need() { command -v "$1" >/dev/null 2>&1; }
if ! need slurmctld || ! need slurmd || ! need sbatch || ! need munged ||
   ! need mungekey; then
    need apt-get || skip_all "Slurm is not installed and there is no apt-get"
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        policy=/usr/sbin/policy-rc.d
        printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy"
    fi
    echo "installing slurm-wlm munge"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge \
        >"$tmp/apt.log" 2>&1 || {
        tail -n 15 "$tmp/apt.log"
        skip_all "apt-get install slurm-wlm munge failed"
    }
    [ -n "$policy" ] && rm -f "$policy"
    policy=
fi

if ! make -s -j2 >"$tmp/make.log" 2>&1; then
    fail build "make failed" "$tmp/make.log"
    summary
    exit 1
fi

# The cluster: one node, this host, its own ports (from this process's
# number, so that two runs on one machine do not meet) and munge socket.
host=$(hostname -s)
cpus=$(nproc)
[ "$cpus" -gt 2 ] && cpus=2
port=$((20000 + ($$ % 20000) * 2))
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/work" "$tmp/mpi"
# munged wants its socket's directories searchable by all.
chmod 755 "$tmp" "$tmp/munge"
SLURM_CONF=$tmp/slurm.conf
export SLURM_CONF
# cred_expire: how long a requeued job waits before it may start again
# (120 seconds by default); then the scheduler's next pass starts it
# (every 60 seconds by default, backfill's every 30).
cat >"$SLURM_CONF" <<EOF
ClusterName=nqtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/socket,cred_expire=10
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
KillWait=10
SchedulerParameters=sched_interval=1,bf_interval=1
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=nqtest Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

# stop_checked: the daemons stopped, each by SIGTERM; none is left.
stop_checked() {
    stop
    sleep 0.2
    left=
    for pid in $started; do
        kill -0 "$pid" 2>/dev/null && left="$left $pid"
    done
    if [ -z "$left$killed" ]; then
        pass daemons-stopped
    else
        fail daemons-stopped "still running:${left:- none}; SIGKILL \
needed:${killed:- none}"
    fi
}

# start NAME COMMAND...: a daemon in the foreground, in the background.
start() {
    name=$1
    shift
    "$@" >"$tmp/$name.out" 2>&1 &
    pids="$! $pids"
    started="$! $started"
}
mungekey --create --keyfile="$tmp/munge/key" >"$tmp/mungekey.out" 2>&1
start munged munged --foreground --key-file="$tmp/munge/key" \
    --socket="$tmp/munge/socket" --pid-file="$tmp/munge/pid" \
    --log-file="$tmp/munge/log" --seed-file="$tmp/munge/seed"
i=0
while [ ! -S "$tmp/munge/socket" ] && [ $i -lt 50 ]; do
    sleep 0.1
    i=$((i + 1))
done
start slurmctld slurmctld -D -i
start slurmd slurmd -D
# Up when the node is idle.
i=0
while [ "$(sinfo -h -n "$host" -o %T 2>/dev/null)" != idle ] && [ $i -lt 60 ]; do
    sleep 0.5
    i=$((i + 1))
done
if [ "$(sinfo -h -n "$host" -o %T 2>/dev/null)" != idle ]; then
    for d in munged slurmctld slurmd; do
        [ -s "$tmp/$d.out" ] && tail -n 5 "$tmp/$d.out" | sed "s/^/     $d| /"
    done
    fail start "the node did not come up idle in 30 s: $(sinfo -h 2>&1)"
    stop_checked
    # shellcheck disable=SC2086 # the names, one line
    cases=$(echo $cases | sed 's/^start //; s/ daemons-stopped$//')
    skip_all "Slurm did not start"
fi
pass start

# job_field JOB FIELD: FIELD=value of a job (an array task: JOBID_K),
# from scontrol's one-line record.
job_field() {
    scontrol -o show job "$1" 2>/dev/null |
        tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1
}

# directives NAME JOB JOBNAME: the file's own #SBATCH lines (those the
# submission here does not override) took: its name, its time limit of
# 48 hours, requeueing allowed (the log appended to: check_resumed).
directives() {
    got="$(job_field "$2" JobName) $(job_field "$2" TimeLimit) \
$(job_field "$2" Requeue)"
    if [ "$got" = "$3 2-00:00:00 1" ]; then
        pass "$1"
    else
        fail "$1" "the job's name, time limit and Requeue: $got"
    fi
}

# wait_done JOB LOG: until no task of JOB is pending or running, or
# TIMEOUT; on timeout the queue and the job are shown.
wait_done() {
    i=0
    while [ -n "$(squeue -h -j "$1" 2>/dev/null)" ]; do
        if [ $i -ge $((TIMEOUT * 2)) ]; then
            echo "     timed out after $TIMEOUT s; the queue and the job:"
            squeue -j "$1" 2>&1 | sed 's/^/     | /'
            scontrol show job "$1" 2>&1 | sed 's/^/     | /'
            return 1
        fi
        sleep 0.5
        i=$((i + 1))
    done
}

# units FILE: the unit records of a journal; sessions FILE: the units
# each session recorded, one number a line, from its run lines.
units() { grep -c '^unit ' "$1" 2>/dev/null; }
sessions() { sed -n 's/^run .* units=\([0-9]*\) .*/\1/p' "$1"; }

# counts_right LOG N TOTAL UNIQUE: the log holds the count's row, OEIS's.
counts_right() {
    awk -v n="$2:" -v t="$3" -v u="$4" \
        '$1 == n && $2 == t && $3 == u { ok = 1 } END { exit !ok }' "$1"
}

# requeue_mid_run NAME JOB JOURNAL K M: once JOURNAL, part K/M of its
# count, holds some but not all of the part's units, scontrol requeue
# JOB; share: the part's units.  NAME-requeued-mid-run fails if not.
requeue_mid_run() {
    i=0
    got=0
    share=
    while [ $i -lt $((TIMEOUT * 20)) ]; do
        if [ -z "$share" ] && [ -s "$3" ]; then
            all=$(sed -n '1s/.* units=\([0-9]*\) .*/\1/p' "$3")
            [ -n "$all" ] && share=$(((all - $4 + $5) / $5))
        fi
        got=$(units "$3")
        [ -n "$share" ] && [ "${got:-0}" -gt 0 ] && [ "$got" -lt "$share" ] &&
            break
        [ "$(job_field "$2" JobState)" = COMPLETED ] && break
        sleep 0.05
        i=$((i + 1))
    done
    if [ -z "$share" ] || [ "${got:-0}" -eq 0 ] || [ "$got" -ge "$share" ]
    then
        fail "$1-requeued-mid-run" "$3 never held some but not all of its \
units (${got:-0} of ${share:-?}) to requeue $2 at"
        return 1
    elif ! scontrol requeue "$2" 2>"$tmp/requeue.err"; then
        fail "$1-requeued-mid-run" "scontrol requeue $2 failed" \
            "$tmp/requeue.err"
        return 1
    fi
    echo "     requeued $2 with $got of its $share units recorded"
}

# check_resumed NAME JOB JOURNAL LOG [WORDS], after requeue_mid_run and
# the job's end.  Requeued mid-run: Slurm counted one restart and said
# why in the log (appended to, so it holds both runs), and the journal has
# two sessions, the first ended in order (its run line) with some but not
# all of the units; WORDS, with its unit counts, in the log too.  Resumed:
# the second session recorded only the rest, each unit once (a fresh
# start would have recounted the first session's units).
check_resumed() {
    restarts=$(job_field "$2" Restarts)
    first=$(sessions "$3" | sed -n 1p)
    second=$(sessions "$3" | sed -n 2p)
    records=$(units "$3")
    distinct=$(awk '/^unit /{print $2}' "$3" | sort -u | wc -l)
    echo "     $2: Restarts=$restarts; sessions of ${first:-?} and \
${second:-?} units, $records records of $distinct units, of $share"
    if [ "$restarts" = 1 ] && [ "$(sessions "$3" | wc -l)" -eq 2 ] &&
       [ "${first:-0}" -gt 0 ] && [ "$first" -lt "$share" ] &&
       grep -q "CANCELLED AT .* DUE TO JOB REQUEUE" "$4" &&
       { [ $# -lt 5 ] || grep -q "$5 with $first of $share units" "$4"; }
    then
        pass "$1-requeued-mid-run"
    else
        fail "$1-requeued-mid-run" "$2 was not stopped mid-run once" "$4"
    fi
    if [ "${second:-0}" -gt 0 ] && [ $((${first:-0} + ${second:-0})) -eq "$share" ] &&
       [ "$records" -eq "$share" ] && [ "$distinct" -eq "$share" ]; then
        pass "$1-resumed"
    else
        fail "$1-resumed" "$2's second session did not finish the first's \
journal" "$4"
    fi
}

# --- the job array ---
work=$tmp/work
job=$(sbatch --parsable --array=1-$PARTS --cpus-per-task=1 \
    --chdir="$work" --output="$work/task-%a.out" \
    --export="ALL,N=$N,PARTS=$PARTS,ENGINE=subunits,NQUEENS=$PWD/build/nqueens" \
    examples/slurm/array.sbatch 2>"$tmp/sbatch.err")
if [ -z "$job" ]; then
    fail array-submitted "sbatch refused the script" "$tmp/sbatch.err"
    summary
    exit 1
fi
echo "     job array $job: N=$N in $PARTS tasks"
directives array-directives "${job}_1" nqueens

requeued=
requeue_mid_run array "${job}_2" "$work/n$N.part2" 2 $PARTS && requeued=yes

if wait_done "$job"; then
    states=
    for k in $(seq 1 $PARTS); do
        states="$states $(job_field "${job}_$k" JobState)/$(job_field "${job}_$k" ExitCode)"
    done
    if [ "$states" = "$(printf ' COMPLETED/0:0%.0s' $(seq 1 $PARTS))" ]; then
        pass array-completed
    else
        fail array-completed "the tasks ended:$states" "$work/task-2.out"
    fi
else
    fail array-completed "not every task finished in $TIMEOUT s"
fi

if [ -n "$requeued" ]; then
    check_resumed array "${job}_2" "$work/n$N.part2" "$work/task-2.out" \
        "stopped by SIGTERM"
else
    skip array-resumed "task 2 was not requeued"
fi

# merge_verify NAME N TOTAL UNIQUE JOURNAL...: merge --verify prints
# OEIS's counts.
merge_verify() {
    name=$1 n=$2 total=$3 unique=$4
    shift 4
    if build/nqueens merge --verify "$@" >"$tmp/merge.out" 2>&1 &&
       counts_right "$tmp/merge.out" "$n" "$total" "$unique"; then
        pass "$name"
    else
        fail "$name" "merge --verify did not print $n: $total $unique" \
            "$tmp/merge.out"
    fi
}
merge_verify array-merge-verify $N $TOTAL $UNIQUE "$work"/n$N.part*

# --- a task limited to less time than the count's largest unit ---
# N=22's largest unit is estimated at 9 s; array.sbatch with RUN_SECONDS=8
# stands in for a 48-hour --time (Slurm's own limit is a minute at least,
# enforced to some 30 s): the task stops itself and requeues until its
# part is done.  Cut into pieces of 2 s at most (MAX_UNIT_SECONDS), each
# run records some; whole, that unit would start from nothing each time.
# The part is the one holding a piece of that unit.
LIMIT_N=22 LIMIT_PARTS=256
limit=$tmp/limit
mkdir -p "$limit"
build/nqueens units $LIMIT_N --max-unit-seconds 0 >"$limit/whole.txt"
build/nqueens units $LIMIT_N --max-unit-seconds 2 >"$limit/cut.txt"
big=$(awk -F'\t' '!/^#/ && $3 + 0 > most { most = $3 + 0; q = $2 }
    END { sub(/ \|.*/, "", q); print q }' "$limit/whole.txt")
piece=$(awk -F'\t' -v q="$big " 'index($2, q) == 1 { print $1; exit }' \
    "$limit/cut.txt")
k=$((${piece:-0} % LIMIT_PARTS + 1))
share=$(awk -F'\t' -v m=$LIMIT_PARTS -v k=$k \
    '!/^#/ && $1 % m == k - 1 { n++ } END { print n + 0 }' "$limit/cut.txt")
echo "     largest unit of N=$LIMIT_N: $big; its piece $piece in part \
$k/$LIMIT_PARTS ($share units)"
job=$(sbatch --parsable --array=$k --cpus-per-task=1 --chdir="$limit" \
    --output="$limit/task.out" --export="ALL,N=$LIMIT_N,PARTS=$LIMIT_PARTS,\
ENGINE=fast,MAX_UNIT_SECONDS=2,RUN_SECONDS=8,NQUEENS=$PWD/build/nqueens" \
    examples/slurm/array.sbatch 2>"$tmp/sbatch.err")
journal=$limit/n$LIMIT_N.part$k
if [ -z "$job" ] || [ -z "$piece" ]; then
    fail limit-completed "no part to submit, or sbatch refused the script" \
        "$tmp/sbatch.err"
elif ! wait_done "$job"; then
    fail limit-completed "the task did not finish in $TIMEOUT s" \
        "$limit/task.out"
else
    state=$(job_field "${job}_$k" JobState)/$(job_field "${job}_$k" ExitCode)
    if [ "$state" = COMPLETED/0:0 ] && grep -q "done: $share of its" \
        "$limit/task.out"; then
        pass limit-completed
    else
        fail limit-completed "the task ended $state" "$limit/task.out"
    fi
fi
restarts=$(job_field "${job}_$k" Restarts)
runs=$(sessions "$journal" | wc -l)
empty=$(sessions "$journal" | grep -c '^0$')
echo "     ${job}_$k: Restarts=${restarts:-?}; $runs sessions: \
$(sessions "$journal" | tr '\n' ' ')"
if [ "${restarts:-0}" -ge 2 ] && [ "$runs" -ge 3 ] && [ "$empty" -eq 0 ]; then
    pass limit-requeued-itself
else
    fail limit-requeued-itself "the task did not stop and requeue itself \
at each limit, recording some pieces every time" "$limit/task.out"
fi
records=$(units "$journal")
distinct=$(awk '/^unit /{print $2}' "$journal" 2>/dev/null | sort -u | wc -l)
if [ "${records:-0}" -eq "$share" ] && [ "$distinct" -eq "$share" ] &&
   head -n 1 "$journal" | grep -q ' plan=fast-ring/1,max=2000000us '; then
    pass limit-part-whole
else
    fail limit-part-whole "$journal: ${records:-0} records of $distinct \
units, of $share, or not cut at 2 s" "$journal"
fi

# --- nqueens-mpi under mpirun, in an allocation of the one node ---
mpi=$tmp/mpi
if ! need mpirun || ! need mpicc; then
    for c in directives requeued-mid-run completed resumed merge-verify; do
        skip "mpi-$c" "no OpenMPI (mpirun, mpicc)"
    done
elif ! make -s -j2 mpi >"$tmp/make-mpi.log" 2>&1; then
    fail mpi-completed "make mpi failed" "$tmp/make-mpi.log"
else
    # OpenMPI refuses root unless told.
    root=
    [ "$(id -u)" = 0 ] &&
        root=",OMPI_ALLOW_RUN_AS_ROOT=1,OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"
    job=$(sbatch --parsable --nodes=1 --chdir="$mpi" --output="$mpi/job.out" \
        --export="ALL,N=$MPI_N,NQUEENS_MPI=$PWD/build/nqueens-mpi$root" \
        examples/slurm/mpi.sbatch 2>"$tmp/sbatch.err")
    if [ -z "$job" ]; then
        fail mpi-completed "sbatch refused the script" "$tmp/sbatch.err"
    else
        echo "     job $job: N=$MPI_N by nqueens-mpi"
        directives mpi-directives "$job" nqueens-mpi
        requeued=
        requeue_mid_run mpi "$job" "$mpi/n$MPI_N.journal" 1 1 && requeued=yes
        if ! wait_done "$job"; then
            fail mpi-completed "the job did not finish in $TIMEOUT s" \
                "$mpi/job.out"
        else
            state=$(job_field "$job" JobState)/$(job_field "$job" ExitCode)
            if [ "$state" = COMPLETED/0:0 ] &&
               counts_right "$mpi/job.out" $MPI_N $MPI_TOTAL $MPI_UNIQUE
            then
                pass mpi-completed
            else
                fail mpi-completed "the job ended $state; its log:" \
                    "$mpi/job.out"
            fi
        fi
        # Rank 0's "stopped by SIGTERM" is not in the log: mpirun, which
        # forwards the ranks' output, is stopped by the same SIGTERM.
        if [ -n "$requeued" ]; then
            check_resumed mpi "$job" "$mpi/n$MPI_N.journal" "$mpi/job.out"
        else
            skip mpi-resumed "the job was not requeued"
        fi
    fi
    merge_verify mpi-merge-verify $MPI_N $MPI_TOTAL $MPI_UNIQUE \
        "$mpi/n$MPI_N.journal"
fi

stop_checked
summary
