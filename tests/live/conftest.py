"""The live suite's shared pieces: the analyzer, the venv's Python, and one run per program.

A run captures a real program with tools/capture.py under torch 2.13 (CPU), analyzes the capture with
the built analyzer, asks `inductor-lint confirm --device cpu` for a verdict on each finding and, for the
programs that say so, `inductor-lint localize --device cpu` for the first kernel that departs. The
runs are made once per session, two at a time (the machine has two cores), and every test reads them.
At the end the terminal summary names each program with its findings and verdicts.
"""
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from programs import PROGRAMS  # noqa: E402

BUILD = os.environ.get("ILINT_BUILD_DIR", os.path.join(ROOT, "build"))
BIN = os.path.join(BUILD, "inductor-lint")
WORK = os.path.join(BUILD, "live")
# Every cache and scratch file torch writes stays inside build/: the captures keep theirs in their
# own folder (tools/capture.py); confirm's compiles use this cache, and its script runs (a fresh
# Inductor cache each, made with tempfile) this TMPDIR.
CACHE = os.path.join(WORK, "inductor-cache")
TMP = os.path.join(WORK, "tmp")
JOBS = int(os.environ.get("ILINT_LIVE_JOBS", "2"))

_runs = {}


def _run(cmd, timeout, env=None, cwd=None):
    t0 = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd,
                       stdin=subprocess.DEVNULL)
    return r, time.time() - t0


class LiveRun:
    """One program: its capture, the analyzer's JSON report, and the confirm report."""

    def __init__(self, program):
        self.program = program
        self.capture = os.path.join(WORK, "captures", program.name)
        self.report = None
        self.confirmed = None
        self.localized = None
        self.errors = []
        self.seconds = {}

    def findings(self):
        return (self.report or {}).get("findings", [])

    def confirmed_findings(self):
        return (self.confirmed or {}).get("findings", [])


def _analyze(path, extra=()):
    r, dt = _run([BIN, path, "--format", "json", "--fail-on", "never", *extra], timeout=600)
    if r.returncode != 0:
        raise RuntimeError("inductor-lint exited %d: %s" % (r.returncode, r.stderr[-2000:]))
    return json.loads(r.stdout), dt


def _live_run(program, python):
    run = LiveRun(program)
    shutil.rmtree(run.capture, ignore_errors=True)
    cmd = [python, os.path.join(ROOT, "tools", "capture.py"), "--python", python, "--name", program.name,
           "--out", os.path.dirname(run.capture), "--force", "--output-code",
           "--env", "TORCHINDUCTOR_COMPILE_THREADS=1"]
    for k, v in program.env.items():
        cmd += ["--env", "%s=%s" % (k, v)]
    cmd += [program.path(), *program.args]
    r, run.seconds["capture"] = _run(cmd, timeout=900)
    if r.returncode != 0:
        run.errors.append("capture failed (%d): %s" % (r.returncode, (r.stdout + r.stderr)[-2000:]))
        return run
    run.report, run.seconds["check"] = _analyze(run.capture)
    if program.confirm:
        os.makedirs(TMP, exist_ok=True)
        env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=CACHE, TMPDIR=TMP)
        cmd = [BIN, "confirm", run.capture, "--device", "cpu", "--python", python, "--format", "json",
               "--fail-on", "never", "--timeout", "600"]
        if program.confirm == "script":
            cmd += ["--script", program.path()]
            for a in program.args:
                cmd += ["--script-arg", a]
        r, run.seconds["confirm"] = _run(cmd, timeout=1800, env=env)
        if r.returncode != 0:
            run.errors.append("confirm exited %d: %s" % (r.returncode, r.stderr[-2000:]))
        else:
            run.confirmed = json.loads(r.stdout)
    if program.localize:
        os.makedirs(TMP, exist_ok=True)
        env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=CACHE, TMPDIR=TMP)
        cmd = [BIN, "localize", run.capture, "--device", "cpu", "--python", python, "--format", "json",
               "--fail-on", "never", "--timeout", "600"]
        r, run.seconds["localize"] = _run(cmd, timeout=1800, env=env)
        if r.returncode != 0:
            run.errors.append("localize exited %d: %s" % (r.returncode, r.stderr[-2000:]))
        else:
            run.localized = json.loads(r.stdout)
    return run


@pytest.fixture(scope="session")
def python():
    """The venv's interpreter: tests/live/setup_venv.sh makes it (torch 2.13.0), or fails loudly."""
    r = subprocess.run(["bash", os.path.join(HERE, "setup_venv.sh")], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.fail("no torch for the live suite: " + r.stderr[-3000:], pytrace=False)
    return r.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="session")
def live(python):
    """name -> LiveRun, for every program of programs.py, made JOBS at a time."""
    if not os.access(BIN, os.X_OK):
        pytest.fail("no analyzer at %s: build it first (scripts/build.sh)" % BIN, pytrace=False)
    os.makedirs(os.path.join(WORK, "captures"), exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=JOBS) as pool:
        futures = {p.name: pool.submit(_live_run, p, python) for p in PROGRAMS}
        for name, fut in futures.items():
            _runs[name] = fut.result()
    return _runs


@pytest.fixture(scope="session")
def analyze():
    """Runs the analyzer on a path: (JSON report, seconds)."""
    return _analyze


def pytest_terminal_summary(terminalreporter):
    if not _runs:
        return
    tr = terminalreporter
    tr.section("live programs (torch 2.13, CPU)")
    for name, run in _runs.items():
        times = " ".join("%s %.0fs" % kv for kv in run.seconds.items())
        if run.errors:
            tr.write_line("%-24s ERROR %s" % (name, run.errors[0][:200]))
            continue
        found = run.confirmed_findings() if run.confirmed else run.findings()
        if not found:
            tr.write_line("%-24s no finding  (%s)" % (name, times))
        for f in found:
            user = (f.get("related") or [{}])[0]
            where = "%s:%s" % (os.path.basename(user.get("file", "?")), user.get("line", "?"))
            verdict = (f.get("confirmation") or {}).get("verdict", "-")
            tr.write_line("%-24s %-26s %-19s %-22s verdict %-18s (%s)" % (
                name, f["rule"], where, f.get("compile") or "-", verdict, times))
        for loc in (run.localized or {}).get("localizations", []):
            first = loc.get("first_divergent_recomputed")
            if first is None:
                first = loc.get("first_departure_recomputed")
            kernel = next((r["kernel"] for r in loc.get("launches", []) if r.get("order") == first), "-")
            tr.write_line("%-24s localize %-22s %-18s first launch %s %s" % (
                name, loc.get("compile"), loc.get("verdict"), "-" if first is None else first, kernel))
