//! Every program in `tests/conformance/` runs through `tolab run` and prints what real Python
//! with PyTorch 2.15 printed (`.out`, from `tests/conformance/generate.py`): stdout, then
//! the last line of an uncaught exception's traceback. Object addresses are masked on both sides.

#![cfg(not(target_arch = "wasm32"))]

mod common;

use tolab_cells::python::Interpreter;
use tolab_engine::Session;

/// What `tolab run PROGRAM` prints, in the `.out` files' shape, run in a scratch folder so that
/// files it saves stay out of the tree.
fn run(name: &str, source: &str) -> String {
    run_reading(name, source, Readbacks::Blocking)
}

/// How the run reads GPU memory.
#[derive(Clone, Copy, PartialEq)]
enum Readbacks {
    /// Natively: the host blocks until the bytes are back.
    Blocking,
    /// The browser's way: a read that cannot wait awaits its readback and runs again.
    Awaited,
}

fn run_reading(name: &str, source: &str, readbacks: Readbacks) -> String {
    // The two runs of a program go on at once: each has its own folder.
    let variant = match readbacks {
        Readbacks::Blocking => "blocking",
        Readbacks::Awaited => "awaited",
    };
    let scratch = std::env::temp_dir().join(format!(
        "tolab-conformance-{}-{variant}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&scratch).unwrap();
    std::fs::write(scratch.join(name), source).unwrap();
    let mut tolab = std::process::Command::new(env!("CARGO_BIN_EXE_tolab"));
    tolab.arg("run").arg(name).current_dir(&scratch);
    // Mesa's Vulkan driver complains on stderr without a runtime folder; the programs' own
    // stderr is compared.
    tolab.env("XDG_RUNTIME_DIR", &scratch);
    if readbacks == Readbacks::Awaited {
        tolab.env("TOLAB_BROWSER_READBACKS", "1");
    }
    let output = tolab.output().unwrap();
    std::fs::remove_dir_all(&scratch).ok();
    let stderr = String::from_utf8_lossy(&output.stderr);
    common::shaped(
        source,
        &String::from_utf8_lossy(&output.stdout),
        &common::program_stderr(&stderr),
        (!output.status.success()).then_some(&*stderr),
    )
}

#[test]
fn every_conformance_program_prints_what_pytorch_prints() {
    assert!(common::PROGRAMS.len() >= 60);
    let failures: Vec<String> = common::PROGRAMS
        .iter()
        .filter_map(|(name, source, expected)| common::mismatch(name, expected, &run(name, source)))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every program again, with GPU memory read the way the browser must (no blocking readback):
/// what they print does not change.
#[test]
fn every_conformance_program_prints_the_same_when_readbacks_are_awaited() {
    let failures: Vec<String> = common::PROGRAMS
        .iter()
        .filter_map(|(name, source, expected)| {
            common::mismatch(
                name,
                expected,
                &run_reading(name, source, Readbacks::Awaited),
            )
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_failing_program_reports_its_traceback_with_the_learners_lines() {
    let source = "import torch\n\ndef f(t):\n    return t @ t\n\nx = torch.ones(2, 3)\nf(x)\n";
    let mut notebook = Interpreter::notebook(Session::default());
    let record = pollster::block_on(notebook.run_cell("<cell 4>", source));
    assert_eq!(
        record.error.unwrap(),
        "Traceback (most recent call last):\n  File \"<cell 4>\", line 7, in <module>\n    f(x)\n  File \"<cell 4>\", line 4, in f\n    return t @ t\nRuntimeError: mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"
    );
    let bad = pollster::block_on(notebook.run_cell("<cell 5>", "x = (1,\nprint(2\n"));
    assert!(bad.error.unwrap().contains("SyntaxError"));
    let shown = pollster::block_on(notebook.run_cell("<cell 6>", "y = 3\ny * 2"));
    assert_eq!(shown.value.as_deref(), Some("6"));
}

/// The programs that use files, run in a notebook as the browser runs them: on files in
/// memory (working directory `/lab`) rather than the disk, they print the same.
#[test]
fn file_programs_print_the_same_on_the_notebooks_memory_files() {
    let file_programs = common::PROGRAMS
        .iter()
        .filter(|(_, source, _)| source.contains("open(") || source.contains("pathlib"));
    // A debug build's calls take far more stack than the browser's: a thread with room.
    const STACK: usize = 64 << 20;
    let run = move || {
        let mut failures = Vec::new();
        for (name, source, expected) in file_programs {
            let limits = tolab_cells::Limits {
                stack_bytes: STACK / 2,
                ..tolab_cells::Limits::default()
            };
            let mut notebook = Interpreter::notebook(Session::default()).with_limits(limits);
            let record = pollster::block_on(notebook.run_cell(name, source));
            let got = common::shaped_record(source, &record);
            failures.extend(common::mismatch(name, expected, &got));
        }
        failures
    };
    let failures = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(run)
        .unwrap()
        .join()
        .unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
