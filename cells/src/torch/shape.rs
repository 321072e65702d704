//! The shape and joining ops as `torch` functions and `Tensor` methods: narrowing, splitting,
//! moving, flipping, rolling, repeating, diagonals, triangles and stacking. The engine does the
//! work (`tolab_engine::ops::shape`); a handler reads the call and says what came back.

use tolab_engine::{Session, Tensor};

use super::{Call, Handler};
use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("torch.narrow", Handler::Engine(narrow)),
    ("Tensor.narrow", Handler::Engine(narrow)),
    ("torch.split", Handler::Engine(split)),
    ("Tensor.split", Handler::Engine(split)),
    ("torch.chunk", Handler::Engine(chunk)),
    ("Tensor.chunk", Handler::Engine(chunk)),
    ("torch.tensor_split", Handler::Engine(tensor_split)),
    ("Tensor.tensor_split", Handler::Engine(tensor_split)),
    ("torch.unbind", Handler::Engine(unbind)),
    ("Tensor.unbind", Handler::Engine(unbind)),
    ("torch.movedim", Handler::Engine(movedim)),
    ("Tensor.movedim", Handler::Engine(movedim)),
    ("torch.moveaxis", Handler::Engine(movedim)),
    ("Tensor.moveaxis", Handler::Engine(movedim)),
    ("torch.swapaxes", Handler::Engine(swap)),
    ("Tensor.swapaxes", Handler::Engine(swap)),
    ("torch.swapdims", Handler::Engine(swap)),
    ("Tensor.swapdims", Handler::Engine(swap)),
    ("torch.flip", Handler::Engine(flip)),
    ("Tensor.flip", Handler::Engine(flip)),
    ("torch.fliplr", Handler::Engine(flip)),
    ("Tensor.fliplr", Handler::Engine(flip)),
    ("torch.flipud", Handler::Engine(flip)),
    ("Tensor.flipud", Handler::Engine(flip)),
    ("torch.roll", Handler::Engine(roll)),
    ("Tensor.roll", Handler::Engine(roll)),
    ("torch.rot90", Handler::Engine(rot90)),
    ("Tensor.rot90", Handler::Engine(rot90)),
    ("Tensor.repeat", Handler::Engine(repeat)),
    ("torch.tile", Handler::Engine(repeat)),
    ("Tensor.tile", Handler::Engine(repeat)),
    (
        "torch.repeat_interleave",
        Handler::Engine(repeat_interleave),
    ),
    (
        "Tensor.repeat_interleave",
        Handler::Engine(repeat_interleave),
    ),
    ("Tensor.expand_as", Handler::Engine(like)),
    ("Tensor.view_as", Handler::Engine(like)),
    ("Tensor.reshape_as", Handler::Engine(like)),
    ("torch.broadcast_to", Handler::Engine(broadcast_to)),
    ("Tensor.broadcast_to", Handler::Engine(broadcast_to)),
    (
        "torch.broadcast_tensors",
        Handler::Engine(broadcast_tensors),
    ),
    ("torch.broadcast_shapes", Handler::Engine(broadcast_shapes)),
    ("torch.meshgrid", Handler::Engine(meshgrid)),
    ("torch.unflatten", Handler::Engine(unflatten)),
    ("Tensor.unflatten", Handler::Engine(unflatten)),
    ("Tensor.unfold", Handler::Engine(unfold)),
    ("torch.diag", Handler::Engine(diag)),
    ("Tensor.diag", Handler::Engine(diag)),
    ("torch.diagonal", Handler::Engine(diagonal)),
    ("Tensor.diagonal", Handler::Engine(diagonal)),
    ("torch.diag_embed", Handler::Engine(diagonal)),
    ("Tensor.diag_embed", Handler::Engine(diagonal)),
    ("torch.triu", Handler::Engine(triangle)),
    ("Tensor.triu", Handler::Engine(triangle)),
    ("torch.tril", Handler::Engine(triangle)),
    ("Tensor.tril", Handler::Engine(triangle)),
    ("Tensor.triu_", Handler::Engine(triangle_)),
    ("Tensor.tril_", Handler::Engine(triangle_)),
    ("torch.trace", Handler::Engine(trace)),
    ("Tensor.trace", Handler::Engine(trace)),
    ("torch.hstack", Handler::Engine(stack_like)),
    ("torch.vstack", Handler::Engine(stack_like)),
    ("torch.row_stack", Handler::Engine(stack_like)),
    ("torch.dstack", Handler::Engine(stack_like)),
    ("torch.column_stack", Handler::Engine(stack_like)),
    ("torch.concat", Handler::Engine(stack_like)),
    ("torch.concatenate", Handler::Engine(stack_like)),
    ("torch.ravel", Handler::Engine(ravel)),
    ("Tensor.ravel", Handler::Engine(ravel)),
    ("torch.atleast_1d", Handler::Engine(at_least)),
    ("torch.atleast_2d", Handler::Engine(at_least)),
    ("torch.atleast_3d", Handler::Engine(at_least)),
];

fn tensor(t: Tensor) -> Result<Value> {
    Ok(Value::Tensor(t))
}

fn tuple(tensors: Vec<Tensor>) -> Result<Value> {
    Ok(Value::Tuple(
        tensors.into_iter().map(Value::Tensor).collect(),
    ))
}

/// `narrow(dim, start, length)`; `start` may be a one-element tensor.
fn narrow(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let (dim, start, length) = (call.int("dim")?, call.int("start")?, call.int("length")?);
    call.finish()?;
    tensor(t.narrow(dim, start, length)?)
}

/// `torch.split(tensor, split_size_or_sections, dim=0)` and `Tensor.split(split_size, dim=0)`
/// (Python functions in PyTorch): an int splits evenly, a list gives each piece's size.
fn split(call: &Call, _: &Session) -> Result<Value> {
    let t = match call.receiver() {
        Some(_) => call.input()?,
        None => call.tensor("tensor")?,
    };
    let name = match call.signature().position("split_size") {
        Some(_) => "split_size",
        None => "split_size_or_sections",
    };
    let sizes = call.value(name)?.unwrap_or(Value::None);
    let dim = call.int_value("dim")?;
    call.finish()?;
    tuple(match &*sizes.resolved() {
        Value::Int(size) => t.split(*size, dim)?,
        Value::List(_) | Value::Tuple(_) | Value::Size(_) => {
            let sizes = crate::python::operators::iterate(&sizes)?
                .iter()
                .map(|v| match &*v.resolved() {
                    Value::Int(i) => Ok(*i),
                    other => Err(split_sizes_error(other)),
                })
                .collect::<Result<Vec<_>>>()?;
            t.split_with_sizes(&sizes, dim)?
        }
        other => return Err(split_sizes_error(other)),
    })
}

/// `split_with_sizes`'s parser refusing a list of what are not ints.
fn split_sizes_error(got: &Value) -> PyException {
    PyException::new(
        ExcType::TypeError,
        format!(
            "split_with_sizes(): argument 'split_sizes' (position 1) must be tuple of ints, but found element of type {} at pos 0",
            super::parse::tp_name(got)
        ),
    )
}

fn chunk(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let (chunks, dim) = (call.int("chunks")?, call.int("dim")?);
    call.finish()?;
    tuple(t.chunk(chunks, dim)?)
}

/// `tensor_split(indices | sections | tensor_indices_or_sections, dim=0)`.
fn tensor_split(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let dim = call.int("dim")?;
    let pieces = if call.signature().position("indices").is_some() {
        t.tensor_split_indices(&call.int_list("indices")?, dim)?
    } else if call.signature().position("sections").is_some() {
        t.tensor_split_sections(call.int("sections")?, dim)?
    } else {
        let given = call.tensor("tensor_indices_or_sections")?;
        let values: Vec<i64> = given.scalars()?.iter().map(|s| s.as_f64() as i64).collect();
        match given.dim() {
            0 => t.tensor_split_sections(values[0], dim)?,
            _ => t.tensor_split_indices(&values, dim)?,
        }
    };
    call.finish()?;
    tuple(pieces)
}

fn unbind(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let dim = call.int("dim")?;
    call.finish()?;
    tuple(t.unbind(dim)?)
}

/// `movedim(source, destination)` (and `moveaxis`): one dim or lists of them.
fn movedim(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let (source, destination) = (call.int_list("source")?, call.int_list("destination")?);
    call.finish()?;
    tensor(t.movedim(&source, &destination)?)
}

/// `swapaxes(axis0, axis1)` and `swapdims(dim0, dim1)`: a transpose.
fn swap(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let (a, b) = match call.signature().position("axis0") {
        Some(_) => (call.int("axis0")?, call.int("axis1")?),
        None => (call.int("dim0")?, call.int("dim1")?),
    };
    call.finish()?;
    tensor(t.transpose(a, b)?)
}

/// `flip(dims)`, `fliplr()` (dim 1 of a tensor of 2 or more dims), `flipud()` (dim 0).
fn flip(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let dims = match call.binding.name() {
        "fliplr" if t.dim() < 2 => return Err(runtime("Input must be >= 2-d.")),
        "fliplr" => vec![1],
        "flipud" if t.dim() < 1 => return Err(runtime("Input must be >= 1-d.")),
        "flipud" => vec![0],
        _ => call.int_list("dims")?,
    };
    call.finish()?;
    tensor(t.flip(&dims)?)
}

fn roll(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let shifts = call.int_list("shifts")?;
    let dims = call.opt_int_list("dims")?.unwrap_or_default();
    call.finish()?;
    tensor(t.roll(&shifts, &dims)?)
}

fn rot90(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let (k, dims) = (call.int("k")?, call.int_list("dims")?);
    call.finish()?;
    tensor(t.rot90(k, &dims)?)
}

/// `repeat(*sizes)` and `tile(dims)`.
fn repeat(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let result = match call.binding.name() {
        "repeat" => t.repeat(&call.int_list("repeats")?)?,
        _ => t.tile(&call.int_list("dims")?)?,
    };
    call.finish()?;
    tensor(result)
}

/// `repeat_interleave(repeats, dim=None)` with an int or a tensor of counts, and
/// `torch.repeat_interleave(repeats)` alone. `output_size` only spares PyTorch a sync; the lab
/// checks it against the size it computes.
fn repeat_interleave(call: &Call, _: &Session) -> Result<Value> {
    let output_size = call.opt_int("output_size")?;
    let has_input = call.receiver().is_some() || call.signature().position("input").is_some();
    let result = if !has_input {
        Tensor::repeat_interleave_positions(&call.tensor("repeats")?)?
    } else {
        let t = call.input()?;
        let dim = call.opt_int("dim")?;
        match call.get("repeats").map(Value::resolved).as_deref() {
            Some(Value::Tensor(counts)) => t.repeat_interleave_counts(counts, dim)?,
            _ => t.repeat_interleave(call.int("repeats")?, dim)?,
        }
    };
    call.finish()?;
    if let Some(size) = output_size
        && result.shape().first().copied() != usize::try_from(size).ok()
    {
        return Err(runtime(format!(
            "Allocated size does not match required size. Allocated: {size}, required: {}",
            result.shape().first().copied().unwrap_or(1)
        )));
    }
    tensor(result)
}

/// `expand_as(other)`, `view_as(other)`, `reshape_as(other)`.
fn like(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let other = call.tensor("other")?;
    call.finish()?;
    let shape: Vec<i64> = other.shape().iter().map(|&s| s as i64).collect();
    tensor(match call.binding.name() {
        "expand_as" => t.expand(&shape)?,
        "view_as" => t.view(&shape)?,
        _ => t.reshape(&shape)?,
    })
}

fn broadcast_to(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let size = call.int_list("size")?;
    call.finish()?;
    tensor(t.expand(&size)?)
}

/// The tensors of a `*tensors` call: each positional argument, or one list or tuple of them.
fn rest_tensors(call: &Call, function: &str) -> Result<Vec<Tensor>> {
    let rest = call.rest();
    let items = match rest {
        [one] if matches!(&*one.resolved(), Value::List(_) | Value::Tuple(_)) => {
            crate::python::operators::iterate(one)?
        }
        _ => rest.to_vec(),
    };
    items
        .iter()
        .map(|v| match &*v.resolved() {
            Value::Tensor(t) => Ok(t.clone()),
            other => Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "{function}(): expected Tensor as element 0 in argument 0, but got {}",
                    super::parse::tp_name(other)
                ),
            )),
        })
        .collect()
}

fn broadcast_tensors(call: &Call, _: &Session) -> Result<Value> {
    let tensors = rest_tensors(call, "broadcast_tensors")?;
    call.finish()?;
    tuple(Tensor::broadcast_tensors(
        &tensors.iter().collect::<Vec<_>>(),
    )?)
}

/// `torch.broadcast_shapes(*shapes)`: the shape every one broadcasts to, as a `torch.Size`.
fn broadcast_shapes(call: &Call, _: &Session) -> Result<Value> {
    let mut shape: Vec<usize> = Vec::new();
    for given in call.rest() {
        let dims: Vec<usize> = match &*given.resolved() {
            Value::Int(n) => vec![usize::try_from(*n).map_err(|_| negative_shape(*n))?],
            other => crate::python::operators::iterate(other)?
                .iter()
                .map(|v| match &*v.resolved() {
                    Value::Int(n) => usize::try_from(*n).map_err(|_| negative_shape(*n)),
                    other => Err(PyException::new(
                        ExcType::TypeError,
                        format!(
                            "Input shapes should be of type ints, a tuple of ints, or a list of ints, got  {}",
                            other.repr()
                        ),
                    )),
                })
                .collect::<Result<_>>()?,
        };
        shape = tolab_engine::layout::broadcast_shapes(&shape, &dims).map_err(|_| {
            runtime(format!(
                "Shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between {:?} and {:?}.",
                shape, dims
            ))
        })?;
    }
    call.finish()?;
    Ok(Value::size(&shape))
}

fn negative_shape(n: i64) -> PyException {
    runtime(format!(
        "Trying to create tensor with negative dimension {n}: [{n}]"
    ))
}

/// `torch.meshgrid(*tensors, indexing=None)`: `ij` unless `xy` is asked for; PyTorch warns when
/// the indexing is not given.
fn meshgrid(call: &Call, session: &Session) -> Result<Value> {
    let tensors = rest_tensors(call, "meshgrid")?;
    let indexing = match call.value("indexing")?.as_ref() {
        Some(Value::Str(s)) => Some(s.to_string()),
        _ => None,
    };
    call.finish()?;
    let cartesian = match indexing.as_deref() {
        None => {
            session.warn(
                "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
            );
            false
        }
        Some("ij") => false,
        Some("xy") => true,
        Some(other) => {
            return Err(runtime(format!(
                "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: {other}"
            )));
        }
    };
    tuple(Tensor::meshgrid(
        &tensors.iter().collect::<Vec<_>>(),
        cartesian,
    )?)
}

/// `unflatten(dim, sizes)` (`Tensor.unflatten` is a Python method in PyTorch).
fn unflatten(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let (dim, sizes) = match call.signature().position("self") {
        Some(_) => {
            let sizes = call.value("sizes")?.unwrap_or(Value::None);
            let sizes = crate::python::operators::iterate(&sizes)?
                .iter()
                .map(|v| match &*v.resolved() {
                    Value::Int(i) => Ok(*i),
                    other => Err(PyException::new(
                        ExcType::TypeError,
                        format!(
                            "unflatten(): argument 'sizes' (position 2) must be tuple of ints, but found element of type {} at pos 0",
                            super::parse::tp_name(other)
                        ),
                    )),
                })
                .collect::<Result<Vec<_>>>()?;
            (call.int_value("dim")?, sizes)
        }
        None => (call.int("dim")?, call.int_list("sizes")?),
    };
    call.finish()?;
    tensor(t.unflatten(dim, &sizes)?)
}

fn unfold(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let (dim, size, step) = (call.int("dimension")?, call.int("size")?, call.int("step")?);
    call.finish()?;
    tensor(t.unfold(dim, size, step)?)
}

fn diag(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let offset = call.int("diagonal")?;
    let out = super::ops::out_tensor(call)?;
    call.finish()?;
    super::ops::into_out(call, out, t.diag(offset)?)
}

/// `diagonal(offset, dim1, dim2)` and `diag_embed(offset, dim1, dim2)`.
fn diagonal(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let (offset, dim1, dim2) = (call.int("offset")?, call.int("dim1")?, call.int("dim2")?);
    call.finish()?;
    tensor(match call.binding.name() {
        "diagonal" => t.diagonal(offset, dim1, dim2)?,
        _ => t.diag_embed(offset, dim1, dim2)?,
    })
}

fn triangle(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let offset = call.int("diagonal")?;
    let out = super::ops::out_tensor(call)?;
    call.finish()?;
    let upper = call.binding.name() == "triu";
    super::ops::into_out(call, out, t.triangle(upper, offset)?)
}

fn triangle_(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let offset = call.int("diagonal")?;
    call.finish()?;
    t.triangle_(call.binding.name() == "triu_", offset)?;
    tensor(t)
}

fn trace(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    call.finish()?;
    tensor(t.trace()?)
}

/// `hstack`, `vstack`/`row_stack`, `dstack`, `column_stack`, and `concat`/`concatenate`
/// (`cat`'s aliases).
fn stack_like(call: &Call, _: &Session) -> Result<Value> {
    let tensors = call.tensors("tensors")?;
    let refs: Vec<&Tensor> = tensors.iter().collect();
    let dim = match call.signature().position("dim") {
        Some(_) => Some(call.int("dim")?),
        None => None,
    };
    let out = super::ops::out_tensor(call)?;
    call.finish()?;
    let result = match (call.binding.name(), dim) {
        ("hstack", _) => Tensor::hstack(&refs)?,
        ("vstack" | "row_stack", _) => Tensor::vstack(&refs)?,
        ("dstack", _) => Tensor::dstack(&refs)?,
        ("column_stack", _) => Tensor::column_stack(&refs)?,
        (_, dim) => Tensor::cat(&refs, dim.unwrap_or(0))?,
    };
    super::ops::into_out(call, out, result)
}

fn ravel(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    call.finish()?;
    tensor(t.flatten_all()?)
}

/// `atleast_1d(*tensors)`: one tensor back for one given, else a tuple.
fn at_least(call: &Call, _: &Session) -> Result<Value> {
    let n = match call.binding.name() {
        "atleast_1d" => 1,
        "atleast_2d" => 2,
        _ => 3,
    };
    let single = matches!(call.rest(), [one] if matches!(&*one.resolved(), Value::Tensor(_)));
    let tensors = rest_tensors(call, call.binding.name())?;
    call.finish()?;
    let lifted = tensors
        .iter()
        .map(|t| t.at_least(n))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    match (single, lifted.as_slice()) {
        (true, [one]) => tensor(one.clone()),
        _ => tuple(lifted),
    }
}

fn runtime(message: impl Into<String>) -> PyException {
    PyException::new(ExcType::RuntimeError, message.into())
}
