//! The long fuzz run: programs from fragments, mutations of the conformance programs and byte
//! soup, run until the time is up. A program that panics is saved to the corpus folder; one that
//! kills the process (a stack overflow) is left in `current.py` there for the caller to keep.
//!
//!     cargo run --release -p tolab-cells --example fuzz -- SECONDS CORPUS_DIR [SEED]

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../tests/fuzz/mod.rs"]
mod fuzz;

use std::panic::AssertUnwindSafe;
use std::time::Instant;

use tolab_cells::Limits;
use tolab_cells::python::Interpreter;
use tolab_engine::Session;

/// The bytes of byte-soup programs.
const SOUP: &[u8] = b"()[]{}:;,.=+-*/%@<>!'\"\\\n #abtxyz019_";

fn main() {
    // A panic is a finding, reported in one line; the program is saved below.
    std::panic::set_hook(Box::new(|info| eprintln!("fuzz: panic: {info}")));
    let mut args = std::env::args().skip(1);
    let seconds: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(60.0);
    let corpus = std::path::PathBuf::from(args.next().unwrap_or_else(|| "fuzz-corpus".into()));
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    std::fs::create_dir_all(&corpus).expect("corpus folder");
    let limits = Limits {
        steps: 100_000,
        seconds: 2.0,
        stack_bytes: 48 << 20,
    };
    let worker = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let mut rng = fuzz::Rng(seed);
            let started = Instant::now();
            let (mut runs, mut panics) = (0u64, 0u64);
            let mut notebook = Interpreter::notebook(Session::default()).with_limits(limits);
            while started.elapsed().as_secs_f64() < seconds {
                let program = match rng.below(4) {
                    0 => fuzz::from_fragments(&mut rng),
                    3 => fuzz::keyword_soup(&mut rng),
                    1 => {
                        let (_, seed, _) = common::PROGRAMS[rng.below(common::PROGRAMS.len())];
                        fuzz::mutate(&mut rng, seed)
                    }
                    _ => (0..rng.below(60))
                        .map(|_| SOUP[rng.below(SOUP.len())] as char)
                        .collect(),
                };
                let _ = std::fs::write(corpus.join("current.py"), &program);
                if runs % 50 == 0 {
                    notebook = Interpreter::notebook(Session::default()).with_limits(limits);
                }
                let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    pollster::block_on(notebook.run_cell("<fuzz>", &program))
                }));
                if outcome.is_err() {
                    panics += 1;
                    let _ =
                        std::fs::write(corpus.join(format!("panic-{seed}-{runs}.py")), &program);
                    notebook = Interpreter::notebook(Session::default()).with_limits(limits);
                }
                runs += 1;
            }
            println!("fuzz: {runs} programs in {seconds} s, {panics} panics");
        });
    if worker.map(|w| w.join()).is_err() {
        eprintln!("fuzz: the worker could not run");
    }
}
