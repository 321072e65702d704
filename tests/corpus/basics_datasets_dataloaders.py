# After: Learn the Basics - Datasets & DataLoaders (https://pytorch.org/tutorials/beginner/basics/data_tutorial.html)
# Adapts: torchvision's FashionMNIST replaced by a local Dataset subclass of random 28x28 uint8 images; matplotlib plots replaced by prints.
import torch
from torch.utils.data import Dataset

torch.manual_seed(0)

############################################################
# Loading a Dataset
# -------------------
#
# The tutorial loads the FashionMNIST Dataset from TorchVision with the following parameters:
#  - ``root`` is the path where the train/test data is stored,
#  - ``train`` specifies training or test dataset,
#  - ``download=True`` downloads the data from the internet if it's not available at ``root``.
#  - ``transform`` and ``target_transform`` specify the feature and label transformations
#
# Without torchvision and the network, ``ToTensor`` and ``datasets.FashionMNIST``
# are replaced by the small stand-ins below, which keep the same interface: a
# sample is a ``(1, 28, 28)`` float tensor in [0, 1] and an ``int`` label.


class ToTensor:
    """Stand-in for torchvision.transforms.ToTensor: uint8 HxW image -> float 1xHxW in [0, 1]."""

    def __call__(self, pic):
        return pic.unsqueeze(0).float().div(255)


class datasets:
    """Stand-in for the torchvision.datasets namespace."""

    class FashionMNIST(Dataset):
        def __init__(self, root, train=True, download=False, transform=None, target_transform=None):
            self.root = root
            self.train = train
            num_samples = 200 if train else 100
            self.data = torch.randint(0, 256, (num_samples, 28, 28), dtype=torch.uint8)
            self.targets = torch.randint(0, 10, (num_samples,))
            self.transform = transform
            self.target_transform = target_transform

        def __len__(self):
            return len(self.data)

        def __getitem__(self, index):
            img, target = self.data[index], int(self.targets[index])
            if self.transform is not None:
                img = self.transform(img)
            if self.target_transform is not None:
                target = self.target_transform(target)
            return img, target


training_data = datasets.FashionMNIST(
    root="data",
    train=True,
    download=True,
    transform=ToTensor()
)

test_data = datasets.FashionMNIST(
    root="data",
    train=False,
    download=True,
    transform=ToTensor()
)

print(f"training_data: {len(training_data)} samples, test_data: {len(test_data)} samples")


#################################################################
# Iterating and Visualizing the Dataset
# -------------------------------------
#
# We can index ``Datasets`` manually like a list: ``training_data[index]``.
# The tutorial uses ``matplotlib`` to visualize some samples in our training data;
# here we print what it would plot.

labels_map = {
    0: "T-Shirt",
    1: "Trouser",
    2: "Pullover",
    3: "Dress",
    4: "Coat",
    5: "Sandal",
    6: "Shirt",
    7: "Sneaker",
    8: "Bag",
    9: "Ankle Boot",
}
cols, rows = 3, 3
for i in range(1, cols * rows + 1):
    sample_idx = torch.randint(len(training_data), size=(1,)).item()
    img, label = training_data[sample_idx]
    # figure.add_subplot(rows, cols, i); plt.title(labels_map[label]); plt.imshow(img.squeeze(), cmap="gray")
    print(f"subplot {i}: sample {sample_idx:>3d} {labels_map[label]:<10} image {tuple(img.squeeze().shape)}"
          f" mean {img.mean():.4f}")


#################################################################
# Creating a Custom Dataset for your files
# ---------------------------------------------------
#
# A custom Dataset class must implement three functions: `__init__`, `__len__`, and `__getitem__`.
# (The file-based ``CustomImageDataset`` of this tutorial is in basics_custom_image_dataset.py.)
# Here a custom Dataset holds tensors in memory.


class CustomTensorDataset(Dataset):
    def __init__(self, images, labels, transform=None, target_transform=None):
        self.images = images
        self.labels = labels
        self.transform = transform
        self.target_transform = target_transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        image = self.images[idx]
        label = self.labels[idx]
        if self.transform:
            image = self.transform(image)
        if self.target_transform:
            label = self.target_transform(label)
        return image, label


custom_data = CustomTensorDataset(
    torch.randint(0, 256, (10, 28, 28), dtype=torch.uint8),
    torch.arange(10) % 3,
    transform=ToTensor(),
    target_transform=lambda y: y.item(),
)
print(f"len(custom_data): {len(custom_data)}")
image, label = custom_data[4]
print(f"custom_data[4]: image {image.shape} {image.dtype}, label {label} {type(label).__name__}")
print(f"labels: {[custom_data[i][1] for i in range(len(custom_data))]}")


#################################################################
# Preparing your data for training with DataLoaders
# -------------------------------------------------
# The ``Dataset`` retrieves our dataset's features and labels one sample at a time. While training a model, we typically want to
# pass samples in "minibatches", reshuffle the data at every epoch to reduce model overfitting, and use Python's ``multiprocessing`` to
# speed up data retrieval.
#
# ``DataLoader`` is an iterable that abstracts this complexity for us in an easy API.

from torch.utils.data import DataLoader

train_dataloader = DataLoader(training_data, batch_size=64, shuffle=True)
test_dataloader = DataLoader(test_data, batch_size=64, shuffle=True)

###########################
# Iterate through the DataLoader
# ------------------------------
#
# We have loaded that dataset into the ``DataLoader`` and can iterate through the dataset as needed.
# Each iteration below returns a batch of ``train_features`` and ``train_labels`` (containing ``batch_size=64`` features and labels respectively).
# Because we specified ``shuffle=True``, after we iterate over all batches the data is shuffled.

# Display image and label.
train_features, train_labels = next(iter(train_dataloader))
print(f"Feature batch shape: {train_features.size()}")
print(f"Labels batch shape: {train_labels.size()}")
img = train_features[0].squeeze()
label = train_labels[0]
# plt.imshow(img, cmap="gray"); plt.show()
print(f"img shape: {img.shape}")
print(f"Label: {label}")

# (added) a full pass over both loaders: the last batch is smaller
print(f"len(train_dataloader): {len(train_dataloader)}, len(test_dataloader): {len(test_dataloader)}")
for batch, (X, y) in enumerate(train_dataloader):
    print(f"train batch {batch}: X {tuple(X.shape)} {X.dtype}, y {tuple(y.shape)} {y.dtype}, label sum {y.sum().item()}")
seen = 0
for X, y in test_dataloader:
    seen += len(X)
print(f"test samples seen: {seen}")

# (added) the same data without shuffling comes back in dataset order
ordered = DataLoader(custom_data, batch_size=4)
for images, labels in ordered:
    print(f"ordered batch: images {list(images.shape)}, labels {labels.tolist()}")
