//! Syntax errors as CPython reports them. Astral's parser finds the error; this module words it
//! as CPython 3.11 does (the oracle: `tests/golden/syntax_errors.py` runs CPython's `compile`),
//! and first looks for the errors CPython's tokenizer raises before its parser says anything:
//! an unterminated string, a bracket never closed or closed by the wrong one, tabs and spaces
//! mixed in indentation, an unindent to no outer level.

use super::exception::ExcType;

/// Where and what a syntax error is, as CPython prints it: `line` and `column` are 1-based (the
/// column counts characters), `width` is how many carets mark it (0: none, as for an unexpected
/// indent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnosis {
    pub kind: ExcType,
    pub message: String,
    pub line: usize,
    pub column: usize,
    pub width: usize,
}

/// CPython's report of the syntax error in `text`, which Astral's parser reported as `message`
/// over the byte range `start..end`.
pub fn diagnose(text: &str, message: &str, start: usize, end: usize) -> Diagnosis {
    let tokenizer = tokenizer_error(text);
    let parser = parser_error(text, message, start, end);
    let line_of = |offset: usize| position(text, offset).0;
    // A bracket still open at the end is CPython's answer only when its parser ran past the
    // bracket's line (to the next line, or to the end); on the bracket's own line the parser's
    // error stands.
    let tokenizer = tokenizer.filter(|(at, error)| {
        !(*at == text.len()
            && error.message.ends_with("was never closed")
            && start < text.trim_end().len()
            && line_of(start) == error.line)
    });
    match (tokenizer, parser) {
        // A specific parser error on a line before the tokenizer's wins; a generic one never
        // does (CPython tokenizes the rest of the file and reports what its tokenizer finds).
        (Some((at, _)), Some((parser_at, parser))) if line_of(parser_at) < line_of(at) => parser,
        (Some((_, tokenizer)), _) => tokenizer,
        (None, Some((_, parser))) => parser,
        (None, None) => generic(text, start, end),
    }
}

/// 1-based line and character column of byte `offset`.
fn position(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..floor_char(text, offset)];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

fn floor_char(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Characters in `text[start..end]`, at least 1.
fn width(text: &str, start: usize, end: usize) -> usize {
    let (start, end) = (floor_char(text, start.min(text.len())), end.min(text.len()));
    text.get(start..floor_char(text, end.max(start)))
        .map_or(1, |s| s.chars().count())
        .max(1)
}

fn at(
    kind: ExcType,
    message: impl Into<String>,
    (line, column): (usize, usize),
    width: usize,
) -> Diagnosis {
    Diagnosis {
        kind,
        message: message.into(),
        line,
        column,
        width,
    }
}

/// "invalid syntax" at the parser's token.
fn generic(text: &str, start: usize, end: usize) -> Diagnosis {
    at(
        ExcType::SyntaxError,
        "invalid syntax",
        position(text, start),
        width(text, start, end),
    )
}

/// The text of 1-based `line`.
fn line_text(text: &str, line: usize) -> &str {
    text.split('\n').nth(line - 1).unwrap_or("")
}

/// The parser's error in CPython's words, and the byte offset it is at; `None` for the errors
/// CPython words generically ("invalid syntax"), which a tokenizer error anywhere replaces.
fn parser_error(text: &str, message: &str, start: usize, end: usize) -> Option<(usize, Diagnosis)> {
    let (line, column) = position(text, start);
    let here = line_text(text, line);
    if let Some(after) = message.strip_prefix("Expected an indented block after ") {
        // CPython: "expected an indented block after 'if' statement on line 1", at the first
        // token of the line that should have been indented (or the end of the header at EOF).
        let header = (1..line)
            .rev()
            .find(|&l| !line_text(text, l).trim().is_empty())
            .unwrap_or(line);
        // Astral says "`class` definition" and "`else` clause"; CPython "class definition"
        // and "'else' statement".
        let what = if after.ends_with("definition") {
            after.replace('`', "")
        } else {
            after.replace('`', "'").replace(" clause", " statement")
        };
        let message = format!("expected an indented block after {what} on line {header}");
        let token = here.trim_start();
        let (diagnosis_line, column, width) = if token.is_empty() || header == line {
            let header_text = line_text(text, header).trim_end();
            (header, header_text.chars().count() + 1, 1)
        } else {
            let indent = here.chars().count() - token.chars().count();
            let word = token
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .count()
                .max(1);
            (line, indent + 1, word)
        };
        return Some((
            start,
            at(
                ExcType::IndentationError,
                message,
                (diagnosis_line, column),
                width,
            ),
        ));
    }
    if message == "Unexpected indentation" {
        return Some((
            start,
            at(
                ExcType::IndentationError,
                "unexpected indent",
                (line, column),
                0,
            ),
        ));
    }
    if message.starts_with("Expected `:`") {
        return Some(if message.ends_with("found newline") {
            let header = here.trim_end();
            (
                start,
                at(
                    ExcType::SyntaxError,
                    "expected ':'",
                    (line, header.chars().count() + 1),
                    1,
                ),
            )
        } else {
            (start, generic(text, start, end))
        });
    }
    if message.starts_with("Expected `,`") && depth_at(text, start) > 0 {
        // CPython's hint covers the two expressions a comma should separate.
        let previous = previous_token_start(text, start);
        if position(text, previous).0 == line {
            return Some((
                start,
                at(
                    ExcType::SyntaxError,
                    "invalid syntax. Perhaps you forgot a comma?",
                    position(text, previous),
                    width(text, previous, end),
                ),
            ));
        }
    }
    if message == "Simple statements must be separated by newlines or semicolons" {
        let statement = here.trim();
        if let Some(rest) = statement.strip_prefix("print")
            && rest.starts_with(char::is_whitespace)
            && !rest.trim_start().starts_with(['(', '=', '.', '['])
        {
            let indent = here.chars().count() - here.trim_start().chars().count();
            return Some((
                start,
                at(
                    ExcType::SyntaxError,
                    "Missing parentheses in call to 'print'. Did you mean print(...)?",
                    (line, indent + 1),
                    statement.chars().count(),
                ),
            ));
        }
    }
    if message == "Invalid assignment target" {
        let target = text.get(start..end).unwrap_or("").trim();
        let what = if target.ends_with(')') {
            "function call"
        } else if target.starts_with(|c: char| c.is_ascii_digit() || c == '"' || c == '\'')
            || ["True", "False", "None"].contains(&target)
        {
            "literal"
        } else {
            "expression"
        };
        return Some((
            start,
            at(
                ExcType::SyntaxError,
                format!("cannot assign to {what} here. Maybe you meant '==' instead of '='?"),
                (line, column),
                width(text, start, end),
            ),
        ));
    }
    if message.starts_with("Expected `except` or `finally`") {
        return Some((
            start,
            at(
                ExcType::SyntaxError,
                "expected 'except' or 'finally' block",
                (line, column),
                width(text, start, end),
            ),
        ));
    }
    None
}

/// How many brackets are open at byte `offset` (strings and comments skipped).
fn depth_at(text: &str, offset: usize) -> usize {
    let mut depth = 0usize;
    scan(text, |event, at| {
        if at >= offset {
            return false;
        }
        match event {
            Scanned::Open(_) => depth += 1,
            Scanned::Close(_) => depth = depth.saturating_sub(1),
            _ => {}
        }
        true
    });
    depth
}

/// Where the token before byte `offset` starts: back over spaces, then over a name, a number or
/// a string.
fn previous_token_start(text: &str, offset: usize) -> usize {
    let before = text[..floor_char(text, offset.min(text.len()))].trim_end();
    let mut start = before.len();
    let bytes = before.as_bytes();
    if let Some(&last) = bytes.last() {
        if last == b'\'' || last == b'"' {
            // Back to the string's opening quote (adjacent strings join: `'a' 'b'`).
            let mut i = before.len() - 1;
            loop {
                match before[..i].rfind(last as char) {
                    Some(open) => {
                        start = open;
                        let rest = before[..open].trim_end();
                        if rest.ends_with(['\'', '"']) {
                            i = rest.len() - 1;
                            continue;
                        }
                    }
                    None => start = 0,
                }
                break;
            }
        } else {
            while start > 0
                && (bytes[start - 1].is_ascii_alphanumeric()
                    || bytes[start - 1] == b'_'
                    || bytes[start - 1] == b'.')
            {
                start -= 1;
            }
        }
    }
    start
}

/// What the tokenizer scan meets.
enum Scanned {
    Open(char),
    Close(char),
    /// A string that never ends: whether triple-quoted.
    Unterminated(bool),
    /// The start of a logical line's first token, with its indentation.
    Indent(String),
}

/// Walks `text` as CPython's tokenizer does, as far as brackets, strings, comments and
/// indentation go, telling `visit` what it meets and where (a byte offset); `visit` returns
/// false to stop.
fn scan(text: &str, mut visit: impl FnMut(Scanned, usize) -> bool) {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut depth = 0usize;
    let mut line_start = true;
    while i < bytes.len() {
        let c = bytes[i];
        if line_start {
            line_start = false;
            let indent_end = i + text[i..].len() - text[i..].trim_start_matches([' ', '\t']).len();
            let rest = &bytes[indent_end..];
            let blank = rest.is_empty() || matches!(rest[0], b'\n' | b'\r' | b'#');
            if depth == 0
                && !blank
                && !visit(Scanned::Indent(text[i..indent_end].to_owned()), indent_end)
            {
                return;
            }
            i = indent_end;
            continue;
        }
        match c {
            b'\n' => {
                line_start = depth == 0;
                i += 1;
            }
            b'\\' if bytes.get(i + 1) == Some(&b'\n') => i += 2,
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                if !visit(Scanned::Open(c as char), i) {
                    return;
                }
                i += 1;
            }
            b')' | b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if !visit(Scanned::Close(c as char), i) {
                    return;
                }
                i += 1;
            }
            b'\'' | b'"' => {
                // A prefix (r, b, f, u, rb, …) is part of the string: it starts there.
                let mut start = i;
                while start > 0 && bytes[start - 1].is_ascii_alphabetic() && i - start < 2 {
                    start -= 1;
                }
                let triple = bytes[i..].starts_with(&[c, c, c]);
                let quote = if triple { 3 } else { 1 };
                let mut j = i + quote;
                let closed = loop {
                    if j >= bytes.len() {
                        break false;
                    }
                    match bytes[j] {
                        b'\\' => j += 2,
                        b'\n' if !triple => break false,
                        b if b == c && (!triple || bytes[j..].starts_with(&[c, c, c])) => {
                            j += quote;
                            break true;
                        }
                        _ => j += 1,
                    }
                };
                if !closed {
                    visit(Scanned::Unterminated(triple), start);
                    return;
                }
                i = j;
            }
            _ => i += 1,
        }
    }
}

/// The first error CPython's tokenizer raises in `text`, and where.
fn tokenizer_error(text: &str) -> Option<(usize, Diagnosis)> {
    let mut open: Vec<(char, usize)> = Vec::new();
    // Indentation levels as columns with tabs to 8 and with tabs as 1, as CPython compares them.
    let mut levels: Vec<(usize, usize)> = vec![(0, 0)];
    let mut found = None;
    let lines_in = |text: &str| text.trim_end_matches('\n').matches('\n').count() + 1;
    scan(text, |event, offset| {
        let error = match event {
            Scanned::Open(c) => {
                open.push((c, offset));
                None
            }
            Scanned::Close(c) => match open.pop() {
                None => Some(at(
                    ExcType::SyntaxError,
                    format!("unmatched '{c}'"),
                    position(text, offset),
                    1,
                )),
                Some((o, opened)) if pair(o) != c => {
                    let (line, _) = position(text, offset);
                    let (open_line, _) = position(text, opened);
                    let on = if open_line == line {
                        String::new()
                    } else {
                        format!(" on line {open_line}")
                    };
                    Some(at(
                        ExcType::SyntaxError,
                        format!(
                            "closing parenthesis '{c}' does not match opening parenthesis '{o}'{on}"
                        ),
                        position(text, offset),
                        1,
                    ))
                }
                Some(_) => None,
            },
            Scanned::Unterminated(triple) => {
                let (line, _) = position(text, offset);
                let message = if triple {
                    format!(
                        "unterminated triple-quoted string literal (detected at line {})",
                        lines_in(text)
                    )
                } else {
                    format!("unterminated string literal (detected at line {line})")
                };
                Some(at(ExcType::SyntaxError, message, position(text, offset), 1))
            }
            Scanned::Indent(indent) => {
                let col8 = indent
                    .chars()
                    .fold(0, |c, ch| if ch == '\t' { (c / 8 + 1) * 8 } else { c + 1 });
                let col1 = indent.chars().count();
                let (top8, top1) = levels.last().copied().unwrap_or((0, 0));
                let tab_error = || {
                    at(
                        ExcType::TabError,
                        "inconsistent use of tabs and spaces in indentation",
                        position(text, offset),
                        0,
                    )
                };
                if col8 > top8 {
                    if col1 <= top1 {
                        Some(tab_error())
                    } else {
                        levels.push((col8, col1));
                        None
                    }
                } else if col8 == top8 {
                    (col1 != top1).then(tab_error)
                } else {
                    while levels.last().is_some_and(|(l8, _)| col8 < *l8) {
                        levels.pop();
                    }
                    match levels.last() {
                        Some(&(l8, l1)) if l8 == col8 => (l1 != col1).then(tab_error),
                        _ => {
                            let (line, _) = position(text, offset);
                            let end = line_text(text, line).trim_end().chars().count() + 1;
                            Some(at(
                                ExcType::IndentationError,
                                "unindent does not match any outer indentation level",
                                (line, end),
                                1,
                            ))
                        }
                    }
                }
            }
        };
        match error {
            Some(error) => {
                found = Some((offset, error));
                false
            }
            None => true,
        }
    });
    if found.is_none()
        && let Some(&(c, opened)) = open.last()
    {
        found = Some((
            text.len(),
            at(
                ExcType::SyntaxError,
                format!("'{c}' was never closed"),
                position(text, opened),
                1,
            ),
        ));
    }
    found
}

fn pair(open: char) -> char {
    match open {
        '(' => ')',
        '[' => ']',
        _ => '}',
    }
}
