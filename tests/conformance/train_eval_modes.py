# train() and eval() flip `training` on a module and its children; dropout only drops in training.
import torch
from torch import nn

model = nn.Sequential(nn.Linear(4, 4), nn.Dropout(p=0.5))
print(model.training, model[1].training)
model.eval()
print(model.training, model[1].training)
x = torch.ones(2, 4)
print(torch.equal(model[1](x), x))
r = model.train()
print(r is model, model[1].training)
torch.manual_seed(0)
dropped = model[1](x)
print(dropped)
