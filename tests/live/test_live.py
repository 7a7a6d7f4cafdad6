"""Live end-to-end tests: real programs captured with torch 2.13 (CPU), analyzed, and confirmed.

Run by scripts/test.sh (so by .ci/run) with the venv of tests/live/setup_venv.sh:
    build/live-venv/bin/python -m pytest tests/live
"""
import json
import os
import subprocess

import pytest

from conftest import BIN, ROOT
from programs import PROGRAMS

BY_NAME = {p.name: p for p in PROGRAMS}


def _warnings_and_errors(report):
    return [f for f in report["findings"] if f["severity"] in ("warning", "error")]


def _user(f):
    rel = f.get("related") or []
    return rel[0] if rel else {}


def _compile_kind(report, compile_id):
    for c in report["compiles"]:
        if c["id"] == compile_id:
            return c.get("kind")
    return None


def _match(program, report, findings):
    """Pairs each expectation with the finding it describes; fails naming what is missing or extra."""
    left = list(findings)
    pairs = []
    for e in program.expect:
        line = program.user_line(e.user_text)
        hit = [f for f in left
               if f["rule"] == e.rule and f["severity"] == e.severity
               and os.path.basename(_user(f).get("file", "")) == program.script
               and _user(f).get("line") == line and _compile_kind(report, f.get("compile", "")) == e.compile_kind]
        assert hit, "%s: no %s %s at %s:%d in a %s compile; found: %s" % (
            program.name, e.severity, e.rule, program.script, line, e.compile_kind,
            [(f["rule"], _user(f).get("line"), f["compile"]) for f in findings])
        left.remove(hit[0])
        pairs.append((e, hit[0]))
    assert not left, "%s: findings no expectation names: %s" % (
        program.name, [(f["rule"], f["severity"], _user(f).get("line"), f["compile"]) for f in left])
    return pairs


@pytest.mark.parametrize("name", [p.name for p in PROGRAMS])
def test_capture_is_torch_2_13(live, name):
    run = live[name]
    assert not run.errors, run.errors
    assert run.report["torch_version"].startswith("2.13."), run.report["torch_version"]
    version_diags = [d for d in run.report["diagnostics"]
                     if d["code"] in ("version-mismatch", "unknown-format") or "version" in d["code"]]
    assert not version_diags, version_diags


@pytest.mark.parametrize("name", [p.name for p in PROGRAMS])
def test_findings(live, name):
    run = live[name]
    assert not run.errors, run.errors
    _match(BY_NAME[name], run.report, _warnings_and_errors(run.report))


def _graph_verdict_from_numbers(confirmation):
    """same()'s rule over the answer's own numbers: a seed fails when an output's compiled RMSE
    against float64 passes multiplier * eager's RMSE + tol/10; differing outputs that all pass make
    a precision artifact. An integer or boolean output (`exact`) fails when it differs from eager at all."""
    failed = differs = False
    for seed in confirmation["seeds"]:
        for o in seed["outputs"]:
            if o.get("exact"):
                failed = failed or not o["agree"]
                continue
            c, e = o["compiled_vs_fp64"]["rmse"], o["eager_vs_fp64"]["rmse"]
            if c > o["multiplier"] * e + o["tol"] / 10:
                failed = True
            if not o["allclose"]:
                differs = True
    return "confirmed" if failed else "precision-artifact" if differs else "not-reproduced"


@pytest.mark.parametrize("name", [p.name for p in PROGRAMS if p.confirm])
def test_confirm_verdicts(live, name):
    program, run = BY_NAME[name], live[name]
    assert not run.errors, run.errors
    pairs = _match(program, run.confirmed, _warnings_and_errors(run.confirmed))
    for e, f in pairs:
        c = f["confirmation"]
        assert c, "%s: %s has no confirmation" % (name, e.rule)
        assert c["verdict"] == e.verdict, "%s: %s verdict %s (%s: %s), expected %s" % (
            name, e.rule, c["verdict"], c.get("reason"), c.get("detail"), e.verdict)
        if c["mode"] == "graph":
            assert _graph_verdict_from_numbers(c) == c["verdict"], c["detail"]
        else:  # script mode: some call of the compiled program leaves eager by more than the tolerance
            worst = max(call["inductor"]["max_abs"] for call in c["calls"])
            assert worst > c["tol"], c["calls"]


def test_trace_alone_gives_the_findings_of_the_capture(live, analyze):
    """Each capture's TORCH_TRACE log, analyzed alone, gives the findings of the whole capture (same
    fingerprints), with no diagnostic that the whole capture does not give."""
    for name, run in live.items():
        if run.errors:
            continue
        report, _ = analyze(os.path.join(run.capture, "trace"))
        assert sorted(f["fingerprint"] for f in report["findings"]) == sorted(
            f["fingerprint"] for f in run.report["findings"]), name
        codes = {d["code"] for d in run.report["diagnostics"]}
        assert [d for d in report["diagnostics"] if d["code"] not in codes] == [], name


def test_rules_on_the_capture_are_those_confirm_reports(live):
    """confirm analyzes the same capture: it must see the same findings as check (same fingerprints)."""
    for name, run in live.items():
        if run.errors or not run.confirmed:
            continue
        a = sorted(f["fingerprint"] for f in run.report["findings"])
        b = sorted(f["fingerprint"] for f in run.confirmed["findings"])
        assert a == b, name


@pytest.mark.parametrize("name", [p.name for p in PROGRAMS if p.localize])
def test_localize_names_the_kernel(live, name):
    """`localize` observes every compile, agrees with its own numbers, and names as the first departing
    (or first divergent) launch one that the finding is about (its kernel, or the kernel its evidence
    names), with the finding's user line among the launch's; a clean program has no divergent launch."""
    program, run = BY_NAME[name], live[name]
    assert not run.errors, run.errors
    locs = run.localized["localizations"]
    assert locs and len(locs) == len(run.localized["compiles"]), locs
    for loc in locs:
        assert loc["verdict"] != "skipped", (loc.get("reason"), loc.get("detail"), loc.get("traceback"))
        assert not [r for r in loc["launches"] if r.get("verdict_mismatch")], loc["launches"]
        assert any(r["verdict_recomputed"] != "unobserved" for r in loc["launches"]), loc["launches"]
    if program.localize != "divergent":
        assert all(loc["first_divergent_recomputed"] is None for loc in locs), [
            (loc["compile"], loc["detail"]) for loc in locs]
    findings = _warnings_and_errors(run.localized)
    if program.localize == "ok":
        assert not findings
        assert all(loc["verdict"] == "ok" for loc in locs), [(loc["compile"], loc["detail"]) for loc in locs]
        return
    assert findings
    for f in findings:
        loc = next(x for x in locs if x["compile"] == f["compile"])
        assert loc["verdict"] == program.localize, loc["detail"]
        first = loc["first_divergent_recomputed" if program.localize == "divergent" else "first_departure_recomputed"]
        row = next(r for r in loc["launches"] if r["order"] == first)
        assert f["fingerprint"] in [x["fingerprint"] for x in row["findings"]], (row["kernel"], row["findings"])
        assert _user(f).get("line") in [u["line"] for u in row["user_lines"]], row["user_lines"]
        worst = max((w for w in row["writes"] if "compiled_vs_fp64" in w or w.get("exact")),
                    key=lambda w: w.get("compiled_vs_fp64", w.get("eager_vs_compiled"))["rmse"])
        if worst.get("exact"):  # integers: eager is the answer
            assert program.localize == "divergent" and worst["mismatched"] > 0, worst
        elif program.localize == "divergent":
            assert worst["compiled_vs_fp64"]["rmse"] > worst["multiplier"] * worst["eager_vs_fp64"]["rmse"]
        else:
            assert not worst["allclose"] and worst["compiled_vs_fp64"]["rmse"] <= worst["eager_vs_fp64"]["rmse"]


def test_inline_suppression_on_the_users_line(python, tmp_path):
    """seed 2's program with `# inductor-lint: ignore[reduced-precision-scan] <reason>` on the
    cumulative_trapezoid line, captured: the finding is suppressed in source with that reason, read
    from the file (the program is under the source root) and, with the source root elsewhere, from the
    FX graph's copy of the line (the capture was made with the comment in place). Without the comment
    the same program is reported (seed2_cumtrapz_bf16 in test_findings)."""
    reason = "bf16 scan accepted in the live suite"
    src = open(os.path.join(ROOT, "tools", "capture_scripts", "seed2.py")).read()
    marker = "torch.cumulative_trapezoid(y, x, dim=-1)"
    assert src.count(marker) == 1
    program = tmp_path / "seed2_inline.py"
    program.write_text(src.replace(marker, marker + "  # inductor-lint: ignore[reduced-precision-scan] " + reason))
    capture = tmp_path / "capture"
    r = subprocess.run([python, os.path.join(ROOT, "tools", "capture.py"), "--python", python, "--name", "inline",
                        "--out", str(capture), "--force", "--output-code", "--env", "TORCHINDUCTOR_COMPILE_THREADS=1",
                        str(program), "cpu"], capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]

    def report(source_root):
        out = subprocess.run([BIN, str(capture / "inline"), "--format", "json", "--source-root", source_root],
                             capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, (out.returncode, out.stderr[-2000:])  # suppressed: nothing to fail on
        return json.loads(out.stdout)

    for root in (str(tmp_path), str(capture / "inline" / "torch_compile_debug")):
        rep = report(root)
        assert rep["findings"] == [], root
        assert rep["summary"]["suppressed"] == 1, root
        s = rep["suppressed"][0]
        assert s["rule"] == "reduced-precision-scan"
        assert s["suppression"] == {"kind": "inline", "reason": reason,
                                    "location": {"file": str(program), "line": src[:src.index(marker)].count("\n") + 1,
                                                 "column": 0}}, s["suppression"]
    # SARIF says the same, as an in-source suppression.
    sarif = subprocess.run([BIN, str(capture / "inline"), "--format", "sarif", "--source-root", str(tmp_path)],
                           capture_output=True, text=True, timeout=600)
    results = json.loads(sarif.stdout)["runs"][0]["results"]
    assert [r_["suppressions"][0]["kind"] for r_ in results] == ["inSource"]
    assert results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "seed2_inline.py"


def test_run_captures_analyzes_and_confirms_a_program(python, tmp_path):
    """`inductor-lint run --confirm -- python writeback.py`: the program runs once under the debug
    switches into --run-dir (its own output and logs pass through), the folder is analyzed, and the
    finding is confirmed by re-running the program with its own interpreter (--python and --script
    come from the command). The writeback program in test_findings gives the same finding from a
    tools/capture.py capture."""
    program = os.path.join(ROOT, "tools", "capture_scripts", "writeback.py")
    run_dir = tmp_path / "run"
    env = dict(os.environ, TMPDIR=str(tmp_path))
    env.pop("TORCHINDUCTOR_CACHE_DIR", None)
    r = subprocess.run([BIN, "run", "--confirm", "--device", "cpu", "--format", "json", "--run-dir", str(run_dir),
                        "--", python, program], capture_output=True, text=True, timeout=1800, env=env,
                       cwd=str(tmp_path), stdin=subprocess.DEVNULL)
    assert r.returncode == 1, (r.returncode, r.stderr[-3000:])  # an error finding
    # The program's own stdout comes first (it prints its torch version), then the report.
    assert r.stdout.startswith("torch 2.13"), r.stdout[:300]
    report = json.loads(r.stdout[r.stdout.index("\n{") + 1:])
    assert [(f["rule"], f["confirmation"]["verdict"]) for f in report["findings"]] == [
        ("read-after-writeback", "confirmed")], report["findings"]
    assert report["inputs"] == [str(run_dir)]
    assert "the program exited with status 0; analyzing " + str(run_dir) in r.stderr
    # The folder holds what the debug switches wrote; the fresh Inductor cache is gone.
    assert sorted(p.name for p in run_dir.iterdir()) == ["torch_compile_debug", "torch_logs.txt", "trace"]
    # Dynamo's guard records (the analysis reads them) are in torch_logs.txt, not on the terminal.
    assert "[__guards]" in (run_dir / "torch_logs.txt").read_text() and "[__guards]" not in r.stderr


def test_run_of_a_failing_program_fails(python, tmp_path):
    """A program that fails under `run` fails the run (exit 2), after what it compiled is analyzed;
    one that compiles nothing leaves nothing to read (exit 2 too); a run folder in use is refused."""
    failing = tmp_path / "failing.py"
    failing.write_text("import torch, sys\n"
                       "f = torch.compile(lambda x: x.sin() + 1)\n"
                       "f(torch.ones(4))\n"
                       "sys.exit(3)\n")
    r = subprocess.run([BIN, "run", "--run-dir", str(tmp_path / "a"), "--", python, str(failing)],
                       capture_output=True, text=True, timeout=900, cwd=str(tmp_path), stdin=subprocess.DEVNULL)
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert "the program failed (exit status 3)" in r.stderr
    assert "coverage:" in r.stdout  # its compile was analyzed
    r = subprocess.run([BIN, "run", "--run-dir", str(tmp_path / "b"), "--", python, "-c", "print('no compile')"],
                       capture_output=True, text=True, timeout=300, cwd=str(tmp_path), stdin=subprocess.DEVNULL)
    assert r.returncode == 2 and "nothing could be read" in r.stderr, (r.returncode, r.stderr[-2000:])
    r = subprocess.run([BIN, "run", "--run-dir", str(tmp_path / "a"), "--", python, str(failing)],
                       capture_output=True, text=True, timeout=300, cwd=str(tmp_path), stdin=subprocess.DEVNULL)
    assert r.returncode == 2 and "exists and is not an empty folder" in r.stderr, r.stderr
