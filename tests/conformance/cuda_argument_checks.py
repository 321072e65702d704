# expected output written by hand: CUDA-only behaviour, from PyTorch 2.15's source. Kernels whose
# native_functions.yaml entry checks devices (`device_check: ExactSame`) name the argument and the
# wrapper torchgen generates (aten/src/ATen/core/adaption.cpp; names in tests/golden/device_checks.json);
# elementwise ops word it as TensorIterator does (aten/src/ATen/TensorIterator.cpp); masked_fill_ and
# convolutions have checks of their own (native/cuda/Indexing.cu, native/ConvUtils.h).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
g = torch.ones(2, 2, device="cuda")
c = torch.ones(2, 2)


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out.device)
    except (RuntimeError, IndexError) as e:
        print(label, "->", type(e).__name__ + ":", e)


attempt("mm", lambda: g.mm(c))
attempt("mm, the other way", lambda: torch.mm(c, g))
attempt("matmul", lambda: g @ c)
attempt("addmm", lambda: torch.addmm(torch.ones(2, device="cuda"), c, g))
attempt("bmm", lambda: torch.bmm(g[None], c[None]))
attempt("mv", lambda: g.mv(torch.ones(2)))
attempt("dot", lambda: torch.ones(2, device="cuda").dot(torch.ones(2)))
attempt("outer", lambda: torch.outer(torch.ones(2, device="cuda"), torch.ones(2)))
attempt("Linear, CPU batch", lambda: nn.Linear(2, 3).cuda()(c))
attempt("Linear, 3-d CPU batch", lambda: nn.Linear(2, 3).cuda()(torch.ones(4, 5, 2)))
attempt("index_select", lambda: g.index_select(0, torch.tensor([1, 0])))
attempt("gather", lambda: torch.gather(g, 1, torch.tensor([[0], [1]])))
attempt("cat", lambda: torch.cat([g, c]))
attempt("Embedding, CPU tokens", lambda: nn.Embedding(5, 2).cuda()(torch.tensor([1, 2])))
attempt("cross_entropy, CPU target", lambda: F.cross_entropy(g, torch.tensor([0, 1])))
attempt("nll_loss, CPU target", lambda: F.nll_loss(g.log_softmax(1), torch.tensor([0, 1])))
attempt("cross_entropy, images", lambda: F.cross_entropy(torch.ones(1, 3, 2, 2, device="cuda"), torch.zeros(1, 2, 2, dtype=torch.long)))
attempt("mse_loss", lambda: F.mse_loss(g, c))
attempt("add", lambda: g + c)
attempt("masked_fill", lambda: g.masked_fill(torch.tensor([True, False]), 0.0))
attempt("indexing with CPU indices", lambda: g[torch.tensor([1, 0])])
attempt("indexing with indices on cuda:1", lambda: g[torch.tensor([1, 0], device="cuda:1")])
attempt("Conv2d, CPU input", lambda: nn.Conv2d(1, 1, 2).cuda()(torch.ones(1, 1, 3, 3)))
attempt("Conv2d, CUDA input", lambda: nn.Conv2d(1, 1, 2)(torch.ones(1, 1, 3, 3, device="cuda")))
attempt("Conv2d, CPU bias", lambda: F.conv2d(torch.ones(1, 1, 3, 3, device="cuda"), torch.ones(1, 1, 2, 2, device="cuda"), torch.ones(1)))
attempt("a CPU scalar tensor is fine", lambda: g * torch.tensor(2.0))
