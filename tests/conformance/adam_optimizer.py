# Adam and AdamW on a small regression, step by step, with PyTorch's numbers.
import torch
from torch import nn

torch.manual_seed(1)
x = torch.randn(8, 2)
y = x @ torch.tensor([[2.0], [-1.0]]) + 0.5
for name, make in [("Adam", torch.optim.Adam), ("AdamW", torch.optim.AdamW)]:
    torch.manual_seed(2)
    model = nn.Linear(2, 1)
    opt = make(model.parameters(), lr=0.05)
    for _ in range(20):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
    print(name, f"{loss.item():.6f}", [f"{v:.4f}" for v in model.weight.view(-1).tolist()])
