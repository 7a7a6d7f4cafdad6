# Programs that make Inductor write the rarer kernel forms, for the kernel form census: atomics, split
# scans (cross-block workspace), cooperative reductions, combo kernels, block pointers and tensor
# descriptors, indirect-indexing bounds asserts, libdevice calls and inline asm on Triton; atomic_add,
# transposed tiles (transpose_mxn), tail loads/stores with counts and bounds checks in C++ on the CPU.
# What each program computes only needs to be real Inductor output; the config each form sets is printed.
#
# usage: kernel_forms.py FORM [cuda|cpu]
#   atomic_add      index_put(accumulate=True) (f32, 2-D rows, bf16), scatter_add, index_add, indices repeat
#                   (cpu: config.cpp.fallback_scatter_reduce_sum=False, so scatter_add is lowered, not aten)
#   atomic_add_scalar  the same with config.cpp.simdlen=1 (C++ only: scalar atomic_add instead of atomic_add_vec)
#   scatter_amax    scatter_reduce amax / amin / mean (Inductor lowers only sum: expect an aten fallback)
#   split_scan      torch.cumsum over a 2**20 dim of a (2, 2**20) tensor (triton_spl_*, ws_ptr, lookback)
#   coop_reduction  config.triton.cooperative_reductions=True: sum / amax / var_mean over (4, 2**20)
#   combo           config.combo_kernels=True: independent pointwise ops and one reduction in one graph
#   block_ptr       config.triton.use_block_ptr=True: pointwise, transposed add, row and column sums
#   tensor_desc     config.triton.use_tensor_descriptor=True (+ assume_aligned_inputs=True): same program
#   device_assert   x[idx], gather, embedding with runtime indices (default assert_indirect_indexing=True)
#   libdevice       erfinv, lgamma, atan2, pow, fmod, nextafter, tanh, ...: libdevice calls on Triton
#   inline_asm      PTX mul/fma as tl.inline_asm_elementwise: torch._higher_order_ops.inline_asm_elementwise
#                   where torch has it (2.12 on), else a custom op with a registered Inductor lowering
#                   (env FORMS_ASM=hop|lowering picks one)
#   combo_blocks    combo with config.combo_kernel_per_subkernel_blocks=True (XBLOCK_0, XBLOCK_1, ...)
#   transpose       x.t() * 2 + y, a 3-D permute, a bf16 transpose: tiled C++ kernels with transpose_mxn
#   masked_tail     F.pad, cat, where and sums over odd sizes: masked loads and loadu/store with counts
# Prints, per output, the max abs difference eager vs compiled and each vs a float64 eager run.
import os
import sys

import torch
import torch._inductor.config as icfg
import torch.nn.functional as F

form = sys.argv[1]
dev = sys.argv[2] if len(sys.argv) > 2 else "cuda"
torch.manual_seed(0)


def atomic_add(x, idx, v, x2, ridx, v2, xb, vb, src):
    a = torch.index_put(x, (idx,), v, accumulate=True)
    b = x.scatter_add(0, idx, src)
    c = x.index_add(0, idx, v * 2)
    d = torch.index_put(x2, (ridx,), v2, accumulate=True)
    e = torch.index_put(xb, (idx,), vb, accumulate=True)
    return a, b, c, d, e


def scatter_amax(x, idx, src):
    return (x.scatter_reduce(0, idx, src, reduce="amax"),
            x.scatter_reduce(0, idx, src, reduce="amin", include_self=False),
            x.scatter_reduce(0, idx, src, reduce="mean"))


def split_scan(x):
    return torch.cumsum(x, -1), torch.cumsum(x * 0.5 + 1.0, -1)


def coop_reduction(x):
    m = x.amax(-1)
    v, mu = torch.var_mean(x, -1)
    return x.sum(-1), m, v, mu


def combo(a, b, c, d):
    return a.sin() + 1, (b * 2).cos(), torch.sigmoid(c) * c, d.sum(-1)


def tiles(x, y, z):
    return x * 2 + y, x + y.t(), x.sum(-1), y.sum(0), (z * z).sum(-1)


def device_assert(x, idx, table, rows):
    return x[idx] * 2, torch.gather(table, 1, rows), F.embedding(idx % table.shape[0], table), table[rows[:, 0]].sum(-1)


def libdevice(x):
    y = x.abs() + 0.5
    return (torch.erfinv(torch.tanh(x) * 0.9), torch.lgamma(y), torch.atan2(x, y), torch.pow(y, 1.7),
            torch.fmod(x, 0.7), torch.nextafter(x, y), torch.tanh(x) + torch.asinh(x), torch.log1p(y) * torch.expm1(x * 0.1),
            torch.special.i0(x), torch.erfc(x))


def inline_asm(x, y, z):
    if ASM_MODE == "hop":
        hop = torch._higher_order_ops.inline_asm_elementwise
        a = hop(x, y, asm_str="mul.rn.f32 $0, $1, $2;", constraints="=f,f,f", dtype=torch.float32)
        b = hop(x, y, z, asm_str="fma.rn.f32 $0, $1, $2, $3;", constraints="=f,f,f,f", dtype=torch.float32)
    else:
        a = torch.ops.kernel_forms.asm_mul(x, y)
        b = torch.ops.kernel_forms.asm_fma(x, y, z)
    return a + 1, b * 2


def register_asm_lowerings():
    # Before the higher-order op (torch 2.12), the way to reach tl.inline_asm_elementwise is a custom op
    # with a user-registered Inductor lowering over ops.inline_asm_elementwise (as attention-gym's
    # tanh.approx softcap does). Eager runs the plain formula.
    from functools import partial
    from torch._inductor.lowering import make_pointwise, register_lowering
    from torch._inductor.virtualized import ops

    @torch.library.custom_op("kernel_forms::asm_mul", mutates_args=())
    def asm_mul(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return x * y

    @torch.library.custom_op("kernel_forms::asm_fma", mutates_args=())
    def asm_fma(x: torch.Tensor, y: torch.Tensor, z: torch.Tensor) -> torch.Tensor:
        return x * y + z

    asm_mul.register_fake(lambda x, y: torch.empty_like(x))
    asm_fma.register_fake(lambda x, y, z: torch.empty_like(x))

    def lowering(asm, constraints):
        return lambda *xs: make_pointwise(partial(ops.inline_asm_elementwise, asm=asm, constraints=constraints,
                                                  dtype=torch.float32))(*xs)

    register_lowering(torch.ops.kernel_forms.asm_mul, type_promotion_kind=None)(
        lowering("mul.rn.f32 $0, $1, $2;", "=f,f,f"))
    register_lowering(torch.ops.kernel_forms.asm_fma, type_promotion_kind=None)(
        lowering("fma.rn.f32 $0, $1, $2, $3;", "=f,f,f,f"))


def inline_asm_ref(x, y, z):
    return x * y + 1, (x * y + z) * 2


def transpose(x, y, w, xb):
    return x.t() * 2 + y, w.permute(0, 2, 1).contiguous() + 1, (xb.t() + 1).to(torch.bfloat16)


def masked_tail(x, y):
    p = F.pad(x, (1, 2), value=0.5)
    c = torch.cat([x, y * 2], 1)
    w = torch.where(x > 0.2, x, y)
    return p, c, w.sum(-1), (x * y).sum(0), F.pad(x, (0, 0, 2, 1)).amax(-1)


def mk(*shapes, dtype=torch.float32):
    return tuple(torch.randn(*s, dtype=dtype) for s in shapes)


N_BIG = 2 ** 20
VARIANTS = {
    # name: (function, args factory, config to set)
    "atomic_add": (atomic_add, lambda: (torch.randn(1000), torch.randint(0, 100, (5000,)), torch.randn(5000),
                                        torch.randn(64, 128), torch.randint(0, 16, (300,)), torch.randn(300, 128),
                                        torch.randn(1000, dtype=torch.bfloat16), torch.randn(5000, dtype=torch.bfloat16),
                                        torch.randn(5000)), {}),
    "scatter_amax": (scatter_amax, lambda: (torch.randn(1000), torch.randint(0, 100, (5000,)), torch.randn(5000)), {}),
    "split_scan": (split_scan, lambda: mk((2, N_BIG)), {}),
    "coop_reduction": (coop_reduction, lambda: mk((4, N_BIG)), {"triton.cooperative_reductions": True}),
    "combo": (combo, lambda: mk((1000,), (33, 65), (4096,), (64, 300)), {"combo_kernels": True}),
    "combo_blocks": (combo, lambda: mk((1000,), (33, 65), (4096,), (64, 300)),
                     {"combo_kernels": True, "combo_kernel_per_subkernel_blocks": True}),
    "block_ptr": (tiles, lambda: mk((1024, 1024), (1024, 1024), (256, 4096)), {"triton.use_block_ptr": True}),
    "tensor_desc": (tiles, lambda: mk((1024, 1024), (1024, 1024), (256, 4096)),
                    {"triton.use_tensor_descriptor": True, "assume_aligned_inputs": True}),
    "device_assert": (device_assert, lambda: (torch.randn(1000), torch.randint(0, 1000, (4096,)), torch.randn(50, 24),
                                              torch.randint(0, 24, (50, 7))), {}),
    "libdevice": (libdevice, lambda: mk((8193,)), {}),
    "inline_asm": (inline_asm, lambda: mk((4097,), (4097,), (4097,)), {}),
    "transpose": (transpose, lambda: (torch.randn(128, 96), torch.randn(96, 128), torch.randn(8, 64, 48),
                                      torch.randn(64, 80, dtype=torch.bfloat16)), {}),
    "masked_tail": (masked_tail, lambda: mk((37, 77), (37, 77)), {}),
}
# the same program with C++ vectorization off (cpp.simdlen=1): scalar atomic_add(&ptr[i], v), not atomic_add_vec
VARIANTS["atomic_add_scalar"] = (atomic_add, VARIANTS["atomic_add"][1], {"cpp.simdlen": 1})
if dev == "cpu":
    for v in ("atomic_add", "atomic_add_scalar"):
        VARIANTS[v][2]["cpp.fallback_scatter_reduce_sum"] = False

fn, make, settings = VARIANTS[form]


def set_config(key, value):
    obj = icfg
    *path, last = key.split(".")
    for p in path:
        obj = getattr(obj, p)
    if not hasattr(obj, last):
        print("config %s: not in this torch (%s)" % (key, torch.__version__))
        sys.exit(3)
    setattr(obj, last, value)


for k, v in settings.items():
    set_config(k, v)
print("config form=%s device=%s torch=%s %s" % (form, dev, torch.__version__,
                                                " ".join("%s=%s" % kv for kv in settings.items()) or "(defaults)"))
ASM_MODE = os.environ.get("FORMS_ASM") or (
    "hop" if hasattr(torch._higher_order_ops, "inline_asm_elementwise") else "lowering")
if form == "inline_asm":
    print("config inline_asm via %s" % ("torch._higher_order_ops.inline_asm_elementwise" if ASM_MODE == "hop" else
                                        "custom ops kernel_forms::asm_mul/asm_fma lowered to ops.inline_asm_elementwise"))
    if ASM_MODE != "hop":
        register_asm_lowerings()


def run(f, args):
    out = f(*args)
    flat = [o for o in (out if isinstance(out, tuple) else (out,)) if isinstance(o, torch.Tensor)]
    return [o.detach() for o in flat]


def diff(a, b):
    if a.dtype == torch.bool or not (a.is_floating_point() or b.is_floating_point()):
        return float((a.long() != b.long()).sum())
    return float((a.double() - b.double()).abs().nan_to_num(0.0).max()) if a.numel() else 0.0


args = [a.to(dev) for a in make()]
compiled = torch.compile(fn, backend="inductor")
eager_fn = fn
if form == "inline_asm":
    try:  # eager runs the asm through the CUDA jiterator; the plain formula is the reference if it can't
        run(fn, args)
    except Exception as ex:
        print("inline_asm eager: %s: %s (reference: the same formula without asm)" % (type(ex).__name__, ex))
        eager_fn = inline_asm_ref
eager = run(eager_fn, args)
comp = run(compiled, args)
if dev == "cuda":
    torch.cuda.synchronize()
ref_fn = inline_asm_ref if form == "inline_asm" else fn
ref = run(ref_fn, [a.double() if a.is_floating_point() else a for a in args])
for i, (e, c, r) in enumerate(zip(eager, comp, ref)):
    print("%s out%d dtype=%s shape=%s eager_vs_compiled=%.3g eager_vs_f64=%.3g compiled_vs_f64=%.3g"
          % (form, i, c.dtype, tuple(c.shape), diff(e, c), diff(e, r), diff(c, r)))
