import torch
def copy_twin(dst, src):
    dst.copy_(src.clone()); src.add_(1); return src
def all_twin(x):
    return torch.all(x) * 200 + 100
dst, src = torch.zeros(3, 4), torch.arange(12.).view(3, 4)
torch.compile(copy_twin)(dst, src)
print(torch.compile(all_twin)(torch.tensor([[0, 3], [0, 0]], dtype=torch.uint8)))
