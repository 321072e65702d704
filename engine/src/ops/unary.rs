//! Unary math (`exp`, `log`, `sqrt`, `abs`, `relu`, `sigmoid`, `tanh`, `clamp`) and their
//! derivatives. Each backward keeps what PyTorch's keeps, the input or the result, so that an
//! in-place change of that tensor fails the backward pass as it does in PyTorch.

use crate::autograd::{self, Backward, SavedTensor};
use crate::backend::cpu::elementwise::{Binary, Unary};
use crate::element::Scalar;
use crate::error::Error;
use crate::tensor::Tensor;

use super::elementwise::{Operand, binary_values, unary_values};

/// d(op)/dx, given the tensor the backward keeps; the caller multiplies it into the gradient.
type Derivative = fn(&Tensor) -> Result<Tensor, Error>;

/// What a unary op's backward keeps, and its derivative in terms of that.
enum Keeps {
    /// The input `x` (`log`, `abs`).
    Input(Derivative),
    /// The result `y` (`exp`, `sqrt`, `relu`, `sigmoid`, `tanh`).
    Result(Derivative),
}

impl Tensor {
    fn unary(&self, op: Unary, name: &'static str, keeps: Keeps) -> Result<Tensor, Error> {
        let out = unary_values(op, self)?;
        let meta = autograd::record(&[self], || {
            let (saved, derivative) = match keeps {
                Keeps::Input(derivative) => (SavedTensor::new(self), derivative),
                Keeps::Result(derivative) => (SavedTensor::result(&out, name), derivative),
            };
            Backward::saving(name, move |grad| {
                let x = saved.unpack()?;
                let slope = derivative(x)?;
                Ok(vec![Some(binary_values(
                    Binary::Mul,
                    grad.into(),
                    (&slope).into(),
                )?)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    pub fn exp(&self) -> Result<Tensor, Error> {
        if let Some(cast) =
            crate::amp::autocast_inputs(crate::amp::CastPolicy::Float32Gpu, &[self])?
        {
            return cast[0].exp();
        }

        self.unary(Unary::Exp, "ExpBackward0", Keeps::Result(|y| Ok(y.clone())))
    }

    pub fn log(&self) -> Result<Tensor, Error> {
        if let Some(cast) =
            crate::amp::autocast_inputs(crate::amp::CastPolicy::Float32Gpu, &[self])?
        {
            return cast[0].log();
        }

        self.unary(
            Unary::Log,
            "LogBackward0",
            Keeps::Input(|x| {
                binary_values(Binary::Div, Operand::Scalar(Scalar::Float(1.0)), x.into())
            }),
        )
    }

    pub fn sqrt(&self) -> Result<Tensor, Error> {
        self.unary(
            Unary::Sqrt,
            "SqrtBackward0",
            Keeps::Result(|y| {
                binary_values(Binary::Div, Operand::Scalar(Scalar::Float(0.5)), y.into())
            }),
        )
    }

    pub fn abs(&self) -> Result<Tensor, Error> {
        self.unary(
            Unary::Abs,
            "AbsBackward0",
            Keeps::Input(|x| {
                // sign(x): 1, 0 or -1.
                let positive =
                    binary_values(Binary::Gt, x.into(), Operand::Scalar(Scalar::Int(0)))?
                        .to_dtype(x.dtype())?;
                let negative =
                    binary_values(Binary::Lt, x.into(), Operand::Scalar(Scalar::Int(0)))?
                        .to_dtype(x.dtype())?;
                binary_values(Binary::Sub, (&positive).into(), (&negative).into())
            }),
        )
    }

    pub fn relu(&self) -> Result<Tensor, Error> {
        self.unary(
            Unary::Relu,
            "ReluBackward0",
            Keeps::Result(|y| {
                binary_values(Binary::Gt, y.into(), Operand::Scalar(Scalar::Int(0)))?
                    .to_dtype(y.dtype())
            }),
        )
    }

    pub fn sigmoid(&self) -> Result<Tensor, Error> {
        self.unary(
            Unary::Sigmoid,
            "SigmoidBackward0",
            Keeps::Result(|y| {
                let rest =
                    binary_values(Binary::Sub, Operand::Scalar(Scalar::Float(1.0)), y.into())?;
                binary_values(Binary::Mul, y.into(), (&rest).into())
            }),
        )
    }

    pub fn tanh(&self) -> Result<Tensor, Error> {
        self.unary(
            Unary::Tanh,
            "TanhBackward0",
            Keeps::Result(|y| {
                let square = binary_values(Binary::Mul, y.into(), y.into())?;
                binary_values(
                    Binary::Sub,
                    Operand::Scalar(Scalar::Float(1.0)),
                    (&square).into(),
                )
            }),
        )
    }

    /// `clamp(min, max)` (either bound may be absent): `ClampBackward1`, whose gradient passes only
    /// where the value was inside the bounds.
    pub fn clamp(&self, min: Option<Scalar>, max: Option<Scalar>) -> Result<Tensor, Error> {
        let out = clamp_values(self, min, max)?;
        Ok(out.with_autograd(clamp_node(self, SavedTensor::new(self), min, max)))
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
    autograd::record(&[input], || clamp_backward(saved, min, max))
}

/// The backward of `clamp`: the gradient passes where the saved values were inside the bounds.
pub(super) fn clamp_backward(
    saved: SavedTensor,
    min: Option<Scalar>,
    max: Option<Scalar>,
) -> Backward {
    Backward::saving("ClampBackward1", move |grad| {
        let x = saved.unpack()?;
        let mut inside = Tensor::full(
            x.session(),
            x.shape(),
            Scalar::Bool(true),
            crate::DType::Bool,
            x.device(),
        )?;
        for (bound, test) in [(min, Binary::Ge), (max, Binary::Le)] {
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
