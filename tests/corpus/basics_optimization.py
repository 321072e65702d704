# After: Learn the Basics - Optimizing Model Parameters (https://pytorch.org/tutorials/beginner/basics/optimization_tutorial.html)
# Adapts: FashionMNIST replaced by random 28x28 images (640 train / 128 test) with a learnable class pattern; 3 epochs instead of 10, loss printed every 3 batches instead of every 100.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

######################################################################
# Prerequisite Code
# -----------------
# We load the code from the previous sections on Datasets & DataLoaders
# and Build Model. Instead of ``datasets.FashionMNIST(..., transform=ToTensor())``
# we build ``TensorDataset`` objects from random images of the same shape
# (1x28x28, values in [0, 1]) and integer labels.

class_patterns = torch.rand(10, 1, 28, 28)


def make_fashion_like(num_samples):
    labels = torch.randint(0, 10, (num_samples,))
    images = 0.5 * class_patterns[labels] + 0.5 * torch.rand(num_samples, 1, 28, 28)
    return TensorDataset(images, labels)


training_data = make_fashion_like(640)
test_data = make_fashion_like(128)

train_dataloader = DataLoader(training_data, batch_size=64)
test_dataloader = DataLoader(test_data, batch_size=64)

class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28*28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits

model = NeuralNetwork()


##############################################
# Hyperparameters
# -----------------
#
# We define the following hyperparameters for training:
#  - **Number of Epochs** - the number of times to iterate over the dataset
#  - **Batch Size** - the number of data samples propagated through the network before the parameters are updated
#  - **Learning Rate** - how much to update models parameters at each batch/epoch. Smaller values yield slow learning speed, while large values may result in unpredictable behavior during training.
#

learning_rate = 1e-3
batch_size = 64
epochs = 5


#####################################
# Loss Function
# ~~~~~~~~~~~~~~~~~
#
# Common loss functions include nn.MSELoss (Mean Square Error) for regression tasks, and
# nn.NLLLoss (Negative Log Likelihood) for classification.
# nn.CrossEntropyLoss combines ``nn.LogSoftmax`` and ``nn.NLLLoss``.
#
# We pass our model's output logits to ``nn.CrossEntropyLoss``, which will normalize the logits and compute the prediction error.

# Initialize the loss function
loss_fn = nn.CrossEntropyLoss()

# (added) CrossEntropyLoss is LogSoftmax followed by NLLLoss
X0, y0 = next(iter(train_dataloader))
with torch.no_grad():
    logits0 = model(X0)
    ce = loss_fn(logits0, y0)
    nll = nn.NLLLoss()(nn.LogSoftmax(dim=1)(logits0), y0)
print(f"CrossEntropyLoss {ce.item():.6f} == NLLLoss(LogSoftmax) {nll.item():.6f}: {torch.allclose(ce, nll)}")


#####################################
# Optimizer
# ~~~~~~~~~~~~~~~~~
#
# Optimization is the process of adjusting model parameters to reduce model error in each training step. **Optimization algorithms** define how this process is performed (in this example we use Stochastic Gradient Descent).
#
# We initialize the optimizer by registering the model's parameters that need to be trained, and passing in the learning rate hyperparameter.

optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)

#####################################
# Inside the training loop, optimization happens in three steps:
#  * Call ``optimizer.zero_grad()`` to reset the gradients of model parameters. Gradients by default add up; to prevent double-counting, we explicitly zero them at each iteration.
#  * Backpropagate the prediction loss with a call to ``loss.backward()``. PyTorch deposits the gradients of the loss w.r.t. each parameter.
#  * Once we have our gradients, we call ``optimizer.step()`` to adjust the parameters by the gradients collected in the backward pass.


########################################
# Full Implementation
# -----------------------
# We define ``train_loop`` that loops over our optimization code, and ``test_loop`` that
# evaluates the model's performance against our test data.

def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    # Set the model to training mode - important for batch normalization and dropout layers
    # Unnecessary in this situation but added for best practices
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        # Compute prediction and loss
        pred = model(X)
        loss = loss_fn(pred, y)

        # Backpropagation
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()

        if batch % 3 == 0:  # the tutorial prints every 100 batches
            loss, current = loss.item(), batch * batch_size + len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test_loop(dataloader, model, loss_fn):
    # Set the model to evaluation mode - important for batch normalization and dropout layers
    # Unnecessary in this situation but added for best practices
    model.eval()
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    test_loss, correct = 0, 0

    # Evaluating the model with torch.no_grad() ensures that no gradients are computed during test mode
    # also serves to reduce unnecessary gradient computations and memory usage for tensors with requires_grad=True
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()

    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")


########################################
# We initialize the loss function and optimizer, and pass it to ``train_loop`` and ``test_loop``.
# Feel free to increase the number of epochs to track the model's improving performance.

loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)

epochs = 3  # the tutorial uses 10
for t in range(epochs):
    print(f"Epoch {t+1}\n-------------------------------")
    train_loop(train_dataloader, model, loss_fn, optimizer)
    test_loop(test_dataloader, model, loss_fn)
print("Done!")

# (added) with a larger learning rate the model learns this synthetic data quickly
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for t in range(epochs, epochs + 2):
    print(f"Epoch {t+1} (lr={optimizer.param_groups[0]['lr']})\n-------------------------------")
    train_loop(train_dataloader, model, loss_fn, optimizer)
    test_loop(test_dataloader, model, loss_fn)
print("Done!")
