#!/usr/bin/env bash
# One CLI test case: runs a command, checks its exit code and what it left on disk.
# Usage: case.sh [checks...] CODE command args...
#   --fresh PATH      remove PATH before running (each case owns its output paths)
#   --absent PATH     PATH must not exist afterwards (nothing was created)
#   --exists PATH     PATH must exist afterwards
#   --unchanged DIR   DIR must hold exactly the same files (names, sizes, times) afterwards
#   --no-tmp DIR      DIR must hold no temporary files (.NAME.tmp-XXXXXX) afterwards
# The command's stdout and stderr are shown so that ctest's regular expressions can read them.
set -u
fresh=() absent=() exists=() unchanged=() notmp=()
while [ $# -gt 0 ]; do
  case "$1" in
    --fresh) fresh+=("$2"); shift 2 ;;
    --absent) absent+=("$2"); shift 2 ;;
    --exists) exists+=("$2"); shift 2 ;;
    --unchanged) unchanged+=("$2"); shift 2 ;;
    --no-tmp) notmp+=("$2"); shift 2 ;;
    *) break ;;
  esac
done
expected=$1
shift
snapshot() { (cd "$1" 2>/dev/null && find . -printf '%p %s %T@\n' | sort); }
for p in "${fresh[@]+"${fresh[@]}"}"; do rm -rf "$p"; done
before=()
for d in "${unchanged[@]+"${unchanged[@]}"}"; do before+=("$(snapshot "$d")"); done
"$@" 2>&1
rc=$?
status=0
if [ "$rc" -ne "$expected" ]; then
  echo "case.sh: '$*' exited $rc, expected $expected" >&2
  status=1
fi
for p in "${absent[@]+"${absent[@]}"}"; do
  if [ -e "$p" ]; then echo "case.sh: '$p' exists but must not" >&2; status=1; fi
done
for p in "${exists[@]+"${exists[@]}"}"; do
  if [ ! -e "$p" ]; then echo "case.sh: '$p' does not exist" >&2; status=1; fi
done
i=0
for d in "${unchanged[@]+"${unchanged[@]}"}"; do
  if [ "$(snapshot "$d")" != "${before[$i]}" ]; then
    echo "case.sh: the contents of '$d' changed" >&2
    status=1
  fi
  i=$((i + 1))
done
for d in "${notmp[@]+"${notmp[@]}"}"; do
  if [ -n "$(find "$d" -name '.*.tmp-*' 2>/dev/null)" ]; then
    echo "case.sh: temporary files left in '$d'" >&2
    status=1
  fi
done
exit $status
