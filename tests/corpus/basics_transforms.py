# After: Learn the Basics - Transforms (https://pytorch.org/tutorials/beginner/basics/transforms_tutorial.html)
# Adapts: torchvision's ToTensor/Lambda/Compose/Normalize replaced by small local callables and FashionMNIST by random uint8 numpy "images"; prints added to show what the transforms return.
import numpy as np
import torch
from torch.utils.data import Dataset

torch.manual_seed(0)
np.random.seed(0)

#################################################
# Data does not always come in its final processed form that is required for
# training machine learning algorithms. We use **transforms** to perform some
# manipulation of the data and make it suitable for training.
#
# The FashionMNIST features are in PIL Image format, and the labels are integers.
# For training, we need the features as normalized tensors, and the labels as one-hot encoded tensors.
# To make these transformations, we use ``ToTensor`` and ``Lambda``.
#
# The classes below stand in for ``torchvision.transforms``: the "images" are
# uint8 numpy arrays of shape (H, W), as ``np.array(pil_image)`` would give.


class ToTensor:
    """Converts a uint8 numpy array (H x W or H x W x C) to a float tensor (C x H x W) in [0., 1.]."""

    def __call__(self, pic):
        img = torch.from_numpy(pic)
        if img.ndim == 2:
            img = img[:, :, None]
        return img.permute((2, 0, 1)).contiguous().to(dtype=torch.get_default_dtype()).div(255)

    def __repr__(self):
        return f"{self.__class__.__name__}()"


class Lambda:
    """Applies a user-defined lambda as a transform."""

    def __init__(self, lambd):
        if not callable(lambd):
            raise TypeError(f"Argument lambd should be callable, got {repr(type(lambd).__name__)}")
        self.lambd = lambd

    def __call__(self, img):
        return self.lambd(img)

    def __repr__(self):
        return f"{self.__class__.__name__}()"


class Normalize:
    """Normalizes a tensor image with mean and standard deviation, channel by channel."""

    def __init__(self, mean, std):
        self.mean = mean
        self.std = std

    def __call__(self, tensor):
        mean = torch.as_tensor(self.mean, dtype=tensor.dtype)
        std = torch.as_tensor(self.std, dtype=tensor.dtype)
        return (tensor - mean.view(-1, 1, 1)) / std.view(-1, 1, 1)

    def __repr__(self):
        return f"{self.__class__.__name__}(mean={self.mean}, std={self.std})"


class Compose:
    """Composes several transforms together."""

    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, img):
        for t in self.transforms:
            img = t(img)
        return img

    def __repr__(self):
        format_string = self.__class__.__name__ + "("
        for t in self.transforms:
            format_string += "\n"
            format_string += f"    {t}"
        format_string += "\n)"
        return format_string


class FashionMNIST(Dataset):
    """Stand-in for torchvision.datasets.FashionMNIST: 8 random 28x28 uint8 images."""

    def __init__(self, root, train=True, download=False, transform=None, target_transform=None):
        self.data = np.random.randint(0, 256, size=(8, 28, 28), dtype=np.uint8)
        self.targets = [int(t) for t in np.random.randint(0, 10, size=8)]
        self.transform = transform
        self.target_transform = target_transform

    def __len__(self):
        return len(self.data)

    def __getitem__(self, index):
        img, target = self.data[index], self.targets[index]
        if self.transform is not None:
            img = self.transform(img)
        if self.target_transform is not None:
            target = self.target_transform(target)
        return img, target


ds = FashionMNIST(
    root="data",
    train=True,
    download=True,
    transform=ToTensor(),
    target_transform=Lambda(lambda y: torch.zeros(10, dtype=torch.float).scatter_(0, torch.tensor(y), value=1))
)

#################################################
# ToTensor()
# -------------------------------
#
# ToTensor converts a PIL image or NumPy ``ndarray`` into a ``FloatTensor``. and scales
# the image's pixel intensity values in the range [0., 1.]
#

raw = ds.data[0]
print(f"raw sample: {type(raw).__name__} {raw.shape} {raw.dtype}, pixel range {raw.min()}..{raw.max()}")
img, target = ds[0]
print(f"transformed: {type(img).__name__} {img.shape} {img.dtype}")
print(f"pixel range [{img.min().item():.4f}, {img.max().item():.4f}]")
print(f"img[0, 0, :5] = {img[0, 0, :5]}")
print(f"label {ds.targets[0]} -> {target}")

##############################################
# Lambda Transforms
# -------------------------------
#
# Lambda transforms apply any user-defined lambda function. Here, we define a function
# to turn the integer into a one-hot encoded tensor.
# It first creates a zero tensor of size 10 (the number of labels in our dataset) and calls
# scatter_ which assigns a ``value=1`` on the index as given by the label ``y``.

target_transform = Lambda(lambda y: torch.zeros(
    10, dtype=torch.float).scatter_(dim=0, index=torch.tensor(y), value=1))

print(target_transform)
for y in (0, 3, 9):
    print(f"target_transform({y}) = {target_transform(y)}")

one_hot = torch.stack([ds[i][1] for i in range(len(ds))])
print(f"one-hot labels {tuple(one_hot.shape)}, argmax {one_hot.argmax(dim=1).tolist()} == targets {ds.targets}")

try:
    Lambda(3)
except TypeError as e:
    print(f"TypeError: {e}")

#################################################
# Composing transforms (as the CIFAR-10 tutorial does with ``transforms.Compose``)
# ---------------------------------------------------------------------------------

transform = Compose(
    [ToTensor(),
     Normalize((0.5,), (0.5,))])
print(transform)
normalized = transform(ds.data[0])
print(f"normalized range [{normalized.min().item():.4f}, {normalized.max().item():.4f}],"
      f" mean {normalized.mean().item():.4f}")

color = np.random.randint(0, 256, size=(4, 4, 3), dtype=np.uint8)
color_transform = Compose([ToTensor(), Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))])
out = color_transform(color)
print(f"HWC {color.shape} -> CHW {tuple(out.shape)}")
print(f"channel 0 top row: {out[0, 0]}")
print(f"matches manual: {torch.allclose(out[2], torch.tensor(color[:, :, 2], dtype=torch.float) / 255 * 2 - 1)}")
