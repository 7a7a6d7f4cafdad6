# A realistic CPU training step, for measuring the C++ readers on what Inductor writes for an
# ordinary model (not a hazard): a small convolutional stem with batch norm and residual blocks,
# then a transformer encoder layer over the feature map's positions, a classifier, cross-entropy,
# backward and AdamW, the whole step compiled. Prints the loss per step, eager and compiled.
# usage: cpu_train_step.py [steps]   (default 3)
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 3


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        return F.relu(x + self.bn2(self.conv2(y)))


class Net(nn.Module):
    def __init__(self, c=32, classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, c, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(c), nn.ReLU())
        self.blocks = nn.Sequential(Block(c), Block(c))
        self.encoder = nn.TransformerEncoderLayer(c, nhead=4, dim_feedforward=2 * c, batch_first=True)
        self.norm = nn.LayerNorm(c)
        self.head = nn.Linear(c, classes)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        x = x.flatten(2).transpose(1, 2)  # (batch, positions, channels)
        x = self.norm(self.encoder(x))
        return self.head(x.mean(dim=1))


def make():
    torch.manual_seed(0)
    model = Net()
    return model, torch.optim.AdamW(model.parameters(), lr=1e-3)


def step(model, opt, x, y):
    opt.zero_grad(set_to_none=True)
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    return loss


torch.manual_seed(1)
x = torch.randn(8, 3, 32, 32)
y = torch.randint(0, 10, (8,))
eager_model, eager_opt = make()
model, opt = make()
compiled = torch.compile(step)
for i in range(steps):
    e = step(eager_model, eager_opt, x, y).item()
    c = compiled(model, opt, x, y).item()
    print(f"step {i} loss eager {e:.6f} compiled {c:.6f}")
