# Index arithmetic in 32 bits (pytorch#175966): `arange(0, N, dtype=int64) * tensor([K], dtype=int64)`;
# Inductor computes the arange from the kernel's int32 index and multiplies in int32, so values past
# 2**31 wrap where eager's int64 does not.
# usage: index_overflow.py [cuda|cpu] N K     (safe twin: K small enough that (N-1)*K < 2**31)
# Prints eager, compiled, and the elements that differ.
import sys

import torch

dev = sys.argv[1] if len(sys.argv) > 1 else "cuda"
n = int(sys.argv[2]) if len(sys.argv) > 2 else 11
k = int(float(sys.argv[3])) if len(sys.argv) > 3 else 1000000000


def kek(x):
    return torch.arange(0, n, device=x.device, dtype=torch.int64) * torch.tensor([k], dtype=torch.int64, device=x.device)


x = torch.zeros(1, device=dev)
eager = kek(x)
compiled = torch.compile(kek)(x)
bad = (eager != compiled).nonzero().flatten().tolist()
print("N=%d K=%d eager %s compiled %s differing %d first %s max abs diff %d" % (
    n, k, eager.tolist(), compiled.tolist(), len(bad), bad[:1], int((eager - compiled).abs().max())))
