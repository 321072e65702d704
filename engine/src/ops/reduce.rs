//! Reductions: `sum`, `mean`, `var`, `std`, and the sum that undoes broadcasting in backward
//! passes.

use crate::autograd::{self, Backward};
use crate::backend::cpu::elementwise::Binary;
use crate::backend::cpu::elementwise::{LaneKind, Lanes};
use crate::backend::cpu::reduce::{Reduction, arg_extreme, reduce};
use crate::backend::cpu::unary::Unary;
use crate::dtype::DType;
use crate::error::{Error, ReduceError};
use crate::layout::wrap_dim;
use crate::tensor::Tensor;

use super::elementwise::{binary_values, unary_values};

impl Tensor {
    /// `sum()` over everything (`dims` empty) or over `dims`; integers and bools sum to int64.
    pub fn sum(&self, dims: &[i64], keepdim: bool) -> Result<Tensor, Error> {
        if let Some(cast) =
            crate::amp::autocast_inputs(crate::amp::CastPolicy::Float32Gpu, &[self])?
        {
            return cast[0].sum(dims, keepdim);
        }

        let out = self.reduce_values(Reduction::Sum, dims, keepdim)?;
        let (shape, reduced) = (self.shape().to_vec(), self.reduced_dims(dims)?);
        let name = if dims.is_empty() {
            "SumBackward0"
        } else {
            "SumBackward1"
        };
        let meta = autograd::record(&[self], || {
            Backward::new(name, move |grad| {
                Ok(vec![Some(expand_back(grad, &shape, &reduced, keepdim)?)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `mean()`: floating point only, as in PyTorch.
    pub fn mean(&self, dims: &[i64], keepdim: bool) -> Result<Tensor, Error> {
        if !self.dtype().is_floating_point() {
            return Err(Error::MeanNeedsFloat {
                dtype: self.dtype(),
            });
        }
        let reduced = self.reduced_dims(dims)?;
        let count = self.reduced_count(&reduced);
        let total = self.reduce_values(Reduction::Sum, dims, keepdim)?;
        let out = total.div_values_by(count as f64)?;
        let shape = self.shape().to_vec();
        let name = if dims.is_empty() {
            "MeanBackward0"
        } else {
            "MeanBackward1"
        };
        let meta = autograd::record(&[self], || {
            Backward::new(name, move |grad| {
                Ok(vec![Some(
                    expand_back(grad, &shape, &reduced, keepdim)?.div_values_by(count as f64)?,
                )])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `var(dim, correction=1, keepdim)`: the spread of the values over `dims` (all when empty),
    /// divided by their count less `correction` (Bessel's correction by default).
    pub fn var(&self, dims: &[i64], correction: f64, keepdim: bool) -> Result<Tensor, Error> {
        self.spread(Spread::Var, dims, correction, keepdim)
    }

    /// `std(dim, correction=1, keepdim)`: the square root of [`Tensor::var`].
    pub fn std(&self, dims: &[i64], correction: f64, keepdim: bool) -> Result<Tensor, Error> {
        self.spread(Spread::Std, dims, correction, keepdim)
    }

    fn spread(
        &self,
        kind: Spread,
        dims: &[i64],
        correction: f64,
        keepdim: bool,
    ) -> Result<Tensor, Error> {
        if !self.dtype().is_floating_point() {
            return Err(Error::SpreadNeedsFloat);
        }
        let reduced = self.reduced_dims(dims)?;
        let count = self.reduced_count(&reduced);
        let freedom = count as f64 - correction;
        if freedom <= 0.0 {
            self.session().warn(&format!(
                "{}(): degrees of freedom is <= 0. Correction should be strictly less than the \
                 reduction factor (input numel divided by output numel).",
                kind.function()
            ));
        }
        let freedom = freedom.max(0.0);
        let mean = self
            .reduce_values(Reduction::Sum, dims, true)?
            .div_values_by(count as f64)?;
        let centred = binary_values(Binary::Sub, self.into(), (&mean).into())?;
        let squares = binary_values(Binary::Mul, (&centred).into(), (&centred).into())?;
        let var = squares
            .reduce_values(Reduction::Sum, dims, keepdim)?
            .div_values_by(freedom)?;
        let out = match kind {
            Spread::Var => var,
            Spread::Std => unary_values(Unary::Sqrt, &var)?,
        };
        // d var / dx = 2 (x - mean) / freedom; d std / dx = (x - mean) / (freedom * std).
        let shape = self.shape().to_vec();
        let result = out.clone();
        let meta = autograd::record(&[self], || {
            Backward::new(kind.node(), move |grad| {
                let spread = expand_back(grad, &shape, &reduced, keepdim)?;
                let scaled = binary_values(Binary::Mul, (&spread).into(), (&centred).into())?;
                let grad = match kind {
                    Spread::Var => scaled.div_values_by(freedom / 2.0)?,
                    Spread::Std => {
                        let std = expand_back(&result, &shape, &reduced, keepdim)?;
                        binary_values(Binary::Div, (&scaled).into(), (&std).into())?
                            .div_values_by(freedom)?
                    }
                };
                Ok(vec![Some(grad)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// Sums a broadcast gradient back down to `shape` (leading dimensions and expanded size-1 ones).
    pub(crate) fn sum_to_shape(&self, shape: &[usize]) -> Result<Tensor, Error> {
        if self.shape() == shape {
            return Ok(self.clone());
        }
        let lead = self.dim() - shape.len();
        let dims: Vec<i64> = (0..self.dim())
            .filter(|&d| d < lead || (shape[d - lead] == 1 && self.shape()[d] != 1))
            .map(|d| d as i64)
            .collect();
        let summed = self.reduce_values(Reduction::Sum, &dims, true)?;
        let target: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
        summed.view(&target)
    }

    /// How many elements each result of a reduction over `reduced` combines (a 0-dim tensor's
    /// one dimension, which `dim=0` names, counts as size 1).
    fn reduced_count(&self, reduced: &[usize]) -> usize {
        reduced
            .iter()
            .map(|&d| self.shape().get(d).copied().unwrap_or(1))
            .product()
    }

    /// The dimensions `dims` names (all of them when empty), wrapped and deduplicated.
    fn reduced_dims(&self, dims: &[i64]) -> Result<Vec<usize>, Error> {
        if dims.is_empty() {
            return Ok((0..self.dim()).collect());
        }
        let mut wrapped = dims
            .iter()
            .map(|&d| wrap_dim(d, self.dim()))
            .collect::<Result<Vec<_>, _>>()?;
        wrapped.sort_unstable();
        wrapped.dedup();
        Ok(wrapped)
    }

    pub(super) fn reduce_values(
        &self,
        op: Reduction,
        dims: &[i64],
        keepdim: bool,
    ) -> Result<Tensor, Error> {
        let reduced = self.reduced_dims(dims)?;
        let out_dtype = if self.dtype().is_floating_point() {
            self.dtype()
        } else {
            DType::Int64
        };
        let shape: Vec<usize> = self
            .shape()
            .iter()
            .enumerate()
            .filter_map(|(d, &s)| match (reduced.contains(&d), keepdim) {
                (false, _) => Some(s),
                (true, true) => Some(1),
                (true, false) => None,
            })
            .collect();
        if self.device() == crate::Device::META {
            return super::elementwise::meta_result(self.session(), &shape, out_dtype);
        }
        let name = match op {
            Reduction::Sum => "sum",
            Reduction::Prod => "prod",
            Reduction::Max => "amax",
            Reduction::Min => "amin",
        };
        if let Some(result) = super::gpu::reduce(self, op, &reduced, &shape, out_dtype) {
            super::elementwise::record_gpu_kernel(self.session(), self.device(), name);
            return result;
        }
        let lanes =
            self.read(|cpu| Lanes::gather(cpu, self.layout(), LaneKind::of(self.dtype())))?;
        let result = reduce(op, &lanes, self.shape(), &reduced);
        Tensor::from_cpu_data(
            self.session(),
            result.into_storage(out_dtype),
            &shape,
            self.device(),
            name,
        )
    }

    fn div_values_by(&self, divisor: f64) -> Result<Tensor, Error> {
        super::elementwise::binary_values(
            crate::backend::cpu::elementwise::Binary::Div,
            self.into(),
            crate::Scalar::Float(divisor).into(),
        )
    }
}

/// The two measures of spread, which share their computation.
#[derive(Debug, Clone, Copy)]
enum Spread {
    Var,
    Std,
}

impl Spread {
    fn function(self) -> &'static str {
        match self {
            Spread::Var => "var",
            Spread::Std => "std",
        }
    }

    fn node(self) -> &'static str {
        match self {
            Spread::Var => "VarBackward0",
            Spread::Std => "StdBackward0",
        }
    }
}

/// The backward of a reduction: the gradient spread back over the reduced dimensions.
fn expand_back(
    grad: &Tensor,
    shape: &[usize],
    reduced: &[usize],
    keepdim: bool,
) -> Result<Tensor, Error> {
    let kept = if keepdim {
        grad.clone()
    } else {
        let with_ones: Vec<i64> = (0..shape.len())
            .map(|d| {
                if reduced.contains(&d) {
                    1
                } else {
                    shape[d] as i64
                }
            })
            .collect();
        grad.reshape(&with_ones)?
    };
    let sizes: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
    kept.expand(&sizes)?.contiguous()
}

/// `max`, `min`, `argmax`, `argmin` and `prod`.
impl Tensor {
    /// `max()` over every element (`MaxBackward1`: ties share the gradient).
    pub fn max(&self) -> Result<Tensor, Error> {
        self.extreme_all(true)
    }

    /// `min()` over every element (`MinBackward1`).
    pub fn min(&self) -> Result<Tensor, Error> {
        self.extreme_all(false)
    }

    fn extreme_all(&self, largest: bool) -> Result<Tensor, Error> {
        let name = if largest { "max" } else { "min" };
        if self.numel() == 0 {
            return Err(Error::EmptyReduction { op: name });
        }
        let out = self
            .reduce_values(
                if largest {
                    Reduction::Max
                } else {
                    Reduction::Min
                },
                &[],
                false,
            )?
            // Integers reduce in 64-bit lanes; the extreme keeps the input's dtype.
            .to_dtype_if_needed(self.dtype())?;
        let (saved, value) = (crate::autograd::SavedTensor::new(self), out.detach());
        let meta = autograd::record(&[self], || {
            Backward::saving(
                if largest {
                    "MaxBackward1"
                } else {
                    "MinBackward1"
                },
                move |grad| {
                    let x = saved.unpack()?;
                    let hits =
                        super::elementwise::binary_values(Binary::Eq, x.into(), (&value).into())?
                            .to_dtype(grad.dtype())?;
                    let count = hits.reduce_values(Reduction::Sum, &[], false)?;
                    let share = super::elementwise::binary_values(
                        Binary::Div,
                        grad.into(),
                        (&count).into(),
                    )?;
                    Ok(vec![Some(super::elementwise::binary_values(
                        Binary::Mul,
                        (&hits).into(),
                        (&share).into(),
                    )?)])
                },
            )
        });
        Ok(out.with_autograd(meta))
    }

    /// `max(dim, keepdim)`: the values (`MaxBackward0`) and the indices where they are.
    pub fn max_dim(&self, dim: i64, keepdim: bool) -> Result<(Tensor, Tensor), Error> {
        self.extreme_dim(dim, keepdim, true)
    }

    /// `min(dim, keepdim)` (`MinBackward0`).
    pub fn min_dim(&self, dim: i64, keepdim: bool) -> Result<(Tensor, Tensor), Error> {
        self.extreme_dim(dim, keepdim, false)
    }

    fn extreme_dim(
        &self,
        dim: i64,
        keepdim: bool,
        largest: bool,
    ) -> Result<(Tensor, Tensor), Error> {
        let indices = self.arg_extreme(Some(dim), true, largest)?;
        let d = wrap_dim(dim, self.dim())?;
        let values = self
            .reduce_values(
                if largest {
                    Reduction::Max
                } else {
                    Reduction::Min
                },
                &[dim],
                true,
            )?
            .to_dtype_if_needed(self.dtype())?;
        let (values, indices) = if keepdim || self.dim() == 0 {
            (values, indices)
        } else {
            (
                values.squeeze(Some(d as i64))?,
                indices.squeeze(Some(d as i64))?,
            )
        };
        let (shape, at) = (self.shape().to_vec(), indices.clone());
        let meta = autograd::record(&[self], || {
            Backward::new(
                if largest {
                    "MaxBackward0"
                } else {
                    "MinBackward0"
                },
                move |grad| {
                    Ok(vec![Some(spread_to_indices(
                        grad, &at, &shape, d, keepdim,
                    )?)])
                },
            )
        });
        Ok((values.detach().with_autograd(meta), indices))
    }

    /// `argmax(dim=None, keepdim=False)`.
    pub fn argmax(&self, dim: Option<i64>, keepdim: bool) -> Result<Tensor, Error> {
        self.arg_extreme(dim, keepdim, true)
    }

    /// `argmin(dim=None, keepdim=False)`.
    pub fn argmin(&self, dim: Option<i64>, keepdim: bool) -> Result<Tensor, Error> {
        self.arg_extreme(dim, keepdim, false)
    }

    fn arg_extreme(&self, dim: Option<i64>, keepdim: bool, largest: bool) -> Result<Tensor, Error> {
        let (source, d) = match dim {
            Some(dim) => (self.clone(), wrap_dim(dim, self.dim())?),
            None => (self.reshape(&[-1])?.detach(), 0),
        };
        let op = if largest { "argmax" } else { "argmin" };
        if source.numel() == 0 {
            return Err(match dim {
                None => ReduceError::ArgEmpty { op },
                Some(_) => ReduceError::EmptyDim { op, dim: d },
            }
            .into());
        }
        let shape = if source.dim() == 0 {
            vec![1]
        } else {
            source.shape().to_vec()
        };
        let mut out_shape = shape.clone();
        out_shape[d] = 1;
        let keep = keepdim && dim.is_some() && self.dim() > 0;
        let final_shape: Vec<usize> = if keep {
            out_shape
        } else {
            out_shape
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != d)
                .map(|(_, &s)| s)
                .collect()
        };
        let name = if largest { "argmax" } else { "argmin" };
        if source.dim() > 0
            && let Some(positions) = super::gpu::arg_extreme(&source, d, largest, &final_shape)
        {
            super::record_gpu_kernel(self.session(), self.device(), name);
            return positions;
        }
        let lanes =
            source.read(|cpu| Lanes::gather(cpu, source.layout(), LaneKind::of(source.dtype())))?;
        let values: Vec<crate::Scalar> = arg_extreme(&lanes, &shape, d, largest)
            .into_iter()
            .map(crate::Scalar::Int)
            .collect();
        let data = crate::storage::CpuStorage::from_scalars(DType::Int64, &values);
        Tensor::from_cpu_data(self.session(), data, &final_shape, self.device(), name)
    }

    /// `prod()` over every element (`ProdBackward0`; exact with zeros, from prefix and suffix
    /// products).
    pub fn prod(&self) -> Result<Tensor, Error> {
        if let Some(cast) = crate::amp::autocast_inputs(crate::amp::CastPolicy::Float32, &[self])? {
            return cast[0].prod();
        }

        let out = self.reduce_values(Reduction::Prod, &[], false)?;
        let saved = crate::autograd::SavedTensor::new(self);
        let meta = autograd::record(&[self], || {
            Backward::saving("ProdBackward0", move |grad| {
                let x = saved.unpack()?;
                let values: Vec<f64> = x
                    .kernel_scalars()?
                    .into_iter()
                    .map(crate::Scalar::as_f64)
                    .collect();
                let n = values.len();
                let mut prefix = vec![1.0; n + 1];
                let mut suffix = vec![1.0; n + 1];
                for i in 0..n {
                    prefix[i + 1] = prefix[i] * values[i];
                    suffix[n - 1 - i] = suffix[n - i] * values[n - 1 - i];
                }
                let others: Vec<crate::Scalar> = (0..n)
                    .map(|i| crate::Scalar::Float(prefix[i] * suffix[i + 1]))
                    .collect();
                let others = Tensor::from_values(
                    x.session(),
                    &others,
                    x.shape(),
                    x.dtype(),
                    x.device(),
                    "prod_backward",
                )?;
                Ok(vec![Some(super::elementwise::binary_values(
                    Binary::Mul,
                    grad.into(),
                    (&others).into(),
                )?)])
            })
        });
        Ok(out.with_autograd(meta))
    }
}

/// The gradient of a `max(dim)`-like op: each incoming value placed at its index along `dim`.
fn spread_to_indices(
    grad: &Tensor,
    indices: &Tensor,
    shape: &[usize],
    dim: usize,
    keepdim: bool,
) -> Result<Tensor, Error> {
    let (grad, indices) = if keepdim || shape.is_empty() {
        (grad.clone(), indices.clone())
    } else {
        (grad.unsqueeze(dim as i64)?, indices.unsqueeze(dim as i64)?)
    };
    let sizes: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
    let mut iota_shape = vec![1i64; shape.len().max(1)];
    if !shape.is_empty() {
        iota_shape[dim] = shape[dim] as i64;
    }
    let positions = Tensor::arange(
        grad.session(),
        crate::Scalar::Int(0),
        crate::Scalar::Int(shape.get(dim).copied().unwrap_or(1) as i64),
        crate::Scalar::Int(1),
        None,
        grad.device(),
    )?
    .view(&iota_shape)?;
    let hits =
        super::elementwise::binary_values(Binary::Eq, (&positions).into(), (&indices).into())?
            .to_dtype(grad.dtype())?;
    let spread = super::elementwise::binary_values(Binary::Mul, (&hits).into(), (&grad).into())?;
    if shape.is_empty() {
        spread.reshape(&[])
    } else {
        spread.expand(&sizes)?.contiguous()
    }
}
