//! Elementwise work (NumPy's ufuncs): operands broadcast together, the result type by NumPy 2's
//! promotion, arithmetic in the lanes of [`Data`] rounded or wrapped to the result type, and
//! NumPy's errors (shapes that do not broadcast, bool subtraction, negative integer powers,
//! Python integers out of an array type's bounds). Integer arithmetic wraps as C's does, and
//! division by zero gives 0 as NumPy's does: nothing a learner writes panics.

use super::array::{Data, NdArray, NpScalar, Num, Result};
use super::dtype::{Kind, NpDType};
use super::format::shape_text;
use crate::python::exception::{ExcType, PyException};

/// One operand of a ufunc.
#[derive(Debug, Clone)]
pub struct Arg {
    pub dtype: NpDType,
    /// A Python number: "weak", it takes the other operands' type.
    pub weak: bool,
    pub shape: Vec<usize>,
    pub data: Data,
}

impl Arg {
    pub fn array(a: &NdArray) -> Result<Arg> {
        Ok(Arg {
            dtype: a.dtype,
            weak: false,
            shape: a.shape.clone(),
            data: a.data()?,
        })
    }

    pub fn scalar(s: NpScalar) -> Arg {
        Arg {
            dtype: s.dtype,
            weak: false,
            shape: Vec::new(),
            data: one(s.value),
        }
    }

    /// A Python number.
    pub fn weak(n: Num) -> Arg {
        Arg {
            dtype: NpDType::default_for(n.kind()),
            weak: true,
            shape: Vec::new(),
            data: one(n),
        }
    }

    pub fn size(&self) -> usize {
        self.data.len()
    }
}

fn one(n: Num) -> Data {
    match n {
        Num::Bool(b) => Data::Bool(vec![b]),
        Num::Int(i) => Data::Int(vec![i]),
        Num::Float(x) => Data::Float(vec![x]),
    }
}

/// A computed result: its type, shape and elements.
#[derive(Debug, Clone)]
pub struct Out {
    pub dtype: NpDType,
    pub shape: Vec<usize>,
    pub data: Data,
}

/// The shape operands broadcast to, or NumPy's error.
pub fn broadcast_shapes(shapes: &[&[usize]]) -> Result<Vec<usize>> {
    let ndim = shapes.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut out = vec![1usize; ndim];
    for shape in shapes {
        for (i, &n) in shape.iter().enumerate() {
            let o = &mut out[ndim - shape.len() + i];
            if *o == 1 {
                *o = n;
            } else if n != 1 && n != *o {
                let texts: Vec<String> = shapes.iter().map(|s| shape_text(s)).collect();
                return Err(PyException::new(
                    ExcType::ValueError,
                    format!(
                        "operands could not be broadcast together with shapes {} ",
                        texts.join(" ")
                    ),
                ));
            }
        }
    }
    super::array::checked_size(&out)?;
    Ok(out)
}

/// For each element of `out`, the flat index of the element of `shape` it reads.
pub fn broadcast_index(shape: &[usize], out: &[usize]) -> Vec<usize> {
    let n: usize = out.iter().product();
    let offset = out.len() - shape.len();
    let mut strides = vec![0usize; out.len()];
    let mut step = 1;
    for (i, &d) in shape.iter().enumerate().rev() {
        strides[offset + i] = if d == 1 { 0 } else { step };
        step *= d;
    }
    let mut index = vec![0usize; out.len()];
    let mut at = 0usize;
    let mut result = Vec::with_capacity(n);
    for _ in 0..n {
        result.push(at);
        for d in (0..out.len()).rev() {
            index[d] += 1;
            at += strides[d];
            if index[d] < out[d] {
                break;
            }
            at -= strides[d] * out[d];
            index[d] = 0;
        }
    }
    result
}

/// The operands' common type, Python numbers taking the others' (NEP 50).
pub fn result_type(args: &[&Arg]) -> Result<NpDType> {
    let strong = args
        .iter()
        .filter(|a| !a.weak)
        .map(|a| a.dtype)
        .reduce(NpDType::promote);
    let mut dtype = match strong {
        Some(d) => d,
        None => args
            .iter()
            .map(|a| a.dtype)
            .reduce(NpDType::promote)
            .unwrap_or(NpDType::Float64),
    };
    if strong.is_some() {
        for a in args.iter().filter(|a| a.weak) {
            dtype = dtype.with_weak(a.data.get(0).kind());
        }
        for a in args.iter().filter(|a| a.weak) {
            if let (Kind::Int, Num::Int(i)) = (dtype.kind(), a.data.get(0)) {
                let (low, high) = dtype.int_range();
                if i < low || i > high {
                    return Err(PyException::new(
                        ExcType::OverflowError,
                        format!("Python integer {i} out of bounds for {}", dtype.name()),
                    ));
                }
            }
        }
    }
    Ok(dtype)
}

/// The two-operand ufuncs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binary {
    Add,
    Sub,
    Mul,
    TrueDiv,
    FloorDiv,
    Mod,
    Pow,
    Maximum,
    Minimum,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Xor,
}

impl Binary {
    fn name(self) -> &'static str {
        match self {
            Binary::Add => "add",
            Binary::Sub => "subtract",
            Binary::Mul => "multiply",
            Binary::TrueDiv => "divide",
            Binary::FloorDiv => "floor_divide",
            Binary::Mod => "remainder",
            Binary::Pow => "power",
            Binary::Maximum => "maximum",
            Binary::Minimum => "minimum",
            Binary::Eq => "equal",
            Binary::Ne => "not_equal",
            Binary::Lt => "less",
            Binary::Le => "less_equal",
            Binary::Gt => "greater",
            Binary::Ge => "greater_equal",
            Binary::And => "bitwise_and",
            Binary::Or => "bitwise_or",
            Binary::Xor => "bitwise_xor",
        }
    }

    fn compares(self) -> bool {
        matches!(
            self,
            Binary::Eq | Binary::Ne | Binary::Lt | Binary::Le | Binary::Gt | Binary::Ge
        )
    }
}

fn compare(op: Binary, o: Option<std::cmp::Ordering>) -> bool {
    use std::cmp::Ordering::*;
    match (op, o) {
        (Binary::Ne, None) => true,
        (_, None) => false,
        (Binary::Eq, Some(o)) => o == Equal,
        (Binary::Ne, Some(o)) => o != Equal,
        (Binary::Lt, Some(o)) => o == Less,
        (Binary::Le, Some(o)) => o != Greater,
        (Binary::Gt, Some(o)) => o == Greater,
        (Binary::Ge, Some(o)) => o != Less,
        _ => false,
    }
}

fn float_op(op: Binary, a: f64, b: f64) -> f64 {
    match op {
        Binary::Add => a + b,
        Binary::Sub => a - b,
        Binary::Mul => a * b,
        Binary::TrueDiv => a / b,
        Binary::FloorDiv => {
            if b == 0.0 {
                a / b
            } else {
                let m = a % b;
                let div = (a - m) / b;
                let div = if m != 0.0 && ((b < 0.0) != (m < 0.0)) {
                    div - 1.0
                } else {
                    div
                };
                if div == 0.0 {
                    0.0f64.copysign(a / b)
                } else {
                    let floor = div.floor();
                    if div - floor > 0.5 {
                        floor + 1.0
                    } else {
                        floor
                    }
                }
            }
        }
        Binary::Mod => {
            if b == 0.0 {
                f64::NAN
            } else {
                let m = a % b;
                if m != 0.0 && ((b < 0.0) != (m < 0.0)) {
                    m + b
                } else if m == 0.0 {
                    0.0f64.copysign(b)
                } else {
                    m
                }
            }
        }
        Binary::Pow => pow(a, b),
        Binary::Maximum => {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else {
                a.max(b)
            }
        }
        Binary::Minimum => {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else {
                a.min(b)
            }
        }
        _ => f64::NAN,
    }
}

/// `x ** y` as NumPy computes it: squares multiply, the rest is C's `pow`.
fn pow(a: f64, b: f64) -> f64 {
    if b == 2.0 { a * a } else { a.powf(b) }
}

fn int_op(op: Binary, a: i64, b: i64) -> Result<i64> {
    Ok(match op {
        Binary::Add => a.wrapping_add(b),
        Binary::Sub => a.wrapping_sub(b),
        Binary::Mul => a.wrapping_mul(b),
        Binary::FloorDiv => {
            if b == 0 {
                0
            } else {
                let q = a.wrapping_div(b);
                if (a.wrapping_rem(b) != 0) && ((a < 0) != (b < 0)) {
                    q - 1
                } else {
                    q
                }
            }
        }
        Binary::Mod => {
            if b == 0 {
                0
            } else {
                let m = a.wrapping_rem(b);
                if m != 0 && ((m < 0) != (b < 0)) {
                    m + b
                } else {
                    m
                }
            }
        }
        Binary::Pow => {
            if b < 0 {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "Integers to negative integer powers are not allowed.",
                ));
            }
            let mut result = 1i64;
            let (mut base, mut e) = (a, b);
            while e > 0 {
                if e & 1 == 1 {
                    result = result.wrapping_mul(base);
                }
                base = base.wrapping_mul(base);
                e >>= 1;
            }
            result
        }
        Binary::Maximum => a.max(b),
        Binary::Minimum => a.min(b),
        Binary::And => a & b,
        Binary::Or => a | b,
        Binary::Xor => a ^ b,
        _ => 0,
    })
}

/// `op(a, b)`, broadcast.
pub fn binary(op: Binary, a: &Arg, b: &Arg) -> Result<Out> {
    // A comparison with a Python integer out of the array type's range compares values.
    let common = match result_type(&[a, b]) {
        Err(e) if op.compares() && e.kind == ExcType::OverflowError => NpDType::Int64,
        other => other?,
    };
    let unsupported = |what: &str| {
        PyException::new(
            ExcType::TypeError,
            format!(
                "ufunc '{what}' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''"
            ),
        )
    };
    if common == NpDType::Bool && op == Binary::Sub {
        return Err(PyException::new(
            ExcType::TypeError,
            "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the logical_xor function instead.",
        ));
    }
    if matches!(op, Binary::And | Binary::Or | Binary::Xor) && common.is_float() {
        return Err(unsupported(op.name()));
    }
    let shape = broadcast_shapes(&[&a.shape, &b.shape])?;
    if op.compares() {
        let result: Vec<bool> = match common.kind() {
            Kind::Float => {
                let (x, y) = (floats_of(a, common), floats_of(b, common));
                apply((&x, &a.shape), (&y, &b.shape), &shape, |p, q| {
                    compare(op, p.partial_cmp(&q))
                })
            }
            _ => {
                let (x, y) = (ints_of(a, common), ints_of(b, common));
                apply((&x, &a.shape), (&y, &b.shape), &shape, |p, q| {
                    compare(op, Some(p.cmp(&q)))
                })
            }
        };
        return Ok(Out {
            dtype: NpDType::Bool,
            shape,
            data: Data::Bool(result),
        });
    }
    let dtype = match (op, common.kind()) {
        (Binary::TrueDiv, Kind::Float) => common,
        (Binary::TrueDiv, _) => NpDType::Float64,
        (Binary::Add | Binary::Mul | Binary::Maximum | Binary::Minimum, Kind::Bool) => {
            NpDType::Bool
        }
        (Binary::And | Binary::Or | Binary::Xor, Kind::Float) => {
            return Err(unsupported(op.name()));
        }
        (Binary::And | Binary::Or | Binary::Xor, Kind::Bool) => NpDType::Bool,
        (_, Kind::Bool) => NpDType::Int64,
        _ => common,
    };
    let data = match dtype.kind() {
        Kind::Float => {
            let (x, y) = (floats_of(a, dtype), floats_of(b, dtype));
            let (x, y) = ((&*x, a.shape.as_slice()), (&*y, b.shape.as_slice()));
            // The common float64 arithmetic gets a loop of its own (no rounding, no dispatch
            // per element); the rest goes through `float_op`.
            Data::Float(match (op, dtype) {
                (Binary::Add, NpDType::Float64) => apply(x, y, &shape, |p, q| p + q),
                (Binary::Sub, NpDType::Float64) => apply(x, y, &shape, |p, q| p - q),
                (Binary::Mul, NpDType::Float64) => apply(x, y, &shape, |p, q| p * q),
                (Binary::TrueDiv, NpDType::Float64) => apply(x, y, &shape, |p, q| p / q),
                _ => apply(x, y, &shape, |p, q| dtype.round_float(float_op(op, p, q))),
            })
        }
        Kind::Int => {
            let (x, y) = (ints_of(a, dtype), ints_of(b, dtype));
            let out = apply((&x, &a.shape), (&y, &b.shape), &shape, |p, q| {
                int_op(op, p, q).map(|v| dtype.wrap_int(v))
            });
            Data::Int(out.into_iter().collect::<Result<_>>()?)
        }
        Kind::Bool => {
            let (x, y) = (ints_of(a, dtype), ints_of(b, dtype));
            Data::Bool(apply(
                (&x, &a.shape),
                (&y, &b.shape),
                &shape,
                |p, q| match op {
                    Binary::Add | Binary::Or | Binary::Maximum => p != 0 || q != 0,
                    Binary::Xor => (p != 0) != (q != 0),
                    _ => p != 0 && q != 0,
                },
            ))
        }
    };
    Ok(Out { dtype, shape, data })
}

/// An operand's elements as floats of `dtype` (borrowed when already so).
fn floats_of(arg: &Arg, dtype: NpDType) -> std::borrow::Cow<'_, [f64]> {
    match &arg.data {
        Data::Float(v) if arg.dtype == dtype || dtype == NpDType::Float64 => {
            std::borrow::Cow::Borrowed(v)
        }
        other => std::borrow::Cow::Owned(match other.clone().cast(dtype) {
            Data::Float(v) => v,
            _ => Vec::new(),
        }),
    }
}

/// An operand's elements as integers of `dtype` (borrowed when already so).
fn ints_of(arg: &Arg, dtype: NpDType) -> std::borrow::Cow<'_, [i64]> {
    match &arg.data {
        Data::Int(v) => std::borrow::Cow::Borrowed(v),
        other => std::borrow::Cow::Owned(
            (0..other.len())
                .map(|i| dtype.wrap_int(other.get(i).as_i64()))
                .collect(),
        ),
    }
}

/// `f` over the elements of two operands broadcast to `out` (shapes `xs`, `ys`).
fn apply<T: Copy, R>(
    (x, xs): (&[T], &[usize]),
    (y, ys): (&[T], &[usize]),
    out: &[usize],
    mut f: impl FnMut(T, T) -> R,
) -> Vec<R> {
    let n: usize = out.iter().product();
    let mut result = Vec::with_capacity(n);
    if xs == out && ys == out {
        for (&p, &q) in x.iter().zip(y) {
            result.push(f(p, q));
        }
    } else if xs == out && y.len() == 1 {
        let q = y[0];
        for &p in x {
            result.push(f(p, q));
        }
    } else if ys == out && x.len() == 1 {
        let p = x[0];
        for &q in y {
            result.push(f(p, q));
        }
    } else {
        let (ix, iy) = (broadcast_index(xs, out), broadcast_index(ys, out));
        for (&i, &j) in ix.iter().zip(&iy) {
            result.push(f(x[i], y[j]));
        }
    }
    result
}

/// The one-operand ufuncs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unary {
    Negative,
    Absolute,
    Square,
    Sqrt,
    Exp,
    Log,
    Sin,
    Cos,
    Tanh,
    Floor,
    Ceil,
    Rint,
    IsNan,
    Invert,
    Sign,
}

/// `op(a)`.
pub fn unary(op: Unary, a: &Arg) -> Result<Out> {
    let transcendental = matches!(
        op,
        Unary::Sqrt | Unary::Exp | Unary::Log | Unary::Sin | Unary::Cos | Unary::Tanh
    );
    let dtype = if transcendental || matches!(op, Unary::Floor | Unary::Ceil | Unary::Rint) {
        a.dtype.float_result()
    } else {
        a.dtype
    };
    if op == Unary::IsNan {
        let values = a.data.floats();
        return Ok(Out {
            dtype: NpDType::Bool,
            shape: a.shape.clone(),
            data: Data::Bool(values.iter().map(|x| x.is_nan()).collect()),
        });
    }
    if dtype == NpDType::Bool && op == Unary::Negative {
        return Err(PyException::new(
            ExcType::TypeError,
            "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the logical_not function instead.",
        ));
    }
    let data = match (dtype.kind(), &a.data) {
        (Kind::Float, data) => {
            let values = match data {
                Data::Float(v) => v.clone(),
                other => match other.clone().cast(dtype) {
                    Data::Float(v) => v,
                    _ => Vec::new(),
                },
            };
            let f = |x: f64| match op {
                Unary::Negative => -x,
                Unary::Absolute => x.abs(),
                Unary::Square => x * x,
                Unary::Sqrt => x.sqrt(),
                Unary::Exp => x.exp(),
                Unary::Log => x.ln(),
                Unary::Sin => x.sin(),
                Unary::Cos => x.cos(),
                Unary::Tanh => x.tanh(),
                Unary::Floor => x.floor(),
                Unary::Ceil => x.ceil(),
                Unary::Rint => x.round_ties_even(),
                Unary::Sign => {
                    if x.is_nan() {
                        x
                    } else if x > 0.0 {
                        1.0
                    } else if x < 0.0 {
                        -1.0
                    } else {
                        0.0
                    }
                }
                Unary::IsNan | Unary::Invert => f64::NAN,
            };
            if op == Unary::Invert {
                return Err(PyException::new(
                    ExcType::TypeError,
                    "ufunc 'invert' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''",
                ));
            }
            Data::Float(values.iter().map(|&x| dtype.round_float(f(x))).collect())
        }
        (Kind::Bool, Data::Bool(v)) => Data::Bool(match op {
            Unary::Invert => v.iter().map(|b| !b).collect(),
            _ => v.clone(),
        }),
        (_, data) => {
            let values: Vec<i64> = (0..data.len()).map(|i| data.get(i).as_i64()).collect();
            Data::Int(
                values
                    .iter()
                    .map(|&i| {
                        dtype.wrap_int(match op {
                            Unary::Negative => i.wrapping_neg(),
                            Unary::Absolute => i.wrapping_abs(),
                            Unary::Square => i.wrapping_mul(i),
                            Unary::Invert => !i,
                            Unary::Sign => i.signum(),
                            _ => i,
                        })
                    })
                    .collect(),
            )
        }
    };
    Ok(Out {
        dtype,
        shape: a.shape.clone(),
        data,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(values: &[i64], shape: &[usize]) -> Arg {
        Arg {
            dtype: NpDType::Int64,
            weak: false,
            shape: shape.to_vec(),
            data: Data::Int(values.to_vec()),
        }
    }

    #[test]
    fn shapes_that_do_not_broadcast_fail_in_numpy_words() {
        let err = broadcast_shapes(&[&[2, 3], &[4]]).unwrap_err();
        assert_eq!(
            err.message,
            "operands could not be broadcast together with shapes (2,3) (4,) "
        );
    }

    #[test]
    fn integer_overflow_and_division_by_zero_do_not_panic() {
        let a = ints(&[i64::MAX, i64::MIN, 7], &[3]);
        let b = ints(&[1, -1, 0], &[3]);
        for op in [
            Binary::Add,
            Binary::Mul,
            Binary::FloorDiv,
            Binary::Mod,
            Binary::Sub,
        ] {
            binary(op, &a, &b).unwrap();
        }
        let out = binary(Binary::FloorDiv, &a, &b).unwrap();
        assert_eq!(out.data.get(2), Num::Int(0));
    }

    #[test]
    fn python_numbers_take_the_array_type() {
        let a = Arg {
            dtype: NpDType::UInt8,
            ..ints(&[1, 2], &[2])
        };
        let err = binary(Binary::Add, &a, &Arg::weak(Num::Int(300))).unwrap_err();
        assert_eq!(err.message, "Python integer 300 out of bounds for uint8");
        let out = binary(Binary::Mul, &a, &Arg::weak(Num::Float(0.5))).unwrap();
        assert_eq!(out.dtype, NpDType::Float64);
    }
}
