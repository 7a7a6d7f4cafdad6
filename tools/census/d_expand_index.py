import torch
def f_add(src, idx):
    base = torch.zeros(1, 8).expand(4, -1)
    return base.index_add(0, idx, src)
idx = torch.tensor([0, 0, 1]); src = torch.ones(3, 8)
print("eager", f_add(src, idx)[:, 0].tolist(), "compiled", torch.compile(f_add)(src, idx)[:, 0].tolist())
