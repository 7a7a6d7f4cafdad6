"""`inductor-lint ARGS` and `python -m inductor_lint ARGS`: the binary, with these arguments.

The process becomes the binary (exec), so its exit code, signals and terminal are the binary's own.
"""
import os
import sys

from ._binary import binary_environment, binary_path


def main() -> None:
    exe = str(binary_path())
    os.execve(exe, [exe] + sys.argv[1:], binary_environment())


if __name__ == "__main__":
    main()
