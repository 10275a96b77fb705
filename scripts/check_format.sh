#!/usr/bin/env bash
# Checks (default) or applies (--fix) the formatting of every source file of the tree: C++ and
# the .asc kernel sources with clang-format (.clang-format), Python with ruff (pyproject.toml's
# [tool.ruff]; ruff from build/venv, which ./dev makes). Left out: tests/asc_compiler/hand/*.asc,
# the <<<>>> rewriter's inputs, whose odd layout (launches split across lines, macros) is what
# those tests test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mode=(--dry-run --Werror)
py_mode=(--check --diff)
done_word=clean
if [ "${1:-}" = "--fix" ]; then
  mode=(-i)
  py_mode=()
  done_word=formatted
fi
mapfile -t files < <(git ls-files '*.h' '*.cpp' '*.cc' '*.asc' | grep -v -e '^build/' \
                       -e '^tests/asc_compiler/hand/')
clang-format "${mode[@]}" "${files[@]}"
mapfile -t py_files < <(git ls-files '*.py' | grep -v '^build/')
RUFF=${RUFF:-build/venv/bin/ruff}
[ -x "$RUFF" ] || { echo "check_format: $RUFF not found (./dev format installs it)" >&2; exit 1; }
"$RUFF" format --quiet "${py_mode[@]}" "${py_files[@]}"
echo "check_format: ${#files[@]} C++ and .asc files, ${#py_files[@]} Python files ${done_word}"
