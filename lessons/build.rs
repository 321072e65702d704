//! Embeds every lesson file in `content/` into the crate, so the web app and the native tools
//! carry the default lesson set without reading the disk at run time.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    // Read at run time, not baked in with `env!`: a shared target directory reuses this build
    // script's binary across checkouts, and each must embed its own lessons.
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest_dir).join("content");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.sort();

    let mut out = String::from("&[\n");
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        writeln!(
            out,
            "    crate::LessonFile {{ path: {:?}, text: include_str!({:?}) }},",
            format!("lessons/content/{name}"),
            path.display()
        )
        .unwrap();
    }
    out.push(']');
    let target = Path::new(&std::env::var("OUT_DIR").unwrap()).join("embedded.rs");
    std::fs::write(target, out).unwrap();
}
