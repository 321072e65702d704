# expected output written by hand from PyTorch's documented behaviour (DDP with NCCL, one GPU per rank; DataParallel over two GPUs)
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, x):
        print("forward on", x.device, "with a batch of", x.shape[0])
        return self.fc(x).relu()


def train(rank, world_size):
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    torch.cuda.set_device(rank)
    model = Net().to(rank)
    ddp = DDP(model, device_ids=[rank])
    out = ddp(torch.ones(2, 3, device=rank))
    out.sum().backward()
    dist.barrier()
    if rank == 1:
        print(out.device, model.fc.weight.grad.device, torch.cuda.current_device())
    dist.destroy_process_group()


def forgot_set_device(rank, world_size):
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    t = torch.ones(1, device="cuda")
    dist.all_reduce(t)


if __name__ == "__main__":
    mp.spawn(train, args=(2,), nprocs=2)
    try:
        mp.spawn(forgot_set_device, args=(2,), nprocs=2)
    except Exception as e:
        print(type(e).__name__)
        print(str(e).strip().splitlines()[-1])

    model = Net().to("cuda:0")
    dp = nn.DataParallel(model, device_ids=[0, 1])
    y = dp(torch.ones(4, 3, device="cuda:0"))
    print(y.shape, y.device, y.grad_fn)
    y.sum().backward()
    print(model.fc.weight.grad.device, type(dp).__name__, list(dp.state_dict())[0])
