# Annotations as tutorials write them, with typing's names: importable, shown as Python shows them,
# never checked at run time.
from typing import Any, Callable, Dict, List, Optional, Tuple, Union
import typing

import torch
import torch.nn as nn


def train_step(model: nn.Module, batch: Tuple[torch.Tensor, torch.Tensor], lr: float = 0.1) -> Dict[str, float]:
    x, y = batch
    loss = ((model(x) - y) ** 2).mean()
    return {"loss": round(loss.item(), 4), "lr": lr}


torch.manual_seed(0)
model = nn.Linear(2, 1)
batch = (torch.ones(4, 2), torch.zeros(4, 1))
print(train_step(model, batch))

history: List[float] = []
best: Optional[float] = None
config: Dict[str, Any] = {"epochs": 2}
print(history, best, config)

print(List[int], Dict[str, List[int]], Optional[torch.Tensor])
print(Tuple[int, str], Union[int, str], typing.Callable)
T = typing.TypeVar("T")
print(T, typing.cast(int, "not checked"))
try:
    List()
except TypeError as e:
    print("TypeError:", e)


def apply(f: Callable[[int], int], xs: List[int]) -> List[int]:
    return [f(x) for x in xs]


print(apply(lambda v: v * 2, [1, 2, 3]))
