"""An indexed accumulate into an expanded (stride-0) tensor (pytorch#183986, fixed in 2.14.1).

    python expand_index.py expand     # torch.zeros(1, 8).expand(4, -1).index_add(0, idx, ones(3, 8)):
                                      # 2.12/2.13 re-inplace the index_put into the 8-element zeros, so
                                      # every row is the same accumulated row ([3, 3, 3, 3] in column 0)
    python expand_index.py contiguous # twin: torch.zeros(4, 8) as the destination

idx = [0, 0, 1]. Prints column 0 of eager and compiled and whether they are equal.
"""
import sys

import torch

variant = sys.argv[1] if len(sys.argv) > 1 else "expand"
print("torch", torch.__version__, "variant", variant)


def f(src, idx):
    base = torch.zeros(1, 8).expand(4, -1) if variant == "expand" else torch.zeros(4, 8)
    return base.index_add(0, idx, src)


idx = torch.tensor([0, 0, 1])
src = torch.ones(3, 8)
eager = f(src, idx)
compiled = torch.compile(f)(src, idx)
print("eager", eager[:, 0].tolist(), "compiled", compiled[:, 0].tolist(), "equal", torch.equal(eager, compiled))
