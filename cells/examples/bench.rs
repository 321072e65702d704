//! The interpreter's figures for `cargo xtask bench`: each cell of `xtask/bench/cells/` run in a
//! fresh notebook, median of several runs after a warm-up, in milliseconds, as one JSON object.

use std::time::Instant;

use tolab_cells::python::Interpreter;
use tolab_engine::Session;

fn median_ms(source: &str, repetitions: usize) -> f64 {
    let run = || {
        let mut notebook = Interpreter::notebook(Session::default());
        let start = Instant::now();
        let record = pollster::block_on(notebook.run_cell("<bench>", source));
        let elapsed = start.elapsed().as_secs_f64() * 1000.0;
        if let Some(error) = record.error {
            eprintln!("{error}");
            std::process::exit(1);
        }
        elapsed
    };
    run();
    let mut times: Vec<f64> = (0..repetitions).map(|_| run()).collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../xtask/bench/cells");
    let mut figures = Vec::new();
    for (key, file) in [
        ("scalar_loop_10k_ms", "scalar_loop.py"),
        ("call_heavy_2k_ms", "call_heavy.py"),
        ("tensor_ops_1k_ms", "tensor_ops.py"),
    ] {
        let source = std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| {
            eprintln!("cannot read {file}: {e}");
            std::process::exit(1)
        });
        figures.push(format!("\"{key}\": {:.4}", median_ms(&source, 15)));
    }
    println!("{{{}}}", figures.join(", "));
}
