//! `cargo xtask test`: every check CI runs, in order, each timed and counted, ending with one
//! `N passed, N failed` line. Test steps count their tests; other steps count as one check each.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::process::{Outcome, run_teed};
use crate::{serve, setup, site};

/// Chromium flags for every browser test: WebGPU on SwiftShader, and no background traffic (the
/// build machines have no network beyond package registries).
pub const CHROME_ARGS: &str = "--enable-unsafe-webgpu --disable-background-networking --disable-component-update --disable-sync --disable-quic --no-first-run";

#[derive(Default)]
struct Tally {
    passed: usize,
    failed: usize,
    report: Vec<String>,
}

impl Tally {
    fn record(&mut self, name: &str, elapsed: Duration, counts: Counts) {
        self.passed += counts.passed;
        self.failed += counts.failed;
        let verdict = if counts.failed == 0 { "ok" } else { "FAILED" };
        self.report.push(format!(
            "  {verdict:6} {name:<34} {:>7.1}s  ({} passed, {} failed)",
            elapsed.as_secs_f64(),
            counts.passed,
            counts.failed
        ));
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Counts {
    passed: usize,
    failed: usize,
}

impl Counts {
    fn check(success: bool) -> Self {
        Self {
            passed: usize::from(success),
            failed: usize::from(!success),
        }
    }
}

pub fn run_all(root: &Path) -> Result<(), String> {
    let mut tally = Tally::default();
    let start = Instant::now();

    let step = Instant::now();
    let setup_ok = match setup::ensure_all(root, setup::Needs::everything()) {
        Ok(()) => true,
        Err(e) => {
            eprintln!("setup failed: {e}");
            false
        }
    };
    tally.record("set-up of tools", step.elapsed(), Counts::check(setup_ok));

    if setup_ok {
        run_checks(root, &mut tally);
    }

    println!(
        "\n== summary ({:.0}s in all)",
        start.elapsed().as_secs_f64()
    );
    for line in &tally.report {
        println!("{line}");
    }
    println!("{} passed, {} failed", tally.passed, tally.failed);
    if tally.failed == 0 {
        Ok(())
    } else {
        Err(format!("{} check(s) failed", tally.failed))
    }
}

fn run_checks(root: &Path, tally: &mut Tally) {
    let cargo = |args: &[&str]| {
        let mut cmd = Command::new("cargo");
        cmd.args(args);
        cmd
    };
    step(
        tally,
        root,
        "cargo fmt --check",
        cargo(&["fmt", "--all", "--", "--check"]),
        check_counts,
    );
    let clippy = |extra: &[&str]| {
        let mut cmd = cargo(&["clippy", "--workspace", "--all-targets"]);
        cmd.args(extra).args(["--", "-D", "warnings"]);
        cmd
    };
    step(tally, root, "clippy (native)", clippy(&[]), check_counts);
    let wasm = ["--exclude", "xtask", "--target", "wasm32-unknown-unknown"];
    step(tally, root, "clippy (wasm32)", clippy(&wasm), check_counts);
    step(
        tally,
        root,
        "native tests",
        cargo(&["test", "--workspace"]),
        rust_test_counts,
    );

    let mut wasm_tests = cargo(&[
        "test",
        "-p",
        "tolab-engine",
        "-p",
        "tolab-cells",
        "--target",
        "wasm32-unknown-unknown",
    ]);
    wasm_tests
        .env(
            "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER",
            "wasm-bindgen-test-runner",
        )
        .env("CHROMEDRIVER", "/usr/bin/chromedriver")
        .env("WASM_BINDGEN_TEST_TIMEOUT", "180");
    step(
        tally,
        root,
        "browser tests (WebGPU, Chromium)",
        wasm_tests,
        rust_test_counts,
    );

    // The site as `cargo xtask run` serves it, and as an instructor hosts it under a path on a
    // plain static server (tests/e2e/hosting.test.mjs serves that one itself).
    let built = build_site(tally, root, "site build", &site::Base::root());
    let hosted_base = site::Base::parse(HOSTED_BASE).expect("a valid base");
    let hosted = build_site(
        tally,
        root,
        "site build (--base /courses/ml/)",
        &hosted_base,
    );

    let (Some(dist), Some(hosted)) = (built, hosted) else {
        return;
    };
    let name = "end-to-end (built sites, Chromium)";
    match serve::Server::bind(&dist, 0, &site::Base::root()) {
        Ok(server) => {
            let url = server.spawn();
            let mut e2e = Command::new("node");
            e2e.args(["--test", "--test-reporter=spec", "tests/e2e/"])
                .env("BASE_URL", url.trim_end_matches('/'))
                .env("HOSTED_SITE", &hosted)
                .env("HOSTED_BASE", HOSTED_BASE)
                .env("SCREENSHOT_DIR", root.join("target/e2e"))
                .env("CHROME_ARGS", CHROME_ARGS);
            step(tally, root, name, e2e, node_test_counts);
        }
        Err(e) => {
            eprintln!("{e}");
            tally.record(name, Duration::ZERO, Counts::check(false));
        }
    }
}

/// The base path the hosting tests build a second site for.
const HOSTED_BASE: &str = "/courses/ml/";

/// Builds the site for `base` into its default folder, as one recorded step.
fn build_site(
    tally: &mut Tally,
    root: &Path,
    name: &str,
    base: &site::Base,
) -> Option<std::path::PathBuf> {
    println!("\n== {name} (trunk, release)");
    let started = Instant::now();
    let built = site::build(root, base);
    if let Err(e) = &built {
        eprintln!("{e}");
    }
    tally.record(name, started.elapsed(), Counts::check(built.is_ok()));
    built.ok()
}

/// Runs one step, streaming its output, and records what it counted.
fn step(tally: &mut Tally, root: &Path, name: &str, cmd: Command, count: fn(&Outcome) -> Counts) {
    println!("\n== {name}");
    let started = Instant::now();
    let counts = match run_teed(cmd, root) {
        Ok(outcome) => count(&outcome),
        Err(e) => {
            eprintln!("{e}");
            Counts::check(false)
        }
    };
    tally.record(name, started.elapsed(), counts);
}

fn check_counts(outcome: &Outcome) -> Counts {
    Counts::check(outcome.success)
}

/// Sums cargo's `test result: ok. 5 passed; 0 failed; …` lines (wasm-bindgen-test-runner prints the
/// same). A run that failed without reporting a failed test (a build error) counts one failure.
fn rust_test_counts(outcome: &Outcome) -> Counts {
    let mut counts = Counts {
        passed: 0,
        failed: 0,
    };
    for line in outcome.output.lines() {
        if let Some(rest) = line.trim().strip_prefix("test result: ") {
            counts.passed += number_before(rest, " passed");
            counts.failed += number_before(rest, " failed");
        }
    }
    with_exit_status(counts, outcome.success)
}

/// Reads node's test runner summary (`ℹ pass 5`, `ℹ fail 0`).
fn node_test_counts(outcome: &Outcome) -> Counts {
    let mut counts = Counts {
        passed: 0,
        failed: 0,
    };
    for line in outcome.output.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let [_, kind, n] = words.as_slice() {
            let n = n.parse().unwrap_or(0);
            match *kind {
                "pass" => counts.passed += n,
                "fail" => counts.failed += n,
                _ => {}
            }
        }
    }
    with_exit_status(counts, outcome.success)
}

fn with_exit_status(mut counts: Counts, success: bool) -> Counts {
    if !success && counts.failed == 0 {
        counts.failed = 1;
    }
    if success && counts.passed == 0 {
        // A runner that succeeded without running anything proves nothing.
        counts.failed = 1;
    }
    counts
}

/// The number just before `suffix` in `text` ("12 passed" → 12).
fn number_before(text: &str, suffix: &str) -> usize {
    text.find(suffix)
        .and_then(|end| text[..end].rsplit(|c: char| !c.is_ascii_digit()).next())
        .and_then(|digits| digits.parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(success: bool, output: &str) -> Outcome {
        Outcome {
            success,
            output: output.into(),
        }
    }

    #[test]
    fn cargo_test_results_are_summed() {
        let out = "test result: ok. 4 passed; 0 failed; 0 ignored\nnoise\ntest result: FAILED. 2 passed; 1 failed; 0 ignored";
        assert_eq!(
            rust_test_counts(&outcome(false, out)),
            Counts {
                passed: 6,
                failed: 1
            }
        );
    }

    #[test]
    fn a_build_error_counts_as_a_failure() {
        assert_eq!(
            rust_test_counts(&outcome(false, "error[E0308]")),
            Counts {
                passed: 0,
                failed: 1
            }
        );
    }

    #[test]
    fn a_run_without_tests_counts_as_a_failure() {
        assert_eq!(
            rust_test_counts(&outcome(true, "test result: ok. 0 passed; 0 failed;")),
            Counts {
                passed: 0,
                failed: 1
            }
        );
    }

    #[test]
    fn node_summaries_are_read() {
        let out = "✔ home page (1.2s)\nℹ tests 5\nℹ pass 4\nℹ fail 1\nℹ duration_ms 10";
        assert_eq!(
            node_test_counts(&outcome(false, out)),
            Counts {
                passed: 4,
                failed: 1
            }
        );
    }
}
