//! Project automation for the to(device) lab.
//!
//! - `cargo xtask run [--port N]`: install what is missing, build the web app (release) and serve it
//!   on 127.0.0.1.
//! - `cargo xtask test`: install what is missing, then run every check CI runs and end with one
//!   `N passed, N failed` line.
//! - `cargo xtask bench`: the engine's CPU figures next to numpy's.
//!
//! Set-up is idempotent: each tool is checked first and installed only when missing or at the
//! wrong version, from package registries only (apt, crates.io, npm).

mod bench;
mod checks;
mod process;
mod serve;
mod setup;
mod site;

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <command>

commands:
  run [--port N]   build the lab (release) and serve it on http://127.0.0.1:N (default 8080)
  test             run everything CI checks; ends with `N passed, N failed`
  bench            the engine's CPU figures next to numpy's (same run, same machine)
  setup            only install the tools the other commands need";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("run") => parse_port(&args[1..]).and_then(run),
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

fn parse_port(args: &[String]) -> Result<u16, String> {
    match args {
        [] => Ok(8080),
        [flag, port] if flag == "--port" => port
            .parse()
            .map_err(|_| format!("`{port}` is not a port number")),
        _ => Err(format!(
            "unexpected arguments: {}\n\n{USAGE}",
            args.join(" ")
        )),
    }
}

fn run(port: u16) -> Result<(), String> {
    let root = repo_root();
    setup::ensure_all(&root, setup::Needs::site())?;
    let dist = site::build(&root)?;
    let server = serve::Server::bind(&dist, port)?;
    println!("\nThe lab is at {}  (Ctrl+C to stop)", server.url());
    server.run_forever();
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
