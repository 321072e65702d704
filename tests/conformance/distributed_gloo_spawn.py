import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP


def train(rank, world_size):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = "29531"
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    torch.manual_seed(rank)  # replicas start different; DDP broadcasts rank 0's parameters
    model = torch.nn.Linear(2, 1)
    ddp = DDP(model)
    x = torch.full((4, 2), float(rank + 1))
    loss = ddp(x).sum()
    loss.backward()
    t = torch.tensor([float(rank + 1)])
    dist.all_reduce(t)
    m = torch.tensor([float(rank + 1)])
    dist.all_reduce(m, op=dist.ReduceOp.MAX)
    b = torch.tensor([10.0 * (rank + 1)])
    dist.broadcast(b, src=1)
    dist.barrier()
    if rank == 0:
        print("initialized", dist.is_initialized(), "rank", dist.get_rank(), "of", dist.get_world_size())
        print("weight", [round(v, 4) for v in model.weight.flatten().tolist()])
        print("grad", model.weight.grad.tolist(), model.bias.grad.tolist())
        print("sum", t.item(), "max", m.item(), "broadcast", b.item())
        print(type(ddp).__name__, type(ddp.module).__name__)
    dist.destroy_process_group()


def broken(rank):
    if rank == 1:
        raise ValueError("rank 1 gave up")


if __name__ == "__main__":
    mp.spawn(train, args=(3,), nprocs=3)
    print("parent initialized:", dist.is_initialized())

    try:
        mp.spawn(broken, nprocs=2)
    except Exception as e:
        print(type(e).__name__)
        print(str(e).strip().splitlines()[0])
        print(str(e).strip().splitlines()[-1])
