# conformance: stderr
import argparse
import sys

def build():
    parser = argparse.ArgumentParser(description="PyTorch MNIST Example")
    parser.add_argument("--batch-size", type=int, default=64, metavar="N",
                        help="input batch size for training (default: 64)")
    parser.add_argument("--epochs", type=int, default=14, metavar="N",
                        help="number of epochs to train (default: 14)")
    parser.add_argument("--lr", type=float, default=1.0, metavar="LR",
                        help="learning rate (default: 1.0)")
    parser.add_argument("--no-cuda", action="store_true", default=False,
                        help="disables CUDA training")
    parser.add_argument("--optimizer", type=str, default="sgd", choices=["sgd", "adam"])
    parser.add_argument("--hidden", type=int, nargs="+", default=[32])
    parser.add_argument("-v", "--verbose", action="count", default=0)
    parser.add_argument("--tag", action="append")
    parser.add_argument("--seed", type=int, default=1, metavar="S", help="random seed (default: 1)")
    return parser

parser = build()
args = parser.parse_args([])
print(args)
print(vars(args))
args = parser.parse_args(["--batch-size", "128", "--lr=0.5", "--no-cuda", "--hidden", "64", "32",
                          "-vv", "--tag", "a", "--tag", "b", "--epo", "3"])
print(args.batch_size, args.lr, args.no_cuda, args.hidden, args.verbose, args.tag, args.epochs)
print(parser.parse_args() == parser.parse_args([]))
args, rest = parser.parse_known_args(["--seed", "7", "--unknown", "x"])
print(args.seed, rest)
for bad in (["--optimizer", "rmsprop"], ["--batch-size", "abc"], ["--lr"], ["--bogus"]):
    try:
        parser.parse_args(bad)
    except SystemExit as e:
        print("exit", e.code)
p = argparse.ArgumentParser(prog="train.py")
p.add_argument("data")
p.add_argument("out", nargs="?", default="out.pt")
p.add_argument("--mode", choices=["a", "b"], required=True)
g = p.add_mutually_exclusive_group()
g.add_argument("--fast", action="store_true")
g.add_argument("--slow", action="store_true")
print(p.parse_args(["d.csv", "--mode", "a"]))
print(p.parse_args(["--mode", "b", "d.csv", "m.pt", "--fast"]))
for bad in ([], ["d.csv"], ["d.csv", "--mode", "a", "--fast", "--slow"]):
    try:
        p.parse_args(bad)
    except SystemExit as e:
        print("exit", e.code)
print(p.format_usage(), end="")
p.set_defaults(extra=5)
print(p.parse_args(["x", "--mode", "a"]).extra)
b = argparse.ArgumentParser(prog="b")
b.add_argument("--amp", action=argparse.BooleanOptionalAction, default=True)
b.add_argument("--k", type=int, default="3")
print(b.parse_args([]), b.parse_args(["--no-amp", "--k", "-4"]))
print(argparse.Namespace(a=1, b="x"))
print(build().format_help())
