# Unmasked atomic add (pytorch#178871): a scalar broadcast (`x + bias`, bias a 1-element tensor) fused with
# scatter_reduce(..., "sum") into a 1x1 output; Inductor's Triton kernel passes mask=None to tl.atomic_add,
# and the XBLOCK - N padded lanes add the broadcast value into the output (error (next_pow2(N) - N) * bias).
# usage: unmasked_atomic.py [cuda|cpu] N        (N = 8, a power of two, is the safe twin: no padded lane)
# Prints eager, compiled, their difference and the error predicted by the padded lanes.
import sys

import torch

dev = sys.argv[1] if len(sys.argv) > 1 else "cuda"
n = int(sys.argv[2]) if len(sys.argv) > 2 else 5


def f(x, bias, idx):
    src = x + bias  # the scalar broadcast that Inductor fuses with the scatter
    out = torch.zeros(1, 1, device=x.device, dtype=x.dtype)
    return out.scatter_reduce(0, idx.unsqueeze(-1).expand_as(src), src, "sum", include_self=True)


torch.manual_seed(0)
x = torch.randn(n, 1, device=dev)
bias = torch.tensor([0.020368], device=dev)
idx = torch.zeros(n, dtype=torch.long, device=dev)
ref = f(x, bias, idx)
test = torch.compile(f, fullgraph=True, dynamic=False)(x, bias, idx)
f64 = f(x.double(), bias.double(), idx)
pad = (1 << (n - 1).bit_length()) - n
print("N=%d eager %.9g compiled %.9g float64 %.9g eager-compiled %.6g padded lanes %d predicted %.6g" % (
    n, ref.item(), test.item(), f64.item(), test.item() - ref.item(), pad, pad * bias.item()))
