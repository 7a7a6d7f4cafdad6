#!/usr/bin/env python3
"""Confirm a static finding by re-executing what torch.compile produced (protocol: docs/confirm-protocol.md).

Reads one JSON request on stdin (or --request FILE), writes one JSON document on stdout:

  graph mode   load <compile_dir>/fx_graph_runnable.py as a module (its __main__ block is not run),
               build inputs from its load_args with fresh random values for each seed, run the graph
               eagerly, compiled with Inductor (compile_fx_inner, under the config lines the runnable
               records) and eagerly in float64, and judge each output with the rule of
               torch._dynamo.utils.same(): compiled passes if RMSE(compiled, fp64) <=
               multiplier * RMSE(eager, fp64) + tol/10.
  script mode  (request "script", or --script PROGRAM [ARGS...]) run the user's program three times,
               with every torch.compile'd callable forced to eager / aot_eager / inductor, record the
               outputs of every call, and report the divergence per call (per iteration).

Verdicts: confirmed | precision-artifact | not-reproduced | skipped (with a reason code).
Only the standard library is needed to start; without torch the answer is `skipped` / `no-torch`.
"""
import argparse
import contextlib
import copy
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

_T_START = time.time()  # for timing_s.process: this process's wall time, torch import included
PROTOCOL = 1
TOOL = "tools/confirm.py"
SCALAR_RULES = {"stale-scalar", "scalar-recompile"}
# Findings that one graph re-run on random inputs cannot show: a stale constant (other values of the
# scalar), an output aliasing an input (equal values; only the caller's own in-place update shows it).
NEEDS_SCRIPT = SCALAR_RULES | {"output-aliases-input"}
# Environment lines of a runnable that would make our process write debug output elsewhere.
_ENV_LINE = re.compile(r"^os\.environ\[['\"](TORCH_COMPILE_DEBUG|TORCH_TRACE|TORCH_LOGS|TORCHINDUCTOR_CACHE_DIR|"
                       r"TORCH_COMPILE_DEBUG_DIR)['\"]\]\s*=")
_CONFIG_LINE = re.compile(r"^(torch\.(?:_dynamo|_inductor|_functorch|fx\.experimental\._config)[\w.]*)\s*=\s*(.+)$")


class Timeout(Exception):
    pass


# ---------------------------------------------------------------- request / answer


def answer(req, mode, verdict, reason=None, detail=None, **extra):
    doc = {"protocol": PROTOCOL, "tool": TOOL, "mode": mode, "verdict": verdict, "reason": reason,
           "detail": detail}
    f = (req or {}).get("finding") or {}
    doc["finding"] = {k: f.get(k) for k in ("rule", "fingerprint", "message") if k in f}
    doc["compile_dir"] = (req or {}).get("compile_dir")
    doc.update(extra)
    return doc


def environment(torch, device):
    env = {"python": sys.version.split()[0], "torch": torch.__version__, "cuda": torch.version.cuda,
           "cuda_available": torch.cuda.is_available(), "device": device}
    if torch.cuda.is_available():
        env["gpu"] = torch.cuda.get_device_name(0)
    try:
        import triton
        env["triton"] = triton.__version__
    except Exception:
        env["triton"] = None
    return env


@contextlib.contextmanager
def stdout_to_stderr():
    """Anything the graph, Inductor or a compile worker prints must not corrupt our JSON on fd 1."""
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    old = sys.stdout
    sys.stdout = sys.stderr
    try:
        yield
    finally:
        sys.stdout.flush()
        sys.stdout = old
        os.dup2(saved, 1)
        os.close(saved)


@contextlib.contextmanager
def alarm(seconds):
    if not seconds or seconds <= 0 or not hasattr(signal, "SIGALRM"):
        yield
        return

    def on_alarm(_sig, _frm):
        raise Timeout("timed out after %ss" % seconds)
    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, float(seconds))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# ---------------------------------------------------------------- loading the runnable


def sanitize_runnable(text):
    """Return (source, config_lines): env lines that redirect debug output are dropped; each config
    line is kept but guarded, so a key this torch does not know is reported instead of aborting."""
    out, configs = [], []
    for ln in text.splitlines():
        if _ENV_LINE.match(ln):
            out.append("pass  # ilint: dropped " + ln.split("=")[0].strip())
            continue
        m = _CONFIG_LINE.match(ln)
        if m and not ln.startswith("torch._dynamo.config.patch"):
            configs.append(ln)
            out.append("try:\n    %s\nexcept Exception as _ilint_e:\n    _ILINT_CONFIG_ERRORS.append((%r, repr(_ilint_e)))"
                       % (ln, ln))
            continue
        out.append(ln)
    return "\n".join(fill_empty_bodies(out)) + "\n", configs


def fill_empty_bodies(lines):
    """A `def` with no body gets `pass`: torch writes `def load_args(reader):` and nothing under it for a
    graph that takes no input (an arange times a constant), which is not Python."""
    out = []
    for i, ln in enumerate(lines):
        out.append(ln)
        m = re.match(r"^(\s*)def \w+\(.*\)\s*(->.*)?:\s*$", ln)
        if not m:
            continue
        nxt = next((l for l in lines[i + 1:] if l.strip()), "")
        if len(nxt) - len(nxt.lstrip()) <= len(m.group(1)):
            out.append(m.group(1) + "    pass  # ilint: the body torch left empty")
    return out


def load_runnable(path):
    """Execute the runnable's module body under a module name that is not __main__."""
    import types
    with open(path, "r", errors="replace") as fh:
        text = fh.read()
    src, configs = sanitize_runnable(text)
    mod = types.ModuleType("ilint_runnable")
    mod.__file__ = path
    mod.__dict__["_ILINT_CONFIG_ERRORS"] = []
    code = compile(src, path, "exec")
    exec(code, mod.__dict__)
    if not hasattr(mod, "Repro") or not hasattr(mod, "load_args"):
        raise ValueError("%s defines no Repro / load_args" % path)
    return mod, configs, list(mod.__dict__["_ILINT_CONFIG_ERRORS"])


def make_reader(torch, device):
    from torch._dynamo.debug_utils import InputReader

    class Reader(InputReader):
        """InputReader that generates random data (no saved tensors) on the requested device."""
        def __init__(self):
            super().__init__(save_dir=None)

        def storage(self, storage_hash, nbytes, *, device=None, dtype_hint=None):
            return super().storage(None, nbytes, device=self._dev(device), dtype_hint=dtype_hint)

        def _dev(self, d):
            if self.target is None:
                return d
            return torch.device(self.target)
    Reader.target = device
    return Reader


def trace_repro(torch, mod, device):
    """Symbolically trace Repro so dtypes and devices in the graph can be rewritten."""
    import torch.fx
    gm = torch.fx.symbolic_trace(mod.Repro())
    if device is not None:
        changed = False
        for n in gm.graph.nodes:
            if "device" in n.kwargs and isinstance(n.kwargs["device"], torch.device) \
                    and n.kwargs["device"].type != torch.device(device).type:
                kw = dict(n.kwargs)
                kw["device"] = torch.device(device)
                n.kwargs = kw
                changed = True
        if changed:
            gm.recompile()
        gm = gm.to(device)
        map_constants(torch, gm, lambda t: t.to(device))
    return gm


def map_constants(torch, gm, fn, only=None):
    """Apply fn to the tensor constants that get_attr nodes read. symbolic_trace runs factory calls
    that take no graph value (aten.full(..., dtype=bf16)) at trace time and keeps their results as
    plain attributes, which nn.Module.to() does not move and a dtype rewrite does not reach."""
    n_changed = 0
    for n in gm.graph.nodes:
        if n.op != "get_attr":
            continue
        owner, _, last = n.target.rpartition(".")
        mod = gm.get_submodule(owner) if owner else gm
        t = getattr(mod, last, None)
        if not isinstance(t, torch.Tensor) or (only is not None and not only(t)):
            continue
        new = fn(t.detach())
        if isinstance(t, torch.nn.Parameter):
            new = torch.nn.Parameter(new, requires_grad=False)
        if last in mod._buffers:
            mod._buffers[last] = new
        elif last in mod._parameters:
            mod._parameters[last] = new
        else:
            setattr(mod, last, new)
        n_changed += 1
    return n_changed


def to_fp64_graph(torch, gm):
    """Copy of gm with every floating dtype argument (convert_element_type, dtype=...) set to float64,
    as torch._dynamo.debug_utils.cast_to_fp64 does for convert_element_type."""
    g = copy.deepcopy(gm)
    low = {torch.float16, torch.bfloat16, torch.float32}

    def fix(a):
        if isinstance(a, torch.dtype) and a in low:
            return torch.float64
        if isinstance(a, (list, tuple)):
            return type(a)(fix(x) for x in a)
        return a
    rewrites = 0
    for n in g.graph.nodes:
        if n.op == "call_function":
            args, kwargs = fix(tuple(n.args)), {k: fix(v) for k, v in n.kwargs.items()}
            if args != tuple(n.args) or kwargs != dict(n.kwargs):
                rewrites += 1
            n.args, n.kwargs = args, kwargs
    rewrites += map_constants(torch, g, lambda t: t.double(), only=lambda t: t.dtype in low)
    g.recompile()
    g.ilint_fp64_rewrites = rewrites
    return g


# ---------------------------------------------------------------- comparing


def clone_args(torch, args, fp64=False):
    out = []
    for a in args:
        if isinstance(a, torch.Tensor):
            t = a.detach().clone()
            if fp64 and t.is_floating_point():
                t = t.double()
            if a.requires_grad and (t.is_floating_point() or t.is_complex()):
                t.requires_grad_(False)
            out.append(t)
        else:
            out.append(a)
    return out


def nonfinite(torch, values):
    return sum(int((~torch.isfinite(v)).sum()) for v in values
               if isinstance(v, torch.Tensor) and (v.is_floating_point() or v.is_complex()))


def tame(torch, a):
    """'tame' input init: floating tensors of 2+ dims scaled by 1/sqrt(fan-in) (numel / size(0)), as a
    weight would be; 0-d / 1-d floating tensors made non-negative (variances, scales, step counts)."""
    if not isinstance(a, torch.Tensor) or not a.is_floating_point():
        return a
    t = a.detach().clone()
    if t.ndim >= 2 and t.numel() > 0:
        t.mul_(1.0 / math.sqrt(max(1, t.numel() // max(1, t.shape[0]))))
    else:
        t.abs_()
    return t


def flatten(torch, x):
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (list, tuple)):
        r = []
        for y in x:
            r += flatten(torch, y)
        return r
    return [x]


def same_multiplier(torch, res, numel, ndim, shape, tol):
    """The multiplier of torch._dynamo.utils.same() (use_larger_multiplier_for_smaller_tensor=False)."""
    m = 3.0 if res.dtype in (torch.float16, torch.bfloat16) else 2.0
    if numel < 1000 or (ndim == 4 and shape[-1] == shape[-2] == 1) or tol >= 2e-2:
        m = 3.0
    return m


def _stats(torch, a, ref, mask):
    d = (a.double() - ref.double())
    if mask is not None:
        d = d[mask]
        ref = ref[mask]
    if d.numel() == 0:
        return {"max_abs": 0.0, "max_rel": 0.0, "rmse": 0.0}
    ad = d.abs()
    rel = ad / ref.double().abs().clamp_min(1e-12)
    return {"max_abs": float(ad.max()), "max_rel": float(rel.max()), "rmse": float(torch.sqrt((d * d).mean()))}


def compare_one(torch, eager, compiled, fp64, tol):
    """One output: the same()-style judgement and the numbers behind it."""
    if not isinstance(eager, torch.Tensor) or not isinstance(compiled, torch.Tensor):
        ok = (eager == compiled) if not isinstance(eager, float) else math.isclose(eager, compiled, rel_tol=tol, abs_tol=tol)
        return {"kind": type(eager).__name__, "agree": bool(ok), "judgement": "agree" if ok else "compiled-worse",
                "eager": repr(eager), "compiled": repr(compiled)}
    r = {"dtype": str(eager.dtype).replace("torch.", ""), "shape": list(eager.shape), "numel": eager.numel()}
    e, c = eager.detach().cpu(), compiled.detach().cpu()
    if e.shape != c.shape:
        r.update(agree=False, judgement="compiled-worse", note="shape mismatch %s vs %s" % (list(e.shape), list(c.shape)))
        return r
    if e.dtype != c.dtype:
        r["compiled_dtype"] = str(c.dtype).replace("torch.", "")
    if not (e.is_floating_point() or e.is_complex()):
        # Integers and booleans: equal or not, and of eager's dtype or not (a uint8 result that the
        # compiled graph returns as int64 does not wrap where eager's does).
        differ = e.double() != c.double()
        ok = not bool(differ.any()) and e.dtype == c.dtype
        r["mismatched"] = int(differ.sum())
        note = "exact comparison (not floating)"
        if e.dtype != c.dtype:
            note += "; dtype %s compiled, %s eager" % (r["compiled_dtype"], r["dtype"])
        r.update(agree=ok, judgement="agree" if ok else "compiled-worse", note=note, exact=True)
        return r
    allclose = bool(torch.allclose(e.float(), c.float(), atol=tol, rtol=tol, equal_nan=True))
    if e.dtype != c.dtype:
        # Another dtype than eager's is a divergence whatever the values: the caller's next op
        # computes in it.
        r["note"] = "dtype %s compiled, %s eager" % (r["compiled_dtype"], r["dtype"])
        allclose = False
    fin = torch.isfinite(e) & torch.isfinite(c)
    r["allclose"] = allclose
    r["eager_vs_compiled"] = _stats(torch, c, e, fin)
    r["nonfinite"] = {"eager": int((~torch.isfinite(e)).sum()), "compiled": int((~torch.isfinite(c)).sum())}
    if fp64 is None or not isinstance(fp64, torch.Tensor) or fp64.shape != e.shape:
        r.update(agree=allclose, judgement="agree" if allclose else "no-fp64-reference")
        return r
    f = fp64.detach().cpu().double()
    ffin = torch.isfinite(f)
    mask = ffin & torch.isfinite(e) & torch.isfinite(c)
    r["nonfinite"]["fp64"] = int((~ffin).sum())
    r["eager_vs_fp64"] = _stats(torch, e, f, mask)
    r["compiled_vs_fp64"] = _stats(torch, c, f, mask)
    mult = same_multiplier(torch, c, e.numel(), e.ndim, list(e.shape), tol)
    r["multiplier"] = mult
    r["tol"] = tol
    ref_err, res_err = r["eager_vs_fp64"]["rmse"], r["compiled_vs_fp64"]["rmse"]
    passes = res_err <= mult * ref_err + tol / 10.0
    # compiled producing inf/nan where fp64 and eager are finite is worse whatever the RMSE says
    c_bad = int((ffin & torch.isfinite(e) & ~torch.isfinite(c)).sum())
    e_bad = int((ffin & torch.isfinite(c) & ~torch.isfinite(e)).sum())
    if c_bad > e_bad:
        passes = False
    r["passes_same_rule"] = bool(passes)
    try:
        from torch._dynamo.utils import same
        r["torch_same"] = bool(same(e, c, fp64_ref=f, tol=tol, equal_nan=True, log_error=lambda *a, **k: None))
    except Exception as ex:
        r["torch_same"] = None
        r["torch_same_error"] = repr(ex)[:200]
    if allclose:
        r.update(agree=True, judgement="agree")
    elif passes:
        r.update(agree=False, judgement="compiled-as-close-or-closer")
    else:
        r.update(agree=False, judgement="compiled-worse")
    return r


def combine(judgements):
    if any(j == "compiled-worse" for j in judgements):
        return "confirmed"
    if any(j == "no-fp64-reference" for j in judgements):
        return "skipped"
    if any(j != "agree" for j in judgements):
        return "precision-artifact"
    return "not-reproduced"


# ---------------------------------------------------------------- graph mode


def sync(torch, device):
    if device == "cuda" and torch.cuda.is_available():
        torch.cuda.synchronize()


def run_graph(req, torch):
    cdir = req.get("compile_dir")
    device = req.get("device", "cuda")
    seeds = req.get("seeds") or [0, 1, 2]
    tol = float(req.get("tol", 1e-4))
    if not cdir or not os.path.isdir(cdir):
        return answer(req, "graph", "skipped", "no-runnable", "compile_dir is not a folder: %r" % cdir)
    runnable = os.path.join(cdir, "fx_graph_runnable.py")
    if not os.path.isfile(runnable):
        return answer(req, "graph", "skipped", "no-runnable", "no fx_graph_runnable.py in %s" % cdir)
    if device == "cuda" and not torch.cuda.is_available():
        return answer(req, "graph", "skipped", "no-cuda", "CUDA is not available", environment=environment(torch, device))

    timing = {}
    t_all = time.time()
    t0 = time.time()
    mod, configs, config_errors = load_runnable(runnable)
    timing["load"] = time.time() - t0
    with open(runnable, "r", errors="replace") as fh:
        head = fh.read()
    rec_dev = "cuda" if "device(type='cuda'" in head else ("cpu" if "device(type='cpu'" in head else None)
    remap = device if (rec_dev is not None and rec_dev != device) else None

    from torch.fx.experimental.proxy_tensor import make_fx
    from torch._inductor.compile_fx import compile_fx_inner
    notes = []
    try:
        base = trace_repro(torch, mod, remap)
        traced = True
    except Exception as ex:
        if remap:
            return answer(req, "graph", "skipped", "device-mismatch",
                          "runnable records %s, request wants %s, and the graph could not be traced to move it: %r"
                          % (rec_dev, device, ex))
        base = mod.Repro()
        traced = False
        notes.append("symbolic_trace failed (%r): fp64 reference casts inputs only" % (ex,))
    fp64_gm = None
    fp64_mode = "inputs-only"
    if traced:
        try:
            fp64_gm = to_fp64_graph(torch, base)
            fp64_mode = "graph-dtypes-rewritten"
            notes.append("fp64 graph: %d nodes/constants rewritten to float64" % fp64_gm.ilint_fp64_rewrites)
        except Exception as ex:
            notes.append("fp64 rewrite failed: %r" % (ex,))
    Reader = make_reader(torch, remap)
    per_seed = []
    compiled = None
    timing.update(inputs=0.0, eager=0.0, compile=0.0, compiled_run=0.0, fp64=0.0)
    for seed in seeds:
        torch.manual_seed(seed)
        t0 = time.time()
        reader = Reader()
        mod.load_args(reader)
        args = reader.args
        timing["inputs"] += time.time() - t0
        with torch.no_grad():
            t0 = time.time()
            ea = clone_args(torch, args)
            eager_out = flatten(torch, base(*ea))
            sync(torch, device)
            timing["eager"] += time.time() - t0
            # randn inputs can drive a graph to inf/nan (deep conv stacks with N(0,1) weights, sqrt of
            # a random "variance"), which makes any comparison vacuous: retry with tamer inputs.
            init, nf_randn = "randn", nonfinite(torch, eager_out)
            if nf_randn and req.get("input_init", "auto") == "auto":
                tamed = [tame(torch, a) for a in args]
                ea2 = clone_args(torch, tamed)
                out2 = flatten(torch, base(*ea2))
                if nonfinite(torch, out2) < nf_randn:
                    args, ea, eager_out, init = tamed, ea2, out2, "tame"
            if compiled is None:
                t0 = time.time()
                gm = make_fx(base, tracing_mode="real")(*clone_args(torch, args))
                compiled = compile_fx_inner(gm, clone_args(torch, args))
                sync(torch, device)
                timing["compile"] += time.time() - t0
            t0 = time.time()
            ca = clone_args(torch, args)
            comp_out = flatten(torch, compiled(list(ca)))
            sync(torch, device)
            timing["compiled_run"] += time.time() - t0
            t0 = time.time()
            fa = clone_args(torch, args, fp64=True)
            fp_out = None
            try:
                fp_out = flatten(torch, (fp64_gm if fp64_gm is not None else base)(*fa))
            except Exception as ex:
                if fp64_gm is not None:
                    notes.append("fp64 graph failed (%r); retrying with inputs cast only" % (ex,))
                    fp64_gm = None
                    fp64_mode = "inputs-only"
                    fa = clone_args(torch, args, fp64=True)
                    try:
                        fp_out = flatten(torch, base(*fa))
                    except Exception as ex2:
                        notes.append("fp64 run failed: %r" % (ex2,))
                        fp64_mode = "none"
                else:
                    notes.append("fp64 run failed: %r" % (ex,))
                    fp64_mode = "none"
            sync(torch, device)
            timing["fp64"] += time.time() - t0
        outs = []
        n = min(len(eager_out), len(comp_out))
        if len(eager_out) != len(comp_out):
            notes.append("eager returned %d values, compiled %d" % (len(eager_out), len(comp_out)))
        for i in range(n):
            f = fp_out[i] if fp_out is not None and i < len(fp_out) else None
            r = compare_one(torch, eager_out[i], comp_out[i], f, tol)
            r.update(index=i, role="output")
            if isinstance(f, torch.Tensor):
                r["fp64_dtype"] = str(f.dtype).replace("torch.", "")
            outs.append(r)
        # inputs the graph mutates (copy_ into an input, in-place optimizer steps)
        for i, a in enumerate(args):
            if not isinstance(a, torch.Tensor):
                continue
            e, c = ea[i], ca[i]
            if torch.equal(e.cpu(), a.cpu()) and torch.equal(c.cpu(), a.cpu()):
                continue
            f = fa[i] if fp_out is not None else None
            r = compare_one(torch, e, c, f, tol)
            r.update(index=i, role="mutated-input")
            outs.append(r)
        per_seed.append({"seed": seed, "verdict": combine([o["judgement"] for o in outs]), "input_init": init,
                         "eager_nonfinite_with_randn": nf_randn, "outputs": outs})
    timing["total"] = time.time() - t_all
    verdict = combine([o["judgement"] for s in per_seed for o in s["outputs"]])
    # The output that decides the verdict: a failing one if any, else the largest eager/compiled gap.
    worst = None
    want = {"confirmed": "compiled-worse", "skipped": "no-fp64-reference"}.get(verdict)
    for s in per_seed:
        for o in s["outputs"]:
            if "eager_vs_compiled" not in o or (want and o["judgement"] != want):
                continue
            if worst is None or o["eager_vs_compiled"]["max_abs"] > worst["eager_vs_compiled"]["max_abs"]:
                worst = dict(o, seed=s["seed"])
    reason = "no-fp64-reference" if verdict == "skipped" else None
    detail = describe_graph_verdict(verdict, worst, per_seed)
    return answer(req, "graph", verdict, reason, detail, runnable=runnable, device=device,
                  environment=environment(torch, device), config_lines=configs, config_errors=config_errors,
                  compile_path="make_fx+compile_fx_inner", fp64_reference=fp64_mode, notes=notes,
                  seeds=per_seed, worst=worst, timing_s={k: round(v, 4) for k, v in timing.items()})


def describe_graph_verdict(verdict, worst, per_seed=()):
    if worst is None:
        # Integer and boolean outputs are compared exactly: name the first that differs.
        for s in per_seed:
            for o in s["outputs"]:
                if o.get("exact") and not o.get("agree"):
                    return "compiled differs from eager exactly: %s %d, %s eager, %s compiled, %d of %d elements differ (seed %d)" % (
                        o.get("role", "output"), o["index"], o.get("dtype"), o.get("compiled_dtype", o.get("dtype")),
                        o.get("mismatched", 0), o.get("numel", 0), s["seed"])
        return "no floating outputs compared"
    ev = worst.get("eager_vs_fp64", {}).get("rmse")
    cv = worst.get("compiled_vs_fp64", {}).get("rmse")
    d = worst["eager_vs_compiled"]["max_abs"]
    base = "eager/compiled max abs difference %.3g (%s %d, %s %s, seed %d)" % (
        d, worst.get("role", "output"), worst["index"], worst.get("dtype"), worst.get("shape"), worst["seed"])
    if ev is not None:
        base += "; RMSE vs fp64: eager %.3g, compiled %.3g" % (ev, cv)
    return {"confirmed": "compiled is further from fp64 than same() allows: ",
            "precision-artifact": "eager and compiled differ, compiled is as close to fp64 or closer: ",
            "not-reproduced": "eager and compiled agree within tolerance: ",
            "skipped": "eager and compiled differ and no fp64 reference could be computed: "}[verdict] + base


def time_runnable_alone(runnable, python, timeout):
    """Wall time of running the (sanitized) fx_graph_runnable.py as a program: its own run_repro
    compiles the graph with Inductor and runs it once."""
    tmp = tempfile.mkdtemp(prefix="ilint_runnable_")
    try:
        with open(runnable, "r", errors="replace") as fh:
            src = "\n".join(("pass" if _ENV_LINE.match(ln) else ln) for ln in fh.read().splitlines()) + "\n"
        p = os.path.join(tmp, "fx_graph_runnable.py")
        with open(p, "w") as fh:
            fh.write(src)
        env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=os.path.join(tmp, "cache"))
        for k in ("TORCH_COMPILE_DEBUG", "TORCH_TRACE", "TORCH_LOGS"):
            env.pop(k, None)
        t0 = time.time()
        r = subprocess.run([python, p], cwd=tmp, env=env, capture_output=True, text=True, timeout=timeout)
        return {"wall_s": round(time.time() - t0, 3), "rc": r.returncode, "stderr_tail": r.stderr[-400:]}
    except subprocess.TimeoutExpired:
        return {"wall_s": None, "rc": 124}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------- script mode

_CHILD = r"""
import functools, os, runpy, sys, traceback
import torch
BACKEND, OUTFILE, PROGRAM = sys.argv[1], sys.argv[2], sys.argv[3]
RECORDS = []
def snap(x):
    if isinstance(x, torch.Tensor):
        return x.detach().to("cpu", copy=True)
    if isinstance(x, (list, tuple)):
        return [snap(y) for y in x]
    if isinstance(x, dict):
        return {str(k): snap(v) for k, v in x.items()}
    if isinstance(x, (int, float, bool)) or x is None:
        return x
    return None
real_compile = torch.compile
def tensors(x):
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (list, tuple)):
        return [t for y in x for t in tensors(y)]
    if isinstance(x, dict):
        return [t for y in x.values() for t in tensors(y)]
    return []
def aliased(out, args):
    # (output leaf, argument) pairs that share storage: what the caller may update in place
    ins = [(i, a.untyped_storage().data_ptr()) for i, a in enumerate(args) if isinstance(a, torch.Tensor)]
    pairs = []
    for j, o in enumerate(tensors(out)):
        p = o.untyped_storage().data_ptr()
        pairs += [[j, i] for i, q in ins if p == q and p != 0]
    return pairs
def wrap(fn, name):
    def call(*args, **kwargs):
        out = fn(*args, **kwargs)
        RECORDS.append({"fn": name, "out": snap(out), "aliases": aliased(out, args),
                        "args_after": [snap(a) for a in args if isinstance(a, torch.Tensor)]})
        return out
    if isinstance(fn, torch.nn.Module):
        class Recorded(torch.nn.Module):
            def __init__(self, inner):
                super().__init__()
                self.inner = inner
            def forward(self, *a, **k):
                return call(*a, **k)
        return Recorded(fn)
    return functools.wraps(fn)(call) if callable(fn) else fn
def patched(model=None, **kw):
    if model is None:
        return lambda m: patched(m, **kw)
    name = getattr(model, "__qualname__", None) or type(model).__name__
    if BACKEND == "eager":
        return wrap(model, name)
    kw = dict(kw)
    user_backend = kw.get("backend", "inductor")
    kw["backend"] = BACKEND
    if BACKEND != "inductor" or user_backend != "inductor":
        kw.pop("mode", None); kw.pop("options", None)
    return wrap(real_compile(model, **kw), name)
torch.compile = patched
sys.argv = [PROGRAM] + sys.argv[4:]
sys.path.insert(0, os.path.dirname(os.path.abspath(PROGRAM)))
err = None
try:
    runpy.run_path(PROGRAM, run_name="__main__")
except SystemExit as e:
    if e.code not in (0, None):
        err = "SystemExit(%r)" % (e.code,)
except BaseException:
    err = traceback.format_exc()[-2000:]
torch.save({"records": RECORDS, "error": err, "backend": BACKEND}, OUTFILE)
"""


def leaves(x, prefix=""):
    if isinstance(x, (list, tuple)):
        for i, y in enumerate(x):
            yield from leaves(y, "%s[%d]" % (prefix, i))
    elif isinstance(x, dict):
        for k, v in x.items():
            yield from leaves(v, "%s[%s]" % (prefix, k))
    else:
        yield prefix, x


def diff(torch, a, b):
    """max abs / max rel difference between two recorded values (None when not comparable)."""
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        if a.shape != b.shape:
            return {"max_abs": float("inf"), "max_rel": float("inf"), "note": "shape %s vs %s" % (list(a.shape), list(b.shape))}
        if a.numel() == 0:
            return {"max_abs": 0.0, "max_rel": 0.0}
        d = (a.double() - b.double()).abs()
        d = torch.where(torch.isnan(a.double()) & torch.isnan(b.double()), torch.zeros_like(d), d)
        rel = d / a.double().abs().clamp_min(1e-12)
        return {"max_abs": float(d.max()), "max_rel": float(rel.max())}
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        d = abs(float(a) - float(b))
        return {"max_abs": d, "max_rel": d / max(abs(float(a)), 1e-12)}
    return None


def run_script(req, torch):
    script = req["script"]
    # absolute: each run's working directory is a fresh temporary folder
    path, sargs = os.path.abspath(script["path"]), list(script.get("args") or [])
    backends = script.get("backends") or ["eager", "aot_eager", "inductor"]
    tol = float(req.get("tol", 1e-4))
    timeout = float(req.get("timeout_s") or 600)
    python = req.get("python") or sys.executable
    if not os.path.isfile(path):
        return answer(req, "script", "skipped", "no-script", "no such script: %s" % path)
    if req.get("device", "cuda") == "cuda" and not torch.cuda.is_available():
        return answer(req, "script", "skipped", "no-cuda", "CUDA is not available")
    tmp = tempfile.mkdtemp(prefix="ilint_confirm_script_")
    runs = {}
    try:
        for b in backends:
            out = os.path.join(tmp, b + ".pt")
            env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=os.path.join(tmp, "cache_" + b), PYTHONUNBUFFERED="1")
            for k in ("TORCH_COMPILE_DEBUG", "TORCH_TRACE", "TORCH_LOGS"):
                env.pop(k, None)
            env.update(script.get("env") or {})
            t0 = time.time()
            try:
                p = subprocess.run([python, "-c", _CHILD, b, out, path] + sargs, env=env, cwd=tmp,
                                   capture_output=True, text=True, timeout=timeout)
                rc, so, se = p.returncode, p.stdout, p.stderr
            except subprocess.TimeoutExpired:
                rc, so, se = 124, "", "timeout"
            info = {"rc": rc, "wall_s": round(time.time() - t0, 2), "stdout_tail": so[-3000:]}
            if os.path.isfile(out):
                data = torch.load(out, weights_only=False)
                info["records"] = data["records"]
                info["error"] = data["error"]
            else:
                info["records"] = None
                info["error"] = se[-2000:]
            runs[b] = info
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    ref = runs.get("eager")
    # an eager run that failed before recording a call compares nothing: not a "no divergence"
    if ref is None or ref["records"] is None or (not ref["records"] and ref.get("error")):
        return answer(req, "script", "skipped", "run-failed", "the eager run failed: %s" % (ref or {}).get("error"),
                      runs={b: {k: v for k, v in r.items() if k != "records"} for b, r in runs.items()})
    calls = []
    for k, rec in enumerate(ref["records"]):
        row = {"call": k, "fn": rec["fn"]}
        for b in backends:
            if b == "eager":
                continue
            other = runs[b]["records"]
            if other is None or k >= len(other):
                row[b] = None
                continue
            worst = None
            for (name, ev), (_n2, cv) in zip(leaves({"out": rec["out"], "args_after": rec["args_after"]}),
                                             leaves({"out": other[k]["out"], "args_after": other[k]["args_after"]})):
                d = diff(torch, ev, cv)
                if d is None:
                    continue
                if isinstance(ev, torch.Tensor) and isinstance(cv, torch.Tensor) and ev.shape == cv.shape:
                    ok = bool(torch.allclose(ev.double(), cv.double(), atol=tol, rtol=tol, equal_nan=True))
                else:
                    ok = d["max_abs"] <= tol + tol * abs(float(ev)) if isinstance(ev, (int, float)) else False
                d["allclose"] = ok
                d["value"] = name
                if worst is None or d["max_abs"] > worst["max_abs"] or (not ok and worst["allclose"]):
                    worst = d
            row[b] = worst
            # An output that shares storage with an argument where eager's does not: the same values,
            # but an in-place update of the result changes the caller's input (output-aliases-input).
            extra = [a for a in other[k].get("aliases", []) if a not in rec.get("aliases", [])]
            if extra and worst is not None:
                worst["aliases_input"] = extra
                worst["allclose"] = False
        calls.append(row)
    ind = [c.get("inductor") for c in calls if "inductor" in backends]
    diverged = [c for c in calls if c.get("inductor") and not c["inductor"]["allclose"]]
    aot_also = [c for c in diverged if c.get("aot_eager") and not c["aot_eager"]["allclose"]]
    if any(x is None for x in ind) and "inductor" in backends:
        verdict, reason = "skipped", "run-failed"
    elif not diverged:
        verdict, reason = "not-reproduced", None
    else:
        verdict, reason = "confirmed", None
    series = [c["inductor"]["max_abs"] for c in diverged]
    growing = len(series) >= 2 and series[-1] > series[0]
    aliasing = [c for c in diverged if c["inductor"].get("aliases_input")]
    detail = ("inductor diverges from eager on %d of %d calls (first at call %s%s); aot_eager %s; max abs %s"
              % (len(diverged), len(calls), diverged[0]["call"] if diverged else None,
                 "; on %d of them an output is an input's storage, which eager's is not" % len(aliasing) if aliasing else "",
                 "also diverges on %d of them" % len(aot_also) if aot_also else "agrees with eager there",
                 ", ".join("%.3g" % s for s in series[:12])) if diverged else
              "inductor and aot_eager agree with eager on all %d recorded calls" % len(calls))
    return answer(req, "script", verdict, reason, detail, script={"path": path, "args": sargs},
                  environment=environment(torch, req.get("device", "cuda")), tol=tol, calls=calls,
                  diverged_calls=[c["call"] for c in diverged], inductor_only=bool(diverged) and not aot_also,
                  error_growing=growing,
                  runs={b: {k: v for k, v in r.items() if k != "records"} for b, r in runs.items()})


# ---------------------------------------------------------------- main


def run_isolated(work, skipped, timeout, cache_prefix):
    """work(torch) -> answer, run the way every tool here runs next to PyTorch: a private Inductor cache
    (it compiles cold and leaves nothing behind; ILINT_CONFIRM_KEEP_CACHE keeps the user's), no debug
    output elsewhere, anything printed on stderr, `timeout` seconds at most (SIGALRM). A failure is an
    answer made by skipped(reason, detail, **extra), never an exception."""
    own_cache = None
    if not os.environ.get("ILINT_CONFIRM_KEEP_CACHE"):
        own_cache = tempfile.mkdtemp(prefix=cache_prefix)
        os.environ["TORCHINDUCTOR_CACHE_DIR"] = own_cache
    for k in ("TORCH_COMPILE_DEBUG", "TORCH_TRACE"):
        os.environ.pop(k, None)
    try:
        with stdout_to_stderr():
            try:
                import torch
            except Exception as ex:
                return skipped("no-torch", "torch cannot be imported: %r" % (ex,))
            try:
                with alarm(timeout):
                    doc = work(torch)
            except Timeout as ex:
                doc = skipped("timeout", str(ex))
            except Exception as ex:
                import traceback
                doc = skipped("run-failed", "%s: %s" % (type(ex).__name__, ex), traceback=traceback.format_exc()[-3000:])
            if isinstance(doc.get("timing_s"), dict):
                doc["timing_s"]["process"] = round(time.time() - _T_START, 3)
            return doc
    finally:
        if own_cache:
            shutil.rmtree(own_cache, ignore_errors=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description="confirm a finding by re-execution (docs/confirm-protocol.md)")
    ap.add_argument("--request", help="read the request from this file instead of stdin")
    ap.add_argument("--compile-dir", help="shortcut: build the request from this compile folder")
    ap.add_argument("--device", choices=["cuda", "cpu"], help="override the request's device")
    ap.add_argument("--time-runnable", action="store_true",
                    help="also time running fx_graph_runnable.py alone (subprocess), for comparison")
    ap.add_argument("--script", nargs=argparse.REMAINDER,
                    help="script mode: PROGRAM [ARGS...] run under eager, aot_eager and inductor")
    a = ap.parse_args(argv)
    req = None
    try:
        if a.compile_dir or (a.script and not a.request and sys.stdin.isatty()):
            req = {"protocol": PROTOCOL, "compile_dir": a.compile_dir, "finding": {}, "seeds": [0, 1, 2]}
        else:
            text = open(a.request).read() if a.request else sys.stdin.read()
            req = json.loads(text) if text.strip() else {"protocol": PROTOCOL, "finding": {}}
    except (OSError, ValueError) as ex:
        print(json.dumps(answer(None, "graph", "skipped", "bad-request", "cannot read the request: %s" % ex)))
        return 0
    if not isinstance(req, dict) or req.get("protocol") != PROTOCOL:
        print(json.dumps(answer(req if isinstance(req, dict) else None, "graph", "skipped", "bad-request",
                                "protocol must be %d" % PROTOCOL)))
        return 0
    if a.device:
        req["device"] = a.device
    if a.script:
        req["script"] = {"path": a.script[0], "args": a.script[1:]}
    if a.time_runnable:
        req["time_runnable"] = True
    mode = "script" if req.get("script") else "graph"
    rule = (req.get("finding") or {}).get("rule")
    if mode == "graph" and rule in NEEDS_SCRIPT:
        print(json.dumps(answer(req, mode, "skipped", "needs-script",
                                "a %s finding is confirmed by running the user's script (request \"script\"); "
                                "re-running one graph with random inputs cannot show %s"
                                % (rule, "a stale constant" if rule in SCALAR_RULES else "an output that is its input"))))
        return 0
    # script mode bounds each of its runs itself; graph mode runs in this process
    doc = run_isolated(lambda torch: run_script(req, torch) if mode == "script" else run_graph(req, torch),
                       lambda reason, detail, **kw: answer(req, mode, "skipped", reason, detail, **kw),
                       timeout=req.get("timeout_s") if mode == "graph" else None, cache_prefix="ilint_confirm_cache_")
    if mode == "graph" and req.get("time_runnable") and doc.get("runnable"):
        doc["runnable_alone"] = time_runnable_alone(doc["runnable"], req.get("python") or sys.executable,
                                                    float(req.get("timeout_s") or 600))
    print(json.dumps(doc, indent=1, default=lambda o: repr(o)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
