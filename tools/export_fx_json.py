#!/usr/bin/env python3
"""Write the FX graphs that Inductor compiles as JSON (format: docs/fx-graph-json.md).

The graph is taken at the entry of Inductor's inner compile (compile_fx_inner), the same point where
Inductor writes fx_graph_readable.py, so one run gives both files for the same graph: the JSON lands
as fx_graph.json inside that compile's TORCH_COMPILE_DEBUG folder (model__N_<kind>_<id>/), or, when
debug output is off, in $ILINT_FX_JSON_DIR (default ./fx_json) as <n>_<kind>.json.

Use:
    # run a program with its torch.compile(backend="inductor") calls routed through the exporter
    python3 tools/export_fx_json.py run PROGRAM [ARGS...]

    # or from Python
    from export_fx_json import inductor_with_fx_json, graph_to_json
    torch.compile(fn, backend=inductor_with_fx_json)

graph_to_json(gm) is usable on any GraphModule whose nodes carry meta["val"] (fake tensors).
"""
import json
import os
import re
import sys

FORMAT_KEY = "inductor_lint_fx_graph"
FORMAT_VERSION = 1

# FX's own short dtype names (torch.fx.graph.dtype_abbrs), repeated here so the module imports
# without torch; at run time the torch table is used when present.
_DTYPE_ABBRS = {
    "torch.bfloat16": "bf16", "torch.float64": "f64", "torch.float32": "f32", "torch.float16": "f16",
    "torch.float8_e4m3fn": "f8e4m3fn", "torch.float8_e5m2": "f8e5m2", "torch.float8_e4m3fnuz": "f8e4m3fnuz",
    "torch.float8_e5m2fnuz": "f8e5m2fnuz", "torch.float8_e8m0fnu": "f8e8m0fnu", "torch.float4_e2m1fn_x2": "f4e2m1fnx2",
    "torch.complex32": "c32", "torch.complex64": "c64", "torch.complex128": "c128", "torch.int8": "i8",
    "torch.int16": "i16", "torch.int32": "i32", "torch.int64": "i64", "torch.bool": "b8", "torch.uint8": "u8",
    "torch.uint16": "u16", "torch.uint32": "u32", "torch.uint64": "u64", "torch.bits16": "b16", "torch.bits1x8": "b1x8",
}

_FRAME_RE = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<func>[^\n]+)')


def dtype_short(dt):
    try:
        from torch.fx.graph import dtype_abbrs
        if dt in dtype_abbrs:
            return dtype_abbrs[dt]
    except Exception:
        pass
    return _DTYPE_ABBRS.get(str(dt), str(dt))


def user_source(stack_trace):
    """Innermost frame of node.meta["stack_trace"], the one fx_graph_readable.py prints as '# File:'."""
    if not stack_trace:
        return None
    last = None
    lines = stack_trace.splitlines()
    for i, ln in enumerate(lines):
        m = _FRAME_RE.search(ln)
        if m:
            code = lines[i + 1].strip() if i + 1 < len(lines) and not _FRAME_RE.search(lines[i + 1]) else ""
            last = {"file": m.group("file"), "line": int(m.group("line")),
                    "function": m.group("func").strip(), "code": code}
    return last


def target_name(node):
    import torch
    t = node.target
    if node.op in ("placeholder", "output", "get_attr", "call_module", "call_method"):
        return str(t)
    if isinstance(t, torch._ops.OpOverload):
        return "torch.ops." + str(t)  # str() is "aten.add.Tensor"; readable prints torch.ops.aten.add.Tensor
    if isinstance(t, torch._ops.OpOverloadPacket):
        return "torch.ops." + str(t)
    if isinstance(t, torch._ops.HigherOrderOperator):
        return "torch.ops.higher_order." + t.__name__
    mod = getattr(t, "__module__", None) or ""
    name = getattr(t, "__qualname__", None) or getattr(t, "__name__", None) or repr(t)
    if mod in ("_operator", "operator"):
        mod = "operator"
    return (mod + "." + name) if mod else name


def _float(v):
    import math
    if math.isfinite(v):
        return v
    return {"repr": repr(v)}  # JSON has no inf/nan


def arg_json(a):
    """args/kwargs values: node refs, arrays, dtypes, devices, symbolic numbers, scalars, else repr."""
    import torch
    import torch.fx
    if isinstance(a, torch.fx.Node):
        return {"node": a.name}
    if isinstance(a, (list, tuple, torch.Size)):
        return [arg_json(x) for x in a]
    if isinstance(a, dict):
        return {"dict": [[arg_json(k), arg_json(v)] for k, v in a.items()]}
    if isinstance(a, torch.dtype):
        return {"dtype": str(a)}
    if isinstance(a, torch.device):
        return {"device": str(a)}
    if isinstance(a, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        return {"sym": str(a)}
    if a is None or isinstance(a, (bool, str)):
        return a
    if isinstance(a, int):
        return a
    if isinstance(a, float):
        return _float(a)
    return {"repr": repr(a)}


def val_json(v):
    import torch
    if v is None:
        return {"kind": "none"}
    if isinstance(v, torch.Tensor):
        d = {"kind": "tensor", "dtype": dtype_short(v.dtype), "shape": [str(s) for s in v.shape],
             "device": str(v.device)}
        try:
            d["stride"] = [str(s) for s in v.stride()]
        except Exception:  # sparse / nested tensors have no strides
            d["stride"] = None
        return d
    if isinstance(v, torch.SymInt):
        return {"kind": "symint", "expr": str(v)}
    if isinstance(v, torch.SymFloat):
        return {"kind": "symfloat", "expr": str(v)}
    if isinstance(v, torch.SymBool):
        return {"kind": "symbool", "expr": str(v)}
    if isinstance(v, (list, tuple)):
        return {"kind": "tuple", "items": [val_json(x) for x in v]}
    if isinstance(v, (bool, int)):
        return {"kind": "scalar", "value": v}
    if isinstance(v, float):
        return {"kind": "scalar", "value": _float(v)}
    return {"kind": "scalar", "value": {"repr": repr(v)}}


def mutated_inputs(node):
    """Names of the argument nodes an op writes to (schema alias_info.is_write)."""
    import torch
    import torch.fx
    t = node.target
    if node.op != "call_function" or not isinstance(t, torch._ops.OpOverload):
        return []
    out = []
    for i, sa in enumerate(t._schema.arguments):
        if sa.alias_info is None or not sa.alias_info.is_write:
            continue
        a = node.args[i] if i < len(node.args) else node.kwargs.get(sa.name)
        for x in (a if isinstance(a, (list, tuple)) else [a]):
            if isinstance(x, torch.fx.Node):
                out.append(x.name)
    return out


def graph_to_json(gm, graph_name="graph", extra=None):
    import torch
    nodes = []
    for n in gm.graph.nodes:
        muts = mutated_inputs(n)
        entry = {
            "name": n.name,
            "op": n.op,
            "target": target_name(n),
            "args": arg_json(list(n.args)),
            "kwargs": {k: arg_json(v) for k, v in n.kwargs.items()},
            "val": val_json(n.meta["val"]) if "val" in n.meta else None,
            "mutates": muts[0] if muts else None,
            "user_source": user_source(n.meta.get("stack_trace")),
        }
        if len(muts) > 1:
            entry["mutates_all"] = muts
        nodes.append(entry)
    doc = {FORMAT_KEY: FORMAT_VERSION, "torch_version": torch.__version__, "graph": graph_name}
    if extra:
        doc.update(extra)
    doc["nodes"] = nodes
    return doc


# ---------------------------------------------------------------- the backend

_counter = [0]


def _inductor_folders():
    """Current set of torchinductor/<model> debug folders (empty when debug output is off)."""
    try:
        from torch._dynamo.utils import get_debug_dir
        root = os.path.join(get_debug_dir(), "torchinductor")
    except Exception:
        return set()
    if not os.path.isdir(root):
        return set()
    return {os.path.join(root, d) for d in os.listdir(root) if os.path.isdir(os.path.join(root, d))}


def _write(doc, path):
    with open(path, "w") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")


def _exporting_inner_compile(gm, example_inputs, **kwargs):
    from torch._inductor.compile_fx import compile_fx_inner
    kind = "backward" if kwargs.get("is_backward") else ("inference" if kwargs.get("is_inference") else "forward")
    idx = _counter[0]
    _counter[0] += 1
    # Serialize before compiling: post-grad passes rewrite gm in place.
    doc = graph_to_json(gm, graph_name="%d_%s" % (idx, kind), extra={"kind": kind})
    before = _inductor_folders()
    result = compile_fx_inner(gm, example_inputs, **kwargs)
    new = sorted(_inductor_folders() - before)
    written = None
    for d in new:
        if os.path.isfile(os.path.join(d, "fx_graph_readable.py")):
            doc["graph"] = os.path.basename(d)
            written = os.path.join(d, "fx_graph.json")
            break
    if written is None:
        out_dir = os.environ.get("ILINT_FX_JSON_DIR", "fx_json")
        os.makedirs(out_dir, exist_ok=True)
        written = os.path.join(out_dir, "%d_%s.json" % (idx, kind))
    _write(doc, written)
    print("[export_fx_json] wrote %s (%d nodes)" % (written, len(doc["nodes"])), file=sys.stderr)
    return result


def inductor_with_fx_json(gm, example_inputs, **options):
    """A torch.compile backend: Inductor, with each inner-compiled graph written as JSON."""
    from torch._inductor.compile_fx import compile_fx
    return compile_fx(gm, example_inputs, inner_compile=_exporting_inner_compile,
                      config_patches=options.get("options") or None)


def install():
    """Route torch.compile(backend="inductor") (the default) through inductor_with_fx_json."""
    import torch
    real_compile = torch.compile

    def compile_with_export(model=None, *args, **kwargs):
        backend = kwargs.get("backend", "inductor")
        if backend == "inductor" and not kwargs.get("mode") and not kwargs.get("options"):
            kwargs["backend"] = inductor_with_fx_json
        if model is None:
            return lambda m: real_compile(m, *args, **kwargs)
        return real_compile(model, *args, **kwargs)

    compile_with_export.__wrapped__ = real_compile
    torch.compile = compile_with_export
    return real_compile


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) < 2 or argv[0] != "run":
        print("usage: export_fx_json.py run PROGRAM [ARGS...]", file=sys.stderr)
        return 2
    program = argv[1]
    if not os.path.isfile(program):
        print("export_fx_json.py: no such program: %s" % program, file=sys.stderr)
        return 2
    install()
    import runpy
    sys.argv = [program] + argv[2:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(program)))
    runpy.run_path(program, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
