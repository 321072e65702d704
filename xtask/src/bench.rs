//! `cargo xtask bench`: the engine's CPU figures next to numpy's, the cell interpreter's next to
//! CPython's (with PyTorch on the CPU when `python3` has it), and the site's start next to
//! Pyodide's in headless Chromium, measured in the same run on the same machine (numpy
//! single-threaded, from pip in a virtual environment of its own).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::process::first_line_of;
use crate::site::Base;

/// Pinned so that figures compare across runs.
const NUMPY: &str = "numpy==2.4.6";

pub fn run(root: &Path) -> Result<(), String> {
    let python = numpy_python()?;
    println!("bench: the engine (release build)…");
    let engine = example(root, "tolab-engine", "bench")?;
    println!("bench: numpy, single-threaded…");
    let mut numpy = Command::new(&python);
    numpy.arg(root.join("xtask/bench/numpy_bench.py"));
    for var in ["OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"] {
        numpy.env(var, "1");
    }
    numpy
        .env_remove("OPENBLAS_CORETYPE")
        .env_remove("OPENBLAS_L2_SIZE");
    let numpy = capture(&mut numpy, root)?;

    let (engine, numpy) = (parse(&engine)?, parse(&numpy)?);
    println!("\n| measure | engine | numpy | engine / numpy |\n|---|---|---|---|");
    let rows = [
        ("matmul_64_gflops", "matmul 64×64 f32, GFLOP/s"),
        ("matmul_256_gflops", "matmul 256×256 f32, GFLOP/s"),
        ("matmul_1024_gflops", "matmul 1024×1024 f32, GFLOP/s"),
        ("add_1048576_gbs", "add 1M f32, GB/s"),
        ("add_16777216_gbs", "add 16M f32, GB/s"),
        ("small_op_us", "one small add (4 elements), µs"),
    ];
    for (key, label) in rows {
        let (e, n) = (
            engine.get(key).copied().unwrap_or(f64::NAN),
            numpy.get(key).copied().unwrap_or(f64::NAN),
        );
        println!("| {label} | {e:.3} | {n:.3} | {:.2} |", e / n);
    }
    gpu(root, &engine)?;
    interpreter(root, &python)?;
    startup(root)
}

/// The site's start in headless Chromium next to Pyodide's (npm's `pyodide`, served locally),
/// in the same browser in the same run: time from navigation to the first cell's result, and the
/// bytes fetched, gzip-compressed.
fn startup(root: &Path) -> Result<(), String> {
    println!("\nbench: the site (release build)…");
    let site = crate::site::build(root, &Base::root())?;
    let pyodide = root.join("target/bench-pyodide");
    std::fs::create_dir_all(pyodide.join("pyodide")).map_err(|e| e.to_string())?;
    std::fs::copy(
        root.join("xtask/bench/pyodide.html"),
        pyodide.join("index.html"),
    )
    .map_err(|e| e.to_string())?;
    let npm = root.join("node_modules/pyodide");
    for entry in std::fs::read_dir(&npm).map_err(|e| format!("{}: {e}", npm.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if let Some(name) = path.file_name().filter(|_| path.is_file()) {
            std::fs::copy(&path, pyodide.join("pyodide").join(name)).map_err(|e| e.to_string())?;
        }
    }
    let lab_url = crate::serve::Server::bind(&site, 0, &Base::root())?.spawn();
    let pyodide_url = crate::serve::Server::bind(&pyodide, 0, &Base::root())?.spawn();
    println!("bench: the lab and Pyodide starting in Chromium (3 runs each)…");
    let figures = parse(&capture(
        Command::new("node")
            .arg(root.join("xtask/bench/startup.mjs"))
            .args([&lab_url, &pyodide_url]),
        root,
    )?)?;
    println!("\n| measure | lab | Pyodide | lab / Pyodide |\n|---|---|---|---|");
    let rows = [
        (
            "first_cell_ms",
            "navigation to the first cell's result, ms",
            1.0,
        ),
        (
            "gzip_bytes",
            "bytes fetched (gzip), MiB",
            1.0 / f64::from(1u32 << 20),
        ),
    ];
    for (key, label, scale) in rows {
        let l = figures
            .get(&format!("lab_{key}"))
            .copied()
            .unwrap_or(f64::NAN);
        let p = figures
            .get(&format!("pyodide_{key}"))
            .copied()
            .unwrap_or(f64::NAN);
        println!(
            "| {label} | {:.2} | {:.2} | {:.3} |",
            l * scale,
            p * scale,
            l / p
        );
    }
    Ok(())
}

/// The wgpu backend on whatever adapter this machine has (lavapipe, Vulkan on the CPU, on the CI
/// machines), beside the CPU backend's figures from the same run.
fn gpu(root: &Path, cpu: &BTreeMap<String, f64>) -> Result<(), String> {
    println!("\nbench: the GPU backend (release build)…");
    let out = match example(root, "tolab-engine", "gpu_bench") {
        Ok(out) => out,
        Err(e) => {
            println!("(no GPU adapter: {e})");
            return Ok(());
        }
    };
    let (adapter, json) = out.split_once('\n').ok_or("gpu_bench printed no figures")?;
    let gpu = parse(json)?;
    println!("\n| measure | CPU backend | GPU: {adapter} | GPU / CPU |\n|---|---|---|---|");
    let rows = [
        (
            "matmul_256_gflops",
            "matmul_256_gflops",
            "matmul 256×256 f32, GFLOP/s",
        ),
        (
            "matmul_1024_gflops",
            "matmul_1024_gflops",
            "matmul 1024×1024 f32, GFLOP/s",
        ),
        ("add_16777216_gbs", "add_16777216_gbs", "add 16M f32, GB/s"),
        ("", "h2d_gbs", "host → device copy, 64 MiB, GB/s"),
        ("", "d2h_gbs", "device → host copy, 64 MiB, GB/s"),
        ("", "sync_us", "one sync (idle queue), µs"),
        (
            "small_op_us",
            "small_op_us",
            "one small add (4 elements), µs",
        ),
    ];
    for (cpu_key, gpu_key, label) in rows {
        let g = gpu.get(gpu_key).copied().unwrap_or(f64::NAN);
        match cpu.get(cpu_key) {
            Some(c) => println!("| {label} | {c:.3} | {g:.3} | {:.2} |", g / c),
            None => println!("| {label} | | {g:.3} | |"),
        }
    }
    Ok(())
}

/// The cell interpreter against CPython on the same cells; the tensor cell against CPython with
/// PyTorch when the system's `python3` has it (the venv's Python runs the rest).
fn interpreter(root: &Path, venv_python: &Path) -> Result<(), String> {
    println!("\nbench: the cell interpreter (release build)…");
    let lab = parse(&example(root, "tolab-cells", "bench")?)?;
    let script = root.join("xtask/bench/cells_bench.py");
    let torch_python = first_line_of("python3", &["-c", "import torch; print(torch.__version__)"]);
    let python = if torch_python.is_some() {
        PathBuf::from("python3")
    } else {
        venv_python.to_path_buf()
    };
    println!(
        "bench: CPython{}…",
        torch_python.as_deref().map_or(String::new(), |v| format!(
            " with PyTorch {v} (CPU, one thread)"
        ))
    );
    let cpython = parse(&capture(Command::new(&python).arg(&script), root)?)?;
    println!("\n| cell | lab, ms | CPython, ms | lab / CPython |\n|---|---|---|---|");
    let rows = [
        (
            "scalar_loop_10k_ms",
            "10,000-iteration loop of scalar arithmetic",
        ),
        (
            "call_heavy_2k_ms",
            "2,000 calls with keywords and defaults, appends, a dict count",
        ),
        (
            "tensor_ops_1k_ms",
            "1,000 small tensor ops (`x = x + 1`, 4 elements)",
        ),
    ];
    for (key, label) in rows {
        let l = lab.get(key).copied().unwrap_or(f64::NAN);
        match cpython.get(key) {
            Some(c) => println!("| {label} | {l:.3} | {c:.3} | {:.2} |", l / c),
            None => println!("| {label} | {l:.3} | (PyTorch not installed) | |"),
        }
    }
    Ok(())
}

/// A Python with numpy: a virtual environment under the user's cache, made once.
fn numpy_python() -> Result<PathBuf, String> {
    let home = std::env::var_os("HOME").ok_or("HOME is not set")?;
    let venv = PathBuf::from(home).join(".cache/tolab/bench-venv");
    let python = venv.join("bin/python");
    if first_line_of(
        &python.to_string_lossy(),
        &["-c", "import numpy; print(numpy.__version__)"],
    )
    .as_deref()
        == NUMPY.split("==").nth(1)
    {
        return Ok(python);
    }
    println!("bench: installing {NUMPY} into {}", venv.display());
    let ok = |c: &mut Command| c.status().map(|s| s.success()).unwrap_or(false);
    if !ok(Command::new("python3").args(["-m", "venv"]).arg(&venv))
        || !ok(Command::new(&python).args(["-m", "pip", "install", "--quiet", NUMPY]))
    {
        return Err(format!("could not install {NUMPY} into {}", venv.display()));
    }
    Ok(python)
}

/// What a benchmark example of `package` prints, built in release mode.
fn example(root: &Path, package: &str, name: &str) -> Result<String, String> {
    let mut command = Command::new("cargo");
    command.args([
        "run",
        "--quiet",
        "--release",
        "-p",
        package,
        "--example",
        name,
    ]);
    capture(&mut command, root)
}

fn capture(command: &mut Command, dir: &Path) -> Result<String, String> {
    let out = command
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot start {command:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{command:?} failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// The flat `{"key": number, …}` objects both benchmarks print.
fn parse(json: &str) -> Result<BTreeMap<String, f64>, String> {
    json.trim()
        .trim_start_matches('{')
        .trim_end_matches('}')
        .split(',')
        .map(|pair| {
            let (key, value) = pair
                .split_once(':')
                .ok_or_else(|| format!("unexpected benchmark output: {json}"))?;
            let value = value
                .trim()
                .parse()
                .map_err(|_| format!("unexpected benchmark output: {json}"))?;
            Ok((key.trim().trim_matches('"').to_owned(), value))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn benchmark_output_is_read_back() {
        let parsed = parse(r#"{"matmul_64_gflops": 12.5, "small_op_us": 0.75}"#).unwrap();
        assert_eq!(parsed["matmul_64_gflops"], 12.5);
        assert_eq!(parsed["small_op_us"], 0.75);
        assert!(parse("not json").is_err());
    }
}
