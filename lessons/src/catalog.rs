//! The set of lessons the lab offers, in course order, with unique slugs.

use crate::error::{LessonError, LessonErrorKind};
use crate::lesson::Lesson;

/// Lessons ordered by their `order` (then by path, so ties are stable).
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    lessons: Vec<Lesson>,
}

impl Catalog {
    /// Parses every `(path, text)` file. All errors are collected, so an instructor sees every broken
    /// file at once, not one per build.
    pub fn from_files<'a>(
        files: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Self, Vec<LessonError>> {
        let mut lessons: Vec<Lesson> = Vec::new();
        // Each lesson's file text, for the lines of later errors.
        let mut texts: Vec<&str> = Vec::new();
        let mut errors = Vec::new();
        for (path, text) in files {
            match Lesson::parse(path, text) {
                Ok(lesson) => match lessons.iter().find(|l| l.meta.slug == lesson.meta.slug) {
                    Some(first) => errors.push(LessonError {
                        path: lesson.path.clone(),
                        line: key_line(text, "slug:"),
                        kind: LessonErrorKind::DuplicateSlug {
                            slug: lesson.meta.slug.clone(),
                            other_path: first.path.clone(),
                        },
                    }),
                    None => {
                        lessons.push(lesson);
                        texts.push(text);
                    }
                },
                Err(e) => errors.push(e),
            }
        }
        for (lesson, text) in lessons.iter().zip(&texts) {
            for prerequisite in &lesson.meta.prerequisites {
                if !lessons.iter().any(|l| &l.meta.slug == prerequisite) {
                    errors.push(LessonError {
                        path: lesson.path.clone(),
                        line: key_line(text, "prerequisites:"),
                        kind: LessonErrorKind::UnknownPrerequisite {
                            slug: prerequisite.clone(),
                        },
                    });
                }
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        lessons.sort_by(|a, b| (a.meta.order, &a.path).cmp(&(b.meta.order, &b.path)));
        Ok(Self { lessons })
    }

    /// The lessons in course order.
    pub fn lessons(&self) -> &[Lesson] {
        &self.lessons
    }

    /// The lesson at `/lesson/<slug>`, if there is one.
    pub fn find(&self, slug: &str) -> Option<&Lesson> {
        self.lessons.iter().find(|l| l.meta.slug == slug)
    }
}

/// The line of front matter key `key` (with its colon) in a file already known to parse.
fn key_line(text: &str, key: &str) -> usize {
    text.lines()
        .position(|l| l.trim_start().starts_with(key))
        .map_or(1, |i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(slug: &str, order: u32) -> String {
        format!(
            "---\ntitle: T {slug}\nslug: {slug}\nsummary: S\norder: {order}\nminutes: 5\n---\nbody\n"
        )
    }

    #[test]
    fn lessons_are_listed_in_course_order() {
        let (a, b, c) = (file("late", 9), file("early", 1), file("middle", 5));
        let catalog = Catalog::from_files([
            ("a.md", a.as_str()),
            ("b.md", b.as_str()),
            ("c.md", c.as_str()),
        ])
        .unwrap();
        let slugs: Vec<_> = catalog
            .lessons()
            .iter()
            .map(|l| l.meta.slug.as_str())
            .collect();
        assert_eq!(slugs, ["early", "middle", "late"]);
        assert_eq!(
            catalog.find("middle").map(|l| l.path.as_str()),
            Some("c.md")
        );
        assert!(catalog.find("missing").is_none());
    }

    #[test]
    fn every_broken_file_is_reported_and_duplicate_slugs_name_both_files() {
        let (a, b) = (file("same", 1), file("same", 2));
        let errors = Catalog::from_files([
            ("a.md", a.as_str()),
            ("b.md", b.as_str()),
            ("c.md", "no front matter"),
        ])
        .unwrap_err();
        let texts: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            texts,
            [
                "b.md:3: slug `same` is already used by a.md",
                "c.md:1: a lesson file must start with a front matter block opened by a `---` line",
            ]
        );
    }

    #[test]
    fn a_prerequisite_must_be_a_lesson() {
        let known = file("first", 1);
        let later =
            file("later", 2).replace("minutes: 5", "minutes: 5\nprerequisites: first, nowhere");
        let errors =
            Catalog::from_files([("a.md", known.as_str()), ("b.md", later.as_str())]).unwrap_err();
        let texts: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            texts,
            ["b.md:7: prerequisite `nowhere` is not the slug of any lesson"]
        );
    }
}
