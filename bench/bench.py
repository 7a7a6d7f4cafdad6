#!/usr/bin/env python3
"""inductor-lint benchmark: full analysis against Python's `ast` parse and a plain read of the bytes.

Run through bench/run.sh (see bench/README.md). For each input set it measures, in the same run:

  lint -jN   inductor-lint PATH... --format json -o /dev/null -jN  (ingest, parse, model, all rules)
  python     python3 -c: os.walk + ast.parse of every output_code.py (what a user would script instead)
  cat        cat of every file the analyzer opens, listed by strace (the I/O floor)

Each command's wall time, CPU time (user+sys) and peak RSS come from os.wait4 on the child (its own
rusage and that of the children it waited for). The page cache is warmed by reading every file first.
Prints a markdown table and writes the raw numbers as JSON (--json).
"""
import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

PY_AST = r"""
import ast, os, sys
n = 0
for root in sys.argv[1:]:
    for dp, dn, fn in os.walk(root):
        dn.sort()
        if "output_code.py" in fn:
            with open(os.path.join(dp, "output_code.py"), "rb") as f:
                ast.parse(f.read())
            n += 1
if n == 0:
    sys.exit("no output_code.py found")
"""


# A child's peak RSS (ru_maxrss) counts what it shared with this script before its exec (Linux keeps
# the high-water mark across execve), so every row would read at least this script's size. GNU time
# forks the command from its own small process and reports the command's peak alone; without it, the
# rows carry that floor.
GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def measure(cmd):
    rss_file = None
    if GNU_TIME:
        fd, rss_file = tempfile.mkstemp(prefix="bench-rss-")
        os.close(fd)
        cmd = [GNU_TIME, "-f", "%M", "-o", rss_file, *cmd]
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    rss = ru.ru_maxrss * 1024
    if rss_file:
        with open(rss_file) as f:
            lines = f.read().split()
        os.remove(rss_file)
        if lines and lines[-1].isdigit():
            rss = int(lines[-1]) * 1024
    return {"wall": wall, "cpu": ru.ru_utime + ru.ru_stime, "sys": ru.ru_stime, "minflt": ru.ru_minflt,
            "rss": rss, "rc": os.waitstatus_to_exitcode(status)}


def median_of(cmd, repeat):
    runs = [measure(cmd) for _ in range(repeat)]
    for r in runs:
        if r["rc"] not in (0, 1):  # inductor-lint: 1 = findings
            sys.exit("command failed (%d): %s" % (r["rc"], " ".join(cmd[:4])))
    return {k: statistics.median(r[k] for r in runs) for k in ("wall", "cpu", "sys", "minflt", "rss")} | {"n": repeat}


def files_opened(lint, paths, workdir):
    """Regular files inductor-lint opens for reading, in first-open order (strace), else None."""
    if not shutil.which("strace"):
        return None
    log = os.path.join(workdir, "strace.log")
    subprocess.run(["strace", "-f", "-qq", "-e", "trace=openat", "-o", log, lint, *paths, "--format", "json", "-o",
                    "/dev/null", "-j1", "--fail-on", "never"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    roots = [os.path.abspath(p) for p in paths]
    seen, out = set(), []
    pat = re.compile(r'openat\([^,]+, "((?:[^"\\]|\\.)*)", ([A-Z_|]+)[^)]*\) = \d+')
    with open(log, errors="replace") as f:
        for line in f:
            m = pat.search(line)
            if not m or "O_DIRECTORY" in m.group(2) or "O_WRONLY" in m.group(2) or "O_RDWR" in m.group(2):
                continue
            path = os.path.abspath(m.group(1))
            if path in seen or not any(path == r or path.startswith(r + "/") for r in roots):
                continue
            if os.path.isfile(path):
                seen.add(path)
                out.append(path)
    os.remove(log)
    return out


def files_by_name(paths):
    """Fallback when strace is missing: the files the analyzer reads, by name."""
    names = {"output_code.py", "fx_graph_readable.py", "fx_graph_runnable.py",
             "inductor_provenance_tracking_node_mappings.json", "debug.log", "stderr.txt", "stdout.txt"}
    out = []
    for root in paths:
        for dp, dn, fn in os.walk(root):
            dn.sort()
            for n in sorted(fn):
                if n in names or n.startswith("dedicated_log_torch_trace"):
                    out.append(os.path.join(dp, n))
    return out


def warm(paths):
    for root in paths:
        for dp, dn, fn in os.walk(root):
            for n in fn:
                try:
                    with open(os.path.join(dp, n), "rb") as f:
                        while f.read(1 << 20):
                            pass
                except OSError:
                    pass


def bench_set(a, label, paths, files, repeat, jobs, python=True, workdir=None, extra_bins=()):
    warm(paths)
    listing = os.path.join(workdir, "files.txt")
    with open(listing, "wb") as f:
        f.write(b"\0".join(p.encode() for p in files))
    row = {"label": label, "paths": paths, "files": len(files), "bytes": sum(os.path.getsize(p) for p in files),
           "output_code_bytes": sum(os.path.getsize(p) for p in files if p.endswith("/output_code.py"))}
    row["cat"] = median_of(["xargs", "-0", "-a", listing, "cat"], repeat)
    for j in jobs:
        row["lint_j%s" % j] = median_of([a.bin, *paths, "--format", "json", "-o", "/dev/null", "-j%s" % j,
                                         "--fail-on", "never"], repeat)
    for name, b in extra_bins:
        row[name] = median_of([b, *paths, "--format", "json", "-o", "/dev/null", "-j1", "--fail-on", "never"], repeat)
    if python:
        row["python"] = median_of([sys.executable, "-c", PY_AST, *paths], repeat)
    print("  %-28s %s" % (label, " ".join("%s=%.2fs" % (k, v["wall"]) for k, v in row.items()
                                          if isinstance(v, dict) and "wall" in v)), file=sys.stderr, flush=True)
    return row


def fmt_bytes(n):
    for unit, d in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n >= d:
            return "%.1f %s" % (n / d, unit)
    return "%d B" % n


def table(rows, jobs):
    j1 = "lint_j%s" % jobs[0]
    out = ["| input | files read | bytes read | lint -j%s wall (cpu) | %s | python ast wall (cpu) | cat wall (cpu) "
           "| lint / python wall (cpu) | lint / cat wall (cpu) | peak RSS | RSS / bytes |" %
           (jobs[0], " | ".join("lint -j%s wall (-j%s / -j%s)" % (j, jobs[0], j) for j in jobs[1:]) or "-"),
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        L, C = r[j1], r["cat"]
        P = r.get("python")
        others = " | ".join("%.2f s (x%.2f)" % (r["lint_j%s" % j]["wall"], L["wall"] / r["lint_j%s" % j]["wall"])
                            for j in jobs[1:]) or "-"
        out.append("| %s | %d | %s | %.2f s (%.2f s) | %s | %s | %.2f s (%.2f s) | %s | %.1fx (%.1fx) | %s | %.2fx |" % (
            r["label"], r["files"], fmt_bytes(r["bytes"]), L["wall"], L["cpu"], others,
            "%.2f s (%.2f s)" % (P["wall"], P["cpu"]) if P else "-", C["wall"], C["cpu"],
            "%.2f (%.2f)" % (L["wall"] / P["wall"], L["cpu"] / P["cpu"]) if P else "-",
            L["wall"] / C["wall"], L["cpu"] / max(C["cpu"], 1e-3), fmt_bytes(L["rss"]), L["rss"] / r["bytes"]))
    return "\n".join(out)


def make_hostile(fixtures, out):
    """Copies of the s2_cuda capture's compile folders (no logs; s2_cpu's for a C++ shape) whose
    forward output_code.py (or fx_graph_readable.py) is made hostile, one way each: (label, path)."""
    src = os.path.join(fixtures, "s2_cuda", "torch_compile_debug")
    small_fn = ("\n@triton.jit\ndef k{i}(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):\n"
                "    xoffset = tl.program_id(0) * XBLOCK\n    xindex = xoffset + tl.arange(0, XBLOCK)[:]\n"
                "    tmp0 = tl.load(in_ptr0 + (xindex), None)\n    tl.store(out_ptr0 + (xindex), tmp0, None)\n")
    kernel = "triton_per_fused_add_cumsum_div_expand_mul_slice_sub_view_0"
    launch = ("            buf{i} = empty_strided_cuda((8, 1, 5, 15), (75, 600, 15, 1), torch.float32)\n"
              "            " + kernel + ".run(buf{i}, primals_2, primals_1, 40, 15, stream=stream0)\n")
    node = '        add_{i}: "bf16[8, 1, 5, 15]" = torch.ops.aten.add.Tensor(slice_3, slice_4)\n'

    def before(marker, lines):
        # The text with `lines` inserted before the first line that holds `marker`.
        def make(t):
            at = t.index(marker.encode())
            at = t.rindex(b"\n", 0, at) + 1
            return t[:at] + lines.encode() + t[at:]
        return make
    def dense_kernels(count, stmts, distinct=False):
        # `count` copies of the compile's Triton kernel, each renamed and with `stmts` statements
        # more: many kernels under the per-kernel limit, whose bytes are nearly all statements.
        # With `distinct`, every statement names three variables no other statement names.
        close = "'" * 3 + ", device_str='cuda')"
        def make(t):
            s = t.decode()
            start = s.index(kernel + " = async_compile.triton(")
            end = s.index(close, start) + len(close) + 1
            body = s[start:end]
            at = body.rindex(close)
            copies = []
            for n in range(count):
                if distinct:
                    k = n * stmts
                    lines = "".join("    t%d = t%d * t%d\n" % (k + i, k + i + 10**7, k + i + 2 * 10**7) for i in range(stmts))
                else:
                    lines = "".join("    tmp%d = tmp12 * tmp11\n" % i for i in range(13, 13 + stmts))
                copies.append((body[:at] + lines + body[at:]).replace(kernel, "%s_copy%d" % (kernel, n)))
            return (s[:end] + "".join(copies) + s[end:]).encode()
        return make
    def cpp_chains(count, stmts):
        # `count` copies of the compile's first C++ kernel, renamed, each with `stmts` locals more
        # in its innermost block (`auto t5 = t4 * t4;`): the hand reader reads them all.
        cpp = "cpp_fused_add_expand_mul_slice_sub_view_0"
        def make(t):
            s = t.decode()
            start = s.index(cpp + " = async_compile.cpp_pybinding(")
            end = s.index("\n''')\n", start) + 6
            body = s[start:end]
            at = body.index("                        tmp9.store(")
            copies = []
            for n in range(count):
                lines = "                        auto t0 = tmp9 * tmp9;\n" + "".join(
                    "                        auto t%d = t%d * t%d;\n" % (i, i - 1, i - 1) for i in range(1, stmts))
                copies.append((body[:at] + lines + body[at:]).replace(cpp, "%s_copy%d" % (cpp, n)))
            return (s[:end] + "".join(copies) + s[end:]).encode()
        return make
    rng = random.Random(1)
    shapes = [
        ("1 MB of `$` on one line", "output_code.py", lambda t: t + b"$" * 1000000),
        ("100k lines of `$`", "output_code.py", lambda t: t + b"$\n" * 100000),
        ("10 MB of random bytes", "output_code.py",
         lambda t: t + bytes(rng.randrange(256) for _ in range(10000000))),
        ("the file as UTF-16", "output_code.py", lambda t: t.decode("utf-8").encode("utf-16")),
        ("20 MB of small @triton.jit functions", "output_code.py",
         lambda t: t + "".join(small_fn.format(i=i) for i in range(80000)).encode()),
        # Plausible shapes of a very large compile, at the size of the hostile ones.
        ("one Triton kernel of 20 MB", "output_code.py",
         before("'" * 3 + ", device_str='cuda')",
                "".join("    tmp%d = tmp12 * tmp11\n" % i for i in range(13, 800000)))),
        ("80 Triton kernels of 256 KB", "output_code.py", dense_kernels(80, 10000)),
        ("80 Triton kernels of 256 KB, every name distinct", "output_code.py", dense_kernels(80, 10000, True)),
        ("a call function of 20 MB", "output_code.py",
         before("        return (buf1", "".join(launch.format(i=i) for i in range(2, 110000)))),
        ("an FX graph of 20 MB", "fx_graph_readable.py",
         before("        return (div", "".join(node.format(i=i) for i in range(250000)))),
        # s2_cpu's: a C++ kernel's block of many locals, each declared from the one before.
        ("48 C++ kernels of 8,000 chained locals", "output_code.py", cpp_chains(48, 8000), "s2_cpu"),
    ]
    rows = []
    for n, (label, name, make, *capture) in enumerate(shapes):
        dst = os.path.join(out, "h%d" % n, "torch_compile_debug")
        shutil.rmtree(dst, ignore_errors=True)
        shutil.copytree(os.path.join(fixtures, capture[0], "torch_compile_debug") if capture else src, dst)
        for d, _, names in os.walk(dst):
            if name in names and "forward" in d:
                p = os.path.join(d, name)
                with open(p, "rb") as f:
                    text = f.read()
                with open(p, "wb") as f:
                    f.write(make(text))
        rows.append((label, os.path.dirname(dst)))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="inductor-lint binary")
    ap.add_argument("--baseline-bin", help="a second inductor-lint (e.g. before a change), run -j1 on the same sets")
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--work", required=True, help="folder for the generated corpus (removed unless --keep)")
    ap.add_argument("--kernels", type=int, default=100000, help="kernels in the largest corpus")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement on fixtures (median)")
    ap.add_argument("--corpus-repeat", type=int, default=1, help="runs per measurement on the corpus (median)")
    ap.add_argument("--jobs", default="1,2", help="-j values to run, numbers or auto (first one is the reference)")
    ap.add_argument("--skip-fixtures", action="store_true")
    ap.add_argument("--skip-hostile", action="store_true", help="skip the hostile inputs (docs/security.md)")
    ap.add_argument("--skip-varied", action="store_true", help="skip the varied corpus (with C++ kernels)")
    ap.add_argument("--skip-identical", action="store_true")
    ap.add_argument("--skip-triton", action="store_true", help="skip the Triton-only corpus (make_corpus.py --no-cpp)")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--report-formats", default="",
                    help="also time these report formats (e.g. text,sarif,html) on the full varied corpus, "
                         "-j as the first --jobs, against json")
    ap.add_argument("--json", help="write the raw numbers here")
    ap.add_argument("--render", help="print the tables of a --json file from an earlier run, and exit")
    a = ap.parse_args()
    if a.render:
        with open(a.render) as f:
            d = json.load(f)
        report(d["fixtures"], d["corpus"], d["corpus_info"], [j.strip() for j in a.jobs.split(",")],
               d.get("repeat", a.repeat), d.get("corpus_repeat", a.corpus_repeat), d.get("baseline"), d.get("bin"))
        hostile_formats_table(d["corpus"], [j.strip() for j in a.jobs.split(",")])
        formats_table(d.get("report_formats", []), [j.strip() for j in a.jobs.split(",")])
        for mode, text in d.get("stage_times", {}).items():
            print("\n--time-report, full %s corpus, -j1:\n\n```\n%s```" % (mode, text))
        return
    a.bin = os.path.abspath(a.bin)
    jobs = [j.strip() for j in a.jobs.split(",")]
    extra = [("baseline_j1", os.path.abspath(a.baseline_bin))] if a.baseline_bin else []
    os.makedirs(a.work, exist_ok=True)
    scratch = tempfile.mkdtemp(dir=a.work)
    here = os.path.dirname(os.path.abspath(__file__))

    fixture_rows, corpus_rows = [], []
    corpus_info = {}
    stage_times = {}
    report_formats = []

    def save():
        # After every set, so a long run that is stopped still leaves what it measured (--render).
        if a.json:
            with open(a.json, "w") as f:
                json.dump({"fixtures": fixture_rows, "corpus": corpus_rows, "corpus_info": corpus_info,
                           "repeat": a.repeat, "corpus_repeat": a.corpus_repeat, "baseline": a.baseline_bin,
                           "bin": a.bin, "stage_times": stage_times, "report_formats": report_formats}, f, indent=1)
    if not a.skip_fixtures:
        print("fixtures:", file=sys.stderr)
        names = sorted(n for n in os.listdir(a.fixtures) if os.path.isdir(os.path.join(a.fixtures, n)))
        for n in names:
            p = os.path.join(os.path.abspath(a.fixtures), n)
            files = files_opened(a.bin, [p], scratch) or files_by_name([p])
            fixture_rows.append(bench_set(a, n, [p], files, a.repeat, jobs, workdir=scratch, extra_bins=extra))
            save()

    if not a.skip_hostile:
        # The hostile set (docs/security.md): a real capture with one output_code.py made hostile.
        print("hostile inputs:", file=sys.stderr)
        for label, path in make_hostile(a.fixtures, os.path.join(a.work, "hostile")):
            files = files_opened(a.bin, [path], scratch) or files_by_name([path])
            row = bench_set(a, "hostile: " + label, [path], files, a.repeat, jobs, python=False,
                            workdir=scratch, extra_bins=extra)
            # Every report format holds the bound: each keeps its own things (the text report's
            # quoted lines, the HTML page's kernel sources and per-compile data).
            out_file = os.path.join(scratch, "report")
            row["format_rss"] = {fmt: median_of([a.bin, path, "--format", fmt, "-o", out_file, "-j1", "--fail-on",
                                                 "never"], a.repeat)["rss"] for fmt in HOSTILE_FORMATS}
            os.remove(out_file)
            corpus_rows.append(row)
            save()
        if not a.keep:
            shutil.rmtree(os.path.join(a.work, "hostile"), ignore_errors=True)

    modes = ((() if a.skip_varied else ("varied",)) + (() if a.skip_identical else ("identical",)) +
             (() if a.skip_triton else ("triton",)))
    for mode in modes:
        out = os.path.join(a.work, mode)
        print("making the %s corpus (%d kernels)..." % (mode, a.kernels), file=sys.stderr, flush=True)
        info = json.loads(subprocess.check_output([sys.executable, os.path.join(here, "make_corpus.py"), "--fixtures",
                                                   a.fixtures, "--out", out, "--kernels", str(a.kernels),
                                                   "--shards", "4", "--mode", "identical" if mode == "identical"
                                                   else "varied"] + (["--no-cpp"] if mode == "triton" else [])))
        corpus_info[mode] = info
        shards = sorted(os.path.join(out, s) for s in os.listdir(out))
        all_files = files_opened(a.bin, shards, scratch) or files_by_name(shards)
        sizes = [1, 2, 4] if mode == "varied" else [4]
        for k in sizes:
            paths = shards[:k]
            files = [f for f in all_files if any(f.startswith(s + "/") for s in paths)]
            label = "corpus %s %d/4 (%d kernels)" % (mode, k, info["kernels"] * k // 4)
            row = bench_set(a, label, paths, files, a.corpus_repeat, jobs, python=(mode != "identical"),
                            workdir=scratch, extra_bins=extra)
            row["kernels"] = info["kernels"] * k // 4
            corpus_rows.append(row)
            save()
        if mode == "varied" and a.report_formats:
            # Each report format on the full set: the same analysis, then a report of another size
            # (HTML embeds every kernel's source and FX graph). Written to a file to count its bytes.
            all_bytes = sum(os.path.getsize(f) for f in all_files)
            for fmt in ["json"] + [f.strip() for f in a.report_formats.split(",") if f.strip() not in ("", "json")]:
                out_file = os.path.join(scratch, "report." + fmt)
                cmd = [a.bin, *shards, "--format", fmt, "-o", out_file, "-j" + jobs[0], "--fail-on", "never"]
                m = median_of(cmd, a.corpus_repeat)
                m["format"], m["out_bytes"], m["bytes"] = fmt, os.path.getsize(out_file), all_bytes
                os.remove(out_file)
                report_formats.append(m)
                print("  format %-6s wall=%.2fs rss=%s out=%s" % (fmt, m["wall"], fmt_bytes(m["rss"]),
                                                                 fmt_bytes(m["out_bytes"])), file=sys.stderr, flush=True)
                save()
        # Where the time goes on the full set: the analyzer's own --time-report, -j1.
        p = subprocess.run([a.bin, *shards, "--format", "json", "-o", "/dev/null", "-j1", "--fail-on", "never",
                            "--time-report"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        stage_times[mode] = p.stderr
        save()
        if not a.keep:
            shutil.rmtree(out)
    shutil.rmtree(scratch, ignore_errors=True)

    save()
    report(fixture_rows, corpus_rows, corpus_info, jobs, a.repeat, a.corpus_repeat, a.baseline_bin, a.bin)
    hostile_formats_table(corpus_rows, jobs)
    formats_table(report_formats, jobs)
    for mode, text in stage_times.items():
        print("\n--time-report, full %s corpus, -j1:\n\n```\n%s```" % (mode, text))


HOSTILE_FORMATS = ("text", "sarif", "html")


def hostile_formats_table(rows, jobs):
    rows = [r for r in rows if "format_rss" in r]
    if not rows:
        return
    print("\nPeak RSS over bytes read by report format, hostile inputs (-j1; json: -j%s, as in the table above):\n"
          % jobs[0])
    print("| input | bytes read | json | %s |" % " | ".join(HOSTILE_FORMATS))
    print("|---|---:|---:|" + "---:|" * len(HOSTILE_FORMATS))
    for r in rows:
        print("| %s | %s | %.2fx | %s |" % (r["label"].replace("hostile: ", ""), fmt_bytes(r["bytes"]),
                                            r["lint_j%s" % jobs[0]]["rss"] / r["bytes"],
                                            " | ".join("%.2fx" % (r["format_rss"][f] / r["bytes"]) for f in HOSTILE_FORMATS)))


def formats_table(rows, jobs):
    if not rows:
        return
    base = rows[0]
    print("\nReport formats (full varied corpus, -j%s, median of %d):\n" % (jobs[0], base["n"]))
    print("| format | wall (cpu) | x json wall | peak RSS | RSS / bytes read | report size |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        print("| %s | %.2f s (%.2f s) | x%.2f | %s | %.2fx | %s |" % (
            r["format"], r["wall"], r["cpu"], r["wall"] / base["wall"], fmt_bytes(r["rss"]), r["rss"] / r["bytes"],
            fmt_bytes(r["out_bytes"])))


def report(fixture_rows, corpus_rows, corpus_info, jobs, repeat, corpus_repeat, baseline_bin, this_bin):
    print()
    if fixture_rows:
        print("Fixtures (real captures; median of %d runs each):\n" % repeat)
        print(table(fixture_rows, jobs))
        tot = {"label": "**all fixtures, summed**", "files": sum(r["files"] for r in fixture_rows),
               "bytes": sum(r["bytes"] for r in fixture_rows)}
        for key in [k for k in fixture_rows[0] if isinstance(fixture_rows[0][k], dict)]:
            tot[key] = {m: sum(r[key][m] for r in fixture_rows) for m in ("wall", "cpu")}
            tot[key]["rss"] = max(r[key]["rss"] for r in fixture_rows)
        print(table([tot], jobs).split("\n", 2)[2])
        print()
    if corpus_rows:
        print("Replicated corpus (%s; %d run(s) per measurement):\n" % (
            ", ".join("%s: %d compiles, %d kernels" % (m, i["compiles"], i["kernels"]) for m, i in corpus_info.items()),
            corpus_repeat))
        print(table(corpus_rows, jobs))
        print()
        v = [r for r in corpus_rows if r["label"].startswith("corpus varied")]
        j1 = "lint_j%s" % jobs[0]
        if len(v) >= 2:
            print("Scaling (varied corpus, lint -j%s, CPU time): " % jobs[0] + ", ".join(
                "%s -> %.1f s/GB, %.0f us/kernel" % (fmt_bytes(r["bytes"]), r[j1]["cpu"] / (r["bytes"] / 1e9),
                                                    r[j1]["cpu"] * 1e6 / r["kernels"]) for r in v))
        # Where the CPU time is spent in the kernel: on a virtual machine, file opens and page faults
        # can cost as much as the parsing (docs/performance.md, 'Few system calls per file').
        if all("sys" in r[j1] for r in corpus_rows):
            print("\nSystem time and minor page faults (same runs):\n")
            print("| input | " + " | ".join("lint -j%s sys (faults)" % j for j in jobs) +
                  " | python sys | cat sys |")
            print("|---|" + "---:|" * (len(jobs) + 2))
            for r in corpus_rows:
                P = r.get("python")
                print("| %s | %s | %s | %.2f s |" % (
                    r["label"], " | ".join("%.2f s (%dk)" % (r["lint_j%s" % j]["sys"], r["lint_j%s" % j]["minflt"] / 1000)
                                           for j in jobs),
                    "%.2f s" % P["sys"] if P else "-", r["cat"]["sys"]))
        if baseline_bin and v and "baseline_j1" in v[0]:
            print("\nBaseline binary %s (-j1) vs %s (-j1), same sets, same run:\n" % (baseline_bin, this_bin))
            print("| input | baseline wall (cpu) | this wall (cpu) | speed-up wall (cpu) | baseline RSS | this RSS |")
            print("|---|---:|---:|---:|---:|---:|")
            for r in corpus_rows:
                b, t = r["baseline_j1"], r["lint_j1"]
                print("| %s | %.2f s (%.2f s) | %.2f s (%.2f s) | x%.2f (x%.2f) | %s | %s |" % (
                    r["label"], b["wall"], b["cpu"], t["wall"], t["cpu"], b["wall"] / t["wall"], b["cpu"] / t["cpu"],
                    fmt_bytes(b["rss"]), fmt_bytes(t["rss"])))


if __name__ == "__main__":
    main()
