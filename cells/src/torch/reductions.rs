//! Reductions and scans as `torch` functions and `Tensor` methods: sums, means, products,
//! spreads, extremes and their positions, `any`/`all`, `logsumexp`, the NaN-skipping forms,
//! running sums, products and extremes, and the norms (`torch.norm`, `Tensor.norm`, `dist`).
//! The engine computes them (`tolab_engine::ops::{reduce, reductions, scan, norm}`).

use std::rc::Rc;

use tolab_engine::backend::cpu::elementwise::Binary;
use tolab_engine::error::ReduceError;
use tolab_engine::{Error, MatrixOrder, Scalar, Session, Tensor};

use super::ops::{into_out, out_tensor};
use super::{Call, Handler};
use crate::python::exception::PyException;
use crate::python::value::{StructSeq, Value};

type Result<T> = std::result::Result<T, PyException>;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("Tensor.sum", Handler::Engine(sum_mean)),
    ("torch.sum", Handler::Engine(sum_mean)),
    ("Tensor.mean", Handler::Engine(sum_mean)),
    ("torch.mean", Handler::Engine(sum_mean)),
    ("Tensor.nansum", Handler::Engine(sum_mean)),
    ("torch.nansum", Handler::Engine(sum_mean)),
    ("Tensor.nanmean", Handler::Engine(sum_mean)),
    ("torch.nanmean", Handler::Engine(sum_mean)),
    ("Tensor.std", Handler::Engine(std_var)),
    ("torch.std", Handler::Engine(std_var)),
    ("Tensor.var", Handler::Engine(std_var)),
    ("torch.var", Handler::Engine(std_var)),
    ("torch.std_mean", Handler::Engine(std_var)),
    ("torch.var_mean", Handler::Engine(std_var)),
    ("Tensor.prod", Handler::Engine(prod)),
    ("torch.prod", Handler::Engine(prod)),
    ("Tensor.any", Handler::Engine(any_all)),
    ("torch.any", Handler::Engine(any_all)),
    ("Tensor.all", Handler::Engine(any_all)),
    ("torch.all", Handler::Engine(any_all)),
    ("Tensor.max", Handler::Engine(max_min)),
    ("torch.max", Handler::Engine(max_min)),
    ("Tensor.min", Handler::Engine(max_min)),
    ("torch.min", Handler::Engine(max_min)),
    ("Tensor.amax", Handler::Engine(amax_amin)),
    ("torch.amax", Handler::Engine(amax_amin)),
    ("Tensor.amin", Handler::Engine(amax_amin)),
    ("torch.amin", Handler::Engine(amax_amin)),
    ("Tensor.argmax", Handler::Engine(argmax_argmin)),
    ("torch.argmax", Handler::Engine(argmax_argmin)),
    ("Tensor.argmin", Handler::Engine(argmax_argmin)),
    ("torch.argmin", Handler::Engine(argmax_argmin)),
    ("Tensor.logsumexp", Handler::Engine(logsumexp)),
    ("torch.logsumexp", Handler::Engine(logsumexp)),
    ("Tensor.count_nonzero", Handler::Engine(count_nonzero)),
    ("torch.count_nonzero", Handler::Engine(count_nonzero)),
    ("Tensor.cumsum", Handler::Engine(cumulative)),
    ("torch.cumsum", Handler::Engine(cumulative)),
    ("Tensor.cumsum_", Handler::Engine(cumulative)),
    ("Tensor.cumprod", Handler::Engine(cumulative)),
    ("torch.cumprod", Handler::Engine(cumulative)),
    ("Tensor.cumprod_", Handler::Engine(cumulative)),
    ("Tensor.cummax", Handler::Engine(cummax_cummin)),
    ("torch.cummax", Handler::Engine(cummax_cummin)),
    ("Tensor.cummin", Handler::Engine(cummax_cummin)),
    ("torch.cummin", Handler::Engine(cummax_cummin)),
    ("Tensor.norm", Handler::Engine(norm)),
    ("torch.norm", Handler::Engine(norm)),
    ("Tensor.dist", Handler::Engine(dist)),
    ("torch.dist", Handler::Engine(dist)),
];

/// A `torch.return_types.<name>` of `fields`.
pub(super) fn named_tuple(name: &'static str, fields: Vec<(&'static str, Tensor)>) -> Value {
    Value::StructSeq(Rc::new(StructSeq {
        name,
        fields: fields
            .into_iter()
            .map(|(field, t)| (field, Value::Tensor(t)))
            .collect(),
    }))
}

/// The dims of a reduction: `None` (all), one int, or a tuple; none where the overload has no
/// `dim`.
fn dims(call: &Call) -> Result<Vec<i64>> {
    match call.signature().position("dim") {
        Some(_) => Ok(call.opt_int_list("dim")?.unwrap_or_default()),
        None => Ok(Vec::new()),
    }
}

/// `keepdim`, false where the overload has none.
fn keepdim(call: &Call) -> Result<bool> {
    match call.signature().position("keepdim") {
        Some(_) => call.bool("keepdim"),
        None => Ok(false),
    }
}

/// The input cast to the call's `dtype=`, as PyTorch casts before it reduces.
fn cast_input(call: &Call) -> Result<Tensor> {
    let t = call.input()?;
    let dtype = match call.signature().position("dtype") {
        Some(_) => call.dtype("dtype")?,
        None => None,
    };
    Ok(t.cast_for_reduction(dtype)?)
}

/// `sum`, `mean`, `nansum`, `nanmean`: `(dim, keepdim, *, dtype)`, every dim when none.
fn sum_mean(call: &Call, _: &Session) -> Result<Value> {
    let t = cast_input(call)?;
    let (dims, keepdim) = (dims(call)?, keepdim(call)?);
    let out = out_tensor(call)?;
    call.finish()?;
    let result = match call.binding.name() {
        "sum" => t.sum(&dims, keepdim)?,
        "mean" => t.mean(&dims, keepdim)?,
        "nansum" => t.nansum(&dims, keepdim)?,
        _ => t.nanmean(&dims, keepdim)?,
    };
    into_out(call, out, result)
}

/// `std`/`var` and `std_mean`/`var_mean`: `(dim, unbiased, keepdim)`, `(dim, *, correction,
/// keepdim)` or `(unbiased)`.
fn std_var(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let has = |name: &str| call.signature().position(name).is_some();
    let dims = dims(call)?;
    let correction = if has("correction") {
        call.opt_scalar("correction")?.map_or(1.0, |c| c.as_f64())
    } else {
        f64::from(u8::from(call.bool("unbiased")?))
    };
    let keepdim = keepdim(call)?;
    let out = out_tensor(call)?;
    call.finish()?;
    let pair = |(spread, mean): (Tensor, Tensor)| {
        Value::Tuple(Rc::from(vec![Value::Tensor(spread), Value::Tensor(mean)]))
    };
    match call.binding.name() {
        "std" => into_out(call, out, t.std(&dims, correction, keepdim)?),
        "var" => into_out(call, out, t.var(&dims, correction, keepdim)?),
        "std_mean" => Ok(pair(t.std_mean(&dims, correction, keepdim)?)),
        _ => Ok(pair(t.var_mean(&dims, correction, keepdim)?)),
    }
}

/// `prod(*, dtype)` of every element, or `prod(dim, keepdim, *, dtype)`.
fn prod(call: &Call, _: &Session) -> Result<Value> {
    let t = cast_input(call)?;
    let dim = match call.signature().position("dim") {
        Some(_) => Some(call.int("dim")?),
        None => None,
    };
    let keepdim = keepdim(call)?;
    let out = out_tensor(call)?;
    call.finish()?;
    let result = match dim {
        Some(dim) => t.prod_dim(dim, keepdim)?,
        None => t.prod()?,
    };
    into_out(call, out, result)
}

/// `any`/`all`: some element nonzero, no element zero (over `dim` when given), as bool (uint8
/// for a uint8 input, as PyTorch keeps it).
fn any_all(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let (dims, keepdim) = (dims(call)?, keepdim(call)?);
    let out = out_tensor(call)?;
    call.finish()?;
    let (test, verdict) = if call.binding.name() == "any" {
        (Binary::Ne, Binary::Gt)
    } else {
        (Binary::Eq, Binary::Eq)
    };
    let result = t
        .compare(test, Scalar::Int(0))?
        .sum(&dims, keepdim)?
        .compare(verdict, Scalar::Int(0))?;
    let result = match t.dtype() {
        tolab_engine::DType::UInt8 => result.to_dtype(tolab_engine::DType::UInt8)?,
        _ => result,
    };
    into_out(call, out, result)
}

/// `max()`, `max(other)` (elementwise) and `max(dim, keepdim)` (values and indices).
fn max_min(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let is_max = call.binding.name() == "max";
    match call.overload {
        0 => {
            call.finish()?;
            Ok(Value::Tensor(if is_max { t.max()? } else { t.min()? }))
        }
        1 => {
            let other = call.tensor("other")?;
            let out = out_tensor(call)?;
            call.finish()?;
            let result = if is_max {
                t.maximum(&other)?
            } else {
                t.minimum(&other)?
            };
            into_out(call, out, result)
        }
        _ => {
            let dim = call.int("dim")?;
            let keepdim = call.bool("keepdim")?;
            call.finish()?;
            let (values, indices) = if is_max {
                t.max_dim(dim, keepdim)?
            } else {
                t.min_dim(dim, keepdim)?
            };
            let name = if is_max {
                "torch.return_types.max"
            } else {
                "torch.return_types.min"
            };
            Ok(named_tuple(
                name,
                vec![("values", values), ("indices", indices)],
            ))
        }
    }
}

/// `amax`/`amin(dim=(), keepdim)`: the extreme over several dims at once.
fn amax_amin(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let (dims, keepdim) = (dims(call)?, keepdim(call)?);
    let out = out_tensor(call)?;
    call.finish()?;
    let result = match call.binding.name() {
        "amax" => t.amax(&dims, keepdim)?,
        _ => t.amin(&dims, keepdim)?,
    };
    into_out(call, out, result)
}

fn argmax_argmin(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let dim = call.opt_int("dim")?;
    let keepdim = call.bool("keepdim")?;
    let out = out_tensor(call)?;
    call.finish()?;
    let result = match call.binding.name() {
        "argmax" => t.argmax(dim, keepdim)?,
        _ => t.argmin(dim, keepdim)?,
    };
    into_out(call, out, result)
}

fn logsumexp(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let (dims, keepdim) = (dims(call)?, keepdim(call)?);
    let out = out_tensor(call)?;
    call.finish()?;
    into_out(call, out, t.logsumexp(&dims, keepdim)?)
}

/// `count_nonzero(dim=None)`: one dim, several, or all.
fn count_nonzero(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let dims = dims(call)?;
    call.finish()?;
    Ok(Value::Tensor(t.count_nonzero(&dims)?))
}

/// `cumsum`/`cumprod(dim, *, dtype)` and their in-place forms.
fn cumulative(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let dim = call.int("dim")?;
    let dtype = call.dtype("dtype")?;
    let out = out_tensor(call)?;
    call.finish()?;
    let scan = |x: &Tensor| match call.binding.name().trim_end_matches('_') {
        "cumsum" => x.cumsum(dim, dtype),
        _ => x.cumprod(dim, dtype),
    };
    if call.binding.name().ends_with('_') {
        let target = t.dtype();
        if let Some(dtype) = dtype.filter(|&d| d != target) {
            return Err(Error::from(ReduceError::InPlaceDtype {
                input: target,
                output: dtype,
            })
            .into());
        }
        t.in_place(|x| scan(x)?.cast_for_reduction(Some(target)), Vec::new())?;
        return Ok(Value::Tensor(t));
    }
    into_out(call, out, scan(&t)?)
}

/// `cummax`/`cummin(dim)`: `torch.return_types.cummax(values, indices)`.
fn cummax_cummin(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let dim = call.int("dim")?;
    call.finish()?;
    let (name, (values, indices)) = match call.binding.name() {
        "cummax" => ("torch.return_types.cummax", t.cummax(dim)?),
        _ => ("torch.return_types.cummin", t.cummin(dim)?),
    };
    Ok(named_tuple(
        name,
        vec![("values", values), ("indices", indices)],
    ))
}

/// A norm's order as the call gave it: a number, `inf`, or a string (`'fro'`, `'nuc'`).
pub(super) enum Order {
    Number(f64),
    Named(String),
}

pub(super) fn order(call: &Call, name: &str) -> Result<Option<Order>> {
    match call.get(name).map(Value::resolved).as_deref() {
        None | Some(Value::None) => Ok(None),
        Some(Value::Str(s)) => Ok(Some(Order::Named(s.to_string()))),
        Some(_) => Ok(Some(Order::Number(call.scalar(name)?.as_f64()))),
    }
}

/// The two dims of a matrix norm, or PyTorch's refusal.
pub(super) fn matrix_dims(dims: &[i64]) -> Result<(i64, i64)> {
    match dims {
        [rows, cols] => Ok((*rows, *cols)),
        _ => Err(Error::from(ReduceError::MatrixNormDims {
            given: dims
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(" "),
        })
        .into()),
    }
}

/// A matrix norm's order from a number or a name, or PyTorch's refusal.
pub(super) fn matrix_order(order: &Order) -> Result<MatrixOrder> {
    match order {
        Order::Named(s) if s == "fro" => Ok(MatrixOrder::Frobenius),
        Order::Named(s) if s == "nuc" => Ok(MatrixOrder::Nuclear),
        Order::Named(s) => Err(Error::from(ReduceError::MatrixNormOrder { ord: s.clone() }).into()),
        Order::Number(p) => Ok(MatrixOrder::Number(*p)),
    }
}

/// `torch.norm(input, p='fro', dim=None, keepdim=False, out=None, dtype=None)` and
/// `Tensor.norm`, as torch/functional.py routes them: a number (or `'fro'` over at most two
/// dims) is `linalg.vector_norm`; another name is `linalg.matrix_norm`.
fn norm(call: &Call, _: &Session) -> Result<Value> {
    let t = cast_input(call)?;
    let p = match order(call, "p")? {
        Some(p) => p,
        None if call.gave("p") => Order::Number(2.0),
        None => Order::Named("fro".into()),
    };
    let dims = call.opt_int_list("dim")?;
    let keepdim = call.truthy("keepdim")?;
    let out = out_tensor(call)?;
    call.finish()?;
    let result = match p {
        Order::Number(p) => t.vector_norm(p, dims.as_deref().unwrap_or(&[]), keepdim)?,
        Order::Named(name) if name == "fro" && dims.as_ref().is_none_or(|d| d.len() <= 2) => {
            t.vector_norm(2.0, dims.as_deref().unwrap_or(&[]), keepdim)?
        }
        named => {
            let dims = dims.unwrap_or_else(|| (0..t.dim() as i64).collect());
            let pair = matrix_dims(&dims)?;
            t.matrix_norm(matrix_order(&named)?, pair, keepdim)?
        }
    };
    into_out(call, out, result)
}

/// `dist(other, p=2)`: the `p`-norm of the difference.
fn dist(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let other = call.tensor("other")?;
    let p = call.scalar("p")?.as_f64();
    call.finish()?;
    Ok(Value::Tensor(t.dist(&other, p)?))
}
