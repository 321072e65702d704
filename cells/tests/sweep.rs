//! The sweep (`tests/sweep/`): every public name of `torch`, `Tensor`, `torch.linalg` and
//! `torch.cuda` that a tutorial could plausibly use, called with ordinary arguments (and some
//! wrong ones), its outcome described as one line: a value's `repr`, or the exception's type and
//! message. `tests/sweep/expected.txt` holds real PyTorch 2.15's lines (`generate.py`); the lab
//! runs the same `sweep.py` through `tolab run`, on the CPU and with every fixture on `cuda`
//! (the wgpu backend: lavapipe natively), and each line is compared.
//!
//! `tests/sweep/PENDING` lists the cases the lab does not match yet, each with its device and
//! why. Both directions are checked, as for the corpus: a case that starts to agree must leave
//! the list. `TOLAB_SWEEP_WRITE_PENDING=1` rewrites the list from the run (new entries get the
//! lab's outcome as their reason, to be replaced by a real one).

#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn sweep_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/sweep")
}

/// `code → (name, outcome)` from the sweep's output lines (`name\tcode\toutcome`).
fn outcomes(text: &str) -> BTreeMap<String, (String, String)> {
    text.lines()
        .filter_map(|line| {
            let mut parts = line.splitn(3, '\t');
            let (name, code, outcome) = (parts.next()?, parts.next()?, parts.next()?);
            Some((code.to_owned(), (name.to_owned(), outcome.to_owned())))
        })
        .collect()
}

/// The sweep's lines as the lab prints them on `device`, from a scratch folder.
fn run(device: &str, gpus: &str) -> BTreeMap<String, (String, String)> {
    let source = std::fs::read_to_string(sweep_dir().join("sweep.py")).unwrap();
    let source = source.replacen("DEVICE = \"cpu\"", &format!("DEVICE = \"{device}\""), 1);
    let scratch = std::env::temp_dir().join(format!("tolab-sweep-{}-{device}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    std::fs::write(scratch.join("sweep.py"), source).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tolab"))
        // One cell runs every case: a lesson cell's 30 s would end it on a loaded machine.
        .args(["run", "--gpus", gpus, "--seconds", "600", "sweep.py"])
        .current_dir(&scratch)
        .env("XDG_RUNTIME_DIR", &scratch)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&scratch).ok();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the sweep stopped on {device}:\n{}\n(last lines: {})",
        String::from_utf8_lossy(&output.stderr),
        stdout.lines().rev().take(3).collect::<Vec<_>>().join("\n")
    );
    outcomes(&stdout)
}

/// An outcome as a CPU's would read: the device suffix of reprs removed, and the suffixes that
/// it pushed onto a line of their own put back (`,\n       grad_fn=…`).
fn on_cpu_terms(outcome: &str) -> String {
    let mut text = outcome
        .replace(",\\n       device='cuda:0'", "")
        .replace(", device='cuda:0'", "")
        .replace("device='cuda:0', ", "");
    for suffix in ["grad_fn=", "dtype=", "requires_grad="] {
        text = text.replace(&format!(",\\n       {suffix}"), &format!(", {suffix}"));
    }
    text
}

/// What the sweep prints, on a GPU, for a case that would fire a device-side assert.
const CPU_ONLY: &str = "(cpu only)";

/// The PENDING list: `device\tcode\treason` lines.
fn pending() -> BTreeMap<(String, String), String> {
    let text = std::fs::read_to_string(sweep_dir().join("PENDING")).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let mut parts = l.splitn(3, '\t');
            let (device, code, why) = (parts.next()?, parts.next()?, parts.next().unwrap_or(""));
            Some(((device.to_owned(), code.to_owned()), why.to_owned()))
        })
        .collect()
}

const PENDING_HEADER: &str = "\
# Sweep cases (tests/sweep/sweep.py) the lab does not answer as PyTorch 2.15 does yet: the device
# the case runs on, its code and why, tab-separated. cells/tests/sweep.rs keeps this list true in
# both directions.
";

/// Compares the lab's outcomes on `device` with PyTorch's; returns the count that agree, the
/// failures (cases not listed that differ, listed ones that now agree) and the cases that differ.
fn compare(
    device: &str,
    expected: &BTreeMap<String, (String, String)>,
    got: &BTreeMap<String, (String, String)>,
    pending: &BTreeMap<(String, String), String>,
) -> (usize, Vec<String>, Vec<(String, String)>) {
    let mut agree = 0;
    let mut failures = Vec::new();
    let mut differing = Vec::new();
    for (code, (name, want)) in expected {
        let outcome = got.get(code).map(|(_, o)| on_cpu_terms(o));
        if outcome.as_deref() == Some(CPU_ONLY) {
            continue;
        }
        let listed = pending.contains_key(&(device.to_owned(), code.clone()));
        match (outcome.as_deref() == Some(on_cpu_terms(want).as_str()), listed) {
            (true, false) => agree += 1,
            (true, true) => failures.push(format!(
                "[{device}] {name}: `{code}` now agrees with PyTorch: take it off tests/sweep/PENDING"
            )),
            (false, listed) => {
                let got = outcome.unwrap_or_else(|| "(no outcome)".into());
                if !listed {
                    failures.push(format!(
                        "[{device}] {name}: `{code}`\n  PyTorch: {want}\n  lab:     {got}"
                    ));
                }
                differing.push((code.clone(), got));
            }
        }
    }
    (agree, failures, differing)
}

/// Writes PENDING from a run: hand-written reasons stay; the others (`lab: …`) and new entries
/// get the lab's outcome now.
fn write_pending(
    runs: &[(&str, Vec<(String, String)>)],
    pending: &BTreeMap<(String, String), String>,
) {
    let mut text = PENDING_HEADER.to_owned();
    for (device, differing) in runs {
        for (code, got) in differing {
            let key = ((*device).to_owned(), code.clone());
            let why = pending
                .get(&key)
                .filter(|why| !why.starts_with("lab: "))
                .cloned()
                .unwrap_or_else(|| format!("lab: {}", got.chars().take(160).collect::<String>()));
            text.push_str(&format!("{device}\t{code}\t{why}\n"));
        }
    }
    std::fs::write(sweep_dir().join("PENDING"), text).unwrap();
}

#[test]
fn the_sweep_agrees_with_pytorch_on_the_cpu_and_the_gpu_backend_but_for_what_pending_lists() {
    let expected = outcomes(&std::fs::read_to_string(sweep_dir().join("expected.txt")).unwrap());
    assert!(expected.len() >= 700, "{} cases", expected.len());
    let pending = pending();
    let mut failures = Vec::new();
    let mut runs = Vec::new();
    for (device, gpus) in [("cpu", "0"), ("cuda", "1")] {
        let got = run(device, gpus);
        let (agree, failed, differing) = compare(device, &expected, &got, &pending);
        let compared = expected.len() - got.values().filter(|(_, o)| o == CPU_ONLY).count();
        eprintln!("sweep on {device}: {agree} of {compared} cases agree with PyTorch");
        failures.extend(failed);
        runs.push((device, differing));
    }
    if std::env::var_os("TOLAB_SWEEP_WRITE_PENDING").is_some() {
        write_pending(&runs, &pending);
        return;
    }
    let stale: Vec<String> = pending
        .keys()
        .filter(|(_, code)| !expected.contains_key(code))
        .map(|(device, code)| {
            format!("[{device}] `{code}` is no case of the sweep: take it off PENDING")
        })
        .collect();
    failures.extend(stale);
    assert!(
        failures.is_empty(),
        "{} sweep case(s) differ from what PENDING says:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
