//! The core of Python's `re` (CPython's `_sre`): patterns compiled by `fancy-regex` (a
//! backtracking engine, as CPython's, for lookaround and backreferences, over the `regex`
//! crate's automata), and a search that answers with each group's span in characters, as
//! Python counts them. `py/re.py` builds `Pattern`, `Match`, `findall`, `sub`, `split`, … on it
//! through `_lab.re_*`.

use std::rc::Rc;

use crate::python::args::Args;
use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

/// The `_lab` functions this module answers.
pub const NATIVES: &[&str] = &["re_compile", "re_search"];

/// Python's flag bits (`re.IGNORECASE`, …).
const IGNORECASE: i64 = 2;
const MULTILINE: i64 = 8;
const DOTALL: i64 = 16;
const UNICODE: i64 = 32;
const VERBOSE: i64 = 64;
const ASCII: i64 = 256;

/// A compiled pattern: for searching, and with `\z` after it for `fullmatch`.
pub struct Compiled {
    search: fancy_regex::Regex,
    full: fancy_regex::Regex,
}

fn error(message: String) -> PyException {
    // `re.py` turns it into `re.error`.
    PyException::new(ExcType::ValueError, message)
}

/// Python's pattern syntax as `fancy-regex`'s: `\Z` is `\z`, `{,n}` is `{0,n}`, and a class's
/// `[`, `&` and `~` are literal.
fn translate(pattern: &str) -> Result<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len());
    let mut i = 0;
    let mut in_class = false;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if i + 1 < chars.len() => {
                let next = chars[i + 1];
                match next {
                    'Z' if !in_class => out.push_str("\\z"),
                    _ => {
                        out.push('\\');
                        out.push(next);
                    }
                }
                i += 2;
                continue;
            }
            '[' if !in_class => {
                in_class = true;
                out.push('[');
                i += 1;
                // A `]` first (after `^`) is itself, in both syntaxes.
                if chars.get(i) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                if chars.get(i) == Some(&']') {
                    out.push_str("\\]");
                    i += 1;
                }
                continue;
            }
            ']' if in_class => in_class = false,
            // Inside a class Python takes these as themselves; the regex crate nests classes
            // and has set operations (`[a[b]]`, `&&`, `~~`).
            '[' | '&' | '~' if in_class => {
                out.push('\\');
                out.push(c);
                i += 1;
                continue;
            }
            '{' if !in_class && chars.get(i + 1) == Some(&',') => {
                out.push_str("{0");
                i += 1;
                continue;
            }
            _ => {}
        }
        out.push(c);
        i += 1;
    }
    Ok(out)
}

fn compile(pattern: &str, flags: i64) -> Result<Compiled> {
    if flags & ASCII != 0 {
        return Err(PyException::unsupported("re.ASCII"));
    }
    let known = IGNORECASE | MULTILINE | DOTALL | UNICODE | VERBOSE;
    if flags & !known != 0 {
        return Err(PyException::unsupported(&format!(
            "re flags {:#x}",
            flags & !known
        )));
    }
    let body = translate(pattern)?;
    let build = |text: &str| {
        fancy_regex::RegexBuilder::new(text)
            .case_insensitive(flags & IGNORECASE != 0)
            .multi_line(flags & MULTILINE != 0)
            .dot_matches_new_line(flags & DOTALL != 0)
            .ignore_whitespace(flags & VERBOSE != 0)
            .build()
            .map_err(|e| error(e.to_string()))
    };
    Ok(Compiled {
        search: build(&body)?,
        full: build(&format!("(?:{body})\\z"))?,
    })
}

/// A pattern as `re.compile(pattern, flags).match(text)` tries it (`warnings`' filters do):
/// anchored at the start of the text.
pub fn matches_start(
    pattern: &str,
    ignore_case: bool,
) -> Result<tolab_engine::warnings::MessageMatcher> {
    let body = translate(pattern)?;
    let regex = fancy_regex::RegexBuilder::new(&format!("\\A(?:{body})"))
        .case_insensitive(ignore_case)
        .build()
        .map_err(|e| error(e.to_string()))?;
    Ok(Rc::new(move |text: &str| {
        regex.is_match(text).unwrap_or(false)
    }))
}

/// Byte offsets of a string's characters, for turning Python's character positions into the
/// crate's byte offsets and back.
struct Offsets<'a> {
    text: &'a str,
    ascii: bool,
}

impl Offsets<'_> {
    fn byte(&self, char_at: usize) -> usize {
        if self.ascii {
            return char_at.min(self.text.len());
        }
        self.text
            .char_indices()
            .nth(char_at)
            .map_or(self.text.len(), |(b, _)| b)
    }

    fn char(&self, byte_at: usize) -> usize {
        if self.ascii {
            byte_at
        } else {
            self.text[..byte_at].chars().count()
        }
    }
}

/// `_lab.re_*(...)`.
pub fn call(name: &str, args: &Args) -> Result<Value> {
    let arg = |i: usize| args.positional.get(i).cloned().unwrap_or(Value::None);
    let int = |i: usize| match arg(i) {
        Value::Int(n) => n,
        _ => 0,
    };
    Ok(match name {
        // `re_compile(pattern, flags)`: the compiled pattern, its group count and names.
        "re_compile" => {
            let Value::Str(pattern) = &arg(0) else {
                return Err(PyException::new(
                    ExcType::TypeError,
                    "first argument must be string or compiled pattern",
                ));
            };
            let compiled = compile(pattern, int(1))?;
            let groups = compiled.search.captures_len() as i64 - 1;
            let names: Vec<(Value, Value)> = compiled
                .search
                .capture_names()
                .enumerate()
                .filter_map(|(i, n)| n.map(|n| (Value::str(n), Value::Int(i as i64))))
                .collect();
            Value::Tuple(Rc::from(vec![
                Value::Regex(Rc::new(compiled)),
                Value::Int(groups),
                Value::Dict(Rc::new(std::cell::RefCell::new(names))),
            ]))
        }
        // `re_search(compiled, string, pos, endpos, mode)`: mode 0 searches, 1 matches at
        // `pos`, 2 matches `pos..endpos` whole. None, or each group's (start, end) or None.
        "re_search" => {
            let (Value::Regex(compiled), Value::Str(text)) = (&arg(0), &arg(1)) else {
                return Err(PyException::new(
                    ExcType::TypeError,
                    "expected string or bytes-like object",
                ));
            };
            let offsets = Offsets {
                text,
                ascii: text.is_ascii(),
            };
            let end = offsets.byte(int(3).max(0) as usize);
            let start = offsets.byte(int(2).max(0) as usize).min(end);
            let mode = int(4);
            let regex = if mode == 2 {
                &compiled.full
            } else {
                &compiled.search
            };
            let found = regex.captures_from_pos(&text[..end], start).map_err(|e| {
                PyException::new(
                    ExcType::RuntimeError,
                    format!("this regular expression backtracks too much for the lab: {e}"),
                )
            })?;
            let Some(found) = found else {
                return Ok(Value::None);
            };
            if mode != 0 && found.get(0).is_some_and(|m| m.start() != start) {
                return Ok(Value::None);
            }
            let spans: Vec<Value> = found
                .iter()
                .map(|group| match group {
                    Some(m) => Value::Tuple(Rc::from(vec![
                        Value::Int(offsets.char(m.start()) as i64),
                        Value::Int(offsets.char(m.end()) as i64),
                    ])),
                    None => Value::None,
                })
                .collect();
            Value::Tuple(spans.into())
        }
        other => {
            return Err(PyException::new(
                ExcType::AttributeError,
                format!("module '_lab' has no attribute '{other}'"),
            ));
        }
    })
}
