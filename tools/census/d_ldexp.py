import torch
def f(a, b): return torch.ldexp(a, b)
torch.manual_seed(0)
a, b = torch.randn(3, 4).half(), torch.randn(3, 4)
e = f(a, b); c = torch.compile(f)(a, b)
print("eager", e.dtype, "compiled", c.dtype, "maxdiff", (e.double() - c.double()).abs().max().item())
