//! Norms: `linalg.vector_norm` (every order), `linalg.matrix_norm` (Frobenius and the orders
//! that reduce rows or columns), and `dist`; `torch.norm` and `linalg.norm` choose among them.

use crate::autograd::{self, Backward, SavedTensor};
use crate::backend::cpu::elementwise::Binary;
use crate::backend::cpu::unary::Unary;
use crate::element::Scalar;
use crate::error::{Error, ReduceError};
use crate::tensor::Tensor;

/// A matrix norm's order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MatrixOrder {
    Frobenius,
    Nuclear,
    /// `1`, `-1`, `2`, `-2`, `inf`, `-inf`.
    Number(f64),
}

impl Tensor {
    /// `linalg.vector_norm(ord, dim, keepdim)`: `(sum |x|^ord)^(1/ord)` over `dims` (all when
    /// empty); `inf`/`-inf` the largest/smallest `|x|`, `0` the count of nonzeros
    /// (`LinalgVectorNormBackward0`).
    pub fn vector_norm(&self, ord: f64, dims: &[i64], keepdim: bool) -> Result<Tensor, Error> {
        if !self.dtype().is_floating_point() {
            return Err(ReduceError::NormNeedsFloat {
                op: "vector_norm",
                dtype: self.dtype().scalar_type_name(),
            }
            .into());
        }
        let out = self.session().no_grad(|| -> Result<Tensor, Error> {
            let magnitude = self.math(Unary::Abs)?;
            match ord {
                o if o == f64::INFINITY => magnitude.amax(dims, keepdim),
                o if o == f64::NEG_INFINITY => magnitude.amin(dims, keepdim),
                0.0 => self
                    .compare(Binary::Ne, Scalar::Int(0))?
                    .to_dtype(self.dtype())?
                    .sum(dims, keepdim),
                1.0 => magnitude.sum(dims, keepdim),
                2.0 => self.mul(self)?.sum(dims, keepdim)?.sqrt(),
                p => magnitude
                    .pow_scalar(Scalar::Float(p))?
                    .sum(dims, keepdim)?
                    .pow_scalar(Scalar::Float(1.0 / p)),
            }
        })?;
        let (saved, norm, dims) = (SavedTensor::new(self), out.detach(), dims.to_vec());
        let meta = autograd::record(&[self], || {
            Backward::saving("LinalgVectorNormBackward0", move |grad| {
                let x = saved.unpack()?;
                let shape = x.shape().to_vec();
                let grad = grad.kept_dims(&shape, &dims, keepdim)?;
                let norm = norm.kept_dims(&shape, &dims, keepdim)?;
                let zero = Tensor::full(
                    x.session(),
                    &[],
                    Scalar::Int(0),
                    x.dtype(),
                    crate::Device::CPU,
                )?;
                let signs = x.math(Unary::Sign)?;
                let to_x = match ord {
                    0.0 => x.mul(Scalar::Int(0))?,
                    1.0 => signs.mul(&grad)?,
                    o if o.is_infinite() => {
                        let hits = x
                            .math(Unary::Abs)?
                            .compare(Binary::Eq, &norm)?
                            .to_dtype(x.dtype())?;
                        let count = hits.sum(&dims, true)?;
                        signs.mul(&hits)?.mul(&grad)?.div(&count)?
                    }
                    2.0 => {
                        // x / norm, and 0 where the norm is 0.
                        let scaled = x.mul(&grad)?.div(&norm)?;
                        let empty = norm.compare(Binary::Eq, Scalar::Int(0))?;
                        Tensor::where_(&empty, &zero, &scaled)?
                    }
                    p => {
                        let magnitude = x.math(Unary::Abs)?;
                        let scaled = signs
                            .mul(&magnitude.pow_scalar(Scalar::Float(p - 1.0))?)?
                            .mul(&grad)?
                            .div(&norm.pow_scalar(Scalar::Float(p - 1.0))?)?;
                        let empty = norm.compare(Binary::Eq, Scalar::Int(0))?;
                        Tensor::where_(&empty, &zero, &scaled)?
                    }
                };
                Ok(vec![Some(to_x)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `linalg.matrix_norm(ord, dim=(-2, -1), keepdim)`: Frobenius, or the largest (smallest)
    /// column (`1`, `-1`) or row (`inf`, `-inf`) sum of magnitudes. The orders that need
    /// singular values (`2`, `-2`, `'nuc'`) go through `linalg.svdvals`.
    pub fn matrix_norm(
        &self,
        ord: MatrixOrder,
        dims: (i64, i64),
        keepdim: bool,
    ) -> Result<Tensor, Error> {
        if self.dim() < 2 {
            return Err(ReduceError::MatrixNormRank.into());
        }
        if !self.dtype().is_floating_point() {
            return Err(ReduceError::NormNeedsFloat {
                op: "matrix_norm",
                dtype: self.dtype().scalar_type_name(),
            }
            .into());
        }
        let (rows, cols) = dims;
        let magnitude = |t: &Tensor| t.math(Unary::Abs);
        let out = match ord {
            MatrixOrder::Frobenius => self.vector_norm(2.0, &[rows, cols], keepdim)?,
            MatrixOrder::Number(o) if o.abs() == 1.0 || o.is_infinite() => {
                // 1: the largest column sum (sum over rows); inf: the largest row sum.
                let (summed, over) = if o.abs() == 1.0 {
                    (rows, cols)
                } else {
                    (cols, rows)
                };
                let sums = magnitude(self)?.sum(&[summed], true)?;
                let extreme = match o > 0.0 {
                    true => sums.amax(&[over], true)?,
                    false => sums.amin(&[over], true)?,
                };
                match keepdim {
                    true => extreme,
                    false => extreme.squeeze_dims(&[rows, cols])?,
                }
            }
            MatrixOrder::Nuclear | MatrixOrder::Number(2.0 | -2.0) => {
                let moved = self.movedim(&[rows, cols], &[-2, -1])?;
                let values = moved.svdvals()?;
                let reduced = match ord {
                    MatrixOrder::Nuclear => values.sum(&[-1], false)?,
                    MatrixOrder::Number(2.0) => values.amax(&[-1], false)?,
                    _ => values.amin(&[-1], false)?,
                };
                match keepdim {
                    true => reduced
                        .unsqueeze(-1)?
                        .unsqueeze(-1)?
                        .movedim(&[-2, -1], &[rows, cols])?,
                    false => reduced,
                }
            }
            MatrixOrder::Number(o) => {
                return Err(ReduceError::MatrixNormOrder {
                    ord: format!("{o}"),
                }
                .into());
            }
        };
        Ok(out)
    }

    /// `dist(other, p)`: the `p`-norm of the difference (`DistBackward0`).
    pub fn dist(&self, other: &Tensor, p: f64) -> Result<Tensor, Error> {
        let norm = self.sub(other)?.vector_norm(p, &[], false)?;
        Ok(autograd::renamed(&norm, "DistBackward0"))
    }
}
