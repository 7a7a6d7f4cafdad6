import torch
def f(x):
    return x.abs().to(torch.int64)
x = torch.tensor([-32768, 5, -7, 32767], dtype=torch.int16)
print("eager", f(x).tolist(), "compiled", torch.compile(f)(x).tolist())
