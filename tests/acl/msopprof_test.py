"""tools/msopprof/msopprof on a program of lngrad's (argv: msopprof, program, output folder): its
messages, the report's folder and header, one row per launch with the program's kernel and
blocks (vendor_style_add launches add_custom<float> and add_custom<half> on 8 blocks), and the
application's failure passed on."""

import csv
import glob
import os
import shutil
import subprocess
import sys

msopprof, program, out = sys.argv[1:4]
shutil.rmtree(out, ignore_errors=True)
run = subprocess.run(
    [sys.executable, msopprof, f"--output={out}", program], capture_output=True, text=True
)
assert run.returncode == 0, run.stderr
assert "[INFO] Profiling finished." in run.stdout, run.stdout
reports = glob.glob(os.path.join(out, "OPPROF_*", "PipeUtilization.csv"))
assert len(reports) == 1, reports
assert f"Data is saved in {os.path.dirname(os.path.abspath(reports[0]))}" in run.stdout, run.stdout
with open(reports[0], newline="") as f:
    table = list(csv.reader(f))
assert table[0][:5] == ["Op Name", "Op Type", "Kernel Name", "Block Dim", "Task Duration(us)"], (
    table[0]
)
kernels = [(r[2], r[3]) for r in table[1:]]
assert len(kernels) >= 2 and all(b == "8" for _, b in kernels), kernels
assert all(k.startswith("add_custom") and r[0] == r[2] for r, (k, _) in zip(table[1:], kernels)), (
    table
)
assert not glob.glob(os.path.join(out, ".msopprof_*")), "the record file is removed"
fail = subprocess.run(
    [sys.executable, msopprof, f"--application={sys.executable} -c 'exit(3)'", f"--output={out}"],
    capture_output=True,
    text=True,
)
assert fail.returncode == 3 and "exited with 3" in fail.stderr, (fail.returncode, fail.stderr)
bad = subprocess.run(
    [sys.executable, msopprof, "--kernel-name=x", program], capture_output=True, text=True
)
assert bad.returncode != 0 and "--kernel-name=x is not supported" in bad.stderr, bad.stderr
print("msopprof: ok")
