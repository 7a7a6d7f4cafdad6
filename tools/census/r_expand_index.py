# pytorch#183986 (fix PR #184488): functional index_add/index_copy/index_put into an expanded (stride-0) tensor;
# Inductor's reinplace pass writes in place through the overlapping view.
import torch
print("torch", torch.__version__)
idx = torch.tensor([0, 0, 1])
src = torch.ones(3, 8)
def f_add(src, idx):
    base = torch.zeros(1, 8).expand(4, -1)
    return base.index_add(0, idx, src)
def f_put(src, idx):
    base = torch.zeros(1, 8).expand(4, -1)
    return base.index_put((idx,), src, accumulate=True)
def f_add_in(base, src, idx):          # expanded tensor passed in
    return base.index_add(0, idx, src)
def f_safe(src, idx):                  # twin: contiguous destination
    base = torch.zeros(4, 8)
    return base.index_add(0, idx, src)
for n, f, args in [("index_add in-graph expand", f_add, (src, idx)), ("index_put acc in-graph expand", f_put, (src, idx)),
                   ("index_add input expand", f_add_in, (torch.zeros(1, 8).expand(4, -1), src, idx)),
                   ("index_add contiguous (twin)", f_safe, (src, idx))]:
    torch._dynamo.reset()
    e = f(*args); c = torch.compile(f)(*args)
    print(f"{n:30s} eager rows {e[:, 0].tolist()} | compiled rows {c[:, 0].tolist()}", "match" if torch.equal(e, c) else "MISMATCH")
