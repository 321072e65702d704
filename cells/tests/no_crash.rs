//! Bad input never crashes the interpreter: programs assembled at random from fragments of the
//! subset (and from outside it), mutations of the conformance programs, byte soup, and the kept
//! fuzz corpus (`tests/fuzz_corpus/`, programs that once broke things) each end with output or a
//! Python error. Fixed seeds keep this smoke run reproducible; `cargo run -p tolab-cells
//! --example fuzz` is the long run.

mod common;
mod fuzz;

use fuzz::{FRAGMENTS, Rng};
use tolab_cells::Limits;
use tolab_cells::python::Interpreter;
use tolab_engine::Session;

fn run_all(programs: Vec<String>) {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let limits = Limits {
                steps: 200_000,
                seconds: 5.0,
                ..Limits::default()
            };
            let mut notebook = Interpreter::notebook(Session::default()).with_limits(limits);
            for (i, program) in programs.iter().enumerate() {
                let record = pollster::block_on(notebook.run_cell(&format!("<cell {i}>"), program));
                if let Some(traceback) = record.error {
                    // Some messages span lines (CUDA's): the exception line is the first that
                    // starts with a class name.
                    let names_an_exception = traceback.lines().any(|line| {
                        let kind = line.split(':').next().unwrap_or("");
                        !kind.contains(' ')
                            && (kind.ends_with("Error")
                                || kind.ends_with("Exception")
                                || kind == "StopIteration")
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
    let programs = (0..400).map(|_| fuzz::from_fragments(&mut rng)).collect();
    run_all(programs);
}

#[test]
fn calls_with_keyword_soup_end_with_output_or_a_python_error() {
    let mut rng = Rng(0x50_0B);
    let programs = (0..300).map(|_| fuzz::keyword_soup(&mut rng)).collect();
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

#[test]
fn mutated_conformance_programs_end_with_output_or_a_python_error() {
    let mut rng = Rng(0xF0221);
    let programs = (0..300)
        .map(|_| {
            let (_, seed, _) = common::PROGRAMS[rng.below(common::PROGRAMS.len())];
            fuzz::mutate(&mut rng, seed)
        })
        .collect();
    run_all(programs);
}

#[test]
fn the_fuzz_corpus_runs_without_crashing() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_corpus");
    let mut programs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    programs.sort();
    run_all(
        programs
            .iter()
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect(),
    );
}
