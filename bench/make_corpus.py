#!/usr/bin/env python3
"""Builds the large benchmark corpus from the real captures in fixtures/ (not committed: made at bench time).

Every compile folder of every fixture (torchinductor/model__N_<kind>_<id>/, copied whole) is replicated
until the corpus holds about --kernels kernels. Replicas are spread over --shards shard folders of equal
size, so a benchmark can take the first 1/4, 1/2 or all shards as three input sizes without a second copy.

Two modes:
  varied     each replica's kernels are renamed consistently (every file of the folder, whole words:
             triton_poi_fused_add_0 -> triton_poi_fused_add_0_r17; a C++ kernel's `extern "C" void
             kernel(` -> `kernel_r17(`; the `extern "C" void cpp_fused_*(` kernels defined in a C++
             wrapper too), so no two replicas' kernel sources are the same bytes; readers that
             cache by source hash (the Clang C++ reader) cannot reuse work across replicas.
  identical  the folders are byte-for-byte copies (hard links to the fixture files where the file
             system allows, else copies): every kernel source repeats.
--no-cpp keeps only the compile folders with no C++ kernel and no C++ wrapper (Triton only: what a
CUDA user's torch.compile writes), so the C++ (Clang) share of the cost can be told apart.

Layout: OUT/shard_000/r00017_s2_cuda/torchinductor/model__0_forward_1.0/{output_code.py, ...}
Prints one JSON line: compiles, kernels, bytes, shards.
"""
import argparse
import json
import os
import re
import shutil
import sys

CPP_KERNEL_FN = re.compile(rb'(extern "C"\s+void\s+)kernel\(')
KERNEL_DEF = re.compile(rb"^(\w+) = async_compile\.(?:triton|cpp_pybinding|cpp)\(", re.M)
# The C++ kernels of a cpp_wrapper=True compile are functions of the wrapper's C++ string, not
# `name = async_compile...` assignments: `extern "C"  void cpp_fused_add_0(`.
WRAPPER_KERNEL_FN = re.compile(rb'extern "C"\s+void\s+(cpp_fused_\w+)\(')


CPP_MARK = (b"async_compile.cpp_pybinding", b"cpp_wrapper_src")


def compile_folders(fixtures, no_cpp=False):
    out = []
    for fx in sorted(os.listdir(fixtures)):
        root = os.path.join(fixtures, fx)
        if not os.path.isdir(root):
            continue
        for dp, dn, fn in os.walk(root):
            dn.sort()
            if os.path.basename(os.path.dirname(dp)) == "torchinductor" and "output_code.py" in fn:
                with open(os.path.join(dp, "output_code.py"), "rb") as f:
                    code = f.read()
                if no_cpp and any(m in code for m in CPP_MARK):
                    continue
                names = KERNEL_DEF.findall(code)
                if b"cpp_wrapper_src" in code:
                    names += sorted(set(WRAPPER_KERNEL_FN.findall(code)))
                files = {}
                for name in sorted(fn):
                    with open(os.path.join(dp, name), "rb") as f:
                        files[name] = f.read()
                out.append({"fixture": fx, "dir": dp, "name": os.path.basename(dp), "kernels": names,
                            "files": files})
    return out


def write_replica(folder, dst, replica, mode):
    os.makedirs(dst, exist_ok=True)
    if mode == "identical":
        for name, data in folder["files"].items():
            src = os.path.join(folder["dir"], name)
            target = os.path.join(dst, name)
            try:
                os.link(src, target)
            except OSError:
                shutil.copyfile(src, target)
        return
    names = sorted(set(folder["kernels"]), key=len, reverse=True)
    pattern = re.compile(rb"\b(" + b"|".join(re.escape(n) for n in names) + rb")\b") if names else None
    suffix = ("_r%d" % replica).encode()
    for name, data in folder["files"].items():
        if pattern is not None:
            data = pattern.sub(lambda m: m.group(1) + suffix, data)
        if name == "output_code.py":
            # C++ kernel sources name their function `kernel`, not the wrapper's variable: rename
            # it too, or every replica's C++ source would still be the same bytes.
            data = CPP_KERNEL_FN.sub(lambda m: m.group(1) + b"kernel" + suffix + b"(", data)
        with open(os.path.join(dst, name), "wb") as f:
            f.write(data)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--kernels", type=int, default=100000)
    ap.add_argument("--shards", type=int, default=4)
    ap.add_argument("--mode", choices=["varied", "identical"], default="varied")
    ap.add_argument("--no-cpp", action="store_true",
                    help="only compile folders without C++ kernels or a C++ wrapper (a CUDA user's compiles)")
    a = ap.parse_args()

    folders = compile_folders(a.fixtures, a.no_cpp)
    per_set = sum(len(f["kernels"]) for f in folders)
    if not folders or per_set == 0:
        sys.exit("no compile folders with kernels under " + a.fixtures)
    # Whole sets of every fixture's folders, a multiple of the shard count so shards are equal.
    sets = max(a.shards, round(a.kernels / per_set / a.shards) * a.shards)
    if os.path.exists(a.out):
        shutil.rmtree(a.out)
    compiles = kernels = size = 0
    for r in range(sets):
        shard = os.path.join(a.out, "shard_%03d" % (r * a.shards // sets))
        for f in folders:
            dst = os.path.join(shard, "r%05d_%s" % (r, f["fixture"]), "torchinductor", f["name"])
            write_replica(f, dst, r, a.mode)
            compiles += 1
            kernels += len(f["kernels"])
            size += sum(os.path.getsize(os.path.join(dst, n)) for n in f["files"])
    print(json.dumps({"mode": a.mode, "compiles": compiles, "kernels": kernels, "bytes": size, "shards": a.shards,
                      "replicas": sets}))


if __name__ == "__main__":
    main()
