# Sorting and order statistics as tutorials call them (ties and NaNs included), and pow with a number base: each line is what one call returns or the error it raises.
import torch
s = torch.tensor([[3.0, 1.0, 2.0, 1.0], [0.5, float("nan"), 0.5, -4.0]])
i = torch.tensor([4, 1, 4, 2, 2, 4, 0])
scores = torch.tensor([0.1, 0.7, 0.05, 0.7, 0.15])
w = torch.tensor([1.0, -2.0, 3.0, 0.5], requires_grad=True)
cases = [
 lambda: torch.sort(s),
 lambda: s.sort(dim=0, descending=True),
 lambda: torch.sort(i, stable=True),
 lambda: torch.sort(i, descending=True, stable=True).indices,
 lambda: i.argsort(),
 lambda: torch.argsort(s, dim=1, descending=True),
 lambda: torch.msort(s),
 lambda: torch.topk(scores, 2),
 lambda: scores.topk(3, largest=False),
 lambda: torch.topk(s, 2, dim=1).indices,
 lambda: torch.topk(scores, 6),
 lambda: torch.topk(i, 0),
 lambda: torch.kthvalue(i, 3),
 lambda: s.kthvalue(2, dim=1, keepdim=True),
 lambda: torch.kthvalue(scores, 0),
 lambda: torch.median(i),
 lambda: s.median(),
 lambda: s.median(dim=1),
 lambda: torch.nanmedian(s),
 lambda: s.nanmedian(1),
 lambda: torch.median(torch.tensor([])),
 lambda: torch.mode(i),
 lambda: s.mode(1),
 lambda: torch.sort(w)[0].grad_fn.name(),
 lambda: torch.sort(w, stable=True)[0].grad_fn.name(),
 lambda: w.topk(2).values.grad_fn.name(),
 lambda: w.median().grad_fn.name(),
 lambda: w.median(0).values.grad_fn.name(),
 lambda: w.nanmedian().grad_fn.name(),
 lambda: w.kthvalue(1).values.grad_fn.name(),
 lambda: w.mode().values.grad_fn.name(),
 lambda: (lambda y: (y.sum().backward(), w.grad)[1])(w.sort(descending=True).values * torch.arange(4.0)),
 lambda: 2 ** torch.tensor([0.0, 1.5, -1.0]),
 lambda: 2 ** i,
 lambda: 0.5 ** i,
 lambda: (-8) ** torch.tensor([1.0, 0.5]),
 lambda: torch.pow(3, torch.tensor([2, 0, 1])),
 lambda: torch.pow(i, 2),
 lambda: torch.pow(2.0, w).grad_fn.name(),
 lambda: torch.pow(i, -1),
 lambda: torch.pow(torch.tensor([1.0, 4.0]), torch.tensor([0.5, 2.0]), out=torch.empty(2)),
 lambda: torch.tensor([2.0, 3.0]).pow_(2),
 lambda: i.clone().pow_(0.5),
]
for c in cases:
    try:
        print(repr(c()))
    except Exception as e:
        print(type(e).__name__ + ":", str(e).split("\n")[0])
