import torch
def f(x):
    return x.t().argmin()
torch.manual_seed(21); x = torch.randn(5, 7)
print("eager", f(x).item(), "compiled", torch.compile(f)(x).item())
