//! The methods of `str`, with Python's arguments (`strip(chars)`, `split(sep, maxsplit)`,
//! `startswith(tuple, start, end)`, `center(width, fillchar)`, …) and errors. Positions are
//! in characters, as Python counts them.

use super::args::Args;
use super::exception::{ExcType, PyException};
use super::value::Value;

type Result<T> = std::result::Result<T, PyException>;

/// Every method `str` has here.
pub(crate) const METHODS: &[&str] = &[
    "encode",
    "upper",
    "lower",
    "casefold",
    "capitalize",
    "title",
    "swapcase",
    "strip",
    "lstrip",
    "rstrip",
    "split",
    "rsplit",
    "splitlines",
    "join",
    "replace",
    "startswith",
    "endswith",
    "find",
    "rfind",
    "index",
    "rindex",
    "count",
    "partition",
    "rpartition",
    "removeprefix",
    "removesuffix",
    "center",
    "ljust",
    "rjust",
    "zfill",
    "isdigit",
    "isdecimal",
    "isnumeric",
    "isalpha",
    "isalnum",
    "isspace",
    "isupper",
    "islower",
    "istitle",
    "isidentifier",
    "isascii",
    "format",
    "format_map",
    "expandtabs",
    "translate",
];

/// `ascii(x)` of a repr: its non-ASCII characters escaped as `\xe9`, `\u20ac`, `\U0001f600`.
pub(crate) fn ascii(repr: &str) -> String {
    let mut out = String::with_capacity(repr.len());
    for c in repr.chars() {
        match u32::from(c) {
            0..=0x7f => out.push(c),
            code @ 0x80..=0xff => out.push_str(&format!("\\x{code:02x}")),
            code @ 0x100..=0xffff => out.push_str(&format!("\\u{code:04x}")),
            code => out.push_str(&format!("\\U{code:08x}")),
        }
    }
    out
}

/// `str.maketrans(x[, y[, z]])`: the table `str.translate` reads, keyed by code point.
pub(crate) fn maketrans(args: &Args) -> Result<Value> {
    let code = |c: char| Value::Int(i64::from(u32::from(c)));
    let mut table: Vec<(Value, Value)> = Vec::new();
    match args.positional.as_slice() {
        [Value::Dict(given)] => {
            for (key, value) in given.borrow().iter() {
                let key = match key {
                    Value::Str(k) if k.chars().count() == 1 => {
                        code(k.chars().next().unwrap_or('\0'))
                    }
                    Value::Int(_) => key.clone(),
                    _ => {
                        return Err(value_error(
                            "string keys in translate table must be of length 1",
                        ));
                    }
                };
                table.push((key, value.clone()));
            }
        }
        [Value::Str(from), Value::Str(to), rest @ ..] => {
            if from.chars().count() != to.chars().count() {
                return Err(value_error(
                    "the first two maketrans arguments must have equal length",
                ));
            }
            for (a, b) in from.chars().zip(to.chars()) {
                table.retain(|(k, _)| !super::value::equal(k, &code(a)));
                table.push((code(a), code(b)));
            }
            if let [Value::Str(deleted)] = rest {
                for c in deleted.chars() {
                    table.retain(|(k, _)| !super::value::equal(k, &code(c)));
                    table.push((code(c), Value::None));
                }
            }
        }
        [_] => {
            return Err(type_error(
                "if you give only one argument to maketrans it must be a dict".into(),
            ));
        }
        _ => {
            return Err(type_error(
                "maketrans() takes 1 to 3 string arguments".into(),
            ));
        }
    }
    Ok(Value::Dict(std::rc::Rc::new(std::cell::RefCell::new(
        table,
    ))))
}

fn value_error(message: &str) -> PyException {
    PyException::new(ExcType::ValueError, message)
}

fn type_error(message: String) -> PyException {
    PyException::new(ExcType::TypeError, message)
}

/// A method's argument `i` (or keyword `key`), if given and not None.
fn given<'a>(args: &'a Args, i: usize, key: &str) -> Option<&'a Value> {
    args.get(i, key).filter(|v| !matches!(v, Value::None))
}

fn text_arg(args: &Args, i: usize, key: &str, method: &str) -> Result<Option<String>> {
    match given(args, i, key) {
        None => Ok(None),
        Some(Value::Str(s)) => Ok(Some(s.to_string())),
        Some(other) => Err(type_error(format!(
            "{method} arg must be None or str, not {}",
            other.type_name()
        ))),
    }
}

fn int_arg(args: &Args, i: usize, key: &str, default: i64) -> Result<i64> {
    match given(args, i, key) {
        None => Ok(default),
        Some(Value::Int(n)) => Ok(*n),
        Some(Value::Bool(b)) => Ok(i64::from(*b)),
        Some(other) => Err(type_error(format!(
            "'{}' object cannot be interpreted as an integer",
            other.type_name()
        ))),
    }
}

/// The character range `[start:end]` selects, as slice bounds clamp.
fn char_range(s: &str, args: &Args, first: usize) -> Result<(usize, usize)> {
    let n = char_count(s, s.len()) as i64;
    let clamp = |v: i64| if v < 0 { (v + n).max(0) } else { v.min(n) } as usize;
    let start = clamp(int_arg(args, first, "start", 0)?);
    let end = clamp(int_arg(args, first + 1, "end", n)?);
    Ok((start, end))
}

/// The byte offset of character `i`.
fn byte_at(s: &str, i: usize) -> usize {
    if s.is_ascii() {
        return i.min(s.len());
    }
    s.char_indices().nth(i).map_or(s.len(), |(b, _)| b)
}

fn char_count(s: &str, byte: usize) -> usize {
    let head = &s[..byte];
    if head.is_ascii() {
        head.len()
    } else {
        head.chars().count()
    }
}

/// `s.strip(chars)` and its one-sided forms.
fn strip(s: &str, chars: Option<&str>, left: bool, right: bool) -> String {
    let strips = |c: char| match chars {
        Some(set) => set.contains(c),
        None => c.is_whitespace(),
    };
    let mut out = s;
    if left {
        out = out.trim_start_matches(strips);
    }
    if right {
        out = out.trim_end_matches(strips);
    }
    out.to_owned()
}

/// `split`/`rsplit` with Python's rules: no separator splits on runs of whitespace and drops
/// empty ends; at most `maxsplit` splits, counted from the right for `rsplit`.
fn split(s: &str, sep: Option<&str>, maxsplit: i64, from_right: bool) -> Result<Vec<Value>> {
    let limit = if maxsplit < 0 {
        usize::MAX
    } else {
        maxsplit as usize
    };
    let parts: Vec<String> = match sep {
        Some("") => {
            return Err(PyException::new(ExcType::ValueError, "empty separator"));
        }
        Some(sep) if from_right => {
            let mut parts: Vec<String> = s
                .rsplitn(limit.saturating_add(1), sep)
                .map(str::to_owned)
                .collect();
            parts.reverse();
            parts
        }
        Some(sep) => s
            .splitn(limit.saturating_add(1), sep)
            .map(str::to_owned)
            .collect(),
        None => {
            let words: Vec<(usize, &str)> = s
                .split_whitespace()
                .map(|w| (w.as_ptr() as usize - s.as_ptr() as usize, w))
                .collect();
            if words.len() <= limit.saturating_add(1) {
                words.iter().map(|(_, w)| (*w).to_owned()).collect()
            } else if from_right {
                let cut = words.len() - limit;
                let (head_end, _) = words[cut - 1];
                let head = &s[..head_end + words[cut - 1].1.len()];
                std::iter::once(head.to_owned())
                    .chain(words[cut..].iter().map(|(_, w)| (*w).to_owned()))
                    .collect()
            } else {
                let (rest_start, _) = words[limit];
                words[..limit]
                    .iter()
                    .map(|(_, w)| (*w).to_owned())
                    .chain(std::iter::once(s[rest_start..].to_owned()))
                    .collect()
            }
        }
    };
    Ok(parts.iter().map(|p| Value::str(p)).collect())
}

/// The prefixes (or suffixes) `startswith`/`endswith` test: a str or a tuple of them.
fn affixes(v: Option<&Value>, method: &str) -> Result<Vec<String>> {
    match v {
        Some(Value::Str(s)) => Ok(vec![s.to_string()]),
        Some(Value::Tuple(items)) => items
            .iter()
            .map(|item| match item {
                Value::Str(s) => Ok(s.to_string()),
                other => Err(type_error(format!(
                    "tuple for {method} must only contain str, not {}",
                    other.type_name()
                ))),
            })
            .collect(),
        other => Err(type_error(format!(
            "{method} first arg must be str or a tuple of str, not {}",
            other.map_or("NoneType".to_owned(), |v| v.type_name().to_string())
        ))),
    }
}

/// A width a string is padded to, within what one string may hold in the lab.
fn width_arg(args: &Args, index: usize, name: &str, default: i64) -> Result<usize> {
    let width = int_arg(args, index, name, default)?.max(0) as u64;
    if width > super::operators::MAX_SEQUENCE as u64 {
        return Err(PyException::new(
            ExcType::MemoryError,
            format!("a string of {width} characters is too long for the lab"),
        ));
    }
    Ok(width as usize)
}

/// `s.center(width, fillchar)` and the justifications.
fn justify(s: &str, args: &Args, method: &str) -> Result<String> {
    let width = width_arg(args, 0, "width", 0)?;
    let fill = match given(args, 1, "fillchar") {
        None => ' ',
        Some(Value::Str(f)) if f.chars().count() == 1 => f.chars().next().unwrap_or(' '),
        Some(_) => {
            return Err(type_error(
                "The fill character must be exactly one character long".into(),
            ));
        }
    };
    let missing = width.saturating_sub(s.chars().count());
    let (left, right) = match method {
        "ljust" => (0, missing),
        "rjust" => (missing, 0),
        // CPython's centring puts the odd character on the left when the width is odd.
        _ => {
            let left = missing / 2 + (missing & width & 1);
            (left, missing - left)
        }
    };
    let pad = |n: usize| std::iter::repeat_n(fill, n).collect::<String>();
    Ok(format!("{}{s}{}", pad(left), pad(right)))
}

fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map_or(String::new(), |first| {
        first.to_uppercase().collect::<String>() + &chars.as_str().to_lowercase()
    })
}

/// `str.title()`: a letter after a non-letter starts a word.
fn title(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut after_letter = false;
    for c in s.chars() {
        if after_letter {
            out.extend(c.to_lowercase());
        } else {
            out.extend(c.to_uppercase());
        }
        after_letter = c.is_alphabetic();
    }
    out
}

fn cased_test(s: &str, wanted: fn(char) -> bool, other: fn(char) -> bool) -> bool {
    s.chars().any(wanted) && !s.chars().any(other)
}

pub(crate) fn call(s: &str, name: &str, args: &Args) -> Result<Value> {
    let text = |i: usize, key: &str| text_arg(args, i, key, name);
    Ok(match name {
        "encode" => super::bytes::encode(s, args)?,
        "upper" => Value::str(&s.to_uppercase()),
        "lower" => Value::str(&s.to_lowercase()),
        // Full case folding differs from lowercasing in a few letters; these are the ones
        // learners' text meets (German sharp s, Greek final sigma).
        "casefold" => Value::str(&s.to_lowercase().replace('ß', "ss").replace('ς', "σ")),
        "capitalize" => Value::str(&capitalize(s)),
        "title" => Value::str(&title(s)),
        "swapcase" => Value::str(
            &s.chars()
                .flat_map(|c| -> Vec<char> {
                    if c.is_uppercase() {
                        c.to_lowercase().collect()
                    } else {
                        c.to_uppercase().collect()
                    }
                })
                .collect::<String>(),
        ),
        "strip" => Value::str(&strip(s, text(0, "chars")?.as_deref(), true, true)),
        "lstrip" => Value::str(&strip(s, text(0, "chars")?.as_deref(), true, false)),
        "rstrip" => Value::str(&strip(s, text(0, "chars")?.as_deref(), false, true)),
        "split" | "rsplit" => {
            let sep = text(0, "sep")?;
            let maxsplit = int_arg(args, 1, "maxsplit", -1)?;
            Value::list(split(s, sep.as_deref(), maxsplit, name == "rsplit")?)
        }
        "splitlines" => {
            let keepends = given(args, 0, "keepends").is_some_and(Value::truthy);
            let mut lines = Vec::new();
            let mut rest = s;
            while !rest.is_empty() {
                let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
                let newline = if rest[end..].starts_with("\r\n") {
                    2
                } else {
                    usize::from(end < rest.len())
                };
                let line = if keepends {
                    &rest[..end + newline]
                } else {
                    &rest[..end]
                };
                lines.push(Value::str(line));
                rest = &rest[end + newline..];
            }
            Value::list(lines)
        }
        "join" => {
            let items = super::operators::iterate(
                &args.positional.first().cloned().unwrap_or(Value::None),
            )?;
            let mut parts = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                match &*item.resolved() {
                    Value::Str(part) => parts.push(part.to_string()),
                    other => {
                        return Err(type_error(format!(
                            "sequence item {i}: expected str instance, {} found",
                            other.type_name()
                        )));
                    }
                }
            }
            Value::str(&parts.join(s))
        }
        "replace" => {
            let (Some(old), Some(new)) = (text(0, "old")?, text(1, "new")?) else {
                return Err(type_error("replace expected at least 2 arguments".into()));
            };
            let count = int_arg(args, 2, "count", -1)?;
            Value::str(&if count < 0 {
                s.replace(&old, &new)
            } else {
                s.replacen(&old, &new, count as usize)
            })
        }
        "startswith" | "endswith" => {
            let wanted = affixes(args.positional.first(), name)?;
            let (start, end) = char_range(s, args, 1)?;
            let part = if start > end {
                ""
            } else {
                &s[byte_at(s, start)..byte_at(s, end)]
            };
            Value::Bool(wanted.iter().any(|w| {
                if name == "startswith" {
                    part.starts_with(w.as_str())
                } else {
                    part.ends_with(w.as_str())
                }
            }))
        }
        "find" | "rfind" | "index" | "rindex" | "count" => {
            let Some(needle) = text(0, "sub")? else {
                return Err(type_error(format!(
                    "{name}() takes at least 1 argument (0 given)"
                )));
            };
            let (start, end) = char_range(s, args, 1)?;
            if start > end {
                return match name {
                    "count" => Ok(Value::Int(0)),
                    "index" | "rindex" => {
                        Err(PyException::new(ExcType::ValueError, "substring not found"))
                    }
                    _ => Ok(Value::Int(-1)),
                };
            }
            let (from, to) = (byte_at(s, start), byte_at(s, end));
            let part = &s[from..to];
            if name == "count" {
                let n = if needle.is_empty() {
                    part.chars().count() + 1
                } else {
                    part.matches(needle.as_str()).count()
                };
                return Ok(Value::Int(n as i64));
            }
            let found = if name.starts_with('r') {
                part.rfind(&needle)
            } else {
                part.find(&needle)
            };
            match found {
                Some(at) => Value::Int(char_count(s, from + at) as i64),
                None if name.ends_with("index") => {
                    return Err(PyException::new(ExcType::ValueError, "substring not found"));
                }
                None => Value::Int(-1),
            }
        }
        "partition" | "rpartition" => {
            let Some(sep) = text(0, "sep")? else {
                return Err(type_error("must be str, not NoneType".into()));
            };
            if sep.is_empty() {
                return Err(PyException::new(ExcType::ValueError, "empty separator"));
            }
            let found = if name == "partition" {
                s.find(&sep)
            } else {
                s.rfind(&sep)
            };
            let parts = match found {
                Some(at) => [&s[..at], sep.as_str(), &s[at + sep.len()..]],
                None if name == "partition" => [s, "", ""],
                None => ["", "", s],
            };
            Value::Tuple(
                parts
                    .iter()
                    .map(|p| Value::str(p))
                    .collect::<Vec<_>>()
                    .into(),
            )
        }
        "removeprefix" => {
            let prefix = text(0, "prefix")?.unwrap_or_default();
            Value::str(s.strip_prefix(prefix.as_str()).unwrap_or(s))
        }
        "removesuffix" => {
            let suffix = text(0, "suffix")?.unwrap_or_default();
            Value::str(s.strip_suffix(suffix.as_str()).unwrap_or(s))
        }
        "center" | "ljust" | "rjust" => Value::str(&justify(s, args, name)?),
        "zfill" => {
            let width = width_arg(args, 0, "width", 0)?;
            let missing = width.saturating_sub(s.chars().count());
            let (sign, digits) = match s.chars().next() {
                Some(c @ ('+' | '-')) => (c.to_string(), &s[1..]),
                _ => (String::new(), s),
            };
            Value::str(&format!("{sign}{}{digits}", "0".repeat(missing)))
        }
        "isdigit" | "isdecimal" | "isnumeric" => {
            Value::Bool(!s.is_empty() && s.chars().all(|c| c.is_numeric()))
        }
        "isalpha" => Value::Bool(!s.is_empty() && s.chars().all(char::is_alphabetic)),
        "isalnum" => Value::Bool(!s.is_empty() && s.chars().all(char::is_alphanumeric)),
        "isspace" => Value::Bool(!s.is_empty() && s.chars().all(char::is_whitespace)),
        "isupper" => Value::Bool(cased_test(s, char::is_uppercase, char::is_lowercase)),
        "islower" => Value::Bool(cased_test(s, char::is_lowercase, char::is_uppercase)),
        "istitle" => Value::Bool(s.chars().any(char::is_alphabetic) && title(s) == s),
        "isascii" => Value::Bool(s.is_ascii()),
        "isidentifier" => Value::Bool(
            s.chars()
                .next()
                .is_some_and(|c| c == '_' || c.is_alphabetic())
                && s.chars().all(|c| c == '_' || c.is_alphanumeric()),
        ),
        "translate" => {
            let Some(Value::Dict(table)) = args.positional.first() else {
                return Err(type_error(
                    "str.translate() needs a table from str.maketrans()".into(),
                ));
            };
            let table = table.borrow();
            let mut out = String::with_capacity(s.len());
            for c in s.chars() {
                let code = Value::Int(i64::from(u32::from(c)));
                match table.iter().find(|(k, _)| super::value::equal(k, &code)) {
                    None => out.push(c),
                    Some((_, Value::None)) => {}
                    Some((_, Value::Str(to))) => out.push_str(to),
                    Some((_, Value::Int(to))) => out.push(
                        u32::try_from(*to)
                            .ok()
                            .and_then(char::from_u32)
                            .ok_or_else(|| {
                                PyException::new(
                                    ExcType::ValueError,
                                    "character mapping must be in range(0x110000)",
                                )
                            })?,
                    ),
                    Some(_) => {
                        return Err(type_error(
                            "character mapping must return integer, None or str".into(),
                        ));
                    }
                }
            }
            Value::str(&out)
        }
        "expandtabs" => {
            let size = width_arg(args, 0, "tabsize", 8)?;
            let mut out = String::new();
            let mut column = 0;
            for c in s.chars() {
                match c {
                    '\t' if size > 0 => {
                        let spaces = size - column % size;
                        if out.len() + spaces > super::operators::MAX_SEQUENCE {
                            return Err(PyException::new(
                                ExcType::MemoryError,
                                "the expanded string is too long for the lab",
                            ));
                        }
                        out.push_str(&" ".repeat(spaces));
                        column += spaces;
                    }
                    '\t' => {}
                    '\n' | '\r' => {
                        out.push(c);
                        column = 0;
                    }
                    c => {
                        out.push(c);
                        column += 1;
                    }
                }
            }
            Value::str(&out)
        }
        // `format` and `format_map` call learners' `__format__`: see `str_format`.
        _ => return Err(PyException::unsupported(&format!("str.{name}()"))),
    })
}
