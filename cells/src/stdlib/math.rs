//! Python's `math` module, as CPython 3.11 has it: the functions tutorials call (schedules,
//! initialisation bounds, checks), its constants, and its errors: wrong argument counts and
//! types, domain and range errors, and conversions to int that cannot be made. A one-element
//! tensor counts as its number, as its `__float__` makes it count in Python.

use crate::python::args::Args;
use crate::python::exception::{ExcType, PyException};
use crate::python::int;
use crate::python::value::{Value, as_index as integer};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

/// An int of any size where `math` takes one (`gcd`, `isqrt`), else CPython's TypeError.
fn whole(v: &Value) -> Result<BigInt> {
    int::as_big(v).ok_or_else(|| {
        type_error(format!(
            "'{}' object cannot be interpreted as an integer",
            v.type_name()
        ))
    })
}

type Result<T> = std::result::Result<T, PyException>;

/// The module's functions.
pub const FUNCTIONS: &[&str] = &[
    "sqrt",
    "exp",
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "pow",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "atan2",
    "sinh",
    "cosh",
    "tanh",
    "floor",
    "ceil",
    "trunc",
    "fabs",
    "hypot",
    "degrees",
    "radians",
    "isfinite",
    "isinf",
    "isnan",
    "isclose",
    "copysign",
    "fmod",
    "dist",
    "frexp",
    "ldexp",
    "modf",
    "exp2",
    "cbrt",
    "remainder",
    "erf",
    "erfc",
    "gamma",
    "lgamma",
    "factorial",
    "gcd",
    "lcm",
    "comb",
    "perm",
    "prod",
    "fsum",
    "isqrt",
];

/// The module's constants.
pub fn constant(name: &str) -> Option<Value> {
    Some(Value::Float(match name {
        "pi" => std::f64::consts::PI,
        "e" => std::f64::consts::E,
        "tau" => std::f64::consts::TAU,
        "inf" => f64::INFINITY,
        "nan" => f64::NAN,
        _ => return None,
    }))
}

fn domain_error() -> PyException {
    PyException::new(ExcType::ValueError, "math domain error")
}

fn range_error() -> PyException {
    PyException::new(ExcType::OverflowError, "math range error")
}

fn type_error(message: String) -> PyException {
    PyException::new(ExcType::TypeError, message)
}

/// A real number argument.
/// `math.frexp`: `x == m * 2**e` with `0.5 <= |m| < 1` (zero, infinities and NaN as they are).
fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i32;
    if exponent == 0 {
        // Subnormal: scale into the normal range first.
        let (m, e) = frexp(x * 2f64.powi(64));
        return (m, e - 64);
    }
    let mantissa = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (mantissa, exponent - 1022)
}

fn real(v: &Value) -> Result<f64> {
    match v {
        Value::Bool(b) => Ok(f64::from(u8::from(*b))),
        Value::Int(i) => Ok(*i as f64),
        Value::BigInt(n) => int::to_f64(n),
        Value::Float(x) => Ok(*x),
        Value::NpScalar(x) => Ok(x.value.as_f64()),
        Value::Tensor(t) if t.numel() == 1 => Ok(t.item()?.as_f64()),
        Value::Tensor(_) => Err(PyException::new(
            ExcType::RuntimeError,
            "a Tensor with more than one element cannot be converted to Scalar",
        )),
        other => Err(type_error(format!(
            "must be real number, not {}",
            other.type_name()
        ))),
    }
}

/// A float result: infinity from finite arguments is CPython's range error.
fn finite(x: f64, from: &[f64]) -> Result<Value> {
    if x.is_infinite() && from.iter().all(|a| a.is_finite()) {
        return Err(range_error());
    }
    Ok(Value::Float(x))
}

/// `math.name(...)`.
pub fn call(name: &str, args: &Args) -> Result<Value> {
    let positional = &args.positional;
    // Only `isclose` (rel_tol, abs_tol) and `prod` (start) take keywords.
    match (name, args.keywords.first()) {
        (_, None) | ("isclose", _) => {}
        ("prod", Some(_)) if args.keywords.iter().all(|(k, _)| k == "start") => {}
        ("prod", Some(_)) => {
            let key = args
                .keywords
                .iter()
                .find(|(k, _)| k != "start")
                .map_or("", |(k, _)| k);
            return Err(type_error(format!(
                "'{key}' is an invalid keyword argument for prod()"
            )));
        }
        (_, Some(_)) => {
            return Err(type_error(format!(
                "math.{name}() takes no keyword arguments"
            )));
        }
    }
    let exactly = |n: usize| -> Result<()> {
        if positional.len() == n {
            return Ok(());
        }
        Err(type_error(if n == 1 {
            format!(
                "math.{name}() takes exactly one argument ({} given)",
                positional.len()
            )
        } else {
            format!("{name} expected {n} arguments, got {}", positional.len())
        }))
    };
    let one = || -> Result<f64> {
        exactly(1)?;
        real(&positional[0])
    };
    let two = || -> Result<(f64, f64)> {
        exactly(2)?;
        Ok((real(&positional[0])?, real(&positional[1])?))
    };
    Ok(match name {
        "sqrt" => {
            let x = one()?;
            if x < 0.0 {
                return Err(domain_error());
            }
            Value::Float(x.sqrt())
        }
        "exp" => {
            let x = one()?;
            finite(x.exp(), &[x])?
        }
        "expm1" => {
            let x = one()?;
            finite(x.exp_m1(), &[x])?
        }
        "log" => {
            let (x, base) = match positional.as_slice() {
                [x] => (real(x)?, None),
                [x, base] => (real(x)?, Some(real(base)?)),
                other => {
                    return Err(type_error(format!(
                        "log expected at least 1 argument, got {}",
                        other.len()
                    )));
                }
            };
            if x <= 0.0 || base.is_some_and(|b| b <= 0.0) {
                return Err(domain_error());
            }
            match base {
                Some(1.0) => {
                    return Err(PyException::new(
                        ExcType::ZeroDivisionError,
                        "float division by zero",
                    ));
                }
                Some(b) => Value::Float(x.ln() / b.ln()),
                None => Value::Float(x.ln()),
            }
        }
        "log2" | "log10" => {
            let x = one()?;
            if x <= 0.0 {
                return Err(domain_error());
            }
            Value::Float(if name == "log2" { x.log2() } else { x.log10() })
        }
        "log1p" => {
            let x = one()?;
            if x <= -1.0 {
                return Err(domain_error());
            }
            Value::Float(x.ln_1p())
        }
        "pow" => {
            let (x, y) = two()?;
            if (x == 0.0 && y < 0.0) || (x < 0.0 && y.is_finite() && y.fract() != 0.0) {
                return Err(domain_error());
            }
            finite(x.powf(y), &[x, y])?
        }
        "sin" | "cos" | "tan" => {
            let x = one()?;
            if x.is_infinite() {
                return Err(domain_error());
            }
            Value::Float(match name {
                "sin" => x.sin(),
                "cos" => x.cos(),
                _ => x.tan(),
            })
        }
        "asin" | "acos" => {
            let x = one()?;
            if !(-1.0..=1.0).contains(&x) {
                return Err(domain_error());
            }
            Value::Float(if name == "asin" { x.asin() } else { x.acos() })
        }
        "atan" => Value::Float(one()?.atan()),
        "atan2" => {
            let (y, x) = two()?;
            Value::Float(y.atan2(x))
        }
        "sinh" | "cosh" => {
            let x = one()?;
            finite(if name == "sinh" { x.sinh() } else { x.cosh() }, &[x])?
        }
        "tanh" => Value::Float(one()?.tanh()),
        "floor" | "ceil" | "trunc" => {
            exactly(1)?;
            if let Value::Int(_) | Value::Bool(_) = &positional[0] {
                return Ok(Value::Int(integer(&positional[0])?));
            }
            let x = real(&positional[0])?;
            int::from_f64(match name {
                "floor" => x.floor(),
                "ceil" => x.ceil(),
                _ => x.trunc(),
            })?
        }
        "fabs" => Value::Float(one()?.abs()),
        "hypot" => {
            let mut sum = 0.0_f64;
            let mut coordinates = Vec::with_capacity(positional.len());
            for v in positional {
                coordinates.push(real(v)?);
            }
            if coordinates.iter().any(|c| c.is_infinite()) {
                return Ok(Value::Float(f64::INFINITY));
            }
            for c in &coordinates {
                sum += c * c;
            }
            Value::Float(sum.sqrt())
        }
        "degrees" => Value::Float(one()?.to_degrees()),
        "radians" => Value::Float(one()?.to_radians()),
        "isfinite" => Value::Bool(one()?.is_finite()),
        "isinf" => Value::Bool(one()?.is_infinite()),
        "isnan" => Value::Bool(one()?.is_nan()),
        "isclose" => isclose(args)?,
        "copysign" => {
            let (x, y) = two()?;
            Value::Float(x.copysign(y))
        }
        "dist" => {
            let (Some(p), Some(q)) = (positional.first(), positional.get(1)) else {
                return Err(type_error("dist expected 2 arguments".into()));
            };
            let (p, q) = (
                super::super::python::operators::iterate(p)?,
                super::super::python::operators::iterate(q)?,
            );
            if p.len() != q.len() {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "both points must have the same number of dimensions",
                ));
            }
            let mut differences = Vec::with_capacity(p.len());
            for (a, b) in p.iter().zip(&q) {
                differences.push(real(a)? - real(b)?);
            }
            if differences.iter().any(|d| d.is_infinite()) {
                return Ok(Value::Float(f64::INFINITY));
            }
            Value::Float(differences.iter().map(|d| d * d).sum::<f64>().sqrt())
        }
        "frexp" => {
            let x = one()?;
            let (mantissa, exponent) = frexp(x);
            Value::Tuple(std::rc::Rc::from(vec![
                Value::Float(mantissa),
                Value::Int(i64::from(exponent)),
            ]))
        }
        "ldexp" => {
            let x = real(positional.first().unwrap_or(&Value::None))?;
            let Some(Value::Int(exponent)) = positional.get(1) else {
                return Err(type_error(
                    "Expected an int as second argument to ldexp.".into(),
                ));
            };
            let exponent = (*exponent).clamp(-1_100, 1_100) as i32;
            finite(x * 2f64.powi(exponent), &[x])?
        }
        "modf" => {
            let x = one()?;
            let whole = if x.is_infinite() { x } else { x.trunc() };
            let fraction = if x.is_infinite() {
                0f64.copysign(x)
            } else {
                x - whole
            };
            Value::Tuple(std::rc::Rc::from(vec![
                Value::Float(fraction),
                Value::Float(whole),
            ]))
        }
        "exp2" => finite(one()?.exp2(), &[])?,
        "cbrt" => Value::Float(one()?.cbrt()),
        "remainder" => {
            let (x, y) = two()?;
            if y == 0.0 || x.is_infinite() {
                return Err(domain_error());
            }
            // IEEE 754 remainder: x - n*y with n the integer nearest x/y, ties to even.
            let n = (x / y).round_ties_even();
            Value::Float(x - n * y)
        }
        "fmod" => {
            let (x, y) = two()?;
            if y == 0.0 || x.is_infinite() {
                return Err(domain_error());
            }
            Value::Float(x % y)
        }
        "erf" => Value::Float(erf(one()?)),
        "erfc" => Value::Float(1.0 - erf(one()?)),
        "gamma" | "lgamma" => {
            let x = one()?;
            if x <= 0.0 && x.fract() == 0.0 {
                return Err(domain_error());
            }
            let g = gamma(x);
            if name == "gamma" {
                finite(g, &[x])?
            } else {
                Value::Float(g.abs().ln())
            }
        }
        "factorial" => {
            exactly(1)?;
            let n = integer(&positional[0])?;
            if n < 0 {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "factorial() not defined for negative values",
                ));
            }
            let mut acc = BigInt::one();
            for i in 2..=n {
                acc *= i;
                if acc.bits() > int::MAX_BITS {
                    return int::checked(acc);
                }
            }
            int::normalized(acc)
        }
        "gcd" | "lcm" => {
            let mut acc = if name == "gcd" {
                BigInt::zero()
            } else {
                BigInt::one()
            };
            for v in positional {
                let n = whole(v)?;
                acc = if name == "gcd" {
                    acc.gcd(&n)
                } else {
                    acc.lcm(&n)
                };
            }
            int::checked(acc)?
        }
        "comb" | "perm" => {
            let (n, k) = match positional.as_slice() {
                [n] if name == "perm" => (integer(n)?, integer(n)?),
                [n, k] => (integer(n)?, integer(k)?),
                other => {
                    return Err(type_error(format!(
                        "{name} expected 2 arguments, got {}",
                        other.len()
                    )));
                }
            };
            if n < 0 || k < 0 {
                let what = if n < 0 { "n" } else { "k" };
                return Err(PyException::new(
                    ExcType::ValueError,
                    format!("{what} must be a non-negative integer"),
                ));
            }
            if k > n {
                return Ok(Value::Int(0));
            }
            // comb(n, k) == comb(n, n - k): the shorter product.
            let k = if name == "comb" { k.min(n - k) } else { k };
            let mut acc = BigInt::one();
            for i in 0..k {
                acc *= n - i;
                if name == "comb" {
                    acc /= i + 1;
                }
                if acc.bits() > int::MAX_BITS {
                    return int::checked(acc);
                }
            }
            int::normalized(acc)
        }
        "isqrt" => {
            exactly(1)?;
            let n = whole(&positional[0])?;
            if n.is_negative() {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "isqrt() argument must be nonnegative",
                ));
            }
            int::normalized(n.sqrt())
        }
        "prod" => {
            exactly(1)?;
            let mut acc = args.keyword("start").cloned().unwrap_or(Value::Int(1));
            for item in crate::python::operators::iterate(&positional[0])? {
                acc = crate::python::operators::binary(
                    ruff_python_ast::Operator::Mult,
                    &acc,
                    &item,
                    false,
                )?;
            }
            acc
        }
        "fsum" => {
            exactly(1)?;
            let mut sum = 0.0;
            let mut compensation = 0.0;
            for item in crate::python::operators::iterate(&positional[0])? {
                // Neumaier's summation: exact enough for the sums tutorials take.
                let x = real(&item)?;
                let t = sum + x;
                compensation += if sum.abs() >= x.abs() {
                    (sum - t) + x
                } else {
                    (x - t) + sum
                };
                sum = t;
            }
            Value::Float(sum + compensation)
        }
        other => {
            return Err(PyException::new(
                ExcType::AttributeError,
                format!("module 'math' has no attribute '{other}'"),
            ));
        }
    })
}

/// `isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0)`.
fn isclose(args: &Args) -> Result<Value> {
    let [a, b] = args.positional.as_slice() else {
        let missing = if args.positional.is_empty() {
            "a' (pos 1)"
        } else {
            "b' (pos 2)"
        };
        return Err(type_error(if args.positional.len() > 2 {
            format!(
                "isclose() takes exactly 2 positional arguments ({} given)",
                args.positional.len()
            )
        } else {
            format!("isclose() missing required argument '{missing}")
        }));
    };
    let (a, b) = (real(a)?, real(b)?);
    let mut rel_tol = 1e-9;
    let mut abs_tol = 0.0;
    for (key, value) in &args.keywords {
        match key.as_str() {
            "rel_tol" => rel_tol = real(value)?,
            "abs_tol" => abs_tol = real(value)?,
            other => {
                return Err(type_error(format!(
                    "isclose() got an unexpected keyword argument '{other}'"
                )));
            }
        }
    }
    if rel_tol < 0.0 || abs_tol < 0.0 {
        return Err(PyException::new(
            ExcType::ValueError,
            "tolerances must be non-negative",
        ));
    }
    if a == b {
        return Ok(Value::Bool(true));
    }
    if a.is_infinite() || b.is_infinite() {
        return Ok(Value::Bool(false));
    }
    let diff = (b - a).abs();
    Ok(Value::Bool(
        diff <= (rel_tol * b).abs() || diff <= (rel_tol * a).abs() || diff <= abs_tol,
    ))
}

/// The error function, to about 1e-15 (a series near 0, a continued fraction beyond).
fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let ax = x.abs();
    let value = if ax < 2.5 {
        // Maclaurin series: 2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1)).
        let mut term = ax;
        let mut sum = ax;
        let x2 = ax * ax;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -x2 / n;
            sum += term / (2.0 * n + 1.0);
        }
        sum * std::f64::consts::FRAC_2_SQRT_PI
    } else if ax < 30.0 {
        // erfc by Lentz's continued fraction, then 1 - erfc.
        let tiny = 1e-300;
        let mut f = ax;
        let mut c = ax;
        let mut d = 0.0;
        for i in 1..200 {
            let a = f64::from(i) / 2.0;
            d = ax + a * d;
            d = if d.abs() < tiny { tiny } else { d };
            c = ax + a / c;
            c = if c.abs() < tiny { tiny } else { c };
            d = 1.0 / d;
            let delta = c * d;
            f *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        1.0 - (-ax * ax).exp() / (f * std::f64::consts::PI.sqrt())
    } else {
        1.0
    };
    value.copysign(x)
}

/// The gamma function (Lanczos, g = 7, nine coefficients), with the reflection formula below 1/2.
fn gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        return std::f64::consts::PI / ((std::f64::consts::PI * x).sin() * gamma(1.0 - x));
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + G + 0.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    (2.0 * std::f64::consts::PI).sqrt() * t.powf(x + 0.5) * (-t).exp() * a
}
