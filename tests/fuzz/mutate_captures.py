#!/usr/bin/env python3
"""End-to-end mutation fuzzing: real captures with their output_code.py mutated, through the CLI.

libFuzzer targets (scripts/fuzz.sh) fuzz one reader at a time on inputs of at most a few KB; this
runs the whole analyzer (ingest, every parser, Clang with its precompiled prelude, threads, rules,
the report) on copies of the C++ fixtures whose output_code.py files got chunk deletions,
duplications (up to 50x), runs of one character (up to 6000), random bytes and C++ snippets.
Reports each run that crashes (a signal), passes the time limit, changes its input, or writes into
its working folder, HOME or TMPDIR (empty folders of the script's), and keeps its input.

With --any-file, every fixture is a candidate and any of its files may be mutated (Dynamo logs,
TORCH_TRACE logs, FX graphs as text and JSON, provenance JSON, versions.json, stdout/stderr), with
mutations meant for line-oriented logs (a number swapped for one past int64's range, 0 or a
negative; a source path swapped for a FIFO, a device, a folder or nothing; a line deleted,
duplicated or moved), and the report is written in any format.

With --structure, the folder tree changes too: files deleted, emptied, cut short, turned into folders
or links (a loop among them), compile folders renamed (an index past int64's range, another kind)
or copied, files moved between compile folders.

With --determinism, each mutated input runs at -j1 and at -j2 or -j auto, and a report or stderr
that is not the same bytes (or a different exit code) counts as a failure, as a crash does.

  python3 tests/fuzz/mutate_captures.py --seconds 600 [--seed 1] [--bin build/inductor-lint] [--any-file] [--structure] [--determinism]

Under a sanitizer build, name its exit code: TSAN_OPTIONS=halt_on_error=1:exitcode=66 and --bad-exit 66.

About one change in ten is a hostile shape of docs/security.md (mutate_hostile): an #include of a
local file in an unusual spelling, a 1-200 KB run of one stray byte, terminal escapes and bidi
overrides (a text report that prints one raw is a failure), a BOM, NULs, the file as UTF-16.

Found so far: a `name<` chain Clang's parser takes exponential time on (tests/unit/cpp_limits_test.cpp);
Clang's debug pragmas writing to stderr (4f120db); the text report waiting on a FIFO named as the
user's source file (3a60322).
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CAPTURES = ["s1_cpu", "s2_cpu_cppwrap", "s2_cuda_cppwrap", "mut_foreach_flip_cpu", "stale_clamp_cpu"]
SNIPPETS = [b"#define X X X\n", b"#pragma clang __debug crash\n", b"template<int N> struct T { T<N+1> t; };\n",
            b"#line 4294967295\n", b'R"x(', b'_Pragma("omp")', b"%:define Y (\n", b"??=define Z\n"]


NUMBERS = [b"99999999999999999999999999", b"5000000000", b"2147483648", b"-1", b"0", b"-9223372036854775809",
           b"1e999", b"nan", b"0x7fffffff"]


# Paths a log may name as the user's source file, which the text and HTML reports read for their
# snippets: a FIFO (the script makes it: reading it waits for a writer), devices that never end or
# never answer, a folder, a file the process may not read, nothing, a very long name. A FIFO named
# there hung the text report until 3a60322.
HOSTILE_PATHS = [b"/dev/zero", b"/dev/stdin", b"/dev/tty", b"/proc/self/mem", b"/", b"/nonexistent/x.py", b"",
                 b"/" + b"a" * 5000 + b".py"]


SOURCE_PATH = rb"(?<![A-Za-z0-9_.-])/[A-Za-z0-9_./-]+\.py"


def replace_path_everywhere(rng, files):
    """One source path, as every file of the capture names it, swapped for a hostile one: a
    finding's user location is drawn from several logs, so one file's change is often outvoted."""
    texts = {}
    for f in files:
        with open(f, "rb") as fh:
            texts[f] = fh.read()
    paths = sorted({p for t in texts.values() for p in re.findall(SOURCE_PATH, t)})
    # Mostly the user's files: PyTorch's own (in tracebacks) are never read.
    users = [p for p in paths if b"site-packages" not in p and b"torchinductor_" not in p]
    if not paths:
        return
    old, new = rng.choice(users if users and rng.random() < 0.8 else paths), rng.choice(HOSTILE_PATHS)
    for f, t in texts.items():
        if old in t:
            with open(f, "wb") as fh:
                fh.write(t.replace(old, new))


def mutate_lines(rng, data):
    """A line-oriented mutation: a number replaced, a source path replaced by a hostile one, or a
    line deleted, duplicated or moved."""
    op = rng.random()
    if op < 0.4:
        runs = list(re.finditer(rb"\d+", data))
        if runs:
            m = rng.choice(runs)
            return data[:m.start()] + rng.choice(NUMBERS) + data[m.end():]
        return data
    if op < 0.55:
        paths = sorted(set(re.findall(SOURCE_PATH, data)))
        if paths:
            return data.replace(rng.choice(paths), rng.choice(HOSTILE_PATHS))
        return data
    lines = data.split(b"\n")
    i = rng.randrange(len(lines))
    if op < 0.7:
        del lines[i]
    elif op < 0.85:
        lines.insert(i, lines[i])
    else:
        lines.insert(rng.randrange(len(lines) + 1), lines.pop(i))
    return b"\n".join(lines)


def tree(root, want_dirs=False):
    """Files (or folders) under root, sorted, without following links: a link loop made by
    mutate_structure would send glob's ** round the loop until memory ran out."""
    out = []
    for d, dirs, files in os.walk(root):
        out += [os.path.join(d, n) for n in (dirs if want_dirs else files)
                if not os.path.islink(os.path.join(d, n))]
    return sorted(out)


def snapshot(root):
    """Every entry under root with its kind, size and modification time (links not followed)."""
    out = []
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            st = os.lstat(os.path.join(d, n))
            out.append((os.path.join(d, n), st.st_mode, st.st_size, st.st_mtime_ns))
    return sorted(out)


def mutate_structure(rng, work):
    """A change to the folder tree: a file deleted, emptied or cut short, turned into a folder or a
    link (to another file, to a folder above it: a loop); a compile folder renamed (its index past
    any integer type, another kind) or copied beside itself; a file moved into another folder."""
    files = [f for f in tree(work) if os.path.isfile(f)]
    folders = [d for d in tree(work, want_dirs=True) if os.path.basename(d).startswith("model__")]
    op = rng.random()
    if files and op < 0.15:
        os.remove(rng.choice(files))
    elif files and op < 0.3:
        f = rng.choice(files)
        os.truncate(f, rng.randrange(os.path.getsize(f) + 1) if rng.random() < 0.7 else 0)
    elif files and op < 0.4:
        f = rng.choice(files)
        os.remove(f)
        os.mkdir(f)
    elif files and op < 0.55:
        f = rng.choice(files)
        target = rng.choice([rng.choice(files), os.path.dirname(f), os.path.dirname(os.path.dirname(f)), "/nonexistent"])
        os.remove(f)
        os.symlink(target, f)
    elif folders and op < 0.75:
        d = rng.choice(folders)
        name = os.path.basename(d)
        new = rng.choice([re.sub(r"\d+", "99999999999999999999", name, count=1), name.replace("forward", "backward"),
                          name.replace("inference", "forward"), name + "_x", "model__", name.split("_")[0]])
        dst = os.path.join(os.path.dirname(d), new)
        if not os.path.exists(dst):
            if rng.random() < 0.5:
                os.rename(d, dst)
            else:
                shutil.copytree(d, dst, symlinks=True)
    elif files and len(folders) > 1 and op < 0.9:
        f = rng.choice(files)
        shutil.move(f, os.path.join(rng.choice(folders), os.path.basename(f)))
    elif folders:
        d = rng.choice(folders)
        os.symlink(os.path.dirname(d), os.path.join(d, "loop"))


# The hostile inputs of docs/security.md, as changes to a real file: an #include of a local file in
# each spelling a line filter misses (Clang must see no real file system), a long run of one stray
# byte (a diagnostic per byte once took 7.9 GiB), terminal escapes and bidi overrides (the text
# report must print them escaped), a BOM, NULs, the whole file as UTF-16.
INCLUDES = [b'# include "/etc/hostname"\n', b'#\tinclude "/etc/passwd"\n', b'#/**/include </etc/hostname>\n',
            b'%:include "/etc/hostname"\n', b'#import "/etc/hostname"\n', b'#inc\\\nlude "/etc/hostname"\n',
            b'# include "/dev/stdin"\n']
TERMINAL = [b"\x1b]0;pwned\x07\x1b[2J", "\u202e".encode(), b"\x1b[31m", b"\x07\x08\x7f"]


def mutate_hostile(rng, data):
    op = rng.random()
    i = rng.randrange(len(data) + 1)
    if op < 0.3:
        # At a line start, so the preprocessor sees a directive.
        j = data.rfind(b"\n", 0, i) + 1
        return data[:j] + rng.choice(INCLUDES) + data[j:]
    if op < 0.45:
        return data[:i] + bytes([rng.choice(b"$?`\x01\x80")]) * rng.randint(1000, 200000) + data[i:]
    if op < 0.65:
        return data[:i] + rng.choice(TERMINAL) + data[i:]
    if op < 0.75:
        return b"\xef\xbb\xbf" + data
    if op < 0.85:
        return data[:i] + b"\0" * rng.randint(1, 64) + data[i:]
    try:
        return data.decode("utf-8").encode("utf-16")
    except UnicodeDecodeError:
        return data


def mutate(rng, data, line_ops=False):
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if line_ops and rng.random() < 0.4:
            b = bytearray(mutate_lines(rng, bytes(b)))
            continue
        if rng.random() < 0.1:
            b = bytearray(mutate_hostile(rng, bytes(b)))
            continue
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
    ap.add_argument("--any-file", action="store_true", help="any fixture, any of its files, any report format")
    ap.add_argument("--determinism", action="store_true",
                    help="run each input at -j1 and at 2 threads; a report or stderr that differs is a failure")
    ap.add_argument("--structure", action="store_true",
                    help="also change the folder tree: files deleted, cut, made folders or links; folders renamed or copied")
    ap.add_argument("--bad-exit", type=int, action="append", default=[],
                    help="an exit code that counts as a failure (a sanitizer's: scripts/tsan.sh sets 66)")
    a = ap.parse_args()
    a.bin = os.path.abspath(a.bin)  # runs start in an empty folder of their own
    captures = sorted(os.listdir(os.path.join(ROOT, "fixtures"))) if a.any_file else CAPTURES
    rng = random.Random(a.seed)
    special = tempfile.mkdtemp(prefix="ilint-mutate-fifo-")
    os.mkfifo(os.path.join(special, "fifo.py"))
    HOSTILE_PATHS.append(os.path.join(special, "fifo.py").encode())
    work = tempfile.mkdtemp(prefix="ilint-mutate-run-")
    outdir = tempfile.mkdtemp(prefix="ilint-mutate-out-")
    scratch = tempfile.mkdtemp(prefix="ilint-mutate-cwd-")
    home = tempfile.mkdtemp(prefix="ilint-mutate-home-")
    deadline = time.time() + a.seconds
    runs = bad = 0
    try:
        while time.time() < deadline:
            cap = rng.choice(captures)
            shutil.rmtree(work, ignore_errors=True)
            shutil.copytree(os.path.join(ROOT, "fixtures", cap), work)
            files = [f for f in tree(work) if a.any_file or os.path.basename(f) == "output_code.py"]
            for f in rng.sample(files, k=min(len(files), rng.randint(1, 3 if a.any_file else 2))):
                with open(f, "rb") as fh:
                    data = fh.read()
                with open(f, "wb") as fh:
                    fh.write(mutate(rng, data, line_ops=a.any_file))
            if a.any_file and rng.random() < 0.15:
                replace_path_everywhere(rng, tree(work))
            if a.structure:
                for _ in range(rng.randint(1, 3)):
                    try:
                        mutate_structure(rng, work)
                    except OSError:  # a name already taken, a file made a folder by an earlier change
                        pass
            fmt = rng.choice(["json", "sarif", "html", "text"]) if a.any_file else "json"

            def run(jobs):
                out = os.path.join(outdir, "report-j" + jobs)
                before = snapshot(work)
                # The run's working folder, HOME and TMPDIR are empty folders that must stay empty:
                # a run writes nothing but its output.
                env = dict(os.environ, HOME=home, TMPDIR=scratch)
                try:
                    p = subprocess.run([a.bin, work, "--format", fmt, "-o", out, "--fail-on", "never", "-j" + jobs],
                                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                       timeout=a.timeout, start_new_session=True,
                                       cwd=scratch, env=env)
                except subprocess.TimeoutExpired:
                    return "timeout", b"", b""
                report = b""
                if os.path.isfile(out):
                    with open(out, "rb") as fh:
                        report = fh.read()
                    os.remove(out)
                wrote = [f"{d}/{n}" for d in (scratch, home) for n in os.listdir(d)]
                if wrote:
                    for d in (scratch, home):
                        shutil.rmtree(d)
                        os.mkdir(d)
                    return "wrote " + ", ".join(wrote), report, p.stderr
                if snapshot(work) != before:
                    return "changed its input", report, p.stderr
                if fmt == "text" and re.search(rb"[\x00-\x08\x0b-\x1f\x7f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]", report):
                    return "raw control or bidi character in the text report", report, p.stderr
                return p.returncode, report, p.stderr

            if a.determinism:
                # The same input at -j1 and at 2 threads: the report and the diagnostics must be the same bytes.
                jobs = rng.choice(["2", "auto"])
                rc1, rep1, err1 = run("1")
                rc, rep, err = run(jobs)
                if isinstance(rc1, str) or rc1 < 0 or rc1 >= 128 or rc1 in a.bad_exit:
                    rc = rc1
                elif isinstance(rc, str):
                    pass
                elif rc == rc1 and (rep != rep1 or err != err1):
                    rc = "differs from -j1 (" + ("report" if rep != rep1 else "stderr") + ")"
                elif rc != rc1:
                    rc = f"exit {rc} where -j1 gave {rc1}"
            else:
                jobs = rng.choice(["1", "2", "auto"])
                rc = run(jobs)[0]
            runs += 1
            if isinstance(rc, str) or rc < 0 or rc >= 128 or rc in a.bad_exit:
                bad += 1
                keep = f"{a.keep}/bad_{bad}"
                shutil.rmtree(keep, ignore_errors=True)
                shutil.copytree(work, keep, symlinks=True)
                print(f"BAD {cap} -j{jobs} --format {fmt} rc={rc}: kept {keep}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        for d in (outdir, scratch, home, special):
            shutil.rmtree(d, ignore_errors=True)
    print(f"runs={runs} bad={bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
