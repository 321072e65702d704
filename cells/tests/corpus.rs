//! The corpus (`tests/corpus/`): programs written the way the official tutorials and common
//! courses write them, each with the output real Python 3.11 and PyTorch 2.15 printed on a
//! CPU-only machine (`tests/corpus/generate.py`). Each runs through `tolab run --gpus 0` (a
//! machine without GPUs, as the one the output comes from).
//!
//! `tests/corpus/PENDING` lists the programs the lab does not run as PyTorch does yet, each with
//! why. Both directions are checked: a program not listed must print what PyTorch printed, and
//! a listed one must still differ (once it passes, it leaves the list), so the list is always
//! the truth about what is missing.

#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus")
}

/// What `tolab run --gpus 0 PROGRAM` prints, in the `.out` files' shape, from a scratch folder.
fn run(name: &str, source: &str) -> String {
    let scratch = std::env::temp_dir().join(format!("tolab-corpus-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    std::fs::write(scratch.join(name), source).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tolab"))
        .args(["run", "--gpus", "0", name])
        .current_dir(&scratch)
        .env("XDG_RUNTIME_DIR", &scratch)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&scratch).ok();
    let stderr = String::from_utf8_lossy(&output.stderr);
    common::shaped(
        source,
        &String::from_utf8_lossy(&output.stdout),
        &common::program_stderr(&stderr),
        (!output.status.success()).then_some(&*stderr),
    )
}

/// The PENDING list: program names, each line `name.py  why`.
fn pending() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(corpus().join("PENDING")).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (name, why) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
            (name.to_owned(), why.trim().to_owned())
        })
        .collect()
}

#[test]
fn the_corpus_runs_as_in_pytorch_but_for_what_pending_lists() {
    let mut programs: Vec<PathBuf> = std::fs::read_dir(corpus())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "py") && p.with_extension("out").exists())
        .collect();
    programs.sort();
    assert!(programs.len() >= 60, "{} programs", programs.len());
    let pending = pending();
    let mut failures = Vec::new();
    let mut passing = 0;
    for path in &programs {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let source = std::fs::read_to_string(path).unwrap();
        let expected = std::fs::read_to_string(path.with_extension("out")).unwrap();
        let got = run(&name, &source);
        let differs = common::mismatch(&name, &expected, &got);
        let listed = pending.iter().any(|(n, _)| *n == name);
        match (differs, listed) {
            (None, false) => passing += 1,
            (Some(diff), false) => failures.push(diff),
            (None, true) => failures.push(format!(
                "{name} now prints what PyTorch prints: take it off tests/corpus/PENDING"
            )),
            (Some(_), true) => {}
        }
    }
    for (name, _) in &pending {
        if !programs.iter().any(|p| p.ends_with(name)) {
            failures.push(format!(
                "tests/corpus/PENDING names {name}, which is not in the corpus"
            ));
        }
    }
    eprintln!(
        "corpus: {passing} of {} programs print what PyTorch prints; {} pending",
        programs.len(),
        pending.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
