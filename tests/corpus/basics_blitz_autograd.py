# After: Deep Learning with PyTorch: A 60 Minute Blitz - A Gentle Introduction to torch.autograd (https://pytorch.org/tutorials/beginner/blitz/autograd_tutorial.html)
# Adapts: torchvision's pretrained resnet18 replaced by a small local ResNet-style model (conv/bn/residual block/avgpool/fc) with random weights; prints added to show the results.
import torch
from torch import nn

torch.manual_seed(0)

######################################################################
# Usage in PyTorch
# ~~~~~~~~~~~~~~~~
# The tutorial loads a pretrained resnet18 model from ``torchvision``. We build
# a much smaller model with the same kind of layers and the same ``fc`` head,
# with 1000 outputs like the real resnet18.


class BasicBlock(nn.Module):
    def __init__(self, planes):
        super().__init__()
        self.conv1 = nn.Conv2d(planes, planes, kernel_size=3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(planes, planes, kernel_size=3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out += identity
        return self.relu(out)


class ResNet(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = nn.Sequential(BasicBlock(16), BasicBlock(16))
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer1(x)
        x = self.avgpool(x)
        x = torch.flatten(x, 1)
        return self.fc(x)


def resnet18(weights=None):
    return ResNet()


model = resnet18(weights="DEFAULT")
data = torch.rand(1, 3, 64, 64)
labels = torch.rand(1, 1000)

############################################################
# Next, we run the input data through the model through each of its layers to make a prediction.
# This is the **forward pass**.
#

prediction = model(data) # forward pass
print(f"prediction: {prediction.shape}, grad_fn {type(prediction.grad_fn).__name__}")

############################################################
# We use the model's prediction and the corresponding label to calculate the error (``loss``).
# The next step is to backpropagate this error through the network.
# Backward propagation is kicked off when we call ``.backward()`` on the error tensor.
# Autograd then calculates and stores the gradients for each model parameter in the parameter's ``.grad`` attribute.
#

loss = (prediction - labels).sum()
print(f"loss: {loss.item():.2f}")
print(f"conv1.weight.grad before backward: {model.conv1.weight.grad}")
loss.backward() # backward pass
print(f"conv1.weight.grad after backward: {tuple(model.conv1.weight.grad.shape)}")
print(f"fc.bias.grad[:4]: {model.fc.bias.grad[:4]}")

############################################################
# Next, we load an optimizer, in this case SGD with a learning rate of 0.01 and `momentum <https://towardsdatascience.com/stochastic-gradient-descent-with-momentum-a84097641a5d>`__ of 0.9.
# We register all the parameters of the model in the optimizer.
#

optim = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)

######################################################################
# Finally, we call ``.step()`` to initiate gradient descent. The optimizer adjusts each parameter by its gradient stored in ``.grad``.
#

fc_bias_before = model.fc.bias.detach().clone()
optim.step() #gradient descent
print(f"fc.bias moved by -lr * grad: {torch.allclose(model.fc.bias - fc_bias_before, -1e-2 * model.fc.bias.grad)}")
print(f"running_mean of bn1 after one training forward pass: {model.bn1.running_mean[:3]}")

######################################################################
# Differentiation in Autograd
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~
# Let's take a look at how ``autograd`` collects gradients. We create two tensors ``a`` and ``b`` with
# ``requires_grad=True``. This signals to ``autograd`` that every operation on them should be tracked.
#

a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)

######################################################################
# We create another tensor ``Q`` from ``a`` and ``b``.
#
# .. math::
#    Q = 3a^3 - b^2

Q = 3*a**3 - b**2
print(f"Q: {Q}")


######################################################################
# Let's assume ``a`` and ``b`` to be parameters of an NN, and ``Q``
# to be the error. In NN training, we want gradients of the error
# w.r.t. parameters, i.e.
#
# When we call ``.backward()`` on ``Q``, autograd calculates these gradients
# and stores them in the respective tensors' ``.grad`` attribute.
#
# We need to explicitly pass a ``gradient`` argument in ``Q.backward()`` because it is a vector.
# ``gradient`` is a tensor of the same shape as ``Q``, and it represents the
# gradient of Q w.r.t. itself, i.e.
#
# Equivalently, we can also aggregate Q into a scalar and call backward implicitly, like ``Q.sum().backward()``.
#
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)


#######################################################################
# Gradients are now deposited in ``a.grad`` and ``b.grad``

# check if collected gradients are correct
print(9*a**2 == a.grad)
print(-2*b == b.grad)

# (added) the same gradients through Q.sum().backward()
a.grad, b.grad = None, None
Q = 3*a**3 - b**2
Q.sum().backward()
print(f"a.grad: {a.grad}, b.grad: {b.grad}")


######################################################################
# Exclusion from the DAG
# ^^^^^^^^^^^^^^^^^^^^^^
#
# ``torch.autograd`` tracks operations on all tensors which have their
# ``requires_grad`` flag set to ``True``. For tensors that don't require
# gradients, setting this attribute to ``False`` excludes it from the
# gradient computation DAG.
#
# The output tensor of an operation will require gradients even if only a
# single input tensor has ``requires_grad=True``.
#

x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)

a = x + y
print(f"Does `a` require gradients?: {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")


######################################################################
# In a NN, parameters that don't compute gradients are usually called **frozen parameters**.
# It is useful to "freeze" part of your model if you know in advance that you won't need the gradients of those parameters
# (this offers some performance benefits by reducing autograd computations).
#
# In finetuning, we freeze most of the model and typically only modify the classifier layers to make predictions on new labels.
# Let's walk through a small example to demonstrate this. As before, we load a pretrained resnet18 model, and freeze all the parameters.

from torch import nn, optim

model = resnet18(weights="DEFAULT")

# Freeze all the parameters in the network
for param in model.parameters():
    param.requires_grad = False

######################################################################
# Let's say we want to finetune the model on a new dataset with 10 labels.
# In resnet, the classifier is the last linear layer ``model.fc``.
# We can simply replace it with a new linear layer (unfrozen by default)
# that acts as our classifier.

model.fc = nn.Linear(16, 10)

######################################################################
# Now all parameters in the model, except the parameters of ``model.fc``, are frozen.
# The only parameters that compute gradients are the weights and bias of ``model.fc``.

# Optimize only the classifier
optimizer = optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)

# (added) check which parameters learn
print(f"trainable: {[name for name, p in model.named_parameters() if p.requires_grad]}")
print(f"frozen: {sum(1 for p in model.parameters() if not p.requires_grad)} tensors")
conv1_before = model.conv1.weight.clone()
fc_before = model.fc.weight.clone()
for step in range(3):
    optimizer.zero_grad()
    out = model(torch.rand(4, 3, 64, 64))
    loss = nn.functional.cross_entropy(out, torch.tensor([0, 1, 2, 3]))
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
print(f"conv1 unchanged: {torch.equal(model.conv1.weight, conv1_before)}, conv1.weight.grad: {model.conv1.weight.grad}")
print(f"fc changed: {not torch.equal(model.fc.weight, fc_before)}")

######################################################################
# The same exclusionary functionality is available as a context manager in
# torch.no_grad()

with torch.no_grad():
    out = model(torch.rand(1, 3, 64, 64))
print(f"under no_grad: requires_grad={out.requires_grad}, grad_fn={out.grad_fn}")
