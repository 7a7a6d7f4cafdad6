#!/usr/bin/env python3
"""Alternated A/B runs of inductor-lint builds on one corpus, reporting each build's median wall,
user and system time (from wait4's rusage). For differences of a few percent, where wall time
alone is too noisy on a shared VM: user time moves less with the machine's other load. Every
other round runs the builds in reverse order (see bench/ab.sh for why).

  bench/ab_cpu.py ROUNDS CORPUS JOBS BIN...   # e.g. bench/ab_cpu.py 6 corpus/shard_000 1 old/inductor-lint build/inductor-lint
"""
import os
import statistics
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 5:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    rounds, corpus, jobs, bins = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
    runs = {b: [] for b in bins}
    for r in range(rounds):
        for b in bins if r % 2 == 0 else bins[::-1]:
            start = time.perf_counter()
            p = subprocess.Popen([b, corpus, "--format", "json", "-o", "/dev/null", "-j" + jobs, "--fail-on", "never"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, status, usage = os.wait4(p.pid, 0)
            if status != 0:
                print(f"{b}: exit status {status}", file=sys.stderr)
            runs[b].append((time.perf_counter() - start, usage.ru_utime, usage.ru_stime))
    for b in bins:
        wall, user, sys_ = (statistics.median(x[i] for x in runs[b]) for i in range(3))
        print(f"{b}: wall {wall:.3f} s  user {user:.3f} s  sys {sys_:.3f} s  (user per run: "
              + " ".join(f"{x[1]:.2f}" for x in runs[b]) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
