import torch

# exp, sigmoid, tanh, sqrt and relu keep their result for backward; log and abs keep their input.
x = torch.tensor([0.5, 1.5, 2.0], requires_grad=True)
for name in ["exp", "sigmoid", "tanh", "sqrt", "relu"]:
    y = getattr(x, name)()
    y.add_(1)
    try:
        y.sum().backward()
    except RuntimeError as e:
        print(name, "->", str(e).split(" Hint")[0])

# Changing the input in place is fine for them (the result is what they need)...
z = x * 2
w = z.exp()
z.add_(1)
w.sum().backward()
print(x.grad)

# ...but not for log, which keeps its input.
x.grad = None
z = x * 2
w = z.log()
z.mul_(3)
try:
    w.sum().backward()
except RuntimeError as e:
    print("log ->", str(e).split(" Hint")[0])

# Gradients through the kept results.
x.grad = None
(x.exp() + x.sigmoid() + x.tanh() + x.sqrt() + x.relu()).sum().backward()
print(x.grad)
