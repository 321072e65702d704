//! The lab's lessons: the lesson file format (`FORMAT.md`), its parser, Markdown rendering with
//! sanitised HTML, and the default lesson set embedded from `content/`.
//!
//! A lesson file is Markdown with a front matter block:
//!
//! ```text
//! ---
//! title: What .to() returns
//! slug: what-to-returns
//! summary: A new tensor, or the same one.
//! order: 1
//! ---
//! Prose in Markdown…
//! ```

mod body;
mod catalog;
mod error;
mod front_matter;
mod lesson;
mod markdown;

pub use body::{Block, Cell, Check, Exercise, Uses};
pub use catalog::Catalog;
pub use error::{LessonError, LessonErrorKind};
pub use lesson::{Lesson, LessonMeta};
pub use markdown::render_markdown;

/// A lesson file's path (relative to the repository root) and its text.
#[derive(Debug, Clone, Copy)]
pub struct LessonFile {
    pub path: &'static str,
    pub text: &'static str,
}

/// Every file in `lessons/content/`, as it was when the crate was built, in file-name order.
pub fn embedded_files() -> &'static [LessonFile] {
    include!(concat!(env!("OUT_DIR"), "/embedded.rs"))
}

/// The default lesson set: every embedded lesson, parsed and ordered.
pub fn default_catalog() -> Result<Catalog, Vec<LessonError>> {
    Catalog::from_files(embedded_files().iter().map(|f| (f.path, f.text)))
}
