# Seed 1 (pytorch#185382) measured at every step: the hand-written Adam step with `step = step_t.item()`
# (a graph break) run for N steps eagerly and with the whole loop compiled by Inductor; after each step
# the loop keeps a copy of the parameter, and the max abs difference eager-vs-inductor is printed per step.
# usage: seed1_steps.py [cpu|cuda] [STEPS]
# Knobs (environment): S1_DYNAMIC=1 torch.compile(dynamic=True); S1_SPECIALIZE_FLOAT=1
# torch._dynamo.config.specialize_float = True; TORCHINDUCTOR_FORCE_DISABLE_CACHES=1 turns the caches off.
import os
import sys

import torch
import torch._dynamo

dev = sys.argv[1] if len(sys.argv) > 1 else "cpu"
steps = int(sys.argv[2]) if len(sys.argv) > 2 else 6
if os.environ.get("S1_SPECIALIZE_FLOAT") == "1":
    torch._dynamo.config.specialize_float = True


def adam_step(param, grad, m, v, step_t):
    step_t.add_(1)
    m.mul_(0.9).add_(grad, alpha=0.1)
    v.mul_(0.999).addcmul_(grad, grad, value=0.001)
    step = step_t.item()  # graph break
    bc1 = 1 - 0.9 ** step
    bc2 = 1 - 0.999 ** step
    step_size = 0.001 / bc1
    denom = (v.sqrt() / (bc2 ** 0.5)).add_(1e-8)
    param.addcdiv_(m, denom, value=-step_size)


def train_loop(param_data, grad_data):
    p = param_data.clone()
    g = grad_data.clone()
    m = torch.zeros_like(p)
    v = torch.zeros_like(p)
    s = torch.tensor(0.0, device=p.device)
    after = []
    for _ in range(steps):
        adam_step(p, g, m, v, s)
        after.append(p.clone())
    return after


torch.manual_seed(42)
p = torch.randn(128, device=dev)
g = torch.randn(128, device=dev)
eager = train_loop(p.clone(), g.clone())
torch._dynamo.reset()
dynamic = True if os.environ.get("S1_DYNAMIC") == "1" else None
compiled = torch.compile(train_loop, backend="inductor", dynamic=dynamic)(p.clone(), g.clone())
cfg = torch._dynamo.config
print("torch", torch.__version__, "dev", dev, "steps", steps, "dynamic", dynamic, "specialize_float",
      cfg.specialize_float, "force_disable_caches", os.environ.get("TORCHINDUCTOR_FORCE_DISABLE_CACHES", "0"))
diffs = [(e - c).abs().max().item() for e, c in zip(eager, compiled)]
print("eager-vs-inductor per step:", " ".join("%.3e" % d for d in diffs))
print("first diverged step:", next((i + 1 for i, d in enumerate(diffs) if d > 1e-6), None))
