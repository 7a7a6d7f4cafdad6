import torch
def f(x):
    x.index_put_((torch.arange(x.size(0), device=x.device),), x * 2.0)
    x.add_(x.flip(0))
    return x
x = torch.rand(4, 8)
want = f(x.clone()); got = torch.compile(f)(x.clone())
print("wrong elements", int((got != want).sum()), "of", want.numel())
