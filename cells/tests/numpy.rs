//! The lab's `numpy`: arrays print as NumPy 2.4 prints them (`tests/golden/numpy_format.json`,
//! from `tests/golden/numpy_generate.py`: `repr` and `str` of every dtype, scientific and fixed
//! notation, wrapped rows, summaries, empty and 0-d arrays, NumPy scalars), and the behaviours
//! learners lean on: memory shared with torch, NumPy's seeded random numbers, NumPy's errors,
//! and no panic on integer overflow.

#![cfg(not(target_arch = "wasm32"))]

use tolab_cells::python::Interpreter;
use tolab_engine::Session;

#[derive(serde::Deserialize)]
struct Golden {
    cases: Vec<Case>,
}

#[derive(serde::Deserialize)]
struct Case {
    expr: String,
    repr: String,
    str: String,
}

/// Runs `code` in a fresh notebook that imported numpy (and torch) as `np` (and `torch`):
/// what it printed, or its error's last line.
fn run(code: &str) -> String {
    let mut notebook = Interpreter::notebook(Session::default());
    let setup =
        pollster::block_on(notebook.run_cell("<setup>", "import numpy as np\nimport torch"));
    assert_eq!(setup.error, None);
    let record = pollster::block_on(notebook.run_cell("<cell>", code));
    match record.error {
        Some(error) => format!(
            "{}{}",
            record.stdout,
            error
                .trim_end_matches('\n')
                .lines()
                .last()
                .unwrap_or_default()
        ),
        None => record.stdout,
    }
}

#[test]
fn arrays_and_scalars_print_as_numpy_prints_them() {
    let golden: Golden =
        serde_json::from_str(include_str!("../../tests/golden/numpy_format.json")).unwrap();
    assert!(golden.cases.len() >= 100, "{} cases", golden.cases.len());
    let mut notebook = Interpreter::notebook(Session::default());
    let setup = pollster::block_on(notebook.run_cell("<setup>", "import numpy as np"));
    assert_eq!(setup.error, None);
    let mut failures = Vec::new();
    for case in &golden.cases {
        let code = format!(
            "x = {}\nprint(repr(x))\nprint('@@')\nprint(str(x))",
            case.expr
        );
        let record = pollster::block_on(notebook.run_cell("<cell>", &code));
        let expected = format!("{}\n@@\n{}\n", case.repr, case.str);
        let got = match record.error {
            Some(e) => e,
            None => record.stdout,
        };
        if got != expected {
            failures.push(format!(
                "{}\n--- expected\n{expected}--- got\n{got}",
                case.expr
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases print differently from NumPy:\n{}",
        failures.len(),
        golden.cases.len(),
        failures.join("\n")
    );
}

#[test]
fn from_numpy_and_tensor_numpy_share_memory_both_ways() {
    let out = run("a = np.zeros(3)\n\
         t = torch.from_numpy(a)\n\
         a[1] = 5.0\n\
         t[2] = 7.0\n\
         print(t)\n\
         print(a)\n\
         u = torch.ones(2)\n\
         n = u.numpy()\n\
         u.add_(1)\n\
         n += 1\n\
         print(u, n)\n\
         c = torch.tensor(a)\n\
         a[0] = -1\n\
         print(c)");
    assert_eq!(
        out,
        "tensor([0., 5., 7.], dtype=torch.float64)\n[0. 5. 7.]\n\
         tensor([3., 3.]) [3. 3.]\n\
         tensor([0., 5., 7.], dtype=torch.float64)\n"
    );
}

#[test]
fn seeded_random_draws_numpys_numbers() {
    let out = run("np.random.seed(0)\n\
         print(np.random.rand(3))\n\
         print(np.random.randn(2, 3))\n\
         print(np.random.randint(0, 10, size=5))\n\
         np.random.seed(0)\n\
         print(np.random.permutation(5), np.random.choice(10, 3), np.random.normal(1, 2, 3))");
    assert_eq!(
        out,
        "[0.5488135  0.71518937 0.60276338]\n\
         [[-2.2683282   1.33354538 -0.84272405]\n [ 1.96992445  1.26611853 -0.50587654]]\n\
         [7 8 1 5 9]\n\
         [2 0 1 3 4] [3 3 7] [ 4.73511598 -0.95455576  2.90017684]\n"
    );
}

#[test]
fn shapes_that_do_not_broadcast_raise_numpys_value_error() {
    assert_eq!(
        run("np.ones((2, 3)) + np.ones(4)"),
        "ValueError: operands could not be broadcast together with shapes (2,3) (4,) "
    );
}

#[test]
fn integer_overflow_wraps_and_division_by_zero_gives_zero_without_panic() {
    let out = run("a = np.array([9223372036854775807, 5])\n\
         print(a + 1, a * a, a // 0, a % 0)\n\
         print(np.array([250], dtype=np.uint8) + np.array([10], dtype=np.uint8))");
    assert_eq!(
        out,
        "[-9223372036854775808                    6] [ 1 25] [0 0] [0 0]\n[4]\n"
    );
}

#[test]
fn python_integers_out_of_an_arrays_range_raise_overflow_error() {
    assert_eq!(
        run("np.array([1, 2], dtype=np.uint8) + 300"),
        "OverflowError: Python integer 300 out of bounds for uint8"
    );
}

#[test]
fn indexing_views_share_memory_and_advanced_indexing_copies() {
    let out = run("a = np.arange(12).reshape(3, 4)\n\
         v = a[1:, ::2]\n\
         v[0, 0] = 100\n\
         c = a[[0, 2]]\n\
         c[0, 0] = -5\n\
         a[a > 9] = 0\n\
         print(a)\n\
         print(a[::-1, -1], a[[0, 1, 2], [3, 2, 1]], a[:, None].shape)");
    assert_eq!(
        out,
        "[[0 1 2 3]\n [0 5 6 7]\n [8 9 0 0]]\n[0 7 3] [3 6 9] (3, 1, 4)\n"
    );
}

#[test]
fn reductions_sum_pairwise_as_numpy_does() {
    // NumPy's pairwise sum of 0.1 a thousand times is 100.00000000000001 (a running sum
    // gives 99.9999999999986); down a column, NumPy adds row by row.
    let out =
        run("x = np.full(1000, 0.1)\nprint(repr(x.sum()), x.reshape(10, 100).sum(axis=0)[0])");
    assert_eq!(out, "np.float64(100.00000000000001) 0.9999999999999999\n");
}

#[test]
fn missing_names_say_whether_numpy_has_them() {
    assert_eq!(
        run("np.fft"),
        "AttributeError: module 'numpy' has no attribute 'fft' in the lab yet (numpy.fft is in NumPy 2.4; the lab has the part of NumPy that PyTorch tutorials use)"
    );
    assert_eq!(
        run("np.no_such_thing"),
        "AttributeError: module 'numpy' has no attribute 'no_such_thing'"
    );
}

#[test]
fn a_tensor_that_requires_grad_has_no_numpy_view() {
    assert_eq!(
        run("torch.ones(2, requires_grad=True).numpy()"),
        "RuntimeError: Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
    );
}

#[test]
fn numpy_scalars_have_the_arrays_methods_and_zero_d_arrays_follow_numpys_rules() {
    let out = run("x = np.arange(3).sum()\n\
         print(x.reshape(-1), x[None], np.float64(2).mean(), (np.array(5.0) > 1).astype(int), np.where(np.array(True), 1.5, 2.0).shape)\n\
         print(np.array([200], dtype=np.uint8) == 300, np.sum(np.array(4), axis=0), np.argsort(np.array(3)))");
    assert_eq!(out, "[3] [3] 2.0 1 ()\n[False] 4 [0]\n");
}

#[test]
fn torch_tensor_of_a_list_of_arrays_takes_their_values_and_dtype() {
    let out = run(
        "print(torch.tensor([np.array([1.0, 2.0]), np.array([3.0, 4.0])]))\n\
         print(torch.tensor([np.arange(2), np.arange(2)]).dtype, torch.tensor([np.zeros(2, dtype=np.float32)]).dtype)",
    );
    assert_eq!(
        out,
        "tensor([[1., 2.],\n        [3., 4.]], dtype=torch.float64)\ntorch.int64 torch.float32\n"
    );
}

#[test]
fn numpy_scalars_work_where_python_numbers_do() {
    let out = run("import math\n\
         x = np.float64(1.23456)\n\
         print('%.3f' % x, '{:.2f}'.format(np.float32(1.5)), int(np.float32(2.7)), math.sqrt(np.float64(4)))\n\
         print(max(np.float64(1), 2), round(np.float64(2.5)), round(np.float64(2.567), 2), [1, 2][np.int64(0)], range(np.int64(3)))\n\
         print(sorted([np.float64(3), np.float64(1)]), sum([np.float64(0.1)] * 3), isinstance(np.float64(1), float))");
    assert_eq!(
        out,
        "1.235 1.50 2 2.0\n2 2 2.57 1 range(0, 3)\n[np.float64(1.0), np.float64(3.0)] 0.30000000000000004 True\n"
    );
}

/// Awkward arguments for the numpy soup: extreme and odd numbers, empty and ragged data,
/// arrays of every kind, dtypes, negative strides.
const AWKWARD: &[&str] = &[
    "0",
    "-1",
    "2**62",
    "-2**63",
    "1e308",
    "float('nan')",
    "None",
    "[]",
    "[[1, 2], [3]]",
    "np.zeros((0, 3))",
    "np.arange(6).reshape(2, 3)",
    "np.array([True, False])",
    "np.float32(2.5)",
    "np.int64(-9223372036854775808)",
    "(2, -1)",
    "(3, 0)",
    "'float32'",
    "np.int16",
    "np.arange(3.0)[::-1]",
    "np.array([250], dtype=np.uint8)",
    "torch.ones(2)",
    "'x'",
];

/// A deterministic stream of choices (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// The names a `pub const NAME: &[&str] = &[...]` list of the lab's source holds.
fn listed<'a>(source: &'a str, name: &str) -> Vec<&'a str> {
    let start = source
        .find(&format!("pub const {name}: &[&str] = &["))
        .expect("the list is in the source");
    let body = &source[start..];
    let body = &body[body.find("= &[").unwrap_or(0) + 4..body.find("];").unwrap_or(0)];
    body.split(',')
        .map(|n| n.trim().trim_matches('"'))
        .filter(|n| !n.is_empty())
        .collect()
}

#[test]
fn numpy_calls_with_awkward_arguments_end_with_output_or_a_python_error() {
    let functions: Vec<&str> = listed(
        include_str!("../src/stdlib/numpy/functions.rs"),
        "FUNCTIONS",
    )
    .into_iter()
    .filter(|f| *f != "set_printoptions")
    .collect();
    let methods = listed(
        include_str!("../src/stdlib/numpy/methods.rs"),
        "ARRAY_METHODS",
    );
    let operators = [
        "+", "-", "*", "/", "//", "%", "**", "@", "&", "|", "<", "==",
    ];
    let mut rng = Rng(0xABCDEF1);
    let mut notebook = Interpreter::notebook(Session::default());
    let setup = pollster::block_on(notebook.run_cell(
        "<setup>",
        "import numpy as np\nimport torch\na = np.arange(12).reshape(3, 4)",
    ));
    assert_eq!(setup.error, None);
    for i in 0..2000 {
        let args: Vec<&str> = (0..rng.below(4)).map(|_| rng.pick(AWKWARD)).collect();
        let mut args = args.join(", ");
        if rng.below(3) == 0 {
            let keyword = ["axis", "keepdims", "dtype", "out", "size", "bogus"][rng.below(6)];
            args = format!(
                "{args}{}{keyword}={}",
                if args.is_empty() { "" } else { ", " },
                rng.pick(AWKWARD)
            );
        }
        let code = match i % 5 {
            0 | 1 => format!("print(np.{}({args}))", rng.pick(&functions)),
            2 => format!("print(a.{}({args}))", rng.pick(&methods)),
            3 => format!(
                "print({} {} {})",
                rng.pick(AWKWARD),
                operators[rng.below(operators.len())],
                rng.pick(AWKWARD)
            ),
            _ => format!(
                "b = a.copy()\nb[{}] = {}\nprint(b[{}])",
                rng.pick(AWKWARD),
                rng.pick(AWKWARD),
                rng.pick(AWKWARD)
            ),
        };
        let record = pollster::block_on(notebook.run_cell("<cell>", &code));
        if let Some(error) = record.error {
            // A message may span lines: the exception's line is one that starts with a class.
            let names_an_exception = error.lines().any(|line| {
                let kind = line.split(':').next().unwrap_or_default();
                !kind.contains(' ') && (kind.ends_with("Error") || kind.ends_with("Exception"))
            });
            assert!(names_an_exception, "{code:?} ended with {error:?}");
        }
    }
}
