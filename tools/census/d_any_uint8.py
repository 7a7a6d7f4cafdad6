import torch
def f(x):
    return torch.any(x) * 200 + 100
x = torch.tensor([[0, 3], [0, 0]], dtype=torch.uint8)
e = f(x); c = torch.compile(f)(x)
print("eager", e.tolist(), e.dtype, "compiled", c.tolist(), c.dtype)
