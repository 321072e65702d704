# Python's warnings filters over PyTorch's UserWarnings: the default filter shows a warning once
# per line (a training loop warns once), "always" every time, "once" once per text, "ignore"
# never; a filter narrowed to a message pattern or a category applies to those alone, and
# catch_warnings puts the filters back when it ends.
import warnings
import torch
import torch.nn.functional as F


def mismatched():
    return F.mse_loss(torch.ones(3, 1), torch.zeros(3))


def count(action=None, **narrowed):
    with warnings.catch_warnings(record=True) as caught:
        if action is not None:
            warnings.filterwarnings(action, **narrowed)
        for step in range(3):
            mismatched()
            warnings.warn("step done")
        warnings.warn("step done")
    return [str(w.message)[:16] for w in caught]


print(count())
print(count("always"))
print(count("once"))
print(count("ignore"))
print(count("ignore", message="using a target"))
print(count("ignore", message="step"))
print(count("ignore", category=FutureWarning))
print(count("always", category=UserWarning))
print(count("ignore", module="some.library"))
print(count())
try:
    warnings.simplefilter("loudly")
except AssertionError as e:
    print("AssertionError:", e)
