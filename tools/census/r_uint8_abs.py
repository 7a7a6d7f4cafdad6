# pytorch#187018: abs/neg on uint8 promoted to int by C++ (std::abs / unary minus), never wrapped back to uint8
import torch
print("torch", torch.__version__)
def f_bug(x):
    y = -x.abs()
    return torch.cat([y, y]).sum()
def f_safe(x):          # issue's own "ok" variant
    return torch.cat([-x.abs(), -x.abs()]).sum()
x = torch.tensor([200, 200], dtype=torch.uint8)
for name, f in [("bug", f_bug), ("safe", f_safe)]:
    torch._dynamo.reset()
    e = f(x); c = torch.compile(f)(x)
    print(name, "eager", e.item(), e.dtype, "compiled", c.item(), c.dtype, "MISMATCH" if e.item()!=c.item() else "match")
