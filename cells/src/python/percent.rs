//! printf-style formatting, `"[%d, %5d] loss: %.3f" % (epoch, i, loss)`, as CPython's
//! `str.__mod__` does it: conversion specs with mapping keys, flags, widths and precisions
//! (`*` taken from the arguments), CPython's errors for a wrong count or type of arguments.
//!
//! [`plan`] pairs each spec with its argument; the caller renders each step, since `%s` and `%r`
//! of a learner's object call its `__str__`/`__repr__` (the evaluator does it, awaiting), and
//! [`render`] does the rest.

use super::exception::{ExcType, PyException};
use super::value::Value;

type Result<T> = std::result::Result<T, PyException>;

/// One conversion: `%(key)-08.3f`.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    key: Option<String>,
    left: bool,
    zero: bool,
    /// `+` or ` ` before a positive number.
    sign: Option<char>,
    /// `#`: `0x`/`0o` before hexadecimal and octal digits (floats keep their usual form).
    alternate: bool,
    width: Count,
    precision: Option<Count>,
    pub conversion: char,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Count {
    Fixed(usize),
    /// `*`: the next argument.
    Star,
}

/// A step of the formatted text: literal text, or a conversion with its argument.
pub enum Step {
    Text(String),
    Convert {
        spec: Spec,
        value: Value,
        width: usize,
        precision: Option<usize>,
    },
}

fn value_error(message: impl Into<String>) -> PyException {
    PyException::new(ExcType::ValueError, message)
}

fn type_error(message: impl Into<String>) -> PyException {
    PyException::new(ExcType::TypeError, message)
}

/// The template's pieces, or CPython's error for a malformed spec.
fn parse(template: &str) -> Result<Vec<std::result::Result<String, Spec>>> {
    let chars: Vec<char> = template.chars().collect();
    let mut pieces = Vec::new();
    let mut text = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '%' {
            text.push(chars[i]);
            i += 1;
            continue;
        }
        i += 1;
        let mut spec = Spec {
            key: None,
            left: false,
            zero: false,
            sign: None,
            alternate: false,
            width: Count::Fixed(0),
            precision: None,
            conversion: ' ',
        };
        if chars.get(i) == Some(&'(') {
            let mut depth = 1;
            let start = i + 1;
            i += 1;
            while i < chars.len() && depth > 0 {
                match chars[i] {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
                i += 1;
            }
            if depth > 0 {
                return Err(value_error("incomplete format key"));
            }
            spec.key = Some(chars[start..i - 1].iter().collect());
        }
        while let Some(flag) = chars.get(i) {
            match flag {
                '-' => spec.left = true,
                '0' => spec.zero = true,
                '+' => spec.sign = Some('+'),
                ' ' if spec.sign.is_none() => spec.sign = Some(' '),
                ' ' => {}
                '#' => spec.alternate = true,
                _ => break,
            }
            i += 1;
        }
        spec.width = count(&chars, &mut i);
        if chars.get(i) == Some(&'.') {
            i += 1;
            spec.precision = Some(count(&chars, &mut i));
        }
        // Length modifiers are accepted and mean nothing, as in CPython.
        while matches!(chars.get(i), Some('h' | 'l' | 'L')) {
            i += 1;
        }
        let Some(&conversion) = chars.get(i) else {
            return Err(value_error("incomplete format"));
        };
        i += 1;
        if conversion == '%' {
            text.push('%');
            continue;
        }
        if !"diouxXeEfFgGcrsa".contains(conversion) {
            return Err(value_error(format!(
                "unsupported format character '{conversion}' (0x{:x}) at index {}",
                u32::from(conversion),
                i - 1
            )));
        }
        spec.conversion = conversion;
        pieces.push(Ok(std::mem::take(&mut text)));
        pieces.push(Err(spec));
    }
    pieces.push(Ok(text));
    Ok(pieces)
}

fn count(chars: &[char], i: &mut usize) -> Count {
    if chars.get(*i) == Some(&'*') {
        *i += 1;
        return Count::Star;
    }
    let mut n: usize = 0;
    while let Some(d) = chars.get(*i).and_then(|c| c.to_digit(10)) {
        // Past what one string may hold it is refused below (and never overflows here).
        n = n
            .saturating_mul(10)
            .saturating_add(d as usize)
            .min(LIMIT + 1);
        *i += 1;
    }
    Count::Fixed(n)
}

/// The widest field or longest precision one conversion may ask for.
const LIMIT: usize = super::operators::MAX_SEQUENCE;

/// Pairs each conversion of `template` with its argument from `args` (a tuple: one each, in
/// order; a dict: by key; anything else: the one argument).
pub fn plan(template: &str, args: &Value) -> Result<Vec<Step>> {
    let pieces = parse(template)?;
    let mapping = matches!(args, Value::Dict(_))
        && pieces
            .iter()
            .any(|p| matches!(p, Err(s) if s.key.is_some()));
    let positional: Vec<Value> = match args {
        Value::Tuple(items) => items.to_vec(),
        _ if mapping => Vec::new(),
        other => vec![other.clone()],
    };
    let mut next = positional.into_iter();
    let mut take = || {
        next.next()
            .ok_or_else(|| type_error("not enough arguments for format string"))
    };
    let mut steps = Vec::new();
    for piece in pieces {
        let spec = match piece {
            Ok(text) => {
                if !text.is_empty() {
                    steps.push(Step::Text(text));
                }
                continue;
            }
            Err(spec) => spec,
        };
        let mut star = |count: Count| -> Result<usize> {
            match count {
                Count::Fixed(n) => Ok(n),
                Count::Star => match take()? {
                    Value::Int(n) => Ok(usize::try_from(n.unsigned_abs())
                        .unwrap_or(LIMIT + 1)
                        .min(LIMIT + 1)),
                    _ => Err(type_error("* wants int")),
                },
            }
        };
        let width = star(spec.width)?;
        let precision = spec.precision.map(&mut star).transpose()?;
        if width.max(precision.unwrap_or(0)) > LIMIT {
            return Err(PyException::new(
                ExcType::MemoryError,
                "the formatted string is too long for the lab",
            ));
        }
        let value = match (&spec.key, args) {
            (Some(key), Value::Dict(entries)) => entries
                .borrow()
                .iter()
                .find(|(k, _)| matches!(k, Value::Str(s) if **s == **key))
                .map(|(_, v)| v.clone())
                .ok_or_else(|| PyException::new(ExcType::KeyError, Value::str(key).repr()))?,
            (Some(_), _) => return Err(type_error("format requires a mapping")),
            (None, _) => take()?,
        };
        steps.push(Step::Convert {
            spec,
            value,
            width,
            precision,
        });
    }
    if !mapping && next.next().is_some() {
        return Err(type_error(
            "not all arguments converted during string formatting",
        ));
    }
    Ok(steps)
}

/// One conversion's text. `text` is `str(value)` for `%s` and `repr(value)` for `%r`/`%a`, which
/// the caller computes (they may call the learner's methods).
fn render(
    spec: &Spec,
    value: &Value,
    width: usize,
    precision: Option<usize>,
    text: Option<String>,
) -> Result<String> {
    let c = spec.conversion;
    let (body, numeric) = match c {
        's' | 'r' | 'a' => {
            let text = text.unwrap_or_else(|| value.str_text());
            let text = match precision {
                Some(p) => text.chars().take(p).collect(),
                None => text,
            };
            (text, false)
        }
        'c' => match value {
            Value::Int(code) => (
                u32::try_from(*code)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or_else(|| {
                        PyException::new(ExcType::OverflowError, "%c arg not in range(0x110000)")
                    })?
                    .to_string(),
                false,
            ),
            Value::Str(s) if s.chars().count() == 1 => (s.to_string(), false),
            _ => {
                return Err(type_error(
                    "%c requires an int or a unicode character, not ".to_owned()
                        + &value.type_name(),
                ));
            }
        },
        'd' | 'i' | 'u' => (integer(value, c)?, true),
        'x' | 'X' | 'o' => {
            let radix = if c == 'o' { 8 } else { 16 };
            let Some(digits) = super::int::magnitude_digits(value, radix) else {
                return Err(type_error(format!(
                    "%{c} format: an integer is required, not {}",
                    value.type_name()
                )));
            };
            let digits = if c == 'X' {
                digits.to_uppercase()
            } else {
                digits
            };
            let prefix = match (spec.alternate, c) {
                (true, 'x') => "0x",
                (true, 'X') => "0X",
                (true, _) => "0o",
                _ => "",
            };
            let minus = if super::int::is_negative(value) {
                "-"
            } else {
                ""
            };
            (format!("{minus}{prefix}{digits}"), true)
        }
        _ => {
            let x = match &number_of(value)? {
                Value::Float(x) => *x,
                Value::Int(n) => *n as f64,
                Value::BigInt(n) => super::int::to_f64(n)?,
                Value::Bool(b) => f64::from(u8::from(*b)),
                other => {
                    return Err(type_error(format!(
                        "must be real number, not {}",
                        other.type_name()
                    )));
                }
            };
            let spec_text = format!(".{}{c}", precision.unwrap_or(6));
            (
                super::operators::format(&Value::Float(x), &spec_text)?,
                true,
            )
        }
    };
    let body = match spec.sign {
        Some(sign) if numeric && !body.starts_with('-') => format!("{sign}{body}"),
        _ => body,
    };
    let len = body.chars().count();
    if len >= width {
        return Ok(body);
    }
    let pad = width - len;
    Ok(if spec.left {
        format!("{body}{}", " ".repeat(pad))
    } else if spec.zero && numeric {
        // Zeros go after the sign, and after the 0x of `%#x`.
        let sign = usize::from(body.starts_with(['-', '+', ' ']));
        let prefix = if spec.alternate && "xXo".contains(c) {
            2
        } else {
            0
        };
        let split = (sign + prefix).min(body.len());
        format!("{}{}{}", &body[..split], "0".repeat(pad), &body[split..])
    } else {
        format!("{}{body}", " ".repeat(pad))
    })
}

impl Step {
    /// The argument of a conversion, and whether it is shown as `str` (`%s`: `Some(true)`) or
    /// `repr` (`%r`, `%a`: `Some(false)`), which the caller computes; `None` for the rest.
    pub fn argument(&self) -> Option<(&Value, Option<bool>)> {
        match self {
            Step::Text(_) => None,
            Step::Convert { spec, value, .. } => Some((
                value,
                match spec.conversion {
                    's' => Some(true),
                    'r' | 'a' => Some(false),
                    _ => None,
                },
            )),
        }
    }
}

/// The formatted text: each step rendered, with the texts the caller made for its `%s`, `%r`
/// and `%a` (one per step, in order; `None` elsewhere).
pub fn assemble(steps: Vec<Step>, texts: Vec<Option<String>>) -> Result<String> {
    let mut out = String::new();
    for (step, text) in steps.into_iter().zip(texts) {
        match step {
            Step::Text(t) => out.push_str(&t),
            Step::Convert {
                spec,
                value,
                width,
                precision,
            } => out.push_str(&render(&spec, &value, width, precision, text)?),
        }
    }
    Ok(out)
}

/// `template % args` with the plain `str` and `repr` of each argument: the operator's
/// synchronous path (the evaluator formats a string literal's `%` itself, with learners'
/// `__str__` and `__repr__`).
pub fn format_plain(template: &str, args: &Value) -> Result<String> {
    let steps = plan(template, args)?;
    let texts = steps
        .iter()
        .map(|step| match step.argument() {
            Some((value, Some(true))) => Some(value.str_text()),
            Some((value, Some(false))) => Some(value.repr()),
            _ => None,
        })
        .collect();
    assemble(steps, texts)
}

/// A one-element tensor stands for its number (`"%.3f" % loss` with a tensor `loss`).
fn number_of(value: &Value) -> Result<Value> {
    match value {
        Value::Tensor(t) if t.numel() == 1 => Ok(Value::from(t.item()?)),
        Value::NpScalar(x) => Ok(crate::stdlib::numpy::python_number(x)),
        other => Ok(other.clone()),
    }
}

/// The integer `%d` shows, in decimal: ints and bools as they are, floats truncated toward
/// zero.
fn integer(value: &Value, c: char) -> Result<String> {
    match &number_of(value)? {
        Value::Int(n) => Ok(n.to_string()),
        Value::BigInt(n) => super::int::decimal(n),
        Value::Bool(b) => Ok(i64::from(*b).to_string()),
        Value::Float(x) => match &super::int::from_f64(*x)? {
            Value::BigInt(n) => super::int::decimal(n),
            other => Ok(other.repr()),
        },
        other => Err(type_error(format!(
            "%{c} format: a real number is required, not {}",
            other.type_name()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn percent(template: &str, args: Value) -> Result<String> {
        format_plain(template, &args)
    }

    fn shown(e: PyException) -> String {
        format!("{}: {}", e.kind.name(), e.message)
    }

    fn tuple(items: Vec<Value>) -> Value {
        Value::Tuple(items.into())
    }

    // Expected texts from CPython 3.11.
    #[test]
    fn conversions_flags_and_widths_read_as_cpythons() {
        let cases: Vec<(&str, Value, &str)> = vec![
            (
                "[%d, %5d] loss: %.3f",
                tuple(vec![Value::Int(1), Value::Int(2000), Value::Float(1.23456)]),
                "[1,  2000] loss: 1.235",
            ),
            (
                "%s|%r|%-5s|%5s|",
                tuple(vec![
                    Value::str("a"),
                    Value::str("b"),
                    Value::str("c"),
                    Value::str("d"),
                ]),
                "a|'b'|c    |    d|",
            ),
            (
                "%05d %+d % d %x %#X %o %#o",
                tuple(vec![
                    Value::Int(-42),
                    Value::Int(7),
                    Value::Int(7),
                    Value::Int(255),
                    Value::Int(255),
                    Value::Int(8),
                    Value::Int(8),
                ]),
                "-0042 +7  7 ff 0XFF 10 0o10",
            ),
            (
                "%e %.2E %g %G %10.4f|",
                tuple(vec![
                    Value::Float(12345.678),
                    Value::Float(0.000123),
                    Value::Float(0.00001),
                    Value::Float(1e20),
                    Value::Float(1.23456789),
                ]),
                "1.234568e+04 1.23E-04 1e-05 1E+20     1.2346|",
            ),
            ("%d%%", Value::Int(50), "50%"),
            ("%d", Value::Float(3.99), "3"),
            (
                "%*d|%-*d|%.*f",
                tuple(vec![
                    Value::Int(4),
                    Value::Int(7),
                    Value::Int(3),
                    Value::Int(1),
                    Value::Int(2),
                    Value::Float(2.0),
                ]),
                "   7|1  |2.00",
            ),
            ("%c%c", tuple(vec![Value::Int(72), Value::str("i")]), "Hi"),
            ("%.2s", Value::str("abcdef"), "ab"),
            (
                "%s",
                tuple(vec![tuple(vec![Value::Int(1), Value::Int(2)])]),
                "(1, 2)",
            ),
        ];
        for (template, args, want) in cases {
            assert_eq!(percent(template, args).unwrap(), want, "{template}");
        }
    }

    #[test]
    fn a_mapping_names_its_arguments() {
        let dict = Value::Dict(std::rc::Rc::new(std::cell::RefCell::new(vec![
            (Value::str("epoch"), Value::Int(3)),
            (Value::str("loss"), Value::Float(0.5)),
        ])));
        assert_eq!(
            percent("%(epoch)d: %(loss).2f", dict.clone()).unwrap(),
            "3: 0.50"
        );
        assert_eq!(
            shown(percent("%(lr)s", dict).unwrap_err()),
            "KeyError: 'lr'"
        );
    }

    #[test]
    fn wrong_arguments_raise_cpythons_errors() {
        let two = tuple(vec![Value::Int(1), Value::Int(2)]);
        for (template, args, want) in [
            (
                "%d %d %d",
                two.clone(),
                "TypeError: not enough arguments for format string",
            ),
            (
                "%d",
                two.clone(),
                "TypeError: not all arguments converted during string formatting",
            ),
            (
                "no specs",
                Value::Int(1),
                "TypeError: not all arguments converted during string formatting",
            ),
            (
                "%d",
                Value::str("x"),
                "TypeError: %d format: a real number is required, not str",
            ),
            (
                "%x",
                Value::Float(1.5),
                "TypeError: %x format: an integer is required, not float",
            ),
            (
                "%f",
                Value::str("x"),
                "TypeError: must be real number, not str",
            ),
            (
                "%y",
                Value::Int(1),
                "ValueError: unsupported format character 'y' (0x79) at index 1",
            ),
            ("abc %", Value::Int(1), "ValueError: incomplete format"),
            ("%(a", Value::Int(1), "ValueError: incomplete format key"),
            (
                "%(a)s",
                Value::Int(1),
                "TypeError: format requires a mapping",
            ),
        ] {
            assert_eq!(
                shown(percent(template, args).unwrap_err()),
                want,
                "{template}"
            );
        }
    }
}
