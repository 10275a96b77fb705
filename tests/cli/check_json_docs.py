"""The --json reports against docs/cli.md, and the facts every report must share.

Usage: check_json_docs.py LNGRAD DOCS_CLI_MD WORKDIR

- Every top-level key that gen, run, verify, tiling and socs write appears, as `key`, in that
  subcommand's section of docs/cli.md (so the documentation names what is written).
- npu_arch has one JSON type, a string, in socs, tiling and run.
- The manifest that run writes records its inputs relative to the manifest's directory: each
  one names an existing file from there, wherever run was started.
"""

import json
import os
import re
import shutil
import subprocess
import sys

from check_util import run, summary


def section(doc, command):
    """The text of the `## `lngrad COMMAND`` section."""
    m = re.search(r"^## `lngrad " + command + r"`\n(.*?)(?=^## |\Z)", doc, re.M | re.S)
    return m.group(1) if m else ""


def lngrad(binary, *args, cwd=None, ok=(0,)):
    p = subprocess.run([binary, *args], capture_output=True, text=True, cwd=cwd)
    if p.returncode not in ok:
        raise RuntimeError(f"{args} exited {p.returncode}: {p.stderr}")
    return json.loads(p.stdout)


def main(binary, docs, work):
    binary = os.path.abspath(binary)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "elsewhere"))
    with open(docs, encoding="utf-8") as f:
        doc = f.read()
    reports = {}
    reports["gen"] = lngrad(binary, "gen", "--shape", "1,2,16", "--out", "data", "--json", cwd=work)
    # run from another directory, with relative paths: the manifest must still be right.
    reports["run"] = lngrad(
        binary,
        "run",
        "--in",
        "../data",
        "--out",
        "../out",
        "--json",
        "--soc",
        "Ascend310P3",
        cwd=os.path.join(work, "elsewhere"),
    )
    reports["verify"] = lngrad(binary, "verify", "out", "data", "--json", cwd=work, ok=(0, 1))
    reports["tiling"] = lngrad(binary, "tiling", "--shape", "2,32,16", "--json", cwd=work)
    reports["socs"] = lngrad(binary, "socs", "--json", cwd=work)
    failed = 0
    total = 0
    for command, report in reports.items():
        text = section(doc, command)
        for key in report:
            total += 1
            if f"`{key}`" not in text:
                print(
                    f'FAIL: `lngrad {command} --json` writes "{key}", which docs/cli.md\'s '
                    f"section of {command} does not name"
                )
                failed += 1
    arches = [("socs", p["npu_arch"]) for p in reports["socs"]["products"]]
    arches += [
        ("tiling", reports["tiling"]["npu_arch"]),
        ("run", reports["run"]["path"]["npu_arch"]),
    ]
    for command, value in arches:
        total += 1
        if not isinstance(value, str):
            print(
                f"FAIL: {command} writes npu_arch {value!r} ({type(value).__name__}), not a string"
            )
            failed += 1
    total += 1
    if reports["run"]["path"]["npu_arch"] != "2002":
        print(f"FAIL: run on Ascend310P3 reports npu_arch {reports['run']['path']['npu_arch']!r}")
        failed += 1
    with open(os.path.join(work, "out", "manifest.json"), encoding="utf-8") as f:
        inputs = json.load(f)["inputs"]
    for name, path in inputs.items():
        total += 1
        where = os.path.join(work, "out", path)
        want = os.path.join(work, "data", name + ".npy")
        if os.path.isabs(path) or not os.path.exists(where) or not os.path.samefile(where, want):
            print(
                f"FAIL: manifest input {name} = {path!r} is not data/{name}.npy relative to "
                "the manifest"
            )
            failed += 1
    return summary(total, failed)


if __name__ == "__main__":
    run(main, 3, __doc__)
