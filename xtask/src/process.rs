//! Running commands: echoing their output as it comes while keeping it for the summary.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;

/// What a finished command left behind.
pub struct Outcome {
    pub success: bool,
    /// stdout and stderr, interleaved line by line as they arrived.
    pub output: String,
}

/// Runs `command` in `dir`, streaming its output to this terminal and capturing it.
pub fn run_teed(mut command: Command, dir: &Path) -> Result<Outcome, String> {
    let shown = describe(&command);
    let mut child = command
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start `{shown}`: {e}"))?;
    let (tx, rx) = mpsc::channel::<String>();
    let readers: Vec<_> = [
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    ]
    .into_iter()
    .flatten()
    .map(|stream| {
        let tx = tx.clone();
        thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                println!("{line}");
                if tx.send(line).is_err() {
                    break;
                }
            }
        })
    })
    .collect();
    drop(tx);
    let output: Vec<String> = rx.iter().collect();
    for reader in readers {
        let _ = reader.join();
    }
    let status = child
        .wait()
        .map_err(|e| format!("`{shown}` did not finish: {e}"))?;
    Ok(Outcome {
        success: status.success(),
        output: output.join("\n"),
    })
}

/// Runs `command` in `dir` with its output passed straight through; fails unless it succeeds.
pub fn run_checked(mut command: Command, dir: &Path) -> Result<(), String> {
    let shown = describe(&command);
    let status = command
        .current_dir(dir)
        .stdin(Stdio::null())
        .status()
        .map_err(|e| format!("cannot start `{shown}`: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{shown}` failed ({status})"))
    }
}

/// The first line a command prints, if it runs at all (for version checks).
pub fn first_line_of(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .map(|l| l.trim().to_owned())
}

fn describe(command: &Command) -> String {
    std::iter::once(command.get_program())
        .chain(command.get_args())
        .map(|s| s.to_string_lossy())
        .collect::<Vec<_>>()
        .join(" ")
}
