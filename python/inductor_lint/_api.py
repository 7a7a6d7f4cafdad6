"""check(): the binary's JSON report (docs/json-output.md) as dataclasses. Nothing is analyzed here:
the binary does it all; this module only runs it and reads its answer."""
import json
import os
import subprocess
from dataclasses import dataclass, field
from typing import Iterable, List, Optional, Sequence, Tuple, Union

from ._binary import binary_environment, binary_path

PathLike = Union[str, "os.PathLike[str]"]


class InductorLintError(RuntimeError):
    """The analyzer could not read anything it was given, or was called wrongly (its exit code 2)."""

    def __init__(self, message: str, returncode: int, stderr: str):
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr


@dataclass(frozen=True)
class Location:
    """A line in a file: generated code for a finding's `location`, the user's source (first) and
    other places for its `related` ones, which carry a `message`."""

    file: str
    line: int
    column: int = 0
    message: str = ""

    @classmethod
    def from_json(cls, d: Optional[dict]) -> Optional["Location"]:
        if not d:
            return None
        return cls(file=d.get("file", ""), line=int(d.get("line", 0)), column=int(d.get("column", 0)),
                   message=d.get("message", ""))


@dataclass(frozen=True)
class Finding:
    """One finding of the JSON report's `findings` array (docs/json-output.md)."""

    rule: str
    severity: str  # error | warning | note
    message: str   # the headline, at most 120 bytes
    notes: Tuple[str, ...] = ()
    location: Optional[Location] = None
    related: Tuple[Location, ...] = ()
    compile: str = ""
    kernel: str = ""
    # The dicts take no part in equality or hashing: a Finding is a set member or dict key by the rest.
    evidence: dict = field(default_factory=dict, compare=False, hash=False)
    fix: str = ""
    fingerprint: str = ""
    confirmation: Optional[dict] = field(default=None, compare=False, hash=False)

    @classmethod
    def from_json(cls, d: dict) -> "Finding":
        return cls(rule=d["rule"], severity=d["severity"], message=d.get("message", ""),
                   notes=tuple(d.get("notes") or ()), location=Location.from_json(d.get("location")),
                   related=tuple(Location.from_json(r) for r in d.get("related") or () if r),
                   compile=d.get("compile", ""), kernel=d.get("kernel", ""), evidence=d.get("evidence") or {},
                   fix=d.get("fix", ""), fingerprint=d.get("fingerprint", ""), confirmation=d.get("confirmation"))


def check(paths: Union[PathLike, Sequence[PathLike]], rules: Optional[Iterable[str]] = None,
          args: Sequence[str] = ()) -> List[Finding]:
    """Analyzes `paths` (a torch_compile_debug/ folder, a TORCH_TRACE log, any folder holding
    captures; one or a list) and returns the findings, in the report's order. `rules`: run only
    these rule ids. `args`: more command-line options (`["--config", "lint.json"]`).

    Raises InductorLintError when nothing could be read or an argument is wrong."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    cmd = [str(binary_path()), "check", "--format", "json", "--fail-on", "never", "--no-color"]
    for r in rules or ():
        cmd += ["--rule", r]
    cmd += list(args)
    cmd += ["--"] + [os.fsdecode(p) for p in paths]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=binary_environment())
    stderr = proc.stderr.decode("utf-8", "replace")
    if proc.returncode not in (0, 1):
        raise InductorLintError("inductor-lint exited with %d: %s" % (proc.returncode, stderr.strip()),
                                proc.returncode, stderr)
    try:
        report = json.loads(proc.stdout)
    except ValueError as e:  # `args` asked for another format or an output file
        raise InductorLintError("inductor-lint wrote no JSON report on its output (%s); check() reads "
                                "--format json from stdout, so `args` may not change the format or name -o"
                                % e, proc.returncode, stderr) from None
    return [Finding.from_json(f) for f in report.get("findings", [])]
