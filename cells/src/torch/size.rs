//! `torch.Size`: the tuple of ints a shape is. Made from any iterable of ints (or of
//! one-element integer tensors), it is a tuple everywhere a tuple is taken, and concatenating
//! or repeating it gives a `torch.Size` again, as PyTorch's `THPSize` does.

use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

/// `torch.Size(items)`: each item an int, or something that is one (`__index__`).
pub fn from_items(items: &[Value]) -> Result<Value> {
    let dims = items
        .iter()
        .enumerate()
        .map(|(i, item)| match &*item.resolved() {
            Value::Int(d) => Ok(*d),
            Value::Bool(b) => Ok(i64::from(*b)),
            Value::BigInt(_) => Err(super::parse::overflow_long_long()),
            Value::Tensor(t) if t.numel() == 1 && !t.dtype().is_floating_point() => {
                Ok(match t.item()? {
                    tolab_engine::Scalar::Int(d) => d,
                    tolab_engine::Scalar::Bool(b) => i64::from(b),
                    tolab_engine::Scalar::Float(x) => x as i64,
                })
            }
            other => Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "torch.Size() takes an iterable of 'int' (item {i} is '{}')",
                    other.type_name()
                ),
            )),
        })
        .collect::<Result<Vec<i64>>>()?;
    Ok(Value::Size(dims.into()))
}

/// `size + tuple`, `tuple + size` and `size * n`: a `torch.Size` again; `None` for the
/// operations a Size takes no part in.
pub fn binary(op: ruff_python_ast::Operator, left: &Value, right: &Value) -> Option<Result<Value>> {
    use ruff_python_ast::Operator;
    let items = |v: &Value| crate::python::operators::iterate(v);
    match (op, left, right) {
        (Operator::Add, Value::Size(_), Value::Size(_) | Value::Tuple(_))
        | (Operator::Add, Value::Tuple(_), Value::Size(_)) => {
            let joined = items(left).and_then(|mut all| {
                all.extend(items(right)?);
                Ok(all)
            });
            Some(joined.and_then(|all| from_items(&all)))
        }
        (Operator::Add, Value::Size(_), other) => Some(Err(PyException::new(
            ExcType::TypeError,
            format!(
                "can only concatenate tuple (not {}) to torch.Size",
                other.type_name()
            ),
        ))),
        (Operator::Mult, Value::Size(dims), Value::Int(n))
        | (Operator::Mult, Value::Int(n), Value::Size(dims)) => Some(
            crate::python::operators::repetitions(dims.len(), *n)
                .map(|times| Value::Size(dims.repeat(times).into())),
        ),
        _ => None,
    }
}

/// `size.numel()`: the product of the sizes.
pub fn numel(dims: &[i64]) -> Value {
    Value::Int(dims.iter().fold(1i64, |n, &d| n.wrapping_mul(d)))
}
