# pytorch#151510 (2025, open): nan_to_num(posinf=int64 max).long() on CPU: float->int64 conversion out of range (UB in C++)
import torch
print("torch", torch.__version__)
def f(x):
    x = torch.nan_to_num(x, nan=0, posinf=torch.iinfo(torch.int64).max, neginf=torch.iinfo(torch.int64).min)
    return x.long()
def g(x):                 # plain out-of-range float -> int32
    return (x * 1e10).to(torch.int32)
def twin(x):              # in-range values
    return (x * 100).long()
x = torch.tensor([[float("inf"), -float("inf"), 1.5]])
for n, fn, a in [("nan_to_num+long (#151510)", f, x), ("x*1e10 -> int32", g, torch.tensor([1.0, -1.0, 0.5])), ("in-range twin", twin, torch.tensor([1.0, -1.0, 0.5]))]:
    torch._dynamo.reset()
    e = fn(a); c = torch.compile(fn)(a)
    print(f"{n:26s} eager {e.tolist()} | compiled {c.tolist()}", "match" if torch.equal(e, c) else "MISMATCH")
