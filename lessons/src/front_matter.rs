//! The front matter block: `key: value` lines between two `---` lines at the top of a file.
//!
//! Deliberately a small subset of YAML (one scalar per key, optionally double-quoted), so that
//! every mistake gets a precise message instead of a YAML surprise.

use crate::error::LessonErrorKind;

/// One `key: value` line, with its 1-based line number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Field {
    pub key: String,
    pub value: String,
    pub line: usize,
}

/// The fields of the front matter and where the body starts.
#[derive(Debug)]
pub(crate) struct FrontMatter {
    pub fields: Vec<Field>,
    /// The body: everything after the closing `---`.
    pub body: String,
    /// 1-based line number of the body's first line.
    pub body_line: usize,
}

/// Splits a file into front matter and body. Errors carry the 1-based line they refer to.
pub(crate) fn split(text: &str) -> Result<FrontMatter, (usize, LessonErrorKind)> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_end()));
    match lines.next() {
        Some((_, "---")) => {}
        _ => return Err((1, LessonErrorKind::MissingFrontMatter)),
    }
    let mut fields = Vec::new();
    for (line, text_line) in lines.by_ref() {
        if text_line == "---" {
            let body: Vec<&str> = text.lines().skip(line).collect();
            return Ok(FrontMatter {
                fields,
                body: body.join("\n"),
                body_line: line + 1,
            });
        }
        if text_line.trim().is_empty() || text_line.trim_start().starts_with('#') {
            continue;
        }
        let (key, raw) = text_line.split_once(':').ok_or_else(|| {
            (
                line,
                LessonErrorKind::MalformedLine {
                    text: text_line.to_owned(),
                },
            )
        })?;
        let key = key.trim();
        if key.is_empty() || key.contains(char::is_whitespace) {
            return Err((
                line,
                LessonErrorKind::MalformedLine {
                    text: text_line.to_owned(),
                },
            ));
        }
        let value = unquote(raw.trim()).map_err(|kind| (line, kind))?;
        fields.push(Field {
            key: key.to_owned(),
            value,
            line,
        });
    }
    Err((1, LessonErrorKind::UnclosedFrontMatter))
}

/// A value is plain text, or a double-quoted string with `\"` and `\\` escapes (for values that
/// start with a quote or hold a `#`).
fn unquote(raw: &str) -> Result<String, LessonErrorKind> {
    let Some(inner) = raw.strip_prefix('"') else {
        return Ok(raw.to_owned());
    };
    let unterminated = || LessonErrorKind::UnterminatedQuote {
        text: raw.to_owned(),
    };
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' if chars.as_str().trim().is_empty() => return Ok(out),
            '"' => return Err(unterminated()),
            '\\' => out.push(chars.next().ok_or_else(unterminated)?),
            c => out.push(c),
        }
    }
    Err(unterminated())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_body_are_split_with_their_line_numbers() {
        let fm = split("---\ntitle: A: b\n\nslug: \"x \\\"y\\\"\"\n---\n# Body\ntext\n").unwrap();
        assert_eq!(
            fm.fields,
            vec![
                Field {
                    key: "title".into(),
                    value: "A: b".into(),
                    line: 2
                },
                Field {
                    key: "slug".into(),
                    value: "x \"y\"".into(),
                    line: 4
                },
            ]
        );
        assert_eq!(fm.body, "# Body\ntext");
        assert_eq!(fm.body_line, 6);
    }

    #[test]
    fn a_file_without_an_opening_line_is_rejected_at_line_1() {
        assert_eq!(
            split("title: x\n").unwrap_err(),
            (1, LessonErrorKind::MissingFrontMatter)
        );
    }

    #[test]
    fn an_unclosed_block_is_rejected() {
        assert_eq!(
            split("---\ntitle: x\n").unwrap_err().1,
            LessonErrorKind::UnclosedFrontMatter
        );
    }

    #[test]
    fn a_line_without_a_colon_is_rejected_at_its_line() {
        let (line, kind) = split("---\ntitle: x\nno colon here\n---\n").unwrap_err();
        assert_eq!(line, 3);
        assert_eq!(
            kind,
            LessonErrorKind::MalformedLine {
                text: "no colon here".into()
            }
        );
    }

    #[test]
    fn an_unterminated_quote_is_rejected() {
        let (line, kind) = split("---\ntitle: \"open\n---\n").unwrap_err();
        assert_eq!(line, 2);
        assert!(matches!(kind, LessonErrorKind::UnterminatedQuote { .. }));
    }
}
