//! `t[index]` and `t[index] = value`: Python's index turned into the engine's parts
//! ([`TensorIndex`]) as PyTorch's `applySlicing` reads it — integers, slices, `None`, `...`,
//! `True`/`False`, tensors, and lists (a list of numbers is an index tensor; one holding
//! sequences, slices or tensors is read as a tuple, with PyTorch's deprecation warning).

use tolab_engine::{Tensor, TensorIndex};

use crate::python::exception::{ExcType, PyException};
use crate::python::operators::{iterate, scalar};
use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

/// `t[index]`.
pub fn get(t: &Tensor, index: &Value) -> Result<Value> {
    Ok(Value::Tensor(t.index(&parts(t, index)?)?))
}

/// `t[index] = value`: a number or a tensor (any dtype: it is cast to the tensor's).
pub fn set(t: &Tensor, index: &Value, value: &Value) -> Result<()> {
    // `t[mask] = number` is `masked_fill_` in PyTorch (and records its node).
    if let (Value::Tensor(mask), Some(number)) = (&*index.resolved(), scalar(value))
        && mask.dtype() == tolab_engine::DType::Bool
        && mask.dim() <= t.dim()
        && t.shape().starts_with(mask.shape())
    {
        let mut shape: Vec<i64> = mask.shape().iter().map(|&s| s as i64).collect();
        shape.resize(t.dim(), 1);
        t.masked_fill_(&mask.reshape(&shape)?, number)?;
        return Ok(());
    }
    let parts = parts(t, index)?;
    let values = match &*value.resolved() {
        Value::Tensor(v) => v.clone(),
        other => {
            let number = scalar(other).ok_or_else(|| {
                PyException::new(
                    ExcType::TypeError,
                    format!(
                        "can't assign a {} to a {}",
                        other.type_name(),
                        t.type_name()
                    ),
                )
            })?;
            // A number is written in the tensor's own dtype, on the CPU as a 0-dim tensor (a
            // kernel argument, as in PyTorch).
            Tensor::full(
                t.session(),
                &[],
                number,
                t.dtype(),
                tolab_engine::Device::CPU,
            )?
        }
    };
    t.index_assign(&parts, &values)?;
    Ok(())
}

/// The parts of an index: a tuple's items, or the one value.
fn parts(t: &Tensor, index: &Value) -> Result<Vec<TensorIndex>> {
    let items = match &*index.resolved() {
        Value::Tuple(_) if !is_slice(index) => iterate(index)?,
        Value::List(_) if sequence_is_tuple(index)? => {
            t.session().warn(
                "Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be interpreted as tensor index, x[torch.tensor(seq)], which will result either in an error or a different result",
            );
            iterate(index)?
        }
        _ => vec![index.clone()],
    };
    items.iter().map(|item| part(t, item)).collect()
}

/// PyTorch's `treatSequenceAsTuple`: a list is a tuple of indices when it holds a sequence, a
/// slice, `...`, `None` or a tensor.
fn sequence_is_tuple(list: &Value) -> Result<bool> {
    Ok(iterate(list)?.iter().any(|item| {
        matches!(
            &*item.resolved(),
            Value::List(_) | Value::Tuple(_) | Value::None | Value::Tensor(_)
        ) || item.is_ellipsis()
    }))
}

fn is_slice(v: &Value) -> bool {
    matches!(v, Value::Tuple(parts) if matches!(parts.first(), Some(Value::Str(tag)) if tag.as_ref() == "slice") && parts.len() == 4)
}

fn part(t: &Tensor, item: &Value) -> Result<TensorIndex> {
    if is_slice(item) {
        let Value::Tuple(parts) = item else {
            unreachable!("is_slice checked the shape")
        };
        let bound = |b: &Value| -> Result<Option<i64>> {
            match &*b.resolved() {
                Value::None => Ok(None),
                Value::Int(i) => Ok(Some(*i)),
                Value::Bool(b) => Ok(Some(i64::from(*b))),
                Value::BigInt(_) => Ok(Some(i64::MAX)),
                Value::Tensor(v) if v.numel() == 1 && !v.dtype().is_floating_point() => {
                    Ok(Some(v.item()?.as_f64() as i64))
                }
                _ => Err(PyException::new(
                    ExcType::TypeError,
                    "slice indices must be integers or None or have an __index__ method",
                )),
            }
        };
        return Ok(TensorIndex::Slice {
            start: bound(&parts[1])?,
            stop: bound(&parts[2])?,
            step: bound(&parts[3])?.unwrap_or(1),
        });
    }
    if item.is_ellipsis() {
        return Ok(TensorIndex::Ellipsis);
    }
    Ok(match &*item.resolved() {
        Value::Int(i) => TensorIndex::Int(*i),
        Value::Bool(b) => TensorIndex::Bool(*b),
        Value::None => TensorIndex::None,
        Value::BigInt(_) => {
            return Err(PyException::new(
                ExcType::IndexError,
                "cannot fit 'int' into an index-sized integer",
            ));
        }
        Value::Tensor(index) => TensorIndex::Tensor(index.clone()),
        list @ (Value::List(_) | Value::Tuple(_)) => {
            TensorIndex::Tensor(super::factories::index_tensor(t.session(), list)?)
        }
        Value::NdArray(a) => TensorIndex::Tensor(crate::stdlib::numpy::bridge::copied(a)?),
        Value::NpScalar(x) if !x.dtype.is_float() => TensorIndex::Int(x.value.as_i64()),
        other => {
            return Err(PyException::new(
                ExcType::IndexError,
                format!(
                    "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got {})",
                    other.type_name()
                ),
            ));
        }
    })
}
