//! Bad input never crashes the interpreter: programs assembled at random from fragments of the
//! subset (and from outside it), plus byte soup, each end with output or a Python error. A fixed
//! seed keeps the run reproducible; the fragments include the shapes that once broke things.

use tolab_cells::python::Interpreter;
use tolab_engine::Session;

const FRAGMENTS: &[&str] = &[
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
];

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

fn run_all(programs: Vec<String>) {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let mut notebook = Interpreter::notebook(Session::default());
            for (i, program) in programs.iter().enumerate() {
                let record = pollster::block_on(notebook.run_cell(&format!("<cell {i}>"), program));
                if let Some(traceback) = record.error {
                    // Some messages span lines (CUDA's): the exception line is the first that
                    // starts with a class name.
                    let names_an_exception = traceback.lines().any(|line| {
                        let kind = line.split(':').next().unwrap_or("");
                        !kind.contains(' ')
                            && (kind.ends_with("Error") || kind.ends_with("Exception"))
                    });
                    assert!(names_an_exception, "{program:?} ended with {traceback:?}");
                }
            }
        })
        .unwrap()
        .join()
        .expect("no program crashed the interpreter");
}

#[test]
fn random_programs_end_with_output_or_a_python_error() {
    let mut rng = Rng(0x5EED);
    let programs = (0..400)
        .map(|_| {
            let n = 1 + rng.next() % 6;
            (0..n)
                .map(|_| FRAGMENTS[(rng.next() % FRAGMENTS.len() as u64) as usize])
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect();
    run_all(programs);
}

#[test]
fn byte_soup_and_truncated_programs_are_syntax_errors_not_crashes() {
    let mut rng = Rng(42);
    let alphabet = b"()[]{}:;,.=+-*/%@<>!'\"\\\n\t #abcdefxyz0123456789_";
    let mut programs: Vec<String> = (0..300)
        .map(|_| {
            let n = rng.next() % 40;
            (0..n)
                .map(|_| alphabet[(rng.next() % alphabet.len() as u64) as usize] as char)
                .collect()
        })
        .collect();
    let whole = FRAGMENTS.join("\n");
    programs.extend(
        (0..whole.len())
            .step_by(7)
            .filter_map(|cut| whole.get(..cut).map(str::to_owned)),
    );
    run_all(programs);
}
