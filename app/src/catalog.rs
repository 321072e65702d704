//! The lesson set the app offers: the embedded default catalog, parsed once.

use std::sync::OnceLock;

use tolab_lessons::{Catalog, LessonError};

/// The embedded lessons, or every error that stopped them from loading. `cargo xtask test`
/// rejects broken lesson files, so the error side is a safety net, shown as a page, never a panic.
pub fn catalog() -> &'static Result<Catalog, Vec<LessonError>> {
    static CATALOG: OnceLock<Result<Catalog, Vec<LessonError>>> = OnceLock::new();
    CATALOG.get_or_init(tolab_lessons::default_catalog)
}
