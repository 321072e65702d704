//! Errors in lesson files, each pointing at a file and a line.

use thiserror::Error;

/// A problem in a lesson file. Displays as `path:line: what is wrong`, the way compilers do, so
/// an instructor can jump straight to it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{path}:{line}: {kind}")]
pub struct LessonError {
    pub path: String,
    /// 1-based line number.
    pub line: usize,
    pub kind: LessonErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LessonErrorKind {
    #[error("a lesson file must start with a front matter block opened by a `---` line")]
    MissingFrontMatter,
    #[error("the front matter block opened here is never closed by a `---` line")]
    UnclosedFrontMatter,
    #[error("expected `key: value` in the front matter, found `{text}`")]
    MalformedLine { text: String },
    #[error("unknown front matter key `{key}` (known keys: {known})")]
    UnknownKey { key: String, known: &'static str },
    #[error("front matter key `{key}` is given twice")]
    DuplicateKey { key: String },
    #[error("front matter key `{key}` is missing")]
    MissingKey { key: &'static str },
    #[error("front matter key `{key}` is empty")]
    EmptyValue { key: String },
    #[error("a quoted value must end with a closing `\"`: {text}")]
    UnterminatedQuote { text: String },
    #[error("`{key}` must be a whole number, found `{value}`")]
    NotWholeNumber { key: String, value: String },
    #[error("`slug` may hold only lowercase letters, digits and `-`, found `{slug}`")]
    BadSlug { slug: String },
    #[error("slug `{slug}` is already used by {other_path}")]
    DuplicateSlug { slug: String, other_path: String },
    #[error("prerequisite `{slug}` is not the slug of any lesson")]
    UnknownPrerequisite { slug: String },
    #[error("this code block is never closed by a matching fence")]
    UnclosedFence,
    #[error("an ```output block must follow a ```python cell directly (only blank lines between)")]
    OutputWithoutCell,
    #[error(
        "```python starter, check, solution and ```hint blocks belong in a `## Exercise: <title>` section"
    )]
    OutsideExercise,
    #[error(
        "an exercise holds starter, check, hint and solution blocks, not plain ```python cells or outputs"
    )]
    CellInExercise,
    #[error("a check needs a message: ```python check <what it checks>")]
    CheckWithoutMessage,
    #[error("an exercise has one {what} block")]
    Twice { what: &'static str },
    #[error("this exercise lacks {what}")]
    IncompleteExercise { what: &'static str },
    #[error(
        "`{text}`: a starter's `uses=` lists cell numbers in increasing order (`uses=1,3`) or is `uses=none`"
    )]
    BadUses { text: String },
    #[error("`uses=` names cell {cell}, but only {above} cells come before this exercise")]
    UsesCellBelow { cell: usize, above: usize },
}
