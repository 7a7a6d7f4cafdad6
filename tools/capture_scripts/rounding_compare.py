# Rounding before a comparison (pytorch#195214): eager rounds `x / scale` to bf16, then compares it with
# its bf16 row maximum (at least one tie per row); a fused kernel that compares the unrounded quotient
# with the rounded maximum finds no tie, and dividing by the tie count gives inf.
# usage: rounding_compare.py [cuda|cpu] [safe]     safe: float32 throughout (no rounding to lose)
# Prints the rows with zero ties and the non-finite values of 1 / ties, eager and compiled.
import sys

import torch

dev = sys.argv[1] if len(sys.argv) > 1 else "cuda"
safe = len(sys.argv) > 2 and sys.argv[2] == "safe"
dtype = torch.float32 if safe else torch.bfloat16


def ties(x, scale):
    scaled = x / scale
    maximum = scaled.amax(-1, keepdim=True)
    count = (scaled == maximum).sum(-1)
    return count, 1.0 / count.to(x.dtype)


torch.manual_seed(0)
x = torch.randn(64, 128, device=dev, dtype=dtype)
for name, f in (("eager", ties), ("compiled", torch.compile(ties))):
    count, inv = f(x, 3.0)
    print("%s: rows with zero ties %d of %d, non-finite 1/ties %d" % (
        name, int((count == 0).sum()), count.numel(), int((~torch.isfinite(inv)).sum())))
