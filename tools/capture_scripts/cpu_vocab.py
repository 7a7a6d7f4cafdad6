# CPU programs that make Inductor write the C++ its kernels and wrappers use beyond the seed captures
# (issue 7): Welford reductions, argmax, NaN-propagating max, erf/tanh/exp tails, indirect indexing with
# bounds asserts, integer and bool reductions, bf16 and mixed dtypes, symbolic sizes, backward graphs.
# The hand readers of C++ (analyzer/cpp/cpp_kernel_hand.*, cpp_wrapper_hand.*) are checked against Clang
# on these captures; what each program computes only needs to be real Inductor output.
#
# usage: cpu_vocab.py VARIANT       (env VOCAB_DYNAMIC=1: torch.compile(dynamic=True))
# Prints, per output, the max abs difference eager vs compiled and each vs a float64 eager run.
import os
import sys

import torch
import torch.nn.functional as F

variant = sys.argv[1]
dynamic = os.environ.get("VOCAB_DYNAMIC") == "1"
torch.manual_seed(0)


def layer_norm(x, w, b):
    return F.layer_norm(x, (x.shape[-1],), w, b, eps=1e-5)


def var_mean(x):
    v, m = torch.var_mean(x, dim=-1, correction=1)
    return v, m, x.var(dim=0)


def arg_reduce(x):
    return x.argmax(-1), x.argmin(0), x.amax(-1), x.amin(0)


def softmax(x):
    return F.softmax(x, -1), F.log_softmax(x * 0.5, 0)


def activations(x):
    return F.gelu(x), F.gelu(x, approximate="tanh"), F.silu(x), torch.sigmoid(x) * torch.tanh(x), F.elu(x), F.mish(x)


def pointwise_math(x):
    y = x.abs() + 1
    return (torch.rsqrt(y) + torch.log1p(y) + torch.expm1(x * 0.1) + torch.pow(y, 1.5) + torch.atan2(x, y)
            + torch.fmod(x, 0.7) + torch.remainder(x, 0.3) + torch.floor(x) + torch.round(x) + torch.sign(x)
            + torch.erfinv(torch.tanh(x) * 0.9) + torch.lgamma(y))


def index_ops(x, idx, emb):
    g = torch.gather(x, 1, idx)
    e = F.embedding(idx[:, 0], emb)
    s = x[idx[:, 1]]
    return g, e, s, x.index_select(0, idx[:, 2])


def masked(x):
    m = x > 0.3
    return x.masked_fill(m, -1e4), torch.where(m, x, x * 2), m.any(-1), m.all(0), m.sum(-1), x.clamp(-0.5, 0.5)


def int_ops(a, b):
    return (a + b) * 3, a // (b.abs() + 1), a % 7, (a & b) | (a ^ 5), a.sum(-1), a.max(-1).values, (a > b).long().cumsum(-1)


def bf16_mix(x, y):
    xb = x.to(torch.bfloat16)
    yb = y.to(torch.bfloat16)
    return (xb * yb + xb).float().sum(-1), (xb.float() * y).to(torch.bfloat16), torch.exp(xb).mean(0)


def half_mix(x):
    h = x.to(torch.float16)
    return (h * h + 1).float(), h.float().sum(0)


def cross_entropy(x, t):
    return F.cross_entropy(x, t), F.nll_loss(F.log_softmax(x, -1), t, reduction="none")


def pool_norm(x, w):
    y = F.max_pool2d(x, 2)
    y = F.avg_pool2d(y, 2) + F.adaptive_avg_pool2d(x, 1)
    return F.batch_norm(x, None, None, w, None, training=True), y


def conv_block(x, w):
    return F.relu(F.conv2d(x, w, padding=1)).mean((2, 3))


def mlp_train(x, w1, w2):
    h = F.gelu(x @ w1)
    return F.layer_norm(h @ w2, (w2.shape[1],)).pow(2).mean()


def attention(q, k, v):
    s = (q @ k.transpose(-1, -2)) / (q.shape[-1] ** 0.5)
    mask = torch.ones(s.shape[-2:], dtype=torch.bool).tril()
    s = s.masked_fill(~mask, float("-inf"))
    return F.softmax(s, -1) @ v


def scans(x):
    return torch.cumsum(x, -1), torch.cumprod(x.clamp(0.9, 1.1), 0), torch.logcumsumexp(x, -1)


def sort_topk(x):
    v, i = torch.topk(x, 3, -1)
    return v * 2, i + 1, torch.sort(x, 0).values.sum(0)


def norms(x):
    return F.normalize(x, dim=-1), torch.linalg.vector_norm(x, 3, -1), F.rms_norm(x, (x.shape[-1],), eps=1e-6)


def views(x):
    y = x.t().contiguous().t() + x[::2].repeat(2, 1)  # (x.t() here was a shape error: the kept *_s16 captures lack `views`)
    return y, torch.cat([x, x * 2], 0).flip(1), F.pad(x, (1, 2), value=0.5), x.unfold(1, 4, 2).sum(-1)


def nan_max(x):
    y = torch.where(x > 1.5, torch.full_like(x, float("nan")), x)
    return y.amax(-1), torch.maximum(y, x * 0.5), torch.nan_to_num(y).max(0).values, torch.isnan(y).sum()


def std_welford(x):
    return x.std(-1), torch.std_mean(x, 0), x.var(dim=(0, 1), keepdim=True)


def rand_ops(x):
    torch.manual_seed(1)
    return F.dropout(x, 0.3, training=True).sum(), torch.rand_like(x).shape


VARIANTS = {
    # name: (function, args factory, grads wanted)
    "layer_norm": (layer_norm, lambda: (torch.randn(32, 200), torch.randn(200), torch.randn(200)), True),
    "var_mean": (var_mean, lambda: (torch.randn(48, 300),), False),
    "arg_reduce": (arg_reduce, lambda: (torch.randn(40, 130),), False),
    "softmax": (softmax, lambda: (torch.randn(64, 257),), True),
    "activations": (activations, lambda: (torch.randn(1000, 33),), True),
    "pointwise_math": (pointwise_math, lambda: (torch.randn(4097),), False),
    "index_ops": (index_ops, lambda: (torch.randn(64, 50), torch.randint(0, 50, (64, 3)), torch.randn(50, 24)), False),
    "masked": (masked, lambda: (torch.randn(70, 90),), False),
    "int_ops": (int_ops, lambda: (torch.randint(-100, 100, (30, 40)), torch.randint(-9, 9, (30, 40))), False),
    "bf16_mix": (bf16_mix, lambda: (torch.randn(64, 96), torch.randn(64, 96)), False),
    "half_mix": (half_mix, lambda: (torch.randn(33, 65),), False),
    "cross_entropy": (cross_entropy, lambda: (torch.randn(64, 100), torch.randint(0, 100, (64,))), True),
    "pool_norm": (pool_norm, lambda: (torch.randn(4, 8, 16, 16), torch.randn(8)), True),
    "conv_block": (conv_block, lambda: (torch.randn(2, 3, 16, 16), torch.randn(8, 3, 3, 3)), True),
    "mlp_train": (mlp_train, lambda: (torch.randn(32, 64), torch.randn(64, 128) * 0.1, torch.randn(128, 48) * 0.1), True),
    "attention": (attention, lambda: (torch.randn(2, 4, 16, 32), torch.randn(2, 4, 16, 32), torch.randn(2, 4, 16, 32)), True),
    "scans": (scans, lambda: (torch.randn(24, 50),), False),
    "sort_topk": (sort_topk, lambda: (torch.randn(20, 30),), False),
    "norms": (norms, lambda: (torch.randn(50, 77),), True),
    "views": (views, lambda: (torch.randn(16, 24),), False),
    "nan_max": (nan_max, lambda: (torch.randn(40, 60),), False),
    "std_welford": (std_welford, lambda: (torch.randn(12, 34, 56),), False),
    "rand_ops": (rand_ops, lambda: (torch.randn(100, 10),), False),
}

fn, make, grads = VARIANTS[variant]


def run(f, args, want_grad):
    args = [a.clone().requires_grad_(want_grad and a.is_floating_point()) for a in args]
    out = f(*args)
    flat = [o for o in (out if isinstance(out, tuple) else (out,)) if isinstance(o, torch.Tensor)]
    if want_grad:
        loss = sum(o.float().sum() for o in flat if o.requires_grad)
        if isinstance(loss, torch.Tensor):
            loss.backward()
        flat += [a.grad for a in args if a.grad is not None]
    return [o.detach() for o in flat]


def diff(a, b):
    if a.dtype == torch.bool or not (a.is_floating_point() or b.is_floating_point()):
        return float((a.long() != b.long()).sum())
    return float((a.double() - b.double()).abs().nan_to_num(0.0).max()) if a.numel() else 0.0


args = make()
compiled = torch.compile(fn, backend="inductor", dynamic=True if dynamic else None)
eager = run(fn, args, grads)
comp = run(compiled, args, grads)
ref = run(fn, [a.double() if a.is_floating_point() else a for a in args], grads) if variant not in (
    "bf16_mix", "half_mix", "rand_ops") else eager
for i, (e, c, r) in enumerate(zip(eager, comp, ref)):
    print("%s out%d dtype=%s shape=%s eager_vs_compiled=%.3g eager_vs_f64=%.3g compiled_vs_f64=%.3g"
          % (variant, i, c.dtype, tuple(c.shape), diff(e, c), diff(e, r), diff(c, r)))
if dynamic:  # a second shape: the symbolic-size kernel is reused (automatic dynamic) or recompiled
    args2 = [torch.cat([a, a], 0) if a.dim() > 0 and a.shape[0] > 8 and a.dtype != torch.int64 else a for a in args]
    try:
        comp2 = run(compiled, args2, grads)
        print("%s second shape ran: %d outputs" % (variant, len(comp2)))
    except Exception as ex:  # a shape the program itself rejects is not the point of the capture
        print("%s second shape: %s" % (variant, type(ex).__name__))
