#!/usr/bin/env python3
"""Run a Python program under torch.compile's debug switches and pack the result as a fixture.

Every fixture the project adds comes from this tool, so that each one is a real PyTorch run
with the same layout as fixtures/s2_cuda:

    <out>/<name>/program.py            the program, copied
    <out>/<name>/stdout.txt            what the program printed (what it measured), then "rc=N"
    <out>/<name>/stderr.txt            the TORCH_LOGS text (graph_breaks,recompiles,guards,dynamic[,output_code])
    <out>/<name>/trace/                the TORCH_TRACE structured log
    <out>/<name>/torch_compile_debug/  TORCH_COMPILE_DEBUG=1 output (run_*/torchdynamo, run_*/torchinductor/...)
    <out>/<name>/versions.json         torch, triton, CUDA, GPU, python; and how the capture was made

Usage:
    python3 tools/capture.py --name s2_cuda [--out fixtures] [--env K=V ...] [--output-code]
                             [--fx-json] [--timeout S] PROGRAM [ARGS...]

Only the standard library is used here; torch is needed only by the program (and for versions.json,
which is read with the same interpreter). The Inductor cache lives in a fresh folder inside the
capture while the program runs (so each capture compiles cold and captures do not share artifacts,
unless --env TORCHINDUCTOR_CACHE_DIR=... names a shared one), and is deleted afterwards.
"""
import argparse
import datetime
import json
import os
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_LOGS = "graph_breaks,recompiles,guards,dynamic"

VERSIONS_SNIPPET = r"""
import json, platform, sys
info = {"python": sys.version.split()[0], "platform": platform.platform()}
try:
    import torch
    info["torch"] = torch.__version__
    info["torch_git"] = getattr(torch.version, "git_version", None)
    info["cuda"] = torch.version.cuda
    info["cuda_available"] = torch.cuda.is_available()
    if torch.cuda.is_available():
        info["gpu"] = torch.cuda.get_device_name(0)
        cap = torch.cuda.get_device_capability(0)
        info["gpu_capability"] = "sm_%d%d" % cap
        info["gpu_count"] = torch.cuda.device_count()
except Exception as e:  # versions.json must still be written when torch is missing
    info["torch_error"] = repr(e)
try:
    import triton
    info["triton"] = triton.__version__
except Exception as e:
    info["triton"] = None
print(json.dumps(info))
"""


def parse_env(pairs):
    env = {}
    for p in pairs:
        if "=" not in p:
            raise SystemExit("capture.py: --env wants K=V, got %r" % p)
        k, v = p.split("=", 1)
        env[k] = v
    return env


def read_versions(python, env):
    try:
        r = subprocess.run([python, "-c", VERSIONS_SNIPPET], capture_output=True, text=True,
                           timeout=120, env=env)
        return json.loads(r.stdout.strip().splitlines()[-1])
    except Exception as e:  # keep going: a capture without versions is still a capture
        return {"error": "could not read versions: %r" % (e,)}


class _Terminated(Exception):
    pass


def run_program(cmd, env, cwd, stdout_path, stderr_path, timeout):
    """Run cmd in its own process group so a timeout kills the whole tree (compile workers too)."""
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        t0 = time.time()
        proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=out, stderr=err, start_new_session=True)

        def on_term(_sig, _frm):  # an outer `timeout` stops us: stop the program, still pack what it wrote
            raise _Terminated()
        old = signal.signal(signal.SIGTERM, on_term)
        try:
            rc = proc.wait(timeout=timeout)
        except (subprocess.TimeoutExpired, _Terminated) as ex:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
            rc = 124 if isinstance(ex, subprocess.TimeoutExpired) else 143
        finally:
            signal.signal(signal.SIGTERM, old)
        return rc, time.time() - t0


def drop_trace_events(trace_dir, kinds):
    """Remove whole TORCH_TRACE events of the given kinds (envelope line + its tab-indented payload).
    chromium_event (compile-time profiling spans) is about half of a trace and no rule reads it."""
    removed = 0
    if not kinds or not os.path.isdir(trace_dir):
        return removed
    keys = ['{"%s":' % k for k in kinds]
    for f in sorted(os.listdir(trace_dir)):
        p = os.path.join(trace_dir, f)
        if not os.path.isfile(p):
            continue
        out, skipping = [], False
        with open(p, "r", errors="surrogateescape") as fh:
            for line in fh:
                if line.startswith("\t"):
                    if not skipping:
                        out.append(line)
                    continue
                i = line.find("] {")
                skipping = i >= 0 and any(line.startswith(k, i + 2) for k in keys)
                if skipping:
                    removed += 1
                else:
                    out.append(line)
        with open(p, "w", errors="surrogateescape") as fh:
            fh.writelines(out)
    return removed


def compile_folders(debug_root):
    """Yield (run_dir, compile_dir) for every torchinductor/<model>__* folder."""
    if not os.path.isdir(debug_root):
        return
    for run in sorted(os.listdir(debug_root)):
        ind = os.path.join(debug_root, run, "torchinductor")
        if not os.path.isdir(ind):
            continue
        for d in sorted(os.listdir(ind)):
            p = os.path.join(ind, d)
            if os.path.isdir(p):
                yield run, p


def harvest_cpp_wrappers(cache_dir, dest):
    """Copy C++ wrapper sources (inductor_entry_impl / AOTInductorModel::run_impl) found in the
    Inductor cache into dest/cpp_wrapper/. Used when output_code.py does not embed them."""
    found = []
    if not os.path.isdir(cache_dir):
        return found
    for root, _dirs, files in os.walk(cache_dir):
        for f in files:
            if not f.endswith((".cpp", ".cc")):
                continue
            p = os.path.join(root, f)
            try:
                with open(p, "r", errors="replace") as fh:
                    text = fh.read()
            except OSError:
                continue
            if "inductor_entry_impl" in text or "AOTInductorModel::run_impl" in text:
                os.makedirs(os.path.join(dest, "cpp_wrapper"), exist_ok=True)
                shutil.copy2(p, os.path.join(dest, "cpp_wrapper", f))
                found.append(f)
    return found


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--name", required=True, help="fixture folder name")
    # In the source tree, the repo's fixtures/; installed (the wheel's inductor_lint/tools/), ./captures.
    repo_fixtures = os.path.join(os.path.dirname(HERE), "fixtures")
    ap.add_argument("--out", default=repo_fixtures if os.path.isdir(repo_fixtures) else "captures",
                    help="folder that receives <name>/ (default: the repo's fixtures/ in the source tree, "
                         "else ./captures)")
    ap.add_argument("--env", action="append", default=[], metavar="K=V",
                    help="extra environment for the program (repeatable); wins over the defaults")
    ap.add_argument("--output-code", action="store_true", help="add output_code to TORCH_LOGS")
    ap.add_argument("--logs", default=None, help="TORCH_LOGS value (default %s)" % DEFAULT_LOGS)
    ap.add_argument("--fx-json", action="store_true",
                    help="run the program through tools/export_fx_json.py so every Inductor compile "
                         "folder also gets fx_graph.json")
    ap.add_argument("--timeout", type=float, default=540.0, help="seconds before the program is killed (rc 124)")
    ap.add_argument("--python", default=sys.executable or "python3", help="interpreter that runs the program")
    ap.add_argument("--max-ir-kb", type=int, default=256,
                    help="delete ir_pre_fusion.txt / ir_post_fusion.txt larger than this (KiB); -1 keeps all")
    ap.add_argument("--drop-trace-events", default="chromium_event",
                    help="comma list of TORCH_TRACE event kinds to delete after the run (default chromium_event; '' keeps all)")
    ap.add_argument("--keep-cache", action="store_true", help="keep the Inductor cache folder (.inductor_cache)")
    ap.add_argument("--harvest-cpp-wrappers", action="store_true",
                    help="copy C++ wrapper sources found in the Inductor cache into cpp_wrapper/ "
                         "when output_code.py does not contain them")
    ap.add_argument("--force", action="store_true", help="replace an existing fixture folder")
    ap.add_argument("program", help="the Python program to run")
    ap.add_argument("args", nargs=argparse.REMAINDER, help="arguments passed to the program")
    a = ap.parse_args(argv)

    if not os.path.isfile(a.program):
        print("capture.py: no such program: %s" % a.program, file=sys.stderr)
        return 2
    if a.args and a.args[0] == "--":
        a.args = a.args[1:]
    dest = os.path.abspath(os.path.join(a.out, a.name))
    if os.path.exists(dest):
        if not a.force:
            print("capture.py: %s exists (use --force to replace it)" % dest, file=sys.stderr)
            return 2
        shutil.rmtree(dest)
    os.makedirs(dest)
    program = os.path.abspath(a.program)
    shutil.copy2(program, os.path.join(dest, "program.py"))

    logs = a.logs if a.logs is not None else DEFAULT_LOGS
    if a.output_code and "output_code" not in logs.split(","):
        logs += ",output_code"
    scratch = os.path.join(dest, ".cwd")
    cache = os.path.join(dest, ".inductor_cache")
    os.makedirs(scratch)
    env = dict(os.environ)
    defaults = {
        "TORCH_COMPILE_DEBUG": "1",
        "TORCH_COMPILE_DEBUG_DIR": dest,  # torch writes <dir>/torch_compile_debug/run_*
        "TORCH_TRACE": os.path.join(dest, "trace"),
        "TORCH_LOGS": logs,
        "TORCHINDUCTOR_CACHE_DIR": cache,
        "PYTHONUNBUFFERED": "1",
    }
    env.update(defaults)
    user_env = parse_env(a.env)
    env.update(user_env)

    cmd = [a.python]
    if a.fx_json:
        cmd += [os.path.join(HERE, "export_fx_json.py"), "run", program]
    else:
        cmd += [program]
    cmd += a.args
    rc, wall = run_program(cmd, env, scratch, os.path.join(dest, "stdout.txt"),
                           os.path.join(dest, "stderr.txt"), a.timeout)
    with open(os.path.join(dest, "stdout.txt"), "a") as fh:
        fh.write("rc=%d\n" % rc)

    # torch versions that ignore TORCH_COMPILE_DEBUG_DIR write into the cwd: move that in.
    stray = os.path.join(scratch, "torch_compile_debug")
    target = os.path.join(dest, "torch_compile_debug")
    if os.path.isdir(stray):
        os.makedirs(target, exist_ok=True)
        for run in os.listdir(stray):
            shutil.move(os.path.join(stray, run), os.path.join(target, run))

    # What each compile folder holds, and whether a C++ wrapper is visible in it.
    summary = []
    dropped = []
    for run, cdir in compile_folders(target):
        files = sorted(os.listdir(cdir))
        if a.max_ir_kb >= 0:
            for f in ("ir_pre_fusion.txt", "ir_post_fusion.txt"):
                p = os.path.join(cdir, f)
                if os.path.isfile(p) and os.path.getsize(p) > a.max_ir_kb * 1024:
                    os.remove(p)
                    dropped.append(os.path.relpath(p, dest))
        oc = os.path.join(cdir, "output_code.py")
        cpp_wrapper = False
        if os.path.isfile(oc):
            with open(oc, "r", errors="replace") as fh:
                cpp_wrapper = "inductor_entry_impl" in fh.read()
        summary.append({"folder": os.path.relpath(cdir, dest), "files": files,
                        "output_code_has_cpp_wrapper": cpp_wrapper})

    trace_dropped = drop_trace_events(os.path.join(dest, "trace"),
                                      [k for k in a.drop_trace_events.split(",") if k])
    harvested = []
    if a.harvest_cpp_wrappers and not any(s["output_code_has_cpp_wrapper"] for s in summary):
        harvested = harvest_cpp_wrappers(cache, dest)

    versions = read_versions(a.python, env)
    versions["capture"] = {
        "name": a.name,
        "program": os.path.basename(program),
        "argv": a.args,
        "env": user_env,
        "torch_logs": logs,
        "fx_json": a.fx_json,
        "rc": rc,
        "wall_s": round(wall, 2),
        "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "compile_folders": summary,
        "dropped_files": dropped,
        "trace_events_dropped": {"kinds": a.drop_trace_events, "count": trace_dropped},
        "cpp_wrapper_harvested": harvested,
        "tool": "tools/capture.py",
    }
    with open(os.path.join(dest, "versions.json"), "w") as fh:
        json.dump(versions, fh, indent=1)
        fh.write("\n")

    shutil.rmtree(scratch, ignore_errors=True)
    if not a.keep_cache:
        shutil.rmtree(cache, ignore_errors=True)
    print("capture %s: rc=%d %.1fs, %d compile folders -> %s" % (a.name, rc, wall, len(summary), dest))
    return 0 if rc == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
