import torch
def model(a, b): return torch.matmul(a, b)
a = torch.full((1, 1, 4), 100, dtype=torch.int8); b = torch.full((1, 4, 2), 3, dtype=torch.int8)
e = model(a, b); c = torch.compile(model, fullgraph=True, dynamic=False)(a, b)
print("eager", e.tolist(), e.dtype, "compiled", c.tolist(), c.dtype)
