"""An input read after the compiled graph wrote it back (pytorch#198131).

    python writeback.py [safe]

`dst[0:, :] = src[0:, :]; src.add_(1)`: eager copies src into dst, then adds 1 to src. Inductor's
remove_noop_ops replaces the copy by src itself, and the graph reads src after its write-back
`copy_(src, src + 1)`: dst receives the updated values. `safe` copies a clone (`dst.copy_(src.clone())`),
read before the write-back. Prints dst[0] of eager and compiled and how many elements differ.
"""
import sys

import torch

safe = len(sys.argv) > 1 and sys.argv[1] == "safe"
print("torch", torch.__version__, "safe", safe)


def fn(dst, src):
    if safe:
        dst.copy_(src.clone())
    else:
        dst[0:, :] = src[0:, :]
    src.add_(1)
    return src


dst_e = torch.zeros(3, 4)
src_e = torch.arange(12.0).view(3, 4)
dst_c, src_c = dst_e.clone(), src_e.clone()
fn(dst_e, src_e)
torch.compile(fn)(dst_c, src_c)
print("eager dst[0]", dst_e[0].tolist(), "compiled dst[0]", dst_c[0].tolist(),
      "differing", int((dst_e != dst_c).sum()), "of", dst_e.numel())
