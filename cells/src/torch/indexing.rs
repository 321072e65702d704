//! `t[index]` and `t[index] = value`: Python's index turned into the engine's parts
//! ([`TensorIndex`]) as PyTorch's `applySlicing` reads it — integers, slices, `None`, `...`,
//! `True`/`False`, tensors, and lists (a list of numbers is an index tensor; one holding
//! sequences, slices or tensors is read as a tuple, with PyTorch's deprecation warning); and the
//! ops that write or read through an index: `scatter` and its reductions, `index_add`,
//! `index_fill`, `index_copy`, `index_put`, the mask ops, `take`, `nonzero`, `select`.

use tolab_engine::{ScatterReduce, Session, Source, Tensor, TensorIndex};

use super::{Call, Handler};
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
            Value::List(_) | Value::Tuple(_) | Value::Range { .. } | Value::None | Value::Tensor(_)
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
        // A `range` is a sequence to PyTorch's indexing, read as the list of its ints.
        range @ Value::Range { .. } => TensorIndex::Tensor(super::factories::index_tensor(
            t.session(),
            &Value::list(iterate(range)?),
        )?),
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

pub const HANDLERS: &[(&str, Handler)] = &[
    ("torch.scatter", Handler::Engine(scatter)),
    ("Tensor.scatter", Handler::Engine(scatter)),
    ("Tensor.scatter_", Handler::Engine(scatter)),
    ("torch.scatter_add", Handler::Engine(scatter)),
    ("Tensor.scatter_add", Handler::Engine(scatter)),
    ("Tensor.scatter_add_", Handler::Engine(scatter)),
    ("torch.scatter_reduce", Handler::Engine(scatter)),
    ("Tensor.scatter_reduce", Handler::Engine(scatter)),
    ("Tensor.scatter_reduce_", Handler::Engine(scatter)),
    ("torch.index_add", Handler::Engine(index_ops)),
    ("Tensor.index_add", Handler::Engine(index_ops)),
    ("Tensor.index_add_", Handler::Engine(index_ops)),
    ("torch.index_fill", Handler::Engine(index_ops)),
    ("Tensor.index_fill", Handler::Engine(index_ops)),
    ("Tensor.index_fill_", Handler::Engine(index_ops)),
    ("torch.index_copy", Handler::Engine(index_ops)),
    ("Tensor.index_copy", Handler::Engine(index_ops)),
    ("Tensor.index_copy_", Handler::Engine(index_ops)),
    ("torch.index_put", Handler::Engine(index_put)),
    ("Tensor.index_put", Handler::Engine(index_put)),
    ("Tensor.index_put_", Handler::Engine(index_put)),
    ("torch.masked_select", Handler::Engine(masked)),
    ("Tensor.masked_select", Handler::Engine(masked)),
    ("Tensor.masked_fill_", Handler::Engine(masked)),
    ("torch.masked_scatter", Handler::Engine(masked)),
    ("Tensor.masked_scatter", Handler::Engine(masked)),
    ("Tensor.masked_scatter_", Handler::Engine(masked)),
    ("torch.take", Handler::Engine(take)),
    ("Tensor.take", Handler::Engine(take)),
    ("torch.take_along_dim", Handler::Engine(take)),
    ("Tensor.take_along_dim", Handler::Engine(take)),
    ("torch.nonzero", Handler::Engine(nonzero)),
    ("Tensor.nonzero", Handler::Engine(nonzero)),
    ("torch.argwhere", Handler::Engine(nonzero)),
    ("Tensor.argwhere", Handler::Engine(nonzero)),
    ("torch.select", Handler::Engine(select)),
    ("Tensor.select", Handler::Engine(select)),
];

fn tensor(t: Tensor) -> Result<Value> {
    Ok(Value::Tensor(t))
}

/// The name of a method without its in-place `_`, and whether it had one.
fn in_place(call: &Call) -> (&'static str, bool) {
    let name = call.binding.name();
    match name.strip_suffix('_') {
        Some(base) => (base, true),
        None => (name, false),
    }
}

/// `scatter(dim, index, src | value, *, reduce)`, `scatter_add(dim, index, src)`,
/// `scatter_reduce(dim, index, src, reduce, *, include_self)` and their `_` forms.
fn scatter(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let (name, inplace) = in_place(call);
    let dim = call.int("dim")?;
    let index = call.tensor("index")?;
    let src = match call.signature().position("src") {
        Some(_) => Some(call.tensor("src")?),
        None => None,
    };
    let value = match call.signature().position("value") {
        Some(_) => Some(call.scalar("value")?),
        None => None,
    };
    let source = match (&src, value) {
        (Some(src), _) => Source::Tensor(src),
        (None, Some(v)) => Source::Value(v),
        (None, None) => return Err(internal("scatter without a source")),
    };
    let reduce = match call.signature().position("reduce") {
        Some(_) => call.string("reduce")?,
        None => None,
    };
    let include_self =
        call.signature().position("include_self").is_some() && call.bool("include_self")?;
    let out = super::ops::out_tensor(call)?;
    call.finish()?;
    let op = |t: &Tensor| -> std::result::Result<Tensor, tolab_engine::Error> {
        match (name, reduce.as_deref()) {
            ("scatter_add", _) => t.scatter_add(dim, &index, src.as_ref().unwrap_or(t)),
            ("scatter_reduce", Some(reduce)) => t.scatter_reduce(
                dim,
                &index,
                src.as_ref().unwrap_or(t),
                ScatterReduce::from_name(reduce)?,
                include_self,
            ),
            (_, Some(reduce)) => t.scatter_legacy(
                dim,
                &index,
                source,
                ScatterReduce::from_legacy_name(reduce)?,
            ),
            (_, None) => t.scatter(dim, &index, source),
        }
    };
    if inplace {
        t.in_place(op, vec![src.clone()])?;
        return tensor(t);
    }
    super::ops::into_out(call, out, op(&t)?)
}

/// `index_add(dim, index, source, *, alpha)`, `index_fill(dim, index, value)`,
/// `index_copy(dim, index, source)`, and their `_` forms.
fn index_ops(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let (name, inplace) = in_place(call);
    let dim = call.int("dim")?;
    let index = call.tensor("index")?;
    let source = match call.signature().position("source") {
        Some(_) => Some(call.tensor("source")?),
        None => None,
    };
    let value = match call.signature().position("value") {
        Some(_) => Some(super::ops::fill_value(call, |dim| {
            format!(
                "index_fill_ only supports a 0-dimensional value tensor, but got tensor with {dim} dimension(s)."
            )
        })?),
        None => None,
    };
    let alpha = match call.signature().position("alpha") {
        Some(_) => call.scalar("alpha")?,
        None => tolab_engine::Scalar::Int(1),
    };
    let out = super::ops::out_tensor(call)?;
    call.finish()?;
    let op = |t: &Tensor| match (name, &source, value) {
        ("index_add", Some(source), _) => t.index_add(dim, &index, source, alpha),
        ("index_copy", Some(source), _) => t.index_copy(dim, &index, source),
        (_, _, Some(value)) => t.index_fill(dim, &index, value),
        _ => Err(tolab_engine::Error::NoTensorOperand),
    };
    if inplace {
        t.in_place(op, vec![source.clone()])?;
        return tensor(t);
    }
    super::ops::into_out(call, out, op(&t)?)
}

/// `index_put(indices, values, accumulate)` and `index_put_`: `indices` a tuple of index
/// tensors (or `None` for a dim taken whole).
fn index_put(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let (_, inplace) = in_place(call);
    let given = call.value("indices")?.unwrap_or(Value::None);
    let indices = iterate(&given)?
        .iter()
        .map(|v| match &*v.resolved() {
            Value::None => Ok(None),
            Value::Tensor(t) => Ok(Some(t.clone())),
            other => Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "index_put(): argument 'indices' must be tuple of Tensors, not {}",
                    super::parse::tp_name(other)
                ),
            )),
        })
        .collect::<Result<Vec<_>>>()?;
    let values = call.tensor("values")?;
    let accumulate = call.bool("accumulate")?;
    call.finish()?;
    if inplace {
        t.index_put_(&indices, &values, accumulate)?;
        return tensor(t);
    }
    tensor(t.index_put(&indices, &values, accumulate)?)
}

/// `masked_select(mask)`, `masked_fill_(mask, value)`, `masked_scatter(mask, source)` and
/// `masked_scatter_`.
fn masked(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let (name, inplace) = in_place(call);
    let mask = call.tensor("mask")?;
    let result = match name {
        "masked_select" => {
            let out = super::ops::out_tensor(call)?;
            call.finish()?;
            return super::ops::into_out(call, out, t.masked_select(&mask)?);
        }
        "masked_fill" => {
            let value = super::ops::fill_value(call, |dim| {
                format!(
                    "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {dim} dimension(s)."
                )
            })?;
            call.finish()?;
            t.masked_fill_(&mask, value)?;
            return tensor(t);
        }
        _ => {
            let source = call.tensor("source")?;
            call.finish()?;
            if inplace {
                t.in_place(
                    |t| t.masked_scatter(&mask, &source),
                    vec![Some(source.clone())],
                )?;
                return tensor(t);
            }
            t.masked_scatter(&mask, &source)?
        }
    };
    tensor(result)
}

/// `take(index)` and `take_along_dim(indices, dim=None)`.
fn take(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let result = match call.binding.name() {
        "take" => t.take(&call.tensor("index")?)?,
        _ => t.take_along_dim(&call.tensor("indices")?, call.opt_int("dim")?)?,
    };
    let out = super::ops::out_tensor(call)?;
    call.finish()?;
    super::ops::into_out(call, out, result)
}

/// `nonzero(as_tuple=False)` and `argwhere()`.
fn nonzero(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let as_tuple = call.signature().position("as_tuple").is_some() && call.bool("as_tuple")?;
    let out = match call.signature().position("out") {
        Some(_) => super::ops::out_tensor(call)?,
        None => None,
    };
    call.finish()?;
    if as_tuple {
        let columns = t.nonzero_columns()?;
        return Ok(Value::Tuple(
            columns.into_iter().map(Value::Tensor).collect(),
        ));
    }
    super::ops::into_out(call, out, t.nonzero()?)
}

/// `select(dim, index)`: one slice, the dim removed.
fn select(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let (dim, index) = (call.int("dim")?, call.int("index")?);
    call.finish()?;
    tensor(t.select(dim, index)?)
}

fn internal(message: &str) -> PyException {
    PyException::new(ExcType::RuntimeError, format!("internal error: {message}"))
}
