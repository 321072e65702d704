//! Unary math (`exp`, `log`, `sin`, `erf`, `floor`, … every [`Unary`] op, and `clamp`) and their
//! derivatives. Each backward keeps what PyTorch's keeps, the input or the result, so that an
//! in-place change of that tensor fails the backward pass as it does in PyTorch.

use crate::autograd::{self, Backward, SavedTensor};
use crate::backend::cpu::elementwise::Binary;
use crate::backend::cpu::unary::Unary;
use crate::element::Scalar;
use crate::error::Error;
use crate::tensor::Tensor;

use super::elementwise::{Operand, binary_values, unary_values};

/// d(op)/dx, given the tensor the backward keeps; the caller multiplies it into the gradient.
type Derivative = fn(&Tensor) -> Result<Tensor, Error>;

/// What a unary op's backward keeps, and its derivative in terms of that.
#[derive(Clone, Copy)]
enum Keeps {
    /// The input `x` (`log`, `sin`, …).
    Input(Derivative),
    /// The result `y` (`exp`, `sqrt`, `tanh`, …).
    Result(Derivative),
    /// Nothing: the gradient is zero (`sign`, `floor`, `round`, …).
    Nothing,
    /// Nothing: the gradient passes unchanged (`frac`).
    Identity,
    /// Nothing: the gradient is negated (`neg`).
    Negate,
}

/// Each differentiable unary op's node, what it keeps and its derivative, as PyTorch's
/// `derivatives.yaml` states them.
fn gradient(op: Unary) -> Option<(&'static str, Keeps)> {
    use Keeps::{Identity, Input, Nothing, Result as Out};
    use std::f64::consts::{LN_2, LN_10, PI};
    Some(match op {
        Unary::Neg => ("NegBackward0", Keeps::Negate),
        Unary::Abs => ("AbsBackward0", Input(|x| math(Unary::Sign, x))),
        Unary::Exp => ("ExpBackward0", Out(|y| Ok(y.clone()))),
        Unary::Exp2 => ("Exp2Backward0", Out(|y| scale(y, LN_2))),
        Unary::Expm1 => ("Expm1Backward0", Out(|y| shift(y, 1.0))),
        Unary::Log => ("LogBackward0", Input(|x| over(1.0, x))),
        Unary::Log2 => ("Log2Backward0", Input(|x| over(1.0, &scale(x, LN_2)?))),
        Unary::Log10 => ("Log10Backward0", Input(|x| over(1.0, &scale(x, LN_10)?))),
        Unary::Log1p => ("Log1PBackward0", Input(|x| over(1.0, &shift(x, 1.0)?))),
        Unary::Sqrt => ("SqrtBackward0", Out(|y| over(0.5, y))),
        // -1/2 · y³
        Unary::Rsqrt => ("RsqrtBackward0", Out(|y| scale(&cube(y)?, -0.5))),
        // -y²
        Unary::Reciprocal => ("ReciprocalBackward0", Out(|y| scale(&square(y)?, -1.0))),
        Unary::Relu => ("ReluBackward0", Out(passes)),
        Unary::Sigmoid => ("SigmoidBackward0", Out(|y| times(y, &one_minus(y)?))),
        Unary::Sin => ("SinBackward0", Input(|x| math(Unary::Cos, x))),
        Unary::Cos => (
            "CosBackward0",
            Input(|x| scale(&math(Unary::Sin, x)?, -1.0)),
        ),
        // 1 + y²
        Unary::Tan => ("TanBackward0", Out(|y| shift(&square(y)?, 1.0))),
        // 1/√(1 - x²)
        Unary::Asin => (
            "AsinBackward0",
            Input(|x| math(Unary::Rsqrt, &one_minus(&square(x)?)?)),
        ),
        Unary::Acos => (
            "AcosBackward0",
            Input(|x| scale(&math(Unary::Rsqrt, &one_minus(&square(x)?)?)?, -1.0)),
        ),
        // 1/(1 + x²)
        Unary::Atan => (
            "AtanBackward0",
            Input(|x| over(1.0, &shift(&square(x)?, 1.0)?)),
        ),
        Unary::Sinh => ("SinhBackward0", Input(|x| math(Unary::Cosh, x))),
        Unary::Cosh => ("CoshBackward0", Input(|x| math(Unary::Sinh, x))),
        // (1 - y)(1 + y): 1 - y² without the cancellation where y nears ±1.
        Unary::Tanh => (
            "TanhBackward0",
            Out(|y| times(&one_minus(y)?, &shift(y, 1.0)?)),
        ),
        Unary::Asinh => (
            "AsinhBackward0",
            Input(|x| math(Unary::Rsqrt, &shift(&square(x)?, 1.0)?)),
        ),
        Unary::Acosh => (
            "AcoshBackward0",
            Input(|x| math(Unary::Rsqrt, &shift(&square(x)?, -1.0)?)),
        ),
        Unary::Atanh => (
            "AtanhBackward0",
            Input(|x| over(1.0, &one_minus(&square(x)?)?)),
        ),
        // ±2/√π · exp(-x²)
        Unary::Erf => ("ErfBackward0", Input(|x| gaussian(x, 2.0 / PI.sqrt()))),
        Unary::Erfc => ("ErfcBackward0", Input(|x| gaussian(x, -2.0 / PI.sqrt()))),
        // √π/2 · exp(y²)
        Unary::Erfinv => (
            "ErfinvBackward0",
            Out(|y| scale(&math(Unary::Exp, &square(y)?)?, PI.sqrt() / 2.0)),
        ),
        Unary::Sign => ("SignBackward0", Nothing),
        Unary::Sgn => ("SgnBackward0", Nothing),
        Unary::Floor => ("FloorBackward0", Nothing),
        Unary::Ceil => ("CeilBackward0", Nothing),
        Unary::Trunc => ("TruncBackward0", Nothing),
        Unary::Round => ("RoundBackward0", Nothing),
        Unary::Frac => ("FracBackward0", Identity),
        Unary::BitNot => return None,
    })
}

/// The op's values, no autograd.
fn math(op: Unary, x: &Tensor) -> Result<Tensor, Error> {
    unary_values(op, x)
}

fn scalar_op(op: Binary, x: &Tensor, s: f64) -> Result<Tensor, Error> {
    binary_values(op, x.into(), Operand::Scalar(Scalar::Float(s)))
}

fn scale(x: &Tensor, s: f64) -> Result<Tensor, Error> {
    scalar_op(Binary::Mul, x, s)
}

fn shift(x: &Tensor, s: f64) -> Result<Tensor, Error> {
    scalar_op(Binary::Add, x, s)
}

/// `s / x`.
fn over(s: f64, x: &Tensor) -> Result<Tensor, Error> {
    binary_values(Binary::Div, Operand::Scalar(Scalar::Float(s)), x.into())
}

fn one_minus(x: &Tensor) -> Result<Tensor, Error> {
    binary_values(Binary::Sub, Operand::Scalar(Scalar::Float(1.0)), x.into())
}

fn times(a: &Tensor, b: &Tensor) -> Result<Tensor, Error> {
    binary_values(Binary::Mul, a.into(), b.into())
}

fn square(x: &Tensor) -> Result<Tensor, Error> {
    times(x, x)
}

fn cube(x: &Tensor) -> Result<Tensor, Error> {
    times(&square(x)?, x)
}

/// 0 where `y <= 0`, else 1 (NaN included), as PyTorch's `threshold_backward`.
fn passes(y: &Tensor) -> Result<Tensor, Error> {
    let stopped = binary_values(Binary::Le, y.into(), Operand::Scalar(Scalar::Int(0)))?
        .to_dtype(y.dtype())?;
    one_minus(&stopped)
}

/// `c · exp(-x²)`.
fn gaussian(x: &Tensor, c: f64) -> Result<Tensor, Error> {
    scale(&math(Unary::Exp, &scale(&square(x)?, -1.0)?)?, c)
}

/// The ops on PyTorch's CUDA autocast list of float32 ops (`docs/source/amp.rst`).
fn autocasts_to_float32(op: Unary) -> bool {
    matches!(
        op,
        Unary::Acos
            | Unary::Asin
            | Unary::Cosh
            | Unary::Erfinv
            | Unary::Exp
            | Unary::Expm1
            | Unary::Log
            | Unary::Log10
            | Unary::Log2
            | Unary::Log1p
            | Unary::Reciprocal
            | Unary::Rsqrt
            | Unary::Sinh
            | Unary::Tan
    )
}

/// The backward of unary `op`, given what it keeps (`None` for ops that keep nothing).
fn backward_of(name: &'static str, keeps: Keeps, saved: Option<SavedTensor>) -> Backward {
    let node = match saved {
        Some(_) => Backward::saving,
        None => Backward::new,
    };
    node(name, move |grad: &Tensor| {
        let slope = match (keeps, &saved) {
            (Keeps::Input(derivative) | Keeps::Result(derivative), Some(saved)) => {
                derivative(saved.unpack()?)?
            }
            (Keeps::Identity, _) => return Ok(vec![Some(grad.clone())]),
            (Keeps::Negate, _) => return Ok(vec![Some(math(Unary::Neg, grad)?)]),
            _ => return Ok(vec![Some(scale(grad, 0.0)?)]),
        };
        Ok(vec![Some(times(grad, &slope)?)])
    })
}

/// `round(decimals=)`'s values as PyTorch's kernel computes them, in the tensor's own float type:
/// `round(x · 10^d) / 10^d`, or `round(x / 10^-d) · 10^-d` for negative `d`.
pub(super) fn round_decimals_values(x: &Tensor, decimals: i64) -> Result<Tensor, Error> {
    if !x.dtype().is_floating_point() {
        return Err(Error::KernelNotForDtype {
            kernel: format!("round_{}", x.device().kind.name()),
            dtype: x.dtype(),
        });
    }
    // 10^400 is already infinite in every float type.
    let power = 10f64.powi(decimals.unsigned_abs().min(400) as i32);
    let (first, last) = match decimals < 0 {
        true => (Binary::Div, Binary::Mul),
        false => (Binary::Mul, Binary::Div),
    };
    let rounded = math(Unary::Round, &scalar_op(first, x, power)?)?;
    scalar_op(last, &rounded, power)
}

/// The node `round_(decimals=)` leaves: a zero gradient.
pub(super) fn round_decimals_backward() -> Backward {
    backward_of("RoundBackward1", Keeps::Nothing, None)
}

/// The node `op_()` leaves: the same as `op`'s, over copies of the values it keeps (the tensor's
/// own storage changes under it).
pub(super) fn in_place_backward(
    op: Unary,
    before: &Tensor,
    after: &Tensor,
) -> Result<Option<Backward>, Error> {
    let Some((name, keeps)) = gradient(op) else {
        return Ok(None);
    };
    let copy = |t: &Tensor| -> Result<SavedTensor, Error> {
        Ok(SavedTensor::new(&t.session().no_grad(|| t.clone_tensor())?))
    };
    let saved = match keeps {
        Keeps::Input(_) => Some(copy(before)?),
        Keeps::Result(_) => Some(copy(after)?),
        Keeps::Nothing | Keeps::Identity | Keeps::Negate => None,
    };
    Ok(Some(backward_of(name, keeps, saved)))
}

impl Tensor {
    /// `torch.<op>(self)` for any unary op: the values, and the op's node when grad is on.
    pub fn math(&self, op: Unary) -> Result<Tensor, Error> {
        if autocasts_to_float32(op)
            && let Some(cast) =
                crate::amp::autocast_inputs(crate::amp::CastPolicy::Float32Gpu, &[self])?
        {
            return cast[0].math(op);
        }
        let out = unary_values(op, self)?;
        let Some((name, keeps)) = gradient(op) else {
            return Ok(out);
        };
        let meta = autograd::record(&[self], || {
            let saved = match keeps {
                Keeps::Input(_) => Some(SavedTensor::new(self)),
                Keeps::Result(_) => Some(SavedTensor::result(&out, name)),
                Keeps::Nothing | Keeps::Identity | Keeps::Negate => None,
            };
            backward_of(name, keeps, saved)
        });
        Ok(out.with_autograd(meta))
    }

    /// `torch.round(self, decimals=d)`: half to even at the `d`-th decimal (`RoundBackward1`, whose
    /// gradient is zero).
    pub fn round_decimals(&self, decimals: i64) -> Result<Tensor, Error> {
        let out = round_decimals_values(self, decimals)?;
        let meta = autograd::record(&[self], || {
            backward_of("RoundBackward1", Keeps::Nothing, None)
        });
        Ok(out.with_autograd(meta))
    }

    /// `-self`.
    pub fn neg(&self) -> Result<Tensor, Error> {
        self.math(Unary::Neg)
    }

    pub fn exp(&self) -> Result<Tensor, Error> {
        self.math(Unary::Exp)
    }

    pub fn log(&self) -> Result<Tensor, Error> {
        self.math(Unary::Log)
    }

    pub fn sqrt(&self) -> Result<Tensor, Error> {
        self.math(Unary::Sqrt)
    }

    pub fn abs(&self) -> Result<Tensor, Error> {
        self.math(Unary::Abs)
    }

    pub fn relu(&self) -> Result<Tensor, Error> {
        self.math(Unary::Relu)
    }

    pub fn sigmoid(&self) -> Result<Tensor, Error> {
        self.math(Unary::Sigmoid)
    }

    pub fn tanh(&self) -> Result<Tensor, Error> {
        self.math(Unary::Tanh)
    }

    /// `clamp(min, max)` (either bound may be absent): `ClampBackward1`, whose gradient passes only
    /// where the value was inside the bounds.
    pub fn clamp(&self, min: Option<Scalar>, max: Option<Scalar>) -> Result<Tensor, Error> {
        let out = clamp_values(self, min, max)?;
        Ok(out.with_autograd(clamp_node(self, SavedTensor::new(self), min, max)))
    }

    /// `clamp_min(min)` for a number (`ClampMinBackward0`: the gradient passes where the value
    /// was above `min`).
    pub fn clamp_min(&self, min: Scalar) -> Result<Tensor, Error> {
        let out = clamp_values(self, Some(min), None)?;
        let saved = SavedTensor::new(self);
        let meta = autograd::record(&[self], || {
            clamp_backward_named("ClampMinBackward0", saved, Some(min), None)
        });
        Ok(out.with_autograd(meta))
    }

    /// `clamp_max(max)` for a number (`ClampMaxBackward0`).
    pub fn clamp_max(&self, max: Scalar) -> Result<Tensor, Error> {
        let out = clamp_values(self, None, Some(max))?;
        let saved = SavedTensor::new(self);
        let meta = autograd::record(&[self], || {
            clamp_backward_named("ClampMaxBackward0", saved, None, Some(max))
        });
        Ok(out.with_autograd(meta))
    }
}

/// The clamped values, no autograd.
pub(super) fn clamp_values(
    x: &Tensor,
    min: Option<Scalar>,
    max: Option<Scalar>,
) -> Result<Tensor, Error> {
    if min.is_none() && max.is_none() {
        return Err(Error::ClampWithoutBounds);
    }
    let mut out = x.clone();
    if let Some(low) = min {
        out = binary_values(Binary::Maximum, (&out).into(), Operand::Scalar(low))?;
    }
    if let Some(high) = max {
        out = binary_values(Binary::Minimum, (&out).into(), Operand::Scalar(high))?;
    }
    Ok(out)
}

/// `ClampBackward1` over `input`'s history; `saved` holds the values before clamping.
pub(super) fn clamp_node(
    input: &Tensor,
    saved: SavedTensor,
    min: Option<Scalar>,
    max: Option<Scalar>,
) -> crate::autograd::AutogradMeta {
    autograd::record(&[input], || {
        clamp_backward_named("ClampBackward1", saved, min, max)
    })
}

/// The backward of `clamp` with number bounds, under the name of the op that recorded it
/// (`clamp`'s, `clamp_min`'s, `clamp_max`'s): the gradient passes where the saved values were
/// strictly inside the bounds.
pub(super) fn clamp_backward_named(
    name: &'static str,
    saved: SavedTensor,
    min: Option<Scalar>,
    max: Option<Scalar>,
) -> Backward {
    Backward::saving(name, move |grad| {
        let x = saved.unpack()?;
        let mut inside = Tensor::full(
            x.session(),
            x.shape(),
            Scalar::Bool(true),
            crate::DType::Bool,
            x.device(),
        )?;
        // Strictly inside: at a bound itself the gradient is 0, as in PyTorch 2.15.
        for (bound, test) in [(min, Binary::Gt), (max, Binary::Lt)] {
            if let Some(bound) = bound {
                let ok = binary_values(test, x.into(), Operand::Scalar(bound))?;
                inside = binary_values(Binary::Mul, (&inside).into(), (&ok).into())?;
            }
        }
        Ok(vec![Some(binary_values(
            Binary::Mul,
            grad.into(),
            (&inside.to_dtype(grad.dtype())?).into(),
        )?)])
    })
}
