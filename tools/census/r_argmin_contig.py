# argmin/argmax over x.t().contiguous(): the transpose copy is fused into the reduction and the C++ kernel
# reports the physical (column-major) position; variant of pytorch#183082 not covered by its fix (PR #184191)
import torch
print("torch", torch.__version__)
cases = {
  "t().contiguous().argmin()": lambda x: x.t().contiguous().argmin(),
  "t().contiguous().argmax()": lambda x: x.t().contiguous().argmax(),
  "t().clone().argmin()": lambda x: x.t().clone(memory_format=torch.contiguous_format).argmin(),
  "t().reshape(-1).argmin()": lambda x: x.t().reshape(-1).argmin(),
  "(x.t()+0).argmin()": lambda x: (x.t() + 0).argmin(),
  "(x.t()*2).argmax()": lambda x: (x.t() * 2).argmax(),
  "t().argmin() (fixed form)": lambda x: x.t().argmin(),
  "argmin() no transpose (twin)": lambda x: (x * 2).argmin(),
  "t().argmin(dim=1) (twin)": lambda x: (x.t() * 2).argmin(dim=1),
}
torch.manual_seed(21); x = torch.randn(5, 7)
for n, f in cases.items():
    torch._dynamo.reset()
    e = f(x.clone()); c = torch.compile(f)(x.clone())
    print(f"{n:30s} eager {e.tolist()} | compiled {c.tolist()}", "match" if torch.equal(e, c) else "MISMATCH")
