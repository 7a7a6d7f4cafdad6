# A Python float argument that changes between calls, used both by an op the tensorify pass rewrites
# (x * s, or clamp's backward masks) and by an op parameter it does not rewrite (clamp bound, norm eps,
# huber delta, SDPA scale, full fill, addcdiv value, interpolate scale). Mechanism of pytorch#185382 as
# described in pytorch#194976 / #195040 / #197889: on the 2nd value the float becomes dynamic (f64[] input,
# SymFloat), the untensorifiable use is burned in as the 2nd value's constant, and AOTAutogradCache
# serves that artifact to every later value.
# usage: stale_scalar.py VARIANT [cuda|cpu]
#   env STALE_DYNAMIC=1 (torch.compile(dynamic=True)), STALE_REPEAT=N (run the sequence N times in one
#   process, torch._dynamo.reset() between: later passes see warm on-disk caches), STALE_VALUES=1,2,3,
#   STALE_SPECIALIZE=1 (torch._dynamo.config.specialize_float = True: the documented workaround, safe twin),
#   STALE_NOGRAD=1 (no autograd: for clamp, the bound is then s's only use and nothing is tensorified)
import os, sys, torch, torch.nn.functional as F
import torch._dynamo, torch._inductor.config, torch._functorch.config

variant = sys.argv[1] if len(sys.argv) > 1 else "clamp"
dev = sys.argv[2] if len(sys.argv) > 2 else "cuda"
DYN = os.environ.get("STALE_DYNAMIC") == "1"
REPEAT = int(os.environ.get("STALE_REPEAT", "1"))
if os.environ.get("STALE_SPECIALIZE") == "1":
    torch._dynamo.config.specialize_float = True
NOGRAD = os.environ.get("STALE_NOGRAD") == "1"
VALUES = [float(v) for v in os.environ.get("STALE_VALUES", "1,2,3,4,5,6").split(",")]


def swiglu_clamp(x, s):  # pytorch#194976: clamp bound; backward's masks use s through gt/lt.Scalar
    gate, up = torch.chunk(x, 2, dim=-1)
    gate = F.silu(gate).clamp(max=s)
    up = up.clamp(min=-s, max=s)
    return gate * up


def mul_clamp(x, s):  # x * s is tensorified, clamp_min's bound is not
    return (x * s).clamp(min=0.5 * s)


def rms_norm(x, s):  # pytorch#197889
    return F.rms_norm(x * s, (x.shape[-1],), eps=s + 1e-3)


def layer_norm(x, s):
    return F.layer_norm(x * s, (x.shape[-1],), eps=s)


def huber(x, s):
    a, b = torch.chunk(x, 2, dim=-1)
    return F.huber_loss(a * s, b, delta=0.5 * s, reduction="none")


def sdpa(x, s):
    q = x.view(2, 4, 8, 8)
    return F.scaled_dot_product_attention(q * s, q, q, scale=0.1 * s)


def full(x, s):
    return torch.full_like(x, s) * x + x * s


def addcdiv(x, s):
    a, b = torch.chunk(x, 2, dim=-1)
    y = a * s
    return y.addcdiv(a, b.abs() + 1.0, value=-0.01 * s)


def interp(x, s):
    return F.interpolate((x * s).view(1, 8, 64), scale_factor=s, mode="linear")


VARIANTS = {"clamp": swiglu_clamp, "mul_clamp": mul_clamp, "rms_norm": rms_norm, "layer_norm": layer_norm,
            "huber": huber, "sdpa": sdpa, "full": full, "addcdiv": addcdiv, "interp": interp}
f = VARIANTS[variant]


def inputs(dtype=torch.float32):
    torch.manual_seed(0)
    return torch.randn(8, 64, device=dev).to(dtype).requires_grad_(not NOGRAD)


def run(fn, s, dtype=torch.float32):
    x = inputs(dtype)
    out = fn(x, s)
    if NOGRAD:
        return out.detach(), torch.zeros(1, device=dev)
    torch.manual_seed(1)
    w = torch.randn(out.shape, device=dev).to(out.dtype)  # weights so the gradient is not just a mask
    g, = torch.autograd.grad((out * w).sum(), (x,))
    return out.detach(), g.detach()


def maxdiff(a, b):
    if a.shape != b.shape:
        return float("inf")
    return (a.double() - b.double()).abs().max().item()


cfg = torch._dynamo.config
print("torch", torch.__version__, "dev", dev, "variant", variant, "dynamic", DYN, "repeat", REPEAT, "nograd", NOGRAD)
print("config specialize_float", cfg.specialize_float, "automatic_dynamic_shapes", cfg.automatic_dynamic_shapes,
      "fx_graph_cache", getattr(torch._inductor.config, "fx_graph_cache", None),
      "autograd_cache", getattr(torch._functorch.config, "enable_autograd_cache", None),
      "force_disable_caches", getattr(torch._inductor.config, "force_disable_caches", None))
diverged = []
worst = 0.0
for rep in range(REPEAT):
    torch._dynamo.reset()
    fc = torch.compile(f, backend="inductor", dynamic=True if DYN else None)
    for i, s in enumerate(VALUES):
        eo, eg = run(f, s)
        co, cg = run(fc, s)
        ro, rg = run(f, s, torch.float64)
        d_out, d_grad = maxdiff(eo, co), maxdiff(eg, cg)
        bad = d_out > 1e-4 or d_grad > 1e-4
        if bad:
            diverged.append((rep, i, s))
        worst = max(worst, d_out, d_grad)
        print(f"pass {rep} call {i} s={s}: out eager-vs-inductor {d_out:.4e} eager-vs-fp64 {maxdiff(eo, ro):.4e} "
              f"inductor-vs-fp64 {maxdiff(co, ro):.4e} | grad eager-vs-inductor {d_grad:.4e} "
              f"eager-vs-fp64 {maxdiff(eg, rg):.4e} inductor-vs-fp64 {maxdiff(cg, rg):.4e} "
              f"shape eager {list(eo.shape)} inductor {list(co.shape)}{'  DIVERGED' if bad else ''}")
print(f"SUMMARY variant={variant} dev={dev} dynamic={DYN} repeat={REPEAT} diverged_calls={diverged} max_diff={worst:.4e}")
