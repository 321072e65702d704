//! `softmax` and `log_softmax` along a dimension, computed stably (the maximum subtracted first),
//! with PyTorch's `SoftmaxBackward0` / `LogSoftmaxBackward0`.

use crate::autograd::{self, Backward};
use crate::backend::cpu::elementwise::Binary;
use crate::backend::cpu::reduce::Reduction;
use crate::error::Error;
use crate::layout::wrap_dim;
use crate::tensor::Tensor;

use super::elementwise::binary_values;

impl Tensor {
    /// `torch.softmax(self, dim)`.
    pub fn softmax(&self, dim: i64) -> Result<Tensor, Error> {
        if let Some(cast) =
            crate::amp::autocast_inputs(crate::amp::CastPolicy::Float32Gpu, &[self])?
        {
            return cast[0].softmax(dim);
        }

        let d = self.check_softmax("softmax", dim)?;
        let out = self.session().no_grad(|| softmax_values(self, d, false))?;
        let result = out.clone();
        let meta = autograd::record(&[self], || {
            // Keeping the result (values only, detached) costs no cycle: it has no grad_fn.
            let s = result.detach();
            Backward::new("SoftmaxBackward0", move |grad| {
                // ds = s · (g − Σ g·s)
                let gs = binary_values(Binary::Mul, grad.into(), (&s).into())?;
                let total = gs.reduce_values(Reduction::Sum, &[d as i64], true)?;
                let centred = binary_values(Binary::Sub, grad.into(), (&total).into())?;
                Ok(vec![Some(binary_values(
                    Binary::Mul,
                    (&s).into(),
                    (&centred).into(),
                )?)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `torch.log_softmax(self, dim)`.
    pub fn log_softmax(&self, dim: i64) -> Result<Tensor, Error> {
        if let Some(cast) =
            crate::amp::autocast_inputs(crate::amp::CastPolicy::Float32Gpu, &[self])?
        {
            return cast[0].log_softmax(dim);
        }

        let d = self.check_softmax("log_softmax", dim)?;
        let out = self.session().no_grad(|| softmax_values(self, d, true))?;
        let result = out.clone();
        let meta = autograd::record(&[self], || {
            let ls = result.detach();
            Backward::new("LogSoftmaxBackward0", move |grad| {
                // d = g − exp(ls) · Σ g
                let total = grad.reduce_values(Reduction::Sum, &[d as i64], true)?;
                let p = ls.exp()?;
                let spread = binary_values(Binary::Mul, (&p).into(), (&total).into())?;
                Ok(vec![Some(binary_values(
                    Binary::Sub,
                    grad.into(),
                    (&spread).into(),
                )?)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    fn check_softmax(&self, op: &'static str, dim: i64) -> Result<usize, Error> {
        let d = wrap_dim(dim, self.dim())?;
        if !self.dtype().is_floating_point() {
            let last = d + 1 >= self.dim();
            return Err(Error::KernelNotForDtype {
                kernel: format!("{op}{}_kernel_impl", if last { "_lastdim" } else { "" }),
                dtype: self.dtype(),
            });
        }
        Ok(d)
    }
}

/// softmax (or its log) of `x` along `dim`, without autograd.
fn softmax_values(x: &Tensor, dim: usize, log: bool) -> Result<Tensor, Error> {
    let dims = [dim as i64];
    let max = x.reduce_values(Reduction::Max, &dims, true)?;
    let shifted = binary_values(Binary::Sub, x.into(), (&max).into())?;
    let exp = shifted.exp()?;
    let total = exp.reduce_values(Reduction::Sum, &dims, true)?;
    if log {
        binary_values(Binary::Sub, (&shifted).into(), (&total.log()?).into())
    } else {
        binary_values(Binary::Div, (&exp).into(), (&total).into())
    }
}
