//! Lists the conformance programs (`tests/conformance/*.py` with their `.out`) for the crate's
//! tests, embedded, so the browser test (which cannot read the disk) runs the very same ones.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest_dir).join("../tests/conformance");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut programs: Vec<_> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "py"))
                .filter(|p| p.with_extension("out").exists())
                .collect()
        })
        .unwrap_or_default();
    programs.sort();
    let mut out = String::from("&[\n");
    for path in &programs {
        let expected = path.with_extension("out");
        println!("cargo:rerun-if-changed={}", path.display());
        println!("cargo:rerun-if-changed={}", expected.display());
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        writeln!(
            out,
            "    ({name:?}, include_str!({:?}), include_str!({:?})),",
            path.display(),
            expected.display()
        )
        .expect("writing to a String");
    }
    out.push_str("]\n");
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(Path::new(&out_dir).join("conformance_programs.rs"), out)
        .expect("OUT_DIR is writable");
}
