//! Elementwise ops beyond arithmetic and the unary math of `ops.rs`, as `torch` functions and
//! `Tensor` methods with their in-place forms: the comparisons (`eq`, `lt`, … and their long
//! names), `clamp`/`clip`/`clamp_min`/`clamp_max` with number or tensor bounds, `lerp`,
//! `addcmul`, `addcdiv`, `xlogy`, `nan_to_num`, `logit`, the logical and bitwise ops, `isclose`,
//! `signbit`, `isposinf`/`isneginf`/`isreal`, `rad2deg`/`deg2rad`, `float_power`, the in-place
//! binary math (`fmod_`, `remainder_`, …), and the small queries about a tensor (`numel`,
//! `ndimension`, `is_floating_point`, `is_signed`, `is_nonzero`, …).

use tolab_engine::backend::cpu::elementwise::Binary;
use tolab_engine::{DType, Error, Scalar, Session, Tensor};

use super::ops::{binary_op, into_out, not_yet, out_tensor, tensor_value, wrapped_number};
use super::{Call, Handler, Operand};
use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("torch.eq", Handler::Engine(compare)),
    ("Tensor.eq", Handler::Engine(compare)),
    ("Tensor.eq_", Handler::Engine(compare)),
    ("torch.ne", Handler::Engine(compare)),
    ("Tensor.ne", Handler::Engine(compare)),
    ("Tensor.ne_", Handler::Engine(compare)),
    ("torch.not_equal", Handler::Engine(compare)),
    ("Tensor.not_equal", Handler::Engine(compare)),
    ("Tensor.not_equal_", Handler::Engine(compare)),
    ("torch.lt", Handler::Engine(compare)),
    ("Tensor.lt", Handler::Engine(compare)),
    ("Tensor.lt_", Handler::Engine(compare)),
    ("torch.less", Handler::Engine(compare)),
    ("Tensor.less", Handler::Engine(compare)),
    ("Tensor.less_", Handler::Engine(compare)),
    ("torch.le", Handler::Engine(compare)),
    ("Tensor.le", Handler::Engine(compare)),
    ("Tensor.le_", Handler::Engine(compare)),
    ("torch.less_equal", Handler::Engine(compare)),
    ("Tensor.less_equal", Handler::Engine(compare)),
    ("Tensor.less_equal_", Handler::Engine(compare)),
    ("torch.gt", Handler::Engine(compare)),
    ("Tensor.gt", Handler::Engine(compare)),
    ("Tensor.gt_", Handler::Engine(compare)),
    ("torch.greater", Handler::Engine(compare)),
    ("Tensor.greater", Handler::Engine(compare)),
    ("Tensor.greater_", Handler::Engine(compare)),
    ("torch.ge", Handler::Engine(compare)),
    ("Tensor.ge", Handler::Engine(compare)),
    ("Tensor.ge_", Handler::Engine(compare)),
    ("torch.greater_equal", Handler::Engine(compare)),
    ("Tensor.greater_equal", Handler::Engine(compare)),
    ("Tensor.greater_equal_", Handler::Engine(compare)),
    ("torch.clamp", Handler::Engine(clamp)),
    ("Tensor.clamp", Handler::Engine(clamp)),
    ("Tensor.clamp_", Handler::Engine(clamp)),
    ("torch.clip", Handler::Engine(clamp)),
    ("Tensor.clip", Handler::Engine(clamp)),
    ("Tensor.clip_", Handler::Engine(clamp)),
    ("torch.clamp_min", Handler::Engine(clamp)),
    ("Tensor.clamp_min", Handler::Engine(clamp)),
    ("Tensor.clamp_min_", Handler::Engine(clamp)),
    ("torch.clamp_max", Handler::Engine(clamp)),
    ("Tensor.clamp_max", Handler::Engine(clamp)),
    ("Tensor.clamp_max_", Handler::Engine(clamp)),
    ("torch.lerp", Handler::Engine(lerp)),
    ("Tensor.lerp", Handler::Engine(lerp)),
    ("Tensor.lerp_", Handler::Engine(lerp)),
    ("torch.addcmul", Handler::Engine(addc)),
    ("Tensor.addcmul", Handler::Engine(addc)),
    ("Tensor.addcmul_", Handler::Engine(addc)),
    ("torch.addcdiv", Handler::Engine(addc)),
    ("Tensor.addcdiv", Handler::Engine(addc)),
    ("Tensor.addcdiv_", Handler::Engine(addc)),
    ("torch.xlogy", Handler::Engine(xlogy)),
    ("Tensor.xlogy", Handler::Engine(xlogy)),
    ("Tensor.xlogy_", Handler::Engine(xlogy)),
    ("torch.nan_to_num", Handler::Engine(nan_to_num)),
    ("Tensor.nan_to_num", Handler::Engine(nan_to_num)),
    ("Tensor.nan_to_num_", Handler::Engine(nan_to_num)),
    ("torch.logit", Handler::Engine(logit)),
    ("Tensor.logit", Handler::Engine(logit)),
    ("Tensor.logit_", Handler::Engine(logit)),
    ("torch.logical_not", Handler::Engine(logical)),
    ("Tensor.logical_not", Handler::Engine(logical)),
    ("Tensor.logical_not_", Handler::Engine(logical)),
    ("torch.logical_and", Handler::Engine(logical)),
    ("Tensor.logical_and", Handler::Engine(logical)),
    ("Tensor.logical_and_", Handler::Engine(logical)),
    ("torch.logical_or", Handler::Engine(logical)),
    ("Tensor.logical_or", Handler::Engine(logical)),
    ("Tensor.logical_or_", Handler::Engine(logical)),
    ("torch.logical_xor", Handler::Engine(logical)),
    ("Tensor.logical_xor", Handler::Engine(logical)),
    ("Tensor.logical_xor_", Handler::Engine(logical)),
    ("torch.bitwise_and", Handler::Engine(bitwise)),
    ("Tensor.bitwise_and", Handler::Engine(bitwise)),
    ("Tensor.bitwise_and_", Handler::Engine(bitwise)),
    ("torch.bitwise_or", Handler::Engine(bitwise)),
    ("Tensor.bitwise_or", Handler::Engine(bitwise)),
    ("Tensor.bitwise_or_", Handler::Engine(bitwise)),
    ("torch.bitwise_xor", Handler::Engine(bitwise)),
    ("Tensor.bitwise_xor", Handler::Engine(bitwise)),
    ("Tensor.bitwise_xor_", Handler::Engine(bitwise)),
    ("torch.heaviside", Handler::Engine(heaviside)),
    ("Tensor.heaviside", Handler::Engine(heaviside)),
    ("Tensor.heaviside_", Handler::Engine(heaviside)),
    ("torch.bitwise_left_shift", Handler::Engine(bitwise)),
    ("Tensor.bitwise_left_shift", Handler::Engine(bitwise)),
    ("Tensor.bitwise_left_shift_", Handler::Engine(bitwise)),
    ("torch.bitwise_right_shift", Handler::Engine(bitwise)),
    ("Tensor.bitwise_right_shift", Handler::Engine(bitwise)),
    ("Tensor.bitwise_right_shift_", Handler::Engine(bitwise)),
    ("torch.bitwise_not", Handler::Engine(bitwise)),
    ("Tensor.bitwise_not", Handler::Engine(bitwise)),
    ("Tensor.bitwise_not_", Handler::Engine(bitwise)),
    ("torch.isclose", Handler::Engine(isclose)),
    ("Tensor.isclose", Handler::Engine(isclose)),
    ("torch.signbit", Handler::Engine(predicate)),
    ("Tensor.signbit", Handler::Engine(predicate)),
    ("torch.isposinf", Handler::Engine(predicate)),
    ("Tensor.isposinf", Handler::Engine(predicate)),
    ("torch.isneginf", Handler::Engine(predicate)),
    ("Tensor.isneginf", Handler::Engine(predicate)),
    ("torch.isreal", Handler::Engine(predicate)),
    ("Tensor.isreal", Handler::Engine(predicate)),
    ("torch.rad2deg", Handler::Engine(angle_units)),
    ("Tensor.rad2deg", Handler::Engine(angle_units)),
    ("Tensor.rad2deg_", Handler::Engine(angle_units)),
    ("torch.deg2rad", Handler::Engine(angle_units)),
    ("Tensor.deg2rad", Handler::Engine(angle_units)),
    ("Tensor.deg2rad_", Handler::Engine(angle_units)),
    ("torch.float_power", Handler::Engine(float_power)),
    ("Tensor.float_power", Handler::Engine(float_power)),
    ("Tensor.float_power_", Handler::Engine(float_power)),
    ("Tensor.fmod_", Handler::Engine(binary_math_)),
    ("Tensor.remainder_", Handler::Engine(binary_math_)),
    ("Tensor.atan2_", Handler::Engine(binary_math_)),
    ("Tensor.arctan2_", Handler::Engine(binary_math_)),
    ("Tensor.floor_divide_", Handler::Engine(binary_math_)),
    ("Tensor.hypot_", Handler::Engine(binary_math_)),
    ("Tensor.copysign_", Handler::Engine(binary_math_)),
    ("torch.numel", Handler::Engine(query)),
    ("Tensor.nelement", Handler::Engine(query)),
    ("Tensor.ndimension", Handler::Engine(query)),
    ("torch.is_floating_point", Handler::Engine(query)),
    ("Tensor.is_floating_point", Handler::Engine(query)),
    ("torch.is_complex", Handler::Engine(query)),
    ("Tensor.is_complex", Handler::Engine(query)),
    ("Tensor.is_signed", Handler::Engine(query)),
    ("torch.is_nonzero", Handler::Engine(query)),
    ("Tensor.is_nonzero", Handler::Engine(query)),
];

/// Whether the binding is an in-place method (`lt_`, `clamp_`, …).
fn in_place(call: &Call) -> bool {
    call.binding.name().ends_with('_')
}

/// The binding's name without the in-place `_`.
fn base_name(call: &Call) -> &'static str {
    call.binding.name().trim_end_matches('_')
}

/// The tensor behind an operand, for an in-place node's inputs.
fn operand_tensor(other: &Operand) -> Option<Tensor> {
    match other {
        Operand::Tensor(t) => Some(t.clone()),
        Operand::Scalar(_) => None,
    }
}

/// `op(input)` written into `input` when the binding is in place (under `op`'s node, with
/// `others` as the node's other inputs), else its value (or the `out=` tensor).
fn apply(
    call: &Call,
    t: Tensor,
    out: Option<Tensor>,
    others: Vec<Option<Tensor>>,
    op: impl FnOnce(&Tensor) -> std::result::Result<Tensor, Error>,
) -> Result<Value> {
    if in_place(call) {
        t.in_place(op, others)?;
        return tensor_value(t);
    }
    let result = op(&t)?;
    into_out(call, out, result)
}

fn comparison(name: &str) -> Result<Binary> {
    Ok(match name {
        "eq" => Binary::Eq,
        "ne" | "not_equal" => Binary::Ne,
        "lt" | "less" => Binary::Lt,
        "le" | "less_equal" => Binary::Le,
        "gt" | "greater" => Binary::Gt,
        "ge" | "greater_equal" => Binary::Ge,
        other => return Err(not_yet(other)),
    })
}

/// `eq`, `lt`, … : bool tensors (written into `self` as its dtype, in place).
fn compare(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let other = call.operand("other")?;
    let out = out_tensor(call)?;
    call.finish()?;
    let op = comparison(base_name(call))?;
    apply(call, t, out, vec![], |x| {
        Ok(match &other {
            Operand::Tensor(o) => x.compare(op, o)?,
            Operand::Scalar(s) => x.compare(op, *s)?,
        })
    })
}

/// `clamp`/`clip(min, max)`, `clamp_min(min)`, `clamp_max(max)` and their in-place forms: with
/// numbers for bounds (`ClampBackward1`, `ClampMinBackward0`, `ClampMaxBackward0`) or tensors
/// (`ClampBackward0`, `ClampMinBackward1`, `ClampMaxBackward1`); the parser has refused a mix.
fn clamp(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let (takes_min, takes_max) = match base_name(call) {
        "clamp_min" => (true, false),
        "clamp_max" => (false, true),
        _ => (true, true),
    };
    // The overload decides, not the values: a 0-dim tensor binds to a `Scalar` bound when the
    // other bound is a number.
    let tensor_bounds =
        call.signature().params.iter().any(|p| {
            matches!(p.name, "min" | "max") && matches!(p.ty, super::signature::Type::Tensor)
        });
    if tensor_bounds {
        let bound = |name: &str, takes: bool| match takes {
            true => call.opt_tensor(name),
            false => Ok(None),
        };
        let (min, max) = (bound("min", takes_min)?, bound("max", takes_max)?);
        let out = out_tensor(call)?;
        call.finish()?;
        let (node, others) = match (takes_min, takes_max) {
            (true, false) => ("ClampMinBackward1", vec![min.clone()]),
            (false, true) => ("ClampMaxBackward1", vec![max.clone()]),
            _ => ("ClampBackward0", vec![min.clone(), max.clone()]),
        };
        return apply(call, t, out, others, |x| {
            x.clamp_tensor(node, min.as_ref(), max.as_ref())
        });
    }
    let bound = |name: &str, takes: bool| match takes {
        true => call.opt_scalar(name),
        false => Ok(None),
    };
    let (min, max) = (bound("min", takes_min)?, bound("max", takes_max)?);
    let out = out_tensor(call)?;
    call.finish()?;
    let only = |b: Option<Scalar>| b.ok_or_else(|| not_yet("a clamp bound of None"));
    match (base_name(call), in_place(call)) {
        ("clamp_min", false) => into_out(call, out, t.clamp_min(only(min)?)?),
        ("clamp_max", false) => into_out(call, out, t.clamp_max(only(max)?)?),
        ("clamp_min", true) => tensor_value(t.clamp_min_(only(min)?)?.clone()),
        ("clamp_max", true) => tensor_value(t.clamp_max_(only(max)?)?.clone()),
        (_, false) => into_out(call, out, t.clamp(min, max)?),
        (_, true) => tensor_value(t.clamp_(min, max)?.clone()),
    }
}

/// `lerp(end, weight)`, with a number (`LerpBackward0`) or a tensor (`LerpBackward1`) for the
/// weight.
fn lerp(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let end = call.tensor("end")?;
    let weight = call.operand("weight")?;
    let out = out_tensor(call)?;
    call.finish()?;
    let others = vec![Some(end.clone()), operand_tensor(&weight)];
    apply(call, t, out, others, |x| {
        Ok(match &weight {
            Operand::Tensor(w) => x.lerp(&end, w)?,
            Operand::Scalar(w) => x.lerp_scalar(&end, w.as_f64())?,
        })
    })
}

/// `addcmul(tensor1, tensor2, value=1)` and `addcdiv(…)`, and their deprecated
/// `(value, tensor1, tensor2)` order.
fn addc(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let (t1, t2) = (call.tensor("tensor1")?, call.tensor("tensor2")?);
    let value = call.scalar("value")?;
    let out = out_tensor(call)?;
    call.finish()?;
    let divide = base_name(call) == "addcdiv";
    let others = vec![Some(t1.clone()), Some(t2.clone())];
    apply(call, t, out, others, |x| {
        Ok(match divide {
            true => x.addcdiv(&t1, &t2, value)?,
            false => x.addcmul(&t1, &t2, value)?,
        })
    })
}

/// `xlogy(other)`, either side a number (wrapped as a 0-dim tensor, as PyTorch wraps it).
fn xlogy(call: &Call, session: &Session) -> Result<Value> {
    let t = match call.signature().position("self") {
        Some(_) => wrapped_number(session, call.scalar("self")?)?,
        None => call.input()?,
    };
    let other = match call.operand("other")? {
        Operand::Tensor(o) => o,
        Operand::Scalar(s) => wrapped_number(session, s)?,
    };
    let out = out_tensor(call)?;
    call.finish()?;
    apply(call, t, out, vec![Some(other.clone())], |x| x.xlogy(&other))
}

/// A `float?` argument.
fn opt_float(call: &Call, name: &str) -> Result<Option<f64>> {
    match call.get(name).map(Value::resolved).as_deref() {
        None | Some(Value::None) => Ok(None),
        Some(_) => call.float(name).map(Some),
    }
}

fn nan_to_num(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let (nan, posinf, neginf) = (
        opt_float(call, "nan")?,
        opt_float(call, "posinf")?,
        opt_float(call, "neginf")?,
    );
    let out = out_tensor(call)?;
    call.finish()?;
    apply(call, t, out, vec![], |x| x.nan_to_num(nan, posinf, neginf))
}

fn logit(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let eps = opt_float(call, "eps")?;
    let out = out_tensor(call)?;
    call.finish()?;
    apply(call, t, out, vec![], |x| x.logit(eps))
}

/// The operation a `logical_*`/`bitwise_*` name names (`and`, …, `left_shift`); `None` for
/// `*_not`.
fn named_op(call: &Call) -> Option<Binary> {
    let (_, op) = base_name(call).split_once('_')?;
    Some(match op {
        "and" => Binary::BitAnd,
        "or" => Binary::BitOr,
        "xor" => Binary::BitXor,
        "left_shift" => Binary::Shl,
        "right_shift" => Binary::Shr,
        _ => return None,
    })
}

/// `logical_not()` and `logical_and`/`or`/`xor(other)`: bool, or `self`'s dtype in place.
fn logical(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let other = match call.signature().position("other") {
        Some(_) => Some(call.tensor("other")?),
        None => None,
    };
    let out = out_tensor(call)?;
    call.finish()?;
    apply(call, t, out, vec![], |x| {
        Ok(match (named_op(call), &other) {
            (Some(op), Some(o)) => x.logical(op, o)?,
            _ => x.logical_not()?,
        })
    })
}

/// `bitwise_and`/`or`/`xor`/`left_shift`/`right_shift(other)` (a number on either side) and
/// `bitwise_not()`.
fn bitwise(call: &Call, session: &Session) -> Result<Value> {
    let t = match call.signature().position("self") {
        Some(_) => wrapped_number(session, call.scalar("self")?)?,
        None => call.input()?,
    };
    let other = match call.signature().position("other") {
        Some(_) => Some(call.operand("other")?),
        None => None,
    };
    let out = out_tensor(call)?;
    call.finish()?;
    apply(call, t, out, vec![], |x| {
        Ok(match (named_op(call), &other) {
            (Some(op), Some(Operand::Tensor(o))) => x.bitwise(op, o)?,
            (Some(op), Some(Operand::Scalar(s))) => x.bitwise(op, *s)?,
            _ => x.bitwise_not()?,
        })
    })
}

/// `heaviside(values)`: the step function, `values` where the input is zero.
fn heaviside(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let values = call.tensor("values")?;
    let out = out_tensor(call)?;
    call.finish()?;
    let others = vec![Some(values.clone())];
    apply(call, t, out, others, |x| x.heaviside(&values))
}

/// `isclose(other, rtol, atol, equal_nan)`: both sides of one dtype, as PyTorch requires.
fn isclose(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let other = call.tensor("other")?;
    let (rtol, atol) = (call.float("rtol")?, call.float("atol")?);
    let equal_nan = call.bool("equal_nan")?;
    call.finish()?;
    if t.dtype() != other.dtype() {
        return Err(PyException::new(
            ExcType::RuntimeError,
            format!(
                "{} did not match {}",
                t.dtype().scalar_type_name(),
                other.dtype().scalar_type_name()
            ),
        ));
    }
    tensor_value(t.isclose(&other, rtol, atol, equal_nan)?)
}

/// `signbit`, `isposinf`, `isneginf`, `isreal`: bool tensors of a test on each element.
fn predicate(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let out = out_tensor(call)?;
    call.finish()?;
    let result = match base_name(call) {
        "signbit" => t.signbit()?,
        "isposinf" => t.compare(Binary::Eq, Scalar::Float(f64::INFINITY))?,
        "isneginf" => t.compare(Binary::Eq, Scalar::Float(f64::NEG_INFINITY))?,
        // The lab has no complex dtypes: every element is real.
        _ => t
            .compare(Binary::Eq, &t)?
            .logical(Binary::BitOr, &t.compare(Binary::Ne, &t)?)?,
    };
    into_out(call, out, result)
}

/// `rad2deg()` and `deg2rad()`.
fn angle_units(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let out = out_tensor(call)?;
    call.finish()?;
    let degrees = base_name(call) == "rad2deg";
    apply(call, t, out, vec![], |x| x.angle_units(degrees))
}

/// `float_power(exponent)`: `pow` in float64, whatever the inputs' dtypes (a number on either
/// side); in place only on a float64 tensor.
fn float_power(call: &Call, _: &Session) -> Result<Value> {
    let double = |t: &Tensor| t.to_dtype(DType::Float64);
    if call.signature().position("self").is_some() {
        let (base, exponent) = (call.scalar("self")?, call.tensor("exponent")?);
        let out = out_tensor(call)?;
        call.finish()?;
        let base = Scalar::Float(base.as_f64());
        return into_out(call, out, double(&exponent)?.rpow(base)?);
    }
    let t = call.input()?;
    let exponent = call.operand("exponent")?;
    let out = out_tensor(call)?;
    call.finish()?;
    if in_place(call) && t.dtype() != DType::Float64 {
        return Err(PyException::new(
            ExcType::RuntimeError,
            format!(
                "the base given to float_power_ has dtype {} but the operation's result requires dtype Double",
                t.dtype().scalar_type_name()
            ),
        ));
    }
    let others = vec![operand_tensor(&exponent)];
    apply(call, t, out, others, |x| {
        Ok(match &exponent {
            Operand::Tensor(e) => double(x)?.pow(&double(e)?)?,
            Operand::Scalar(e) => double(x)?.pow_scalar(Scalar::Float(e.as_f64()))?,
        })
    })
}

/// `fmod_`, `remainder_`, `atan2_`, `floor_divide_`, `hypot_`, `copysign_`: the op's value
/// written into `self`, under the op's node.
fn binary_math_(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let other = call.operand("other")?;
    call.finish()?;
    let op = binary_op(call.binding.name())?;
    apply(call, t, None, vec![operand_tensor(&other)], |x| {
        op(x, &other)
    })
}

/// `numel`, `nelement`, `ndimension`, `is_floating_point`, `is_complex`, `is_signed`,
/// `is_nonzero`: Python values about a tensor.
fn query(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    call.finish()?;
    let count = |n: usize| Value::Int(i64::try_from(n).unwrap_or(i64::MAX));
    Ok(match call.binding.name() {
        "numel" | "nelement" => count(t.numel()),
        "ndimension" => count(t.dim()),
        "is_floating_point" => Value::Bool(t.dtype().is_floating_point()),
        "is_complex" => Value::Bool(false),
        "is_signed" => Value::Bool(t.dtype().is_signed()),
        _ => match t.numel() {
            1 => Value::Bool(t.item()?.as_f64() != 0.0),
            n => {
                let what = if n == 0 {
                    "no values"
                } else {
                    "more than one value"
                };
                return Err(PyException::new(
                    ExcType::RuntimeError,
                    format!("Boolean value of Tensor with {what} is ambiguous"),
                ));
            }
        },
    })
}
