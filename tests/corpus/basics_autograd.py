# After: Learn the Basics - Automatic Differentiation with torch.autograd (https://pytorch.org/tutorials/beginner/basics/autogradqs_tutorial.html)
# Adapts: nothing needs the network; grad_fn objects are printed by class name (their default repr holds a memory address), and the torchviz part is left out.
import torch

torch.manual_seed(0)

######################################################################
# Consider the simplest one-layer neural network, with input ``x``,
# parameters ``w`` and ``b``, and some loss function. It can be defined in
# PyTorch in the following manner:

x = torch.ones(5)  # input tensor
y = torch.zeros(3)  # expected output
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w)+b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)


######################################################################
# Tensors, Functions and Computational graph
# ------------------------------------------
#
# In this network, ``w`` and ``b`` are **parameters**, which we need to
# optimize. Thus, we need to be able to compute the gradients of loss
# function with respect to those variables. In order to do that, we set
# the ``requires_grad`` property of those tensors.
#
# .. note:: You can set the value of ``requires_grad`` when creating a
#           tensor, or later by using ``x.requires_grad_(True)`` method.
#
# A function that we apply to tensors to construct computational graph is
# in fact an object of class ``Function``. A reference to
# the backward propagation function is stored in ``grad_fn`` property of a
# tensor.
#
# (The tutorial prints ``z.grad_fn`` itself, whose repr holds a memory address:
# ``<AddBackward0 object at 0x...>``; we print the class name.)

print(f"Gradient function for z = {type(z.grad_fn).__name__}")
print(f"Gradient function for loss = {type(loss.grad_fn).__name__}")

# (added) the leaves and the loss
print(f"w: {w}")
print(f"b: {b}")
print(f"z: {z}")
print(f"loss: {loss}")
print(f"x.requires_grad={x.requires_grad}, w.is_leaf={w.is_leaf}, z.is_leaf={z.is_leaf}, w.grad_fn={w.grad_fn}")

######################################################################
# Computing Gradients
# -------------------
#
# To optimize weights of parameters in the neural network, we need to
# compute the derivatives of our loss function with respect to parameters.
# To compute those derivatives, we call
# ``loss.backward()``, and then retrieve the values from ``w.grad`` and
# ``b.grad``:
#

loss.backward()
print(w.grad)
print(b.grad)

# (added) the same gradient by hand: d loss / d z = (sigmoid(z) - y) / 3
with torch.no_grad():
    dz = (torch.sigmoid(z) - y) / 3
print(f"b.grad matches (sigmoid(z) - y) / 3: {torch.allclose(b.grad, dz)}")
print(f"w.grad matches outer(x, dz): {torch.allclose(w.grad, torch.outer(x, dz))}")

######################################################################
# .. note::
#   - We can only obtain the ``grad`` properties for the leaf
#     nodes of the computational graph, which have ``requires_grad`` property
#     set to ``True``. For all other nodes in our graph, gradients will not be
#     available.
#   - We can only perform gradient calculations using
#     ``backward`` once on a given graph, for performance reasons. If we need
#     to do several ``backward`` calls on the same graph, we need to pass
#     ``retain_graph=True`` to the ``backward`` call.

try:
    loss.backward()
except RuntimeError as e:
    print(f"second backward: RuntimeError: {str(e)[:50]}")


######################################################################
# Disabling Gradient Tracking
# ---------------------------
#
# By default, all tensors with ``requires_grad=True`` are tracking their
# computational history and support gradient computation. We can stop
# tracking computations by surrounding our computation code with
# ``torch.no_grad()`` block:
#

z = torch.matmul(x, w)+b
print(z.requires_grad)

with torch.no_grad():
    z = torch.matmul(x, w)+b
print(z.requires_grad)


######################################################################
# Another way to achieve the same result is to use the ``detach()`` method
# on the tensor:
#

z = torch.matmul(x, w)+b
z_det = z.detach()
print(z_det.requires_grad)

# (added) requires_grad_ switches tracking back on for a leaf
x.requires_grad_(True)
print(f"x.requires_grad after requires_grad_(True): {x.requires_grad}")


######################################################################
# Optional Reading: Tensor Gradients and Jacobian Products
# --------------------------------------------------------
#
# In many cases, we have a scalar loss function, and we need to compute
# the gradient with respect to some parameters. However, there are cases
# when the output function is an arbitrary tensor. In this case, PyTorch
# allows you to compute so-called **Jacobian product**, and not the actual
# gradient.
#
# Instead of computing the Jacobian matrix itself, PyTorch allows you to
# compute **Jacobian Product** :math:`v^T\cdot J` for a given input vector
# :math:`v=(v_1 \dots v_m)`. This is achieved by calling ``backward`` with
# :math:`v` as an argument. The size of :math:`v` should be the same as
# the size of the original tensor, with respect to which we want to
# compute the product:
#

inp = torch.eye(4, 5, requires_grad=True)
out = (inp+1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")


######################################################################
# Notice that when we call ``backward`` for the second time with the same
# argument, the value of the gradient is different. This happens because
# when doing ``backward`` propagation, PyTorch **accumulates the
# gradients**, i.e. the value of computed gradients is added to the
# ``grad`` property of all leaf nodes of computational graph. If you want
# to compute the proper gradients, you need to zero out the ``grad``
# property before. In real-life training an *optimizer* helps us to do
# this.

######################################################################
# .. note:: Previously we were calling ``backward()`` function without
#           parameters. This is essentially equivalent to calling
#           ``backward(torch.tensor(1.0))``, which is a useful way to compute the
#           gradients in case of a scalar-valued function, such as loss during
#           neural network training.

w.grad = None
b.grad = None
loss = torch.nn.functional.binary_cross_entropy_with_logits(torch.matmul(x, w)+b, y)
loss.backward(torch.tensor(1.0))
print(f"\nbackward(torch.tensor(1.0)) gives the same b.grad: {torch.allclose(b.grad, dz)}")
