"""Where the binary is: bin/inductor-lint inside this package (CMake's install layout, which keeps
its Clang module, precompiled preludes, rule docs and tools beside it)."""
import os
import sys
from pathlib import Path


def binary_path() -> Path:
    """The analyzer binary of this installation."""
    exe = Path(__file__).resolve().parent / "bin" / "inductor-lint"
    if not exe.is_file():
        raise FileNotFoundError(
            "%s is missing: this inductor_lint package was not installed from a wheel "
            "(pip install inductor-lint, or pip install . in the source tree)" % exe)
    return exe


def binary_environment() -> dict:
    """The environment the binary runs in: INDUCTOR_LINT_PYTHON names this interpreter (the one
    `confirm` and `localize` re-execute with, unless --python says otherwise), since the environment
    that has inductor-lint installed is the one that has torch."""
    env = dict(os.environ)
    env.setdefault("INDUCTOR_LINT_PYTHON", sys.executable)
    return env
