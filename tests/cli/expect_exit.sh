#!/usr/bin/env bash
# Usage: expect_exit.sh CODE command args...  -- passes iff the command exits with CODE.
# The command's output is shown so that ctest's regular expressions can also read it.
expected=$1
shift
"$@"
rc=$?
if [ "$rc" -ne "$expected" ]; then
  echo "expect_exit: '$*' exited $rc, expected $expected" >&2
  exit 1
fi
