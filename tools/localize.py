#!/usr/bin/env python3
"""Localize: re-execute one compile kernel by kernel and name the first kernel that departs from eager,
judged against float64 (protocol: docs/localize-protocol.md).

Reads one JSON request on stdin (or --request FILE) and writes one JSON answer on stdout. The request is
made by `inductor-lint localize` from its model of the compile: the wrapper's kernel launches in order,
for each the buffers it writes (which argument, which buffer root) and the FX nodes that buffer may hold.

  eager    fx_graph_runnable.py's Repro, its forward rewritten so each assignment records the value of
           the FX node it names (only the nodes the request asks for are kept)
  float64  the same forward with every floating dtype constant set to float64, on float64 inputs
  compiled the capture's own output_code.py, loaded as a module; each kernel it launches is wrapped so
           that the buffers the launch writes are compared, right after it (before the next launch that
           reads them, for an ATen fallback's result), with the eager and float64 values of their node

The comparison is made where the compiled buffer lives and then dropped, so memory stays at the eager
and float64 values of the requested nodes. Only the standard library is needed to start.
"""
import argparse
import ast
import json
import math
import os
import sys
import time
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import confirm as C  # noqa: E402  the runnable loader, input reader, same() rule and helpers

PROTOCOL = 1
TOOL = "tools/localize.py"
LOW_DTYPES = ("float16", "bfloat16", "float32")


def answer(req, verdict, reason=None, detail=None, **extra):
    doc = {"protocol": PROTOCOL, "tool": TOOL, "mode": "localize", "verdict": verdict, "reason": reason,
           "detail": detail, "compile_dir": (req or {}).get("compile_dir"),
           "compile": (req or {}).get("compile")}
    doc.update(extra)
    return doc


# ---------------------------------------------------------------- the eager and float64 recorders


class _Record(ast.NodeTransformer):
    """Rewrites Repro.forward: each input and, after `name = <expr>` (an FX node), each node is passed to
    `_ilint_record('name', name)`; with
    fp64, every `torch.float16|bfloat16|float32` in the body reads `torch.float64` instead (what
    torch._dynamo.debug_utils.cast_to_fp64 does to convert_element_type, for every dtype argument)."""

    def __init__(self, fp64):
        self.fp64 = fp64
        self.in_forward = False
        self.dtype_rewrites = 0

    def visit_FunctionDef(self, fn):
        if fn.name != "forward":
            return fn
        self.in_forward = True
        fn = self.generic_visit(fn)
        self.in_forward = False
        body = []
        for st in fn.body:
            body.append(st)
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) \
                    and not (isinstance(st.value, ast.Constant) and st.value.value is None):
                name = st.targets[0].id
                body.append(ast.Expr(ast.Call(ast.Name("_ilint_record", ast.Load()),
                                              [ast.Constant(name), ast.Name(name, ast.Load())], [])))
        # the inputs too: a kernel that re-lays out a graph input writes its value
        fn.body = [ast.Expr(ast.Call(ast.Name("_ilint_record", ast.Load()),
                                     [ast.Constant(a.arg), ast.Name(a.arg, ast.Load())], []))
                   for a in fn.args.args[1:]] + body
        return fn

    def visit_Attribute(self, node):
        node = self.generic_visit(node)
        if self.fp64 and self.in_forward and node.attr in LOW_DTYPES and isinstance(node.value, ast.Name) \
                and node.value.id == "torch":
            self.dtype_rewrites += 1
            return ast.copy_location(ast.Attribute(node.value, "float64", ast.Load()), node)
        return node


def load_recording_runnable(path, fp64):
    """fx_graph_runnable.py as a module (sanitized as confirm does), Repro.forward instrumented."""
    with open(path, "r", errors="replace") as fh:
        src, configs = C.sanitize_runnable(fh.read())
    tree = ast.parse(src, path)
    rec = _Record(fp64)
    tree = ast.fix_missing_locations(rec.visit(tree))
    mod = types.ModuleType("ilint_localize_runnable_fp64" if fp64 else "ilint_localize_runnable")
    mod.__file__ = path
    mod.__dict__["_ILINT_CONFIG_ERRORS"] = []
    mod.__dict__["_ilint_record"] = lambda name, value: None
    exec(compile(tree, path, "exec"), mod.__dict__)
    if not hasattr(mod, "Repro") or not hasattr(mod, "load_args"):
        raise ValueError("%s defines no Repro / load_args" % path)
    return mod, configs, rec.dtype_rewrites


def record_run(torch, mod, args, wanted, fp64):
    """Runs Repro on a copy of args; returns ({node: value} for the wanted nodes, [outputs])."""
    values = {}

    def record(name, value):
        if name in wanted:
            values[name] = value.detach().clone() if isinstance(value, torch.Tensor) else value
    mod.__dict__["_ilint_record"] = record
    repro = mod.Repro()
    if fp64:
        repro = repro.double()  # floating parameters and buffers (get_attr constants) in float64
    try:
        with torch.no_grad():
            out = repro(*C.clone_args(torch, args, fp64=fp64))
    finally:
        mod.__dict__["_ilint_record"] = lambda name, value: None
    return values, [o.detach().clone() if isinstance(o, torch.Tensor) else o for o in C.flatten(torch, out)]


# ---------------------------------------------------------------- the compiled module


def load_output_code(path):
    """The capture's output_code.py as a module: its body compiles the kernels (async_compile) and
    defines call(); its __main__ benchmark block does not run."""
    with open(path, "r", errors="replace") as fh:
        src = fh.read()
    mod = types.ModuleType("ilint_localize_output_code")
    mod.__file__ = path
    exec(compile(src, path, "exec"), mod.__dict__)
    if not callable(mod.__dict__.get("call")):
        raise ValueError("%s defines no call()" % path)
    return mod


# Elements per piece when comparing: the float64 temporaries of a comparison are a few pieces, not a
# few copies of the buffer, so a large buffer is compared in bounded memory.
CHUNK = 1 << 22


def pieces(*tensors):
    """The tensors flattened and cut into the same CHUNK-element pieces."""
    flat = [t.reshape(-1) for t in tensors]
    n = flat[0].numel()
    for i in range(0, n, CHUNK):
        yield [f[i:i + CHUNK] for f in flat]


def stats(torch, a, ref):
    """max abs, max rel, RMSE of a against ref over the elements where both are finite."""
    max_abs = max_rel = sq = 0.0
    count = 0
    for pa, pr in pieces(a, ref):
        pa, pr = pa.double(), pr.double()
        m = torch.isfinite(pa) & torch.isfinite(pr)
        d = (pa - pr)[m]
        if d.numel() == 0:
            continue
        ad = d.abs()
        max_abs = max(max_abs, float(ad.max()))
        max_rel = max(max_rel, float((ad / pr[m].abs().clamp_min(1e-12)).max()))
        sq += float((d * d).sum())
        count += d.numel()
    return {"max_abs": max_abs, "max_rel": max_rel, "rmse": math.sqrt(sq / count) if count else 0.0}


def count_where(torch, pred, *tensors):
    """How many elements pred(pieces...) holds for, piece by piece."""
    return sum(int(pred(*p).sum()) for p in pieces(*tensors))


def judge(torch, compiled, eager, fp64, tol):
    """One written buffer against its node: the numbers and ok | precision-artifact | divergent, by
    the rule of torch._dynamo.utils.same() (compiled RMSE to float64 within multiplier * eager's + tol/10)."""
    c = compiled.detach()
    e = eager.to(c.device)
    r = {"dtype": str(e.dtype).replace("torch.", ""), "shape": list(e.shape), "numel": e.numel()}
    if not (e.is_floating_point() or e.is_complex()):
        # integers and booleans: eager's value is the exact answer (float64 has nothing to add)
        ok = bool(torch.equal(c, e))
        r.update(allclose=ok, exact=True, eager_vs_compiled=stats(torch, c, e),
                 mismatched=count_where(torch, lambda pc, pe: pc != pe, c, e),
                 verdict="ok" if ok else "divergent", note="exact comparison (not floating)")
        return r
    r["eager_vs_compiled"] = stats(torch, c, e)
    r["nonfinite"] = {"eager": count_where(torch, lambda x: ~torch.isfinite(x), e),
                      "compiled": count_where(torch, lambda x: ~torch.isfinite(x), c)}
    allclose = all(bool(torch.allclose(pc.float(), pe.float(), atol=tol, rtol=tol, equal_nan=True))
                   for pc, pe in pieces(c, e))
    r["allclose"] = allclose
    if fp64 is None:
        r.update(verdict="ok" if allclose else "no-fp64-reference")
        return r
    f = fp64.to(c.device)
    r["eager_vs_fp64"] = stats(torch, e, f)
    r["compiled_vs_fp64"] = stats(torch, c, f)
    mult = C.same_multiplier(torch, c, e.numel(), e.ndim, list(e.shape), tol)
    r["multiplier"] = mult
    r["tol"] = tol
    passes = r["compiled_vs_fp64"]["rmse"] <= mult * r["eager_vs_fp64"]["rmse"] + tol / 10.0
    r["nonfinite_only"] = {
        "compiled": count_where(torch, lambda pf, pe, pc: torch.isfinite(pf) & torch.isfinite(pe) & ~torch.isfinite(pc), f, e, c),
        "eager": count_where(torch, lambda pf, pe, pc: torch.isfinite(pf) & torch.isfinite(pc) & ~torch.isfinite(pe), f, e, c)}
    if r["nonfinite_only"]["compiled"] > r["nonfinite_only"]["eager"]:
        passes = False  # compiled inf/nan where float64 and eager are finite
    r["passes_same_rule"] = bool(passes)
    r["verdict"] = "ok" if allclose else ("precision-artifact" if passes else "divergent")
    return r


RANK = {"ok": 0, "unobserved": 0, "no-fp64-reference": 1, "precision-artifact": 2, "divergent": 3}


class Observer:
    """Compares the buffers the request names at the points it names, during one compiled run."""

    def __init__(self, torch, req, eager, fp64, eager_out, fp64_out, device, budget):
        self.torch, self.req, self.device, self.budget = torch, req, device, budget
        self.eager, self.fp64, self.eager_out, self.fp64_out = eager, fp64, eager_out, fp64_out
        self.tol = float(req.get("tol", 1e-4))
        self.rows = {}
        self.before, self.after, self.at_output = {}, {}, []
        for launch in req["launches"]:
            row = {"order": launch["order"], "kernel": launch["kernel"], "fallback": bool(launch.get("fallback")),
                   "line": launch.get("line"), "writes": [], "observed": False}
            self.rows[launch["order"]] = row
            for w in launch.get("writes", []):
                ob = w.get("observe") or {}
                rec = {"launch": launch["order"], "write": w}
                if "output" in ob:
                    self.at_output.append(rec)
                elif ob.get("when") == "before":
                    self.before.setdefault(ob["launch"], []).append(rec)
                elif ob.get("when") == "after":
                    self.after.setdefault(ob["launch"], []).append(rec)
                else:
                    row["writes"].append({"buffer": w.get("buffer"), "verdict": "unobserved",
                                          "reason": w.get("unobserved") or "no later launch reads it"})

    def _candidate_value(self, cand):
        if "output" in cand:
            i = cand["output"]
            if i < len(self.eager_out):
                return self.eager_out[i], (self.fp64_out[i] if self.fp64_out and i < len(self.fp64_out) else None)
            return None, None
        n = cand.get("node")
        return self.eager.get(n), (self.fp64 or {}).get(n)

    def compare(self, rec, tensor):
        torch, w = self.torch, rec["write"]
        row = self.rows[rec["launch"]]
        row["observed"] = True
        out = {"buffer": w.get("buffer")}
        if not isinstance(tensor, torch.Tensor):
            out.update(verdict="unobserved", reason="the argument is not a tensor")
            row["writes"].append(out)
            return
        nbytes = tensor.numel() * tensor.element_size()
        if self.budget and nbytes > self.budget:
            out.update(verdict="unobserved", reason="buffer of %d bytes is over the limit of %d (max_buffer_bytes)"
                       % (nbytes, self.budget))
            row["writes"].append(out)
            return
        # The node whose value this buffer holds: the exact ones (a graph output, an input's mutation)
        # first; among a kernel's sink nodes of the same shape, the one closest to the buffer.
        exact, by_shape = None, []
        for cand in w.get("candidates", []):
            ev, fv = self._candidate_value(cand)
            if not isinstance(ev, torch.Tensor):
                continue
            if ev.shape == tensor.shape:
                view = tensor
            elif ev.numel() == tensor.numel():
                view = tensor.reshape(ev.shape)
            else:
                continue
            if cand.get("why") in ("graph-output", "mutated-input"):
                exact = (cand, ev, fv, view)
                break
            by_shape.append((cand, ev, fv, view))
        if exact is None and not by_shape:
            out.update(verdict="unobserved", reason="no candidate node has the buffer's shape %s" % list(tensor.shape))
            row["writes"].append(out)
            return
        if exact is not None:
            cand, ev, fv, view = exact
            out["matched_by"] = cand["why"]
        else:
            def gap(item):
                return stats(torch, item[3].detach(), item[1].to(item[3].device))["max_abs"]
            by_shape.sort(key=gap)
            cand, ev, fv, view = by_shape[0]
            out["matched_by"] = "value" if len(by_shape) > 1 else cand.get("why", "kernel-node")
            if len(by_shape) > 1:
                out["candidates_of_that_shape"] = [c[0].get("node") for c in by_shape]
        out["node"] = cand.get("node") if "node" in cand else "output %d" % cand["output"]
        if view.shape != tensor.shape:
            out["note"] = "buffer %s compared as %s" % (list(tensor.shape), list(view.shape))
        out.update(judge(torch, view, ev, fv, self.tol))
        row["writes"].append(out)

    def wrap(self, mod):
        """Replaces each launched kernel of the module by a wrapper that observes around it."""
        torch = self.torch
        by_name = {}
        for launch in self.req["launches"]:
            if not launch.get("fallback"):
                by_name.setdefault(launch["kernel"], []).append(launch["order"])
        self.missing = []
        self.calls = {}
        for name, orders in by_name.items():
            real = mod.__dict__.get(name)
            if real is None:
                self.missing.append(name)
                continue
            mod.__dict__[name] = self._wrapped(name, real, orders)

    def _wrapped(self, name, real, orders):
        obs = self

        def around(launch_args, call):
            k = obs.calls.get(name, 0)
            obs.calls[name] = k + 1
            order = orders[k] if k < len(orders) else None
            if order is not None:
                C.sync(obs.torch, obs.device)
                for rec in obs.before.get(order, []):
                    i = rec["write"]["observe"]["arg"]
                    obs.compare(rec, launch_args[i] if i < len(launch_args) else None)
            result = call()
            if order is not None:
                C.sync(obs.torch, obs.device)
                for rec in obs.after.get(order, []):
                    i = rec["write"]["observe"]["arg"]
                    obs.compare(rec, launch_args[i] if i < len(launch_args) else None)
            return result

        if hasattr(real, "run"):  # a Triton kernel object: the wrapper calls kernel.run(*args, stream=...)
            class Launcher:
                def __getattr__(self, attr):
                    return getattr(real, attr)

                def run(self, *a, **kw):
                    return around(a, lambda: real.run(*a, **kw))
            return Launcher()

        def cpp_kernel(*a, **kw):  # a C++ kernel: a function of the buffers
            return around(a, lambda: real(*a, **kw))
        return cpp_kernel

    def outputs(self, compiled_out):
        for rec in self.at_output:
            i = rec["write"]["observe"]["output"]
            self.compare(rec, compiled_out[i] if i < len(compiled_out) else None)

    def launches(self):
        rows = []
        for order in sorted(self.rows):
            row = self.rows[order]
            verdicts = [w["verdict"] for w in row["writes"] if w.get("verdict") not in (None, "unobserved")]
            row["verdict"] = max(verdicts, key=lambda v: RANK.get(v, 0)) if verdicts else "unobserved"
            rows.append(row)
        return rows


def random_inputs(mod, torch, seed):
    """The runnable's inputs with random data, as confirm makes them (the capture saves none)."""
    Reader = C.make_reader(torch, None)
    torch.manual_seed(seed)
    reader = Reader()
    mod.load_args(reader)
    return list(reader.args)


def run_localize(req, torch):
    cdir, code = req.get("compile_dir"), req.get("output_code")
    device = req.get("device", "cuda")
    seed = int(req.get("seed", 0))
    if not cdir or not os.path.isfile(os.path.join(cdir, "fx_graph_runnable.py")):
        return answer(req, "skipped", "no-runnable", "no fx_graph_runnable.py in %r" % cdir)
    if not code or not os.path.isfile(code):
        return answer(req, "skipped", "no-output-code", "no output_code.py at %r" % code)
    if device == "cuda" and not torch.cuda.is_available():
        return answer(req, "skipped", "no-cuda", "CUDA is not available", environment=C.environment(torch, device))
    recorded = req.get("recorded_device")
    if recorded and recorded != device:
        return answer(req, "skipped", "device-mismatch",
                      "the output code was generated for %s; localize runs it as it is, so --device %s cannot"
                      % (recorded, device), environment=C.environment(torch, device))
    runnable = os.path.join(cdir, "fx_graph_runnable.py")
    timing = {}
    notes = []
    t0 = time.time()
    emod, configs, _ = load_recording_runnable(runnable, fp64=False)
    fmod, _, rewrites = load_recording_runnable(runnable, fp64=True)
    notes.append("float64 forward: %d dtype constants set to float64" % rewrites)
    timing["load_runnable"] = time.time() - t0
    wanted = set()
    for launch in req["launches"]:
        for w in launch.get("writes", []):
            wanted.update(c["node"] for c in w.get("candidates", []) if "node" in c)
    args = random_inputs(emod, torch, seed)
    t0 = time.time()
    eager, eager_out = record_run(torch, emod, args, wanted, fp64=False)
    C.sync(torch, device)
    timing["eager"] = time.time() - t0
    fp64, fp64_out, fp64_mode = None, None, "graph-dtypes-rewritten"
    t0 = time.time()
    try:
        fp64, fp64_out = record_run(torch, fmod, args, wanted, fp64=True)
    except Exception as ex:
        notes.append("float64 run failed (%s: %s): no float64 reference" % (type(ex).__name__, ex))
        fp64_mode = "none"
    C.sync(torch, device)
    timing["fp64"] = time.time() - t0
    t0 = time.time()
    cmod = load_output_code(code)
    timing["load_output_code"] = time.time() - t0
    # One plain run first: it pays any lazy work (autotuning, first-call allocation) and is the cost
    # the observed run is measured against.
    t0 = time.time()
    with torch.no_grad():
        cmod.call(C.clone_args(torch, args))
    C.sync(torch, device)
    timing["compiled_plain"] = time.time() - t0
    obs = Observer(torch, req, eager, fp64, eager_out, fp64_out, device, int(req.get("max_buffer_bytes") or 0))
    obs.wrap(cmod)
    t0 = time.time()
    with torch.no_grad():
        out = C.flatten(torch, cmod.call(C.clone_args(torch, args)))
    C.sync(torch, device)
    obs.outputs(out)
    timing["compiled_observed"] = time.time() - t0
    if obs.missing:
        notes.append("kernels the request names that output_code.py does not define: %s" % ", ".join(obs.missing))
    launches = obs.launches()
    first_departure = next((r for r in launches if r["verdict"] in ("precision-artifact", "divergent")), None)
    first_divergent = next((r for r in launches if r["verdict"] == "divergent"), None)
    observed = [r for r in launches if r["verdict"] != "unobserved"]
    if not observed:
        verdict, reason = "skipped", "nothing-observed"
    elif first_divergent:
        verdict, reason = "divergent", None
    elif first_departure:
        verdict, reason = "precision-artifact", None
    else:
        verdict, reason = "ok", None
    detail = describe(verdict, first_departure, first_divergent, len(observed), len(launches))
    return answer(req, verdict, reason, detail, device=device, seed=seed, tol=float(req.get("tol", 1e-4)),
                  environment=C.environment(torch, device), config_lines=configs, fp64_reference=fp64_mode,
                  launches=launches,
                  first_departure=first_departure["order"] if first_departure else None,
                  first_divergent=first_divergent["order"] if first_divergent else None,
                  notes=notes, timing_s={k: round(v, 4) for k, v in timing.items()})


def describe(verdict, dep, div, n_observed, n_launches):
    if verdict == "skipped":
        return "no launch could be observed"
    if div is not None:
        w = max((w for w in div["writes"] if w.get("verdict") == "divergent"),
                key=lambda w: w.get("compiled_vs_fp64", w.get("eager_vs_compiled", {})).get("rmse", 0), default={})
        if w.get("exact"):
            return ("launch %d (%s) is the first that differs from eager where eager is exact: %s, %d elements "
                    "differ, by up to %.6g" % (div["order"], div["kernel"], w.get("node"), w.get("mismatched", 0),
                                               w.get("eager_vs_compiled", {}).get("max_abs", float("nan"))))
        return ("launch %d (%s) is the first that is further from float64 than eager: %s, RMSE vs float64 "
                "compiled %.3g, eager %.3g" % (div["order"], div["kernel"], w.get("node"),
                                               w.get("compiled_vs_fp64", {}).get("rmse", float("nan")),
                                               w.get("eager_vs_fp64", {}).get("rmse", float("nan"))))
    if dep is not None:
        return ("launch %d (%s) is the first that differs from eager; no launch is further from float64 than "
                "eager (%d of %d launches observed)" % (dep["order"], dep["kernel"], n_observed, n_launches))
    return "every observed launch agrees with eager (%d of %d launches observed)" % (n_observed, n_launches)


def main(argv=None):
    ap = argparse.ArgumentParser(description="localize the first divergent kernel (docs/localize-protocol.md)")
    ap.add_argument("--request", help="read the request from this file instead of stdin")
    a = ap.parse_args(argv)
    try:
        text = open(a.request).read() if a.request else sys.stdin.read()
        req = json.loads(text)
    except (OSError, ValueError) as ex:
        print(json.dumps(answer(None, "skipped", "bad-request", "cannot read the request: %s" % ex)))
        return 0
    if not isinstance(req, dict) or req.get("protocol") != PROTOCOL or not isinstance(req.get("launches"), list):
        print(json.dumps(answer(req if isinstance(req, dict) else None, "skipped", "bad-request",
                                "protocol must be %d and launches a list" % PROTOCOL)))
        return 0
    doc = C.run_isolated(lambda torch: run_localize(req, torch),
                         lambda reason, detail, **kw: answer(req, "skipped", reason, detail, **kw),
                         timeout=req.get("timeout_s"), cache_prefix="ilint_localize_cache_")
    runnable = os.path.join(req.get("compile_dir") or "", "fx_graph_runnable.py")
    if req.get("time_runnable") and os.path.isfile(runnable):
        # the cost of one plain compile and run of the same graph, for comparison
        doc["runnable_alone"] = C.time_runnable_alone(runnable, req.get("python") or sys.executable,
                                                      float(req.get("timeout_s") or 600))
    print(json.dumps(doc, indent=1, default=lambda o: repr(o)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
