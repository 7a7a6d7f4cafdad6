import torch
def f_bug(x):
    y = -x.abs()
    return torch.cat([y, y]).sum()
x = torch.tensor([200, 200], dtype=torch.uint8)
print("eager", f_bug(x).item(), "compiled", torch.compile(f_bug)(x).item())
