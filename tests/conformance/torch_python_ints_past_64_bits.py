# Python ints past 64 bits where PyTorch unpacks an int64 or a Scalar: its errors.
import torch
t = torch.ones(2)
for name, f in [
    ("tensor", lambda: torch.tensor(2**70)),
    ("tensor list", lambda: torch.tensor([1, 2**64])),
    ("zeros", lambda: torch.zeros(2**70)),
    ("zeros 2**62", lambda: torch.zeros(2**62)),
    ("add", lambda: t + 2**70),
    ("mul", lambda: t * 2**64),
    ("full", lambda: torch.full((2,), 2**70)),
    ("view", lambda: t.view(2**70)),
    ("sum dim", lambda: t.sum(2**70)),
    ("arange", lambda: torch.arange(2**70)),
    ("manual_seed", lambda: torch.manual_seed(2**70)),
    ("int64 max", lambda: torch.tensor(2**63 - 1).item()),
    ("item big", lambda: (torch.tensor(2**62) * 4).item()),
    ("eq", lambda: t == 2**70),
]:
    try:
        r = f()
        print(name, "->", r)
    except Exception as e:
        print(name, type(e).__name__, str(e).splitlines()[0][:200])
