import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def shares(rank, world_size):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = "29532"
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    data = TensorDataset(torch.arange(10.0))
    sampler = DistributedSampler(data)
    loader = DataLoader(data, batch_size=2, sampler=sampler)
    for epoch in range(2):
        sampler.set_epoch(epoch)
        seen = [batch[0].tolist() for batch in loader]
        total = torch.tensor([float(len(sampler))])
        dist.all_reduce(total)
        if rank == 0:
            print(epoch, seen, len(sampler), total.item(), sampler.num_replicas, sampler.rank)
    dist.destroy_process_group()


if __name__ == "__main__":
    mp.spawn(shares, args=(3,), nprocs=3)
    fixed = DistributedSampler(TensorDataset(torch.arange(7)), num_replicas=2, rank=1, shuffle=False, drop_last=True)
    print(list(fixed), len(fixed))
    try:
        DistributedSampler(TensorDataset(torch.arange(4)))
    except ValueError as e:
        print("ValueError:", e)
    try:
        DistributedSampler(TensorDataset(torch.arange(4)), num_replicas=2, rank=2)
    except ValueError as e:
        print("ValueError:", e)

    # optimizer.state: keyed by the parameters themselves, filled by the first step.
    model = torch.nn.Linear(2, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    print(len(opt.state))
    model(torch.ones(3, 2)).sum().backward()
    opt.step()
    print(len(opt.state), list(opt.state[model.weight].keys()), opt.state[model.bias]["momentum_buffer"])
    print(model.weight in opt.state, [p.shape for p in opt.state])
    adam = torch.optim.Adam(model.parameters())
    model(torch.ones(1, 2)).sum().backward()
    adam.step()
    print(sorted(adam.state[model.weight].keys()), adam.state[model.weight]["step"])
