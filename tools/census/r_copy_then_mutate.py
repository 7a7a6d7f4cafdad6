# pytorch#198131 (PR #198132 open): dst[:] = src[:]; src.add_(1) -> remove_noop_ops makes the copy read the updated src
import torch
print("torch", torch.__version__)
def fn(dst, src):
    dst[0:, :] = src[0:, :]
    src.add_(1)
    return src
def fn_safe(dst, src):          # twin: copy from src itself (no slice view), same order
    dst.copy_(src.clone())
    src.add_(1)
    return src
for n, f in [("slice copy then add_", fn), ("clone copy then add_ (twin)", fn_safe)]:
    torch._dynamo.reset()
    dst_e = torch.zeros(3, 4); src_e = torch.arange(12.).view(3, 4)
    dst_c, src_c = dst_e.clone(), src_e.clone()
    f(dst_e, src_e); torch.compile(f)(dst_c, src_c)
    print(f"{n:28s} eager dst[0] {dst_e[0].tolist()} | compiled dst[0] {dst_c[0].tolist()}", "match" if torch.equal(dst_e, dst_c) else "MISMATCH")
