//! Reductions: `sum`, `mean`, and the sum that undoes broadcasting in backward passes.

use crate::autograd::{self, Backward};
use crate::backend::cpu::elementwise::{LaneKind, Lanes};
use crate::backend::cpu::reduce::{Reduction, reduce};
use crate::dtype::DType;
use crate::error::Error;
use crate::layout::wrap_dim;
use crate::tensor::Tensor;

impl Tensor {
    /// `sum()` over everything (`dims` empty) or over `dims`; integers and bools sum to int64.
    pub fn sum(&self, dims: &[i64], keepdim: bool) -> Result<Tensor, Error> {
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
        let count: usize = reduced.iter().map(|&d| self.shape()[d]).product();
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

    fn reduce_values(&self, op: Reduction, dims: &[i64], keepdim: bool) -> Result<Tensor, Error> {
        let reduced = self.reduced_dims(dims)?;
        let out_dtype = if self.dtype().is_floating_point() {
            self.dtype()
        } else {
            DType::Int64
        };
        let lanes =
            self.read(|cpu| Lanes::gather(cpu, self.layout(), LaneKind::of(self.dtype())))?;
        let result = reduce(op, &lanes, self.shape(), &reduced);
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
        super::elementwise::record_kernel(self.session(), self.device(), "sum");
        Tensor::from_cpu_data(
            self.session(),
            result.into_storage(out_dtype),
            &shape,
            self.device(),
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
