//! PyTorch's "received an invalid combination of arguments" message, built as
//! `torch::format_invalid_args` (torch/csrc/utils/invalid_arguments.cpp) builds it, quirks
//! included: it re-reads each listed signature by splitting at spaces, so `bool keepdim = False`
//! counts as a parameter named `False`, and only a few type names can ever match; mismatches are
//! marked `!like this!` (PyTorch's marks when its output is not a terminal).
//!
//! One difference: PyTorch keeps the keywords in a `std::unordered_map`, so with two or more
//! keywords its order follows their hashes; the lab keeps the call's order.

use super::parse::tp_name;
use crate::python::value::Value;

/// A type as `_buildType` reads it from a signature's text.
enum Kind {
    /// `float` (which an int also matches) and `int`.
    Multi(&'static [&'static str]),
    Simple(String),
}

impl Kind {
    fn matches(&self, v: &Value) -> bool {
        let name = tp_name(v);
        match self {
            Kind::Multi(names) => names.contains(&name.as_str()),
            Kind::Simple(type_name) => *type_name == name,
        }
    }
}

struct Argument {
    name: String,
    kind: Kind,
}

/// `_parseOption`: the arguments of one listed signature, `(Tensor input, *, bool x = False)`.
fn parse_option(option: &str) -> Vec<Argument> {
    let inner = option
        .strip_prefix('(')
        .and_then(|o| o.strip_suffix(')'))
        .unwrap_or(option);
    inner
        .split(", ")
        .map(|arg| {
            let (type_name, name) = match arg.rfind(' ') {
                Some(at) => (&arg[..at], &arg[at + 1..]),
                None => (arg, arg),
            };
            let kind = match type_name {
                "float" => Kind::Multi(&["float", "int", "long"]),
                "int" => Kind::Multi(&["int", "long"]),
                other => Kind::Simple(other.to_owned()),
            };
            Argument {
                name: name.to_owned(),
                kind,
            }
        })
        .collect()
}

/// `_argcountMatch`.
fn count_matches(option: &[Argument], args: &[Value], kwargs: &[(String, Value)]) -> bool {
    option.len() == args.len() + kwargs.len()
}

/// `_formattedArgDesc`: `(Tensor, !str!, dim=int)`, each argument checked against the
/// option's argument at its place.
fn formatted(option: &[Argument], args: &[Value], kwargs: &[(String, Value)]) -> String {
    let mut out = String::from("(");
    for i in 0..args.len() + kwargs.len() {
        let is_kwarg = i >= args.len();
        let arg = if is_kwarg {
            let name = option.get(i).map_or("", |a| a.name.as_str());
            kwargs.iter().find(|(k, _)| k == name).map(|(_, v)| v)
        } else {
            args.get(i)
        };
        let Some(arg) = arg else { continue };
        let matching = option.get(i).is_some_and(|a| a.kind.matches(arg));
        if !matching {
            out.push('!');
        }
        if is_kwarg {
            out.push_str(option.get(i).map_or("", |a| a.name.as_str()));
            out.push('=');
        }
        out.push_str(&describe(arg));
        if !matching {
            out.push('!');
        }
        out.push_str(", ");
    }
    if !args.is_empty() {
        out.truncate(out.len() - 2);
    }
    out.push(')');
    out
}

/// A tuple or a list with its items' types (`tuple of (int, str)`); anything else its type.
fn describe(v: &Value) -> String {
    let (items, open, close) = match v {
        Value::Tuple(items) => (items.to_vec(), "(", ")"),
        Value::List(items) => (items.borrow().clone(), "[", "]"),
        other => return tp_name(other),
    };
    let mut out = format!("{} of {open}", tp_name(v));
    let names: Vec<String> = items.iter().map(tp_name).collect();
    out.push_str(&names.join(", "));
    if matches!(v, Value::Tuple(_)) && items.len() == 1 {
        out.push(',');
    }
    out.push_str(close);
    out
}

/// `_argDesc`: `(Tensor, int, dim=str)`; with keywords only, `(dim=str, )`.
fn described(args: &[Value], kwargs: &[(String, Value)]) -> String {
    let mut out = String::from("(");
    for arg in args {
        out.push_str(&tp_name(arg));
        out.push_str(", ");
    }
    for (key, value) in kwargs {
        out.push_str(&format!("{key}={}, ", tp_name(value)));
    }
    if !args.is_empty() {
        out.truncate(out.len() - 2);
    }
    out.push(')');
    out
}

/// `_tryMatchKwargs`: the keywords none of the option's last arguments is named.
fn unmatched_keywords(option: &[Argument], kwargs: &[(String, Value)]) -> Vec<String> {
    let start = option.len().saturating_sub(kwargs.len());
    kwargs
        .iter()
        .filter(|(key, _)| !option[start..].iter().any(|a| &a.name == key))
        .map(|(key, _)| key.clone())
        .collect()
}

/// The whole message, as `format_invalid_args` writes it.
pub fn format_invalid_args(
    args: &[Value],
    kwargs: &[(String, Value)],
    function_name: &str,
    options: &[String],
) -> String {
    let mut message = format!("{function_name} received an invalid combination of arguments - ");
    if let [only] = options {
        let option = parse_option(only);
        let unmatched = unmatched_keywords(&option, kwargs);
        if !kwargs.is_empty() && !unmatched.is_empty() {
            message.push_str("got unrecognized keyword arguments: ");
            message.push_str(&unmatched.join(", "));
        } else {
            message.push_str("got ");
            if count_matches(&option, args, kwargs) {
                message.push_str(&formatted(&option, args, kwargs));
            } else {
                message.push_str(&described(args, kwargs));
            }
            message.push_str(", but expected ");
            message.push_str(only);
        }
        return message;
    }
    message.push_str("got ");
    message.push_str(&described(args, kwargs));
    message.push_str(", but expected one of:\n");
    for text in options {
        let option = parse_option(text);
        message.push_str(" * ");
        message.push_str(text);
        message.push('\n');
        if count_matches(&option, args, kwargs) {
            let unmatched = unmatched_keywords(&option, kwargs);
            if !kwargs.is_empty() && !unmatched.is_empty() {
                message
                    .push_str("      didn't match because some of the keywords were incorrect: ");
                message.push_str(&unmatched.join(", "));
            } else {
                message.push_str(
                    "      didn't match because some of the arguments have invalid types: ",
                );
                message.push_str(&formatted(&option, args, kwargs));
            }
            message.push('\n');
        }
    }
    message
}
