//! Python's `bytes`: literals, CPython's repr, `bytes(...)`, `str.encode` and `bytes.decode`
//! (UTF-8, ASCII, Latin-1), and the methods programs use on them. Indexing, slicing,
//! iteration, `in`, `+`, `*`, comparison and hashing are in `operators.rs` and `hashing.rs`
//! beside `str`'s.

use std::rc::Rc;

use super::args::Args;
use super::exception::{ExcType, PyException};
use super::value::Value;

type Result<T> = std::result::Result<T, PyException>;

/// The methods of `bytes` the lab has.
pub const METHODS: &[&str] = &[
    "decode",
    "hex",
    "startswith",
    "endswith",
    "find",
    "index",
    "count",
    "split",
    "join",
    "strip",
    "lstrip",
    "rstrip",
    "replace",
    "upper",
    "lower",
    "isdigit",
    "isalpha",
    "isspace",
];

pub fn value(bytes: &[u8]) -> Value {
    Value::Bytes(Rc::from(bytes))
}

/// `repr(b)`: `b'...'`, in double quotes only when the bytes hold `'` and no `"`.
pub fn repr(bytes: &[u8]) -> String {
    let quote = if bytes.contains(&b'\'') && !bytes.contains(&b'"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(bytes.len() + 3);
    out.push('b');
    out.push(quote);
    for &b in bytes {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b if b as char == quote => {
                out.push('\\');
                out.push(quote);
            }
            0x20..=0x7e => out.push(b as char),
            b => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out.push(quote);
    out
}

fn type_error(message: String) -> PyException {
    PyException::new(ExcType::TypeError, message)
}

/// A codec's name as Python normalises it.
fn codec(name: &str) -> Result<&'static str> {
    match name.to_lowercase().replace('_', "-").as_str() {
        "utf-8" | "utf8" | "u8" => Ok("utf-8"),
        "ascii" | "us-ascii" => Ok("ascii"),
        "latin-1" | "latin1" | "iso-8859-1" | "iso8859-1" => Ok("latin-1"),
        _ => Err(PyException::new(
            ExcType::LookupError,
            format!("unknown encoding: {name}"),
        )),
    }
}

fn encoding_arg(args: &Args) -> Result<&'static str> {
    match args.get(0, "encoding") {
        None => Ok("utf-8"),
        Some(Value::Str(name)) => codec(name),
        Some(other) => Err(type_error(format!(
            "encode() argument 'encoding' must be str, not {}",
            other.type_name()
        ))),
    }
}

fn errors_arg(args: &Args) -> Result<()> {
    match args.get(1, "errors") {
        None => Ok(()),
        Some(Value::Str(e)) if &**e == "strict" => Ok(()),
        Some(other) => Err(PyException::unsupported(&format!(
            "errors={} (the lab's codecs are strict)",
            other.repr()
        ))),
    }
}

/// `text.encode(encoding='utf-8', errors='strict')`.
pub fn encode(text: &str, args: &Args) -> Result<Value> {
    let encoding = encoding_arg(args)?;
    errors_arg(args)?;
    let mut out = Vec::with_capacity(text.len());
    for (at, c) in text.chars().enumerate() {
        let limit = match encoding {
            "utf-8" => {
                out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                continue;
            }
            "ascii" => 0x80,
            _ => 0x100,
        };
        if (c as u32) < limit {
            out.push(c as u8);
        } else {
            return Err(PyException::new(
                ExcType::Other("UnicodeEncodeError".into()),
                format!(
                    "'{}' codec can't encode character '{}' in position {at}: ordinal not in range({limit})",
                    if encoding == "ascii" {
                        "ascii"
                    } else {
                        "latin-1"
                    },
                    escaped(c)
                ),
            ));
        }
    }
    Ok(value(&out))
}

/// A character as CPython's codec errors show it (`\xe9`, `\u20ac`, `\U0001f600`).
fn escaped(c: char) -> String {
    match c as u32 {
        n if n < 0x100 => format!("\\x{n:02x}"),
        n if n < 0x10000 => format!("\\u{n:04x}"),
        n => format!("\\U{n:08x}"),
    }
}

/// `b.decode(encoding='utf-8', errors='strict')`.
fn decode(bytes: &[u8], args: &Args) -> Result<Value> {
    let encoding = encoding_arg(args)?;
    errors_arg(args)?;
    let fail = |at: usize, why: &str| {
        PyException::new(
            ExcType::Other("UnicodeDecodeError".into()),
            format!(
                "'{encoding}' codec can't decode byte {:#04x} in position {at}: {why}",
                bytes[at]
            ),
        )
    };
    let text: String = match encoding {
        "utf-8" => match std::str::from_utf8(bytes) {
            Ok(text) => text.to_owned(),
            Err(e) => {
                let at = e.valid_up_to();
                let why = match e.error_len() {
                    None => "unexpected end of data",
                    Some(_) if !(0xc2..=0xf4).contains(&bytes[at]) => "invalid start byte",
                    Some(_) => "invalid continuation byte",
                };
                return Err(fail(at, why));
            }
        },
        "ascii" => match bytes.iter().position(|b| *b >= 0x80) {
            Some(at) => return Err(fail(at, "ordinal not in range(128)")),
            None => bytes.iter().map(|&b| b as char).collect(),
        },
        _ => bytes.iter().map(|&b| b as char).collect(),
    };
    Ok(Value::str(&text))
}

/// The bytes an argument stands for (`bytes`, or for `in` and `count` an int 0–255).
fn bytes_arg(v: Option<&Value>, method: &str) -> Result<Rc<[u8]>> {
    match v {
        Some(Value::Bytes(b)) => Ok(b.clone()),
        Some(other) => Err(type_error(format!(
            "a bytes-like object is required, not '{}'",
            other.type_name()
        ))),
        None => Err(type_error(format!(
            "{method}() takes at least 1 argument (0 given)"
        ))),
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Whether `b` holds `needle` (`in`): bytes, or an int 0–255.
pub fn contains(b: &[u8], needle: &Value) -> Result<bool> {
    match needle {
        Value::Bytes(n) => Ok(find(b, n).is_some()),
        Value::Int(i) if (0..256).contains(i) => Ok(b.contains(&(*i as u8))),
        Value::Int(_) => Err(PyException::new(
            ExcType::ValueError,
            "byte must be in range(0, 256)",
        )),
        other => Err(type_error(format!(
            "a bytes-like object is required, not '{}'",
            other.type_name()
        ))),
    }
}

const WHITESPACE: &[u8] = b" \t\n\r\x0b\x0c";

/// The `[start:end]` window `find`, `count`, `startswith`, … search, by slice rules.
fn window(b: &[u8], args: &Args) -> Result<(usize, usize)> {
    let len = b.len() as i64;
    let bound = |at: usize, default: usize| match args.positional.get(at) {
        None | Some(Value::None) => Ok(default),
        Some(Value::Int(i)) => Ok((if *i < 0 { i + len } else { *i }).clamp(0, len) as usize),
        Some(other) => Err(type_error(format!(
            "slice indices must be integers or None or have an __index__ method, not {}",
            other.type_name()
        ))),
    };
    let start = bound(1, 0)?;
    Ok((start, bound(2, b.len())?.max(start)))
}

pub fn call(b: &[u8], name: &str, args: &Args) -> Result<Value> {
    let first = || bytes_arg(args.positional.first(), name);
    if matches!(name, "find" | "index" | "count" | "startswith" | "endswith") {
        let (start, end) = window(b, args)?;
        let part = &b[start..end];
        let found = |v: Value| match v {
            Value::Int(i) if i >= 0 && name != "count" => Value::Int(i + start as i64),
            other => other,
        };
        if part.len() != b.len() {
            let rest = Args::positional(args.positional.iter().take(1).cloned().collect());
            return call(part, name, &rest).map(found);
        }
    }
    Ok(match name {
        "decode" => decode(b, args)?,
        "hex" => Value::str(&b.iter().map(|x| format!("{x:02x}")).collect::<String>()),
        "startswith" => Value::Bool(b.starts_with(&first()?)),
        "endswith" => Value::Bool(b.ends_with(&first()?)),
        "find" => Value::Int(find(b, &first()?).map_or(-1, |i| i as i64)),
        "index" => match find(b, &first()?) {
            Some(i) => Value::Int(i as i64),
            None => {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "subsection not found",
                ));
            }
        },
        "count" => {
            let needle = first()?;
            if needle.is_empty() {
                Value::Int(b.len() as i64 + 1)
            } else {
                let (mut count, mut at) = (0, 0);
                while let Some(i) = find(&b[at..], &needle) {
                    count += 1;
                    at += i + needle.len();
                }
                Value::Int(count)
            }
        }
        "split" => {
            let parts: Vec<Value> = match args.positional.first() {
                None | Some(Value::None) => b
                    .split(|c| WHITESPACE.contains(c))
                    .filter(|p| !p.is_empty())
                    .map(value)
                    .collect(),
                Some(_) => {
                    let sep = first()?;
                    if sep.is_empty() {
                        return Err(PyException::new(ExcType::ValueError, "empty separator"));
                    }
                    let mut parts = Vec::new();
                    let mut rest = b;
                    while let Some(i) = find(rest, &sep) {
                        parts.push(value(&rest[..i]));
                        rest = &rest[i + sep.len()..];
                    }
                    parts.push(value(rest));
                    parts
                }
            };
            Value::list(parts)
        }
        "join" => {
            let items = super::operators::iterate(args.positional.first().unwrap_or(&Value::None))?;
            let mut out = Vec::new();
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.extend_from_slice(b);
                }
                match item {
                    Value::Bytes(part) => out.extend_from_slice(part),
                    other => {
                        return Err(type_error(format!(
                            "sequence item {i}: expected a bytes-like object, {} found",
                            other.type_name()
                        )));
                    }
                }
            }
            value(&out)
        }
        "strip" | "lstrip" | "rstrip" => {
            let chars: Rc<[u8]> = match args.positional.first() {
                None | Some(Value::None) => Rc::from(WHITESPACE),
                Some(_) => first()?,
            };
            let start = if name == "rstrip" {
                0
            } else {
                b.iter().position(|c| !chars.contains(c)).unwrap_or(b.len())
            };
            let end = if name == "lstrip" {
                b.len()
            } else {
                b.iter()
                    .rposition(|c| !chars.contains(c))
                    .map_or(start, |i| i + 1)
            };
            value(&b[start..end.max(start)])
        }
        "replace" => {
            let (old, new) = (first()?, bytes_arg(args.positional.get(1), name)?);
            let mut out = Vec::new();
            let mut rest = b;
            if old.is_empty() {
                value(b)
            } else {
                while let Some(i) = find(rest, &old) {
                    out.extend_from_slice(&rest[..i]);
                    out.extend_from_slice(&new);
                    rest = &rest[i + old.len()..];
                }
                out.extend_from_slice(rest);
                value(&out)
            }
        }
        "upper" => value(&b.to_ascii_uppercase()),
        "lower" => value(&b.to_ascii_lowercase()),
        "isdigit" => Value::Bool(!b.is_empty() && b.iter().all(u8::is_ascii_digit)),
        "isalpha" => Value::Bool(!b.is_empty() && b.iter().all(u8::is_ascii_alphabetic)),
        "isspace" => Value::Bool(!b.is_empty() && b.iter().all(|c| WHITESPACE.contains(c))),
        _ => return Err(PyException::unsupported(&format!("bytes.{name}()"))),
    })
}

/// `bytes()`, `bytes(n)`, `bytes(iterable_of_ints)`, `bytes(text, encoding)`, `bytes(b)`.
pub fn construct(args: &Args) -> Result<Value> {
    match args.positional.first() {
        None => Ok(value(&[])),
        Some(Value::Str(text)) => {
            if args.get(1, "encoding").is_none() {
                return Err(type_error("string argument without an encoding".into()));
            }
            let rest = Args {
                positional: args.positional[1..].to_vec(),
                keywords: args.keywords.clone(),
            };
            encode(text, &rest)
        }
        Some(Value::Bytes(b)) => Ok(Value::Bytes(b.clone())),
        Some(Value::Int(n)) => {
            let n = usize::try_from(*n)
                .map_err(|_| PyException::new(ExcType::ValueError, "negative count"))?;
            if n > 1 << 30 {
                return Err(PyException::new(
                    ExcType::MemoryError,
                    "bytes of more than 1 GiB are too large for the lab",
                ));
            }
            Ok(value(&vec![0; n]))
        }
        Some(iterable) => {
            let mut out = Vec::new();
            for item in super::operators::iterate(iterable).map_err(|_| {
                type_error(format!(
                    "cannot convert '{}' object to bytes",
                    iterable.type_name()
                ))
            })? {
                match item {
                    Value::Int(i) if (0..256).contains(&i) => out.push(i as u8),
                    Value::Int(_) => {
                        return Err(PyException::new(
                            ExcType::ValueError,
                            "bytes must be in range(0, 256)",
                        ));
                    }
                    other => {
                        return Err(type_error(format!(
                            "'{}' object cannot be interpreted as an integer",
                            other.type_name()
                        )));
                    }
                }
            }
            Ok(value(&out))
        }
    }
}

/// `bytes.fromhex(text)`.
pub fn fromhex(text: &str) -> Result<Value> {
    let digits: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut out = Vec::with_capacity(digits.len() / 2);
    for (at, pair) in digits.chunks(2).enumerate() {
        let parsed = match pair {
            [a, b] => a
                .to_digit(16)
                .zip(b.to_digit(16))
                .map(|(a, b)| (a * 16 + b) as u8),
            _ => None,
        };
        match parsed {
            Some(byte) => out.push(byte),
            None => {
                return Err(PyException::new(
                    ExcType::ValueError,
                    format!(
                        "non-hexadecimal number found in fromhex() arg at position {}",
                        at * 2 + usize::from(pair.len() == 2 && pair[0].is_ascii_hexdigit())
                    ),
                ));
            }
        }
    }
    Ok(value(&out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reprs_escape_as_cpython_does() {
        assert_eq!(repr(b"weights"), "b'weights'");
        assert_eq!(repr(b"it's"), "b\"it's\"");
        assert_eq!(repr(b"'\"\n\x00\xff\\"), "b'\\'\"\\n\\x00\\xff\\\\'");
    }

    #[test]
    fn utf8_round_trips_and_bad_bytes_say_where() {
        let encoded = encode("héllo", &Args::default()).unwrap();
        let Value::Bytes(b) = &encoded else {
            panic!("not bytes")
        };
        assert_eq!(&**b, "héllo".as_bytes());
        let Err(error) = decode(b"ab\xff", &Args::default()) else {
            panic!("decoded")
        };
        assert_eq!(
            error.message,
            "'utf-8' codec can't decode byte 0xff in position 2: invalid start byte"
        );
    }
}
