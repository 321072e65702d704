# `...` as a value and in tensor indexing: the first ellipsis stands for the dimensions the other
# parts leave, later ones for none, as in PyTorch.
import torch
x = ...
print(x, type(x).__name__, x is Ellipsis, repr(Ellipsis))
t = torch.arange(24).reshape(2, 3, 4)
print(t[..., -1])
print(t[0, ...])
print(t[..., 1:3].shape, t[None, ..., 0].shape, t[1, ..., 2], t[...].shape)
try:
    t[..., 0, ...]
except IndexError as e:
    print("IndexError:", e)
print(t[..., 0, ...])
print(type(...))

# A one-element integer tensor indexes a list through __index__ (classes[pred.argmax()]).
classes = ["cat", "dog", "bird"]
print(classes[torch.tensor(1)], classes[torch.tensor([2])], classes[torch.tensor(True)])
print(classes[torch.tensor([0.1, 0.9, 0.0]).argmax()])
for bad in [torch.tensor(1.0), torch.tensor([0, 1])]:
    try:
        classes[bad]
    except TypeError as e:
        print("TypeError:", e)
