# math functions and constants next to torch's.
import math
import torch

print(math.sqrt(16), math.exp(0), math.log(math.e), math.floor(2.7), math.ceil(2.1))
print(round(math.pi, 5), math.sqrt(2) == torch.tensor(2.0, dtype=torch.float64).sqrt().item())
try:
    math.sqrt(-1)
except ValueError as e:
    print(e)
try:
    math.log(0)
except ValueError as e:
    print(e)
