//! Between the cell's values and the engine's object tree (`tolab_engine::value::Value`), which
//! batches, checkpoints and state dicts are made of.

use std::cell::RefCell;
use std::rc::Rc;

use tolab_engine::value::{Key, Value as Engine};

use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;

/// A cell value as the engine holds it; what has no engine form is a TypeError naming its type.
pub fn to_engine(v: &Value, purpose: &str) -> Result<Engine, PyException> {
    let many = |items: &[Value]| {
        items
            .iter()
            .map(|v| to_engine(v, purpose))
            .collect::<Result<Vec<_>, _>>()
    };
    Ok(match &*v.resolved() {
        Value::None => Engine::None,
        Value::Bool(b) => Engine::Bool(*b),
        Value::Int(i) => Engine::Int(*i),
        Value::Float(x) => Engine::Float(*x),
        Value::Str(s) => Engine::Str(s.to_string()),
        Value::Tensor(t) => Engine::Tensor(t.clone()),
        // A NumPy array goes in as a tensor of its values (what `default_collate` makes of
        // it); a NumPy scalar as the Python number it stands for.
        Value::NdArray(a) => Engine::Tensor(crate::stdlib::numpy::bridge::copied(a)?),
        Value::NpScalar(x) => return to_engine(&crate::stdlib::numpy::python_number(x), purpose),
        Value::List(items) => Engine::List(many(&items.borrow())?),
        Value::Tuple(items) => Engine::Tuple(many(items)?),
        Value::Dict(entries) => Engine::Dict(
            entries
                .borrow()
                .iter()
                .map(|(k, v)| {
                    let key = match k {
                        Value::Str(s) => Key::Str(s.to_string()),
                        Value::Int(i) => Key::Int(*i),
                        other => return Err(cannot(other, purpose)),
                    };
                    Ok((key, to_engine(v, purpose)?))
                })
                .collect::<Result<_, _>>()?,
        ),
        Value::NnModule(m) => Engine::Module(m.clone()),
        Value::Instance(i) => match &i.module {
            Some(m) => Engine::Module(m.clone()),
            None => return Err(cannot(v, purpose)),
        },
        other => return Err(cannot(other, purpose)),
    })
}

/// An engine value as the cell sees it.
pub fn from_engine(v: Engine) -> Value {
    match v {
        Engine::None => Value::None,
        Engine::Bool(b) => Value::Bool(b),
        Engine::Int(i) => Value::Int(i),
        Engine::Float(x) => Value::Float(x),
        Engine::Str(s) => Value::str(&s),
        Engine::Tensor(t) => Value::Tensor(t),
        Engine::List(items) => Value::list(items.into_iter().map(from_engine).collect()),
        Engine::Tuple(items) => Value::Tuple(items.into_iter().map(from_engine).collect()),
        Engine::Dict(entries) => Value::Dict(Rc::new(RefCell::new(
            entries
                .into_iter()
                .map(|(k, v)| {
                    let key = match k {
                        Key::Str(s) => Value::str(&s),
                        Key::Int(i) => Value::Int(i),
                    };
                    (key, from_engine(v))
                })
                .collect(),
        ))),
        Engine::Module(m) => Value::NnModule(m),
    }
}

fn cannot(v: &Value, purpose: &str) -> PyException {
    PyException::new(
        ExcType::TypeError,
        format!(
            "{purpose}: objects of type '{}' are not supported in the lab",
            v.type_name()
        ),
    )
}
