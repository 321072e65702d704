//! `format(x, spec)`, f-string fields and `str.format`: a learner's `__format__` (or its
//! `__str__` when the spec is empty) before the built-in formats, and `str.format`'s template
//! language (`{}`, `{0}`, `{name}`, `{0.attr}`, `{d[key]}`, `!r`/`!s`/`!a`, nested `{:{width}}`)
//! with CPython's errors.

use super::args::{Args, Eval, Flow};
use super::exception::{ExcType, PyException};
use super::interpreter::Interpreter;
use super::operators;
use super::value::Value;

/// One piece of a `str.format` template.
#[derive(Debug, PartialEq)]
enum Piece {
    Text(String),
    /// `{name!conversion:spec}`; the spec may hold fields of its own.
    Field {
        name: String,
        conversion: Option<char>,
        spec: String,
    },
}

fn value_error(message: &str) -> PyException {
    PyException::new(ExcType::ValueError, message)
}

/// Splits a template into text and fields, as `string.Formatter.parse` does.
fn parse(template: &str) -> Result<Vec<Piece>, PyException> {
    let mut pieces = Vec::new();
    let mut text = String::new();
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                text.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                text.push('}');
            }
            '}' => return Err(value_error("Single '}' encountered in format string")),
            '{' => {
                // The field runs to the `}` that closes it; braces inside balance (`{:{w}}`).
                let mut field = String::new();
                let mut depth = 1;
                loop {
                    match chars.next() {
                        None if field.is_empty() => {
                            return Err(value_error("Single '{' encountered in format string"));
                        }
                        None => return Err(value_error("expected '}' before end of string")),
                        Some('{') => {
                            depth += 1;
                            field.push('{');
                        }
                        Some('}') => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                            field.push('}');
                        }
                        Some(c) => field.push(c),
                    }
                }
                if !text.is_empty() {
                    pieces.push(Piece::Text(std::mem::take(&mut text)));
                }
                pieces.push(field_piece(&field)?);
            }
            c => text.push(c),
        }
    }
    if !text.is_empty() {
        pieces.push(Piece::Text(text));
    }
    Ok(pieces)
}

/// `name!conversion:spec`. The name ends at the first `!` or `:` outside brackets
/// (`{d[a:b]}` looks up the key `"a:b"`).
fn field_piece(field: &str) -> Result<Piece, PyException> {
    let mut in_brackets = false;
    let end = field
        .char_indices()
        .find(|&(_, c)| {
            match c {
                '[' => in_brackets = true,
                ']' => in_brackets = false,
                _ => {}
            }
            !in_brackets && (c == '!' || c == ':')
        })
        .map_or(field.len(), |(i, _)| i);
    let (name, rest) = field.split_at(end);
    let (conversion, spec) = match rest.strip_prefix('!') {
        Some(rest) => {
            let mut chars = rest.chars();
            let conversion = chars.next();
            let after = chars.as_str();
            let spec = match after.strip_prefix(':') {
                Some(spec) => spec,
                None if after.is_empty() => "",
                None => {
                    return Err(value_error("expected ':' after conversion specifier"));
                }
            };
            match conversion {
                Some(c @ ('r' | 's' | 'a')) => (Some(c), spec),
                Some(c) => {
                    return Err(value_error(&format!("Unknown conversion specifier {c}")));
                }
                None => {
                    return Err(value_error(
                        "end of string while looking for conversion specifier",
                    ));
                }
            }
        }
        None => (None, rest.strip_prefix(':').unwrap_or_default()),
    };
    Ok(Piece::Field {
        name: name.to_owned(),
        conversion,
        spec: spec.to_owned(),
    })
}

/// How the fields of one `format()` call are numbered: `{}` counts up, `{0}` names; a template
/// may not mix them.
#[derive(Default)]
struct Numbering {
    next: usize,
    automatic: Option<bool>,
}

impl Numbering {
    fn index(&mut self, given: Option<usize>) -> Result<usize, PyException> {
        let automatic = given.is_none();
        match self.automatic {
            Some(true) if !automatic => Err(value_error(
                "cannot switch from automatic field numbering to manual field specification",
            )),
            Some(false) if automatic => Err(value_error(
                "cannot switch from manual field specification to automatic field numbering",
            )),
            _ => {
                self.automatic = Some(automatic);
                Ok(given.unwrap_or_else(|| {
                    self.next += 1;
                    self.next - 1
                }))
            }
        }
    }
}

/// What a template's fields are looked up in.
struct Fields<'a> {
    args: &'a Args,
    mapping: Option<&'a Value>,
    numbering: Numbering,
}

impl Interpreter {
    /// `format(value, spec)`: a learner's `__format__`, else its `str()` for an empty spec, else
    /// the built-in formats of numbers, strings and tensors.
    pub(crate) async fn format_object(
        &mut self,
        value: &Value,
        spec: &str,
    ) -> Result<String, Flow> {
        if let Value::Instance(i) = value
            && i.class.lookup("__format__").is_some()
        {
            let made = self
                .call_dunder(value, "__format__", vec![Value::str(spec)])
                .await?;
            return match &made {
                Value::Str(s) => Ok(s.to_string()),
                other => Err(PyException::new(
                    ExcType::TypeError,
                    format!("__format__ must return a str, not {}", other.type_name()),
                )
                .into()),
            };
        }
        // An int, float or str subclass's object formats as its value.
        if let Value::Instance(_) = value
            && let plain @ (Value::Int(_) | Value::Float(_) | Value::Str(_)) = &*value.resolved()
            && !spec.is_empty()
        {
            return Ok(operators::format(plain, spec)?);
        }
        let objectlike = matches!(
            value,
            Value::Instance(_) | Value::List(_) | Value::Tuple(_) | Value::Dict(_) | Value::Set(_)
        );
        if objectlike && spec.is_empty() {
            return self.text_of(value, true).await;
        }
        if objectlike {
            // `object.__format__` takes no spec.
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "unsupported format string passed to {}.__format__",
                    value.type_name()
                ),
            )
            .into());
        }
        self.fetch_values(value).await?;
        Ok(operators::format(value, spec)?)
    }

    /// A field's `!r`, `!s` or `!a`.
    pub(crate) async fn convert(
        &mut self,
        value: Value,
        conversion: Option<char>,
    ) -> Result<Value, Flow> {
        Ok(match conversion {
            Some('r') => Value::str(&self.text_of(&value, false).await?),
            Some('s') => Value::str(&self.text_of(&value, true).await?),
            Some('a') => Value::str(&super::strings::ascii(&self.text_of(&value, false).await?)),
            _ => value,
        })
    }

    /// `template.format(...)`, `template.format_map(mapping)` and `str.format(template, ...)`.
    pub(crate) async fn str_format(
        &mut self,
        owner: &Value,
        name: &str,
        args: Args,
    ) -> Result<Value, Flow> {
        let (template, args) = match (owner, args.positional.split_first()) {
            (Value::Str(s), _) => (s.clone(), args),
            (_, Some((Value::Str(s), rest))) => (
                s.clone(),
                Args {
                    positional: rest.to_vec(),
                    keywords: args.keywords.clone(),
                },
            ),
            (_, first) => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "descriptor '{name}' for 'str' objects doesn't apply to a '{}' object",
                        first.map_or_else(|| "NoneType".to_owned(), |(v, _)| v.type_name())
                    ),
                )
                .into());
            }
        };
        if name == "format_map" {
            let [mapping] = args.positional.as_slice() else {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "format_map() takes exactly one argument ({} given)",
                        args.positional.len()
                    ),
                )
                .into());
            };
            let none = Args::default();
            let text = self
                .format_template(&template, &none, Some(mapping))
                .await?;
            return Ok(Value::str(&text));
        }
        Ok(Value::str(
            &self.format_template(&template, &args, None).await?,
        ))
    }

    /// `template.format(*args, **kwargs)`, or `template.format_map(mapping)`, whose names are
    /// looked up as `mapping[name]` (a `defaultdict`'s `__missing__` answers).
    pub(crate) async fn format_template(
        &mut self,
        template: &str,
        args: &Args,
        mapping: Option<&Value>,
    ) -> Result<String, Flow> {
        let mut fields = Fields {
            args,
            mapping,
            numbering: Numbering::default(),
        };
        self.format_pieces(template, &mut fields, 0).await
    }

    fn format_pieces<'a>(
        &'a mut self,
        template: &'a str,
        fields: &'a mut Fields<'_>,
        depth: usize,
    ) -> Eval<'a, String> {
        Box::pin(async move {
            if depth > 1 {
                return Err(value_error("Max string recursion exceeded").into());
            }
            let mut out = String::new();
            for piece in parse(template)? {
                match piece {
                    Piece::Text(text) => out.push_str(&text),
                    Piece::Field {
                        name,
                        conversion,
                        spec,
                    } => {
                        let value = self.field_value(&name, fields).await?;
                        let value = self.convert(value, conversion).await?;
                        let spec = if spec.contains('{') {
                            self.format_pieces(&spec, fields, depth + 1).await?
                        } else {
                            spec
                        };
                        out.push_str(&self.format_object(&value, &spec).await?);
                    }
                }
            }
            Ok(out)
        })
    }

    /// The value a field names: an argument, then `.attribute`s and `[key]`s.
    async fn field_value(&mut self, name: &str, fields: &mut Fields<'_>) -> Result<Value, Flow> {
        let first_end = name.find(['.', '[']).unwrap_or(name.len());
        let (first, mut rest) = name.split_at(first_end);
        let mut value = if first.is_empty() || first.bytes().all(|b| b.is_ascii_digit()) {
            let given = if first.is_empty() {
                None
            } else {
                Some(
                    first
                        .parse::<usize>()
                        .map_err(|_| value_error("Too many decimal digits in format string"))?,
                )
            };
            if fields.mapping.is_some() {
                return Err(value_error("Format string contains positional fields").into());
            }
            let index = fields.numbering.index(given)?;
            fields.args.positional.get(index).cloned().ok_or_else(|| {
                PyException::new(
                    ExcType::IndexError,
                    format!("Replacement index {index} out of range for positional args tuple"),
                )
            })?
        } else if let Some(mapping) = fields.mapping {
            self.item(mapping, Value::str(first)).await?
        } else {
            fields
                .args
                .keyword(first)
                .cloned()
                .ok_or_else(|| PyException::new(ExcType::KeyError, Value::str(first).repr()))?
        };
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix('.') {
                let end = after.find(['.', '[']).unwrap_or(after.len());
                let (attribute, tail) = after.split_at(end);
                if attribute.is_empty() {
                    return Err(value_error("Empty attribute in format string").into());
                }
                value = self.attribute(&value, attribute).await?;
                rest = tail;
            } else if let Some(after) = rest.strip_prefix('[') {
                let Some(end) = after.find(']') else {
                    return Err(value_error("Missing ']' in format string").into());
                };
                let key = &after[..end];
                if key.is_empty() {
                    return Err(value_error("Empty attribute in format string").into());
                }
                // Digits index as an int, anything else as a string (`{d[name]}`).
                let key = match key.parse::<i64>() {
                    Ok(i) if key.bytes().all(|b| b.is_ascii_digit()) => Value::Int(i),
                    _ => Value::str(key),
                };
                value = self.item(&value, key).await?;
                rest = &after[end + 1..];
            } else {
                return Err(value_error(
                    "Only '.' or '[' may follow ']' in format field specifier",
                )
                .into());
            }
        }
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_split_into_text_and_fields_with_nested_specs() {
        let pieces = parse("a{{b}} {0.x!r:>{w}} {d[k:v]}").unwrap();
        assert_eq!(
            pieces,
            vec![
                Piece::Text("a{b} ".into()),
                Piece::Field {
                    name: "0.x".into(),
                    conversion: Some('r'),
                    spec: ">{w}".into()
                },
                Piece::Text(" ".into()),
                Piece::Field {
                    name: "d[k:v]".into(),
                    conversion: None,
                    spec: String::new()
                },
            ]
        );
    }

    #[test]
    fn unbalanced_braces_are_cpythons_value_errors() {
        for (template, message) in [
            ("}", "Single '}' encountered in format string"),
            ("{", "Single '{' encountered in format string"),
            ("{0", "expected '}' before end of string"),
            ("{!x}", "Unknown conversion specifier x"),
            ("{!rx}", "expected ':' after conversion specifier"),
        ] {
            assert_eq!(parse(template).unwrap_err().message, message, "{template}");
        }
    }

    #[test]
    fn automatic_and_manual_numbering_do_not_mix() {
        let mut numbering = Numbering::default();
        assert_eq!(numbering.index(None).unwrap(), 0);
        assert_eq!(numbering.index(None).unwrap(), 1);
        assert!(numbering.index(Some(0)).is_err());
    }
}
