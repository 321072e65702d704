//! A cell's trace points every event at the statement that caused it, and the limits (steps,
//! wall-clock time, Stop, recursion, memory) end a runaway cell with a Python-style error while
//! the notebook stays usable.

use tolab_cells::python::Interpreter;
use tolab_cells::{Limits, RunRecord};
use tolab_engine::Session;
use tolab_engine::trace::{EventKind, TransferStep};

fn notebook(limits: Limits) -> Interpreter {
    let session = Session::default();
    session.set_tracing(true);
    Interpreter::notebook(session).with_limits(limits)
}

fn run(notebook: &mut Interpreter, source: &str) -> RunRecord {
    pollster::block_on(notebook.run_cell("<cell>", source))
}

fn last_line(record: &RunRecord) -> &str {
    record
        .error
        .as_deref()
        .and_then(|e| e.lines().last())
        .unwrap_or("")
}

#[test]
fn every_event_points_at_the_statement_that_caused_it() {
    let mut nb = notebook(Limits::default());
    let record = run(
        &mut nb,
        "import torch\nx = torch.ones(2)\ny = x.to('cuda:1')\nprint(y.device)\nz = y @ x\n",
    );
    assert_eq!(record.stdout, "cuda:1\n");
    let line_of = |wanted: &dyn Fn(&EventKind) -> bool| {
        record
            .trace
            .iter()
            .filter(|e| wanted(&e.kind))
            .map(|e| e.span.as_ref().map(|s| s.line))
            .collect::<Vec<_>>()
    };
    let steps = line_of(&|k| matches!(k, EventKind::TransferStep { .. }));
    assert_eq!(steps.len(), TransferStep::ALL.len(), "{:?}", record.trace);
    assert!(steps.iter().all(|l| *l == Some(3)));
    let allocs = line_of(&|k| matches!(k, EventKind::Alloc { .. }));
    assert!(allocs.contains(&Some(2)) && allocs.contains(&Some(3)));
    let errors = line_of(&|k| matches!(k, EventKind::Error { .. }));
    assert_eq!(errors, vec![Some(5)]);
    assert!(
        last_line(&record)
            .starts_with("RuntimeError: Expected all tensors to be on the same device")
    );
    assert!(record.timings.steps >= 5);
}

#[test]
fn a_loop_that_swallows_every_exception_still_ends_at_the_step_budget() {
    let mut nb = notebook(Limits {
        steps: 20_000,
        ..Limits::default()
    });
    let record = run(
        &mut nb,
        "n = 0\nwhile True:\n    try:\n        n += 1\n    except:\n        pass\n",
    );
    assert!(last_line(&record).contains("step budget"), "{record:?}");
    assert_eq!(run(&mut nb, "n > 1000").value.as_deref(), Some("True"));
}

#[test]
fn the_time_budget_ends_a_slow_cell() {
    let mut nb = notebook(Limits {
        steps: u64::MAX,
        seconds: 0.2,
        ..Limits::default()
    });
    let record = run(
        &mut nb,
        "import torch\nx = torch.ones(64, 64)\nwhile True:\n    x = (x @ x).clamp(0, 1)\n",
    );
    assert!(
        last_line(&record).contains("time budget of 0.2 s"),
        "{record:?}"
    );
    assert_eq!(
        run(&mut nb, "x.shape").value.as_deref(),
        Some("torch.Size([64, 64])")
    );
}

#[test]
fn stop_ends_the_running_cell_and_only_that_one() {
    let mut nb = notebook(Limits::default());
    nb.stop_handle().stop();
    let record = run(&mut nb, "for i in range(10**9):\n    pass\n");
    assert_eq!(last_line(&record), "KeyboardInterrupt");
    assert_eq!(
        run(&mut nb, "sum(range(10000))").value.as_deref(),
        Some("49995000")
    );
}

#[test]
fn runaway_recursion_and_huge_values_end_with_python_errors() {
    let mut nb = notebook(Limits::default());
    let runaway = "def f(n):\n    return f(n + 1)\nf(0)\n";
    // On a test thread's small stack, the native stack's limit ends it.
    let recursion = run(&mut nb, runaway);
    assert_eq!(
        last_line(&recursion),
        "RecursionError: maximum recursion depth exceeded"
    );
    // With room (a debug build's calls take far more stack than a release build's), the
    // depth limit ends it; the repeated frame is printed three times and then counted, as
    // CPython does.
    const ROOM: usize = 64 << 20;
    let deep = std::thread::Builder::new()
        .stack_size(ROOM)
        .spawn(move || {
            let limits = Limits {
                stack_bytes: ROOM / 2,
                ..Limits::default()
            };
            run(&mut notebook(limits), runaway).error
        })
        .unwrap()
        .join()
        .unwrap();
    let traceback = deep.as_deref().unwrap_or_default();
    let lines: Vec<&str> = traceback.lines().collect();
    assert_eq!(
        lines[..10],
        [
            "Traceback (most recent call last):",
            "  File \"<cell>\", line 3, in <module>",
            "    f(0)",
            "  File \"<cell>\", line 2, in f",
            "    return f(n + 1)",
            "  File \"<cell>\", line 2, in f",
            "    return f(n + 1)",
            "  File \"<cell>\", line 2, in f",
            "    return f(n + 1)",
            lines[9],
        ]
    );
    assert!(
        lines[9].starts_with("  [Previous line repeated ") && lines[9].ends_with(" more times]"),
        "{traceback}"
    );
    assert_eq!(lines.len(), 11, "{traceback}");
    let repeat = run(&mut nb, "s = 'ab' * 10**12\n");
    assert!(last_line(&repeat).starts_with("MemoryError"), "{repeat:?}");
    let list = run(&mut nb, "xs = list(range(10**12))\n");
    assert!(last_line(&list).starts_with("MemoryError"), "{list:?}");
    let tensor = run(&mut nb, "import torch\nt = torch.zeros(10**6, 10**6)\n");
    assert!(
        last_line(&tensor).contains("out of memory") || last_line(&tensor).contains("memory"),
        "{tensor:?}"
    );
    assert_eq!(run(&mut nb, "1 + 1").value.as_deref(), Some("2"));
}

#[test]
fn containers_nested_past_the_repr_limit_raise_recursion_error_instead_of_overflowing() {
    let mut nb = notebook(Limits::default());
    let record = run(
        &mut nb,
        "a = []\nfor i in range(100000):\n    a = [a]\nprint(len(a))\nprint(a)\n",
    );
    assert_eq!(record.stdout, "1\n");
    assert_eq!(
        last_line(&record),
        "RecursionError: maximum recursion depth exceeded while getting the repr of an object"
    );
    let after = run(&mut nb, "b = [1]\nb.append(b)\nb");
    assert_eq!(after.value.as_deref(), Some("[1, [...]]"));
    // Shared parts make a value exponentially larger than its memory: 2**80 lists to show.
    let shared = run(&mut nb, "c = []\nfor i in range(80):\n    c = [c, c]\nc");
    assert_eq!(
        last_line(&shared),
        "MemoryError: this repr would show more than 1000000 containers: too long for the lab"
    );
}

#[test]
fn a_trailing_learner_object_shows_its_own_repr_and_a_failing_repr_is_the_cells_error() {
    let mut nb = notebook(Limits::default());
    let record = run(
        &mut nb,
        "class P:\n    def __repr__(self):\n        return 'P!'\n[P(), {'p': P()}]",
    );
    assert_eq!(record.value.as_deref(), Some("[P!, {'p': P!}]"));
    let broken = run(
        &mut nb,
        "class Q:\n    def __repr__(self):\n        return 1 / 0\nQ()",
    );
    assert_eq!(broken.value, None);
    assert_eq!(last_line(&broken), "ZeroDivisionError: division by zero");
}
