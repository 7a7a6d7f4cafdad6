# pytorch#190764 / PR #191132: int32 add overflow is UB in the C++ kernel; eager wraps
import torch
print("torch", torch.__version__)
def f(x, y):                        # int32 add wraps in eager, then widened
    return (x + y).to(torch.int64)
def g(x, y):                        # int32 add then sum (int64 accumulator)
    return (x + y).sum(dim=1)
def h(x, y, z, p, q, r):            # the intermediate graph
    left = x @ y + x @ z
    right = p @ q + p @ r
    return (left + right).sum(dim=1)
big = 2**31 - 1
x = torch.tensor([[big, big], [big, 5]], dtype=torch.int32); y = torch.tensor([[big, 1], [2, big]], dtype=torch.int32)
for n, fn, args in [("to64", f, (x, y)), ("sum", g, (x, y))]:
    torch._dynamo.reset()
    e = fn(*args); c = torch.compile(fn)(*args)
    print(n, "eager", e.tolist(), "| compiled", c.tolist(), "MISMATCH" if e.tolist()!=c.tolist() else "match")
torch.manual_seed(0)
vals = torch.tensor([-2**31, 2**31-1, -1, 1, 2**30, -2**30, 46341, -46341], dtype=torch.int64)
ins = [vals[torch.randint(0, 8, (2, 2))].to(torch.int32) for _ in range(6)]
torch._dynamo.reset()
e = h(*ins); c = torch.compile(h, dynamic=False)(*ins)
print("issue-graph eager", e.tolist(), "| compiled", c.tolist(), "MISMATCH" if e.tolist()!=c.tolist() else "match")
