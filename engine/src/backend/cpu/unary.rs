//! Unary elementwise kernels: one tensor in, one out, lane by lane. [`Unary`] is the list of them
//! and what each does to integer and bool inputs; the float functions PyTorch has and Rust's `std`
//! lacks (`erf`, `erfinv`, round-half-to-even on every target) are here too.

use super::elementwise::Lanes;

/// A unary elementwise operation. The name PyTorch gives its kernel is [`Unary::name`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unary {
    Neg,
    Abs,
    Exp,
    Exp2,
    Expm1,
    Log,
    Log2,
    Log10,
    Log1p,
    Sqrt,
    Rsqrt,
    Reciprocal,
    Relu,
    Sigmoid,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    Erf,
    Erfc,
    Erfinv,
    Sign,
    /// `sign` of a real tensor, with a node of its own (`SgnBackward0`).
    Sgn,
    Floor,
    Ceil,
    Trunc,
    /// Half to even, as `torch.round` (and NumPy) round.
    Round,
    Frac,
    /// `~`: every bit flipped (integers), `not` (bools).
    BitNot,
}

/// What an op makes of integer and bool inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntegerInputs {
    /// Computed in the default float type (`torch.sin(torch.tensor([1]))` is float32).
    PromoteToFloat,
    /// Kept in their dtype (`abs`, `sign`, `floor` of an int64 tensor is int64).
    Keep,
    /// Refused: PyTorch has no integer kernel (`"frac_cpu" not implemented for 'Long'`).
    Refuse,
}

impl Unary {
    /// Every unary op, for the tests that compile each kernel.
    pub const ALL: [Unary; 37] = [
        Unary::Neg,
        Unary::Abs,
        Unary::Exp,
        Unary::Exp2,
        Unary::Expm1,
        Unary::Log,
        Unary::Log2,
        Unary::Log10,
        Unary::Log1p,
        Unary::Sqrt,
        Unary::Rsqrt,
        Unary::Reciprocal,
        Unary::Relu,
        Unary::Sigmoid,
        Unary::Sin,
        Unary::Cos,
        Unary::Tan,
        Unary::Asin,
        Unary::Acos,
        Unary::Atan,
        Unary::Sinh,
        Unary::Cosh,
        Unary::Tanh,
        Unary::Asinh,
        Unary::Acosh,
        Unary::Atanh,
        Unary::Erf,
        Unary::Erfc,
        Unary::Erfinv,
        Unary::Sign,
        Unary::Sgn,
        Unary::Floor,
        Unary::Ceil,
        Unary::Trunc,
        Unary::Round,
        Unary::Frac,
        Unary::BitNot,
    ];

    /// PyTorch's name of the op (`torch.<name>`, and the kernel in the trace).
    pub fn name(self) -> &'static str {
        match self {
            Unary::Neg => "neg",
            Unary::Abs => "abs",
            Unary::Exp => "exp",
            Unary::Exp2 => "exp2",
            Unary::Expm1 => "expm1",
            Unary::Log => "log",
            Unary::Log2 => "log2",
            Unary::Log10 => "log10",
            Unary::Log1p => "log1p",
            Unary::Sqrt => "sqrt",
            Unary::Rsqrt => "rsqrt",
            Unary::Reciprocal => "reciprocal",
            Unary::Relu => "relu",
            Unary::Sigmoid => "sigmoid",
            Unary::Sin => "sin",
            Unary::Cos => "cos",
            Unary::Tan => "tan",
            Unary::Asin => "asin",
            Unary::Acos => "acos",
            Unary::Atan => "atan",
            Unary::Sinh => "sinh",
            Unary::Cosh => "cosh",
            Unary::Tanh => "tanh",
            Unary::Asinh => "asinh",
            Unary::Acosh => "acosh",
            Unary::Atanh => "atanh",
            Unary::Erf => "erf",
            Unary::Erfc => "erfc",
            Unary::Erfinv => "erfinv",
            Unary::Sign => "sign",
            Unary::Sgn => "sgn",
            Unary::Floor => "floor",
            Unary::Ceil => "ceil",
            Unary::Trunc => "trunc",
            Unary::Round => "round",
            Unary::Frac => "frac",
            Unary::BitNot => "bitwise_not",
        }
    }

    /// The op PyTorch calls `name` (`"sgn"` of a real tensor is `sign`).
    pub fn from_name(name: &str) -> Option<Unary> {
        let name = match name {
            "negative" => "neg",
            "absolute" => "abs",
            "arcsin" => "asin",
            "arccos" => "acos",
            "arctan" => "atan",
            "arcsinh" => "asinh",
            "arccosh" => "acosh",
            "arctanh" => "atanh",
            "fix" => "trunc",
            "special_erf" => "erf",
            other => other,
        };
        Unary::ALL.into_iter().find(|op| op.name() == name)
    }

    /// The kernel PyTorch names when it has none for bool inputs (`"floor_vml_cpu" not implemented
    /// for 'Bool'`), on a device of type `device` (`cpu`, `cuda`); `None` where bools are taken.
    pub fn bool_refusal(self, device: &str) -> Option<String> {
        let vml = if device == "cpu" { "_vml" } else { "" };
        match self {
            Unary::Abs => Some(format!("abs_{device}")),
            Unary::Floor | Unary::Ceil | Unary::Trunc | Unary::Round => {
                Some(format!("{}{vml}_{device}", self.name()))
            }
            _ => None,
        }
    }

    pub fn integer_inputs(self) -> IntegerInputs {
        match self {
            Unary::Neg
            | Unary::Abs
            | Unary::Relu
            | Unary::BitNot
            | Unary::Sign
            | Unary::Sgn
            | Unary::Floor
            | Unary::Ceil
            | Unary::Trunc
            | Unary::Round => IntegerInputs::Keep,
            Unary::Frac => IntegerInputs::Refuse,
            _ => IntegerInputs::PromoteToFloat,
        }
    }
}

/// Applies `op` to every lane (floating lanes for the ops that promote integers).
pub fn unary(op: Unary, x: &Lanes) -> Lanes {
    match x {
        Lanes::F32(v) => Lanes::F32(super::buffer::collect(v.iter().map(|&x| op.f32(x)))),
        Lanes::F64(v) => Lanes::F64(super::buffer::collect(v.iter().map(|&x| op.f64(x)))),
        Lanes::I64(v) => Lanes::I64(
            v.iter()
                .map(|&x| match op {
                    Unary::Neg => x.wrapping_neg(),
                    Unary::Abs => x.wrapping_abs(),
                    Unary::Relu => x.max(0),
                    Unary::BitNot => !x,
                    Unary::Sign | Unary::Sgn => x.signum(),
                    // floor, ceil, trunc and round of an integer are the integer.
                    _ => x,
                })
                .collect(),
        ),
        Lanes::Bool(v) if op == Unary::BitNot => Lanes::Bool(v.iter().map(|&b| !b).collect()),
        Lanes::Bool(v) => Lanes::Bool(v.clone()),
    }
}

macro_rules! float_fns {
    ($method:ident, $t:ty, $erf:path, $erfc:path) => {
        impl Unary {
            fn $method(self, x: $t) -> $t {
                match self {
                    Unary::Neg => -x,
                    Unary::Abs => x.abs(),
                    Unary::Exp => x.exp(),
                    Unary::Exp2 => x.exp2(),
                    Unary::Expm1 => x.exp_m1(),
                    Unary::Log => x.ln(),
                    Unary::Log2 => x.log2(),
                    Unary::Log10 => x.log10(),
                    Unary::Log1p => x.ln_1p(),
                    Unary::Sqrt => x.sqrt(),
                    Unary::Rsqrt => 1.0 / x.sqrt(),
                    Unary::Reciprocal => 1.0 / x,
                    // NaN and -0.0 pass, as through PyTorch's `x < 0 ? 0 : x`.
                    Unary::Relu if x < 0.0 => 0.0,
                    Unary::Relu => x,
                    Unary::Sigmoid => 1.0 / (1.0 + (-x).exp()),
                    Unary::Sin => x.sin(),
                    Unary::Cos => x.cos(),
                    Unary::Tan => x.tan(),
                    Unary::Asin => x.asin(),
                    Unary::Acos => x.acos(),
                    Unary::Atan => x.atan(),
                    Unary::Sinh => x.sinh(),
                    Unary::Cosh => x.cosh(),
                    Unary::Tanh => x.tanh(),
                    Unary::Asinh => x.asinh(),
                    Unary::Acosh => x.acosh(),
                    Unary::Atanh => x.atanh(),
                    Unary::Erf => $erf(x),
                    Unary::Erfc => $erfc(x),
                    Unary::Erfinv => erfinv(f64::from(x), |v| libm::erf(v)) as $t,
                    // NaN has no sign: PyTorch's sign is `(0 < x) - (x < 0)`, 0 for NaN.
                    Unary::Sign | Unary::Sgn if x > 0.0 => 1.0,
                    Unary::Sign | Unary::Sgn if x < 0.0 => -1.0,
                    Unary::Sign | Unary::Sgn => 0.0,
                    Unary::Floor => x.floor(),
                    Unary::Ceil => x.ceil(),
                    Unary::Trunc => x.trunc(),
                    Unary::Round => x.round_ties_even(),
                    Unary::Frac => x - x.trunc(),
                    // Refused for floating dtypes before any kernel runs.
                    Unary::BitNot => x,
                }
            }
        }
    };
}

float_fns!(f32, f32, libm::erff, libm::erfcf);
float_fns!(f64, f64, libm::erf, libm::erfc);

/// The inverse of `erf` on `[-1, 1]`: a rational first guess refined by two Newton steps, the
/// method of PyTorch's `calc_erfinv` (its CPU kernel).
pub fn erfinv(y: f64, erf: impl Fn(f64) -> f64) -> f64 {
    const A: [f64; 4] = [0.886226899, -1.645349621, 0.914624893, -0.140543331];
    const B: [f64; 4] = [-2.118377725, 1.442710462, -0.329097515, 0.012229801];
    const C: [f64; 4] = [-1.970840454, -1.624906493, 3.429567803, 1.641345311];
    const D: [f64; 2] = [3.543889200, 1.637067800];
    let size = y.abs();
    if size.is_nan() || size > 1.0 {
        return f64::NAN;
    }
    if size == 1.0 {
        return f64::INFINITY.copysign(y);
    }
    let mut x = if size <= 0.7 {
        let z = y * y;
        let num = ((A[3] * z + A[2]) * z + A[1]) * z + A[0];
        let den = (((B[3] * z + B[2]) * z + B[1]) * z + B[0]) * z + 1.0;
        y * num / den
    } else {
        let z = (-((1.0 - size) / 2.0).ln()).sqrt();
        let num = ((C[3] * z + C[2]) * z + C[1]) * z + C[0];
        let den = (D[1] * z + D[0]) * z + 1.0;
        num.copysign(y) / den
    };
    let slope = 2.0 / std::f64::consts::PI.sqrt();
    for _ in 0..2 {
        x -= (erf(x) - y) / (slope * (-x * x).exp());
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_op_has_a_distinct_name_that_finds_it_again() {
        for op in Unary::ALL {
            assert_eq!(Unary::from_name(op.name()), Some(op));
        }
        assert_eq!(Unary::from_name("arcsin"), Some(Unary::Asin));
        assert_eq!(Unary::from_name("relu6"), None);
    }

    #[test]
    fn erfinv_inverts_erf_to_the_last_bits() {
        for i in -99..=99 {
            let y = f64::from(i) / 100.0;
            let x = erfinv(y, libm::erf);
            assert!((libm::erf(x) - y).abs() < 1e-15, "{y}");
        }
        assert_eq!(erfinv(1.0, libm::erf), f64::INFINITY);
        assert!(erfinv(1.5, libm::erf).is_nan());
    }

    #[test]
    fn round_is_half_to_even_and_sign_of_nan_is_zero() {
        let halves = Lanes::F32(vec![0.5, 1.5, 2.5, -0.5]);
        assert_eq!(
            unary(Unary::Round, &halves),
            Lanes::F32(vec![0.0, 2.0, 2.0, -0.0])
        );
        let x = Lanes::F32(vec![0.5, 1.5, 2.5, -0.5, f32::NAN]);
        let Lanes::F32(signs) = unary(Unary::Sign, &x) else {
            panic!()
        };
        assert_eq!(signs, [1.0, 1.0, 1.0, -1.0, 0.0]);
    }
}
