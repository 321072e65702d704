//! Scans along a dim: `cumsum`, `cumprod`, `cummax`, `cummin`, in order from the first element,
//! as PyTorch's CPU kernels add and multiply them.
//!
//! A float `cumsum` on a GPU is a product with a triangle of ones (each output sums the inputs
//! before it, in order, as the sequential scan does); the others run on the host, on a GPU
//! device as a stand-in that the trace labels.

use crate::autograd::{self, Backward, SavedTensor};
use crate::dtype::DType;
use crate::element::Scalar;
use crate::error::Error;
use crate::layout::wrap_dim;
use crate::tensor::Tensor;

/// Which scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scan {
    Sum,
    Prod,
    Max,
    Min,
}

impl Tensor {
    /// `cumsum(dim, dtype)`: running sums; integers and bools sum in int64 (`CumsumBackward0`:
    /// the gradient's running sums from the end).
    pub fn cumsum(&self, dim: i64, dtype: Option<DType>) -> Result<Tensor, Error> {
        let x = self.scan_input(dtype)?;
        let d = wrap_dim(dim, x.dim())?;
        let out = x.session().no_grad(|| x.scanned(d, Scan::Sum))?.0;
        let meta = autograd::record(&[&x], || {
            Backward::new("CumsumBackward0", move |grad| {
                let reversed = grad.flip(&[d as i64])?;
                Ok(vec![Some(
                    reversed.cumsum(d as i64, None)?.flip(&[d as i64])?,
                )])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `cumprod(dim, dtype)` (`CumprodBackward0`).
    pub fn cumprod(&self, dim: i64, dtype: Option<DType>) -> Result<Tensor, Error> {
        let x = self.scan_input(dtype)?;
        let d = wrap_dim(dim, x.dim())?;
        let out = x.session().no_grad(|| x.scanned(d, Scan::Prod))?.0;
        let saved = SavedTensor::new(&x);
        let meta = autograd::record(&[&x], || {
            Backward::saving("CumprodBackward0", move |grad| {
                // Each input's gradient is the sum, over the outputs after it, of the gradient
                // times the product of the other inputs up to there: computed exactly (zeros
                // included) as the running products around each position.
                Ok(vec![Some(cumprod_gradient(saved.unpack()?, grad, d)?)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `cummax(dim)`: the running maxima and where each was first reached
    /// (`CummaxBackward0`).
    pub fn cummax(&self, dim: i64) -> Result<(Tensor, Tensor), Error> {
        self.running_extreme(dim, Scan::Max)
    }

    /// `cummin(dim)` (`CumminBackward0`).
    pub fn cummin(&self, dim: i64) -> Result<(Tensor, Tensor), Error> {
        self.running_extreme(dim, Scan::Min)
    }

    fn running_extreme(&self, dim: i64, scan: Scan) -> Result<(Tensor, Tensor), Error> {
        let d = wrap_dim(dim, self.dim())?;
        let (values, indices) = self.session().no_grad(|| self.scanned(d, scan))?;
        let indices = indices.ok_or(Error::NoTensorOperand)?;
        let name = if scan == Scan::Max {
            "CummaxBackward0"
        } else {
            "CumminBackward0"
        };
        let (at, shape) = (indices.clone(), self.shape().to_vec());
        let meta = autograd::record(&[self], || {
            Backward::new(name, move |grad| {
                let zeros = Tensor::full(
                    grad.session(),
                    &shape,
                    Scalar::Int(0),
                    grad.dtype(),
                    grad.device(),
                )?;
                Ok(vec![Some(zeros.scatter_add(d as i64, &at, grad)?)])
            })
        });
        Ok((values.with_autograd(meta), indices))
    }

    /// The input of a scan: cast to `dtype`, or integers (and bools) widened to int64.
    fn scan_input(&self, dtype: Option<DType>) -> Result<Tensor, Error> {
        match dtype {
            Some(dtype) => self.to_dtype_if_needed(dtype),
            None if !self.dtype().is_floating_point() => self.to_dtype_if_needed(DType::Int64),
            None => Ok(self.clone()),
        }
    }

    /// The scan's values (and, for the running extremes, their positions), nothing recorded.
    fn scanned(&self, d: usize, scan: Scan) -> Result<(Tensor, Option<Tensor>), Error> {
        if self.dim() == 0 {
            let positions = (scan == Scan::Max || scan == Scan::Min)
                .then(|| {
                    Tensor::full(
                        self.session(),
                        &[],
                        Scalar::Int(0),
                        DType::Int64,
                        self.device(),
                    )
                })
                .transpose()?;
            return Ok((self.clone_tensor()?, positions));
        }
        if scan == Scan::Sum && self.dtype().is_floating_point() && !self.device().is_cpu() {
            // Row k of the triangle has ones from k on: output j sums inputs 0..=j in order.
            let n = self.shape()[d];
            let triangle = Tensor::full(
                self.session(),
                &[n, n],
                Scalar::Int(1),
                self.dtype(),
                self.device(),
            )?
            .triangle(true, 0)?;
            let moved = self.movedim(&[d as i64], &[-1])?;
            return Ok((moved.matmul(&triangle)?.movedim(&[-1], &[d as i64])?, None));
        }
        let moved = self.movedim(&[d as i64], &[-1])?.contiguous()?;
        let n = moved.shape().last().copied().unwrap_or(1).max(1);
        let values = moved.kernel_scalars()?;
        let mut out = Vec::with_capacity(values.len());
        let mut positions = Vec::with_capacity(values.len());
        for row in values.chunks(n) {
            let (mut acc, mut at) = (row.first().copied().unwrap_or(Scalar::Int(0)), 0usize);
            for (i, &x) in row.iter().enumerate() {
                if i > 0 {
                    match scan {
                        Scan::Sum => acc = add(acc, x),
                        Scan::Prod => acc = mul(acc, x),
                        // A later equal value (or a NaN, which stays) moves the position on,
                        // as PyTorch's kernel does.
                        Scan::Max | Scan::Min => {
                            let (a, b) = (acc.as_f64(), x.as_f64());
                            let better = match scan {
                                Scan::Max => b >= a || b.is_nan(),
                                _ => b <= a || b.is_nan(),
                            };
                            if better && !a.is_nan() {
                                acc = x;
                                at = i;
                            }
                        }
                    }
                }
                out.push(acc);
                positions.push(Scalar::Int(at as i64));
            }
        }
        let dtype = self.dtype();
        let values = Tensor::from_values(
            self.session(),
            &out,
            moved.shape(),
            dtype,
            self.device(),
            "cumsum",
        )?
        .movedim(&[-1], &[d as i64])?
        .contiguous()?;
        let positions = match scan {
            Scan::Max | Scan::Min => Some(
                Tensor::from_values(
                    self.session(),
                    &positions,
                    moved.shape(),
                    DType::Int64,
                    self.device(),
                    "cummax",
                )?
                .movedim(&[-1], &[d as i64])?
                .contiguous()?,
            ),
            _ => None,
        };
        Ok((values, positions))
    }
}

fn add(a: Scalar, b: Scalar) -> Scalar {
    match (a, b) {
        (Scalar::Int(x), Scalar::Int(y)) => Scalar::Int(x.wrapping_add(y)),
        (x, y) => Scalar::Float(x.as_f64() + y.as_f64()),
    }
}

fn mul(a: Scalar, b: Scalar) -> Scalar {
    match (a, b) {
        (Scalar::Int(x), Scalar::Int(y)) => Scalar::Int(x.wrapping_mul(y)),
        (x, y) => Scalar::Float(x.as_f64() * y.as_f64()),
    }
}

/// `cumprod`'s gradient along `d`: for input `k`, the sum over outputs `j ≥ k` of
/// `grad[j] · Π_{i ≤ j, i ≠ k} x[i]`.
fn cumprod_gradient(x: &Tensor, grad: &Tensor, d: usize) -> Result<Tensor, Error> {
    if x.dim() == 0 {
        return Ok(grad.clone());
    }
    let moved = x.movedim(&[d as i64], &[-1])?.contiguous()?;
    let g = grad.movedim(&[d as i64], &[-1])?.contiguous()?;
    let n = moved.shape().last().copied().unwrap_or(1).max(1);
    let xs: Vec<f64> = moved
        .kernel_scalars()?
        .into_iter()
        .map(Scalar::as_f64)
        .collect();
    let gs: Vec<f64> = g
        .kernel_scalars()?
        .into_iter()
        .map(Scalar::as_f64)
        .collect();
    let mut out = Vec::with_capacity(xs.len());
    for (row, grow) in xs.chunks(n).zip(gs.chunks(n)) {
        for k in 0..row.len() {
            let mut total = 0.0;
            let mut before: f64 = row[..k].iter().product();
            for j in k..row.len() {
                if j > k {
                    before *= row[j];
                }
                total += grow[j] * before;
            }
            out.push(Scalar::Float(total));
        }
    }
    Tensor::from_values(
        x.session(),
        &out,
        moved.shape(),
        grad.dtype(),
        grad.device(),
        "cumprod_backward",
    )?
    .movedim(&[-1], &[d as i64])?
    .contiguous()
}
