# Output aliasing an input (pytorch#197893): `x / t`, `buf * m`, `x + b` with the neutral value (1.0, 1.0,
# 0) are no-ops Inductor removes, and the compiled function returns its input tensor itself where eager
# returns a fresh one; a caller that updates the result in place then overwrites its input.
# usage: output_alias.py VARIANT [cuda|cpu] [safe]
#   div    logits / temperature, temperature = 1.0     safe: temperature = 0.9 (a real division)
#   mul    buf * momentum, momentum = 1.0              safe: momentum = 0.9
#   add    x + bias, bias = 0                          safe: bias = 0.5
# Prints, for eager and compiled: whether the output is the input object, whether they share storage,
# and how far the input moved after `out.add_(1)` on the result (eager: 0).
import sys

import torch

variant = sys.argv[1]
dev = sys.argv[2] if len(sys.argv) > 2 else "cuda"
safe = len(sys.argv) > 3 and sys.argv[3] == "safe"
value = {"div": 0.9, "mul": 0.9, "add": 0.5}[variant] if safe else {"div": 1.0, "mul": 1.0, "add": 0}[variant]


def scale(logits, temperature):
    return logits / temperature


def momentum_step(buf, momentum):
    return buf * momentum


def add_bias(x, bias):
    return x + bias


fn = {"div": scale, "mul": momentum_step, "add": add_bias}[variant]
compiled = torch.compile(fn)
for name, f in (("eager", fn), ("compiled", compiled)):
    torch.manual_seed(0)
    x = torch.randn(1024, device=dev)
    before = x.clone()
    out = f(x, value)
    same_object = out is x
    shares = out.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    out.add_(1)  # the caller's in-place update of the result
    moved = float((x - before).abs().max())
    print("%s: out is x %s, shares storage %s, input moved by %.3g after out.add_(1)" % (name, same_object, shares, moved))
