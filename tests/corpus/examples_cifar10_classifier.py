# After: Training a Classifier (CIFAR-10) (https://pytorch.org/tutorials/beginner/blitz/cifar10_tutorial.html)
# Adapts the CIFAR-10 tutorial with a synthetic, learnable dataset of 3x32x32 images in place of torchvision's CIFAR10.
import os

import torch
import torch.utils.data

torch.manual_seed(0)

########################################################################
# 1. Load and normalize the data
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
#
# The tutorial downloads CIFAR-10 through torchvision and normalizes it with
# transforms.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5)). There is no torchvision
# and no network here, so we build a small synthetic dataset of random 3x32x32
# images in [0, 1]: each class gets its own colour tint and bright square, so
# the network has something to learn. We normalize the same way
# (x - 0.5) / 0.5 to get images in [-1, 1].

classes = ('plane', 'car', 'bird', 'cat',
           'deer', 'dog', 'frog', 'horse', 'ship', 'truck')


class SyntheticCIFAR10(torch.utils.data.Dataset):
    """A stand-in for torchvision.datasets.CIFAR10: (image, label) pairs."""

    def __init__(self, num_images, tints, generator):
        self.targets = torch.randint(0, len(classes), (num_images,), generator=generator)
        images = 0.5 * torch.rand(num_images, 3, 32, 32, generator=generator)
        images += 0.5 * tints[self.targets]
        for n, label in enumerate(self.targets.tolist()):
            row, col = divmod(label, 5)
            top, left = 4 + 14 * row, 2 + 6 * col
            images[n, :, top:top + 8, left:left + 5] = 1.0
        self.data = (images - 0.5) / 0.5

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, idx):
        return self.data[idx], self.targets[idx]


batch_size = 4

data_generator = torch.Generator().manual_seed(0)
class_tints = torch.rand(len(classes), 3, 1, 1, generator=data_generator)
trainset = SyntheticCIFAR10(1000, class_tints, data_generator)
trainloader = torch.utils.data.DataLoader(trainset, batch_size=batch_size,
                                          shuffle=True, num_workers=2)

testset = SyntheticCIFAR10(200, class_tints, data_generator)
testloader = torch.utils.data.DataLoader(testset, batch_size=batch_size,
                                         shuffle=False, num_workers=2)

########################################################################
# Let us look at some of the training data (the tutorial shows them with
# matplotlib; we print the shapes and labels instead).

# get some random training images
dataiter = iter(trainloader)
images, labels = next(dataiter)

print(images.shape, images.dtype, labels.shape, labels.dtype)
# print labels
print(' '.join(f'{classes[labels[j]]:5s}' for j in range(batch_size)))


########################################################################
# 2. Define a Convolutional Neural Network
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^

import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1) # flatten all dimensions except batch
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


net = Net()
print(net)

########################################################################
# 3. Define a Loss function and optimizer
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
# Let's use a Classification Cross-Entropy loss and SGD with momentum.

import torch.optim as optim

criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)

########################################################################
# 4. Train the network
# ^^^^^^^^^^^^^^^^^^^^
#
# We simply have to loop over our data iterator, and feed the inputs to the
# network and optimize. The tutorial prints every 2000 mini-batches; our
# synthetic training set has 250 mini-batches per epoch, so we print every 50,
# and we run 3 epochs so that the small synthetic set converges.

for epoch in range(3):  # loop over the dataset multiple times (the tutorial uses 2)

    running_loss = 0.0
    for i, data in enumerate(trainloader, 0):
        # get the inputs; data is a list of [inputs, labels]
        inputs, labels = data

        # zero the parameter gradients
        optimizer.zero_grad()

        # forward + backward + optimize
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()

        # print statistics
        running_loss += loss.item()
        if i % 50 == 49:    # print every 50 mini-batches
            print(f'[{epoch + 1}, {i + 1:5d}] loss: {running_loss / 50:.3f}')
            running_loss = 0.0

print('Finished Training')

########################################################################
# Let's quickly save our trained model:

PATH = './cifar_net.pth'
torch.save(net.state_dict(), PATH)

########################################################################
# 5. Test the network on the test data
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^

dataiter = iter(testloader)
images, labels = next(dataiter)

# print images (the tutorial calls imshow(torchvision.utils.make_grid(images)))
print('GroundTruth: ', ' '.join(f'{classes[labels[j]]:5s}' for j in range(4)))

########################################################################
# Next, let's load back in our saved model (note: saving and re-loading the model
# wasn't necessary here, we only did it to illustrate how to do so):

net = Net()
net.load_state_dict(torch.load(PATH, weights_only=True))

########################################################################
# Okay, now let us see what the neural network thinks these examples above are:

outputs = net(images)

########################################################################
# The outputs are energies for the 10 classes.
# The higher the energy for a class, the more the network
# thinks that the image is of the particular class.
# So, let's get the index of the highest energy:
_, predicted = torch.max(outputs, 1)

print('Predicted: ', ' '.join(f'{classes[predicted[j]]:5s}'
                              for j in range(4)))

########################################################################
# Let us look at how the network performs on the whole dataset.

correct = 0
total = 0
# since we're not training, we don't need to calculate the gradients for our outputs
with torch.no_grad():
    for data in testloader:
        images, labels = data
        # calculate outputs by running images through the network
        outputs = net(images)
        # the class with the highest energy is what we choose as prediction
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()

print(f'Accuracy of the network on the {total} test images: {100 * correct // total} %')

########################################################################
# What are the classes that performed well, and the classes that did
# not perform well:

# prepare to count predictions for each class
correct_pred = {classname: 0 for classname in classes}
total_pred = {classname: 0 for classname in classes}

# again no gradients needed
with torch.no_grad():
    for data in testloader:
        images, labels = data
        outputs = net(images)
        _, predictions = torch.max(outputs, 1)
        # collect the correct predictions for each class
        for label, prediction in zip(labels, predictions):
            if label == prediction:
                correct_pred[classes[label]] += 1
            total_pred[classes[label]] += 1


# print accuracy for each class
for classname, correct_count in correct_pred.items():
    accuracy = 100 * float(correct_count) / total_pred[classname]
    print(f'Accuracy for class: {classname:5s} is {accuracy:.1f} %')

########################################################################
# The tutorial then moves the net to ``torch.device('cuda:0' if
# torch.cuda.is_available() else 'cpu')``; we stay on the CPU so the output
# does not depend on the machine, and tidy up the checkpoint file.

os.remove(PATH)
