# pytorch#190764 / PR #191132: signed int32 add/sub/mul overflow is UB in the C++ kernel (eager wraps)
import torch
print("torch", torch.__version__)
M = 2**31 - 1
def cmp_add(x):            # GCC may fold (x + 1 > x) to true
    return (x + 1) > x
def add_to64(x, y):
    return (x + y).to(torch.int64)
def mul_sum(x, y):
    return (x * y).sum(dim=1)
def mm_lin(x, y, z, p, q, r):   # the intermediate graph
    return (x @ y + x @ z + p @ q + p @ r).sum(dim=1)
x1 = torch.tensor([M, 0, M, -1], dtype=torch.int32)
cases = [("cmp_add n=4", cmp_add, (x1,)), ("cmp_add n=3", cmp_add, (x1[:3].clone(),)),
         ("add_to64 2x2", add_to64, (torch.tensor([[M, M], [M, 5]], dtype=torch.int32), torch.tensor([[M, 1], [2, M]], dtype=torch.int32))),
         ("mul_sum 2x3", mul_sum, (torch.full((2, 3), 2**20, dtype=torch.int32), torch.full((2, 3), 2**12, dtype=torch.int32)))]
g = torch.Generator().manual_seed(0)
edge = torch.tensor([2**31 - 1, -2**31, 2**30, -2**30, 65536, -65536, 46341, 3], dtype=torch.int64)
for trial in range(4):
    ins = tuple(edge[torch.randint(0, 8, (2, 2), generator=g)].to(torch.int32) for _ in range(6))
    cases.append((f"mm_lin trial{trial}", mm_lin, ins))
for n, f, a in cases:
    torch._dynamo.reset()
    e = f(*a); c = torch.compile(f, dynamic=False)(*a)
    print(f"{n:16s} eager {e.tolist()} | compiled {c.tolist()}", "match" if torch.equal(e, c) else "MISMATCH")
