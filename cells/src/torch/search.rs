//! Counting and searching as `torch` functions and `Tensor` methods: `bincount`, `histc`,
//! `unique`, `unique_consecutive`, `searchsorted`, `bucketize` (`tolab_engine::ops::search`).

use tolab_engine::ops::{SearchSorted, Unique};
use tolab_engine::{DType, Scalar, Session, Tensor};

use super::ops::{into_out, out_tensor, tensor_value};
use super::{Call, Handler};
use crate::python::exception::PyException;
use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("torch.bincount", Handler::Engine(bincount)),
    ("Tensor.bincount", Handler::Engine(bincount)),
    ("torch.histc", Handler::Engine(histc)),
    ("Tensor.histc", Handler::Engine(histc)),
    ("torch.unique", Handler::Engine(unique)),
    ("Tensor.unique", Handler::Engine(unique)),
    ("torch.unique_consecutive", Handler::Engine(unique)),
    ("Tensor.unique_consecutive", Handler::Engine(unique)),
    ("torch.searchsorted", Handler::Engine(searchsorted)),
    ("torch.bucketize", Handler::Engine(bucketize)),
];

fn bincount(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let weights = call.opt_tensor("weights")?;
    let minlength = call.int("minlength")?;
    call.finish()?;
    tensor_value(t.bincount(weights.as_ref(), minlength)?)
}

fn histc(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let bins = call.int("bins")?;
    let (min, max) = (call.scalar("min")?, call.scalar("max")?);
    let out = out_tensor(call)?;
    call.finish()?;
    into_out(call, out, t.histc(bins, min.as_f64(), max.as_f64())?)
}

/// `unique` and `unique_consecutive`: the values alone, or a tuple with the inverse indices
/// and the counts that were asked for, as `torch/functional.py` returns them. `sorted` is
/// read and needs no work: PyTorch's CPU and CUDA kernels both always sort.
fn unique(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let consecutive = call.binding.name() == "unique_consecutive";
    if !consecutive {
        call.truthy("sorted")?;
    }
    let (inverse, counts) = (
        call.truthy("return_inverse")?,
        call.truthy("return_counts")?,
    );
    let dim = call.opt_int("dim")?;
    call.finish()?;
    let Unique {
        values,
        inverse,
        counts,
    } = match consecutive {
        true => t.unique_consecutive(inverse, counts, dim)?,
        false => t.unique(inverse, counts, dim)?,
    };
    let parts: Vec<Tensor> = std::iter::once(values)
        .chain(inverse)
        .chain(counts)
        .collect();
    Ok(match parts.len() {
        1 => Value::Tensor(parts.into_iter().next().expect("one part")),
        _ => Value::Tuple(parts.into_iter().map(Value::Tensor).collect()),
    })
}

/// A Python number searched for: a 0-dim tensor on the boundaries' device, its dtype the
/// number's own (`searchsorted_scalar_tensor`: float64 for a float).
fn scalar_input(call: &Call, name: &str, beside: &Tensor) -> Result<Tensor> {
    let number = call.scalar(name)?;
    let dtype = match number {
        Scalar::Float(_) => DType::Float64,
        Scalar::Int(_) => DType::Int64,
        Scalar::Bool(_) => DType::Bool,
    };
    Ok(Tensor::full(
        beside.session(),
        &[],
        number,
        dtype,
        beside.device(),
    )?)
}

/// The dtype of `out=`, where given (checked among the op's own arguments).
fn out_dtype(out: &Option<Tensor>) -> Option<DType> {
    out.as_ref().map(Tensor::dtype)
}

fn searchsorted(call: &Call, _: &Session) -> Result<Value> {
    let boundaries = call.tensor("sorted_sequence")?;
    let values = match call.signature().position("input") {
        Some(_) => call.tensor("input")?,
        None => scalar_input(call, "self", &boundaries)?,
    };
    let (out_int32, right) = (call.bool("out_int32")?, call.bool("right")?);
    let side = call.string("side")?;
    let sorter = call.opt_tensor("sorter")?;
    let out = out_tensor(call)?;
    call.finish()?;
    let options = SearchSorted {
        out_int32,
        right,
        side: side.as_deref(),
        sorter: sorter.as_ref(),
        out_dtype: out_dtype(&out),
    };
    into_out(call, out, boundaries.searchsorted(&values, options)?)
}

fn bucketize(call: &Call, _: &Session) -> Result<Value> {
    let boundaries = call.tensor("boundaries")?;
    let input = match call.signature().position("input") {
        Some(_) => call.tensor("input")?,
        None => scalar_input(call, "self", &boundaries)?,
    };
    let (out_int32, right) = (call.bool("out_int32")?, call.bool("right")?);
    let out = out_tensor(call)?;
    call.finish()?;
    let result = input.bucketize(&boundaries, out_int32, right, out_dtype(&out))?;
    into_out(call, out, result)
}
