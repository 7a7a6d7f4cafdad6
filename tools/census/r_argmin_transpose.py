# pytorch#183082 / #183894 / #174073 (#163929): argmin/argmax over a transposed view, CPU codegen returns the physical index
import torch
print("torch", torch.__version__)
def f_min(x):
    x.sin_(); return x.t().argmin()
def f_max(x):
    x.tan_(); return x.t().argmax()
def f_nomut(x):                 # no in-place op before
    return x.t().argmin()
def f_safe(x):                  # twin: contiguous copy before the reduction
    x.sin_(); return x.t().contiguous().argmin()
torch.manual_seed(21); x = torch.randn(5, 7)
for n, f in [("sin_+t+argmin", f_min), ("tan_+t+argmax", f_max), ("t+argmin (no mutation)", f_nomut), ("contiguous twin", f_safe)]:
    torch._dynamo.reset()
    e = f(x.clone()); c = torch.compile(f)(x.clone())
    print(f"{n:24s} eager {e.item()} | compiled {c.item()}", "match" if e.item() == c.item() else "MISMATCH")
