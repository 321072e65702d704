import torch

# map_location may be a function of (storage, location): it decides where each saved tensor goes.
torch.save({"w": torch.arange(3.0), "b": torch.ones(2, requires_grad=True)}, "ckpt.pt")
seen = []


def place(storage, location):
    seen.append(location)
    return storage


state = torch.load("ckpt.pt", map_location=place)
print(seen)
print(state["w"], state["w"].device)
print(state["b"].requires_grad, state["b"].is_leaf, state["b"].grad_fn)

# The classic idiom: everything on the CPU.
print(torch.load("ckpt.pt", map_location=lambda storage, loc: storage)["w"])

# Returning None keeps the default placement.
print(torch.load("ckpt.pt", map_location=lambda storage, loc: None)["b"])


def broken(storage, location):
    raise ValueError("no room on " + location)


try:
    torch.load("ckpt.pt", map_location=broken)
except ValueError as e:
    print("ValueError:", e)
