//! Questions about dtypes rather than tensors: `torch.finfo` and `torch.iinfo` (a dtype's
//! limits), and type promotion as functions (`promote_types`, `result_type`, `can_cast`).

use tolab_engine::dtype::{Operand, ScalarKind};
use tolab_engine::{DType, Scalar, Session};

use super::{Call, Handler};
use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("torch.finfo", Handler::Engine(finfo)),
    ("torch.iinfo", Handler::Engine(iinfo)),
    ("torch.promote_types", Handler::Engine(promote_types)),
    ("torch.result_type", Handler::Engine(result_type)),
    ("torch.can_cast", Handler::Engine(can_cast)),
];

/// `torch.finfo(type)`; without one, the default dtype's.
fn finfo(call: &Call, session: &Session) -> Result<Value> {
    let dtype = match call.overload {
        0 => call.dtype("type")?.unwrap_or(session.default_dtype()),
        _ => session.default_dtype(),
    };
    call.finish()?;
    dtype.finfo().map(Value::FInfo).ok_or_else(|| {
        PyException::new(
            ExcType::TypeError,
            "torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'",
        )
    })
}

/// `torch.iinfo(type)`.
fn iinfo(call: &Call, _: &Session) -> Result<Value> {
    let dtype = call.dtype("type")?.unwrap_or(DType::Int64);
    call.finish()?;
    if dtype == DType::Bool {
        return Err(PyException::new(
            ExcType::TypeError,
            "torch.bool is not supported by torch.iinfo",
        ));
    }
    dtype.iinfo().map(Value::IInfo).ok_or_else(|| {
        PyException::new(
            ExcType::TypeError,
            "torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'",
        )
    })
}

fn promote_types(call: &Call, _: &Session) -> Result<Value> {
    let (a, b) = (call.dtype("type1")?, call.dtype("type2")?);
    call.finish()?;
    match (a, b) {
        (Some(a), Some(b)) => Ok(Value::DType(tolab_engine::dtype::promote_types(a, b))),
        _ => Err(PyException::new(
            ExcType::TypeError,
            "promote_types() expects two dtypes",
        )),
    }
}

/// `torch.result_type(a, b)`: the dtype an op of the two would compute in (tensors with
/// dimensions first, then 0-dim tensors, then Python numbers).
fn result_type(call: &Call, session: &Session) -> Result<Value> {
    let names: &[&str] = match call.overload {
        0 => &["tensor", "other"],
        1 => &["scalar", "tensor"],
        2 => &["tensor", "other"],
        _ => &["scalar1", "scalar2"],
    };
    let mut operands = Vec::new();
    for name in names {
        operands.push(match call.get(name).map(Value::resolved).as_deref() {
            Some(Value::Tensor(t)) => Operand::Tensor {
                dtype: t.dtype(),
                dim: t.dim(),
            },
            _ => Operand::Scalar(match call.scalar(name)? {
                Scalar::Bool(_) => ScalarKind::Bool,
                Scalar::Int(_) => ScalarKind::Int,
                Scalar::Float(_) => ScalarKind::Float,
            }),
        });
    }
    call.finish()?;
    let default = session.default_dtype();
    Ok(Value::DType(
        tolab_engine::dtype::result_type(&operands, default).unwrap_or(default),
    ))
}

/// `torch.can_cast(from_, to)`: PyTorch's `canCast`.
fn can_cast(call: &Call, _: &Session) -> Result<Value> {
    let (from, to) = (call.dtype("from_")?, call.dtype("to")?);
    call.finish()?;
    match (from, to) {
        (Some(from), Some(to)) => Ok(Value::Bool(from.can_cast_to(to))),
        _ => Err(PyException::new(
            ExcType::TypeError,
            "can_cast() expects two dtypes",
        )),
    }
}
