//! Python's `int` past 64 bits. [`Value::Int`] holds every int that fits an `i64` (the fast
//! path); [`Value::BigInt`] holds the rest and never one that fits, so an int has one form.
//! Arithmetic that leaves the `i64` range goes on here exactly, as CPython's ints do, up to
//! [`MAX_BITS`] (past it: `MemoryError`, rather than a tab that stalls), and decimal text keeps
//! CPython 3.11's 4300-digit limit.

use std::cmp::Ordering;
use std::rc::Rc;

use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};
use ruff_python_ast::Operator;

use super::exception::{ExcType, PyException};
use super::value::Value;

type Result<T> = std::result::Result<T, PyException>;

/// The most bits an int may have in the lab (about 1.26 million decimal digits).
pub const MAX_BITS: u64 = 1 << 22;

/// CPython 3.11's default limit on decimal digits for `str(int)` and `int(str)`.
pub const MAX_STR_DIGITS: usize = 4300;

/// The value of an int that does not fit 64 bits, else the fast form.
pub fn normalized(big: BigInt) -> Value {
    match big.to_i64() {
        Some(i) => Value::Int(i),
        None => Value::BigInt(Rc::new(big)),
    }
}

/// An int, a bool or a big int as a [`BigInt`]; `None` for anything else.
pub fn as_big(v: &Value) -> Option<BigInt> {
    match v {
        Value::Int(i) => Some(BigInt::from(*i)),
        Value::Bool(b) => Some(BigInt::from(u8::from(*b))),
        Value::BigInt(b) => Some((**b).clone()),
        _ => None,
    }
}

/// `MemoryError` for an int past [`MAX_BITS`].
pub fn too_big() -> PyException {
    PyException::new(
        ExcType::MemoryError,
        format!("this int would have more than {MAX_BITS} bits: too large for the lab"),
    )
}

/// A result as a value, or `MemoryError` past [`MAX_BITS`].
pub fn checked(big: BigInt) -> Result<Value> {
    if big.bits() > MAX_BITS {
        return Err(too_big());
    }
    Ok(normalized(big))
}

fn zero_division(what: &str) -> PyException {
    PyException::new(ExcType::ZeroDivisionError, what)
}

/// `a op b` for ints of any size (`None` for an operator ints do not have).
pub fn binary(op: Operator, a: &BigInt, b: &BigInt) -> Option<Result<Value>> {
    Some(match op {
        Operator::Add => checked(a + b),
        Operator::Sub => checked(a - b),
        Operator::Mult if a.bits() + b.bits() > MAX_BITS + 1 => Err(too_big()),
        Operator::Mult => checked(a * b),
        Operator::Div => true_divide(a, b).map(Value::Float),
        Operator::FloorDiv if b.is_zero() => {
            Err(zero_division("integer division or modulo by zero"))
        }
        Operator::FloorDiv => Ok(normalized(a.div_floor(b))),
        Operator::Mod if b.is_zero() => Err(zero_division("integer modulo by zero")),
        Operator::Mod => Ok(normalized(a.mod_floor(b))),
        Operator::Pow => power(a, b),
        Operator::LShift | Operator::RShift if b.is_negative() => Err(PyException::new(
            ExcType::ValueError,
            "negative shift count",
        )),
        Operator::LShift if a.is_zero() => Ok(Value::Int(0)),
        Operator::LShift => match b.to_u64() {
            Some(shift) if a.bits().saturating_add(shift) <= MAX_BITS => checked(a << shift),
            _ => Err(too_big()),
        },
        // Shifting right floors, as for negative ints in Python.
        Operator::RShift => Ok(match b.to_u64().filter(|&s| s < a.bits() + 1) {
            Some(shift) => normalized(a >> shift),
            None => Value::Int(if a.is_negative() { -1 } else { 0 }),
        }),
        Operator::BitAnd => Ok(normalized(a & b)),
        Operator::BitOr => Ok(normalized(a | b)),
        Operator::BitXor => Ok(normalized(a ^ b)),
        _ => return None,
    })
}

/// `a ** b`: exact for a non-negative exponent, a float for a negative one.
fn power(a: &BigInt, b: &BigInt) -> Result<Value> {
    if b.is_negative() {
        if a.is_zero() {
            return Err(zero_division("0.0 cannot be raised to a negative power"));
        }
        let base = to_f64(a)?;
        return Ok(Value::Float(
            base.powf(b.to_f64().unwrap_or(f64::NEG_INFINITY)),
        ));
    }
    // 0, 1 and -1 stay small whatever the exponent.
    if a.is_zero() || a.is_one() || *a == BigInt::from(-1) {
        let odd = b.is_odd();
        return Ok(Value::Int(match (a.sign(), odd) {
            (Sign::NoSign, _) if b.is_zero() => 1,
            (Sign::NoSign, _) => 0,
            (Sign::Minus, true) => -1,
            _ => 1,
        }));
    }
    match b.to_u64() {
        Some(e) if (a.bits() - 1).saturating_mul(e) <= MAX_BITS => {
            checked(num_traits::pow(a.clone(), e as usize))
        }
        _ => Err(too_big()),
    }
}

/// `pow(base, exp, mod)`.
pub fn modular_power(base: &BigInt, exp: &BigInt, modulus: &BigInt) -> Result<Value> {
    if modulus.is_zero() {
        return Err(PyException::new(
            ExcType::ValueError,
            "pow() 3rd argument cannot be 0",
        ));
    }
    let base = if exp.is_negative() {
        match inverse(base, modulus) {
            Some(inverse) => inverse,
            None => {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "base is not invertible for the given modulus",
                ));
            }
        }
    } else {
        base.clone()
    };
    let m = modulus.abs();
    let r = base.mod_floor(&m).modpow(&exp.abs(), &m);
    // The result takes the modulus's sign, as `%` does.
    Ok(normalized(if modulus.is_negative() && !r.is_zero() {
        r + modulus
    } else {
        r
    }))
}

fn inverse(a: &BigInt, m: &BigInt) -> Option<BigInt> {
    let m = m.abs();
    let e = a.mod_floor(&m).extended_gcd(&m);
    e.gcd.is_one().then(|| e.x.mod_floor(&m))
}

/// `a / b`, rounded once as CPython's int division does for ints of any size.
pub fn true_divide(a: &BigInt, b: &BigInt) -> Result<f64> {
    if b.is_zero() {
        return Err(zero_division("division by zero"));
    }
    // Both exact in a double: one rounding, as the hardware divides.
    const EXACT: u64 = 53;
    if a.bits() <= EXACT && b.bits() <= EXACT {
        return Ok(to_f64(a)? / to_f64(b)?);
    }
    // Otherwise an integer quotient with 64 or more significant bits, scaled back.
    let shift = 64 + b.bits() as i64 - a.bits() as i64;
    let (numerator, denominator) = if shift >= 0 {
        (a << shift as u64, b.clone())
    } else {
        (a.clone(), b << (-shift) as u64)
    };
    let quotient = numerator.div_floor(&denominator);
    let value = quotient.to_f64().unwrap_or(f64::INFINITY) * 2f64.powi(-(shift as i32));
    if value.is_infinite() {
        return Err(PyException::new(
            ExcType::OverflowError,
            "integer division result too large for a float",
        ));
    }
    Ok(value)
}

/// `float(n)`.
pub fn to_f64(big: &BigInt) -> Result<f64> {
    match big.to_f64() {
        Some(x) if x.is_finite() => Ok(x),
        _ => Err(PyException::new(
            ExcType::OverflowError,
            "int too large to convert to float",
        )),
    }
}

/// `int(x)` of a finite float, exactly.
pub fn from_f64(x: f64) -> Result<Value> {
    if x.is_nan() {
        return Err(PyException::new(
            ExcType::ValueError,
            "cannot convert float NaN to integer",
        ));
    }
    if x.is_infinite() {
        return Err(PyException::new(
            ExcType::OverflowError,
            "cannot convert float infinity to integer",
        ));
    }
    let t = x.trunc();
    if t.abs() < 9.2e18 {
        return Ok(Value::Int(t as i64));
    }
    Ok(normalized(BigInt::from_biguint(
        if t < 0.0 { Sign::Minus } else { Sign::Plus },
        float_magnitude(t.abs()),
    )))
}

/// The integer a non-negative whole float stands for.
fn float_magnitude(x: f64) -> num_bigint::BigUint {
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i64 - 1075;
    let mantissa = (bits & ((1 << 52) - 1)) | (1 << 52);
    let m = num_bigint::BigUint::from(mantissa);
    if exponent >= 0 {
        m << exponent as u64
    } else {
        m >> (-exponent) as u64
    }
}

/// How an int compares with a float, exactly (`None` when the float is NaN).
pub fn compare_float(a: &BigInt, x: f64) -> Option<Ordering> {
    if x.is_nan() {
        return None;
    }
    if x.is_infinite() {
        return Some(if x > 0.0 {
            Ordering::Less
        } else {
            Ordering::Greater
        });
    }
    let whole = x.trunc();
    let magnitude = BigInt::from_biguint(
        if whole < 0.0 { Sign::Minus } else { Sign::Plus },
        float_magnitude(whole.abs()),
    );
    let magnitude = if whole == 0.0 {
        BigInt::zero()
    } else {
        magnitude
    };
    Some(a.cmp(&magnitude).then_with(|| {
        // Equal whole parts: the float's fraction decides.
        let fraction = x - whole;
        0.0.partial_cmp(&fraction).unwrap_or(Ordering::Equal)
    }))
}

/// `hash(n)`: CPython's, the value modulo the Mersenne prime 2**61 - 1, with its sign.
pub fn hash(big: &BigInt) -> i64 {
    let modulus = BigInt::from((1i64 << 61) - 1);
    let h = (big.abs() % &modulus).to_i64().unwrap_or(0);
    let h = if big.is_negative() { -h } else { h };
    if h == -1 { -2 } else { h }
}

fn digit_limit(digits: usize) -> PyException {
    PyException::new(
        ExcType::ValueError,
        format!(
            "Exceeds the limit ({MAX_STR_DIGITS} digits) for integer string conversion: value has \
             {digits} digits; use sys.set_int_max_str_digits() to increase the limit"
        ),
    )
}

/// `str(n)` in decimal, or CPython's error past its digit limit.
pub fn decimal(big: &BigInt) -> Result<String> {
    // log10(2) bits per digit: a cheap bound before the conversion.
    let at_least = (big.bits().saturating_sub(1) as f64 * std::f64::consts::LOG10_2) as usize;
    if at_least > MAX_STR_DIGITS {
        return Err(PyException::new(
            ExcType::ValueError,
            format!(
                "Exceeds the limit ({MAX_STR_DIGITS} digits) for integer string conversion; \
                 use sys.set_int_max_str_digits() to increase the limit"
            ),
        ));
    }
    Ok(big.to_string())
}

/// `int(text, base)` for digits already checked and stripped of sign, prefix and underscores.
pub fn parse(digits: &str, base: u32, negative: bool) -> Result<Value> {
    if base == 10 && digits.len() > MAX_STR_DIGITS {
        return Err(digit_limit(digits.len()));
    }
    let magnitude = num_bigint::BigUint::parse_bytes(digits.as_bytes(), base)
        .ok_or_else(|| PyException::new(ExcType::ValueError, "invalid literal for int()"))?;
    checked(BigInt::from_biguint(
        if negative { Sign::Minus } else { Sign::Plus },
        magnitude,
    ))
}

/// The digits of `|n|` in `radix` (2, 8, 10 or 16), for `format`, `hex`, `bin` and `oct`.
pub fn magnitude_digits(v: &Value, radix: u32) -> Option<String> {
    match v {
        Value::Int(i) => Some(match radix {
            2 => format!("{:b}", i.unsigned_abs()),
            8 => format!("{:o}", i.unsigned_abs()),
            16 => format!("{:x}", i.unsigned_abs()),
            _ => i.unsigned_abs().to_string(),
        }),
        Value::Bool(b) => Some(u8::from(*b).to_string()),
        Value::BigInt(b) => Some(b.magnitude().to_str_radix(radix)),
        _ => None,
    }
}

/// Whether an int is negative.
pub fn is_negative(v: &Value) -> bool {
    match v {
        Value::Int(i) => *i < 0,
        Value::BigInt(b) => b.is_negative(),
        _ => false,
    }
}

/// `-n`, `abs(n)` and `~n` of a big int.
pub fn negate(big: &BigInt) -> Value {
    normalized(-big)
}

pub fn absolute(big: &BigInt) -> Value {
    normalized(big.abs())
}

pub fn invert(big: &BigInt) -> Value {
    normalized(-big - BigInt::one())
}

/// An int literal past 64 bits, as the parser keeps it (`0xFFFF_FFFF_FFFF_FFFF_F`, `10**20`'s
/// digits written out).
pub fn literal(token: &str) -> Result<Value> {
    let token = token.replace('_', "");
    let lower = token.to_ascii_lowercase();
    let (digits, base) = match lower.get(..2) {
        Some("0x") => (&lower[2..], 16),
        Some("0o") => (&lower[2..], 8),
        Some("0b") => (&lower[2..], 2),
        _ => (lower.as_str(), 10),
    };
    parse(digits, base, false)
}

/// `round(n, digits)` of an int: itself for `digits >= 0`, else to the nearest multiple of
/// `10**-digits`, ties to even, as CPython rounds.
pub fn round(n: &BigInt, digits: i64) -> Value {
    if digits >= 0 {
        return normalized(n.clone());
    }
    let Some(scale) = u32::try_from(digits.unsigned_abs())
        .ok()
        .filter(|&e| u64::from(e) <= n.bits() / 3 + 2)
        .map(|e| num_traits::pow(BigInt::from(10), e as usize))
    else {
        // A power of ten past the number itself: it rounds to zero.
        return Value::Int(0);
    };
    let (quotient, remainder) = n.div_mod_floor(&scale);
    let twice: BigInt = &remainder * 2u8;
    let up = match twice.cmp(&scale) {
        Ordering::Greater => true,
        Ordering::Equal => quotient.is_odd(),
        Ordering::Less => false,
    };
    normalized((quotient + BigInt::from(u8::from(up))) * scale)
}

/// `x.as_integer_ratio()`: the float's exact value as a fraction in lowest terms.
pub fn float_ratio(x: f64) -> Result<Value> {
    if x.is_nan() {
        return Err(PyException::new(
            ExcType::ValueError,
            "cannot convert NaN to integer ratio",
        ));
    }
    if x.is_infinite() {
        return Err(PyException::new(
            ExcType::OverflowError,
            "cannot convert Infinity to integer ratio",
        ));
    }
    // x = mantissa * 2**exponent with an integer mantissa; then reduce by the common twos.
    let (mut mantissa, mut exponent) = (x, 0i32);
    while mantissa.fract() != 0.0 {
        mantissa *= 2.0;
        exponent -= 1;
    }
    let numerator = as_big(&from_f64(mantissa)?).unwrap_or_default();
    let denominator = BigInt::one() << exponent.unsigned_abs();
    let common = numerator.gcd(&denominator);
    let common = if common.is_zero() {
        BigInt::one()
    } else {
        common
    };
    Ok(Value::Tuple(Rc::from(vec![
        normalized(&numerator / &common),
        normalized(&denominator / &common),
    ])))
}

/// Where `to_bytes` and `from_bytes` read `length`, `byteorder` and `signed`.
fn byte_layout(args: &super::args::Args, first: usize, what: &str) -> Result<(bool, bool)> {
    let order = match args.get(first, "byteorder") {
        None => "big".to_owned(),
        Some(Value::Str(s)) => s.to_string(),
        Some(other) => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "{what}() argument 'byteorder' must be str, not {}",
                    other.type_name()
                ),
            ));
        }
    };
    let little = match order.as_str() {
        "little" => true,
        "big" => false,
        _ => {
            return Err(PyException::new(
                ExcType::ValueError,
                "byteorder must be either 'little' or 'big'",
            ));
        }
    };
    let signed = args.keyword("signed").is_some_and(Value::truthy);
    Ok((little, signed))
}

/// `n.to_bytes(length=1, byteorder='big', *, signed=False)`.
pub fn to_bytes(n: &BigInt, args: &super::args::Args) -> Result<Value> {
    let length = match args.get(0, "length") {
        None => 1,
        Some(v) => super::value::as_index(v)?,
    };
    let length = usize::try_from(length).map_err(|_| {
        PyException::new(ExcType::ValueError, "length argument must be non-negative")
    })?;
    let (little, signed) = byte_layout(args, 1, "to_bytes")?;
    let overflow = || PyException::new(ExcType::OverflowError, "int too big to convert");
    if n.is_negative() && !signed {
        return Err(PyException::new(
            ExcType::OverflowError,
            "can't convert negative int to unsigned",
        ));
    }
    // Two's complement in `length` bytes: what fits there, or OverflowError.
    let bits = n.bits() + u64::from(signed && !n.is_negative());
    let fits = if n.is_negative() {
        (n + BigInt::one()).bits() < 8 * length as u64
    } else {
        bits <= 8 * length as u64
    };
    if !fits || length > 1 << 30 {
        return Err(overflow());
    }
    let mut bytes = n.to_signed_bytes_le();
    bytes.resize(length, if n.is_negative() { 0xff } else { 0 });
    if !little {
        bytes.reverse();
    }
    Ok(super::bytes::value(&bytes))
}

/// `int.from_bytes(bytes, byteorder='big', *, signed=False)`.
pub fn from_bytes(args: &super::args::Args) -> Result<Value> {
    let data: Vec<u8> = match args.get(0, "bytes") {
        Some(Value::Bytes(b)) => b.to_vec(),
        Some(Value::List(items)) => items
            .borrow()
            .iter()
            .map(|v| match v {
                Value::Int(i) if (0..256).contains(i) => Ok(*i as u8),
                _ => Err(PyException::new(
                    ExcType::ValueError,
                    "bytes must be in range(0, 256)",
                )),
            })
            .collect::<Result<_>>()?,
        other => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "cannot convert '{}' object to bytes",
                    other.map_or_else(|| "NoneType".to_owned(), Value::type_name)
                ),
            ));
        }
    };
    let (little, signed) = byte_layout(args, 1, "from_bytes")?;
    let mut le = data;
    if !little {
        le.reverse();
    }
    let n = match signed {
        true => BigInt::from_signed_bytes_le(&le),
        false => BigInt::from_bytes_le(Sign::Plus, &le),
    };
    Ok(normalized(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_that_fit_64_bits_take_the_fast_form() {
        let big: BigInt = BigInt::from(i64::MAX) + 1;
        assert!(matches!(normalized(big.clone()), Value::BigInt(_)));
        assert!(matches!(normalized(big - 1), Value::Int(i64::MAX)));
        let back = binary(
            Operator::Sub,
            &(BigInt::from(1) << 70u32),
            &(BigInt::from(1) << 70u32),
        );
        assert!(matches!(back, Some(Ok(Value::Int(0)))));
    }

    #[test]
    fn true_division_of_huge_ints_rounds_once() {
        let ten = BigInt::from(10);
        let a = num_traits::pow(ten.clone(), 400);
        let b = num_traits::pow(ten, 399);
        assert_eq!(true_divide(&a, &b).ok(), Some(10.0));
        assert_eq!(
            true_divide(&BigInt::from(1), &BigInt::from(3)).ok(),
            Some(1.0 / 3.0)
        );
        // 2**53 + 1 over 1: the nearest double, not a double rounding.
        let odd = (BigInt::from(1) << 53u32) + 1;
        assert_eq!(
            true_divide(&odd, &BigInt::from(1)).ok(),
            Some(9007199254740992.0)
        );
        assert!(true_divide(&BigInt::from(1), &BigInt::zero()).is_err());
    }

    #[test]
    fn ints_compare_with_floats_exactly() {
        let big = (BigInt::from(1) << 60u32) + 1;
        assert_eq!(compare_float(&big, 2f64.powi(60)), Some(Ordering::Greater));
        assert_eq!(compare_float(&BigInt::from(-3), -2.5), Some(Ordering::Less));
        assert_eq!(
            compare_float(&BigInt::from(3), f64::INFINITY),
            Some(Ordering::Less)
        );
        assert_eq!(compare_float(&BigInt::from(3), f64::NAN), None);
    }

    #[test]
    fn sizes_past_the_lab_limit_are_a_memory_error_not_a_stall() {
        let two = BigInt::from(2);
        let huge = BigInt::from(MAX_BITS) * 2;
        let Some(Err(e)) = binary(Operator::Pow, &two, &huge) else {
            panic!("2 ** (2 * MAX_BITS) should fail");
        };
        assert_eq!(e.kind, ExcType::MemoryError);
        assert!(matches!(
            binary(Operator::Pow, &BigInt::from(-1), &huge),
            Some(Ok(Value::Int(1)))
        ));
    }
}
