//! Project automation for the to(device) lab.
//!
//! - `cargo xtask run [--port N] [--base /path/]`: install what is missing, build the web app
//!   (release) and serve it on 127.0.0.1.
//! - `cargo xtask site [--base /path/] [--out DIR]`: build the site for a static host.
//! - `cargo xtask test`: install what is missing, then run every check CI runs and end with one
//!   `N passed, N failed` line.
//! - `cargo xtask bench`: the engine's CPU figures next to numpy's.
//!
//! Set-up is idempotent: each tool is checked first and installed only when missing or at the
//! wrong version, from package registries only (apt, crates.io, npm).

mod bench;
mod checks;
mod headers;
mod process;
mod serve;
mod setup;
mod site;

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <command>

commands:
  run [--port N] [--base /path/]
                   build the lab (release) and serve it on http://127.0.0.1:N (default 8080),
                   under the base path (default /)
  site [--base /path/] [--out DIR]
                   build the lab for a static host, to be served under the base path
                   (default /), in target/site (or target/site-<base>), and copy it
                   into DIR, keeping what else is there
  test             run everything CI checks; ends with `N passed, N failed`
  bench            the engine's CPU figures next to numpy's (same run, same machine)
  setup            only install the tools the other commands need";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("run") => Options::parse(&args[1..], &["--port", "--base"]).and_then(run),
        Some("site") => Options::parse(&args[1..], &["--base", "--out"]).and_then(build_site),
        Some("test") => checks::run_all(&repo_root()),
        Some("bench") => bench::run(&repo_root()),
        Some("setup") => setup::ensure_all(&repo_root(), setup::Needs::everything()),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        _ => Err(format!("unknown command\n\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The options of `run` and `site`.
#[derive(Debug)]
struct Options {
    port: u16,
    base: site::Base,
    out: Option<PathBuf>,
}

impl Options {
    /// Reads `--flag value` pairs, each of `allowed` at most once.
    fn parse(args: &[String], allowed: &[&str]) -> Result<Self, String> {
        let mut options = Self {
            port: 8080,
            base: site::Base::root(),
            out: None,
        };
        let mut seen = Vec::new();
        let mut rest = args.iter();
        while let Some(flag) = rest.next() {
            if !allowed.contains(&flag.as_str()) || seen.contains(flag) {
                return Err(format!("unexpected argument `{flag}`\n\n{USAGE}"));
            }
            seen.push(flag.clone());
            let value = rest
                .next()
                .ok_or_else(|| format!("`{flag}` needs a value\n\n{USAGE}"))?;
            match flag.as_str() {
                "--port" => {
                    options.port = value
                        .parse()
                        .map_err(|_| format!("`{value}` is not a port number"))?;
                }
                "--base" => options.base = site::Base::parse(value)?,
                // Relative to where the command was typed (the build runs in the repository).
                _ => {
                    let here = std::env::current_dir()
                        .map_err(|e| format!("cannot tell the current folder: {e}"))?;
                    options.out = Some(here.join(value));
                }
            }
        }
        Ok(options)
    }
}

fn run(options: Options) -> Result<(), String> {
    let root = repo_root();
    setup::ensure_all(&root, setup::Needs::site())?;
    let dist = site::build(&root, &options.base)?;
    let server = serve::Server::bind(&dist, options.port, &options.base)?;
    println!("\nThe lab is at {}  (Ctrl+C to stop)", server.url());
    server.run_forever();
    Ok(())
}

fn build_site(options: Options) -> Result<(), String> {
    let root = repo_root();
    setup::ensure_all(&root, setup::Needs::site())?;
    let mut dist = site::build(&root, &options.base)?;
    if let Some(out) = options.out {
        site::copy_into(&dist, &out)?;
        dist = out;
    }
    let dist = std::fs::canonicalize(&dist).unwrap_or(dist);
    println!(
        "\nThe site for {} is in {}: serve the folder's contents at that path (docs/HOSTING.md).",
        options.base,
        dist.display()
    );
    Ok(())
}

/// The workspace root: xtask lives one level below it. `cargo run` sets CARGO_MANIFEST_DIR for
/// the checkout being run, which matters when several clones share one target directory.
pub(crate) fn repo_root() -> PathBuf {
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("xtask"));
    manifest.parent().map(PathBuf::from).unwrap_or(manifest)
}
