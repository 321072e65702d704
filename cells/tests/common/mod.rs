//! The conformance programs and how their output is compared, shared by the native run (through
//! the `tolab` binary), the browser run (in-process, in headless Chromium) and the fuzzing.
#![allow(dead_code)]

/// `(file name, source, expected output)` of every program in `tests/conformance/`: stdout, then
/// `--- error` and the traceback's last line when it fails (`tests/conformance/generate.py`).
/// See [`shaped`] for stderr.
pub const PROGRAMS: &[(&str, &str, &str)] =
    include!(concat!(env!("OUT_DIR"), "/conformance_programs.rs"));

/// Object addresses (`0x7f…`) differ from run to run; both sides are compared without them.
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

/// A program holding this line has its stderr compared too (after `--- stderr`, when it ran to
/// its end): logging's default stream, argparse's errors, `print(file=sys.stderr)`.
const COMPARES_STDERR: &str = "# conformance: stderr";

/// A run's output in the `.out` files' shape: `stderr` is what the program wrote there (without
/// the lab's own notes and the traceback), shown for programs that ask for it.
pub fn shaped(source: &str, stdout: &str, stderr: &str, traceback: Option<&str>) -> String {
    let mut out = stdout.to_owned();
    if source.contains(COMPARES_STDERR) && traceback.is_none() && !stderr.is_empty() {
        out.push_str("--- stderr\n");
        out.push_str(stderr);
    }
    if let Some(traceback) = traceback {
        out.push_str("--- error\n");
        out.push_str(traceback.lines().last().unwrap_or(""));
        out.push('\n');
    }
    out
}

/// What a `tolab run` process wrote to stderr for the program: its lines less the CLI's own
/// notes (`tolab: GPU devices run on …`).
pub fn program_stderr(stderr: &str) -> String {
    stderr
        .split_inclusive('\n')
        .filter(|line| !line.starts_with("tolab: "))
        .collect()
}

/// `None` when `got` is what was expected (addresses aside), else a failure message with both.
/// A notebook run's record in the `.out` files' shape.
pub fn shaped_record(source: &str, record: &tolab_cells::RunRecord) -> String {
    shaped(
        source,
        &record.stdout,
        &record.stderr,
        record.error.as_deref(),
    )
}

pub fn mismatch(name: &str, expected: &str, got: &str) -> Option<String> {
    (masked(got) != masked(expected))
        .then(|| format!("{name}:\n--- expected\n{expected}--- got\n{got}"))
}
