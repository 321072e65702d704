# Idiom: the PyTorch-examples style `def main(): parser = argparse.ArgumentParser(...)`
# hyperparameter parsing -- type=, default=, choices=, action='store_true',
# dest, metavar, vars(args) -- here driven by parse_args([]) and parse_args([...]).
import argparse
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self, hidden=32, dropout=0.25):
        super(Net, self).__init__()
        self.fc1 = nn.Linear(12, hidden)
        self.dropout1 = nn.Dropout(dropout)
        self.fc2 = nn.Linear(hidden, 3)

    def forward(self, x):
        x = self.fc1(x)
        x = F.relu(x)
        x = self.dropout1(x)
        x = self.fc2(x)
        output = F.log_softmax(x, dim=1)
        return output


def train(args, model, device, train_loader, optimizer, epoch):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        if batch_idx % args.log_interval == 0:
            print('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
                epoch, batch_idx * len(data), len(train_loader.dataset),
                100. * batch_idx / len(train_loader), loss.item()))
            if args.dry_run:
                break


def test(model, device, test_loader):
    model.eval()
    test_loss = 0
    correct = 0
    with torch.no_grad():
        for data, target in test_loader:
            data, target = data.to(device), target.to(device)
            output = model(data)
            test_loss += F.nll_loss(output, target, reduction='sum').item()  # sum up batch loss
            pred = output.argmax(dim=1, keepdim=True)  # get the index of the max log-probability
            correct += pred.eq(target.view_as(pred)).sum().item()

    test_loss /= len(test_loader.dataset)
    print('Test set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)'.format(
        test_loss, correct, len(test_loader.dataset),
        100. * correct / len(test_loader.dataset)))
    return correct / len(test_loader.dataset)


def build_parser():
    parser = argparse.ArgumentParser(description='PyTorch synthetic-data Example')
    parser.add_argument('--batch-size', type=int, default=32, metavar='N',
                        help='input batch size for training (default: 32)')
    parser.add_argument('--test-batch-size', type=int, default=100, metavar='N',
                        help='input batch size for testing (default: 100)')
    parser.add_argument('--epochs', type=int, default=3, metavar='N',
                        help='number of epochs to train (default: 3)')
    parser.add_argument('--lr', type=float, default=1.0, metavar='LR',
                        help='learning rate (default: 1.0)')
    parser.add_argument('--gamma', type=float, default=0.7, metavar='M',
                        help='Learning rate step gamma (default: 0.7)')
    parser.add_argument('--optimizer', type=str, default='sgd', choices=['sgd', 'adam'])
    parser.add_argument('--hidden', type=int, nargs='+', default=[32])
    parser.add_argument('--no-cuda', action='store_true', default=False,
                        help='disables CUDA training')
    parser.add_argument('--dry-run', action='store_true', default=False,
                        help='quickly check a single pass')
    parser.add_argument('--seed', type=int, default=1, metavar='S',
                        help='random seed (default: 1)')
    parser.add_argument('--log-interval', type=int, default=4, metavar='N',
                        help='how many batches to wait before logging training status')
    parser.add_argument('--save-model', action='store_true', default=False,
                        help='For Saving the current Model')
    return parser


def main(argv):
    parser = build_parser()
    args = parser.parse_args(argv)
    print("args:", " ".join(f"{k}={v}" for k, v in sorted(vars(args).items())))
    use_cuda = False  # keep the corpus CPU-only and deterministic
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    device = torch.device("cuda" if use_cuda else "cpu")

    train_kwargs = {'batch_size': args.batch_size}
    test_kwargs = {'batch_size': args.test_batch_size}
    if use_cuda:
        cuda_kwargs = {'num_workers': 1, 'pin_memory': True, 'shuffle': True}
        train_kwargs.update(cuda_kwargs)
        test_kwargs.update(cuda_kwargs)
    train_kwargs['shuffle'] = True

    X = torch.randn(300, 12)
    y = (X[:, 0] + X[:, 1] > 0).long() + (X[:, 2] > 1).long()
    dataset1 = TensorDataset(X[:200], y[:200])
    dataset2 = TensorDataset(X[200:], y[200:])
    train_loader = DataLoader(dataset1, **train_kwargs)
    test_loader = DataLoader(dataset2, **test_kwargs)

    model = Net(hidden=args.hidden[0]).to(device)
    if args.optimizer == 'sgd':
        optimizer = optim.SGD(model.parameters(), lr=args.lr)
    else:
        optimizer = optim.Adam(model.parameters(), lr=args.lr)

    scheduler = StepLR(optimizer, step_size=1, gamma=args.gamma)
    acc = 0.0
    for epoch in range(1, args.epochs + 1):
        train(args, model, device, train_loader, optimizer, epoch)
        acc = test(model, device, test_loader)
        scheduler.step()
    print(f"final lr: {scheduler.get_last_lr()[0]:.6f}")

    if args.save_model:
        print("would save to", "synthetic_mlp.pt")
    return acc


if __name__ == '__main__':
    print("== defaults ==")
    main([])
    print("== overrides ==")
    main(["--lr", "0.1", "--epochs", "2", "--optimizer", "sgd",
          "--hidden", "16", "8", "--dry-run", "--save-model", "--seed=3"])
    print("== adam ==")
    main(["--lr", "0.01", "--optimizer", "adam", "--gamma", "0.5", "--batch-size", "50"])

    # a bad choice makes argparse exit(2); scripts rarely catch this, we do here
    try:
        build_parser().parse_args(["--optimizer", "rmsprop"])
    except SystemExit as e:
        print("argparse exited with code", e.code)
    known, unknown = build_parser().parse_known_args(["--lr", "0.3", "--extra", "1"])
    print("known lr:", known.lr, "unknown:", unknown)
