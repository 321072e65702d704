//! Every program in `tests/conformance/` runs through `tolab run` and prints what real Python
//! with PyTorch 2.15 printed (`.out`, from `tests/conformance/generate.py`): stdout, then
//! the last line of an uncaught exception's traceback. Object addresses are masked on both sides.

use std::path::PathBuf;

use tolab_cells::python::Interpreter;
use tolab_engine::Session;

fn masked(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("0x") {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 2..];
        let hex = tail
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(tail.len());
        out.push_str("0x…");
        rest = &tail[hex..];
    }
    out.push_str(rest);
    out
}

/// What `tolab run PROGRAM` prints, in the `.out` files' shape: stdout, then the last line of
/// the traceback it writes to stderr when the program fails.
fn run(program: &std::path::Path) -> String {
    // A scratch folder per program: files it saves stay out of the tree.
    let scratch = std::env::temp_dir().join(format!(
        "tolab-conformance-{}-{}",
        std::process::id(),
        program.file_stem().unwrap().to_string_lossy()
    ));
    std::fs::create_dir_all(&scratch).unwrap();
    std::fs::copy(program, scratch.join(program.file_name().unwrap())).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tolab"))
        .arg("run")
        .arg(program.file_name().unwrap())
        .current_dir(&scratch)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&scratch).ok();
    let mut out = String::from_utf8_lossy(&output.stdout).into_owned();
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        out.push_str("--- error\n");
        out.push_str(stderr.lines().last().unwrap_or(""));
        out.push('\n');
    }
    out
}

#[test]
fn every_conformance_program_prints_what_pytorch_prints() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance");
    let mut programs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "py") && !p.ends_with("generate.py"))
        .collect();
    programs.sort();
    assert!(programs.len() >= 60);
    let mut failures = Vec::new();
    for program in &programs {
        let expected = std::fs::read_to_string(program.with_extension("out")).unwrap();
        let got = run(program);
        if masked(&got) != masked(&expected) {
            failures.push(format!(
                "{}:\n--- expected\n{expected}--- got\n{got}",
                program.display()
            ));
        }
    }
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
    let unsupported =
        pollster::block_on(notebook.run_cell("<cell 7>", "async def f():\n    pass\n"));
    assert!(
        unsupported
            .error
            .unwrap()
            .ends_with("NotImplementedError: 'async def' is not supported in lab cells")
    );
}
