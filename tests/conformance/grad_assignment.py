import torch

# .grad and .requires_grad can be assigned, with PyTorch's checks.
x=torch.ones(2,requires_grad=True)
for g in [torch.ones(2,dtype=torch.float64), torch.ones(3), 5, torch.ones(2, device='meta')]:
  try: x.grad=g
  except Exception as e: print(type(e).__name__, e)
x.grad=torch.ones(2)*3; print(x.grad)
y=x*2
try: y.requires_grad=False
except Exception as e: print(type(e).__name__, e)
try: x.shape = (3,)
except Exception as e: print(type(e).__name__, e)
m = torch.nn.Linear(2, 1)
m.weight.grad = torch.zeros(1, 2)
print(m.weight.grad)
m.weight.requires_grad = False
print(list(p.requires_grad for p in m.parameters()))
