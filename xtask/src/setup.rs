//! Installing the tools the project needs, idempotently: each is checked first and installed only
//! when missing or at the wrong version. Everything comes from package registries: Debian's apt,
//! crates.io (`cargo install`) and npm (`npm ci` with the committed lock file).

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use crate::process::{first_line_of, run_checked};

/// Pinned: 0.22 needs a newer rustc than the build machines have.
const TRUNK_VERSION: &str = "0.21.14";

/// What a command needs installed.
#[derive(Clone, Copy)]
pub struct Needs {
    /// Rust's wasm target, Trunk, wasm-bindgen and the npm tools (wasm-opt).
    pub web_build: bool,
    /// Chromium and ChromeDriver, for browser tests.
    pub browser: bool,
    /// A Vulkan driver, for native GPU tests (Mesa's lavapipe runs on the CPU).
    pub gpu_driver: bool,
    /// nginx, to test docs/deploy/nginx.conf as it is (tests/e2e/nginx.test.mjs).
    pub web_server: bool,
}

impl Needs {
    pub fn site() -> Self {
        Self {
            web_build: true,
            browser: false,
            gpu_driver: false,
            web_server: false,
        }
    }

    pub fn everything() -> Self {
        Self {
            web_build: true,
            browser: true,
            gpu_driver: true,
            web_server: true,
        }
    }
}

pub fn ensure_all(root: &Path, needs: Needs) -> Result<(), String> {
    let started = Instant::now();
    ensure_debian_packages(needs)?;
    if needs.web_build {
        ensure_rust_target("wasm32-unknown-unknown")?;
        ensure_cargo_tool("trunk", TRUNK_VERSION, &["--locked"])?;
        // The CLI must match the library in Cargo.lock exactly. Its locked build fails on a yanked
        // dependency, so it is installed without --locked.
        ensure_cargo_tool("wasm-bindgen", &wasm_bindgen_version(root)?, &[])?;
        ensure_npm_packages(root)?;
    }
    println!("setup: tools ready ({:.0?})", started.elapsed());
    Ok(())
}

fn ensure_debian_packages(needs: Needs) -> Result<(), String> {
    let mut wanted: Vec<(&str, &str)> = Vec::new(); // (package, file it provides)
    if needs.browser {
        wanted.push(("chromium", "/usr/bin/chromium"));
        wanted.push(("chromium-driver", "/usr/bin/chromedriver"));
    }
    if needs.gpu_driver {
        wanted.push((
            "mesa-vulkan-drivers",
            "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json",
        ));
    }
    if needs.web_server {
        wanted.push(("nginx", "/usr/sbin/nginx"));
    }
    if needs.web_build || needs.browser {
        wanted.push(("nodejs", "/usr/bin/node"));
        if first_line_of("npm", &["--version"]).is_none() {
            wanted.push(("npm", "/nonexistent"));
        }
    }
    let missing: Vec<&str> = wanted
        .iter()
        .filter(|(_, file)| !Path::new(file).exists())
        .map(|(pkg, _)| *pkg)
        .collect();
    if missing.is_empty() {
        println!("setup: Debian packages present");
        return Ok(());
    }
    println!("setup: installing Debian packages: {}", missing.join(" "));
    let as_root = first_line_of("id", &["-u"]).as_deref() == Some("0");
    let apt = |args: &[&str]| {
        let mut cmd = if as_root {
            Command::new("apt-get")
        } else {
            sudo("apt-get")
        };
        cmd.args(args).env("DEBIAN_FRONTEND", "noninteractive");
        run_checked(cmd, Path::new("/"))
    };
    apt(&["update"])?;
    let mut install = vec!["install", "-y", "--no-install-recommends"];
    install.extend(&missing);
    apt(&install)
}

fn sudo(program: &str) -> Command {
    let mut cmd = Command::new("sudo");
    cmd.arg(program);
    cmd
}

fn ensure_rust_target(target: &str) -> Result<(), String> {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map_err(|e| format!("rustup is needed to add the {target} target: {e}"))?;
    if String::from_utf8_lossy(&installed.stdout)
        .lines()
        .any(|l| l.trim() == target)
    {
        println!("setup: Rust target {target} present");
        return Ok(());
    }
    let mut cmd = Command::new("rustup");
    cmd.args(["target", "add", target]);
    run_checked(cmd, Path::new("."))
}

/// Installs `binary` from the crate of the same family (`trunk`, `wasm-bindgen-cli`) unless
/// `binary --version` already reports `version`.
fn ensure_cargo_tool(binary: &str, version: &str, extra: &[&str]) -> Result<(), String> {
    let found = first_line_of(binary, &["--version"]);
    if found
        .as_deref()
        .is_some_and(|line| line.split_whitespace().any(|w| w == version))
    {
        println!("setup: {binary} {version} present");
        return Ok(());
    }
    let krate = match binary {
        "wasm-bindgen" => "wasm-bindgen-cli",
        other => other,
    };
    println!(
        "setup: installing {krate} {version} (found: {}); this takes a while once",
        found.as_deref().unwrap_or("none")
    );
    let mut cmd = Command::new("cargo");
    cmd.args(["install", krate, "--version", version, "--force"])
        .args(extra);
    // Tool builds must not inherit the project's target directory or profile settings.
    cmd.env_remove("CARGO_TARGET_DIR");
    run_checked(cmd, Path::new("/"))
}

/// The `wasm-bindgen` version in Cargo.lock.
pub fn wasm_bindgen_version(root: &Path) -> Result<String, String> {
    let lock = std::fs::read_to_string(root.join("Cargo.lock"))
        .map_err(|e| format!("cannot read Cargo.lock: {e}"))?;
    let lines: Vec<&str> = lock.lines().map(str::trim).collect();
    lines
        .windows(2)
        .find(|pair| pair[0] == r#"name = "wasm-bindgen""#)
        .and_then(|pair| pair[1].strip_prefix("version = "))
        .map(|version| version.trim_matches('"').to_owned())
        .ok_or_else(|| "Cargo.lock has no wasm-bindgen package".into())
}

/// `npm ci` when node_modules is missing or older than the lock file.
fn ensure_npm_packages(root: &Path) -> Result<(), String> {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let lock = modified(&root.join("package-lock.json"));
    let installed = modified(&root.join("node_modules/.package-lock.json"));
    if matches!((lock, installed), (Some(lock), Some(installed)) if installed >= lock) {
        println!("setup: npm packages present");
        return Ok(());
    }
    let mut cmd = Command::new("npm");
    cmd.args(["ci", "--no-audit", "--no-fund"]);
    run_checked(cmd, root)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trunk_toml_pins_the_wasm_bindgen_version_of_cargo_lock() {
        let root = crate::repo_root();
        let locked = wasm_bindgen_version(&root).unwrap();
        let trunk = std::fs::read_to_string(root.join("Trunk.toml")).unwrap();
        assert!(
            trunk.contains(&format!("wasm_bindgen = \"{locked}\"")),
            "Trunk.toml must pin wasm_bindgen = \"{locked}\", the version in Cargo.lock"
        );
    }
}
