# Idiom: transfer-learning tutorial loop -- phases 'train'/'val' over a dict of
# dataloaders, running_loss / running_corrects, and keeping the best weights with
# best_model_wts = copy.deepcopy(model.state_dict()), then model.load_state_dict(best_model_wts).
import copy
import random

import torch
import torch.nn as nn
import torch.optim as optim
from torch.optim import lr_scheduler
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
random.seed(0)

# synthetic 3-class problem
num_classes = 3
X = torch.randn(240, 8)
W_true = torch.randn(8, num_classes)
y = (X @ W_true).argmax(dim=1)

image_datasets = {
    'train': TensorDataset(X[:180], y[:180]),
    'val': TensorDataset(X[180:], y[180:]),
}
dataloaders = {x: DataLoader(image_datasets[x], batch_size=16, shuffle=(x == 'train'))
               for x in ['train', 'val']}
dataset_sizes = {x: len(image_datasets[x]) for x in ['train', 'val']}
print(f"dataset sizes: {dataset_sizes}")


class Net(nn.Module):
    def __init__(self, in_features, hidden, out_features):
        super(Net, self).__init__()
        self.fc1 = nn.Linear(in_features, hidden)
        self.relu = nn.ReLU()
        self.dropout = nn.Dropout(p=0.2)
        self.fc2 = nn.Linear(hidden, out_features)

    def forward(self, x):
        x = self.relu(self.fc1(x))
        x = self.dropout(x)
        return self.fc2(x)


def train_model(model, criterion, optimizer, scheduler, num_epochs=6):
    best_model_wts = copy.deepcopy(model.state_dict())
    best_acc = 0.0
    best_epoch = -1

    for epoch in range(num_epochs):
        print('Epoch {}/{}'.format(epoch, num_epochs - 1))
        print('-' * 10)

        # Each epoch has a training and validation phase
        for phase in ['train', 'val']:
            if phase == 'train':
                model.train()  # Set model to training mode
            else:
                model.eval()   # Set model to evaluate mode

            running_loss = 0.0
            running_corrects = 0

            # Iterate over data.
            for inputs, labels in dataloaders[phase]:
                # zero the parameter gradients
                optimizer.zero_grad()

                # forward
                # track history if only in train
                with torch.set_grad_enabled(phase == 'train'):
                    outputs = model(inputs)
                    _, preds = torch.max(outputs, 1)
                    loss = criterion(outputs, labels)

                    # backward + optimize only if in training phase
                    if phase == 'train':
                        loss.backward()
                        optimizer.step()

                # statistics
                running_loss += loss.item() * inputs.size(0)
                running_corrects += torch.sum(preds == labels.data)
            if phase == 'train':
                scheduler.step()

            epoch_loss = running_loss / dataset_sizes[phase]
            epoch_acc = running_corrects.double() / dataset_sizes[phase]

            print('{} Loss: {:.4f} Acc: {:.4f}'.format(phase, epoch_loss, epoch_acc))

            # deep copy the model
            if phase == 'val' and epoch_acc > best_acc:
                best_acc = epoch_acc
                best_epoch = epoch
                best_model_wts = copy.deepcopy(model.state_dict())

        print()

    print('Best val Acc: {:4f} (epoch {})'.format(best_acc, best_epoch))

    # deepcopy really is a copy: the live weights differ from the saved ones now
    live = model.state_dict()['fc1.weight']
    saved = best_model_wts['fc1.weight']
    print('saved is live tensor:', saved is live)
    print('saved shares storage:', saved.data_ptr() == live.data_ptr())

    # load best model weights
    model.load_state_dict(best_model_wts)
    return model


model_ft = Net(8, 32, num_classes)
criterion = nn.CrossEntropyLoss()
optimizer_ft = optim.SGD(model_ft.parameters(), lr=0.1, momentum=0.9)
exp_lr_scheduler = lr_scheduler.StepLR(optimizer_ft, step_size=3, gamma=0.1)

model_ft = train_model(model_ft, criterion, optimizer_ft, exp_lr_scheduler, num_epochs=6)

# evaluate the restored model on val
model_ft.eval()
correct = 0
with torch.no_grad():
    for inputs, labels in dataloaders['val']:
        correct += (model_ft(inputs).argmax(dim=1) == labels).sum().item()
print(f"restored model val acc: {correct / dataset_sizes['val']:.4f}")
print("state_dict keys:", list(model_ft.state_dict().keys()))
print("final lr:", optimizer_ft.param_groups[0]['lr'])
