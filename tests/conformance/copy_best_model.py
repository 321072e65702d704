# Keeping the best weights with copy.deepcopy, as the transfer-learning tutorial does, and the
# copy module on plain values.
import copy
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 1)
x, y = torch.randn(8, 3), torch.randn(8, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

best_loss = float("inf")
best_weights = copy.deepcopy(model.state_dict())
for epoch in range(5):
    optimizer.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    optimizer.step()
    if loss.item() < best_loss:
        best_loss = loss.item()
        best_weights = copy.deepcopy(model.state_dict())
print(round(best_loss, 5))
print(torch.equal(best_weights["weight"], model.weight), best_weights["weight"].requires_grad)
with torch.no_grad():
    model.weight.zero_()
print(model.weight.abs().sum().item(), best_weights["weight"].abs().sum().item() > 0)
model.load_state_dict(best_weights)
print(torch.equal(model.weight, best_weights["weight"]))

nested = {"sizes": [1, 2], "name": "run"}
shallow, deep = copy.copy(nested), copy.deepcopy(nested)
nested["sizes"].append(3)
print(shallow["sizes"], deep["sizes"], shallow is nested, deep == {"sizes": [1, 2], "name": "run"})
shared = [0]
pair = copy.deepcopy([shared, shared])
print(pair[0] is pair[1], pair[0] is shared)

leaf = torch.ones(2, requires_grad=True)
twin = copy.deepcopy(leaf)
print(twin.requires_grad, twin.is_leaf, twin.data_ptr() != leaf.data_ptr())
view = copy.copy(leaf)
print(view.requires_grad, view.data_ptr() == leaf.data_ptr())
try:
    copy.deepcopy(leaf * 2)
except RuntimeError as e:
    print("RuntimeError:", str(e).split(".")[0])
