//! One lesson: its front matter, checked, and its body: prose, cells and exercises.

use crate::body::{self, Block, Cell, Exercise, Uses};
use crate::error::{LessonError, LessonErrorKind};
use crate::front_matter::{self, Field};
use crate::markdown::render_markdown;

/// The front matter of a lesson.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonMeta {
    pub title: String,
    /// The lesson's URL segment: `/lesson/<slug>`.
    pub slug: String,
    /// One line for the lesson list.
    pub summary: String,
    /// Position in the course; lessons are listed by it.
    pub order: u32,
    /// About how long the lesson takes, in minutes.
    pub minutes: u32,
    /// Slugs of the lessons to read first.
    pub prerequisites: Vec<String>,
}

/// A parsed lesson file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lesson {
    /// Where it came from, e.g. `lessons/content/01-what-to-returns.md`.
    pub path: String,
    pub meta: LessonMeta,
    /// The Markdown after the front matter.
    pub body: String,
    /// 1-based line of the body's first line in the file.
    pub body_line: usize,
    /// The body, split into prose, cells and exercises.
    pub blocks: Vec<Block>,
}

const KNOWN_KEYS: &str = "title, slug, summary, order, minutes, prerequisites";

impl Lesson {
    /// Parses a lesson file; `path` is only used to name the file in errors.
    pub fn parse(path: &str, text: &str) -> Result<Self, LessonError> {
        let at = |line, kind| LessonError {
            path: path.to_owned(),
            line,
            kind,
        };
        let fm = front_matter::split(text).map_err(|(line, kind)| at(line, kind))?;

        let mut seen: Vec<&Field> = Vec::new();
        for field in &fm.fields {
            if !KNOWN_KEYS.split(", ").any(|k| k == field.key) {
                let key = field.key.clone();
                return Err(at(
                    field.line,
                    LessonErrorKind::UnknownKey {
                        key,
                        known: KNOWN_KEYS,
                    },
                ));
            }
            if seen.iter().any(|f| f.key == field.key) {
                return Err(at(
                    field.line,
                    LessonErrorKind::DuplicateKey {
                        key: field.key.clone(),
                    },
                ));
            }
            if field.value.is_empty() {
                return Err(at(
                    field.line,
                    LessonErrorKind::EmptyValue {
                        key: field.key.clone(),
                    },
                ));
            }
            seen.push(field);
        }
        let get = |key: &'static str| {
            seen.iter()
                .find(|f| f.key == key)
                .copied()
                .ok_or_else(|| at(1, LessonErrorKind::MissingKey { key }))
        };

        let slug = get("slug")?;
        if !is_valid_slug(&slug.value) {
            return Err(at(
                slug.line,
                LessonErrorKind::BadSlug {
                    slug: slug.value.clone(),
                },
            ));
        }
        let order = get("order")?;
        let whole = |field: &Field| {
            field.value.parse().map_err(|_| {
                at(
                    field.line,
                    LessonErrorKind::NotWholeNumber {
                        key: field.key.clone(),
                        value: field.value.clone(),
                    },
                )
            })
        };
        let order_value = whole(order)?;
        let minutes = whole(get("minutes")?)?;
        let prerequisites = seen
            .iter()
            .find(|f| f.key == "prerequisites")
            .map(|f| {
                f.value
                    .split(',')
                    .map(|s| s.trim().to_owned())
                    .filter(|s| !s.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        let blocks = body::parse(&fm.body, fm.body_line).map_err(|(line, kind)| at(line, kind))?;

        Ok(Self {
            path: path.to_owned(),
            meta: LessonMeta {
                title: get("title")?.value.clone(),
                slug: slug.value.clone(),
                summary: get("summary")?.value.clone(),
                order: order_value,
                minutes,
                prerequisites,
            },
            body: fm.body,
            body_line: fm.body_line,
            blocks,
        })
    }

    /// The body as sanitised HTML, ready to be inserted into the page: prose as HTML, each cell
    /// as a `pre > code.language-python` block (the app makes editors of them), and each
    /// exercise as a `section.exercise` holding its title and task (its `data-exercise` is its
    /// index in [`Lesson::exercises`]); recorded outputs, checks, hints and solutions stay out.
    pub fn prose_html(&self) -> String {
        let mut html = String::new();
        let mut exercises = 0;
        for block in &self.blocks {
            match block {
                Block::Prose(markdown) => html.push_str(&render_markdown(markdown)),
                Block::Cell(cell) => {
                    html.push_str(&render_markdown(&fenced("python", &cell.source)))
                }
                Block::Exercise(exercise) => {
                    html.push_str(&format!(
                        "<section class=\"exercise\" id=\"exercise-{}\" data-exercise=\"{exercises}\">",
                        exercise.id
                    ));
                    html.push_str(&render_markdown(&format!(
                        "## Exercise: {}",
                        exercise.title
                    )));
                    html.push_str(&render_markdown(&exercise.task));
                    html.push_str("</section>");
                    exercises += 1;
                }
            }
        }
        html
    }

    /// How many runnable cells the lesson has.
    pub fn cell_count(&self) -> usize {
        self.blocks
            .iter()
            .filter(|b| matches!(b, Block::Cell(_)))
            .count()
    }

    /// The lesson's cells, numbered from 1 in page order.
    pub fn cells(&self) -> impl Iterator<Item = (usize, &Cell)> {
        self.blocks
            .iter()
            .filter_map(|b| match b {
                Block::Cell(c) => Some(c),
                _ => None,
            })
            .zip(1..)
            .map(|(cell, number)| (number, cell))
    }

    /// The cells (numbered) a check of `exercise` runs first in its fresh notebook: those above
    /// it, or those its starter's `uses=` names.
    pub fn setup_of(&self, exercise: &Exercise) -> Vec<(usize, &Cell)> {
        let at = self
            .blocks
            .iter()
            .position(|b| matches!(b, Block::Exercise(e) if std::ptr::eq(e, exercise)))
            .unwrap_or(self.blocks.len());
        let above = self.blocks[..at]
            .iter()
            .filter(|b| matches!(b, Block::Cell(_)))
            .count();
        self.cells()
            .filter(|(number, _)| match &exercise.uses {
                Uses::Above => *number <= above,
                Uses::Cells(listed) => listed.contains(number),
            })
            .collect()
    }

    /// The lesson's exercises, in order.
    pub fn exercises(&self) -> impl Iterator<Item = &Exercise> {
        self.blocks.iter().filter_map(|b| match b {
            Block::Exercise(e) => Some(e),
            _ => None,
        })
    }
}

/// `text` as a fenced Markdown block of `language`, with a fence longer than any run of
/// backticks inside it.
fn fenced(language: &str, text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{fence}{language}\n{text}\n{fence}\n")
}

fn is_valid_slug(slug: &str) -> bool {
    !slug.is_empty()
        && !slug.starts_with('-')
        && !slug.ends_with('-')
        && slug
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "---\ntitle: Devices\nslug: devices\nsummary: cpu, cuda, cuda:0\norder: 3\nminutes: 12\nprerequisites: what-to-returns, dtypes\n---\n\n# Devices\n\n```python\nx = 1\n```\n\n## Exercise: E\n\nDo it.\n\n```python starter\ny = 0\n```\n\n```python check y is 1\nassert y == 1\n```\n\n```python solution\ny = 1\n```\n";

    #[test]
    fn a_well_formed_file_parses_into_meta_and_body() {
        let lesson = Lesson::parse("lessons/content/x.md", GOOD).unwrap();
        assert_eq!(
            lesson.meta,
            LessonMeta {
                title: "Devices".into(),
                slug: "devices".into(),
                summary: "cpu, cuda, cuda:0".into(),
                order: 3,
                minutes: 12,
                prerequisites: vec!["what-to-returns".into(), "dtypes".into()],
            }
        );
        assert_eq!(lesson.body_line, 9);
        assert_eq!(lesson.cell_count(), 1);
        assert_eq!(lesson.exercises().count(), 1);
        let html = lesson.prose_html();
        assert!(html.contains("<h1>Devices</h1>"));
        assert!(html.contains("<pre><code class=\"language-python\">x = 1\n</code></pre>"));
        assert!(html.contains("<section class=\"exercise\" id=\"exercise-e\" data-exercise=\"0\"><h2>Exercise: E</h2>\n<p>Do it.</p>\n</section>"), "{html}");
        // Checks and solutions stay out of the page.
        assert!(!html.contains("assert y") && !html.contains("y = 1"));
    }

    fn error(text: &str) -> String {
        Lesson::parse("lessons/content/bad.md", text)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn errors_name_the_file_and_the_line() {
        assert_eq!(
            error(&GOOD.replace("order: 3", "order: three")),
            "lessons/content/bad.md:5: `order` must be a whole number, found `three`"
        );
        assert_eq!(
            error(&GOOD.replace("slug: devices", "slug: Devices Here")),
            "lessons/content/bad.md:3: `slug` may hold only lowercase letters, digits and `-`, found `Devices Here`"
        );
        assert_eq!(
            error(&GOOD.replace("order: 3", "order: 3\ntitle: again")),
            "lessons/content/bad.md:6: front matter key `title` is given twice"
        );
        assert_eq!(
            error(&GOOD.replace("summary", "sumary")),
            "lessons/content/bad.md:4: unknown front matter key `sumary` (known keys: title, slug, summary, order, minutes, prerequisites)"
        );
        assert_eq!(
            error(&GOOD.replace("summary: cpu, cuda, cuda:0\n", "")),
            "lessons/content/bad.md:1: front matter key `summary` is missing"
        );
        assert_eq!(
            error(&GOOD.replace("title: Devices", "title:")),
            "lessons/content/bad.md:2: front matter key `title` is empty"
        );
        assert_eq!(
            error(&GOOD.replace("```python solution\ny = 1\n```\n", "")),
            "lessons/content/bad.md:16: this exercise lacks a ```python solution block"
        );
    }
}
