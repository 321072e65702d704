//! Operations a tensor has both as a method and as a `torch` function (`t.sum(0)` and
//! `torch.sum(t, 0)`): arithmetic, math, reductions, comparisons, indexing and views. Each
//! handler reads its tensor with [`Call::input`] (the receiver, or the `input` argument).

use tolab_engine::backend::cpu::elementwise::Binary;
use tolab_engine::backend::cpu::unary::Unary;
use tolab_engine::{DType, Error as EngineError, Rounding, Scalar, Session, Tensor};

use super::{Call, Handler, Operand};
use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("Tensor.relu", Handler::Engine(unary)),
    ("torch.relu", Handler::Engine(unary)),
    ("Tensor.sigmoid", Handler::Engine(unary)),
    ("torch.sigmoid", Handler::Engine(unary)),
    ("Tensor.tanh", Handler::Engine(unary)),
    ("torch.tanh", Handler::Engine(unary)),
    ("Tensor.exp", Handler::Engine(unary)),
    ("torch.exp", Handler::Engine(unary)),
    ("Tensor.log", Handler::Engine(unary)),
    ("torch.log", Handler::Engine(unary)),
    ("Tensor.sqrt", Handler::Engine(unary)),
    ("torch.sqrt", Handler::Engine(unary)),
    ("Tensor.abs", Handler::Engine(unary)),
    ("torch.abs", Handler::Engine(unary)),
    ("Tensor.neg", Handler::Engine(unary)),
    ("torch.neg", Handler::Engine(unary)),
    ("Tensor.sin", Handler::Engine(unary)),
    ("torch.sin", Handler::Engine(unary)),
    ("Tensor.cos", Handler::Engine(unary)),
    ("torch.cos", Handler::Engine(unary)),
    ("Tensor.tan", Handler::Engine(unary)),
    ("torch.tan", Handler::Engine(unary)),
    ("Tensor.asin", Handler::Engine(unary)),
    ("torch.asin", Handler::Engine(unary)),
    ("Tensor.acos", Handler::Engine(unary)),
    ("torch.acos", Handler::Engine(unary)),
    ("Tensor.atan", Handler::Engine(unary)),
    ("torch.atan", Handler::Engine(unary)),
    ("Tensor.sinh", Handler::Engine(unary)),
    ("torch.sinh", Handler::Engine(unary)),
    ("Tensor.cosh", Handler::Engine(unary)),
    ("torch.cosh", Handler::Engine(unary)),
    ("Tensor.asinh", Handler::Engine(unary)),
    ("torch.asinh", Handler::Engine(unary)),
    ("Tensor.acosh", Handler::Engine(unary)),
    ("torch.acosh", Handler::Engine(unary)),
    ("Tensor.atanh", Handler::Engine(unary)),
    ("torch.atanh", Handler::Engine(unary)),
    ("Tensor.arcsin", Handler::Engine(unary)),
    ("torch.arcsin", Handler::Engine(unary)),
    ("Tensor.arccos", Handler::Engine(unary)),
    ("torch.arccos", Handler::Engine(unary)),
    ("Tensor.arctan", Handler::Engine(unary)),
    ("torch.arctan", Handler::Engine(unary)),
    ("Tensor.arcsinh", Handler::Engine(unary)),
    ("torch.arcsinh", Handler::Engine(unary)),
    ("Tensor.arccosh", Handler::Engine(unary)),
    ("torch.arccosh", Handler::Engine(unary)),
    ("Tensor.arctanh", Handler::Engine(unary)),
    ("torch.arctanh", Handler::Engine(unary)),
    ("Tensor.exp2", Handler::Engine(unary)),
    ("torch.exp2", Handler::Engine(unary)),
    ("Tensor.expm1", Handler::Engine(unary)),
    ("torch.expm1", Handler::Engine(unary)),
    ("Tensor.log2", Handler::Engine(unary)),
    ("torch.log2", Handler::Engine(unary)),
    ("Tensor.log10", Handler::Engine(unary)),
    ("torch.log10", Handler::Engine(unary)),
    ("Tensor.log1p", Handler::Engine(unary)),
    ("torch.log1p", Handler::Engine(unary)),
    ("Tensor.erf", Handler::Engine(unary)),
    ("torch.erf", Handler::Engine(unary)),
    ("Tensor.erfc", Handler::Engine(unary)),
    ("torch.erfc", Handler::Engine(unary)),
    ("Tensor.erfinv", Handler::Engine(unary)),
    ("torch.erfinv", Handler::Engine(unary)),
    ("Tensor.rsqrt", Handler::Engine(unary)),
    ("torch.rsqrt", Handler::Engine(unary)),
    ("Tensor.reciprocal", Handler::Engine(unary)),
    ("torch.reciprocal", Handler::Engine(unary)),
    ("Tensor.sign", Handler::Engine(unary)),
    ("torch.sign", Handler::Engine(unary)),
    ("Tensor.sgn", Handler::Engine(unary)),
    ("torch.sgn", Handler::Engine(unary)),
    ("Tensor.floor", Handler::Engine(unary)),
    ("torch.floor", Handler::Engine(unary)),
    ("Tensor.ceil", Handler::Engine(unary)),
    ("torch.ceil", Handler::Engine(unary)),
    ("Tensor.trunc", Handler::Engine(unary)),
    ("torch.trunc", Handler::Engine(unary)),
    ("Tensor.fix", Handler::Engine(unary)),
    ("torch.fix", Handler::Engine(unary)),
    ("Tensor.round", Handler::Engine(unary)),
    ("torch.round", Handler::Engine(unary)),
    ("Tensor.frac", Handler::Engine(unary)),
    ("torch.frac", Handler::Engine(unary)),
    ("Tensor.square", Handler::Engine(unary)),
    ("torch.square", Handler::Engine(unary)),
    ("Tensor.negative", Handler::Engine(unary)),
    ("torch.negative", Handler::Engine(unary)),
    ("Tensor.absolute", Handler::Engine(unary)),
    ("torch.absolute", Handler::Engine(unary)),
    ("Tensor.relu_", Handler::Engine(unary_)),
    ("Tensor.sigmoid_", Handler::Engine(unary_)),
    ("Tensor.tanh_", Handler::Engine(unary_)),
    ("Tensor.exp_", Handler::Engine(unary_)),
    ("Tensor.log_", Handler::Engine(unary_)),
    ("Tensor.sqrt_", Handler::Engine(unary_)),
    ("Tensor.abs_", Handler::Engine(unary_)),
    ("Tensor.neg_", Handler::Engine(unary_)),
    ("Tensor.sin_", Handler::Engine(unary_)),
    ("Tensor.cos_", Handler::Engine(unary_)),
    ("Tensor.tan_", Handler::Engine(unary_)),
    ("Tensor.asin_", Handler::Engine(unary_)),
    ("Tensor.acos_", Handler::Engine(unary_)),
    ("Tensor.atan_", Handler::Engine(unary_)),
    ("Tensor.sinh_", Handler::Engine(unary_)),
    ("Tensor.cosh_", Handler::Engine(unary_)),
    ("Tensor.asinh_", Handler::Engine(unary_)),
    ("Tensor.acosh_", Handler::Engine(unary_)),
    ("Tensor.atanh_", Handler::Engine(unary_)),
    ("Tensor.arcsin_", Handler::Engine(unary_)),
    ("Tensor.arccos_", Handler::Engine(unary_)),
    ("Tensor.arctan_", Handler::Engine(unary_)),
    ("Tensor.arcsinh_", Handler::Engine(unary_)),
    ("Tensor.arccosh_", Handler::Engine(unary_)),
    ("Tensor.arctanh_", Handler::Engine(unary_)),
    ("Tensor.exp2_", Handler::Engine(unary_)),
    ("Tensor.expm1_", Handler::Engine(unary_)),
    ("Tensor.log2_", Handler::Engine(unary_)),
    ("Tensor.log10_", Handler::Engine(unary_)),
    ("Tensor.log1p_", Handler::Engine(unary_)),
    ("Tensor.erf_", Handler::Engine(unary_)),
    ("Tensor.erfc_", Handler::Engine(unary_)),
    ("Tensor.erfinv_", Handler::Engine(unary_)),
    ("Tensor.rsqrt_", Handler::Engine(unary_)),
    ("Tensor.reciprocal_", Handler::Engine(unary_)),
    ("Tensor.sign_", Handler::Engine(unary_)),
    ("Tensor.sgn_", Handler::Engine(unary_)),
    ("Tensor.floor_", Handler::Engine(unary_)),
    ("Tensor.ceil_", Handler::Engine(unary_)),
    ("Tensor.trunc_", Handler::Engine(unary_)),
    ("Tensor.fix_", Handler::Engine(unary_)),
    ("Tensor.round_", Handler::Engine(unary_)),
    ("Tensor.frac_", Handler::Engine(unary_)),
    ("Tensor.square_", Handler::Engine(unary_)),
    ("Tensor.negative_", Handler::Engine(unary_)),
    ("Tensor.absolute_", Handler::Engine(unary_)),
    ("Tensor.maximum", Handler::Engine(maximum)),
    ("torch.maximum", Handler::Engine(maximum)),
    ("Tensor.minimum", Handler::Engine(maximum)),
    ("torch.minimum", Handler::Engine(maximum)),
    ("Tensor.softmax", Handler::Engine(softmax)),
    ("torch.softmax", Handler::Engine(softmax)),
    ("Tensor.log_softmax", Handler::Engine(softmax)),
    ("torch.log_softmax", Handler::Engine(softmax)),
    ("Tensor.flatten", Handler::Engine(flatten)),
    ("torch.flatten", Handler::Engine(flatten)),
    ("Tensor.masked_fill", Handler::Engine(masked_fill)),
    ("torch.masked_fill", Handler::Engine(masked_fill)),
    ("Tensor.gather", Handler::Engine(gather)),
    ("torch.gather", Handler::Engine(gather)),
    ("Tensor.index_select", Handler::Engine(gather)),
    ("torch.index_select", Handler::Engine(gather)),
    ("Tensor.remainder", Handler::Engine(binary_math)),
    ("torch.remainder", Handler::Engine(binary_math)),
    ("Tensor.floor_divide", Handler::Engine(binary_math)),
    ("torch.floor_divide", Handler::Engine(binary_math)),
    ("Tensor.atan2", Handler::Engine(binary_math)),
    ("torch.atan2", Handler::Engine(binary_math)),
    ("Tensor.arctan2", Handler::Engine(binary_math)),
    ("torch.arctan2", Handler::Engine(binary_math)),
    ("Tensor.hypot", Handler::Engine(binary_math)),
    ("torch.hypot", Handler::Engine(binary_math)),
    ("Tensor.fmod", Handler::Engine(binary_math)),
    ("torch.fmod", Handler::Engine(binary_math)),
    ("Tensor.fmax", Handler::Engine(binary_math)),
    ("torch.fmax", Handler::Engine(binary_math)),
    ("Tensor.fmin", Handler::Engine(binary_math)),
    ("torch.fmin", Handler::Engine(binary_math)),
    ("Tensor.copysign", Handler::Engine(binary_math)),
    ("torch.copysign", Handler::Engine(binary_math)),
    ("Tensor.matmul", Handler::Engine(matmul)),
    ("torch.matmul", Handler::Engine(matmul)),
    ("Tensor.mm", Handler::Engine(matmul)),
    ("torch.mm", Handler::Engine(matmul)),
    ("Tensor.bmm", Handler::Engine(matmul)),
    ("torch.bmm", Handler::Engine(matmul)),
    ("Tensor.mv", Handler::Engine(matmul)),
    ("torch.mv", Handler::Engine(matmul)),
    ("Tensor.dot", Handler::Engine(matmul)),
    ("torch.dot", Handler::Engine(matmul)),
    ("Tensor.outer", Handler::Engine(matmul)),
    ("torch.outer", Handler::Engine(matmul)),
    ("Tensor.ger", Handler::Engine(matmul)),
    ("torch.ger", Handler::Engine(matmul)),
    ("Tensor.transpose", Handler::Engine(transpose)),
    ("torch.transpose", Handler::Engine(transpose)),
    ("Tensor.permute", Handler::Engine(permute)),
    ("torch.permute", Handler::Engine(permute)),
    ("Tensor.unsqueeze", Handler::Engine(unsqueeze)),
    ("torch.unsqueeze", Handler::Engine(unsqueeze)),
    ("Tensor.squeeze", Handler::Engine(squeeze)),
    ("torch.squeeze", Handler::Engine(squeeze)),
    ("Tensor.reshape", Handler::Engine(reshape)),
    ("torch.reshape", Handler::Engine(reshape)),
    ("Tensor.add", Handler::Engine(add)),
    ("torch.add", Handler::Engine(add)),
    ("Tensor.sub", Handler::Engine(add)),
    ("torch.sub", Handler::Engine(add)),
    ("Tensor.subtract", Handler::Engine(add)),
    ("torch.subtract", Handler::Engine(add)),
    ("Tensor.mul", Handler::Engine(arithmetic)),
    ("torch.mul", Handler::Engine(arithmetic)),
    ("Tensor.multiply", Handler::Engine(arithmetic)),
    ("torch.multiply", Handler::Engine(arithmetic)),
    ("Tensor.div", Handler::Engine(arithmetic)),
    ("torch.div", Handler::Engine(arithmetic)),
    ("Tensor.divide", Handler::Engine(arithmetic)),
    ("torch.divide", Handler::Engine(arithmetic)),
    ("Tensor.true_divide", Handler::Engine(arithmetic)),
    ("torch.true_divide", Handler::Engine(arithmetic)),
    ("Tensor.add_", Handler::Engine(add_)),
    ("Tensor.sub_", Handler::Engine(add_)),
    ("Tensor.mul_", Handler::Engine(arithmetic_)),
    ("Tensor.div_", Handler::Engine(arithmetic_)),
    ("Tensor.pow", Handler::Engine(pow)),
    ("torch.pow", Handler::Engine(pow)),
    ("Tensor.pow_", Handler::Engine(pow)),
    ("Tensor.view", Handler::Engine(view)),
    ("Tensor.expand", Handler::Engine(expand)),
    ("Tensor.t", Handler::Engine(unary)),
    ("Tensor.zero_", Handler::Engine(fill_)),
    ("Tensor.fill_", Handler::Engine(fill_)),
    ("Tensor.copy_", Handler::Engine(copy_)),
    ("torch.cat", Handler::Engine(cat_stack)),
    ("torch.stack", Handler::Engine(cat_stack)),
    ("torch.where", Handler::Engine(where_)),
    ("torch.isnan", Handler::Engine(finite)),
    ("torch.isinf", Handler::Engine(finite)),
    ("torch.isfinite", Handler::Engine(finite)),
    ("Tensor.isnan", Handler::Engine(finite)),
    ("Tensor.isinf", Handler::Engine(finite)),
    ("Tensor.isfinite", Handler::Engine(finite)),
    ("torch.equal", Handler::Engine(equal)),
    ("torch.allclose", Handler::Engine(allclose)),
];

pub(super) fn tensor_value(t: Tensor) -> Result<Value> {
    Ok(Value::Tensor(t))
}

/// `relu`, `exp`, `sin`, … every unary op, `round(decimals=)`, `square` and `t()`: one tensor in,
/// one out.
fn unary(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let decimals = decimals(call)?;
    let out = out_tensor(call)?;
    call.finish()?;
    let result = match (call.binding.name(), decimals) {
        ("t", _) => t.t()?,
        ("square", _) => t.pow_scalar(Scalar::Int(2))?,
        (_, Some(decimals)) => t.round_decimals(decimals)?,
        (name, None) => t.math(unary_op(name)?)?,
    };
    into_out(call, out, result)
}

/// The `out=` tensor of a call whose signature has one.
pub(super) fn out_tensor(call: &Call) -> Result<Option<Tensor>> {
    match call.signature().position("out") {
        Some(_) => call.opt_tensor("out"),
        None => Ok(None),
    }
}

/// The op's value, or the `out=` tensor with the value written into it.
pub(super) fn into_out(call: &Call, out: Option<Tensor>, result: Tensor) -> Result<Value> {
    match out {
        Some(out) => {
            out.assign_out(&result, call.binding.name())?;
            tensor_value(out)
        }
        None => tensor_value(result),
    }
}

/// `sin_()`, `exp_()`, …: the unary ops in place.
fn unary_(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let decimals = decimals(call)?;
    call.finish()?;
    let name = call.binding.name().trim_end_matches('_');
    match (name, decimals) {
        ("square", _) => t.pow_scalar_(Scalar::Int(2))?,
        (_, Some(decimals)) => t.round_decimals_(decimals)?,
        (name, None) => t.math_(unary_op(name)?)?,
    };
    tensor_value(t)
}

/// `round`'s `decimals=`, where the overload has it.
fn decimals(call: &Call) -> Result<Option<i64>> {
    match call.signature().position("decimals") {
        Some(_) => call.opt_int("decimals"),
        None => Ok(None),
    }
}

/// The engine's op for a binding's name.
fn unary_op(name: &str) -> Result<Unary> {
    Unary::from_name(name).ok_or_else(|| not_yet(name))
}

fn operand(call: &Call, name: &str) -> Result<Operand> {
    call.operand(name)
}

/// `add(other, alpha=1)` and `sub(other, alpha=1)`, and their deprecated `(alpha, other)` form.
fn add(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let other = operand(call, "other")?;
    let alpha = call.scalar("alpha")?;
    let out = out_tensor(call)?;
    call.finish()?;
    let subtract = matches!(call.binding.name(), "sub" | "subtract");
    let result = match (&other, subtract) {
        (Operand::Tensor(o), false) => t.add_scaled(o, alpha)?,
        (Operand::Scalar(s), false) => t.add_scaled(*s, alpha)?,
        (Operand::Tensor(o), true) => t.sub_scaled(o, alpha)?,
        (Operand::Scalar(s), true) => t.sub_scaled(*s, alpha)?,
    };
    into_out(call, out, result)
}

fn add_(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let other = operand(call, "other")?;
    let alpha = call.scalar("alpha")?;
    call.finish()?;
    let subtract = call.binding.name() == "sub_";
    match (&other, subtract) {
        (Operand::Tensor(o), false) => t.add_scaled_(o, alpha)?,
        (Operand::Scalar(s), false) => t.add_scaled_(*s, alpha)?,
        (Operand::Tensor(o), true) => t.sub_scaled_(o, alpha)?,
        (Operand::Scalar(s), true) => t.sub_scaled_(*s, alpha)?,
    };
    tensor_value(t)
}

/// `atan2`, `hypot`, `fmod`, `remainder`, `floor_divide`, `fmax`, `fmin`, `copysign`: a tensor
/// and a tensor (or a number, where the signature takes one).
fn binary_math(call: &Call, _: &Session) -> Result<Value> {
    // `torch.remainder(5, t)`, the one with a number first.
    if call.signature().position("self").is_some() {
        let (number, t) = (call.scalar("self")?, call.tensor("other")?);
        call.finish()?;
        return tensor_value(t.rremainder(number)?);
    }
    let t = call.input()?;
    let other = operand(call, "other")?;
    call.finish()?;
    tensor_value(binary_op(call.binding.name())?(&t, &other)?)
}

/// A Python number where PyTorch takes a tensor (`torch.remainder(5, t)`): a 0-dim tensor, in
/// the default dtype for a float, as PyTorch wraps it.
pub(super) fn wrapped_number(session: &Session, number: Scalar) -> Result<Tensor> {
    let dtype = match number {
        Scalar::Float(_) => session.default_dtype(),
        Scalar::Bool(_) => DType::Bool,
        Scalar::Int(_) => DType::Int64,
    };
    Ok(Tensor::full(
        session,
        &[],
        number,
        dtype,
        tolab_engine::Device::CPU,
    )?)
}

/// The binary math op `name` (or its in-place spelling `name_`), out of place.
pub(super) type BinaryMath = fn(&Tensor, &Operand) -> std::result::Result<Tensor, EngineError>;

/// The binary math op called `name` (or `name_`, its in-place spelling).
pub(super) fn binary_op(name: &str) -> Result<BinaryMath> {
    macro_rules! math {
        ($op:expr) => {
            |t: &Tensor, other: &Operand| match other {
                Operand::Tensor(o) => t.binary_math($op, o),
                Operand::Scalar(s) => t.binary_math($op, *s),
            }
        };
    }
    Ok(match name.trim_end_matches('_') {
        "remainder" => |t, other| match other {
            Operand::Tensor(o) => t.remainder(o),
            Operand::Scalar(s) => t.remainder(*s),
        },
        "floor_divide" => |t, other| match other {
            Operand::Tensor(o) => t.floor_divide(o),
            Operand::Scalar(s) => t.floor_divide(*s),
        },
        "atan2" | "arctan2" => math!(Binary::Atan2),
        "hypot" => math!(Binary::Hypot),
        "fmod" => math!(Binary::Fmod),
        "fmax" => math!(Binary::Fmax),
        "fmin" => math!(Binary::Fmin),
        "copysign" => math!(Binary::Copysign),
        other => return Err(not_yet(other)),
    })
}

/// `mul(other)` and `div(other, rounding_mode=None)` (`'floor'` is `floor_divide`).
fn arithmetic(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let other = operand(call, "other")?;
    let rounding = rounding_mode(call)?;
    let out = out_tensor(call)?;
    call.finish()?;
    let result = match (call.binding.name(), rounding, &other) {
        ("mul" | "multiply", _, Operand::Tensor(o)) => t.mul(o)?,
        ("mul" | "multiply", _, Operand::Scalar(s)) => t.mul(*s)?,
        (_, None, Operand::Tensor(o)) => t.div(o)?,
        (_, None, Operand::Scalar(s)) => t.div(*s)?,
        (_, Some(rounding), other) => divided(&t, other, rounding)?,
    };
    into_out(call, out, result)
}

/// `div`'s `rounding_mode`: None, 'trunc' or 'floor', else PyTorch's error.
fn rounding_mode(call: &Call) -> Result<Option<Rounding>> {
    if call.signature().position("rounding_mode").is_none() {
        return Ok(None);
    }
    match call.string("rounding_mode")?.as_deref() {
        None => Ok(None),
        Some("trunc") => Ok(Some(Rounding::Trunc)),
        Some("floor") => Ok(Some(Rounding::Floor)),
        Some(other) => Err(PyException::new(
            ExcType::RuntimeError,
            format!(
                "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{other}'"
            ),
        )),
    }
}

/// `t / other`, rounded (`DivBackward2`).
fn divided(
    t: &Tensor,
    other: &Operand,
    rounding: Rounding,
) -> std::result::Result<Tensor, tolab_engine::Error> {
    match other {
        Operand::Tensor(o) => t.div_rounded(o, rounding),
        Operand::Scalar(s) => t.div_rounded(*s, rounding),
    }
}

/// `mul_(other)` and `div_(other, rounding_mode=None)`.
fn arithmetic_(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let other = operand(call, "other")?;
    let rounding = rounding_mode(call)?;
    call.finish()?;
    match (call.binding.name(), rounding, &other) {
        ("mul_", _, Operand::Tensor(o)) => t.mul_(o)?,
        ("mul_", _, Operand::Scalar(s)) => t.mul_(*s)?,
        (_, None, Operand::Tensor(o)) => t.div_(o)?,
        (_, None, Operand::Scalar(s)) => t.div_(*s)?,
        (_, Some(rounding), other) => {
            let others = match other {
                Operand::Tensor(o) => vec![Some(o.clone())],
                Operand::Scalar(_) => Vec::new(),
            };
            t.in_place(|x| divided(x, other, rounding), others)?
        }
    };
    tensor_value(t)
}

/// `pow(input, exponent)` with a tensor or a number on either side, and `pow_` in place.
fn pow(call: &Call, _: &Session) -> Result<Value> {
    if call.signature().position("self").is_some() {
        // `torch.pow(2, t)`: the number is the base.
        let (base, exponent) = (call.scalar("self")?, call.tensor("exponent")?);
        let out = out_tensor(call)?;
        call.finish()?;
        return into_out(call, out, exponent.rpow(base)?);
    }
    let t = call.input()?;
    let exponent = match call.get("exponent").map(Value::resolved).as_deref() {
        Some(Value::Tensor(e)) => Operand::Tensor(e.clone()),
        _ => Operand::Scalar(call.scalar("exponent")?),
    };
    let out = out_tensor(call)?;
    call.finish()?;
    if call.binding.name() == "pow_" {
        match exponent {
            Operand::Tensor(e) => {
                t.in_place(|x| x.pow(&e), vec![Some(e.clone())])?;
            }
            Operand::Scalar(s) => {
                t.pow_scalar_(s)?;
            }
        }
        return tensor_value(t);
    }
    let result = match exponent {
        Operand::Tensor(e) => t.pow(&e)?,
        Operand::Scalar(s) => t.pow_scalar(s)?,
    };
    into_out(call, out, result)
}

fn maximum(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let other = call.tensor("other")?;
    call.finish()?;
    tensor_value(if call.binding.name() == "maximum" {
        t.maximum(&other)?
    } else {
        t.minimum(&other)?
    })
}

fn softmax(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let dim = call.int("dim")?;
    call.finish()?;
    tensor_value(if call.binding.name() == "softmax" {
        t.softmax(dim)?
    } else {
        t.log_softmax(dim)?
    })
}

fn flatten(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let (start, end) = (call.int("start_dim")?, call.int("end_dim")?);
    call.finish()?;
    tensor_value(tolab_engine::nn::functional::flatten(&t, start, end)?)
}

/// The `value` a fill takes: a number, or a 0-dim tensor (`refused` says why another is not).
pub(super) fn fill_value(call: &Call, refused: impl Fn(usize) -> String) -> Result<Scalar> {
    match call.get("value").map(Value::resolved).as_deref() {
        Some(Value::Tensor(v)) if v.dim() == 0 => Ok(v.item()?),
        Some(Value::Tensor(v)) => Err(PyException::new(ExcType::RuntimeError, refused(v.dim()))),
        _ => call.scalar("value"),
    }
}

fn masked_fill(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let mask = call.tensor("mask")?;
    let value = fill_value(call, |dim| {
        format!(
            "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {dim} dimension(s)."
        )
    })?;
    call.finish()?;
    tensor_value(t.masked_fill(&mask, value)?)
}

fn gather(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let dim = call.int("dim")?;
    let index = call.tensor("index")?;
    if call.binding.name() == "gather" && call.bool("sparse_grad")? {
        return Err(not_yet("gather(sparse_grad=True)"));
    }
    call.finish()?;
    tensor_value(if call.binding.name() == "gather" {
        t.gather(dim, &index)?
    } else {
        t.index_select(dim, &index)?
    })
}

/// The products: `matmul`, `mm`, `bmm`, `mv`, `dot`, `outer` (and its old name `ger`).
fn matmul(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let name = call.binding.name();
    let other = call.tensor(match name {
        "mm" | "bmm" => "mat2",
        "mv" => "vec",
        "dot" => "tensor",
        "outer" | "ger" => "vec2",
        _ => "other",
    })?;
    let out = out_tensor(call)?;
    call.finish()?;
    let result = match name {
        "mm" => t.mm(&other)?,
        "bmm" => t.bmm(&other)?,
        "mv" => t.mv(&other)?,
        "dot" => t.dot(&other)?,
        "outer" | "ger" => t.outer(&other)?,
        _ => t.matmul(&other)?,
    };
    // The product kernels check out='s dtype themselves, before TensorIterator's cast rule.
    if let Some(out) = &out
        && out.dtype() != result.dtype()
    {
        let (expected, got) = (result.dtype(), out.dtype());
        return Err(match (name, result.dim()) {
            ("outer" | "ger", _) => return into_out(call, Some(out.clone()), result),
            ("dot", _) | ("matmul", 0) => tolab_engine::Error::DotOutDtype {
                result: got,
                input: expected,
            },
            _ => tolab_engine::Error::ProductOutDtype { expected, got },
        }
        .into());
    }
    into_out(call, out, result)
}

fn transpose(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let (a, b) = (call.int("dim0")?, call.int("dim1")?);
    call.finish()?;
    tensor_value(t.transpose(a, b)?)
}

fn permute(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let dims = call.int_list("dims")?;
    call.finish()?;
    tensor_value(t.permute(&dims)?)
}

fn unsqueeze(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let dim = call.int("dim")?;
    call.finish()?;
    tensor_value(t.unsqueeze(dim)?)
}

/// `squeeze()`, `squeeze(dim)`, `squeeze((d0, d1))`.
fn squeeze(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    match call.overload {
        0 => {
            call.finish()?;
            tensor_value(t.squeeze(None)?)
        }
        1 => {
            let dim = call.int("dim")?;
            call.finish()?;
            tensor_value(t.squeeze(Some(dim))?)
        }
        _ => {
            let dims = call.int_list("dim")?;
            call.finish()?;
            tensor_value(t.squeeze_dims(&dims)?)
        }
    }
}

fn reshape(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let shape = call.int_list("shape")?;
    call.finish()?;
    tensor_value(t.reshape(&shape)?)
}

fn view(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    if call.overload == 0 {
        return Err(not_yet("view(dtype)"));
    }
    let size = call.int_list("size")?;
    call.finish()?;
    tensor_value(t.view(&size)?)
}

fn expand(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let size = call.int_list("size")?;
    let _implicit = call.bool("implicit")?;
    call.finish()?;
    tensor_value(t.expand(&size)?)
}

fn fill_(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    if call.binding.name() == "zero_" {
        t.zero_()?;
        return tensor_value(t);
    }
    let value = fill_value(call, |dim| {
        format!(
            "fill_ only supports 0-dimension value tensor but got tensor with {dim} dimensions."
        )
    })?;
    call.finish()?;
    t.fill_(value)?;
    tensor_value(t)
}

fn copy_(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let src = call.tensor("other")?;
    let _non_blocking = call.bool("non_blocking")?;
    call.finish()?;
    t.copy_(&src)?;
    tensor_value(t)
}

fn cat_stack(call: &Call, _: &Session) -> Result<Value> {
    let tensors = call.tensors("tensors")?;
    let dim = call.int("dim")?;
    call.finish()?;
    let refs: Vec<&Tensor> = tensors.iter().collect();
    tensor_value(if call.binding.name() == "cat" {
        Tensor::cat(&refs, dim)?
    } else {
        Tensor::stack(&refs, dim)?
    })
}

/// `torch.where(condition, x, y)`, where `x` and `y` may be Python numbers (promoted as
/// PyTorch promotes a number against a tensor).
fn where_(call: &Call, session: &Session) -> Result<Value> {
    let condition = call.tensor("condition")?;
    if call.overload == 0 {
        call.finish()?;
        let columns = condition.nonzero_columns()?;
        return Ok(Value::Tuple(
            columns.into_iter().map(Value::Tensor).collect(),
        ));
    }
    let branch = |names: [&str; 2]| -> Result<Value> {
        let name = if call.signature().position(names[0]).is_some() {
            names[0]
        } else {
            names[1]
        };
        Ok(call.get(name).cloned().unwrap_or(Value::None))
    };
    let (x, y) = (branch(["input", "self"])?, branch(["other", "other"])?);
    call.finish()?;
    let as_tensor = |v: &Value, dtype: DType| -> Result<Tensor> {
        match &*v.resolved() {
            Value::Tensor(t) => Ok(t.clone()),
            other => {
                let s = super::parse::scalar_of(other).unwrap_or(Scalar::Int(0));
                Ok(Tensor::full(session, &[], s, dtype, condition.device())?)
            }
        }
    };
    let dtype = where_dtype(&x, &y, session.default_dtype());
    let (x, y) = (as_tensor(&x, dtype)?, as_tensor(&y, dtype)?);
    tensor_value(Tensor::where_(&condition, &x, &y)?)
}

/// The result type of `where` with a number: a tensor's dtype wins unless the number is of a
/// higher kind (a float against an int tensor gives the default float).
fn where_dtype(x: &Value, y: &Value, default: DType) -> DType {
    let kind = |v: &Value| match &*v.resolved() {
        Value::Tensor(t) => Some(t.dtype()),
        _ => None,
    };
    let number = |v: &Value| match &*v.resolved() {
        Value::Float(_) => default,
        Value::Bool(_) => DType::Bool,
        _ => DType::Int64,
    };
    match (kind(x), kind(y)) {
        (Some(a), Some(b)) => tolab_engine::dtype::promote_types(a, b),
        (Some(t), None) => wrapped(t, number(y)),
        (None, Some(t)) => wrapped(t, number(x)),
        (None, None) => tolab_engine::dtype::promote_types(number(x), number(y)),
    }
}

fn wrapped(tensor: DType, number: DType) -> DType {
    let rank = |d: DType| {
        if d == DType::Bool {
            0
        } else if d.is_floating_point() {
            2
        } else {
            1
        }
    };
    if rank(number) > rank(tensor) {
        number
    } else {
        tensor
    }
}

fn finite(call: &Call, session: &Session) -> Result<Value> {
    let t = call.input()?;
    call.finish()?;
    let nan = t.compare(Binary::Ne, &t)?;
    let infinite = t.abs()?.compare(Binary::Eq, Scalar::Float(f64::INFINITY))?;
    tensor_value(match call.binding.name() {
        "isnan" => nan,
        "isinf" => infinite,
        // x - x is 0 exactly for finite x, NaN for infinities and NaN.
        _ => session
            .no_grad(|| t.sub(&t))?
            .compare(Binary::Eq, Scalar::Int(0))?,
    })
}

fn equal(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let other = call.tensor("other")?;
    call.finish()?;
    Ok(Value::Bool(t.equal(&other)?))
}

fn allclose(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let other = call.tensor("other")?;
    let (rtol, atol) = (call.float("rtol")?, call.float("atol")?);
    if call.bool("equal_nan")? {
        return Err(not_yet("allclose(equal_nan=True)"));
    }
    call.finish()?;
    Ok(Value::Bool(t.allclose(&other, rtol, atol)?))
}

/// The lab does not do this yet: said, rather than computing something else.
pub fn not_yet(what: &str) -> PyException {
    PyException::new(
        ExcType::NotImplementedError,
        format!("{what} is not implemented in the lab yet"),
    )
}
