//! `typing`: the names tutorials import for their annotations (`List`, `Optional`, `Dict`,
//! `Callable`, `TypeVar`, `cast`, …), importable, subscriptable and shown as CPython shows them.
//! Annotations are never checked at run time, as in Python.

use std::rc::Rc;

use crate::python::args::Args;
use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;

/// `typing`'s names that tutorials import for their annotations, which are not checked at run
/// time (as in Python).
pub const NAMES: &[&str] = &[
    "Any",
    "Callable",
    "Dict",
    "Generator",
    "Iterable",
    "Iterator",
    "List",
    "Mapping",
    "Optional",
    "Sequence",
    "Set",
    "Tuple",
    "Type",
    "TypeVar",
    "Union",
    "cast",
];

/// `List[int]`: the alias, shown as CPython shows it (`typing.List[int]`).
pub fn typing_item(alias: &str, index: &Value) -> Value {
    fn shown(v: &Value) -> String {
        match v {
            Value::Type(name) => name.trim_start_matches("builtins.").to_owned(),
            Value::Typing(text) => text.to_string(),
            Value::None => "NoneType".into(),
            Value::Class(class) => format!("__main__.{}", class.name),
            Value::List(items) => format!(
                "[{}]",
                items
                    .borrow()
                    .iter()
                    .map(shown)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            other => other.repr(),
        }
    }
    let arguments = match index {
        Value::Tuple(items) => items.iter().map(shown).collect::<Vec<_>>().join(", "),
        one => shown(one),
    };
    Value::Typing(Rc::from(format!("{alias}[{arguments}]")))
}

/// Calling a `typing` name: `TypeVar("T")` and `cast(T, x)` work as in Python; the aliases
/// cannot be called, as in Python.
pub fn call_typing(alias: &str, args: &Args) -> Result<Value, PyException> {
    match alias {
        "typing.TypeVar" => match args.positional.first() {
            Some(Value::Str(name)) => Ok(Value::Typing(Rc::from(format!("~{name}")))),
            _ => Err(PyException::new(
                ExcType::TypeError,
                "TypeVar name must be a string",
            )),
        },
        "typing.cast" => args.get(1, "val").cloned().ok_or_else(|| {
            PyException::new(
                ExcType::TypeError,
                "cast() missing 1 required positional argument: 'val'",
            )
        }),
        _ => {
            let short = alias.trim_start_matches("typing.");
            let short = short.split('[').next().unwrap_or(short);
            Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "Type {short} cannot be instantiated; use {}() instead",
                    short.to_lowercase()
                ),
            ))
        }
    }
}
