# Idiom: logging a training run with the logging module -- basicConfig(level, format,
# stream=sys.stdout), logger = logging.getLogger(__name__), %-style lazy args,
# logger.warning / logger.debug (filtered), child loggers and setLevel.
import logging
import random
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

# no %(asctime)s: timestamps would make the output machine-dependent
logging.basicConfig(
    level=logging.INFO,
    format="%(levelname)s:%(name)s: %(message)s",
    stream=sys.stdout,
)
logger = logging.getLogger(__name__)

torch.manual_seed(0)
random.seed(0)


class Regressor(nn.Module):
    def __init__(self, n_in: int, n_hidden: int) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_in, n_hidden),
            nn.ReLU(),
            nn.Linear(n_hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


def main():
    n_samples, n_features = 128, 5
    X = torch.randn(n_samples, n_features)
    true_w = torch.tensor([1.5, -2.0, 0.5, 0.0, 3.0])
    y = X @ true_w + 0.1 * torch.randn(n_samples)

    loader = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)
    model = Regressor(n_features, 16)
    n_params = sum(p.numel() for p in model.parameters() if p.requires_grad)
    logger.info("Model has %d trainable parameters", n_params)
    logger.info("Dataset: %d samples, %d batches per epoch", len(loader.dataset), len(loader))

    optimizer = optim.Adam(model.parameters(), lr=1e-2)
    logger.debug("this debug message is below INFO and is not shown")

    train_log = logging.getLogger(__name__ + ".train")
    train_log.setLevel(logging.WARNING)  # per-step messages suppressed
    prev_loss = float("inf")
    for epoch in range(1, 9):
        model.train()
        total = 0.0
        for step, (xb, yb) in enumerate(loader):
            optimizer.zero_grad()
            loss = F.mse_loss(model(xb), yb)
            loss.backward()
            optimizer.step()
            total += loss.item() * xb.size(0)
            train_log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
        epoch_loss = total / len(loader.dataset)
        logger.info("Epoch %d/%d - loss: %.4f", epoch, 8, epoch_loss)
        if epoch_loss > prev_loss:
            logger.warning("Loss increased from %.4f to %.4f at epoch %d",
                           prev_loss, epoch_loss, epoch)
        prev_loss = epoch_loss

    model.eval()
    with torch.no_grad():
        final = F.mse_loss(model(X), y).item()
    if final > 0.5:
        logger.warning("Final MSE %.4f is above target %.2f", final, 0.5)
    else:
        logger.info("Final MSE %.4f reached target", final)
    train_log.warning("train logger still emits warnings (effective level %s)",
                      logging.getLevelName(train_log.getEffectiveLevel()))
    logger.info("%s", {"lr": optimizer.param_groups[0]["lr"], "epochs": 8})

    try:
        raise ValueError("bad batch")
    except ValueError:
        logger.error("Caught error during eval: %s", "bad batch")
    logger.info("isEnabledFor(DEBUG)=%s", logger.isEnabledFor(logging.DEBUG))


if __name__ == "__main__":
    main()
