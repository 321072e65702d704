//! The lesson set that ships with the lab: every file in `lessons/content/` must parse. A broken
//! file fails here with its path and line, instead of failing in a learner's browser.

use tolab_lessons::{default_catalog, embedded_files};

#[test]
fn every_embedded_lesson_file_parses() {
    match default_catalog() {
        Ok(catalog) => assert_eq!(catalog.lessons().len(), embedded_files().len()),
        Err(errors) => {
            let report: Vec<String> = errors.iter().map(ToString::to_string).collect();
            panic!("broken lesson files:\n{}", report.join("\n"));
        }
    }
}

#[test]
fn the_default_set_holds_the_course_in_order_each_lesson_with_an_exercise() {
    let catalog = default_catalog().unwrap();
    let slugs: Vec<&str> = catalog
        .lessons()
        .iter()
        .map(|l| l.meta.slug.as_str())
        .collect();
    assert_eq!(
        slugs,
        [
            "what-to-returns",
            "seven-steps",
            "devices",
            "autograd-across-devices",
            "graph-breaks",
            "same-device",
            "dtypes",
            "modules",
            "optimizers-and-checkpoints",
            "feeding-the-gpu",
            "sync-points",
            "gpu-memory",
            "several-gpus",
            "mixed-precision",
            "device-side-asserts",
            "claims-tested",
        ]
    );
    // Every lesson ends with practice.
    for lesson in catalog.lessons() {
        assert!(
            lesson.exercises().count() >= 1,
            "{} has no exercise",
            lesson.path
        );
    }
    let lesson = catalog.find("devices").unwrap();
    assert_eq!(
        lesson.meta.title,
        "Devices: strings, torch.device and indices"
    );
    assert!(lesson.prose_html().contains("<h2>The current device</h2>"));
}

#[test]
fn a_file_dropped_into_content_is_embedded_without_code_changes() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("lessons/content/{name}"))
        .collect();
    on_disk.sort();
    let embedded: Vec<&str> = embedded_files().iter().map(|f| f.path).collect();
    assert_eq!(embedded, on_disk);
}
