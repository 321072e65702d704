# After: Extending PyTorch - Extending torch.autograd (https://pytorch.org/docs/stable/notes/extending.html) and the MyReLU example of the older "Learning PyTorch with Examples"
# Adapts the docs' LinearFunction / MulConstant / MyReLU autograd Functions into a small two-layer classifier trained on synthetic 2-D data.
import torch
import torch.nn as nn
from torch.autograd import Function

torch.manual_seed(0)


class MyReLU(torch.autograd.Function):
    """
    We can implement our own custom autograd Functions by subclassing
    torch.autograd.Function and implementing the forward and backward passes
    which operate on Tensors.
    """

    @staticmethod
    def forward(ctx, input):
        """
        In the forward pass we receive a Tensor containing the input and return
        a Tensor containing the output. ctx is a context object that can be used
        to stash information for backward computation. You can cache arbitrary
        objects for use in the backward pass using the ctx.save_for_backward method.
        """
        ctx.save_for_backward(input)
        return input.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        """
        In the backward pass we receive a Tensor containing the gradient of the loss
        with respect to the output, and we need to compute the gradient of the loss
        with respect to the input.
        """
        input, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input


# Inherit from Function
class LinearFunction(Function):

    # Note that forward, setup_context, and backward are @staticmethods
    @staticmethod
    def forward(input, weight, bias):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    # inputs is a Tuple of all of the inputs passed to forward.
    # output is the output of the forward().
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)

    # This function has only a single output, so it gets only one gradient
    @staticmethod
    def backward(ctx, grad_output):
        # This is a pattern that is very convenient - at the top of backward
        # unpack saved_tensors and initialize all gradients w.r.t. inputs to
        # None. Thanks to the fact that additional trailing Nones are
        # ignored, the return statement is simple even when the function has
        # optional inputs.
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None

        # These needs_input_grad checks are optional and there only to
        # improve efficiency. If you want to make your code simpler, you can
        # skip them. Returning gradients for inputs that don't require it is
        # not an error.
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)

        return grad_input, grad_weight, grad_bias


class MulConstant(Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant

    @staticmethod
    def setup_context(ctx, inputs, output):
        # ctx is a context object that can be used to stash information
        # for backward computation
        tensor, constant = inputs
        ctx.constant = constant

    @staticmethod
    def backward(ctx, grad_output):
        # We return as many input gradients as there were arguments.
        # Gradients of non-Tensor arguments to forward must be None.
        return grad_output * ctx.constant, None


class MyClamp(Function):
    """Clamp with a straight-through-style backward; forward also receives Python numbers."""

    @staticmethod
    def forward(ctx, input, min_value, max_value):
        ctx.save_for_backward(input)
        ctx.min_value = min_value
        ctx.max_value = max_value
        return input.clamp(min_value, max_value)

    @staticmethod
    def backward(ctx, grad_output):
        # needs_input_grad is a tuple of booleans, one per forward() argument.
        print('MyClamp.backward needs_input_grad =', ctx.needs_input_grad)
        input, = ctx.saved_tensors
        grad_input = None
        if ctx.needs_input_grad[0]:
            inside = (input >= ctx.min_value) & (input <= ctx.max_value)
            grad_input = grad_output * inside.to(grad_output.dtype)
        return grad_input, None, None


class Linear(nn.Module):
    def __init__(self, input_features, output_features, bias=True):
        super().__init__()
        self.input_features = input_features
        self.output_features = output_features

        # nn.Parameter is a special kind of Tensor, that will get
        # automatically registered as Module's parameter once it's assigned
        # as an attribute. Parameters and buffers need to be registered, or
        # they won't appear in .parameters() (doesn't apply to buffers), and
        # won't be converted when e.g. .cuda() is called. You can use
        # .register_buffer() to register buffers.
        # nn.Parameters require gradients by default.
        self.weight = nn.Parameter(torch.empty(output_features, input_features))
        if bias:
            self.bias = nn.Parameter(torch.empty(output_features))
        else:
            # You should always register all possible parameters, but the
            # optional ones can be None if you want.
            self.register_parameter('bias', None)

        # Not a very smart way to initialize weights
        nn.init.uniform_(self.weight, -0.1, 0.1)
        if self.bias is not None:
            nn.init.uniform_(self.bias, -0.1, 0.1)

    def forward(self, input):
        # See the autograd section for explanation of what happens here.
        return LinearFunction.apply(input, self.weight, self.bias)

    def extra_repr(self):
        # (Optional)Set the extra information about this module. You can test
        # it by printing an object of this class.
        return 'input_features={}, output_features={}, bias={}'.format(
            self.input_features, self.output_features, self.bias is not None
        )


class TwoLayerNet(nn.Module):
    def __init__(self, D_in, H, D_out):
        super().__init__()
        self.linear1 = Linear(D_in, H)
        self.linear2 = Linear(H, D_out, bias=False)
        self.scale = 2.0

    def forward(self, x):
        h_relu = MyReLU.apply(self.linear1(x))
        return MulConstant.apply(self.linear2(h_relu), self.scale)


# ---------------------------------------------------------------------------
# 1. Check the hand-written backward passes against autograd's built-in ones.

x = torch.randn(5, 3, requires_grad=True)
w = torch.randn(4, 3, requires_grad=True)
b = torch.randn(4, requires_grad=True)

out = LinearFunction.apply(x, w, b)
print(out.shape, out.grad_fn is not None, type(out.grad_fn).__name__)
out.sum().backward()
custom_grads = [x.grad.clone(), w.grad.clone(), b.grad.clone()]

for t in (x, w, b):
    t.grad = None
torch.nn.functional.linear(x, w, b).sum().backward()
for name, mine, ref in zip(('input', 'weight', 'bias'), custom_grads, (x.grad, w.grad, b.grad)):
    print(f'{name:6s} grad matches F.linear: {torch.allclose(mine, ref)}')

# needs_input_grad: here only the weight requires a gradient, so LinearFunction
# skips the input and bias gradients and returns None for them.
x2 = torch.randn(5, 3)
w2 = torch.randn(4, 3, requires_grad=True)
b2 = torch.randn(4)
LinearFunction.apply(x2, w2, b2).pow(2).mean().backward()
print('w2.grad shape:', tuple(w2.grad.shape), 'b2.grad:', b2.grad)

z = torch.tensor([-2.0, -0.5, 0.0, 0.5, 2.0], requires_grad=True)
y = MyReLU.apply(z)
y.backward(torch.ones_like(y))
print('MyReLU:', y.detach(), z.grad)

v = torch.linspace(-2, 2, 5, requires_grad=True)
clamped = MyClamp.apply(v * 3, -1.0, 4.0)
clamped.sum().backward()
print('MyClamp:', clamped.detach(), v.grad)

c = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
MulConstant.apply(c, 0.5).sum().backward()
print('MulConstant grad:', c.grad)

# ---------------------------------------------------------------------------
# 2. Train a small classifier built from these Functions.
# Synthetic data: points in the plane, label 1 inside the ring 0.5 < r < 1.5.

N, D_in, H, D_out = 256, 2, 16, 2
inputs = torch.randn(N, D_in)
radius = inputs.norm(dim=1)
targets = ((radius > 0.5) & (radius < 1.5)).long()
print('class counts:', torch.bincount(targets).tolist())

model = TwoLayerNet(D_in, H, D_out)
print(model)
print([(name, tuple(p.shape)) for name, p in model.named_parameters()])

criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
for t in range(300):
    logits = model(inputs)
    loss = criterion(logits, targets)
    if t % 50 == 49:
        with torch.no_grad():
            acc = (logits.argmax(dim=1) == targets).float().mean().item()
        print(f'step {t + 1:3d}  loss {loss.item():.4f}  accuracy {acc:.3f}')
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

with torch.no_grad():
    test_points = torch.tensor([[0.0, 0.0], [1.0, 0.0], [0.0, -1.0], [2.0, 2.0]])
    probs = torch.softmax(model(test_points), dim=1)
    for point, p in zip(test_points.tolist(), probs):
        print(f'{point} -> class {p.argmax().item()} (p={p.max().item():.3f})')
