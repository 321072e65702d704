//! Python's `copy` module: `copy.copy` and `copy.deepcopy` of the values training scripts copy —
//! containers, and the tensors in them (`best = copy.deepcopy(model.state_dict())`), as PyTorch's
//! `Tensor.__deepcopy__` copies them. What the lab cannot copy yet is refused by name, never
//! copied halfway.

use std::collections::HashMap;
use std::rc::Rc;

use crate::python::args::Args;
use crate::python::exception::{ExcType, PyException};
use crate::python::value::{Value, address};

type Result<T> = std::result::Result<T, PyException>;

/// The module's functions.
pub const FUNCTIONS: &[&str] = &["copy", "deepcopy"];

/// `copy.name(x)`.
pub fn call(name: &str, args: &Args) -> Result<Value> {
    let [value] = args.positional.as_slice() else {
        let given = args.positional.len();
        return Err(PyException::new(
            ExcType::TypeError,
            if given == 0 {
                format!("{name}() missing 1 required positional argument: 'x'")
            } else {
                format!("{name}() takes 1 positional argument but {given} were given")
            },
        ));
    };
    match name {
        "copy" => shallow(value),
        _ => deep(value, &mut HashMap::new()),
    }
}

/// Values that are their own copy: immutable ones, and functions, classes and modules (as
/// `copy` treats them).
fn atomic(value: &Value) -> bool {
    matches!(
        value,
        Value::None
            | Value::Bool(_)
            | Value::Int(_)
            | Value::BigInt(_)
            | Value::Float(_)
            | Value::Str(_)
            | Value::Bytes(_)
            | Value::Range { .. }
            | Value::Device(_)
            | Value::DType(_)
            | Value::Size(_)
            | Value::Type(_)
            | Value::Typing(_)
            | Value::NpScalar(_)
            | Value::NpType(_)
            | Value::NpDType(_)
            | Value::Function(_)
            | Value::Builtin(_)
            | Value::Module(_)
            | Value::ModuleFn(..)
            | Value::Class(_)
            | Value::ExcClass(_)
    )
}

fn not_yet(name: &str, value: &Value) -> PyException {
    PyException::new(
        ExcType::NotImplementedError,
        format!(
            "copy.{name}() of a '{}' object is not supported in lab cells yet",
            value.type_name()
        ),
    )
}

fn shallow(value: &Value) -> Result<Value> {
    Ok(match value {
        v if atomic(v) => v.clone(),
        Value::Tuple(_) => value.clone(),
        Value::List(items) => Value::list(items.borrow().clone()),
        Value::Dict(entries) => Value::Dict(Rc::new(entries.borrow().clone().into())),
        Value::Set(items) => Value::Set(Rc::new(items.borrow().clone().into())),
        // A new tensor on the same storage, as `Tensor.__reduce_ex__` rebuilds one.
        Value::Tensor(t) => {
            let copy = t.detach();
            copy.set_requires_grad(t.requires_grad())?;
            Value::Tensor(copy)
        }
        // `copy.copy(array)` copies the elements (`ndarray.__copy__`), as deepcopy does.
        Value::NdArray(a) => Value::NdArray(Rc::new(a.copy()?)),
        other => return Err(not_yet("copy", other)),
    })
}

/// A copy of `value` and of everything in it, each object copied once (`memo`, by address), so
/// that shared parts stay shared, as `copy.deepcopy` keeps them.
fn deep(value: &Value, memo: &mut HashMap<usize, Value>) -> Result<Value> {
    if atomic(value) {
        return Ok(value.clone());
    }
    let key = match value {
        Value::List(items) => Some(address(items)),
        Value::Dict(entries) => Some(address(entries)),
        Value::Set(items) => Some(address(items)),
        Value::Tensor(t) => usize::try_from(t.id()).ok(),
        Value::NdArray(a) => Some(address(a)),
        _ => None,
    };
    if let Some(copy) = key.and_then(|k| memo.get(&k)) {
        return Ok(copy.clone());
    }
    let copy = match value {
        Value::Tuple(items) => Value::Tuple(
            items
                .iter()
                .map(|v| deep(v, memo))
                .collect::<Result<Vec<_>>>()?
                .into(),
        ),
        Value::List(items) => {
            let items = items.borrow().clone();
            let copy = Value::list(Vec::with_capacity(items.len()));
            if let (Some(k), Value::List(out)) = (key, &copy) {
                memo.insert(k, copy.clone());
                for item in &items {
                    let item = deep(item, memo)?;
                    out.borrow_mut().push(item);
                }
            }
            copy
        }
        Value::Dict(entries) => {
            let entries = entries.borrow().clone();
            let mut out = Vec::with_capacity(entries.len());
            for (k, v) in &entries {
                out.push((deep(k, memo)?, deep(v, memo)?));
            }
            Value::Dict(Rc::new(out.into()))
        }
        Value::Set(items) => {
            let items = items.borrow().clone();
            let out = items
                .iter()
                .map(|v| deep(v, memo))
                .collect::<Result<Vec<_>>>()?;
            Value::Set(Rc::new(out.into()))
        }
        Value::Tensor(t) => {
            if !t.is_leaf() {
                return Err(PyException::new(
                    ExcType::RuntimeError,
                    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the moment.  If you were attempting to deepcopy a module, this may be because of a torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001",
                ));
            }
            let copy = t.detach().clone_tensor()?;
            copy.set_requires_grad(t.requires_grad())?;
            Value::Tensor(copy)
        }
        Value::NdArray(a) => Value::NdArray(Rc::new(a.copy()?)),
        other => return Err(not_yet("deepcopy", other)),
    };
    if let Some(k) = key {
        memo.insert(k, copy.clone());
    }
    Ok(copy)
}
