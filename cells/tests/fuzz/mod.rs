//! Program generation for the no-crash checks and the long fuzz run (`cargo run -p tolab-cells
//! --example fuzz`): fragments of the subset and of what lies outside it, and mutations of real
//! programs (lines spliced, dropped, repeated; numbers and names swapped for awkward ones).

pub const FRAGMENTS: &[&str] = &[
    "x = 1",
    "y = x + 'a'",
    "z = [1, 2, 3][5]",
    "d = {}['k']",
    "import torch",
    "import numpy",
    "t = torch.ones(2, 3)",
    "t = t @ t",
    "t.to('gpu')",
    "t.to('cuda:7')",
    "t[9]",
    "t[None, ::2]",
    "print(t.std(0), t.var(dim=(0, 1), correction=3), t.std(True))",
    "v, i = torch.max(t, 1); m = t.min(dim=-1, keepdim=True); m.values, m[1], m.nope",
    "t.grad = torch.zeros(2, 3); t.grad = 5; t.requires_grad = 'yes'; t.data = t",
    "torch.maximum(t, 3); torch.minimum(t, t.T)",
    "import torch.multiprocessing as mp, torch.distributed as dist",
    "def f(r, n):\n    dist.init_process_group('gloo')\n    dist.all_reduce(torch.ones(1) * r)\n    print(r, dist.get_rank())\nmp.spawn(f, args=(2,), nprocs=2)",
    "def g(r):\n    dist.init_process_group('nccl')\n    if r == 0:\n        dist.barrier()\nmp.spawn(g, nprocs=3)",
    "mp.spawn(print, nprocs=100); mp.spawn(lambda r: mp.spawn(print), nprocs=1); dist.get_rank()",
    "m = torch.nn.DataParallel(torch.nn.Linear(2, 2).cuda()); m(torch.ones(3, 2).cuda()).sum().backward()",
    "if __name__ == '__main__':\n    print(__name__)",
    "e = torch.cuda.Event(enable_timing=True); e.record(); e.elapsed_time(e); e.elapsed_time(3); torch.cuda.get_device_name(9)",
    "torch.backends.cudnn.benchmark = 1; torch.backends.nothing = 2; print(torch.backends.cudnn.benchmark, torch.__version__)",
    "ml = torch.nn.ModuleList([torch.nn.Linear(2, 2)]); ml.append(ml); ml.extend(5); print(ml[3], len(ml), [m for m in ml])",
    "print(t.any(dim=9), t.all(), t.type('torch.cuda.HalfTensor'), t.type(5), t.new_full((2,), 'x'), t.new_zeros(-1))",
    "print(torch.linspace(0, 1, -3), torch.eye(-2), torch.as_tensor(t, device='cuda:5'), torch.isfinite(t.long()))",
    "print(torch.full_like(t, None), torch.rand_like(t.long()), t.masked_fill(t, 1), t.prod(), t.get_device(), t.numpy())",
    "from torch.utils.data.distributed import DistributedSampler\ns = DistributedSampler(range(5), num_replicas=2, rank=1); s.set_epoch(-1); print(list(s), len(s))",
    "o = torch.optim.Adam([torch.ones(2, requires_grad=True)]); print(o.state, len(o.state))",
    "a = [1]; a.append(a); d = {'a': a}; d['d'] = d; print(a, d, a == a, d == d, str(d))",
    "b = []\nfor i in range(3000):\n    b = [b, {'k': (b,)}]\nprint(b == [b], b)",
    "import time; time.sleep(0.001); time.sleep(-1)",
    "torch.save(t, 'f'); torch.load('f', map_location=lambda s, l: 1 / 0)",
    "torch.load('f', map_location=lambda s: s)",
    "print(t.sum(dim=5))",
    "def f(a, b=2):\n    return f(a)",
    "f(1)",
    "f()",
    "f(1, 2, 3)",
    "lambda: 0",
    "(lambda q: q)(1, 2)",
    "for i in 3:\n    pass",
    "while False:\n    break",
    "class A:\n    pass",
    "try:\n    1/0\nexcept:\n    raise",
    "raise 5",
    "assert False, 'no'",
    "del nothing",
    "x[0] = 1",
    "[a for a in range(3) if b]",
    "{k: v for k in 'ab'}",
    "f'{x:>10.3z}'",
    "int('x')",
    "float([])",
    "range(0, 10, 0)",
    "sorted([1, 'a'])",
    "torch.zeros(-1)",
    "torch.tensor([[1], [2, 3]])",
    "torch.randn(1000000000000)",
    "torch.manual_seed(-1)",
    "torch.device('cuda', 99)",
    "with 3:\n    pass",
    "with torch.no_grad():\n    t.requires_grad_()",
    "t.backward()",
    "x.y.z",
    "len(5)",
    "print(*[1, 2], sep=None)",
    "min([])",
    "2 ** 1000",
    "-(2 ** 63)",
    "1 // 0",
    "1.0 % 0.0",
    "g = (i for i in range(3))",
    "yield 1",
    "async def h():\n    pass",
    "@dec\ndef k():\n    pass",
    "global q",
    "x, y = 1",
    "a, = [1, 2]",
    "torch.cuda.set_device(5)",
    "t.view(7)",
    "from torch import nn",
    "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.l = nn.Linear(2, 2)",
    "class B:\n    def m(self):\n        return super().m()",
    "B().m()",
    "m = M()",
    "m(t)",
    "m.l = 3",
    "m.l.weight = t",
    "nn.Linear(-1, 2)",
    "nn.Sequential(1, 2)",
    "nn.Parameter(3)",
    "o = torch.optim.SGD(m.parameters(), lr=-1)",
    "o = torch.optim.Adam([t])",
    "o.step()",
    "m.to('cuda:1')",
    "m.to(torch.int64)",
    "nn.MSELoss()(t)",
    "nn.CrossEntropyLoss()(t, t)",
    "import torch.nn.functional as F",
    "F.relu(3)",
    "F.cross_entropy(t, t.long())",
    "class C(5):\n    pass",
    "class D(M):\n    def forward(self):\n        return 1",
    "D()(t)",
    "from torch.utils.data import DataLoader, TensorDataset, Dataset",
    "dl = DataLoader(TensorDataset(t), batch_size=0)",
    "dl = DataLoader(t, batch_size=2, num_workers=-1)",
    "for b in DataLoader(TensorDataset(torch.ones(3)), batch_size=2, shuffle=True):\n    print(b)",
    "class DS(Dataset):\n    def __len__(self):\n        return -1\n    def __getitem__(self, i):\n        return 1 / 0",
    "list(DataLoader(DS()))",
    "it = iter([1])\nnext(it)\nnext(it)",
    "list(map(None, [1]))",
    "list(zip())",
    "sorted(x for x in range(3))",
    "def gen():\n    nonlocal zz",
    "def outer():\n    v = 1\n    def inner():\n        nonlocal v\n        v += 1\n        return v\n    return inner\nouter()()",
    "class CM:\n    def __enter__(self):\n        return self\n    def __exit__(self, *a):\n        return True\nwith CM():\n    1 / 0",
    "with torch.autocast('tpu'):\n    pass",
    "with torch.autocast('cpu', dtype=torch.int64):\n    t @ t",
    "import warnings\nwith warnings.catch_warnings(record=True) as w:\n    warnings.warn(5)",
    "import os\nos.environ['CUDA_VISIBLE_DEVICES'] = '7,x'",
    "os.environ[1] = 2",
    "import random\nrandom.seed(-5)\nrandom.randint(5, 1)",
    "random.choice([])",
    "torch.save(t, '')",
    "torch.load('missing.pt')",
    "torch.save(lambda: 1, 'f.pt')",
    "torch.load('f.pt', map_location='gpu')",
    "s = 'ab' * (2 ** 40)",
    "xs = [0] * (10 ** 10)",
    "list(range(10 ** 12))",
    "'{:{}}'.format(1, 'q')",
    "'{0[1]}'.format(1)",
    "f'{1:,.2%}'",
    "getattr(1, 2)",
    "setattr(t, 'shape', 3)",
    "isinstance(1, 2)",
    "type(1)(2, 3)",
    "first, *rest = 1",
    "*a, b = []",
    "x = torch.ones(3)\nx[torch.tensor([True])] = 1",
    "x[torch.tensor([0])] = 5",
    "bool(torch.ones(2))",
    "int(torch.ones(2))",
    "model = nn.Sequential(nn.Linear(2, 2))\nmodel[5]",
    "next(model.parameters())",
    "o.param_groups[0]['lr'] = 'fast'",
    "o.param_groups[3]",
    "scaler = torch.amp.GradScaler('cuda')\nscaler.step(3)",
    "torch.randint(5, 1, (2,))",
    "torch.randperm(-3)",
    "torch.where(t, t, t)",
    "torch.zeros_like(3)",
    "s = {1, 2}\ns.add([])",
    "{1} | [1]",
    "set(5)",
    "@torch.no_grad()\ndef ev(x):\n    return x * 2\nev(t)",
    "@5\ndef bad():\n    pass",
    "class P:\n    @property\n    def v(self):\n        return self.v\nP().v",
    "sorted([1, 2], key=3)",
    "max([], key=len)",
    "nn.init.kaiming_uniform_(torch.ones(0))",
    "nn.init.xavier_normal_(torch.ones(3), mode='x')",
    "F.conv2d(t, t)",
    "F.conv2d(torch.ones(1, 1, 2, 2), torch.ones(1, 1, 5, 5), padding='same', stride=2)",
    "F.embedding(torch.tensor([99]), torch.ones(2, 2))",
    "F.layer_norm(t, (7,))",
    "nn.Conv2d(1, 1, (0, 3))",
    "nn.Embedding(2, 2)(torch.tensor([5]))",
    "o.load_state_dict({'state': 1})",
    "o.load_state_dict(o.state_dict())",
    "open('nope/x.txt', 'w')",
    "open('f.txt', 'w').write(b'x')",
    "open('f.bin', 'wb').write('x')",
    "import os\nos.makedirs('a/b/c', exist_ok=True)\nos.rmdir('a')",
    "from pathlib import Path\n(Path('p') / 'q').mkdir(parents=True)\nPath('p').rename('p/q/r')",
    "import shutil\nshutil.rmtree('never')",
    "import csv, io\nlist(csv.reader(io.StringIO('\"unclosed')))",
    "b'\\xff'.decode() + 'x'.encode('klingon')",
    "bytes(-1)",
    "bytes(10**12)",
    "'{0}{}'.format(1, 2)",
    "'{:{}}'.format(1)",
    "format(object(), 'x')",
    "exec('def f(:')",
    "eval('x' * 10000)",
    "exec('raise ValueError', {})",
    "from enum import Enum\nclass E(Enum):\n    A = 1\nE(2)",
    "class M(type):\n    def __call__(cls):\n        return cls()\nclass C(metaclass=M):\n    pass\nC()",
    "class K:\n    def __eq__(self, o):\n        return True\n{K(): 1}",
    "class H:\n    def __hash__(self):\n        return 'x'\n    def __eq__(self, o):\n        return 1\n{H()}",
    "from datetime import datetime, timedelta\ndatetime.max + timedelta(1)",
    "from datetime import datetime\ndatetime.strptime('x', '%Q')",
    "import timeit\ntimeit.timeit('while True: pass', number=1)",
    "class I(int):\n    pass\nI('x')",
    "try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    raise e from e",
];

/// A small deterministic generator (SplitMix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// One to six fragments, one per line.
pub fn from_fragments(rng: &mut Rng) -> String {
    let n = 1 + rng.below(6);
    (0..n)
        .map(|_| rng.pick(FRAGMENTS))
        .collect::<Vec<_>>()
        .join("\n")
}

const AWKWARD: &[&str] = &[
    "0",
    "-1",
    "10**12",
    "2**63",
    "-2**63",
    "2**64 + 1",
    "-(2**200)",
    "(2, -1)",
    "[1, 'x']",
    "(i for i in range(3))",
    "torch.float64",
    "torch.ones(2, dtype=torch.long)",
    "1e308",
    "float('nan')",
    "None",
    "''",
    "[]",
    "t",
    "torch.ones(0)",
    "'cuda:1'",
    "True",
    "3.5",
];

/// The signature table: every binding the lab has, with its parameters.
const TABLE: &str = include_str!("../../src/torch/signatures/table.txt");

/// What a call to a binding of each namespace is made on (as the golden wrong calls do).
const RECEIVERS: &[(&str, &str)] = &[
    ("torch", "torch"),
    ("Tensor", "t"),
    ("torch.nn.functional", "F"),
    ("torch.nn", "nn"),
    ("torch.nn.Module", "model"),
    ("torch.nn.init", "nn.init"),
    ("torch.optim", "torch.optim"),
    ("torch.optim.Optimizer", "opt"),
    ("torch.cuda", "torch.cuda"),
    ("torch.amp", "torch.amp"),
    ("torch.utils.data", "torch.utils.data"),
];

/// A call to a binding of the signature table with a soup of arguments: awkward positional
/// values, then keywords the signatures have, NumPy's aliases and made-up ones, given awkward
/// values (extreme ints among them).
pub fn keyword_soup(rng: &mut Rng) -> String {
    let mut bindings: Vec<(&str, Vec<&str>)> = Vec::new();
    for line in TABLE.lines() {
        if let Some(header) = line.strip_prefix('@') {
            let key = header.split(' ').nth(1).unwrap_or("");
            bindings.push((key, Vec::new()));
        } else if let Some((_, params)) = bindings.last_mut() {
            let inner = line.split_once('(').map_or("", |(_, rest)| rest);
            for part in inner.split(", ") {
                let name = part
                    .split('=')
                    .next()
                    .unwrap_or("")
                    .rsplit(' ')
                    .next()
                    .unwrap_or("")
                    .trim_matches(|c: char| !c.is_alphanumeric() && c != '_');
                if !name.is_empty() && !params.contains(&name) {
                    params.push(name);
                }
            }
        }
    }
    let (key, params) = &bindings[rng.below(bindings.len())];
    let (namespace, name) = key.rsplit_once('.').unwrap_or(("torch", key));
    let receiver = RECEIVERS
        .iter()
        .find(|(ns, _)| *ns == namespace)
        .map_or("torch", |(_, r)| *r);
    let mut args: Vec<String> = (0..rng.below(4))
        .map(|_| rng.pick(AWKWARD).to_owned())
        .collect();
    let extra = ["axis", "keepdims", "bogus", "out", "dtype", "device"];
    for _ in 0..rng.below(5) {
        let keyword = if !params.is_empty() && rng.below(3) > 0 {
            params[rng.below(params.len())]
        } else {
            extra[rng.below(extra.len())]
        };
        args.push(format!("{keyword}={}", rng.pick(AWKWARD)));
    }
    format!(
        "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\
         t = torch.ones(2, 3)\nmodel = nn.Linear(3, 2)\n\
         opt = torch.optim.SGD(model.parameters(), lr=0.1)\n\
         print({receiver}.{name}({}))",
        args.join(", ")
    )
}

/// A seed program changed a few times over.
pub fn mutate(rng: &mut Rng, seed: &str) -> String {
    let mut lines: Vec<String> = seed.lines().map(str::to_owned).collect();
    for _ in 0..1 + rng.below(4) {
        if lines.is_empty() {
            lines.push(rng.pick(FRAGMENTS).to_owned());
            continue;
        }
        let at = rng.below(lines.len());
        match rng.below(6) {
            0 => {
                lines.remove(at);
            }
            1 => {
                let copy = lines[rng.below(lines.len())].clone();
                lines.insert(at, copy);
            }
            2 => lines.insert(at, rng.pick(FRAGMENTS).to_owned()),
            3 => {
                // A number replaced by an awkward value.
                let line = &lines[at];
                if let Some(start) = line.find(|c: char| c.is_ascii_digit()) {
                    let end = line[start..]
                        .find(|c: char| !c.is_ascii_digit() && c != '.')
                        .map_or(line.len(), |e| start + e);
                    lines[at] = format!("{}{}{}", &line[..start], rng.pick(AWKWARD), &line[end..]);
                }
            }
            4 => {
                // Cut the line short.
                let line = &lines[at];
                let cut = rng.below(line.len() + 1);
                lines[at] = line.get(..cut).unwrap_or(line).to_owned();
            }
            _ => {
                // Indent or dedent the line.
                lines[at] = if rng.below(2) == 0 {
                    format!("    {}", lines[at])
                } else {
                    lines[at].trim_start().to_owned()
                };
            }
        }
    }
    lines.join("\n")
}
