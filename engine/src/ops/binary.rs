//! Binary math past arithmetic — `atan2`, `hypot`, `fmod`, `fmax`, `fmin`, `copysign`,
//! `heaviside`, a number to a tensor's power — and `div` with a rounding mode, with their nodes and gradients as PyTorch's `derivatives.yaml`
//! states them.

use crate::autograd::{self, Backward};
use crate::backend::cpu::elementwise::Binary;
use crate::element::Scalar;
use crate::error::Error;
use crate::tensor::Tensor;

use super::elementwise::{Operand, Saved, binary_values, reduce_grad, without_derivative};

/// `div`'s `rounding_mode=`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounding {
    Trunc,
    Floor,
}

fn op(op: Binary, a: &Tensor, b: &Tensor) -> Result<Tensor, Error> {
    binary_values(op, a.into(), b.into())
}

pub(super) fn zeros_like(t: &Tensor) -> Result<Tensor, Error> {
    Tensor::full(
        t.session(),
        t.shape(),
        Scalar::Int(0),
        t.dtype(),
        t.device(),
    )
}

/// `value / d`, and 0 where `d` is 0 (PyTorch's backward of atan2 masks those).
fn over_nonzero(value: &Tensor, d: &Tensor) -> Result<Tensor, Error> {
    let nonzero = binary_values(Binary::Ne, d.into(), Operand::Scalar(Scalar::Int(0)))?;
    let ratio = op(Binary::Div, value, d)?;
    Tensor::where_(&nonzero, &ratio, &zeros_like(&ratio)?)
}

/// 1.0 where `mask`, else 0.0, in `like`'s dtype.
fn ones_where(mask: &Tensor, like: &Tensor) -> Result<Tensor, Error> {
    mask.to_dtype(like.dtype())
}

impl Tensor {
    /// `number ** self`: `torch.pow(number, tensor)` and Python's `2 ** t` (`PowBackward2`:
    /// the exponent's gradient is `grad · result · ln(number)`, and 0 where the number is 0 and
    /// the exponent not negative, as `pow_backward_exponent` gives it).
    pub fn rpow(&self, base: Scalar) -> Result<Tensor, Error> {
        let out = binary_values(Binary::Pow, Operand::Scalar(base), self.into())?;
        let (result, exponent) = (out.detach(), self.detach());
        let meta = autograd::record(&[self], || {
            Backward::new("PowBackward2", move |grad| {
                let slope = result.mul(Scalar::Float(base.as_f64().ln()))?;
                let slope = match base.as_f64() == 0.0 {
                    true => {
                        let flat = binary_values(
                            Binary::Ge,
                            (&exponent).into(),
                            Operand::Scalar(Scalar::Int(0)),
                        )?;
                        Tensor::where_(&flat, &zeros_like(&slope)?, &slope)?
                    }
                    false => slope,
                };
                Ok(vec![Some(op(Binary::Mul, grad, &slope)?)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `torch.atan2`, `hypot`, `fmod`, `fmax`, `fmin` and `copysign` of this tensor and `other`.
    pub fn binary_math<'a>(
        &self,
        which: Binary,
        other: impl Into<Operand<'a>>,
    ) -> Result<Tensor, Error> {
        let other = other.into();
        let out = binary_values(which, Operand::Tensor(self), other)?;
        let tensor_other = other.tensor().is_some();
        let name = match (which, tensor_other) {
            (Binary::Atan2, _) => "Atan2Backward0",
            (Binary::Hypot, _) => "HypotBackward0",
            (Binary::Fmod, true) => "FmodBackward1",
            (Binary::Fmod, false) => "FmodBackward0",
            (Binary::Fmax, _) => "FmaxBackward0",
            (Binary::Fmin, _) => "FminBackward0",
            (Binary::Copysign, true) => "CopysignBackward0",
            (Binary::Copysign, false) => "CopysignBackward1",
            _ => {
                return Err(Error::NotBinaryMath {
                    op: format!("{which:?}"),
                });
            }
        };
        let a = Saved::of(Operand::Tensor(self));
        let b = Saved::of(other);
        let result = Saved::of(Operand::Tensor(&out));
        let (a_shape, a_dtype) = (self.shape().to_vec(), self.dtype());
        let b_meta = other.tensor().map(|t| (t.shape().to_vec(), t.dtype()));
        let meta = autograd::record_edges(&[Some(self), other.tensor()], || {
            Backward::saving(name, move |grad| {
                let (Operand::Tensor(x), y) = (a.operand()?, b.operand()?) else {
                    return Err(Error::NoTensorOperand);
                };
                let y_tensor = match y {
                    Operand::Tensor(t) => t.clone(),
                    Operand::Scalar(s) => Tensor::full(x.session(), &[], s, x.dtype(), x.device())?,
                };
                let y = &y_tensor;
                let (ga, gb) = match which {
                    Binary::Atan2 => {
                        // ∂/∂y = x / (x² + y²), ∂/∂x = -y / (x² + y²), self being y.
                        let d = op(
                            Binary::Add,
                            &op(Binary::Mul, x, x)?,
                            &op(Binary::Mul, y, y)?,
                        )?;
                        let ga = op(Binary::Mul, grad, &over_nonzero(y, &d)?)?;
                        let gb = op(Binary::Mul, grad, &over_nonzero(&x.neg()?, &d)?)?;
                        (ga, Some(gb))
                    }
                    Binary::Hypot => {
                        let Operand::Tensor(r) = result.operand()? else {
                            return Err(Error::NoTensorOperand);
                        };
                        let ga = op(Binary::Mul, grad, &op(Binary::Div, x, r)?)?;
                        let gb = op(Binary::Mul, grad, &op(Binary::Div, y, r)?)?;
                        (ga, Some(gb))
                    }
                    Binary::Fmod => {
                        let quotient = op(Binary::TruncDiv, x, y)?;
                        let gb = op(Binary::Mul, &grad.neg()?, &quotient)?;
                        (grad.clone(), Some(gb))
                    }
                    Binary::Fmax | Binary::Fmin => {
                        // The gradient goes to self where it won or other is NaN, half of it on
                        // a tie, the rest to other.
                        let test = if which == Binary::Fmax {
                            Binary::Gt
                        } else {
                            Binary::Lt
                        };
                        let won = op(test, x, y)?;
                        let other_nan = op(
                            Binary::BitAnd,
                            &op(Binary::Ne, y, y)?,
                            &op(Binary::Eq, x, x)?,
                        )?;
                        let to_self = ones_where(&op(Binary::BitOr, &won, &other_nan)?, grad)?;
                        let ties = binary_values(
                            Binary::Mul,
                            (&ones_where(&op(Binary::Eq, x, y)?, grad)?).into(),
                            Operand::Scalar(Scalar::Float(0.5)),
                        )?;
                        let to_self = op(Binary::Add, &to_self, &ties)?;
                        let ga = op(Binary::Mul, grad, &to_self)?;
                        let gb = op(Binary::Sub, grad, &ga)?;
                        (ga, Some(gb))
                    }
                    _ => {
                        // copysign: grad · result / self, 0 where self is 0.
                        let Operand::Tensor(r) = result.operand()? else {
                            return Err(Error::NoTensorOperand);
                        };
                        let ratio = over_nonzero(r, x)?;
                        (op(Binary::Mul, grad, &ratio)?, Some(zeros_like(grad)?))
                    }
                };
                let mut grads = vec![Some(reduce_grad(&ga, &a_shape, a_dtype)?)];
                if let Some((shape, dtype)) = &b_meta {
                    grads.push(gb.map(|g| reduce_grad(&g, shape, *dtype)).transpose()?);
                }
                Ok(grads)
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `torch.div(self, other, rounding_mode=...)`: `DivBackward2`, whose gradients are zero.
    pub fn div_rounded<'a>(
        &self,
        other: impl Into<Operand<'a>>,
        rounding: Rounding,
    ) -> Result<Tensor, Error> {
        let other = other.into();
        let which = match rounding {
            Rounding::Trunc => Binary::TruncDiv,
            Rounding::Floor => Binary::FloorDiv,
        };
        let out = binary_values(which, Operand::Tensor(self), other)?;
        let (a_shape, a_dtype) = (self.shape().to_vec(), self.dtype());
        let b_meta = other.tensor().map(|t| (t.shape().to_vec(), t.dtype()));
        let meta = autograd::record_edges(&[Some(self), other.tensor()], || {
            Backward::new("DivBackward2", move |grad| {
                let zero = zeros_like(grad)?;
                let mut grads = vec![Some(reduce_grad(&zero, &a_shape, a_dtype)?)];
                if let Some((shape, dtype)) = &b_meta {
                    grads.push(Some(reduce_grad(&zero, shape, *dtype)?));
                }
                Ok(grads)
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `torch.heaviside(self, values)`: 0 where `self` is negative (or NaN), 1 where positive,
    /// `values` where zero, in the one dtype both must have. PyTorch has no derivative for it
    /// and records a `NotImplemented` node.
    pub fn heaviside(&self, values: &Tensor) -> Result<Tensor, Error> {
        super::common_device(&[self, values])?;
        if self.dtype() != values.dtype() {
            return Err(Error::HeavisideDtypes);
        }
        let positive = binary_values(Binary::Gt, self.into(), Scalar::Int(0).into())?;
        let zero = binary_values(Binary::Eq, self.into(), Scalar::Int(0).into())?;
        let out = Tensor::where_(&zero, values, &positive.to_dtype(self.dtype())?)?.detach();
        Ok(without_derivative(out, &[self, values], "aten::heaviside"))
    }
}
