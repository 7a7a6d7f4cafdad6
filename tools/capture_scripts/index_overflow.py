# Index arithmetic in 32 bits (pytorch#175966): `arange(0, N, dtype=int64) * tensor([K], dtype=int64)`;
# Inductor computes the arange from the kernel's int32 index and multiplies in int32, so values past
# 2**31 wrap where eager's int64 does not.
# usage: index_overflow.py [cuda|cpu] N K [safe]
#   safe: the factor is an argument of the compiled function (a tensor the kernel loads), not a constant
#   the function makes, so Inductor cannot fold it into the arange's step.
# Prints eager, compiled, and the elements that differ.
import sys

import torch

dev = sys.argv[1] if len(sys.argv) > 1 else "cuda"
n = int(sys.argv[2]) if len(sys.argv) > 2 else 11
k = int(float(sys.argv[3])) if len(sys.argv) > 3 else 1000000000
safe = len(sys.argv) > 4 and sys.argv[4] == "safe"


def kek(x):
    return torch.arange(0, n, device=x.device, dtype=torch.int64) * torch.tensor([k], dtype=torch.int64, device=x.device)


def kek_factor(x, factor):
    return torch.arange(0, n, device=x.device, dtype=torch.int64) * factor


x = torch.zeros(1, device=dev)
if safe:
    factor = torch.tensor([k], dtype=torch.int64, device=dev)
    eager = kek_factor(x, factor)
    compiled = torch.compile(kek_factor)(x, factor)
else:
    eager = kek(x)
    compiled = torch.compile(kek)(x)
bad = (eager != compiled).nonzero().flatten().tolist()
# The first 16 values (all of them for the short aranges), then the count of those that differ.
print("N=%d K=%d eager %s compiled %s differing %d first %s max abs diff %d" % (
    n, k, eager[:16].tolist(), compiled[:16].tolist(), len(bad), bad[:1], int((eager - compiled).abs().max())))
