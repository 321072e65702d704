//! One lesson: its front matter, checked, and its Markdown body.

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
}

const KNOWN_KEYS: &str = "title, slug, summary, order";

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
        let order_value = order.value.parse().map_err(|_| {
            at(
                order.line,
                LessonErrorKind::BadOrder {
                    value: order.value.clone(),
                },
            )
        })?;

        Ok(Self {
            path: path.to_owned(),
            meta: LessonMeta {
                title: get("title")?.value.clone(),
                slug: slug.value.clone(),
                summary: get("summary")?.value.clone(),
                order: order_value,
            },
            body: fm.body,
            body_line: fm.body_line,
        })
    }

    /// The body as sanitised HTML, ready to be inserted into the page.
    pub fn prose_html(&self) -> String {
        render_markdown(&self.body)
    }

    /// How many runnable cells (```python blocks) the lesson has.
    pub fn cell_count(&self) -> usize {
        crate::markdown::python_blocks(&self.body)
    }
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

    const GOOD: &str = "---\ntitle: Devices\nslug: devices\nsummary: cpu, cuda, cuda:0\norder: 3\n---\n\n# Devices\n";

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
            }
        );
        assert_eq!(lesson.body_line, 7);
        assert!(lesson.prose_html().contains("<h1>Devices</h1>"));
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
            "lessons/content/bad.md:4: unknown front matter key `sumary` (known keys: title, slug, summary, order)"
        );
        assert_eq!(
            error(&GOOD.replace("summary: cpu, cuda, cuda:0\n", "")),
            "lessons/content/bad.md:1: front matter key `summary` is missing"
        );
        assert_eq!(
            error(&GOOD.replace("title: Devices", "title:")),
            "lessons/content/bad.md:2: front matter key `title` is empty"
        );
    }
}
