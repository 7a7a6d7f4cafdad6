#!/usr/bin/env python3
"""End-to-end mutation fuzzing: real captures with their output_code.py mutated, through the CLI.

libFuzzer targets (scripts/fuzz.sh) fuzz one reader at a time on inputs of at most a few KB; this
runs the whole analyzer (ingest, every parser, Clang with its precompiled prelude, threads, rules,
the report) on copies of the C++ fixtures whose output_code.py files got chunk deletions,
duplications (up to 50x), runs of one character (up to 6000), random bytes and C++ snippets.
Reports each run that crashes (a signal) or passes the time limit, and keeps its input.

  python3 tests/fuzz/mutate_captures.py --seconds 600 [--seed 1] [--bin build/inductor-lint]

Found so far: a `name<` chain Clang's parser takes exponential time on (tests/unit/cpp_limits_test.cpp).
"""
import argparse
import glob
import os
import random
import shutil
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CAPTURES = ["s1_cpu", "s2_cpu_cppwrap", "s2_cuda_cppwrap", "mut_foreach_flip_cpu", "stale_clamp_cpu"]
SNIPPETS = [b"#define X X X\n", b"#pragma clang __debug crash\n", b"template<int N> struct T { T<N+1> t; };\n",
            b"#line 4294967295\n", b'R"x(', b'_Pragma("omp")', b"%:define Y (\n", b"??=define Z\n"]


def mutate(rng, data):
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        op, i = rng.random(), rng.randrange(len(b) + 1)
        if op < 0.25 and len(b) > 10:
            del b[i:min(len(b), i + rng.randint(1, 200))]
        elif op < 0.5:
            b[i:i] = b[i:min(len(b), i + rng.randint(1, 400))] * rng.randint(1, 50)
        elif op < 0.7:
            b[i:i] = bytes([rng.choice(b"~-!*(+<[{};,#\"'\\\n")]) * rng.randint(1, 6000)
        elif op < 0.85:
            b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
        else:
            b[i:i] = rng.choice(SNIPPETS)
    return bytes(b)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "inductor-lint"))
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--keep", default=os.path.join(tempfile.gettempdir(), "ilint-mutate"))
    a = ap.parse_args()
    rng = random.Random(a.seed)
    work = tempfile.mkdtemp(prefix="ilint-mutate-run-")
    deadline = time.time() + a.seconds
    runs = bad = 0
    try:
        while time.time() < deadline:
            cap = rng.choice(CAPTURES)
            shutil.rmtree(work, ignore_errors=True)
            shutil.copytree(os.path.join(ROOT, "fixtures", cap), work)
            files = sorted(glob.glob(os.path.join(work, "**", "output_code.py"), recursive=True))
            for f in rng.sample(files, k=min(len(files), rng.randint(1, 2))):
                with open(f, "rb") as fh:
                    data = fh.read()
                with open(f, "wb") as fh:
                    fh.write(mutate(rng, data))
            jobs = rng.choice(["1", "2", "auto"])
            try:
                rc = subprocess.run([a.bin, work, "--format", "json", "-o", os.devnull, "--fail-on", "never", "-j" + jobs],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=a.timeout).returncode
            except subprocess.TimeoutExpired:
                rc = "timeout"
            runs += 1
            if rc == "timeout" or rc < 0 or rc >= 128:
                bad += 1
                keep = f"{a.keep}/bad_{bad}"
                shutil.rmtree(keep, ignore_errors=True)
                shutil.copytree(work, keep)
                print(f"BAD {cap} -j{jobs} rc={rc}: kept {keep}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"runs={runs} bad={bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
