//! `tolab run [--trace] [--gpus N] [--seconds S] FILE.py`: runs a file as one lab cell and prints
//! its stdout exactly as the lab would (as it runs: a long cell's output streams); an uncaught
//! error goes to stderr as a traceback, with exit code 1. `--trace` adds the engine's trace as JSON
//! lines on stderr; `--seconds` sets the cell's wall-clock budget (30 s, as a lesson cell's).

#[cfg(not(target_arch = "wasm32"))]
use std::process::ExitCode;

#[cfg(not(target_arch = "wasm32"))]
use tolab_cells::python::Interpreter;
#[cfg(not(target_arch = "wasm32"))]
use tolab_engine::backend::gpu::GpuContext;
#[cfg(not(target_arch = "wasm32"))]
use tolab_engine::{Session, SessionConfig};

/// The CLI is native; in the browser the runtime runs in a Web Worker instead.
#[cfg(target_arch = "wasm32")]
fn main() {}

/// Python frames nest futures; a large stack keeps deep (but legal) recursion off the guard page.
#[cfg(not(target_arch = "wasm32"))]
const STACK_BYTES: usize = 256 << 20;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> ExitCode {
    let usage = || {
        eprintln!("usage: tolab run [--trace] [--gpus N] [--seconds S] FILE.py");
        ExitCode::from(2)
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(rest) = args
        .split_first()
        .filter(|(command, _)| *command == "run")
        .map(|(_, rest)| rest)
    else {
        return usage();
    };
    let (mut trace, mut gpus, mut path) = (false, SessionConfig::default().gpu_count, None);
    let mut seconds = tolab_cells::Limits::default().seconds;
    let mut rest = rest.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--trace" => trace = true,
            // A machine with N GPUs (0: a CPU-only machine, where torch.cuda.is_available()
            // is False, as on the machines the corpus's expected output comes from).
            "--gpus" => match rest.next().and_then(|n| n.parse::<usize>().ok()) {
                Some(n) if n <= 8 => gpus = n,
                _ => return usage(),
            },
            "--seconds" => match rest.next().and_then(|s| s.parse::<f64>().ok()) {
                Some(s) if s > 0.0 => seconds = s,
                _ => return usage(),
            },
            other if path.is_none() => path = Some(other.to_owned()),
            _ => return usage(),
        }
    }
    let Some(path) = path else {
        return usage();
    };
    let source = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("tolab: cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let worker = std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn(move || run(&path, &source, trace, gpus, seconds));
    match worker.map(std::thread::JoinHandle::join) {
        Ok(Ok(code)) => code,
        _ => {
            eprintln!("tolab: the interpreter stopped unexpectedly");
            ExitCode::from(3)
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn run(path: &str, source: &str, trace: bool, gpus: usize, seconds: f64) -> ExitCode {
    let config = SessionConfig {
        gpu_count: gpus,
        ..SessionConfig::default()
    };
    let session = match pollster::block_on(GpuContext::new()) {
        Ok(gpu) => {
            // The browser's way of reading GPU memory (await, then run again), for debugging it.
            if std::env::var_os("TOLAB_BROWSER_READBACKS").is_some() {
                gpu.never_block_on_readbacks();
            }
            let report = gpu.report();
            eprintln!(
                "tolab: GPU devices run on {} ({}, through wgpu)",
                report.name, report.backend
            );
            Session::with_gpu(config, std::rc::Rc::new(gpu))
        }
        Err(e) => {
            eprintln!("tolab: GPU devices run on the CPU backend: {e}");
            Session::new(config)
        }
    };
    session.set_tracing(trace);
    let files = tolab_engine::serialization::DiskFiles { root: ".".into() };
    let limits = tolab_cells::Limits {
        stack_bytes: STACK_BYTES - (8 << 20),
        seconds,
        ..tolab_cells::Limits::default()
    };
    let mut notebook = Interpreter::notebook(session.clone())
        .with_files(std::rc::Rc::new(files))
        .with_limits(limits);
    // Output and events stream as the program runs; the record holds what came after the last
    // report.
    let print_trace = move |events: &[tolab_cells::trace::TraceEvent]| {
        for event in events.iter().filter(|_| trace) {
            if let Ok(line) = serde_json::to_string(event) {
                eprintln!("{line}");
            }
        }
    };
    notebook.set_progress(Some(std::rc::Rc::new(
        move |progress: tolab_cells::Progress| {
            print!("{}", progress.stdout);
            let _ = std::io::Write::flush(&mut std::io::stdout());
            print_trace(&progress.trace);
        },
    )));
    let record = pollster::block_on(notebook.run_cell(path, source));
    print!("{}", record.stdout);
    eprint!("{}", record.stderr);
    for warning in &record.warnings {
        eprintln!("UserWarning: {warning}");
    }
    print_trace(&record.trace);
    match record.error {
        Some(traceback) => {
            eprintln!("{traceback}");
            ExitCode::from(1)
        }
        None => ExitCode::SUCCESS,
    }
}
