# pytorch#189518: pointless_cumsum_replacement drops cumsum's dtype= (issue's exact repro, no inputs)
import torch
print("torch", torch.__version__)
def f():
    ones = torch.ones((2, 4, 4), dtype=torch.bool)
    return ones.cumsum(1, dtype=torch.bfloat16)
e = f(); c = torch.compile(f)()
print("eager", e.dtype, "compiled", c.dtype, "MISMATCH" if e.dtype != c.dtype else "match")
