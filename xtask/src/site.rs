//! Building the web app with Trunk, offline, with the locally installed wasm-bindgen and npm's
//! wasm-opt.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::process::run_checked;

/// Builds the site (release) and returns the folder it was written to (`target/site`).
pub fn build(root: &Path) -> Result<PathBuf, String> {
    let mut cmd = Command::new("trunk");
    cmd.args(["build", "--release"])
        .env("PATH", path_with_node_tools(root));
    // Trunk reads NO_COLOR as a boolean and rejects the common `NO_COLOR=1`.
    cmd.env_remove("NO_COLOR");
    run_checked(cmd, root)?;
    Ok(root.join("target/site"))
}

/// PATH with `node_modules/.bin` first, where npm put binaryen's `wasm-opt`.
pub fn path_with_node_tools(root: &Path) -> String {
    let bin = root.join("node_modules/.bin");
    match std::env::var("PATH") {
        Ok(path) if !path.is_empty() => format!("{}:{path}", bin.display()),
        _ => bin.display().to_string(),
    }
}
