#!/usr/bin/env python3
"""`lngrad verify` on outputs whose exact values cancel: gen --shape 64,16,4096 -> run ->
verify must pass (float and half; the magnitude rule judges pd_x, dgamma and dbeta, as the
report says), must fail without the magnitude rule (so the case needs it), and must still
fail on real errors: a whole output perturbed by a few hundred ulps, one wrong element.

Usage: check_verify_rules.py LNGRAD WORKDIR
"""

import json
import os
import shutil
import subprocess

import numpy as np

import check_util


def verify(lngrad, out, gen, *extra):
    p = subprocess.run(
        [lngrad, "verify", out, gen, "--json", *extra], capture_output=True, text=True
    )
    return p.returncode, (json.loads(p.stdout) if p.stdout else None), p.stderr


def perturbed(work, out, name, change):
    """A copy of OUT whose `name` output went through change(array) (in place)."""
    dst = os.path.join(work, "bad_" + name + "_" + change.__name__)
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(out, dst)
    path = os.path.join(dst, name + ".npy")
    a = np.load(path)
    change(a)
    np.save(path, a)
    return dst


def main(lngrad, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    failed = total = 0

    def check(ok, what):
        nonlocal failed, total
        total += 1
        if not ok:
            failed += 1
            print("FAILED:", what)

    # Float column sums over 1024 rows are allowed (1024 + 3) u * sum|terms| (the worst case of
    # any summation order), up to 6e-4 of the largest values: their shift is 30000 ulps (0.36 %).
    for dtype, ulps in (
        ("float", {"pd_x": 3000, "dgamma": 30000, "dbeta": 30000}),
        ("half", {"pd_x": 300, "dgamma": 300, "dbeta": 300}),
    ):
        gen, out = os.path.join(work, dtype + "_gen"), os.path.join(work, dtype + "_out")
        subprocess.run(
            [lngrad, "gen", "--shape", "64,16,4096", "--dtype", dtype, "--out", gen],
            check=True,
            capture_output=True,
        )
        subprocess.run([lngrad, "run", "--in", gen, "--out", out], check=True, capture_output=True)
        rc, rep, err = verify(lngrad, out, gen)
        check(rc == 0 and rep["pass"], f"{dtype}: verify of run's outputs passes ({rc} {err})")
        rules = {r["key"]: r["rule"] for r in rep["results"]}
        check(
            rules
            == {
                "pd_x": "ascend+magnitude",
                "res_for_gamma": "ascend",
                "dgamma": "ascend+magnitude",
                "dbeta": "ascend+magnitude",
            },
            f"{dtype}: the report names the rule of each output: {rules}",
        )
        accepted = sum(r["magnitude"]["accepted"] for r in rep["results"] if r["magnitude"])
        check(accepted > 0, f"{dtype}: the magnitude rule accepted some elements ({accepted})")
        rc, rep, _ = verify(lngrad, out, gen, "--no-magnitude")
        check(rc == 1, f"{dtype}: without the magnitude rule the same outputs fail ({rc})")

        # A whole output a few hundred ulps off: the bits of every element moved by ulps[name].
        int_type = np.uint16 if dtype == "half" else np.uint32
        for name in ("pd_x", "dgamma", "dbeta"):

            def shift_bits(a):
                v = a.view(int_type)
                v += int_type(ulps[name])  # away from zero for either sign; no value reaches inf

            rc, rep, _ = verify(lngrad, perturbed(work, out, name, shift_bits), gen)
            bad = {r["key"]: r["mismatches"] for r in rep["results"]}
            check(
                rc == 1 and bad[name] > 0 and sum(bad.values()) == bad[name],
                f"{dtype}: {name} {ulps[name]} ulps off fails: {bad}",
            )

        # One wrong element: the largest pd_x takes its neighbour row's value; the largest
        # dgamma and dbeta are 1 % off.
        def neighbour_row(a):
            f = a.reshape(-1)
            i = int(np.argmax(np.abs(f[: f.size - 4096])))
            f[i] = f[i + 4096]

        def one_percent(a):
            i = int(np.argmax(np.abs(a)))
            a[i] = a[i] * a.dtype.type(1.01)

        for name, change in (
            ("pd_x", neighbour_row),
            ("dgamma", one_percent),
            ("dbeta", one_percent),
        ):
            rc, rep, _ = verify(lngrad, perturbed(work, out, name, change), gen)
            bad = {r["key"]: r["mismatches"] for r in rep["results"]}
            check(
                rc == 1 and bad[name] == 1 and sum(bad.values()) == 1,
                f"{dtype}: one wrong {name} element fails: {bad}",
            )
    return check_util.summary(total, failed)


if __name__ == "__main__":
    check_util.run(main, 2, __doc__)
