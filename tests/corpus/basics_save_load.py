# After: Learn the Basics - Save and Load the Model (https://pytorch.org/tutorials/beginner/basics/saveloadrun_tutorial.html)
# Adapts: torchvision.models.vgg16 (and its downloaded IMAGENET1K_V1 weights) replaced by a small local VGG-style model on 3x32x32 inputs; prints added to check what was saved and loaded.
import os

import torch
from torch import nn

torch.manual_seed(0)

#######################################################################
# The tutorial uses ``torchvision.models.vgg16``. We cannot download its
# pretrained weights, so ``vgg16`` below builds a much smaller network with the
# same layout (``features`` / ``avgpool`` / ``classifier``), and "pretrained"
# weights are simply the random ones of the first instance.


class VGG(nn.Module):
    def __init__(self, features, num_classes=10, dropout=0.5):
        super().__init__()
        self.features = features
        self.avgpool = nn.AdaptiveAvgPool2d((2, 2))
        self.classifier = nn.Sequential(
            nn.Linear(16 * 2 * 2, 32),
            nn.ReLU(True),
            nn.Dropout(p=dropout),
            nn.Linear(32, 32),
            nn.ReLU(True),
            nn.Dropout(p=dropout),
            nn.Linear(32, num_classes),
        )

    def forward(self, x):
        x = self.features(x)
        x = self.avgpool(x)
        x = torch.flatten(x, 1)
        x = self.classifier(x)
        return x


def make_layers(cfg):
    layers = []
    in_channels = 3
    for v in cfg:
        if v == "M":
            layers += [nn.MaxPool2d(kernel_size=2, stride=2)]
        else:
            conv2d = nn.Conv2d(in_channels, v, kernel_size=3, padding=1)
            layers += [conv2d, nn.ReLU(inplace=True)]
            in_channels = v
    return nn.Sequential(*layers)


def vgg16(weights=None):
    return VGG(make_layers([8, "M", 16, 16, "M"]))


#######################################################################
# Saving and Loading Model Weights
# --------------------------------
# PyTorch models store the learned parameters in an internal
# state dictionary, called ``state_dict``. These can be persisted via the ``torch.save``
# method:

model = vgg16(weights='IMAGENET1K_V1')
torch.save(model.state_dict(), 'model_weights.pth')

# (added) what the state_dict holds
state_dict = model.state_dict()
print(f"state_dict type: {type(state_dict).__name__}, {len(state_dict)} entries")
for key, value in state_dict.items():
    print(f"  {key:<22} {tuple(value.shape)}")
image = torch.rand(2, 3, 32, 32)
model.eval()
with torch.no_grad():
    reference = model(image)

##########################
# To load model weights, you need to create an instance of the same model first, and then load the parameters
# using ``load_state_dict()`` method.
#
# In the code below, we set ``weights_only=True`` to limit the
# functions executed during unpickling to only those necessary for
# loading weights. Using ``weights_only=True`` is considered
# a best practice when loading weights.

model = vgg16() # we do not specify ``weights``, i.e. create untrained model
print(f"fresh model has the saved weights: {torch.equal(model.features[0].weight, state_dict['features.0.weight'])}")
result = model.load_state_dict(torch.load('model_weights.pth', weights_only=True))
print(f"load_state_dict: {result}")
print(f"loaded model has the saved weights: {torch.equal(model.features[0].weight, state_dict['features.0.weight'])}")
print(model.eval())

###########################
# .. note:: be sure to call ``model.eval()`` method before inferencing to set the dropout and batch normalization layers to evaluation mode. Failing to do this will yield inconsistent inference results.

print(f"model.training: {model.training}, classifier[2].training: {model.classifier[2].training}")
with torch.no_grad():
    output = model(image)
print(f"same outputs as the saved model in eval mode: {torch.equal(output, reference)}")
print(f"output[0]: {output[0]}")
model.train()
with torch.no_grad():
    train_output = model(image)
print(f"model.training: {model.training}; dropout changes the outputs in train mode: {not torch.equal(train_output, reference)}")
model.eval()

#######################################################################
# Saving and Loading Models with Shapes
# -------------------------------------
# When loading model weights, we needed to instantiate the model class first, because the class
# defines the structure of a network. We might want to save the structure of this class together with
# the model, in which case we can pass ``model`` (and not ``model.state_dict()``) to the saving function:

torch.save(model, 'model.pth')

########################
# We can then load the model as demonstrated below.
#
# As described in Saving and loading torch.nn.Modules,
# saving ``state_dict`` is considered the best practice. However,
# below we use ``weights_only=False`` because this involves loading the
# model, which is a legacy use case for ``torch.save``.

model = torch.load('model.pth', weights_only=False)

print(f"loaded object: {type(model).__name__}, training={model.training}")
with torch.no_grad():
    print(f"same outputs after loading the whole model: {torch.equal(model(image), reference)}")

########################
# .. note:: This approach uses Python pickle module when serializing the model, thus it relies on the actual class definition to be available when loading the model.

# (added) a state_dict with a missing key is rejected unless strict=False
partial = {k: v for k, v in state_dict.items() if not k.startswith("classifier.6")}
try:
    vgg16().load_state_dict(partial)
except RuntimeError as e:
    print(f"RuntimeError: {str(e).splitlines()[0]}")
print(vgg16().load_state_dict(partial, strict=False))

for path in ('model_weights.pth', 'model.pth'):
    os.remove(path)
