//! Python's `complex`: `5 + 2j` literals, `complex(re, im)`, its arithmetic with ints and floats
//! (CPython's algorithms: Smith's division, exact small integer powers), `abs`, `==`, its
//! `repr` (`(5+2j)`, `2j`, `(-0-1j)`), `.real`, `.imag` and `.conjugate()`.

use ruff_python_ast::Operator;

use super::exception::{ExcType, PyException};
use super::value::Value;

type Result<T> = std::result::Result<T, PyException>;

/// The complex number an int, float, bool or complex stands for; `None` for anything else.
pub fn of(v: &Value) -> Option<Result<(f64, f64)>> {
    Some(Ok(match v {
        Value::Complex(re, im) => (*re, *im),
        Value::Int(i) => (*i as f64, 0.0),
        Value::Bool(b) => (f64::from(u8::from(*b)), 0.0),
        Value::Float(x) => (*x, 0.0),
        Value::BigInt(b) => match super::int::to_f64(b) {
            Ok(x) => (x, 0.0),
            Err(e) => return Some(Err(e)),
        },
        _ => return None,
    }))
}

/// `a op b` where one side is complex and the other a number; `None` for an operator complex
/// numbers do not have (`//`, `%`, bitwise).
pub fn binary(op: Operator, a: (f64, f64), b: (f64, f64)) -> Option<Result<Value>> {
    let ((ar, ai), (br, bi)) = (a, b);
    let (re, im) = match op {
        Operator::Add => (ar + br, ai + bi),
        Operator::Sub => (ar - br, ai - bi),
        Operator::Mult => (ar * br - ai * bi, ar * bi + ai * br),
        Operator::Div => match divide(a, b) {
            Some(z) => z,
            None => return Some(Err(zero_division())),
        },
        Operator::Pow => return Some(power(a, b).map(|(re, im)| Value::Complex(re, im))),
        _ => return None,
    };
    Some(Ok(Value::Complex(re, im)))
}

fn zero_division() -> PyException {
    PyException::new(ExcType::ZeroDivisionError, "complex division by zero")
}

/// CPython's `_Py_c_quot` (Smith's method, which keeps intermediate values in range).
fn divide((ar, ai): (f64, f64), (br, bi): (f64, f64)) -> Option<(f64, f64)> {
    let (abs_r, abs_i) = (br.abs(), bi.abs());
    if abs_r >= abs_i {
        if abs_r == 0.0 {
            return None;
        }
        let ratio = bi / br;
        let denom = br + bi * ratio;
        Some(((ar + ai * ratio) / denom, (ai - ar * ratio) / denom))
    } else if abs_i >= abs_r {
        let ratio = br / bi;
        let denom = br * ratio + bi;
        Some(((ar * ratio + ai) / denom, (ai * ratio - ar) / denom))
    } else {
        // A NaN in the divisor.
        Some((f64::NAN, f64::NAN))
    }
}

fn multiply((ar, ai): (f64, f64), (br, bi): (f64, f64)) -> (f64, f64) {
    (ar * br - ai * bi, ar * bi + ai * br)
}

/// CPython's complex `**`: repeated squaring for a whole exponent of at most 100, else the
/// polar form.
fn power(a: (f64, f64), b: (f64, f64)) -> Result<(f64, f64)> {
    let (br, bi) = b;
    if bi == 0.0 && br == br.trunc() && br.abs() <= 100.0 {
        let n = br as i64;
        let mut result = (1.0, 0.0);
        let mut base = a;
        let mut k = n.unsigned_abs();
        while k > 0 {
            if k & 1 == 1 {
                result = multiply(result, base);
            }
            base = multiply(base, base);
            k >>= 1;
        }
        return match n < 0 {
            false => Ok(result),
            true => divide((1.0, 0.0), result).ok_or_else(|| {
                PyException::new(
                    ExcType::ZeroDivisionError,
                    "0.0 to a negative or complex power",
                )
            }),
        };
    }
    let (ar, ai) = a;
    if br == 0.0 && bi == 0.0 {
        return Ok((1.0, 0.0));
    }
    if ar == 0.0 && ai == 0.0 {
        if bi != 0.0 || br < 0.0 {
            return Err(PyException::new(
                ExcType::ZeroDivisionError,
                "0.0 to a negative or complex power",
            ));
        }
        return Ok((0.0, 0.0));
    }
    let magnitude = ar.hypot(ai);
    let mut length = magnitude.powf(br);
    let angle = ai.atan2(ar);
    let mut phase = angle * br;
    if bi != 0.0 {
        length /= (angle * bi).exp();
        phase += bi * magnitude.ln();
    }
    Ok((length * phase.cos(), length * phase.sin()))
}

/// `repr(z)`: the parts as `repr(float)` writes them, a whole number without its `.0`, and the
/// real part left out when it is a positive zero.
pub fn repr(re: f64, im: f64) -> String {
    let part = |x: f64| {
        let text = tolab_engine::repr::python_float(x);
        match text.strip_suffix(".0") {
            Some(whole) => whole.to_owned(),
            None => text,
        }
    };
    if re == 0.0 && re.is_sign_positive() {
        return format!("{}j", part(im));
    }
    let sign = if im.is_sign_negative() && !im.is_nan() {
        "-"
    } else {
        "+"
    };
    format!("({}{sign}{}j)", part(re), part(im.abs()))
}

/// `z.real`, `z.imag`; `z.conjugate` is a method.
pub fn attribute(re: f64, im: f64, name: &str) -> Option<Value> {
    match name {
        "real" => Some(Value::Float(re)),
        "imag" => Some(Value::Float(im)),
        _ => None,
    }
}

/// The methods a complex number has.
pub const METHODS: &[&str] = &["conjugate"];

const FIRST: &str = "first argument must be a string or a number";

/// `complex()`, `complex(re)`, `complex(re, im)`, `complex("1+2j")`.
pub fn construct(args: &[Value]) -> Result<Value> {
    let number = |v: &Value, which: &str| match of(v) {
        Some(z) => z,
        None => Err(PyException::new(
            ExcType::TypeError,
            format!("complex() {which}, not '{}'", v.type_name()),
        )),
    };
    match args {
        [] => Ok(Value::Complex(0.0, 0.0)),
        [Value::Str(text)] => parse(text).map(|(re, im)| Value::Complex(re, im)),
        [Value::Str(_), _] => Err(PyException::new(
            ExcType::TypeError,
            "complex() can't take second arg if first is a string",
        )),
        [_, Value::Str(_)] => Err(PyException::new(
            ExcType::TypeError,
            "complex() second arg can't be a string",
        )),
        [re] => number(re, FIRST).map(|(re, im)| Value::Complex(re, im)),
        [re, im] => {
            let a = number(re, FIRST)?;
            let b = number(im, "second argument must be a number")?;
            // complex(a, b) is a + b*1j; real parts stay as given (a -0.0 keeps its sign).
            let (mut real, mut imag) = (a.0, b.0);
            if let Value::Complex(..) = im {
                real -= b.1;
            }
            if let Value::Complex(..) = re {
                imag += a.1;
            }
            Ok(Value::Complex(real, imag))
        }
        _ => Err(PyException::new(
            ExcType::TypeError,
            format!("complex() takes at most 2 arguments ({} given)", args.len()),
        )),
    }
}

/// `complex("1+2j")`, `complex("-3.5j")`, `complex(" 4 ")`, `complex("(1-1j)")`.
fn parse(text: &str) -> Result<(f64, f64)> {
    let malformed = || PyException::new(ExcType::ValueError, "complex() arg is a malformed string");
    let mut s = text.trim();
    if let Some(inner) = s.strip_prefix('(').and_then(|s| s.strip_suffix(')')) {
        s = inner.trim();
    }
    let float = |t: &str| -> Result<f64> {
        match t {
            "" | "+" => Ok(1.0),
            "-" => Ok(-1.0),
            t => t.parse::<f64>().map_err(|_| malformed()),
        }
    };
    let Some(body) = s.strip_suffix(['j', 'J']) else {
        return Ok((s.parse::<f64>().map_err(|_| malformed())?, 0.0));
    };
    // The imaginary part starts at the last sign that is not an exponent's.
    let bytes = body.as_bytes();
    let split = (1..bytes.len())
        .rev()
        .find(|&i| matches!(bytes[i], b'+' | b'-') && !matches!(bytes[i - 1], b'e' | b'E'));
    match split {
        Some(at) => Ok((
            body[..at].parse::<f64>().map_err(|_| malformed())?,
            float(&body[at..])?,
        )),
        None => Ok((0.0, float(body)?)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reprs_read_as_cpythons() {
        assert_eq!(repr(5.0, 2.0), "(5+2j)");
        assert_eq!(repr(0.0, 2.0), "2j");
        assert_eq!(repr(-0.0, -1.0), "(-0-1j)");
        assert_eq!(repr(1.5, -0.5), "(1.5-0.5j)");
        assert_eq!(repr(1.0, 0.0), "(1+0j)");
        assert_eq!(repr(0.0, 1e20), "1e+20j");
    }

    #[test]
    fn strings_parse_as_complex_does() {
        assert_eq!(parse("1+2j").unwrap(), (1.0, 2.0));
        assert_eq!(parse("(1-1j)").unwrap(), (1.0, -1.0));
        assert_eq!(parse("-3.5j").unwrap(), (0.0, -3.5));
        assert_eq!(parse("1e-3+1e+2j").unwrap(), (1e-3, 1e2));
        assert_eq!(parse("j").unwrap(), (0.0, 1.0));
        assert!(parse("1+").is_err());
    }

    #[test]
    fn division_by_zero_raises_and_powers_are_exact() {
        assert!(divide((1.0, 1.0), (0.0, 0.0)).is_none());
        assert_eq!(power((0.0, 1.0), (2.0, 0.0)).unwrap(), (-1.0, 0.0));
        assert_eq!(power((1.0, 1.0), (-1.0, 0.0)).unwrap(), (0.5, -0.5));
    }
}
