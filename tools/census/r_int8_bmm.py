# pytorch#191308: int8 batched matmul output dtype int64 under CPU inductor
import torch
print("torch", torch.__version__)
def model(a, b): return torch.matmul(a, b)
a = torch.ones((1, 1, 2), dtype=torch.int8); b = torch.ones((1, 2, 2), dtype=torch.int8)
e = model(a, b); c = torch.compile(model, fullgraph=True, dynamic=False)(a, b)
print("small eager", e.tolist(), e.dtype, "| compiled", c.tolist(), c.dtype, "MISMATCH" if e.dtype != c.dtype else "match")
# values that wrap in int8
a = torch.full((1, 1, 4), 100, dtype=torch.int8); b = torch.full((1, 4, 2), 3, dtype=torch.int8)
torch._dynamo.reset()
e = model(a, b); c = torch.compile(model, fullgraph=True, dynamic=False)(a, b)
print("wrap eager", e.tolist(), e.dtype, "| compiled", c.tolist(), c.dtype, "MISMATCH" if (e.dtype != c.dtype or e.tolist()!=c.tolist()) else "match")
