# After: Learn the Basics - Datasets & DataLoaders, "Creating a Custom Dataset for your files" (https://pytorch.org/tutorials/beginner/basics/data_tutorial.html)
# Adapts: image files are written first as small binary PGM files, pandas.read_csv is replaced by the csv module and torchvision.io.read_image by a PGM reader.
import os
import csv
import shutil

import torch
from torch.utils.data import Dataset, DataLoader

torch.manual_seed(0)

#################################################################
# The tutorial's FashionMNIST images are stored in a directory ``img_dir``,
# and their labels are stored separately in a CSV file ``annotations_file``.
# We first make such a directory with 12 random 28x28 grayscale images.
#
# The labels.csv file looks like: ::
#
#     tshirt1.jpg, 0
#     tshirt2.jpg, 0
#     ......
#     ankleboot999.jpg, 9

img_dir = "fashion_images"
annotations_file = "labels.csv"
names = ["tshirt", "trouser", "pullover", "dress", "coat",
         "sandal", "shirt", "sneaker", "bag", "ankleboot"]

os.makedirs(img_dir, exist_ok=True)
rows = []
for i in range(12):
    label = i % 10
    file_name = f"{names[label]}{i // 10 + 1}.pgm"
    pixels = torch.randint(0, 256, (28, 28), dtype=torch.uint8)
    with open(os.path.join(img_dir, file_name), "wb") as f:
        f.write(b"P5\n28 28\n255\n")
        f.write(pixels.numpy().tobytes())
    rows.append((file_name, label))
    if i == 0:
        first_pixels = pixels

with open(annotations_file, "w", newline="") as f:
    writer = csv.writer(f)
    writer.writerows(rows)

print(f"wrote {len(os.listdir(img_dir))} images")
with open(annotations_file) as f:
    print("first lines of labels.csv:", f.read().splitlines()[:3])


def read_image(path):
    """Stand-in for torchvision.io.read_image: returns a uint8 tensor of shape (C, H, W)."""
    with open(path, "rb") as f:
        raw = f.read()
    magic, size, maxval, pixels = raw.split(b"\n", 3)
    assert magic == b"P5" and maxval == b"255"
    width, height = (int(v) for v in size.split())
    image = torch.frombuffer(bytearray(pixels), dtype=torch.uint8)
    return image.reshape(1, height, width)


def read_csv(path):
    """Stand-in for pandas.read_csv(path, header=None): a list of [file name, label] rows."""
    with open(path, newline="") as f:
        return [[name, int(label)] for name, label in csv.reader(f)]


#################################################################
# Creating a Custom Dataset for your files
# ---------------------------------------------------
#
# A custom Dataset class must implement three functions: `__init__`, `__len__`, and `__getitem__`.

class CustomImageDataset(Dataset):
    def __init__(self, annotations_file, img_dir, transform=None, target_transform=None):
        self.img_labels = read_csv(annotations_file)
        self.img_dir = img_dir
        self.transform = transform
        self.target_transform = target_transform

    def __len__(self):
        return len(self.img_labels)

    def __getitem__(self, idx):
        img_path = os.path.join(self.img_dir, self.img_labels[idx][0])
        image = read_image(img_path)
        label = self.img_labels[idx][1]
        if self.transform:
            image = self.transform(image)
        if self.target_transform:
            label = self.target_transform(label)
        return image, label


#################################################################
# __getitem__ loads and returns a sample from the dataset at the given index ``idx``.
# Based on the index, it identifies the image's location on disk, converts that to a tensor using ``read_image``, retrieves the
# corresponding label from the csv data in ``self.img_labels``, calls the transform functions on them (if applicable), and returns the
# tensor image and corresponding label in a tuple.

raw_data = CustomImageDataset(annotations_file, img_dir)
print(f"len(raw_data): {len(raw_data)}")
image, label = raw_data[0]
print(f"raw_data[0]: {image.shape} {image.dtype} label={label}")
print(f"pixels match what was written: {torch.equal(image[0], first_pixels)}")

# With transforms: scale to [0, 1] floats, and a one-hot label (as in the Transforms tutorial)
data = CustomImageDataset(
    annotations_file,
    img_dir,
    transform=lambda img: img.float() / 255,
    target_transform=lambda y: torch.zeros(10, dtype=torch.float).scatter_(0, torch.tensor(y), value=1),
)
image, label = data[11]
print(f"data[11]: image {image.shape} {image.dtype} min {image.min():.4f} max {image.max():.4f}")
print(f"data[11] label: {label}")

#################################################################
# Preparing your data for training with DataLoaders
# -------------------------------------------------

train_dataloader = DataLoader(data, batch_size=5, shuffle=True)

for epoch in range(2):
    for train_features, train_labels in train_dataloader:
        print(f"epoch {epoch}: Feature batch shape: {train_features.size()}, "
              f"labels {train_labels.argmax(1).tolist()}")

# tidy up the files made above
shutil.rmtree(img_dir)
os.remove(annotations_file)
print(f"cleaned up: {not os.path.exists(img_dir) and not os.path.exists(annotations_file)}")
