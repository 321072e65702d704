# Fitting a line three ways, as linear-algebra tutorials do it, then norms, determinants and the
# errors a singular or non-square matrix gives.
import torch

x = torch.tensor([0.0, 1.0, 2.0, 3.0, 4.0])
y = torch.tensor([1.1, 2.9, 5.2, 7.1, 8.8])
X = torch.stack([torch.ones_like(x), x], dim=1)
print("X shape:", X.shape)

# 1. The normal equations, solved and inverted.
XtX = X.T @ X
Xty = X.T @ y
w_solve = torch.linalg.solve(XtX, Xty)
w_inv = torch.linalg.inv(XtX) @ Xty
print("solve:", w_solve)
print("inv:  ", w_inv)
print("close:", torch.allclose(w_solve, w_inv, atol=1e-5))

# 2. Least squares and the pseudo-inverse.
fit = torch.linalg.lstsq(X, y.unsqueeze(1))
print("lstsq:", fit.solution.squeeze(1), "rank", fit.rank)
print("pinv: ", torch.linalg.pinv(X) @ y)

# 3. Cholesky and QR.
L = torch.linalg.cholesky(XtX)
print("L:", L)
print("L @ L.T == XtX:", torch.allclose(L @ L.T, XtX))
Q, R = torch.linalg.qr(X)
print("Q shape", Q.shape, "R", R)
print("Q orthonormal:", torch.allclose(Q.T @ Q, torch.eye(2), atol=1e-6))

residual = X @ w_solve - y
print("residual norm:", torch.linalg.norm(residual))
print("vector_norm ord=1:", torch.linalg.vector_norm(residual, ord=1))
print("inf norm:", torch.linalg.vector_norm(residual, ord=float("inf")))
print("torch.norm:", torch.norm(residual), residual.norm(p=1))

A = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
print("det", torch.linalg.det(A), torch.det(A), A.det())
print("slogdet", torch.linalg.slogdet(A))
print("logdet", torch.logdet(A))
print("fro", torch.linalg.matrix_norm(A), "nuc", torch.linalg.matrix_norm(A, ord="nuc"))
print("ord 1", torch.linalg.matrix_norm(A, ord=1), "ord 2", torch.linalg.norm(A, ord=2))
print("svdvals", torch.linalg.svdvals(A))
print("eigvalsh", torch.linalg.eigvalsh(A))
print("rank", torch.linalg.matrix_rank(torch.tensor([[1.0, 2.0], [2.0, 4.0]])))
print("batched det", torch.linalg.det(torch.stack([A, 2 * A, -A])))

# Gradients through the fit.
w = torch.zeros(2, requires_grad=True)
loss = torch.linalg.vector_norm(X @ w - y) ** 2
loss.backward()
print("loss", loss.item(), "grad", w.grad)
Ag = A.clone().requires_grad_()
torch.linalg.det(Ag).backward()
print("d det / dA", Ag.grad)
Ai = A.clone().requires_grad_()
torch.linalg.inv(Ai).sum().backward()
print("d sum(inv) / dA", Ai.grad)

for bad in (torch.tensor([[1.0, 2.0], [2.0, 4.0]]), torch.ones(2, 3), torch.tensor([[1, 2], [3, 4]])):
    try:
        torch.linalg.inv(bad)
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__ + ":", e)
try:
    torch.linalg.cholesky(-A)
except RuntimeError as e:
    print("cholesky:", e)
try:
    torch.linalg.solve(A, torch.ones(3))
except RuntimeError as e:
    print("solve:", e)
try:
    torch.cholesky(A)
except RuntimeError as e:
    print(str(e).splitlines()[0])
