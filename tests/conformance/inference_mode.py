import torch

w = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    y = w * 2
print(y.requires_grad, y.grad_fn, torch.is_grad_enabled())


@torch.inference_mode()
def predict(x):
    return (x * w).sum()


print(predict(torch.ones(2)).requires_grad, torch.is_grad_enabled())
with torch.inference_mode(False):
    print((w * 2).requires_grad)
