#!/usr/bin/env python3
"""What `localize` costs against one plain compile and run of the same graph.

    bench/localize_cost.py --python VENV_PYTHON [--bin build/inductor-lint] [--repeat N] CAPTURE...

For each compile of each capture: the requests `inductor-lint localize --print-requests` makes, each run
through tools/localize.py with `time_runnable` (so the tool also runs the compile's fx_graph_runnable.py
alone, as a program: one Inductor compile and one run). Printed per compile, the medians of N paired runs:

  localize     the tool's process wall time (torch import, both modules loaded, the kernels compiled as
               output_code.py loads, eager, float64, a plain compiled run and the observed one)
  alone        fx_graph_runnable.py run alone (torch import, one Inductor compile, one run)
  ratio        localize / alone, the cost of localizing against one run of the compile
  observed     the observed compiled run against the plain one (the wrappers and comparisons alone)

The two commands of a pair run back to back, so machine noise hits both; quote the ratio.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", required=True, help="the Python that has torch")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "inductor-lint"))
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("captures", nargs="+")
    a = ap.parse_args()
    print("| compile | launches | localize (s) | alone (s) | ratio | observed / plain run |")
    print("|---|---|---|---|---|---|")
    for cap in a.captures:
        r = subprocess.run([a.bin, "localize", cap, "--device", a.device, "--print-requests"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print("| %s | request failed: %s |" % (cap, r.stderr.strip()[-200:]))
            continue
        for req in json.loads(r.stdout):
            req["time_runnable"] = True
            rows = []
            with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
                json.dump(req, f)
            try:
                for _ in range(a.repeat):
                    out = subprocess.run([a.python, os.path.join(ROOT, "tools", "localize.py"), "--request", f.name],
                                         capture_output=True, text=True)
                    ans = json.loads(out.stdout)
                    t = ans.get("timing_s", {})
                    alone = (ans.get("runnable_alone") or {}).get("wall_s")
                    if ans.get("verdict") == "skipped" or not alone:
                        rows = None
                        print("| %s %s | skipped: %s %s |" % (os.path.basename(cap), req["compile"], ans.get("reason"),
                                                             ans.get("detail")))
                        break
                    rows.append((t["process"], alone, t["compiled_observed"] / max(t["compiled_plain"], 1e-9)))
            finally:
                os.unlink(f.name)
            if not rows:
                continue
            loc = statistics.median(x[0] for x in rows)
            alone = statistics.median(x[1] for x in rows)
            ratio = statistics.median(x[0] / x[1] for x in rows)
            obs = statistics.median(x[2] for x in rows)
            print("| %s %s | %d | %.2f | %.2f | %.2fx | %.1fx |" % (os.path.basename(cap.rstrip("/")), req["compile"],
                                                                 len(req["launches"]), loc, alone, ratio, obs))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
