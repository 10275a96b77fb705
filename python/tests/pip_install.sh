#!/usr/bin/env bash
# CTest packaging.pip_install (issue 31): `pip install .` as a user does it, on a Debian machine
# where python3-numpy is installed (its headers are linked into /usr/include/python3.11), then the
# pytest suite against the installed package in two environments:
#   - PyPI: a virtual environment of Debian's python3 without the system site packages, with
#     PyPI's NumPy (2.x) and torch; made once under the user's cache (LNGRAD_PIP_CHECK_CACHE,
#     default ~/.cache/lngrad) and reused, like bench/compare's;
#   - Debian: a virtual environment that sees Debian's NumPy 1.24 and torch 1.13.
# The wheel is built once, in pip's isolated build environment (PyPI's NumPy 2 headers), exactly
# as `pip install .` builds it, and installed into both: a module built against NumPy 2 must also
# import and pass with NumPy 1.x.
# usage: pip_install.sh <source dir> <scratch dir> <lngrad command for the device comparisons>
set -euo pipefail
SRC=$1
WORK=$2
CLI=$3
PY=/usr/bin/python3
CACHE=${LNGRAD_PIP_CHECK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lngrad}
PYPI_VENV=$CACHE/venv-pypi-$($PY -c 'import sys; print("%d.%d" % sys.version_info[:2])')
DEB_VENV=$WORK/venv-debian

# make_venv DIR MARKER VENV-OPTIONS... -- PACKAGES...: the environment, made once; the marker is
# written only after pip succeeded, so an interrupted install is redone.
make_venv() {
  local dir=$1 marker=$2
  shift 2
  local opts=()
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  [ -f "$dir/$marker" ] && return 0
  rm -rf "$dir"
  $PY -m venv "${opts[@]}" "$dir"
  echo "pip_install: installing $* from PyPI into $dir" >&2
  "$dir/bin/pip" install -q --disable-pip-version-check "$@"
  touch "$dir/$marker"
}
make_venv "$PYPI_VENV" .lngrad-installed -- numpy torch pytest
make_venv "$DEB_VENV" .lngrad-installed --system-site-packages -- "pytest>=7"

# The wheel, built as `pip install .` builds it (isolated build environment, pyproject.toml).
# ccache (when there) keeps reruns quick, across clones too (paths relative to the source).
rm -rf "$WORK/wheel" "$WORK/pip-build"
if command -v ccache >/dev/null 2>&1; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR=$SRC CCACHE_NOHASHDIR=1
fi
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
"$PYPI_VENV/bin/pip" wheel -q --disable-pip-version-check --no-deps -w "$WORK/wheel" \
  --config-settings=build-dir="$WORK/pip-build" "$SRC"
wheel=$(ls "$WORK"/wheel/lngrad-*.whl)

# Each environment: install, check that the installed package is the one imported and which
# NumPy it runs with, then the whole pytest suite (from outside the source tree).
# The wheel's torch operators are built for the PyPI environment's torch; the Debian
# environment's torch 1.13 is another version, so there lngrad.torch runs its Python path.
for env in "$PYPI_VENV:2:1" "$DEB_VENV:1:0"; do
  venv=${env%%:*}
  numpy_major=$(echo "$env" | cut -d: -f2)
  ops=${env##*:}
  "$venv/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps "$wheel"
  (cd "$WORK" && "$venv/bin/python" - "$venv" "$numpy_major" "$ops" <<'EOF'
import os, sys
import numpy, torch, lngrad, lngrad.torch
venv, numpy_major, ops = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
assert os.path.realpath(lngrad.__file__).startswith(os.path.realpath(venv)), lngrad.__file__
assert int(numpy.__version__.split(".")[0]) == numpy_major, numpy.__version__
assert lngrad.torch.OPERATORS == ops, lngrad.torch.OPERATORS
print(f"pip_install: {venv}: lngrad from {os.path.dirname(lngrad.__file__)}, "
      f"NumPy {numpy.__version__}, torch {torch.__version__}, operators {ops}")
EOF
  )
  (cd "$WORK" && LNGRAD_CLI=$CLI LNGRAD_EXPECT_TORCH_OPS=$ops PYTHONPATH= "$venv/bin/python" \
    -m pytest -q -p no:cacheprovider -rs "$SRC/python/tests")
done
