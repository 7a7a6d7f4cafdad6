"""inductor-lint: a static analyzer for what torch.compile (Dynamo, AOTAutograd, Inductor) leaves behind.

The analyzer is a native binary shipped inside this package; this module finds it and reads its
JSON report (docs/json-output.md) into dataclasses:

    import inductor_lint
    for f in inductor_lint.check("torch_compile_debug/"):
        print(f.rule, f.severity, f.location, f.message)

The command line is `inductor-lint` (or `python -m inductor_lint`), the same binary.
"""
from ._api import Finding, InductorLintError, Location, check
from ._binary import binary_path

try:
    from importlib.metadata import PackageNotFoundError, version as _version

    __version__ = _version("inductor-lint")
except Exception:  # run from a source tree, not installed
    __version__ = "0+unknown"

__all__ = ["Finding", "InductorLintError", "Location", "binary_path", "check", "__version__"]
