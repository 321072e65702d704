//! Order statistics as `torch` functions and `Tensor` methods: `sort`, `argsort`, `msort`,
//! `topk`, `kthvalue`, `median`, `nanmedian`, `mode`. The engine orders each row as PyTorch's
//! CPU kernels do (`tolab_engine::ops::sort`).

use tolab_engine::{Session, Tensor};

use super::reductions::named_tuple;
use super::{Call, Handler};
use crate::python::exception::PyException;
use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("torch.sort", Handler::Engine(sort)),
    ("Tensor.sort", Handler::Engine(sort)),
    ("torch.argsort", Handler::Engine(argsort)),
    ("Tensor.argsort", Handler::Engine(argsort)),
    ("torch.msort", Handler::Engine(msort)),
    ("Tensor.msort", Handler::Engine(msort)),
    ("torch.topk", Handler::Engine(topk)),
    ("Tensor.topk", Handler::Engine(topk)),
    ("torch.kthvalue", Handler::Engine(kthvalue)),
    ("Tensor.kthvalue", Handler::Engine(kthvalue)),
    ("torch.median", Handler::Engine(median)),
    ("Tensor.median", Handler::Engine(median)),
    ("torch.nanmedian", Handler::Engine(median)),
    ("Tensor.nanmedian", Handler::Engine(median)),
    ("torch.mode", Handler::Engine(mode)),
    ("Tensor.mode", Handler::Engine(mode)),
];

/// The `stable=` overload's flag (None there means not stable), or None for the plain overload.
fn stable(call: &Call) -> Result<Option<bool>> {
    match call.signature().position("stable") {
        None => Ok(None),
        Some(_) => match call.get("stable").map(Value::resolved).as_deref() {
            None | Some(Value::None) => Ok(Some(false)),
            Some(_) => Ok(Some(call.bool("stable")?)),
        },
    }
}

fn values_and_indices(name: &'static str, (values, indices): (Tensor, Tensor)) -> Value {
    named_tuple(name, vec![("values", values), ("indices", indices)])
}

fn sort(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let stable = stable(call)?;
    let (dim, descending) = (call.int("dim")?, call.bool("descending")?);
    call.finish()?;
    Ok(values_and_indices(
        "torch.return_types.sort",
        t.sort(dim, descending, stable)?,
    ))
}

fn argsort(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let stable = stable(call)?.unwrap_or(false);
    let (dim, descending) = (call.int("dim")?, call.bool("descending")?);
    let out = super::ops::out_tensor(call)?;
    call.finish()?;
    super::ops::into_out(call, out, t.argsort(dim, descending, stable)?)
}

/// `msort(t)`: `sort(t, dim=0).values`.
fn msort(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let out = super::ops::out_tensor(call)?;
    call.finish()?;
    super::ops::into_out(call, out, t.sort(0, false, None)?.0)
}

fn topk(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let k = call.int("k")?;
    let (dim, largest, sorted) = (
        call.int("dim")?,
        call.bool("largest")?,
        call.bool("sorted")?,
    );
    call.finish()?;
    Ok(values_and_indices(
        "torch.return_types.topk",
        t.topk(k, dim, largest, sorted)?,
    ))
}

fn kthvalue(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let k = call.int("k")?;
    let (dim, keepdim) = (call.int("dim")?, call.bool("keepdim")?);
    call.finish()?;
    Ok(values_and_indices(
        "torch.return_types.kthvalue",
        t.kthvalue(k, dim, keepdim)?,
    ))
}

/// `median()`/`nanmedian()` of every element, or along `dim` with the index.
fn median(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let skip_nan = call.binding.name() == "nanmedian";
    if call.signature().position("dim").is_none() {
        call.finish()?;
        return Ok(Value::Tensor(t.median(skip_nan)?));
    }
    let (dim, keepdim) = (call.int("dim")?, call.bool("keepdim")?);
    call.finish()?;
    let name = match skip_nan {
        true => "torch.return_types.nanmedian",
        false => "torch.return_types.median",
    };
    Ok(values_and_indices(
        name,
        t.median_dim(dim, keepdim, skip_nan)?,
    ))
}

fn mode(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let (dim, keepdim) = (call.int("dim")?, call.bool("keepdim")?);
    call.finish()?;
    Ok(values_and_indices(
        "torch.return_types.mode",
        t.mode(dim, keepdim)?,
    ))
}
