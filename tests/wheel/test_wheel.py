"""The wheel, installed the way a user installs it: into a fresh venv outside the build tree, with
nothing from the build on its path, run from another folder.

scripts/test.sh builds it first (scripts/build-wheel.sh) and names it in ILINT_WHEEL. What is
checked: the entry points (`inductor-lint`, `python -m inductor_lint`, `--version`), a fixture's
findings equal to the build tree's binary, a C++ capture that only the Clang module reads, the rule
docs and the confirmation tool found inside the package, no shared library taken from outside the
package but the C and C++ runtimes every Linux has, and the Python API.
"""
import glob
import json
import os
import subprocess
import sys
import venv

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("ILINT_BUILD_DIR", os.path.join(ROOT, "build"))
FIXTURES = os.path.join(ROOT, "fixtures")
# The libraries auditwheel's manylinux policies let a wheel take from the system (glibc's parts, the
# compiler's runtimes, zlib): everything else must come from inside the wheel.
SYSTEM_LIBS = {"libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1", "libpthread.so.0", "libdl.so.2",
               "librt.so.1", "libz.so.1", "ld-linux-x86-64.so.2", "linux-vdso.so.1"}


class Installed:
    def __init__(self, venv_dir, cwd):
        self.venv = venv_dir
        self.cwd = cwd
        self.bin = os.path.join(venv_dir, "bin")
        self.python = os.path.join(self.bin, "python")
        self.cli = os.path.join(self.bin, "inductor-lint")

    def run(self, *args, **kw):
        # PATH holds the venv and the system, never the build tree; no variable of the build's.
        env = {"PATH": self.bin + ":/usr/bin:/bin", "HOME": self.cwd, "LANG": "C.UTF-8"}
        env.update(kw.pop("env", {}))
        return subprocess.run(list(args), capture_output=True, text=True, cwd=self.cwd, env=env,
                              stdin=subprocess.DEVNULL, timeout=kw.pop("timeout", 600), **kw)

    def package_dir(self):
        r = self.run(self.python, "-c", "import inductor_lint, os; print(os.path.dirname(inductor_lint.__file__))")
        assert r.returncode == 0, r.stderr
        return r.stdout.strip()


@pytest.fixture(scope="session")
def installed(tmp_path_factory):
    wheel = os.environ.get("ILINT_WHEEL") or next(iter(sorted(glob.glob(os.path.join(BUILD, "dist", "*.whl")))), None)
    if not wheel:
        pytest.fail("no wheel: build it with scripts/build-wheel.sh (or name it in ILINT_WHEEL)", pytrace=False)
    base = tmp_path_factory.mktemp("wheel")
    venv_dir = str(base / "venv")
    venv.EnvBuilder(with_pip=True, clear=True).create(venv_dir)
    r = subprocess.run([os.path.join(venv_dir, "bin", "python"), "-m", "pip", "install", "-q", "--no-index",
                        "--no-deps", wheel], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    cwd = base / "elsewhere"
    cwd.mkdir()
    return Installed(venv_dir, str(cwd))


def test_version_from_both_entry_points(installed):
    a = installed.run(installed.cli, "--version")
    b = installed.run(installed.python, "-m", "inductor_lint", "--version")
    assert a.returncode == 0 and b.returncode == 0, (a.stderr, b.stderr)
    assert a.stdout == b.stdout
    assert a.stdout.startswith("inductor-lint 0.") and "(Clang 14." in a.stdout, a.stdout
    meta = installed.run(installed.python, "-c", "import inductor_lint; print(inductor_lint.__version__)")
    assert a.stdout.split()[1] == meta.stdout.strip()


def _findings(report):
    return [(f["rule"], f["severity"], f["location"]["line"], f["fingerprint"]) for f in report["findings"]]


@pytest.mark.parametrize("fixture,rule", [
    ("s2_cuda", "reduced-precision-scan"),        # Python wrapper and Triton kernels
    ("writeback_t213", "read-after-writeback"),   # torch 2.13 C++ kernels: only the Clang module reads them
])
def test_fixture_findings_equal_the_build_trees(installed, fixture, rule):
    path = os.path.join(FIXTURES, fixture)
    r = installed.run(installed.cli, path, "--format", "json")
    assert r.returncode == 1, (r.returncode, r.stderr[-2000:])
    report = json.loads(r.stdout)
    assert rule in {f["rule"] for f in report["findings"]}
    # Every kernel read whole: the C++ ones went through the package's Clang module and preludes.
    for c in report["coverage"]["compiles"]:
        assert c["kernels_fully_read"] == c["kernels"], c
    assert "libilint-clang" not in r.stderr, r.stderr
    built = os.path.join(BUILD, "inductor-lint")
    if os.access(built, os.X_OK):
        b = subprocess.run([built, path, "--format", "json"], capture_output=True, text=True, timeout=600)
        assert _findings(report) == _findings(json.loads(b.stdout))


def test_rule_docs_come_from_the_package(installed):
    pkg = installed.package_dir()
    r = installed.run(installed.python, "-m", "inductor_lint", "rules")
    assert r.returncode == 0, r.stderr
    docs = [line.split("doc: ", 1)[1] for line in r.stdout.splitlines() if line.strip().startswith("doc: ")]
    assert len(docs) >= 10
    assert all(d.startswith(os.path.join(pkg, "rules") + "/") and os.path.isfile(d) for d in docs), docs
    # SARIF's help links point there too.
    s = installed.run(installed.cli, os.path.join(FIXTURES, "s2_cuda"), "--format", "sarif")
    rules = json.loads(s.stdout)["runs"][0]["tool"]["driver"]["rules"]
    assert all(x["helpUri"].startswith("file://" + pkg + "/rules/") for x in rules), [x["helpUri"] for x in rules]


def test_confirm_finds_its_tool_in_the_package(installed):
    """The venv has no torch: the package's tools/confirm.py is found and answers `no-torch` (a tool
    not found would answer `no-tool`), run with the venv's own interpreter (the launcher names it)."""
    r = installed.run(installed.cli, "confirm", os.path.join(FIXTURES, "writeback_t213"), "--device", "cpu",
                      "--format", "json", "--fail-on", "never")
    assert r.returncode == 0, r.stderr[-2000:]
    answers = [f["confirmation"] for f in json.loads(r.stdout)["findings"]]
    assert answers and all(a["verdict"] == "skipped" and a["reason"] == "no-torch" for a in answers), answers


def test_the_launcher_names_its_interpreter_for_confirm(installed):
    """The launcher gives the binary INDUCTOR_LINT_PYTHON = its own interpreter; the binary re-executes
    with what that names: a path that is no interpreter is `no-python`."""
    r = installed.run(installed.python, "-c",
                      "from inductor_lint._binary import binary_environment; print(binary_environment()['INDUCTOR_LINT_PYTHON'])")
    assert r.returncode == 0 and os.path.realpath(r.stdout.strip()) == os.path.realpath(installed.python), r
    binary = os.path.join(installed.package_dir(), "bin", "inductor-lint")
    r = installed.run(binary, "confirm", os.path.join(FIXTURES, "writeback_t213"), "--device", "cpu",
                      "--format", "json", "--fail-on", "never", env={"INDUCTOR_LINT_PYTHON": "/nonexistent/python3"})
    answers = [f["confirmation"] for f in json.loads(r.stdout)["findings"]]
    assert answers and all(a["reason"] == "no-python" for a in answers), answers


def test_no_shared_library_from_outside_the_package(installed):
    pkg = installed.package_dir()
    elves = [os.path.join(pkg, "bin", "inductor-lint"), os.path.join(pkg, "bin", "libilint-clang.so")]
    site = os.path.dirname(pkg)
    for elf in elves:
        r = subprocess.run(["ldd", elf], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        for line in r.stdout.splitlines():
            name = line.split()[0]
            target = os.path.normpath(line.split("=>")[1].split("(")[0].strip()) if "=>" in line else ""
            if os.path.basename(name) in SYSTEM_LIBS:
                continue
            assert target.startswith(site + "/"), (elf, line)


def test_python_api(installed):
    code = r"""
import json, sys, inductor_lint
fs = inductor_lint.check(sys.argv[1])
only = inductor_lint.check([sys.argv[1]], rules=["restrict-alias"])
try:
    inductor_lint.check(sys.argv[2])
    err = None
except inductor_lint.InductorLintError as e:
    err = e.returncode
print(json.dumps({"findings": [[f.rule, f.severity, f.location.line, f.fingerprint, len(f.notes) > 0,
                                f.related[0].file if f.related else None] for f in fs],
                  "only": [f.rule for f in only], "error": err}))
"""
    path = os.path.join(FIXTURES, "s2_cuda")
    r = installed.run(installed.python, "-c", code, path, os.path.join(installed.cwd, "missing"))
    assert r.returncode == 0, r.stderr[-2000:]
    got = json.loads(r.stdout)
    cli = json.loads(installed.run(installed.cli, path, "--format", "json").stdout)
    assert got["findings"] == [[f["rule"], f["severity"], f["location"]["line"], f["fingerprint"], bool(f["notes"]),
                                f["related"][0]["file"] if f.get("related") else None] for f in cli["findings"]]
    assert got["findings"] and got["only"] == []
    assert got["error"] == 2
