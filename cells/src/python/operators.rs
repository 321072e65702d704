//! Python's operators on the lab's values: arithmetic on numbers, strings and lists, the tensor
//! operators (`+ - * / // % ** @`, comparisons, in-place forms) bound to the engine, indexing,
//! iteration and `format` specs.

use std::rc::Rc;

use ruff_python_ast::{CmpOp, Operator, UnaryOp};
use tolab_engine::backend::cpu::elementwise::Binary;
use tolab_engine::data::Dataset;
use tolab_engine::optim::Optimizer;
use tolab_engine::{Operand, Scalar, Tensor};

use super::exception::{ExcType, PyException};
use super::value::{Value, as_f64, equal, range_len, try_equal};

type Result<T> = std::result::Result<T, PyException>;

fn type_error(message: String) -> PyException {
    PyException::new(ExcType::TypeError, message)
}

fn symbol(op: Operator) -> &'static str {
    match op {
        Operator::Add => "+",
        Operator::Sub => "-",
        Operator::Mult => "*",
        Operator::MatMult => "@",
        Operator::Div => "/",
        Operator::Mod => "%",
        Operator::Pow => "** or pow()",
        Operator::LShift => "<<",
        Operator::RShift => ">>",
        Operator::BitOr => "|",
        Operator::BitXor => "^",
        Operator::BitAnd => "&",
        Operator::FloorDiv => "//",
    }
}

/// A Python number as an engine scalar (for tensor operands).
pub fn scalar(v: &Value) -> Option<Scalar> {
    match v {
        Value::Bool(b) => Some(Scalar::Bool(*b)),
        Value::Int(i) => Some(Scalar::Int(*i)),
        Value::Float(x) => Some(Scalar::Float(*x)),
        Value::NpScalar(x) => scalar(&crate::stdlib::numpy::python_number(x)),
        _ => None,
    }
}

/// `left op right`; `in_place` for `+=` and friends (tensors update in place, as PyTorch does).
pub fn binary(op: Operator, left: &Value, right: &Value, in_place: bool) -> Result<Value> {
    // The hot case first: two small ints.
    if let (Value::Int(a), Value::Int(b)) = (left, right)
        && let Some(result) = int_binary(op, *a, *b)
    {
        return result;
    }
    let (left, right) = (&*left.resolved(), &*right.resolved());
    // A tensor with a NumPy array: torch gives way, NumPy computes (its promotion) and the
    // tensor's `__array_wrap__` makes the result a tensor again.
    if let (Value::Tensor(_), Value::NdArray(_)) = (left, right) {
        let result = crate::stdlib::numpy::binary(op, left, right, false)?;
        return match &result {
            Value::NdArray(a) => Ok(Value::Tensor(crate::stdlib::numpy::bridge::from_numpy(a)?)),
            _ => Ok(result),
        };
    }
    if let (Value::Tensor(_), _) | (_, Value::Tensor(_)) = (left, right) {
        return tensor_binary(op, left, right, in_place);
    }
    if crate::stdlib::numpy::is_numpy(left) || crate::stdlib::numpy::is_numpy(right) {
        return crate::stdlib::numpy::binary(op, left, right, in_place);
    }
    // `[1] * True`: a bool repeats a sequence as the int it is.
    if op == Operator::Mult
        && let (seq, Value::Bool(b)) | (Value::Bool(b), seq) = (left, right)
        && is_sequence(seq)
    {
        return binary(op, seq, &Value::Int(i64::from(*b)), in_place);
    }
    if let Some(result) = crate::torch::size::binary(op, left, right) {
        return result;
    }
    let unsupported = || unsupported_operands(op, left, right, in_place);
    match (left, right) {
        (Value::Str(a), Value::Str(b)) if op == Operator::Add => Ok(Value::str(&format!("{a}{b}"))),
        (Value::Bytes(a), Value::Bytes(b)) if op == Operator::Add => {
            Ok(super::bytes::value(&[&a[..], &b[..]].concat()))
        }
        (Value::Bytes(_), other) if op == Operator::Add => Err(type_error(format!(
            "can't concat {} to bytes",
            other.type_name()
        ))),
        (Value::Bytes(b), Value::Int(n)) | (Value::Int(n), Value::Bytes(b))
            if op == Operator::Mult =>
        {
            Ok(super::bytes::value(&b.repeat(repetitions(b.len(), *n)?)))
        }
        // printf-style formatting; learners' `__str__`/`__repr__` need the evaluator, which
        // formats those itself (`Interpreter::percent_format`).
        (Value::Str(template), args) if op == Operator::Mod => {
            Ok(Value::str(&super::percent::format_plain(template, args)?))
        }
        (Value::Str(s), Value::Int(n)) | (Value::Int(n), Value::Str(s)) if op == Operator::Mult => {
            Ok(Value::str(&s.repeat(repetitions(s.len(), *n)?)))
        }
        (Value::List(items), Value::Int(n)) | (Value::Int(n), Value::List(items))
            if op == Operator::Mult =>
        {
            let items = items.borrow();
            Ok(Value::list(repeat(&items, repetitions(items.len(), *n)?)))
        }
        (Value::Tuple(items), Value::Int(n)) | (Value::Int(n), Value::Tuple(items))
            if op == Operator::Mult =>
        {
            Ok(Value::Tuple(
                repeat(items, repetitions(items.len(), *n)?).into(),
            ))
        }
        (Value::List(a), Value::List(b)) if op == Operator::Add => {
            let mut items = a.borrow().clone();
            items.extend(b.borrow().iter().cloned());
            Ok(Value::list(items))
        }
        (Value::Set(a), Value::Set(b)) => {
            let (a, b) = (a.borrow(), b.borrow());
            let in_b = |v: &Value| b.iter().any(|w| equal(v, w));
            let items: Vec<Value> = match op {
                Operator::BitOr => a.iter().chain(b.iter()).cloned().collect(),
                Operator::BitAnd => a.iter().filter(|v| in_b(v)).cloned().collect(),
                Operator::Sub => a.iter().filter(|v| !in_b(v)).cloned().collect(),
                Operator::BitXor => {
                    let in_a = |v: &Value| a.iter().any(|w| equal(v, w));
                    a.iter()
                        .filter(|v| !in_b(v))
                        .chain(b.iter().filter(|v| !in_a(v)))
                        .cloned()
                        .collect()
                }
                _ => return Err(unsupported()),
            };
            Value::set(items)
        }
        (Value::Tuple(a), Value::Tuple(b)) if op == Operator::Add => {
            Ok(Value::Tuple(a.iter().chain(b.iter()).cloned().collect()))
        }
        (Value::Int(_) | Value::Bool(_), Value::Int(_) | Value::Bool(_)) => {
            // Exactly, never through f64 (which rounds past 2**53).
            let int = |v: &Value| match v {
                Value::Int(i) => *i,
                _ => i64::from(v.truthy()),
            };
            int_binary(op, int(left), int(right)).ok_or_else(unsupported)?
        }
        (
            Value::Int(_) | Value::Bool(_) | Value::BigInt(_),
            Value::Int(_) | Value::Bool(_) | Value::BigInt(_),
        ) => {
            let big = |v: &Value| super::int::as_big(v).unwrap_or_default();
            super::int::binary(op, &big(left), &big(right)).ok_or_else(unsupported)?
        }
        (
            Value::Int(_) | Value::Bool(_) | Value::Float(_) | Value::BigInt(_),
            Value::Int(_) | Value::Bool(_) | Value::Float(_) | Value::BigInt(_),
        ) => {
            let float = |v: &Value| match v {
                Value::BigInt(b) => super::int::to_f64(b),
                other => Ok(as_f64(other)),
            };
            float_binary(op, float(left)?, float(right)?).ok_or_else(unsupported)?
        }
        (Value::Complex(..), _) | (_, Value::Complex(..)) => {
            match (super::complex::of(left), super::complex::of(right)) {
                (Some(a), Some(b)) => super::complex::binary(op, a?, b?).ok_or_else(unsupported)?,
                _ => Err(unsupported()),
            }
        }
        _ => Err(unsupported()),
    }
}

/// The values `*` repeats.
fn is_sequence(v: &Value) -> bool {
    matches!(
        v,
        Value::Str(_) | Value::List(_) | Value::Tuple(_) | Value::Size(_) | Value::Bytes(_)
    )
}

fn unsupported_operands(op: Operator, left: &Value, right: &Value, in_place: bool) -> PyException {
    // A sequence's `+` names what it can concatenate, as CPython's do.
    if let (Operator::Add, Value::Str(_) | Value::List(_) | Value::Tuple(_)) = (op, left) {
        let kind = left.type_name();
        return type_error(format!(
            "can only concatenate {kind} (not \"{}\") to {kind}",
            right.type_name()
        ));
    }
    // A sequence times anything but an int.
    if op == Operator::Mult && (is_sequence(left) || is_sequence(right)) {
        let other = if is_sequence(left) { right } else { left };
        return type_error(format!(
            "can't multiply sequence by non-int of type '{}'",
            other.type_name()
        ));
    }
    type_error(format!(
        "unsupported operand type(s) for {}{}: '{}' and '{}'",
        symbol(op),
        if in_place { "=" } else { "" },
        left.type_name(),
        right.type_name()
    ))
}

fn zero_division(what: &str) -> PyException {
    PyException::new(ExcType::ZeroDivisionError, what)
}

fn int_binary(op: Operator, a: i64, b: i64) -> Option<Result<Value>> {
    // Past 64 bits, the exact slow path goes on, as CPython's ints do.
    let big = || {
        super::int::binary(op, &a.into(), &b.into())
            .unwrap_or_else(|| Err(type_error(format!("unsupported int operator {op:?}"))))
    };
    Some(match op {
        Operator::Add => a.checked_add(b).map_or_else(big, |v| Ok(Value::Int(v))),
        Operator::Sub => a.checked_sub(b).map_or_else(big, |v| Ok(Value::Int(v))),
        Operator::Mult => a.checked_mul(b).map_or_else(big, |v| Ok(Value::Int(v))),
        Operator::Div if b == 0 => Err(zero_division("division by zero")),
        // Both exact as doubles: one rounding. Past 2**53 `a as f64` would round first.
        Operator::Div if a.unsigned_abs() < 1 << 53 && b.unsigned_abs() < 1 << 53 => {
            Ok(Value::Float(a as f64 / b as f64))
        }
        Operator::Div => super::int::true_divide(&a.into(), &b.into()).map(Value::Float),
        Operator::FloorDiv if b == 0 => Err(zero_division("integer division or modulo by zero")),
        // Floor, not truncation: -7 // 2 == -4. Only i64::MIN // -1 leaves the 64-bit range.
        Operator::FloorDiv => a
            .checked_div(b)
            .map(|q| q - i64::from(a.wrapping_rem(b) != 0 && (a < 0) != (b < 0)))
            .map_or_else(big, |v| Ok(Value::Int(v))),
        Operator::Mod if b == 0 => Err(zero_division("integer modulo by zero")),
        // The result takes the divisor's sign: -7 % 2 == 1.
        Operator::Mod => {
            let r = a.wrapping_rem(b);
            Ok(Value::Int(if r != 0 && (r < 0) != (b < 0) {
                r + b
            } else {
                r
            }))
        }
        Operator::LShift | Operator::RShift if b < 0 => Err(PyException::new(
            ExcType::ValueError,
            "negative shift count",
        )),
        Operator::LShift if a == 0 => Ok(Value::Int(0)),
        Operator::LShift => u32::try_from(b)
            .ok()
            .filter(|&shift| shift < 64 && (a << shift) >> shift == a)
            .map_or_else(big, |shift| Ok(Value::Int(a << shift))),
        Operator::RShift => Ok(Value::Int(if b >= 64 { a >> 63 } else { a >> b })),
        Operator::Pow if b < 0 && a == 0 => {
            Err(zero_division("0.0 cannot be raised to a negative power"))
        }
        Operator::Pow if b < 0 => Ok(Value::Float((a as f64).powf(b as f64))),
        Operator::Pow => u32::try_from(b)
            .ok()
            .and_then(|e| a.checked_pow(e))
            .map_or_else(big, |v| Ok(Value::Int(v))),
        Operator::BitAnd => Ok(Value::Int(a & b)),
        Operator::BitOr => Ok(Value::Int(a | b)),
        Operator::BitXor => Ok(Value::Int(a ^ b)),
        _ => return None,
    })
}

fn float_binary(op: Operator, a: f64, b: f64) -> Option<Result<Value>> {
    Some(match op {
        Operator::Add => Ok(Value::Float(a + b)),
        Operator::Sub => Ok(Value::Float(a - b)),
        Operator::Mult => Ok(Value::Float(a * b)),
        Operator::Div if b == 0.0 => Err(zero_division("float division by zero")),
        Operator::Div => Ok(Value::Float(a / b)),
        Operator::FloorDiv if b == 0.0 => Err(zero_division("float floor division by zero")),
        Operator::FloorDiv => Ok(Value::Float((a / b).floor())),
        Operator::Mod if b == 0.0 => Err(zero_division("float modulo by zero")),
        Operator::Mod => Ok(Value::Float(a - b * (a / b).floor())),
        Operator::Pow => Ok(Value::Float(a.powf(b))),
        _ => return None,
    })
}

fn tensor_binary(op: Operator, left: &Value, right: &Value, in_place: bool) -> Result<Value> {
    if matches!(left, Value::BigInt(_)) || matches!(right, Value::BigInt(_)) {
        return Err(crate::torch::parse::int_too_big());
    }
    let tensor_of = |v: &Value| match v {
        Value::Tensor(t) => Some(t.clone()),
        _ => None,
    };
    let unsupported = || unsupported_operands(op, left, right, in_place);
    let (Some(a), b) = (tensor_of(left), right) else {
        // A number on the left: the tensor's reflected operator, as torch/_tensor.py writes it.
        let number = scalar(left).ok_or_else(unsupported)?;
        let t = tensor_of(right).ok_or_else(unsupported)?;
        return Ok(Value::Tensor(match op {
            Operator::Add => t.add(number)?,
            Operator::Mult => t.mul(number)?,
            Operator::BitAnd
            | Operator::BitOr
            | Operator::BitXor
            | Operator::LShift
            | Operator::RShift => t.rbitwise(bitwise(op).ok_or_else(unsupported)?, number)?,
            Operator::Sub => t.rsub(number)?,
            // `__rtruediv__`: `self.reciprocal() * other`.
            Operator::Div => t
                .math(tolab_engine::backend::cpu::unary::Unary::Reciprocal)?
                .mul(number)?,
            // `__rfloordiv__` and `__rmod__`: `torch.floor_divide(other, self)`, `torch.remainder(other, self)`.
            Operator::FloorDiv => t.rfloor_divide(number)?,
            Operator::Mod => t.rremainder(number)?,
            Operator::Pow => t.rpow(number)?,
            _ => return Err(unsupported()),
        }));
    };
    let operand = match b {
        Value::Tensor(t) => Operand::Tensor(t),
        other => Operand::Scalar(scalar(other).ok_or_else(unsupported)?),
    };
    let compute = tensor_op(op, &operand).ok_or_else(unsupported)?;
    if !in_place {
        return Ok(Value::Tensor(compute(&a, operand)?));
    }
    match op {
        Operator::Add => a.add_(operand)?,
        Operator::Sub => a.sub_(operand)?,
        Operator::Mult => a.mul_(operand)?,
        Operator::Div => a.div_(operand)?,
        // Tensor has no `__imatmul__`: Python computes `a @ b` and rebinds the name.
        Operator::MatMult => return Ok(Value::Tensor(compute(&a, operand)?)),
        // `__ifloordiv__`, `__imod__`, `__ipow__`, `__iand__`, `__ilshift__`, …: the op's
        // in-place form, writing into `a` (which every name bound to it sees).
        _ => a.in_place(|x| compute(x, operand), vec![operand.tensor().cloned()])?,
    };
    Ok(Value::Tensor(a))
}

type TensorOp = fn(&Tensor, Operand) -> std::result::Result<Tensor, tolab_engine::Error>;

/// What `a op b` computes for a tensor `a` and an operand like `b`; `None` where the operator
/// has no such tensor form.
fn tensor_op(op: Operator, b: &Operand) -> Option<TensorOp> {
    Some(match (op, b) {
        (Operator::Add, _) => |a, o| a.add(o),
        (Operator::Sub, _) => |a, o| a.sub(o),
        (Operator::Mult, _) => |a, o| a.mul(o),
        (Operator::Div, _) => |a, o| a.div(o),
        (Operator::FloorDiv, _) => |a, o| a.floor_divide(o),
        (Operator::Mod, _) => |a, o| a.remainder(o),
        (Operator::Pow, _) => |a, o| match o {
            Operand::Scalar(s) => a.pow_scalar(s),
            Operand::Tensor(t) => a.pow(t),
        },
        (Operator::MatMult, Operand::Tensor(_)) => |a, o| match o {
            Operand::Tensor(t) => a.matmul(t),
            Operand::Scalar(_) => Err(tolab_engine::Error::NoTensorOperand),
        },
        (Operator::BitAnd, _) => |a, o| a.bitwise(Binary::BitAnd, o),
        (Operator::BitOr, _) => |a, o| a.bitwise(Binary::BitOr, o),
        (Operator::BitXor, _) => |a, o| a.bitwise(Binary::BitXor, o),
        (Operator::LShift, _) => |a, o| a.bitwise(Binary::Shl, o),
        (Operator::RShift, _) => |a, o| a.bitwise(Binary::Shr, o),
        _ => return None,
    })
}

/// The engine's op for Python's `&`, `|`, `^`, `<<`, `>>`.
fn bitwise(op: Operator) -> Option<Binary> {
    Some(match op {
        Operator::BitAnd => Binary::BitAnd,
        Operator::BitOr => Binary::BitOr,
        Operator::BitXor => Binary::BitXor,
        Operator::LShift => Binary::Shl,
        Operator::RShift => Binary::Shr,
        _ => return None,
    })
}

pub fn unary(op: UnaryOp, v: &Value) -> Result<Value> {
    let v = &*v.resolved();
    match (op, v) {
        (UnaryOp::Not, v) => Ok(Value::Bool(!v.truth()?)),
        (_, Value::NdArray(_) | Value::NpScalar(_)) => crate::stdlib::numpy::unary(op, v),
        (UnaryOp::USub, Value::Tensor(t)) => Ok(Value::Tensor(t.neg()?)),
        // Python's `~` checks the dtype itself, before `bitwise_not` would.
        (UnaryOp::Invert, Value::Tensor(t)) if t.dtype().is_floating_point() => Err(type_error(
            "~ (operator.invert) is only implemented on integer and Boolean-type tensors".into(),
        )),
        (UnaryOp::Invert, Value::Tensor(t)) => Ok(Value::Tensor(t.bitwise_not()?)),
        (UnaryOp::UAdd, Value::Tensor(t)) => Ok(Value::Tensor(t.clone())),
        (UnaryOp::USub, Value::Int(i)) => Ok(i
            .checked_neg()
            .map_or_else(|| super::int::negate(&(*i).into()), Value::Int)),
        (UnaryOp::USub, Value::BigInt(b)) => Ok(super::int::negate(b)),
        (UnaryOp::Invert, Value::BigInt(b)) => Ok(super::int::invert(b)),
        (UnaryOp::UAdd, Value::BigInt(_)) => Ok(v.clone()),
        (UnaryOp::USub, Value::Bool(b)) => Ok(Value::Int(-i64::from(*b))),
        (UnaryOp::USub, Value::Float(x)) => Ok(Value::Float(-x)),
        (UnaryOp::USub, Value::Complex(re, im)) => Ok(Value::Complex(-re, -im)),
        (UnaryOp::UAdd, Value::Complex(..)) => Ok(v.clone()),
        (UnaryOp::UAdd, Value::Int(_) | Value::Float(_)) => Ok(v.clone()),
        (UnaryOp::Invert, Value::Int(i)) => Ok(Value::Int(!i)),
        _ => Err(type_error(format!(
            "bad operand type for unary {}: '{}'",
            op.as_str(),
            v.type_name()
        ))),
    }
}

pub fn compare(op: CmpOp, left: &Value, right: &Value) -> Result<Value> {
    // The hot case first: two small ints.
    if let (Value::Int(a), Value::Int(b)) = (left, right) {
        let answer = match op {
            CmpOp::Eq => Some(a == b),
            CmpOp::NotEq => Some(a != b),
            CmpOp::Lt => Some(a < b),
            CmpOp::LtE => Some(a <= b),
            CmpOp::Gt => Some(a > b),
            CmpOp::GtE => Some(a >= b),
            _ => None,
        };
        if let Some(answer) = answer {
            return Ok(Value::Bool(answer));
        }
    }
    let (left, right) = (&*left.resolved(), &*right.resolved());
    let tensor_side = match (left, right) {
        (Value::Tensor(t), other) => Some((t.clone(), other, false)),
        (other, Value::Tensor(t)) => Some((t.clone(), other, true)),
        _ => None,
    };
    if let Some((t, other, flipped)) = tensor_side
        && !matches!(op, CmpOp::Is | CmpOp::IsNot | CmpOp::In | CmpOp::NotIn)
    {
        let kind = match (op, flipped) {
            (CmpOp::Eq, _) => Binary::Eq,
            (CmpOp::NotEq, _) => Binary::Ne,
            (CmpOp::Lt, false) | (CmpOp::Gt, true) => Binary::Lt,
            (CmpOp::LtE, false) | (CmpOp::GtE, true) => Binary::Le,
            (CmpOp::Gt, false) | (CmpOp::Lt, true) => Binary::Gt,
            (CmpOp::GtE, false) | (CmpOp::LtE, true) => Binary::Ge,
            _ => return Err(type_error("unsupported tensor comparison".into())),
        };
        let result = match other {
            Value::Tensor(u) => t.compare(kind, u)?,
            Value::BigInt(_) => return Err(crate::torch::parse::int_too_big()),
            v => t.compare(
                kind,
                scalar(v).ok_or_else(|| {
                    type_error(format!("cannot compare a tensor with '{}'", v.type_name()))
                })?,
            )?,
        };
        return Ok(Value::Tensor(result));
    }
    if (crate::stdlib::numpy::is_numpy(left) || crate::stdlib::numpy::is_numpy(right))
        && !matches!(op, CmpOp::Is | CmpOp::IsNot | CmpOp::In | CmpOp::NotIn)
    {
        return crate::stdlib::numpy::compare(op, left, right);
    }
    let ordered = |f: fn(std::cmp::Ordering) -> bool| -> Result<Value> {
        match order(left, right) {
            Some(o) => Ok(Value::Bool(f(o))),
            None if matches!(left, Value::Float(_)) || matches!(right, Value::Float(_)) => {
                Ok(Value::Bool(false))
            }
            None => Err(type_error(format!(
                "'{}' not supported between instances of '{}' and '{}'",
                op.as_str(),
                left.type_name(),
                right.type_name()
            ))),
        }
    };
    Ok(match op {
        CmpOp::Eq => Value::Bool(try_equal(left, right)?),
        CmpOp::NotEq => Value::Bool(!try_equal(left, right)?),
        CmpOp::Lt => return ordered(|o| o.is_lt()),
        CmpOp::LtE => return ordered(|o| o.is_le()),
        CmpOp::Gt => return ordered(|o| o.is_gt()),
        CmpOp::GtE => return ordered(|o| o.is_ge()),
        CmpOp::Is => Value::Bool(super::value::identical(left, right)),
        CmpOp::IsNot => Value::Bool(!super::value::identical(left, right)),
        CmpOp::In => Value::Bool(contains(right, left)?),
        CmpOp::NotIn => Value::Bool(!contains(right, left)?),
    })
}

/// Python's ordering of numbers, strings, and (lexicographically) tuples and lists.
fn order(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    let number = |v: &Value| {
        matches!(
            v,
            Value::Int(_)
                | Value::BigInt(_)
                | Value::Float(_)
                | Value::Bool(_)
                | Value::NpScalar(_)
        )
    };
    match (a, b) {
        (Value::Str(x), Value::Str(y)) => Some(x.cmp(y)),
        (Value::Bytes(x), Value::Bytes(y)) => Some(x.cmp(y)),
        (x, y) if number(x) && number(y) => super::value::number_order(x, y),
        (Value::Tuple(_) | Value::Size(_), Value::Tuple(_) | Value::Size(_))
        | (Value::List(_), Value::List(_)) => {
            let (xs, ys) = (iterate(a).ok()?, iterate(b).ok()?);
            for (x, y) in xs.iter().zip(&ys) {
                match order(x, y)? {
                    std::cmp::Ordering::Equal => {}
                    decided => return Some(decided),
                }
            }
            Some(xs.len().cmp(&ys.len()))
        }
        _ => None,
    }
}

fn contains(container: &Value, item: &Value) -> Result<bool> {
    Ok(match container {
        Value::Str(s) => match item {
            Value::Str(needle) => s.contains(needle.as_ref()),
            other => {
                return Err(type_error(format!(
                    "'in <string>' requires string as left operand, not {}",
                    other.type_name()
                )));
            }
        },
        Value::Bytes(b) => super::bytes::contains(b, item)?,
        Value::Dict(entries) => entries.borrow().iter().any(|(k, _)| equal(k, item)),
        Value::Environ(session) => session.env(&item.str_text()).is_some(),
        Value::Range { start, stop, step } => match item {
            Value::Int(i) => {
                let offset = i - start;
                let n = range_len(*start, *stop, *step);
                offset % step == 0 && (0..n).contains(&(offset / step))
            }
            _ => false,
        },
        other => iterate(other)?.iter().any(|v| equal(v, item)),
    })
}

/// The items a `for` loop visits.
/// `optimizer.param_groups[group][key]`.
fn param_group_item(optimizer: &Optimizer, group: usize, key: &Value) -> Result<Value> {
    let groups = optimizer.param_groups();
    let Some(group) = groups.get(group) else {
        return Err(PyException::new(
            ExcType::IndexError,
            "list index out of range",
        ));
    };
    let name = key.str_text();
    if name == "params" {
        return Ok(Value::list(
            group.params.iter().cloned().map(Value::Parameter).collect(),
        ));
    }
    if !group.options.entries().iter().any(|(k, _)| *k == name) {
        return Err(PyException::new(ExcType::KeyError, key.repr()));
    }
    Ok(crate::torch::optim::hyper_value(&group.options.get(&name)))
}

/// How many copies `sequence * n` makes, refused when the result would not fit in the lab.
pub(crate) fn repetitions(len: usize, n: i64) -> Result<usize> {
    let n = n.max(0) as usize;
    // Nothing repeated any number of times is nothing (`[] * 2**62` is `[]` at once).
    if len == 0 {
        return Ok(0);
    }
    if len.saturating_mul(n) > MAX_SEQUENCE {
        return Err(PyException::new(
            ExcType::MemoryError,
            format!("a sequence of {len} items repeated {n} times is too long for the lab"),
        ));
    }
    Ok(n)
}

fn repeat(items: &[Value], n: usize) -> Vec<Value> {
    (0..n).flat_map(|_| items.iter().cloned()).collect()
}

/// The most items (or characters) one list or string may hold.
pub(crate) const MAX_SEQUENCE: usize = 100_000_000;

/// The longest range made into a list at once (loops over ranges draw lazily and are not limited).
const MATERIALIZED_RANGE: i64 = 10_000_000;

pub fn iterate(v: &Value) -> Result<Vec<Value>> {
    let v = &*v.resolved();
    Ok(match v {
        Value::List(items) => items.borrow().clone(),
        Value::Tuple(items) => items.to_vec(),
        Value::StructSeq(s) => s.items(),
        Value::Sampler(s) => s.indices(),
        Value::Str(s) => s.chars().map(|c| Value::str(&c.to_string())).collect(),
        Value::Bytes(b) => b.iter().map(|&x| Value::Int(i64::from(x))).collect(),
        Value::Dict(entries) => entries.borrow().iter().map(|(k, _)| k.clone()).collect(),
        Value::Set(items) => super::hashing::in_set_order(&items.borrow()),
        Value::Range { start, stop, step } => {
            let n = range_len(*start, *stop, *step);
            if n > MATERIALIZED_RANGE {
                return Err(PyException::new(
                    ExcType::MemoryError,
                    format!("a range of {n} items is too long to hold as a list in the lab"),
                ));
            }
            (0..n).map(|i| Value::Int(start + i * step)).collect()
        }
        Value::Size(dims) => dims.iter().map(|&d| Value::Int(d)).collect(),
        Value::NdArray(a) => crate::stdlib::numpy::rows(a)?,
        // An iterator over items at hand (`model.parameters()`) is drained, as consuming a
        // generator does; lazier ones need the interpreter.
        Value::Iterator(shared) => match &mut *shared.borrow_mut() {
            super::iteration::Iter::Items(items) => items.by_ref().collect(),
            _ => {
                return Err(type_error(
                    "this iterator can only be used in a for loop or a builtin such as list()"
                        .into(),
                ));
            }
        },
        Value::Tensor(t) => {
            if t.dim() == 0 {
                return Err(type_error("iteration over a 0-d tensor".into()));
            }
            (0..t.shape()[0])
                .map(|i| t.select(0, i as i64).map(Value::Tensor))
                .collect::<std::result::Result<_, _>>()?
        }
        other => {
            return Err(type_error(format!(
                "'{}' object is not iterable",
                other.type_name()
            )));
        }
    })
}

/// A slice expression's parts, as `get_item` reads them.
pub fn slice_value(lower: Value, upper: Value, step: Value) -> Value {
    Value::Tuple(Rc::from(vec![Value::str("slice"), lower, upper, step]))
}

fn as_slice(v: &Value) -> Option<(Option<i64>, Option<i64>, Option<i64>)> {
    let Value::Tuple(parts) = v else { return None };
    let [Value::Str(tag), lower, upper, step] = parts.as_ref() else {
        return None;
    };
    if tag.as_ref() != "slice" {
        return None;
    }
    let bound = |b: &Value| match b {
        Value::Int(i) => Some(*i),
        _ => None,
    };
    Some((bound(lower), bound(upper), bound(step)))
}

fn wrap_index(index: i64, len: usize, what: &str) -> Result<usize> {
    let i = if index < 0 { index + len as i64 } else { index };
    if i < 0 || i as usize >= len {
        // CPython's bytes say only "index out of range".
        let message = match what {
            "bytes" => "index out of range".to_owned(),
            "str" => "string index out of range".to_owned(),
            what => format!("{what} index out of range"),
        };
        return Err(PyException::new(ExcType::IndexError, message));
    }
    Ok(i as usize)
}

/// Python's `slice.indices`: the first position, the step and how many are taken.
pub(crate) fn slice_span(
    len: usize,
    lower: Option<i64>,
    upper: Option<i64>,
    step: Option<i64>,
) -> Result<(i64, i64, usize)> {
    let step = step.unwrap_or(1);
    if step == 0 {
        return Err(PyException::new(
            ExcType::ValueError,
            "slice step cannot be zero",
        ));
    }
    let n = len as i64;
    let clamp = |b: i64, low: i64, high: i64| {
        let b = if b < 0 { b.saturating_add(n) } else { b };
        b.clamp(low, high)
    };
    let (start, stop) = if step > 0 {
        (
            lower.map_or(0, |b| clamp(b, 0, n)),
            upper.map_or(n, |b| clamp(b, 0, n)),
        )
    } else {
        (
            lower.map_or(n - 1, |b| clamp(b, -1, n - 1)),
            upper.map_or(-1, |b| clamp(b, -1, n - 1)),
        )
    };
    let (start, stop, step) = (i128::from(start), i128::from(stop), i128::from(step));
    let count = if step > 0 && stop > start {
        (stop - start + step - 1) / step
    } else if step < 0 && stop < start {
        (start - stop - step - 1) / -step
    } else {
        0
    };
    let (start, step) = (start as i64, step as i64);
    Ok((start, step, count as usize))
}

/// The positions a Python slice picks from `len` items.
fn slice_positions(
    len: usize,
    lower: Option<i64>,
    upper: Option<i64>,
    step: Option<i64>,
) -> Result<Vec<usize>> {
    let (start, step, count) = slice_span(len, lower, upper, step)?;
    Ok((0..count as i64)
        .map(|k| (start + k * step) as usize)
        .collect())
}

pub fn get_item(container: &Value, index: &Value) -> Result<Value> {
    let container = &*container.resolved();
    if let Value::Tensor(t) = container {
        return crate::torch::indexing::get(t, index);
    }
    if let Value::NdArray(a) = container {
        return crate::stdlib::numpy::get_item(a, index);
    }
    if let Value::NpScalar(x) = container {
        let array = crate::stdlib::numpy::scalar_array(x)?;
        return crate::stdlib::numpy::get_item(&array, index);
    }
    // An int subclass's object indexes as its value (`names[Stage.FIT]`).
    if let Value::Instance(_) = index
        && let Value::Int(i) = &*index.resolved()
    {
        return get_item(container, &Value::Int(*i));
    }
    // A one-element integer tensor indexes a Python sequence through its `__index__`
    // (`classes[pred.argmax()]`).
    if let Value::Tensor(t) = index
        && !matches!(container, Value::Dict(_))
    {
        return get_item(container, &Value::Int(tensor_index_value(t)?));
    }
    // A NumPy integer indexes as the int it stands for (`classes[labels[i]]`).
    if let Value::NpScalar(x) = index
        && !x.dtype.is_float()
    {
        return get_item(container, &Value::Int(x.value.as_i64()));
    }
    // Lists and tuples index in place: copying their items first would make `xs[i]` in a loop
    // take time in proportion to the list's length.
    match (container, index) {
        (Value::List(items), Value::Int(i)) => {
            let items = items.borrow();
            return Ok(items[wrap_index(*i, items.len(), "list")?].clone());
        }
        (Value::Tuple(items), Value::Int(i)) => {
            return Ok(items[wrap_index(*i, items.len(), "tuple")?].clone());
        }
        (Value::Str(s), Value::Int(i)) if s.is_ascii() => {
            let at = wrap_index(*i, s.len(), "string")?;
            return Ok(Value::str(&s[at..=at]));
        }
        _ => {}
    }
    let items: Vec<Value> = match container {
        Value::Typing(alias) => return Ok(crate::stdlib::typing::typing_item(alias, index)),
        Value::ParamGroup(optimizer, group) => return param_group_item(optimizer, *group, index),
        Value::Environ(session) => {
            let key = index.str_text();
            return session
                .env(&key)
                .map(|v| Value::str(&v))
                .ok_or_else(|| PyException::new(ExcType::KeyError, index.repr()));
        }
        Value::TensorDataset(d) => {
            let i = match index {
                Value::Int(i) if *i >= 0 => *i as usize,
                Value::Int(i) => (d.len()? as i64 + i).max(0) as usize,
                other => {
                    return Err(type_error(format!(
                        "TensorDataset indices must be integers, not {}",
                        other.type_name()
                    )));
                }
            };
            return Ok(crate::torch::convert::from_engine(d.get(i)?));
        }
        Value::Range { start, stop, step } if matches!(index, Value::Int(_)) => {
            let n = range_len(*start, *stop, *step);
            let Value::Int(i) = index else {
                return Ok(Value::None);
            };
            let i = if *i < 0 { i + n } else { *i };
            if !(0..n).contains(&i) {
                return Err(PyException::new(
                    ExcType::IndexError,
                    "range object index out of range",
                ));
            }
            return Ok(Value::Int(start + i * step));
        }
        Value::Dict(entries) => {
            return entries
                .borrow()
                .iter()
                .find(|(k, _)| equal(k, index))
                .map(|(_, v)| v.clone())
                .ok_or_else(|| PyException::new(ExcType::KeyError, index.repr()));
        }
        Value::List(_)
        | Value::Tuple(_)
        | Value::StructSeq(_)
        | Value::Str(_)
        | Value::Bytes(_)
        | Value::Range { .. }
        | Value::Size(_) => iterate(container)?,
        other => {
            return Err(type_error(format!(
                "'{}' object is not subscriptable",
                other.type_name()
            )));
        }
    };
    if let Some((lower, upper, step)) = as_slice(index) {
        let picked: Vec<Value> = slice_positions(items.len(), lower, upper, step)?
            .into_iter()
            .map(|i| items[i].clone())
            .collect();
        return Ok(match container {
            Value::Tuple(_) => Value::Tuple(picked.into()),
            Value::Str(_) => Value::str(&picked.iter().map(Value::str_text).collect::<String>()),
            Value::Bytes(_) => {
                super::bytes::value(&picked.iter().map(|v| as_f64(v) as u8).collect::<Vec<u8>>())
            }
            Value::Size(_) => crate::torch::size::from_items(&picked)?,
            _ => Value::list(picked),
        });
    }
    let i = match index {
        Value::Int(i) => *i,
        Value::Bool(b) => i64::from(*b),
        Value::BigInt(_) => return Err(beyond_index()),
        _ => {
            return Err(type_error(format!(
                "{} indices must be integers or slices, not {}",
                container.type_name(),
                index.type_name()
            )));
        }
    };
    // A `torch.Size` is a tuple, and its errors say so.
    let what = match container {
        Value::Size(_) => "tuple".to_owned(),
        other => other.type_name(),
    };
    Ok(items[wrap_index(i, items.len(), &what)?].clone())
}

/// `Tensor.__index__`: the value of a one-element integer tensor.
fn tensor_index_value(t: &Tensor) -> Result<i64> {
    if t.dtype().is_floating_point() || t.numel() != 1 {
        return Err(type_error(
            "only integer tensors of a single element can be converted to an index".into(),
        ));
    }
    Ok(t.item()?.as_f64() as i64)
}

/// CPython's error for an index past 64 bits.
fn beyond_index() -> PyException {
    PyException::new(
        ExcType::IndexError,
        "cannot fit 'int' into an index-sized integer",
    )
}

/// The position `list[index] = …` or `del list[index]` acts on.
fn list_position(items: &std::cell::RefCell<Vec<Value>>, index: &Value) -> Result<usize> {
    let i = match index {
        Value::Int(i) => *i,
        Value::Bool(b) => i64::from(*b),
        Value::BigInt(_) => return Err(beyond_index()),
        Value::NpScalar(x) if !x.dtype.is_float() => x.value.as_i64(),
        _ => return Err(type_error("list indices must be integers".into())),
    };
    wrap_index(i, items.borrow().len(), "list assignment")
}

pub fn set_item(container: &Value, index: &Value, value: Value) -> Result<()> {
    let container = &*container.resolved();
    match container {
        Value::ParamGroup(optimizer, group) => {
            let key = index.str_text();
            let hyper = crate::torch::optim::value_hyper(&value)?;
            optimizer.set_option(*group, &key, hyper);
            Ok(())
        }
        Value::Environ(session) => match (index, &value) {
            (Value::Str(key), Value::Str(v)) => {
                session.set_env(key, Some(v));
                Ok(())
            }
            _ => Err(type_error("str expected, not int".into())),
        },
        Value::List(items) if let Some((lower, upper, step)) = as_slice(index) => {
            let replacement = iterate(&value)?;
            let len = items.borrow().len();
            if step.unwrap_or(1) == 1 {
                // `a[i:j] = values`: the run is replaced, whatever the lengths.
                let positions = slice_positions(len, lower, upper, None)?;
                let start = positions.first().copied().unwrap_or_else(|| {
                    slice_positions(len, lower, None, None)
                        .ok()
                        .and_then(|p| p.first().copied())
                        .unwrap_or(len)
                });
                let end = start + positions.len();
                items.borrow_mut().splice(start..end, replacement);
                return Ok(());
            }
            let positions = slice_positions(len, lower, upper, step)?;
            if positions.len() != replacement.len() {
                return Err(PyException::new(
                    ExcType::ValueError,
                    format!(
                        "attempt to assign sequence of size {} to extended slice of size {}",
                        replacement.len(),
                        positions.len()
                    ),
                ));
            }
            let mut items = items.borrow_mut();
            for (at, value) in positions.into_iter().zip(replacement) {
                items[at] = value;
            }
            Ok(())
        }
        Value::List(items) => {
            let at = list_position(items, index)?;
            items.borrow_mut()[at] = value;
            Ok(())
        }
        Value::NdArray(a) => crate::stdlib::numpy::set_item(a, index, &value),
        Value::Dict(entries) => {
            super::value::insert_entry(&mut entries.borrow_mut(), index.clone(), value);
            Ok(())
        }
        Value::Tensor(t) => crate::torch::indexing::set(t, index, &value),
        other => Err(type_error(format!(
            "'{}' object does not support item assignment",
            other.type_name()
        ))),
    }
}

/// `del container[index]`.
pub fn delete_item(container: &Value, index: &Value) -> Result<()> {
    match container {
        Value::Environ(session) => {
            let key = index.str_text();
            if session.env(&key).is_none() {
                return Err(PyException::new(ExcType::KeyError, index.repr()));
            }
            session.set_env(&key, None);
            Ok(())
        }
        // `del items[start:stop:step]`: the positions the slice names, whatever their order.
        Value::List(items) if let Some((lower, upper, step)) = as_slice(index) => {
            let len = items.borrow().len();
            let mut doomed = vec![false; len];
            for at in slice_positions(len, lower, upper, step)? {
                doomed[at] = true;
            }
            let mut position = 0;
            items.borrow_mut().retain(|_| {
                position += 1;
                !doomed[position - 1]
            });
            Ok(())
        }
        Value::List(items) => {
            let at = list_position(items, index)?;
            items.borrow_mut().remove(at);
            Ok(())
        }
        Value::Dict(entries) => {
            let mut entries = entries.borrow_mut();
            let before = entries.len();
            entries.retain(|(k, _)| !equal(k, index));
            if entries.len() == before {
                return Err(PyException::new(ExcType::KeyError, index.repr()));
            }
            Ok(())
        }
        other => Err(type_error(format!(
            "'{}' object doesn't support item deletion",
            other.type_name()
        ))),
    }
}

/// `format(value, spec)` for the specs learners use in f-strings: `.4f`, `.2e`, `d`, `>8`, `%`.
pub fn format(value: &Value, spec: &str) -> Result<String> {
    // `Tensor.__format__`: a 0-dim tensor formats as its Python number (`f"{t}"` too).
    if let Value::Tensor(t) = &*value.resolved()
        && t.dim() == 0
    {
        return format(&Value::from(t.item()?), spec);
    }
    // A NumPy scalar formats as the Python number it stands for (`f"{np.float32(0.1)}"` shows
    // the float32's exact double, as NumPy's `__format__` does).
    if let Value::NpScalar(x) = value {
        return format(&crate::stdlib::numpy::python_number(x), spec);
    }
    if spec.is_empty() {
        return Ok(value.str_text());
    }
    let spec_error = || {
        PyException::new(
            ExcType::ValueError,
            format!(
                "Unknown format code '{spec}' for object of type '{}'",
                value.type_name()
            ),
        )
    };
    // [[fill]align][sign][0][width][,][.precision][type]
    let chars: Vec<char> = spec.chars().collect();
    let mut i = 0;
    let (mut fill, mut align) = (' ', None);
    if chars.len() > 1 && matches!(chars[1], '<' | '>' | '^' | '=') {
        (fill, align) = (chars[0], Some(chars[1]));
        i = 2;
    } else if matches!(chars.first(), Some('<' | '>' | '^' | '=')) {
        align = chars.first().copied();
        i = 1;
    }
    let mut sign = '-';
    if let Some(c @ ('+' | '-' | ' ')) = chars.get(i) {
        sign = *c;
        i += 1;
    }
    let alternate = chars.get(i) == Some(&'#');
    if alternate {
        i += 1;
    }
    if chars.get(i) == Some(&'0') {
        if align.is_none() {
            (fill, align) = ('0', Some('='));
        }
        i += 1;
    }
    // A count's digits: past a machine word CPython's "too many digits", past what one
    // string may hold in the lab a MemoryError (CPython would try to build it).
    let digits = |i: &mut usize| -> Result<Option<usize>> {
        let start = *i;
        while chars.get(*i).is_some_and(char::is_ascii_digit) {
            *i += 1;
        }
        if start == *i {
            return Ok(None);
        }
        let Ok(n) = chars[start..*i].iter().collect::<String>().parse::<u64>() else {
            return Err(PyException::new(
                ExcType::ValueError,
                "Too many decimal digits in format string",
            ));
        };
        if n > MAX_SEQUENCE as u64 {
            return Err(PyException::new(
                ExcType::MemoryError,
                format!("a string of {n} characters is too long for the lab"),
            ));
        }
        Ok(Some(n as usize))
    };
    let width = digits(&mut i)?.unwrap_or(0);
    let separator = chars.get(i).copied().filter(|c| matches!(c, ',' | '_'));
    if separator.is_some() {
        i += 1;
    }
    let precision = if chars.get(i) == Some(&'.') {
        i += 1;
        Some(digits(&mut i)?.ok_or_else(spec_error)?)
    } else {
        None
    };
    let kind = chars.get(i).copied();
    if chars.len() > i + 1 {
        return Err(spec_error());
    }
    let integer = matches!(value, Value::Int(_) | Value::BigInt(_) | Value::Bool(_));
    let numeric = integer || matches!(value, Value::Float(_));
    let number = as_f64(value);
    // An int's digits come from the int itself, exactly (never through f64).
    let digits = |radix: u32| -> Result<String> {
        if let (10, Value::BigInt(n)) = (radix, value) {
            return Ok(super::int::decimal(n)?.trim_start_matches('-').to_owned());
        }
        Ok(super::int::magnitude_digits(value, radix).unwrap_or_default())
    };
    if let (Some(','), Some(code @ ('x' | 'X' | 'b' | 'o' | 'n' | 'c'))) = (separator, kind)
        && integer
    {
        return Err(PyException::new(
            ExcType::ValueError,
            format!("Cannot specify ',' with '{code}'."),
        ));
    }
    if integer && precision.is_some() && matches!(kind, None | Some('d' | 'x' | 'X' | 'b' | 'o')) {
        return Err(PyException::new(
            ExcType::ValueError,
            "Precision not allowed in integer format specifier",
        ));
    }
    let prefix = match kind {
        Some('x') if alternate => "0x",
        Some('X') if alternate => "0X",
        Some('b') if alternate => "0b",
        Some('o') if alternate => "0o",
        _ => "",
    };
    // A precision cuts a string (`f"{'abc':.2}"` is 'ab').
    let text = |v: &Value| match (v, precision) {
        (Value::Str(s), Some(p)) => s.chars().take(p).collect(),
        _ => v.str_text(),
    };
    let body = match kind {
        None if !numeric => text(value),
        Some('s') if !numeric => text(value),
        None | Some('d' | 'n') if integer => digits(10)?,
        Some('x') if integer => digits(16)?,
        Some('X') if integer => digits(16)?.to_uppercase(),
        Some('b') if integer => digits(2)?,
        Some('o') if integer => digits(8)?,
        None => match precision {
            Some(p) => general(number.abs(), p.max(1)),
            None => python_float_text(number.abs()),
        },
        Some('f' | 'F') if numeric => format!("{:.*}", precision.unwrap_or(6), number.abs()),
        Some('e' | 'E') if numeric => {
            let text = format!("{:.*e}", precision.unwrap_or(6), number.abs());
            let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
            let exponent: i32 = exponent.parse().unwrap_or(0);
            let e = if kind == Some('E') { 'E' } else { 'e' };
            format!(
                "{mantissa}{e}{}{:02}",
                if exponent < 0 { '-' } else { '+' },
                exponent.abs()
            )
        }
        Some('g') if numeric => general(number.abs(), precision.unwrap_or(6).max(1)),
        Some('G') if numeric => general(number.abs(), precision.unwrap_or(6).max(1)).to_uppercase(),
        Some('%') if numeric => format!("{:.*}%", precision.unwrap_or(6), number.abs() * 100.0),
        _ => return Err(spec_error()),
    };
    let body = match separator {
        Some(separator) if matches!(kind, Some('x' | 'X' | 'b' | 'o')) => {
            group_digits(&body, separator, 4)
        }
        Some(separator) => group_digits(&body, separator, 3),
        None => body,
    };
    let negative = if integer {
        super::int::is_negative(value)
    } else {
        numeric && (number < 0.0 || (number == 0.0 && number.is_sign_negative()))
    };
    let sign_text = match (negative, sign) {
        (true, _) => "-",
        (false, '+') => "+",
        (false, ' ') => " ",
        _ => "",
    };
    let sign_text = format!("{sign_text}{prefix}");
    let pad = width.saturating_sub(body.chars().count() + sign_text.len());
    let fill_text = |n: usize| fill.to_string().repeat(n);
    Ok(match align.unwrap_or(if numeric { '>' } else { '<' }) {
        '=' => format!("{sign_text}{}{body}", fill_text(pad)),
        '>' => format!("{}{sign_text}{body}", fill_text(pad)),
        '^' => format!(
            "{}{sign_text}{body}{}",
            fill_text(pad / 2),
            fill_text(pad - pad / 2)
        ),
        _ => format!("{sign_text}{body}{}", fill_text(pad)),
    })
}

/// A float's `repr` without its sign.
fn python_float_text(x: f64) -> String {
    tolab_engine::repr::python_float(x)
}

/// The `g` presentation: `precision` significant digits, scientific outside 1e-4..1e{precision}.
fn general(x: f64, precision: usize) -> String {
    if x == 0.0 {
        return "0".into();
    }
    let exponent = x.abs().log10().floor() as i32;
    let trim = |s: String| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_owned()
        } else {
            s
        }
    };
    if exponent < -4 || exponent >= precision as i32 {
        let text = format!("{:.*e}", precision - 1, x);
        let (mantissa, exp) = text.split_once('e').unwrap_or((&text, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        format!(
            "{}e{}{:02}",
            trim(mantissa.to_owned()),
            if exp < 0 { '-' } else { '+' },
            exp.abs()
        )
    } else {
        let decimals = (precision as i32 - 1 - exponent).max(0) as usize;
        trim(format!("{x:.decimals$}"))
    }
}

/// `1234567.5` → `1,234,567.5`.
/// The leading run of digits of `body` with `separator` every `size` digits from the right
/// (`1,234.5`; `0x_ffff_ffff` takes fours).
fn group_digits(body: &str, separator: char, size: usize) -> String {
    let (whole, rest) = match body.find(|c: char| !c.is_ascii_hexdigit()) {
        Some(at) => body.split_at(at),
        None => (body, ""),
    };
    let mut grouped = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % size == 0 {
            grouped.push(separator);
        }
        grouped.push(c);
    }
    grouped + rest
}
