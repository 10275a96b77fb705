#!/usr/bin/env bash
# The rules that keep output directories whole (docs/cli.md, "Output files"), each case checked
# with real processes. Usage: output_dirs.sh LNGRAD WORKDIR CASE
# Prints "output_dirs CASE: ok" on success; any failure prints "output_dirs: ..." and exits 1.
set -u
lngrad=$1 work=$2 case=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

fail() {
  echo "output_dirs: $case: $*" >&2
  exit 1
}
# Runs lngrad, keeps its exit code in $rc and its stderr in $work/err.
lng() {
  "$lngrad" "$@" >"$work/out.txt" 2>"$work/err"
  rc=$?
  cat "$work/out.txt" "$work/err"
}
expect_rc() { [ "$rc" -eq "$1" ] || fail "exit $rc, expected $1"; }
expect_err() { grep -qE -- "$1" "$work/err" || fail "stderr lacks /$1/: $(cat "$work/err")"; }
snapshot() { (cd "$1" && find . -mindepth 1 -printf '%p %s %T@\n' | sort | md5sum); }
no_tmp() {
  [ -z "$(find "$@" -name '.*.tmp-*' 2>/dev/null)" ] || fail "temporaries left in $*"
}
gen() { "$lngrad" gen "$@" >/dev/null || fail "gen $* failed"; }
# Waits until process $1 has stopped itself (LNGRAD_TEST_STOP_AT); fails when it ends instead.
wait_stopped() {
  local pid=$1 state=
  for _ in $(seq 1 1200); do
    state=$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)
    case "$state" in T | t) return 0 ;; Z | "") break ;; esac
    sleep 0.05
  done
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  fail "process $pid did not stop at LNGRAD_TEST_STOP_AT=$stop_at (state '$state')"
}
# STEP COMMAND...: runs lngrad COMMAND until it stops itself at STEP, then kills it (SIGKILL).
kill_at() {
  stop_at=$1
  shift
  LNGRAD_TEST_STOP_AT=$stop_at "$lngrad" "$@" >/dev/null 2>&1 &
  local pid=$!
  wait_stopped "$pid"
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null
}

case "$case" in
  run_into_its_input_dir)
    # The directory stays gen's data set and gains run's outputs.
    gen --shape 2,4,16 --seed 5 --out d
    cp d/dy.npy dy_before.npy
    lng run --in d --out d --impl native
    expect_rc 0
    lng verify d d
    expect_rc 0
    grep -q "PASS (4 of 4 compared)" out.txt || fail "verify d d: $(cat out.txt)"
    grep -q '"producer": "lngrad gen' d/manifest.json || fail "gen's manifest members are gone"
    grep -q '"run": {' d/manifest.json || fail "run's members are not under \"run\""
    # Again, on the same directory (the second run replaces the first's outputs).
    lng run --in d --out d --impl ascendc
    expect_rc 0
    lng verify d d
    expect_rc 0
    cmp -s d/dy.npy dy_before.npy || fail "the input dy changed"
    # Inputs found by name (no manifest yet): the manifest that run adds lists them too.
    mkdir p
    cp d/dy.npy d/x.npy d/mean.npy d/variance.npy d/gamma.npy p/
    lng run --in p --eps 1e-4 --impl native --out p
    expect_rc 0
    lng run --in p --impl native --out p
    expect_rc 0
    cmp -s p/dy.npy dy_before.npy || fail "the input p/dy.npy changed"
    ;;
  run_refuses_another_data_set)
    gen --shape 2,4,16 --seed 1 --out a
    gen --shape 2,4,16 --seed 2 --out b
    before=$(snapshot b)
    lng run --in a --out b --impl native
    expect_rc 2
    expect_err "run: error: --out 'b' holds another data set \(its manifest.json lists dy, x, .*golden_dbeta, which run did not read\)"
    [ "$(snapshot b)" = "$before" ] || fail "b changed"
    ;;
  gen_refuses_run_outputs)
    gen --shape 2,4,16 --out d
    "$lngrad" run --in d --out d --impl native >/dev/null || fail "run failed"
    before=$(snapshot d)
    lng gen --shape 2,4,16 --seed 9 --out d
    expect_rc 2
    expect_err "gen: error: --out 'd' holds files that gen does not write \(its manifest.json lists pd_x, res_for_gamma, dgamma, dbeta\)"
    [ "$(snapshot d)" = "$before" ] || fail "d changed"
    # A set of gen's own kind is replaced, as before.
    gen --shape 2,4,16 --seed 1 --out g
    lng gen --shape 2,4,32 --seed 2 --out g
    expect_rc 0
    grep -q '"shape": \[2, 4, 32\]' g/manifest.json || fail "gen did not replace its own set"
    ;;
  output_is_an_input)
    gen --shape 2,4,16 --out d
    cp d/dy.npy d/pd_x.npy
    ln -s d link
    ln -s pd_x.npy d/dy_link.npy
    before=$(snapshot d)
    rest=(--x d/x.npy --mean d/mean.npy --variance d/variance.npy --gamma d/gamma.npy --eps 1e-4)
    for spelling in "d/pd_x.npy|d" "./d/pd_x.npy|./d/" "link/pd_x.npy|d" "d/dy_link.npy|link/."; do
      dy=${spelling%|*} out=${spelling#*|}
      lng run --impl native --dy "$dy" "${rest[@]}" --out "$out"
      expect_rc 2
      expect_err "run: error: --out '$out' would overwrite the input dy '$dy' with the output pd_x.npy; choose another --out"
      [ "$(snapshot d)" = "$before" ] || fail "d changed ($spelling)"
    done
    # A symlink named like an output is replaced itself; what it points to is safe.
    mkdir o
    ln -s ../d/dy.npy o/pd_x.npy
    lng run --impl native --dy d/dy.npy "${rest[@]}" --out o
    expect_rc 0
    [ -L o/pd_x.npy ] && fail "o/pd_x.npy is still a symlink"
    cmp -s d/dy.npy d/pd_x.npy || fail "the input behind the symlink changed"
    ;;
  lock_waits)
    # Another process holds the directory's lock: run says so, waits, then writes.
    gen --shape 2,4,16 --out in
    mkdir held
    flock held sleep 1.5 &
    holder=$!
    sleep 0.3
    start=$EPOCHREALTIME
    lng run --in in --out held --impl native
    end=$EPOCHREALTIME
    expect_rc 0
    expect_err "run: warning: waiting for 'held': another process is writing into it \(it holds the directory's lock\)"
    awk -v s="$start" -v e="$end" 'BEGIN { exit !(e - s >= 1.0) }' ||
      fail "run finished after $start..$end, while the lock was still held"
    wait "$holder"
    [ -f held/manifest.json ] || fail "no manifest after the wait"
    ;;
  concurrent_runs)
    # Two runs on different inputs into one directory: it ends with one run's complete set.
    gen --shape 4,64,512 --seed 1 --out a
    gen --shape 4,64,512 --seed 2 --out b
    "$lngrad" run --in a --out ra --impl native >/dev/null || fail "run a"
    "$lngrad" run --in b --out rb --impl native >/dev/null || fail "run b"
    for i in $(seq 1 12); do
      rm -rf d
      "$lngrad" run --in a --out d --impl native >/dev/null 2>&1 &
      p1=$!
      "$lngrad" run --in b --out d --impl native >/dev/null 2>&1 &
      p2=$!
      wait "$p1" || fail "round $i: the first run failed"
      wait "$p2" || fail "round $i: the second run failed"
      if grep -q '"dy": "[^"]*a/dy.npy"' d/manifest.json; then ref=ra; else ref=rb; fi
      for f in pd_x res_for_gamma dgamma dbeta; do
        cmp -s "d/$f.npy" "$ref/$f.npy" || fail "round $i: a mixed set ($f.npy is not from $ref)"
      done
      no_tmp d
    done
    ;;
  signals)
    # SIGINT or SIGTERM in the middle of writing: the temporaries and the directories this
    # command created are removed, and it exits 128 + the signal. The process is stopped once
    # a temporary exists, so that the signal surely arrives mid-write.
    set -m  # background jobs keep SIGINT (without job control, sh ignores it for them)
    gen --shape 8,1024,1024 --seed 1 --out big
    interrupt() {  # SIGNAL DIR COMMAND...: starts COMMAND, signals it mid-write
      local sig=$1 dir=$2
      shift 2
      for attempt in 1 2 3 4 5; do
        "$lngrad" "$@" >/dev/null 2>"$work/err" &
        local pid=$!
        until compgen -G "$dir/.*.tmp-*" >/dev/null; do
          kill -0 "$pid" 2>/dev/null || break
        done
        kill -STOP "$pid" 2>/dev/null
        if compgen -G "$dir/.*.tmp-*" >/dev/null; then
          kill "-$sig" "$pid"
          kill -CONT "$pid"
          wait "$pid"
          rc=$?
          # With job control, wait can report the stop itself (128 + SIGSTOP) when the shell
          # saw it only now: the process goes on after the CONT, wait again for its exit.
          while [ "$rc" -eq 147 ]; do
            kill -CONT "$pid" 2>/dev/null
            wait "$pid"
            rc=$?
          done
          return
        fi
        kill -CONT "$pid" 2>/dev/null
        wait "$pid"
        rm -rf new
      done
      fail "could not catch $* mid-write"
    }
    interrupt INT new/deeper gen --shape 8,1024,1024 --seed 2 --out new/deeper
    expect_rc 130
    expect_err "gen: interrupted by SIGINT; the unfinished output was removed"
    [ -e new ] && fail "gen left 'new' behind"
    interrupt TERM new run --in big --impl native --out new
    expect_rc 143
    expect_err "run: interrupted by SIGTERM"
    [ -e new ] && fail "run left 'new' behind"
    # Into an existing directory (run into its own input directory): it is left as it was.
    before=$(snapshot big)
    interrupt INT big run --in big --impl native --out big
    expect_rc 130
    no_tmp big
    [ "$(snapshot big)" = "$before" ] || fail "big changed"
    lng verify big/golden_pd_x.npy big/golden_pd_x.npy
    expect_rc 0
    ;;
  write_failure)
    # A write that fails (here: the file size limit, which fails like a full disk) leaves no
    # temporaries and no new directory; an existing directory keeps its files.
    trap '' XFSZ  # ignored, as inherited: write() then fails with EFBIG instead of a signal
    ulimit -S -f 200
    lng gen --shape 4,64,256 --out new/sub
    expect_rc 2
    expect_err "gen: error: cannot write 'new/sub/dy.npy': File too large"
    [ -e new ] && fail "gen left 'new' behind"
    mkdir keep && echo old >keep/pd_x.npy
    before=$(snapshot keep)
    lng gen --shape 4,64,256 --out keep
    expect_rc 2
    no_tmp keep
    [ "$(snapshot keep)" = "$before" ] || fail "keep changed"
    ;;
  memory)
    # A problem larger than the memory the process can get is refused before allocating.
    lng gen --shape 65536,65536,64 --out new
    expect_rc 2
    expect_err "gen: error: --shape \[65536,65536,64\] of float32 needs about [0-9]+ GiB of memory; this process can get about [0-9.]+ GiB \("
    [ -e new ] && fail "gen created 'new'"
    # Raw inputs of that size, as sparse files: run refuses before reading them.
    mkdir raw
    truncate -s $((65536 * 65536 * 16 * 4)) raw/dy.bin raw/x.bin
    truncate -s $((65536 * 65536 * 4)) raw/mean.bin raw/variance.bin
    truncate -s $((16 * 4)) raw/gamma.bin
    lng run --in raw --shape 65536,65536,16 --dtype float --eps 1e-4 --impl native --out new
    expect_rc 2
    expect_err "run: error: run on dy 'raw/dy.bin' needs about [0-9]+ GiB of memory"
    [ -e new ] && fail "run created 'new'"
    ;;
  commit_killed)
    # run killed inside its commit, at each step: every lngrad reader sees one complete set (the
    # old one before the commit point, the new one after it), never B's pd_x beside A's dgamma,
    # nor B's data under A's manifest; the next writer leaves no temporaries and no journal.
    gen --shape 2,8,32 --seed 1 --out a
    gen --shape 2,8,32 --seed 2 --out b
    for step in commit commit-journal commit-renamed-1; do
      rm -rf d
      "$lngrad" run --in a --out d --impl native >/dev/null || fail "run a"
      kill_at "$step" run --in b --out d --impl native
      if [ "$step" = commit ]; then
        want=a
        compgen -G "d/.*.tmp-*" >/dev/null || fail "$step: no temporaries (nothing was tested)"
      else
        want=b
        [ -e d/.lngrad-commit ] || fail "$step: no journal (nothing was tested)"
      fi
      lng verify d "$want"
      expect_rc 0
      grep -q "PASS (4 of 4 compared)" out.txt || fail "$step: verify d $want: $(cat out.txt)"
      grep -q "\"dy\": \"[^\"]*$want/dy.npy\"" d/manifest.json ||
        fail "$step: the manifest does not name $want's inputs: $(cat d/manifest.json)"
      [ -e d/.lngrad-commit ] && fail "$step: verify left the journal"
      "$lngrad" run --in "$want" --out d --impl native >/dev/null || fail "$step: the next run"
      no_tmp d
    done
    # gen killed after its commit point into the directory that run then reads: run reads the
    # complete new set (its read lock completes the commit first).
    gen --shape 2,8,32 --seed 1 --out g
    kill_at commit-renamed-1 gen --shape 2,8,32 --seed 2 --out g
    lng run --in g --out r --impl native
    expect_rc 0
    lng verify r g
    expect_rc 0
    grep -q '"seed": 2' g/manifest.json || fail "g is not gen's second set"
    ;;
  stale_temporaries)
    # A writer killed by SIGXFSZ (the file size limit, default action) or SIGKILL leaves its
    # temporaries; the next writer of the directory removes them under its lock.
    gen --shape 4,64,256 --seed 1 --out d
    (
      ulimit -S -f 200
      exec "$lngrad" gen --shape 4,64,256 --seed 2 --out d
    ) >/dev/null 2>&1
    compgen -G "d/.*.tmp-*" >/dev/null || fail "SIGXFSZ left no temporaries (nothing was tested)"
    lng gen --shape 4,64,256 --seed 3 --out d
    expect_rc 0
    no_tmp d
    kill_at commit gen --shape 4,64,256 --seed 4 --out d
    compgen -G "d/.*.tmp-*" >/dev/null || fail "SIGKILL left no temporaries (nothing was tested)"
    lng gen --shape 4,64,256 --seed 5 --out d
    expect_rc 0
    no_tmp d
    ;;
  readers_lock)
    # run --in d stopped after reading dy (a delayed read): a gen into d waits for run's shared
    # lock, so run reads one set, the one it started on.
    gen --shape 2,8,32 --seed 1 --out d
    gen --shape 2,8,32 --seed 1 --out a  # the same set, kept for the check
    stop_at=inputs-read-1
    LNGRAD_TEST_STOP_AT=$stop_at "$lngrad" run --in d --out r --impl native >/dev/null 2>&1 &
    runpid=$!
    wait_stopped "$runpid"
    "$lngrad" gen --shape 2,8,32 --seed 2 --out d >/dev/null 2>gen.err &
    genpid=$!
    for _ in $(seq 1 200); do
      grep -q "waiting for 'd'" gen.err && break
      kill -0 "$genpid" 2>/dev/null || break
      sleep 0.05
    done
    kill -CONT "$runpid"
    wait "$runpid" || fail "run failed"
    wait "$genpid" || fail "gen failed"
    grep -q "gen: warning: waiting for 'd': another process is writing into it" gen.err ||
      fail "gen did not wait for run's shared lock: $(cat gen.err)"
    lng verify r a
    expect_rc 0
    grep -q '"seed": 2' d/manifest.json || fail "gen did not write after run"
    ;;
  names_switch)
    # A run replaces the outputs of the run before it, whatever their names were.
    gen --shape 2,8,32 --out in
    "$lngrad" run --in in --out d --impl native --names vendor >/dev/null || fail "run vendor"
    [ -e d/output_outputPdX.bin ] || fail "no vendor-named outputs: $(ls d)"
    "$lngrad" run --in in --out d --impl native >/dev/null || fail "run lngrad"
    [ -z "$(ls d | grep '^output_')" ] || fail "the replaced run's outputs are left: $(ls d)"
    [ -e d/pd_x.npy ] || fail "no pd_x.npy"
    "$lngrad" run --in in --out d --impl native --names vendor >/dev/null || fail "run vendor 2"
    [ "$(ls d | tr '\n' ' ')" = "manifest.json output_PdBeta.bin output_PdGamma.bin output_outputPdX.bin output_resForGamma.bin " ] ||
      fail "after vendor names again: $(ls d)"
    # Into gen's directory: the run's outputs are replaced, the inputs and goldens stay.
    "$lngrad" run --in in --out in --impl native --names vendor >/dev/null || fail "run in vendor"
    "$lngrad" run --in in --out in --impl native >/dev/null || fail "run in lngrad"
    [ -z "$(ls in | grep '^output_')" ] || fail "the replaced run's outputs are left: $(ls in)"
    lng verify in in
    expect_rc 0
    # gen likewise: --format npy after --format bin leaves no .bin file.
    gen --shape 2,8,32 --format bin --out g
    gen --shape 2,8,32 --format npy --out g
    [ -z "$(ls g | grep '\.bin$')" ] || fail "gen left the replaced set's .bin files: $(ls g)"
    ;;
  *)
    fail "unknown case"
    ;;
esac
echo "output_dirs $case: ok"
