"""The hot kernels get the same optimisation whatever the build type (issue 32).

Finds the sources that CMakeLists.txt files under src/ pass to lngrad_hot_kernels(...) and
checks, in each compile_commands.json given, that the last -O option of every command compiling
one of them is -O3, and that there is at least one such command per source. The native
kernels and the simulated core's instruction set must be among them.

usage: check_kernel_flags.py <source dir> <compile_commands.json>..."""

import json
import pathlib
import re
import shlex
import sys


def hot_sources(root):
    found = set()
    for cmake in (root / "src").rglob("CMakeLists.txt"):
        for call in re.findall(r"lngrad_hot_kernels\(([^)]*)\)", cmake.read_text()):
            found.update((cmake.parent / name).resolve() for name in call.split())
    return found


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    sources = hot_sources(root)
    for required in ("src/core/kernels_simd.cpp", "src/aicore/instructions.cpp"):
        if (root / required).resolve() not in sources:
            sys.exit(f"{required} is not passed to lngrad_hot_kernels(...)")
    errors = []
    for path in sys.argv[2:]:
        seen = set()
        for entry in json.loads(pathlib.Path(path).read_text()):
            file = pathlib.Path(entry["directory"], entry["file"]).resolve()
            if file not in sources:
                continue
            seen.add(file)
            args = entry.get("arguments") or shlex.split(entry["command"])
            levels = [a for a in args if re.fullmatch(r"-O[0-9sgz]?", a)]
            if not levels or levels[-1] != "-O3":
                errors.append(f"{path}: {file.relative_to(root)} compiled with {levels or 'no -O'}")
        errors += [f"{path}: {f.relative_to(root)} not compiled" for f in sorted(sources - seen)]
        print(f"{path}: {len(seen)} hot kernel sources at -O3")
    if errors:
        sys.exit("\n".join(errors))


if __name__ == "__main__":
    main()
