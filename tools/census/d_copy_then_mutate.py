import torch
def fn(dst, src):
    dst[0:, :] = src[0:, :]
    src.add_(1)
    return src
dst_e = torch.zeros(3, 4); src_e = torch.arange(12.).view(3, 4)
dst_c, src_c = dst_e.clone(), src_e.clone()
fn(dst_e, src_e); torch.compile(fn)(dst_c, src_c)
print("eager dst[0]", dst_e[0].tolist(), "compiled dst[0]", dst_c[0].tolist())
