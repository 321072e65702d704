//! The BLAS-style products that add to an input, `beta * input + alpha * product`: `addmm`
//! (what `nn.Linear` runs), `addmv`, `addr`, `baddbmm` and `addbmm`, each checked in ATen's
//! order and words and recorded under its own node (`AddmmBackward0`, …). With `beta == 0`
//! the input's values are ignored (a NaN there does not spread), as BLAS and PyTorch do.

use crate::autograd::{self, Backward, SavedTensor};
use crate::element::Scalar;
use crate::error::{Error, LinalgError};
use crate::layout::wrap_dim;
use crate::tensor::Tensor;

/// The product an `add*` op adds to its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddProduct {
    /// `addmm(input, mat1, mat2)`: `mat1 @ mat2`.
    Mm,
    /// `addmv(input, mat, vec)`: `mat @ vec`.
    Mv,
    /// `addr(input, vec1, vec2)`: `outer(vec1, vec2)`.
    Outer,
    /// `baddbmm(input, batch1, batch2)`: `bmm(batch1, batch2)`.
    Bmm,
    /// `addbmm(input, batch1, batch2)`: `bmm(batch1, batch2).sum(0)`.
    SummedBmm,
}

impl AddProduct {
    pub fn op(self) -> &'static str {
        match self {
            AddProduct::Mm => "addmm",
            AddProduct::Mv => "addmv",
            AddProduct::Outer => "addr",
            AddProduct::Bmm => "baddbmm",
            AddProduct::SummedBmm => "addbmm",
        }
    }

    fn node(self) -> &'static str {
        match self {
            AddProduct::Mm => "AddmmBackward0",
            AddProduct::Mv => "AddmvBackward0",
            AddProduct::Outer => "AddrBackward0",
            AddProduct::Bmm => "BaddbmmBackward0",
            AddProduct::SummedBmm => "AddbmmBackward0",
        }
    }

    /// The schema's names of the two factors.
    pub fn factors(self) -> (&'static str, &'static str) {
        match self {
            AddProduct::Mm => ("mat1", "mat2"),
            AddProduct::Mv => ("mat", "vec"),
            AddProduct::Outer => ("vec1", "vec2"),
            AddProduct::Bmm | AddProduct::SummedBmm => ("batch1", "batch2"),
        }
    }
}

/// `size(dim)` of `t`, with PyTorch's IndexError for a dimension it lacks.
fn size(t: &Tensor, dim: i64) -> Result<i64, Error> {
    Ok(t.shape()[wrap_dim(dim, t.dim())?] as i64)
}

/// `beta` or `alpha` as the kernel reads it for `dtype`: integer kernels truncate a float
/// (`addr` refuses one instead, checked before).
fn factor(scalar: Scalar, integral: bool) -> Scalar {
    match (scalar, integral) {
        (Scalar::Float(f), true) => Scalar::Int(f as i64),
        (s, _) => s,
    }
}

impl Tensor {
    /// `addmm(mat1, mat2)` with `beta = alpha = 1`: `nn.Linear`'s `bias + input @ weight.t()`.
    pub fn addmm(&self, mat1: &Tensor, mat2: &Tensor) -> Result<Tensor, Error> {
        self.add_product(AddProduct::Mm, mat1, mat2, Scalar::Int(1), Scalar::Int(1))
    }

    /// `beta * self + alpha * (a ⊗ b)`, `⊗` the `kind` of product, `self` broadcast to its shape.
    pub fn add_product(
        &self,
        kind: AddProduct,
        a: &Tensor,
        b: &Tensor,
        beta: Scalar,
        alpha: Scalar,
    ) -> Result<Tensor, Error> {
        if let Some(cast) =
            crate::amp::autocast_inputs(crate::amp::CastPolicy::LowerPrecision, &[self, a, b])?
        {
            return cast[0].add_product(kind, &cast[1], &cast[2], beta, alpha);
        }
        let shape = self.check_add_product(kind, a, b, beta, alpha)?;
        let integral = !self.dtype().is_floating_point();
        let (beta, alpha) = (factor(beta, integral), factor(alpha, integral));
        let value = self.session().no_grad(|| -> Result<Tensor, Error> {
            let product = match kind {
                AddProduct::Mm => a.mm(b)?,
                AddProduct::Mv => a.mv(b)?,
                AddProduct::Outer => a.outer(b)?,
                AddProduct::Bmm => a.bmm(b)?,
                AddProduct::SummedBmm => a.bmm(b)?.sum(&[0], false)?,
            };
            let product = match alpha.as_f64() == 1.0 {
                true => product,
                false => product.mul(alpha)?,
            };
            if beta.as_f64() == 0.0 {
                return Ok(product);
            }
            let input = self.expand(&shape)?;
            match beta.as_f64() == 1.0 {
                true => input.add(&product),
                false => input.mul(beta)?.add(&product),
            }
        })?;
        let (input_shape, input_dtype) = (self.shape().to_vec(), self.dtype());
        let (sa, sb) = (SavedTensor::new(a), SavedTensor::new(b));
        let meta = autograd::record(&[self, a, b], || {
            Backward::saving(kind.node(), move |grad| {
                let (a, b) = (sa.unpack()?, sb.unpack()?);
                let scaled = |t: Tensor, by: Scalar| match by.as_f64() == 1.0 {
                    true => Ok(t),
                    false => t.mul(by),
                };
                let (to_a, to_b) = match kind {
                    AddProduct::Mm => (grad.mm(&b.t()?)?, a.t()?.mm(grad)?),
                    AddProduct::Mv => (grad.outer(b)?, a.t()?.mv(grad)?),
                    AddProduct::Outer => (grad.mv(b)?, grad.t()?.mv(a)?),
                    AddProduct::Bmm => (
                        grad.bmm(&b.transpose(1, 2)?)?,
                        a.transpose(1, 2)?.bmm(grad)?,
                    ),
                    AddProduct::SummedBmm => {
                        let sizes = [
                            a.shape()[0] as i64,
                            a.shape()[1] as i64,
                            b.shape()[2] as i64,
                        ];
                        let spread = grad.unsqueeze(0)?.expand(&sizes)?;
                        (
                            spread.bmm(&b.transpose(1, 2)?)?,
                            a.transpose(1, 2)?.bmm(&spread)?,
                        )
                    }
                };
                Ok(vec![
                    Some(super::reduce_grad(
                        &scaled(grad.clone(), beta)?,
                        &input_shape,
                        input_dtype,
                    )?),
                    Some(scaled(to_a, alpha)?),
                    Some(scaled(to_b, alpha)?),
                ])
            })
        });
        Ok(value.with_autograd(meta))
    }

    /// ATen's checks of an `add*` product, in its order; the result's shape.
    fn check_add_product(
        &self,
        kind: AddProduct,
        a: &Tensor,
        b: &Tensor,
        beta: Scalar,
        alpha: Scalar,
    ) -> Result<Vec<i64>, Error> {
        let (first, second) = kind.factors();
        let args = [("self", Some(self)), (first, Some(a)), (second, Some(b))];
        let shape = match kind {
            AddProduct::Mm => {
                super::check_arguments("wrapper_CUDA_addmm", &args)?;
                for (argument, t) in [(first, a), (second, b)] {
                    if t.dim() != 2 {
                        return Err(Error::MmNeedsMatrix {
                            argument,
                            dim: t.dim(),
                        });
                    }
                }
                if self.dtype() != b.dtype() {
                    return Err(LinalgError::AddmmInputDtype {
                        input: self.dtype(),
                        mat2: b.dtype(),
                    }
                    .into());
                }
                if a.dtype() != b.dtype() {
                    return Err(Error::AddmmDtypeMismatch {
                        first: a.dtype(),
                        second: b.dtype(),
                    });
                }
                let (n, k, k2, m) = (a.shape()[0], a.shape()[1], b.shape()[0], b.shape()[1]);
                if k != k2 {
                    return Err(Error::MmShapes {
                        op: "addmm",
                        a: [n, k],
                        b: [k2, m],
                    });
                }
                vec![n as i64, m as i64]
            }
            AddProduct::Mv => {
                super::check_arguments("wrapper_CUDA_addmv", &args)?;
                if a.dim() != 2 || b.dim() != 1 || self.dim() > 1 {
                    return Err(LinalgError::AddmvDims {
                        input: self.dim(),
                        mat: a.dim(),
                        vec: b.dim(),
                    }
                    .into());
                }
                let (n, k) = (a.shape()[0], a.shape()[1]);
                if k != b.shape()[0] || (self.numel() != n && self.numel() != 1) {
                    return Err(LinalgError::AddmvSizes {
                        input: self.shape().first().copied().unwrap_or(1),
                        mat: [n, k],
                        vec: b.shape()[0],
                    }
                    .into());
                }
                if self.dtype() != a.dtype() || a.dtype() != b.dtype() {
                    return Err(LinalgError::AddmvDtypes {
                        dtypes: [self.dtype(), a.dtype(), b.dtype()],
                    }
                    .into());
                }
                vec![n as i64]
            }
            AddProduct::Outer => {
                super::common_device(&[self, a, b])?;
                for (argument, t) in [(first, a), (second, b)] {
                    if t.dim() != 1 {
                        return Err(LinalgError::AddrNeeds1D {
                            argument,
                            dim: t.dim(),
                        }
                        .into());
                    }
                }
                let shape = vec![a.shape()[0] as i64, b.shape()[0] as i64];
                self.expand(&shape)?;
                let dtype = crate::dtype::promote_types(
                    crate::dtype::promote_types(self.dtype(), a.dtype()),
                    b.dtype(),
                );
                for (name, s) in [("beta", beta), ("alpha", alpha)] {
                    if matches!(s, Scalar::Bool(_)) && dtype != crate::dtype::DType::Bool {
                        return Err(LinalgError::AddrBoolFactor { name }.into());
                    }
                    if !dtype.is_floating_point() && matches!(s, Scalar::Float(_)) {
                        return Err(LinalgError::IntegralFactor { name }.into());
                    }
                }
                shape
            }
            AddProduct::Bmm | AddProduct::SummedBmm => {
                let shape = match kind {
                    AddProduct::Bmm => vec![size(a, 0)?, size(a, 1)?, size(b, 2)?],
                    _ => vec![size(a, 1)?, size(b, 2)?],
                };
                self.expand(&shape)?;
                let method = match kind {
                    AddProduct::Bmm => "wrapper_CUDA_baddbmm",
                    _ => "wrapper_CUDA_addbmm",
                };
                super::check_arguments(method, &args)?;
                for (argument, t) in [(first, a), (second, b)] {
                    if t.dim() != 3 {
                        return Err(Error::BmmNeeds3D { argument });
                    }
                }
                let (batch, k) = (a.shape()[0], a.shape()[2]);
                if kind == AddProduct::SummedBmm && b.shape()[0] != batch {
                    return Err(LinalgError::AddbmmBatches {
                        batch1: batch,
                        batch2: b.shape()[0],
                    }
                    .into());
                }
                if kind == AddProduct::SummedBmm && b.shape()[1] != k {
                    return Err(LinalgError::AddbmmSizes {
                        a: [a.shape()[1], k],
                        b: [b.shape()[1], b.shape()[2]],
                    }
                    .into());
                }
                if b.shape()[..2] != [batch, k] {
                    return Err(Error::BmmShapes {
                        expected: [batch, k],
                        got: [b.shape()[0], b.shape()[1]],
                    });
                }
                if self.dtype() != a.dtype() {
                    return Err(LinalgError::BaddbmmDtypes {
                        dtypes: [self.dtype(), a.dtype(), b.dtype()],
                    }
                    .into());
                }
                if a.dtype() != b.dtype() {
                    return Err(Error::ExpectedScalarType {
                        expected: a.dtype(),
                        found: b.dtype(),
                    });
                }
                shape
            }
        };
        Ok(shape)
    }
}
