//! The reductions built on the four reduction kernels (sum, product, max, min; each on either
//! backend): `amax`/`amin` over several dims, `prod` over a dim, `logsumexp`, `nansum`,
//! `nanmean`, `count_nonzero`, and `std_mean`/`var_mean`, with PyTorch's nodes.

use crate::autograd::{self, Backward, SavedTensor};
use crate::backend::cpu::elementwise::Binary;
use crate::backend::cpu::reduce::Reduction;
use crate::backend::cpu::unary::Unary;
use crate::dtype::DType;
use crate::element::Scalar;
use crate::error::{Error, ReduceError};
use crate::layout::wrap_dim;
use crate::tensor::Tensor;

impl Tensor {
    /// `amax(dim, keepdim)`: the largest value over `dims` (all when empty), in this tensor's
    /// dtype (`AmaxBackward0`: ties share the gradient evenly).
    pub fn amax(&self, dims: &[i64], keepdim: bool) -> Result<Tensor, Error> {
        self.extreme_over(dims, keepdim, true)
    }

    /// `amin(dim, keepdim)` (`AminBackward0`).
    pub fn amin(&self, dims: &[i64], keepdim: bool) -> Result<Tensor, Error> {
        self.extreme_over(dims, keepdim, false)
    }

    fn extreme_over(&self, dims: &[i64], keepdim: bool, largest: bool) -> Result<Tensor, Error> {
        let op = if largest { "amax" } else { "amin" };
        self.check_nonempty(op, dims)?;
        let reduction = if largest {
            Reduction::Max
        } else {
            Reduction::Min
        };
        let out = self
            .reduce_values(reduction, dims, keepdim)?
            .to_dtype_if_needed(self.dtype())?;
        let (shape, dims) = (self.shape().to_vec(), dims.to_vec());
        let (saved, value) = (SavedTensor::new(self), out.detach());
        let name = if largest {
            "AmaxBackward0"
        } else {
            "AminBackward0"
        };
        let meta = autograd::record(&[self], || {
            Backward::saving(name, move |grad| {
                let x = saved.unpack()?;
                let spread = |t: &Tensor| t.kept_dims(&shape, &dims, keepdim);
                let hits = x
                    .compare(Binary::Eq, &spread(&value)?)?
                    .to_dtype(grad.dtype())?;
                let count = hits.sum(&dims, true)?;
                Ok(vec![Some(hits.mul(&spread(grad)?)?.div(&count)?)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// A reduction's result (or gradient) with the reduced dims back as size 1, ready to
    /// broadcast against an input of `shape`.
    pub(super) fn kept_dims(
        &self,
        shape: &[usize],
        dims: &[i64],
        keepdim: bool,
    ) -> Result<Tensor, Error> {
        if keepdim {
            return Ok(self.clone());
        }
        let reduced: Vec<usize> = match dims.is_empty() {
            true => (0..shape.len()).collect(),
            false => dims
                .iter()
                .map(|&d| wrap_dim(d, shape.len()))
                .collect::<Result<_, _>>()?,
        };
        let kept: Vec<i64> = (0..shape.len())
            .map(|d| {
                if reduced.contains(&d) {
                    1
                } else {
                    shape[d] as i64
                }
            })
            .collect();
        self.reshape(&kept)
    }

    /// ReduceOpsUtils.h's check that the dims a reduction without an identity reduces are not
    /// empty.
    fn check_nonempty(&self, op: &'static str, dims: &[i64]) -> Result<(), Error> {
        let reduced: Vec<usize> = match dims.is_empty() {
            true => (0..self.dim()).collect(),
            false => dims
                .iter()
                .map(|&d| wrap_dim(d, self.dim()))
                .collect::<Result<_, _>>()?,
        };
        if let Some(&dim) = reduced.iter().find(|&&d| self.shape()[d] == 0) {
            return Err(ReduceError::EmptyDim { op, dim }.into());
        }
        Ok(())
    }

    /// `prod(dim, keepdim)`: the product along `dim`; integers multiply in int64
    /// (`ProdBackward1`: exact with zeros, from prefix and suffix products).
    pub fn prod_dim(&self, dim: i64, keepdim: bool) -> Result<Tensor, Error> {
        let d = wrap_dim(dim, self.dim())?;
        let out = self.reduce_values(Reduction::Prod, &[dim], keepdim)?;
        let saved = SavedTensor::new(self);
        let meta = autograd::record(&[self], || {
            Backward::saving("ProdBackward1", move |grad| {
                let x = saved.unpack()?;
                // Along `d`, each element's gradient is the product of all the others.
                let moved = x.movedim(&[d as i64], &[-1])?.contiguous()?;
                let n = moved.shape().last().copied().unwrap_or(1).max(1);
                let values: Vec<f64> = moved
                    .kernel_scalars()?
                    .into_iter()
                    .map(Scalar::as_f64)
                    .collect();
                let mut others = Vec::with_capacity(values.len());
                for row in values.chunks(n) {
                    let mut prefix = vec![1.0; n + 1];
                    let mut suffix = vec![1.0; n + 1];
                    for i in 0..row.len() {
                        prefix[i + 1] = prefix[i] * row[i];
                        suffix[row.len() - 1 - i] = suffix[row.len() - i] * row[row.len() - 1 - i];
                    }
                    others.extend((0..row.len()).map(|i| Scalar::Float(prefix[i] * suffix[i + 1])));
                }
                let others = Tensor::from_values(
                    x.session(),
                    &others,
                    moved.shape(),
                    grad.dtype(),
                    x.device(),
                    "prod_backward",
                )?
                .movedim(&[-1], &[d as i64])?;
                let spread = grad.kept_dims(x.shape(), &[d as i64], keepdim)?;
                Ok(vec![Some(others.mul(&spread)?)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `logsumexp(dim, keepdim)`: `log(sum(exp(x)))`, computed from the largest value so that
    /// it does not overflow; integers count as the default float (`LogsumexpBackward0`).
    pub fn logsumexp(&self, dims: &[i64], keepdim: bool) -> Result<Tensor, Error> {
        let x = match self.dtype().is_floating_point() {
            true => self.clone(),
            false => self.to_dtype(self.session().default_dtype())?,
        };
        let out = self.session().no_grad(|| -> Result<Tensor, Error> {
            let top = x.amax(dims, true)?;
            // An infinite maximum shifts nothing (inf - inf would be NaN).
            let finite = top
                .math(Unary::Abs)?
                .compare(Binary::Eq, Scalar::Float(f64::INFINITY))?;
            let zero = Tensor::full(
                x.session(),
                &[],
                Scalar::Int(0),
                x.dtype(),
                crate::Device::CPU,
            )?;
            let shift = Tensor::where_(&finite, &zero, &top)?;
            let summed = x.sub(&shift)?.exp()?.sum(dims, true)?.log()?.add(&shift)?;
            match keepdim {
                true => Ok(summed),
                false => {
                    let shape: Vec<i64> = x.reduced_shape(dims)?;
                    summed.reshape(&shape)
                }
            }
        })?;
        let (saved, value, dims) = (SavedTensor::new(&x), out.detach(), dims.to_vec());
        let meta = autograd::record(&[&x], || {
            Backward::saving("LogsumexpBackward0", move |grad| {
                let x = saved.unpack()?;
                let shape = x.shape().to_vec();
                let weights = x.sub(&value.kept_dims(&shape, &dims, keepdim)?)?.exp()?;
                Ok(vec![Some(
                    weights.mul(&grad.kept_dims(&shape, &dims, keepdim)?)?,
                )])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// The shape of a reduction over `dims` without `keepdim`.
    fn reduced_shape(&self, dims: &[i64]) -> Result<Vec<i64>, Error> {
        let reduced: Vec<usize> = match dims.is_empty() {
            true => (0..self.dim()).collect(),
            false => dims
                .iter()
                .map(|&d| wrap_dim(d, self.dim()))
                .collect::<Result<_, _>>()?,
        };
        Ok((0..self.dim())
            .filter(|d| !reduced.contains(d))
            .map(|d| self.shape()[d] as i64)
            .collect())
    }

    /// `nansum(dim, keepdim)`: the sum with NaNs counted as zero (`NansumBackward0`).
    pub fn nansum(&self, dims: &[i64], keepdim: bool) -> Result<Tensor, Error> {
        if !self.dtype().is_floating_point() {
            return self.sum(dims, keepdim);
        }
        let present = self.session().no_grad(|| self.compare(Binary::Eq, self))?;
        let out = self.session().no_grad(|| {
            let zero = Tensor::full(
                self.session(),
                &[],
                Scalar::Int(0),
                self.dtype(),
                crate::Device::CPU,
            )?;
            Tensor::where_(&present, self, &zero)?.sum(dims, keepdim)
        })?;
        let (shape, dims) = (self.shape().to_vec(), dims.to_vec());
        let present = SavedTensor::new(&present);
        let meta = autograd::record(&[self], || {
            Backward::saving("NansumBackward0", move |grad| {
                let spread = grad.kept_dims(&shape, &dims, keepdim)?;
                Ok(vec![Some(
                    spread.mul(&present.unpack()?.to_dtype(grad.dtype())?)?,
                )])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `nanmean(dim, keepdim)`: the mean of the values that are not NaN (`nansum` divided by
    /// their count, as PyTorch composes it).
    pub fn nanmean(&self, dims: &[i64], keepdim: bool) -> Result<Tensor, Error> {
        if !self.dtype().is_floating_point() {
            return Err(ReduceError::NeedsFloat {
                op: "nanmean",
                dtype: self.dtype().scalar_type_name(),
            }
            .into());
        }
        let count = self
            .session()
            .no_grad(|| self.compare(Binary::Eq, self)?.sum(dims, keepdim))?;
        self.nansum(dims, keepdim)?.div(&count)
    }

    /// `count_nonzero(dim)`: how many elements are not zero (int64).
    pub fn count_nonzero(&self, dims: &[i64]) -> Result<Tensor, Error> {
        self.session()
            .no_grad(|| self.compare(Binary::Ne, Scalar::Int(0))?.sum(dims, false))
    }

    /// `std_mean(dim, correction, keepdim)`: both, each under `StdMeanBackward0` (PyTorch's one
    /// node with two outputs).
    pub fn std_mean(
        &self,
        dims: &[i64],
        correction: f64,
        keepdim: bool,
    ) -> Result<(Tensor, Tensor), Error> {
        let std = self.std(dims, correction, keepdim)?;
        self.with_mean(std, dims, keepdim, "StdMeanBackward0")
    }

    /// `var_mean(dim, correction, keepdim)` (`VarMeanBackward0`).
    pub fn var_mean(
        &self,
        dims: &[i64],
        correction: f64,
        keepdim: bool,
    ) -> Result<(Tensor, Tensor), Error> {
        let var = self.var(dims, correction, keepdim)?;
        self.with_mean(var, dims, keepdim, "VarMeanBackward0")
    }

    /// A spread and the mean, both under the one node `name`.
    fn with_mean(
        &self,
        spread: Tensor,
        dims: &[i64],
        keepdim: bool,
        name: &'static str,
    ) -> Result<(Tensor, Tensor), Error> {
        let mean = self.mean(dims, keepdim)?;
        Ok((
            autograd::renamed(&spread, name),
            autograd::renamed(&mean, name),
        ))
    }

    /// `sum`, `mean` or `prod` with `dtype=`: the input cast first, as PyTorch casts it.
    pub fn cast_for_reduction(&self, dtype: Option<DType>) -> Result<Tensor, Error> {
        match dtype {
            Some(dtype) => self.to_dtype_if_needed(dtype),
            None => Ok(self.clone()),
        }
    }
}
