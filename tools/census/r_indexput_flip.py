# pytorch#198270: x.index_put_(...) then x.add_(x.flip(0)); copy-back fused with a read of x at other positions (existing family: inplace-read-after-write)
import torch
print("torch", torch.__version__)
def f(x):
    x.index_put_((torch.arange(x.size(0), device=x.device),), x * 2.0)
    x.add_(x.flip(0))
    return x
for shape in ((4, 8), (64, 64)):
    torch._dynamo.reset()
    x = torch.rand(*shape)
    want = f(x.clone()); got = torch.compile(f)(x.clone())
    print(shape, "wrong elements", int((got != want).sum()), "of", want.numel(), "MISMATCH" if not torch.equal(got, want) else "match")
