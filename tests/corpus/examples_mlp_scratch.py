# After: Dive into Deep Learning, 4.2 Implementation of Multilayer Perceptrons from Scratch (https://d2l.ai/chapter_multilayer-perceptrons/mlp-scratch.html)
# Adapts the classic d2l PyTorch MLP (nn.Parameter weights, hand-written relu, '@', CrossEntropyLoss(reduction='none'), optim.SGD) on synthetic Fashion-MNIST-shaped data.
import torch
from torch import nn
from torch.utils import data

torch.manual_seed(0)

# ---------------------------------------------------------------------------
# Stand-ins for d2l.load_data_fashion_mnist / d2l.get_fashion_mnist_labels.
# There is no torchvision or network here, so we build 1x28x28 "images" in [0, 1]:
# each class has a fixed random binary template; each example keeps a quarter of
# its class template's pixels, replaces the rest by random pixels, and scales
# every pixel by a random intensity.


def load_array(data_arrays, batch_size, is_train=True):  #@save
    """Construct a PyTorch data iterator."""
    dataset = data.TensorDataset(*data_arrays)
    return data.DataLoader(dataset, batch_size, shuffle=is_train)


def synthetic_fashion_mnist(num_examples, templates):
    y = torch.randint(0, 10, (num_examples,))
    keep = torch.rand(num_examples, 1, 28, 28) > 0.75
    noise = (torch.rand(num_examples, 1, 28, 28) > 0.6).float()
    X = torch.where(keep, templates[y], noise) * torch.rand(num_examples, 1, 28, 28)
    return X, y


def load_data_fashion_mnist(batch_size):  #@save
    """Return synthetic stand-ins for the Fashion-MNIST train and test iterators."""
    templates = (torch.rand(10, 1, 28, 28) > 0.6).float()
    mnist_train = synthetic_fashion_mnist(6000, templates)
    mnist_test = synthetic_fashion_mnist(500, templates)
    return (load_array(mnist_train, batch_size),
            load_array(mnist_test, batch_size, is_train=False))


def get_fashion_mnist_labels(labels):  #@save
    """Return text labels for the Fashion-MNIST dataset."""
    text_labels = ['t-shirt', 'trouser', 'pullover', 'dress', 'coat',
                   'sandal', 'shirt', 'sneaker', 'bag', 'ankle boot']
    return [text_labels[int(i)] for i in labels]


# The d2l helpers from Chapter 3 (saved there with #@save).

def accuracy(y_hat, y):  #@save
    """Compute the number of correct predictions."""
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


def evaluate_accuracy(net, data_iter):  #@save
    """Compute the accuracy for a model on a dataset."""
    if isinstance(net, torch.nn.Module):
        net.eval()  # Set the model to evaluation mode
    metric = Accumulator(2)  # No. of correct predictions, no. of predictions

    with torch.no_grad():
        for X, y in data_iter:
            metric.add(accuracy(net(X), y), y.numel())
    return metric[0] / metric[1]


class Accumulator:  #@save
    """For accumulating sums over `n` variables."""
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def reset(self):
        self.data = [0.0] * len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]


def train_epoch_ch3(net, train_iter, loss, updater):  #@save
    """The training loop defined in Chapter 3."""
    # Set the model to training mode
    if isinstance(net, torch.nn.Module):
        net.train()
    # Sum of training loss, sum of training accuracy, no. of examples
    metric = Accumulator(3)
    for X, y in train_iter:
        # Compute gradients and update parameters
        y_hat = net(X)
        l = loss(y_hat, y)
        if isinstance(updater, torch.optim.Optimizer):
            # Using PyTorch in-built optimizer & loss criterion
            updater.zero_grad()
            l.mean().backward()
            updater.step()
        else:
            # Using custom built optimizer & loss criterion
            l.sum().backward()
            updater(X.shape[0])
        metric.add(float(l.sum()), accuracy(y_hat, y), y.numel())
    # Return training loss and training accuracy
    return metric[0] / metric[2], metric[1] / metric[2]


def train_ch3(net, train_iter, test_iter, loss, num_epochs, updater):  #@save
    """Train a model (defined in Chapter 3)."""
    # d2l plots with an Animator here; we print one line per epoch instead.
    for epoch in range(num_epochs):
        train_metrics = train_epoch_ch3(net, train_iter, loss, updater)
        test_acc = evaluate_accuracy(net, test_iter)
        print(f'epoch {epoch + 1}, loss {train_metrics[0]:.3f}, '
              f'train acc {train_metrics[1]:.3f}, test acc {test_acc:.3f}')
    train_loss, train_acc = train_metrics
    assert train_loss < 0.5, train_loss
    assert train_acc <= 1 and train_acc > 0.7, train_acc
    assert test_acc <= 1 and test_acc > 0.7, test_acc


def predict_ch3(net, test_iter, n=6):  #@save
    """Predict labels (defined in Chapter 3)."""
    for X, y in test_iter:
        break
    trues = get_fashion_mnist_labels(y)
    preds = get_fashion_mnist_labels(net(X).argmax(axis=1))
    titles = [true +'\n' + pred for true, pred in zip(trues, preds)]
    # d2l shows the images with these titles; we print the titles instead.
    for title in titles[0:n]:
        print(title.replace('\n', ' -> '))


# ---------------------------------------------------------------------------

batch_size = 256
train_iter, test_iter = load_data_fashion_mnist(batch_size)

num_inputs, num_outputs, num_hiddens = 784, 10, 256

W1 = nn.Parameter(torch.randn(
    num_inputs, num_hiddens, requires_grad=True) * 0.01)
b1 = nn.Parameter(torch.zeros(num_hiddens, requires_grad=True))
W2 = nn.Parameter(torch.randn(
    num_hiddens, num_outputs, requires_grad=True) * 0.01)
b2 = nn.Parameter(torch.zeros(num_outputs, requires_grad=True))

params = [W1, b1, W2, b2]

print([tuple(p.shape) for p in params], sum(p.numel() for p in params))


def relu(X):
    a = torch.zeros_like(X)
    return torch.max(X, a)


print(relu(torch.tensor([[-1.5, 0.0, 2.0], [3.0, -0.5, 0.25]])))


def net(X):
    X = X.reshape((-1, num_inputs))
    H = relu(X@W1 + b1)  # Here '@' stands for matrix multiplication
    return (H@W2 + b2)


loss = nn.CrossEntropyLoss(reduction='none')

num_epochs, lr = 10, 0.1
updater = torch.optim.SGD(params, lr=lr)
train_ch3(net, train_iter, test_iter, loss, num_epochs, updater)

predict_ch3(net, test_iter)
