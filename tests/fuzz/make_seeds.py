#!/usr/bin/env python3
"""Seed corpora for the fuzz targets, cut from the real captures in fixtures/ (made at fuzz time,
not committed). One folder per target under OUT:

  fuzz_python       output_code.py, fx_graph_readable.py, fx_graph_runnable.py of every compile
  fuzz_triton       every Triton kernel source inside the output_code.py files
  fuzz_output_code  every output_code.py
  fuzz_fx_text      every fx_graph_readable.py / fx_graph_transformed.py, and the "# Graph fragment:"
                    comment blocks of output_code.py
  fuzz_fx_json      FX graph JSON documents (the inductor_lint_fx_graph format read by parse_fx_json)
                    made from the nodes of each fx_graph_readable.py, plus the provenance JSON files
  fuzz_cpp_kernel   every C++ kernel source (cpp_pybinding), and pairs of them joined by a form feed
  fuzz_cpp_kernel_hand
                    every C++ kernel source (cpp_pybinding)
  fuzz_cpp_wrapper  every C++ wrapper source (cpp_wrapper_src)
  fuzz_cpp_wrapper_hand  the same wrapper sources (the hand reader, compared with Clang's)
  fuzz_cpp_limits   every C++ kernel and wrapper source (the scan before Clang, cpp_limits.h)
  fuzz_dynamo_lines / fuzz_dynamo_logs
                    TORCH_LOGS text (stderr.txt), torchdynamo/debug.log and TORCH_TRACE logs, cut at
                    line boundaries into pieces of about 8 KB (the first 8 pieces of each file)
  fuzz_trace_envelope
                    the JSON text of every TORCH_TRACE envelope line (distinct ones)
  fuzz_user_files   the recorded confirmation answers of tests/gpu/results/ (each alone, and as
                    --confirm-results lists naming the fingerprints the target's findings carry),
                    and a config and a baseline of the forms docs/ describes
Files are named by content hash so re-running is idempotent. Prints the count per target.
"""
import hashlib
import json
import os
import re
import sys

TRITON_SRC = re.compile(r"async_compile\.triton\('[^']*', '''(.*?)'''", re.S)
CPP_SRC = re.compile(r"async_compile\.cpp_pybinding\(\[[^\]]*\], r?'''(.*?)'''", re.S)
CPP_WRAPPER_SRC = re.compile(r"cpp_wrapper_src = \(\s*r?'''(.*?)'''", re.S)
NODE = re.compile(r'^\s+(\w+): "([^"]*)" = ([\w.]+)\((.*)\)\s*(?:#.*)?$', re.M)
ANN = re.compile(r"^([a-z]+[0-9]*)\[([^\]]*)\](?:\[([^\]]*)\])?(.*)$")


def put(out, target, data):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()[:16]), "wb") as f:
        f.write(data)


def fx_json_from_readable(text):
    nodes = []
    for m in re.finditer(r"def forward\(self, (.*?)\):", text):
        for name, ann in re.findall(r'(\w+): "([^"]*)"', m.group(1)):
            nodes.append({"name": name, "op": "placeholder", "val": val(ann)})
        break
    names = {n["name"] for n in nodes}
    for name, ann, target, args in NODE.findall(text):
        a = [{"node": x} if x in names else {"repr": x} for x in (s.strip() for s in args.split(",")) if x]
        nodes.append({"name": name, "op": "call_function", "target": target, "args": a, "kwargs": {}, "val": val(ann)})
        names.add(name)
    return {"inductor_lint_fx_graph": 1, "torch_version": "2.11.0", "nodes": nodes}


def val(ann):
    m = ANN.match(ann)
    if not m:
        return {"kind": "symint", "expr": ann}
    return {"kind": "tensor", "dtype": m.group(1), "shape": [s for s in m.group(2).split(", ") if s],
            "stride": [s for s in (m.group(3) or "").split(", ") if s], "device": m.group(4) or "cpu"}


def log_pieces(text, size=8192, most=8):
    piece, out = [], []
    n = 0
    for line in text.splitlines(keepends=True):
        piece.append(line)
        n += len(line)
        if n >= size:
            out.append("".join(piece))
            piece, n = [], 0
            if len(out) >= most:
                return out
    if piece:
        out.append("".join(piece))
    return out


def user_file_seeds(out):
    results = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "gpu", "results")
    for name in sorted(os.listdir(results)) if os.path.isdir(results) else []:
        if not name.endswith(".json"):
            continue
        with open(os.path.join(results, name)) as f:
            text = f.read()
        put(out, "fuzz_user_files", text)
        try:
            answer = json.loads(text)
        except ValueError:
            continue
        put(out, "fuzz_user_files", json.dumps([{"fingerprint": "f1", "answer": answer},
                                                {"compile_dir": "model__0_forward_1.0", "rule": "reduced-precision-scan",
                                                 "answer": answer}]))
    put(out, "fuzz_user_files", json.dumps({
        "fail_on": "warning",
        "rules": {"stale-scalar": "error", "reduced-precision-scan": {"enabled": True, "severity": "note"}},
        "suppress": [{"rule": "stale-scalar", "location": "train.py:12", "reason": "known"},
                     {"rule": "*", "file": "train.py", "line": 13, "reason": "all"}]}, indent=1))
    put(out, "fuzz_user_files", json.dumps({
        "tool": "inductor-lint", "version": 1,
        "findings": [{"rule": "stale-scalar", "fingerprint": "f1", "message": "m", "user_location": "train.py:12",
                      "count": 2}]}, indent=1))


def main():
    fixtures, out = sys.argv[1], sys.argv[2]
    for dp, dn, fn in sorted(os.walk(fixtures)):
        for name in sorted(fn):
            path = os.path.join(dp, name)
            if name == "stderr.txt" or name.startswith("dedicated_log_torch_trace") or (
                    name == "debug.log" and os.path.basename(dp) == "torchdynamo"):
                with open(path, errors="replace") as f:
                    text = f.read()
                for piece in log_pieces(text):
                    put(out, "fuzz_dynamo_lines", piece)
                    put(out, "fuzz_dynamo_logs", piece)
                if name.startswith("dedicated_log_torch_trace"):
                    for line in text.splitlines():
                        at = line.find("] {")
                        if at >= 0:
                            put(out, "fuzz_trace_envelope", line[at + 2:])
                continue
            if name in ("output_code.py", "fx_graph_readable.py", "fx_graph_runnable.py", "fx_graph_transformed.py",
                        "inductor_provenance_tracking_node_mappings.json"):
                with open(path, errors="replace") as f:
                    text = f.read()
            else:
                continue
            if name.endswith(".py"):
                put(out, "fuzz_python", text)
            if name == "output_code.py":
                put(out, "fuzz_output_code", text)
                for src in TRITON_SRC.findall(text):
                    put(out, "fuzz_triton", src)
                cpp = CPP_SRC.findall(text)
                for src in cpp:
                    put(out, "fuzz_cpp_kernel", src)
                    put(out, "fuzz_cpp_kernel_hand", src)
                    put(out, "fuzz_cpp_limits", src)
                if len(cpp) >= 2:  # two kernels in one input: the batch path
                    put(out, "fuzz_cpp_kernel", cpp[0] + "\f" + cpp[1])
                for src in CPP_WRAPPER_SRC.findall(text):
                    put(out, "fuzz_cpp_wrapper", src)
                    put(out, "fuzz_cpp_wrapper_hand", src)
                    put(out, "fuzz_cpp_limits", src)
                block = [l for l in text.splitlines() if l.startswith("#   %") or l.startswith("# Graph fragment")]
                if block:
                    put(out, "fuzz_fx_text", "\n".join(block) + "\n")
            if name in ("fx_graph_readable.py", "fx_graph_transformed.py"):
                put(out, "fuzz_fx_text", text)
                put(out, "fuzz_fx_json", json.dumps(fx_json_from_readable(text), indent=1))
            if name.endswith(".json"):
                put(out, "fuzz_fx_json", text)
    user_file_seeds(out)
    for t in sorted(os.listdir(out)):
        print(t, len(os.listdir(os.path.join(out, t))))


if __name__ == "__main__":
    main()
