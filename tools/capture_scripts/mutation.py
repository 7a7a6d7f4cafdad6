# In-place mutation / aliasing hazards (issue 8), each with a safe twin, eager vs inductor.
# usage: mutation.py VARIANT [cuda|cpu] [safe]
#   copy_flip     x.copy_(x.flip(0))                    safe: x.copy_(y.flip(0)), y a separate copy of x
#   foreach_flip  torch._foreach_add_([x], [x.flip(0)]) safe: torch._foreach_add_([x], [y.flip(0)])
#   add_t         x.add_(x.t()) (square)                safe: x.add_(y.t())
#   cast_bf16     ((a + b).to(torch.bfloat16).float()).sum(-1); safe: (a + b).sum(-1), no round trip
#                 (env MUT_EMULATE=1 sets emulate_precision_casts=True: on torch 2.11 it does not keep the
#                 explicit round trip, which joint-graph pass pointless_convert removes before Inductor)
import os, sys, torch, torch._inductor.config as icfg

variant = sys.argv[1]
dev = sys.argv[2] if len(sys.argv) > 2 else "cuda"
safe = len(sys.argv) > 3 and sys.argv[3] == "safe"
big = dev == "cuda"
if os.environ.get("MUT_EMULATE") == "1":
    icfg.emulate_precision_casts = True


def copy_flip(x, y):
    src = y if safe else x
    x.copy_(src.flip(0))
    return x


def foreach_flip(x, y):
    src = y if safe else x
    torch._foreach_add_([x], [src.flip(0)])
    return x


def add_t(x, y):
    src = y if safe else x
    x.add_(src.t())
    return x


def cast_bf16(a, b):
    if safe:
        return (a + b).sum(-1)
    return (a + b).to(torch.bfloat16).float().sum(-1)


def make():
    torch.manual_seed(0)
    if variant in ("copy_flip", "foreach_flip"):
        x = torch.randn((1 << 22) if big else (1 << 16), device=dev)
        return x, x.clone()
    if variant == "add_t":
        n = 2048 if big else 256
        x = torch.randn(n, n, device=dev)
        return x, x.clone()
    return torch.randn(64, 4096, device=dev), torch.randn(64, 4096, device=dev)


def intended(a, b):
    """What the program means, computed out of place in float64 (no aliasing, no rounding)."""
    a, b = a.double(), b.double()
    if variant == "copy_flip":
        return b.flip(0) if safe else a.flip(0)
    if variant == "foreach_flip":
        return a + (b if safe else a).flip(0)
    if variant == "add_t":
        return a + (b if safe else a).t()
    return (a + b).sum(-1)


f = {"copy_flip": copy_flip, "foreach_flip": foreach_flip, "add_t": add_t, "cast_bf16": cast_bf16}[variant]
print("torch", torch.__version__, "dev", dev, "variant", variant, "safe", safe,
      "emulate_precision_casts", icfg.emulate_precision_casts)
fc = torch.compile(f, backend="inductor")
for it in range(2):
    a, b = make()
    ref = intended(a, b)
    try:
        e = f(a.clone(), b.clone()).double()
        eager_note = ""
    except RuntimeError as ex:
        e = None
        eager_note = "eager raised: " + str(ex).splitlines()[0]
    try:
        c = fc(a.clone(), b.clone()).double()
        if dev == "cuda":
            torch.cuda.synchronize()
    except Exception as ex:  # Dynamo's fake-tensor run may reject the overlap as eager does
        print(f"iter {it}: inductor raised {type(ex).__name__}: {str(ex).splitlines()[0][:300]}; {eager_note}")
        continue
    msg = f"iter {it}: inductor-vs-intended {(c - ref).abs().max().item():.4e}"
    if e is not None:
        msg += f" eager-vs-inductor {(e - c).abs().max().item():.4e} eager-vs-intended {(e - ref).abs().max().item():.4e}"
    else:
        msg += " " + eager_note
    print(msg)
