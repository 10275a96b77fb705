#!/usr/bin/env python3
"""packaging.dependencies: nothing the build or the tests use may come from outside ./dev's lists.

A fresh Debian 12 machine has the Essential and required packages and nothing else that we may
count on; ./dev installs its PACKAGES list (apt-get, with their Depends) and
python/requirements-dev.txt (pip, into build/venv). This check collects what the build and the
tests actually use and names every piece that neither list brings:
  - every system header the build compiled against (ninja's dependency log of the build tree),
  - every program CMake found (FILEPATH entries of CMakeCache.txt under /usr or /bin),
  - every module that a Python file of the tree imports (python/, tests/, examples/, scripts/;
    bench/ installs its own peers), resolved as the test's interpreter resolves it,
  - the headers of <torch/extension.h> where an operator source under python/ includes it
    (compiled at test time, outside the build tree's ninja log),
then maps each file to its Debian package (dpkg -S) or its PyPI distribution and checks that the
package is in the closure of ./dev's list over Depends and Pre-Depends, or that the distribution
is in requirements-dev.txt.

  check_dependencies.py SOURCE_DIR BUILD_DIR          the check
  check_dependencies.py SOURCE_DIR BUILD_DIR --each   the self-test that the check can fail: each
      listed package removed in turn must be caught, unless another listed package depends on it
"""

import argparse
import ast
import importlib.machinery
import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys


def dev_packages(source):
    """The PACKAGES=(...) array of ./dev."""
    text = open(os.path.join(source, "dev")).read()
    m = re.search(r"^PACKAGES=\(([^)]*)\)", text, re.M)
    if not m:
        sys.exit("check_dependencies: no PACKAGES=(...) in ./dev")
    return set(m.group(1).split())


def pip_requirements(source):
    names = set()
    for line in open(os.path.join(source, "python", "requirements-dev.txt")):
        line = line.split("#", 1)[0].strip()
        if line:
            names.add(normalize(re.split(r"[<>=!~;\[ ]", line, 1)[0]))
    return names


def normalize(dist):
    return re.sub(r"[-_.]+", "-", dist).lower()


def dpkg_status():
    """package -> (depends alternatives, provides, essential/required); installed packages only."""
    pkgs, provides = {}, {}
    for stanza in open("/var/lib/dpkg/status").read().split("\n\n"):
        fields, key = {}, None
        for line in stanza.splitlines():
            if line[:1] in (" ", "\t") and key:
                fields[key] += " " + line.strip()
            elif ":" in line:
                key, value = line.split(":", 1)
                fields[key] = value.strip()
        if "installed" not in fields.get("Status", "").split() or "Package" not in fields:
            continue
        name = fields["Package"]
        deps = []
        for field in ("Depends", "Pre-Depends"):
            for group in filter(None, (g.strip() for g in fields.get(field, "").split(","))):
                deps.append([re.split(r"[ (:]", alt.strip(), 1)[0] for alt in group.split("|")])
        base = fields.get("Essential") == "yes" or fields.get("Priority") == "required"
        pkgs[name] = (deps, base)
        for p in filter(None, (p.strip() for p in fields.get("Provides", "").split(","))):
            provides.setdefault(re.split(r"[ (:]", p, 1)[0], []).append(name)
    return pkgs, provides


def closure(roots, pkgs, provides):
    """Installed packages that roots and the base system bring in through Depends."""
    todo = list(roots) + [p for p, (_, base) in pkgs.items() if base]
    seen = set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        for alt in pkgs.get(p, ([], False))[0]:
            # One installed alternative satisfies the group (real or virtual).
            cands = [a for a in alt if a in pkgs] + [r for a in alt for r in provides.get(a, [])]
            todo.extend(cands[:1])
    return seen


def owners(paths):
    """file -> Debian package, through dpkg -S (resolving symlinks as dpkg records the target)."""
    result = {}
    paths = sorted(set(paths))
    for i in range(0, len(paths), 200):
        chunk = paths[i : i + 200]
        for resolve in (lambda p: p, os.path.realpath):
            query = {}
            for p in chunk:
                if p not in result:
                    query.setdefault(resolve(p), []).append(p)
            if not query:
                continue
            out = subprocess.run(["dpkg", "-S", *query], capture_output=True, text=True).stdout
            for line in out.splitlines():
                if ": " not in line:
                    continue
                pkg_list, path = line.split(": ", 1)
                for p in query.get(path, []):
                    result.setdefault(p, pkg_list.split(",")[0].split(":")[0].strip())
    return result


def system_headers(build, source):
    """header -> True when only the optional peers of bench/ use it (bench_dnnl*, built when
    oneDNN is there: bench/compare installs it; a build without it leaves them out)."""
    out = subprocess.run(["ninja", "-C", build, "-t", "deps"], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"check_dependencies: ninja -t deps failed in {build}: {out.stderr.strip()}")
    heads, bench_only = {}, True
    for line in out.stdout.splitlines():
        if line and not line[0].isspace():  # "object: #deps N, ..."
            bench_only = line.startswith("bench/CMakeFiles/bench_dnnl")
            continue
        p = line.strip()
        if p.startswith("/") and not p.startswith((source, build)) and os.path.exists(p):
            heads[p] = heads.get(p, True) and bench_only
    return heads


def compare_packages(source):
    """The PACKAGES=(...) of bench/compare, which installs the peers bench_dnnl builds against."""
    text = open(os.path.join(source, "bench", "compare")).read()
    m = re.search(r"^PACKAGES=\(([^)]*)\)", text, re.M)
    return set(m.group(1).split()) if m else set()


def cmake_programs(build):
    progs = set()
    for line in open(os.path.join(build, "CMakeCache.txt")):
        m = re.match(r"^([A-Za-z0-9_]+):FILEPATH=(/(?:usr|bin|sbin)/\S+)$", line.strip())
        if m and os.access(m.group(2), os.X_OK):
            progs.add(m.group(2))
    return progs


def preset_programs(source):
    """Programs the CI scripts call: clang-format (scripts/check_format.sh, ./dev format) and the
    compiler of every configure preset, with the sanitizer runtimes of the clang presets."""
    progs = {
        "clang-format": "scripts/check_format.sh",
        "cmake": "./dev",
        "ctest": "./dev",
        "ccache": "./dev (use_ccache)",
        "g++": "CMake preset dev (the default compiler)",
    }
    presets = json.load(open(os.path.join(source, "CMakePresets.json")))
    for p in presets.get("configurePresets", []):
        cxx = p.get("cacheVariables", {}).get("CMAKE_CXX_COMPILER")
        if cxx:
            progs.setdefault(cxx, f"CMake preset {p['name']}")
    found, problems = {}, []
    for prog, user in progs.items():
        path = shutil.which(prog)
        if path is None:
            problems.append((prog, user, "not installed at all"))
            continue
        found[path] = user
        if "clang" in os.path.basename(prog) and prog != "clang-format":
            rt = subprocess.run([path, "-print-runtime-dir"], capture_output=True, text=True)
            for lib in ("asan", "ubsan_standalone", "tsan", "fuzzer"):
                f = os.path.join(rt.stdout.strip(), f"libclang_rt.{lib}-x86_64.a")
                if os.path.exists(f):
                    found[f] = f"{user} (-fsanitize)"
                else:
                    problems.append((f, f"{user} (-fsanitize)", "not installed at all"))
    return found, problems


def python_imports(source):
    """(module, file that imports it), for the top-level modules of every Python file we run."""
    found = []
    for top in ("python", "tests", "examples", "scripts", "tools"):
        for root, dirs, files in os.walk(os.path.join(source, top)):
            dirs[:] = [d for d in dirs if d not in ("__pycache__", "build")]
            for f in files:
                if not f.endswith(".py"):
                    continue
                path = os.path.join(root, f)
                tree = ast.parse(open(path).read(), path)
                for node in ast.walk(tree):
                    if isinstance(node, ast.Import):
                        names = [a.name for a in node.names]
                    elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                        names = [node.module]
                    else:
                        continue
                    found += [(n.split(".")[0], path) for n in names]
    # ./dev makes build/venv with `python3 -m venv`, which needs ensurepip's wheels.
    found.append(("ensurepip", os.path.join(source, "dev")))
    return found


def torch_extension_headers(source):
    """The system headers of <torch/extension.h>, which operator sources of the tree compile at
    test time, outside the build tree's ninja log (python.torch_npu_op builds one as the kit's
    PyTorch samples do): the C++ preprocessor's dependency list with torch's include directories
    (it brings pybind11's headers). ({header: who needs it}, problems)."""
    users = []
    for root, dirs, files in os.walk(os.path.join(source, "python")):
        dirs[:] = [d for d in dirs if d not in ("__pycache__", "build")]
        for f in files:
            if f.endswith((".asc", ".cpp")):
                path = os.path.join(root, f)
                if "#include <torch/extension.h>" in open(path, errors="replace").read():
                    users.append(path)
    if not users or importlib.util.find_spec("torch") is None:
        return {}, []
    user = os.path.relpath(users[0], source)
    import sysconfig

    import torch.utils.cpp_extension as ext

    dirs = ext.include_paths() + [sysconfig.get_paths()["include"]]
    out = subprocess.run(
        ["c++", "-std=c++17", "-M", "-x", "c++", "-"] + [f"-I{d}" for d in dirs],
        input="#include <torch/extension.h>\n",
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        why = (out.stderr.strip().splitlines() or ["?"])[0]
        return {}, [("<torch/extension.h>", user, f"does not compile here: {why}")]
    heads = {}
    for p in out.stdout.replace("\\\n", " ").split()[1:]:
        p = os.path.realpath(p)
        if p.startswith("/usr/") and os.path.exists(p):
            heads[p] = f"{user} (a header of <torch/extension.h>)"
    return heads, []


def is_local(mod, user):
    """Ours: the lngrad package, the torch_npu stand-in (python/torch_npu), or a module beside a
    script (sys.path[0], pytest's rootdir insertion); inside a package an absolute import never
    means the file beside it."""
    if mod in ("lngrad", "_lngrad", "torch_npu"):
        return True
    here = os.path.dirname(user)
    if os.path.exists(os.path.join(here, "__init__.py")):
        return False
    return os.path.exists(os.path.join(here, mod + ".py")) or os.path.isdir(os.path.join(here, mod))


def collect(source, build, requirements):
    """What the build and the tests use: ({file: who needs it}, [problems found already])."""
    problems = []  # (what, needed by, why)
    files = {}
    for h, bench_only in system_headers(build, source).items():
        files[h] = (
            "bench/ (a header; bench/compare installs it)" if bench_only else "the build (a header)"
        )
    for p in cmake_programs(build):
        files[p] = "CMake (find_program)"
    heads, missing = torch_extension_headers(source)
    for h, user in heads.items():
        files.setdefault(h, user)
    problems += missing
    progs, missing = preset_programs(source)
    files.update(progs)
    problems += missing
    dists = importlib.metadata.packages_distributions()
    for mod, user in sorted(set(python_imports(source))):
        if mod in sys.builtin_module_names or mod == "__future__" or is_local(mod, user):
            continue
        spec = importlib.util.find_spec(mod)
        if spec is None:
            problems.append((f"Python module {mod}", user, "not installed at all"))
            continue
        origin = spec.origin if spec.origin not in (None, "built-in", "frozen") else None
        if origin is None and spec.submodule_search_locations:
            origin = list(spec.submodule_search_locations)[0]
        if origin is None:
            continue
        if origin.startswith(sys.prefix) and sys.prefix != sys.base_prefix:
            dist = {normalize(d) for d in dists.get(mod, [])}
            if not dist & requirements:
                problems.append(
                    (
                        f"Python module {mod}",
                        user,
                        f"PyPI {', '.join(sorted(dist)) or '?'} (not in requirements-dev.txt)",
                    )
                )
            continue
        files[origin] = f"{os.path.relpath(user, source)} (import {mod})"
    return files, problems


def check(listed, files, owner, pkgs, provides, bench_extra=frozenset()):
    """The problems of a package list: files whose package the list does not bring (for bench/'s
    optional peers, the list with bench/compare's)."""
    allowed = closure(listed, pkgs, provides)
    bench_allowed = closure(listed | bench_extra, pkgs, provides)
    problems = []
    for path, user in sorted(files.items()):
        pkg = owner.get(path)
        if pkg is None:
            problems.append((path, user, "no Debian package owns it (installed by hand?)"))
        elif pkg not in (bench_allowed if user.startswith("bench/") else allowed):
            problems.append((path, user, f"Debian {pkg}, which ./dev does not install"))
    return problems, allowed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("source")
    ap.add_argument("build")
    ap.add_argument(
        "--each",
        action="store_true",
        help="self-test: remove each listed package in turn; every one must be caught "
        "or be brought by another listed package",
    )
    args = ap.parse_args()
    source, build = os.path.realpath(args.source), os.path.realpath(args.build)

    listed = dev_packages(source)
    requirements = pip_requirements(source)
    pkgs, provides = dpkg_status()
    extra = compare_packages(source)
    files, problems = collect(source, build, requirements)
    owner = owners(files)

    if args.each:
        status = 0
        before = set(check(listed, files, owner, pkgs, provides, extra)[0])
        for p in sorted(listed):
            found, _ = check(listed - {p}, files, owner, pkgs, provides, extra)
            caught = [f for f in found if f not in before]
            if caught:
                print(f"{p}: caught ({len(caught)} files, e.g. {caught[0][0]} for {caught[0][1]})")
            elif p in closure(listed - {p}, pkgs, provides):
                print(f"{p}: brought by another listed package (removing it changes nothing)")
            else:
                print(
                    f"{p}: FAIL: removing it goes unnoticed (nothing checked needs it: "
                    "drop it from ./dev, or teach this check what needs it)"
                )
                status = 1
        return status

    found, allowed = check(listed, files, owner, pkgs, provides, extra)
    problems += found
    by_why = {}
    for what, user, why in problems:
        by_why.setdefault(why, []).append((what, user))
    for why, items in sorted(by_why.items()):
        print(f"{why}: needed by {len(items)}, e.g. {items[0][0]} for {items[0][1]}")
    print(
        f"checked {len(files)} files and modules against {len(listed)} listed packages "
        f"({len(allowed)} with their dependencies) and {len(requirements)} requirements"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
