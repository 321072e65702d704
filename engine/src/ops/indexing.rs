//! Joining and picking: `cat`, `stack`, `where`, `gather`, `index_select`, `masked_fill`.
//!
//! `cat` and `where` (with `masked_fill`) run as GPU kernels on GPU tensors. The others work
//! element by element on row-major positions on the host: lessons use them on small tensors, and
//! the bounds checks (which PyTorch's CPU kernels also make, raising instead of truncating) are
//! what matters.

use crate::autograd::{self, Backward, SavedTensor};
use crate::backend::cpu::elementwise::{Binary, LaneKind};
use crate::backend::gpu::Elementwise;
use crate::dtype::{DType, promote_types};
use crate::element::Scalar;
use crate::error::Error;
use crate::layout::{broadcast_shapes, contiguous_strides, wrap_dim};
use crate::tensor::Tensor;

use super::elementwise::{Operand, binary_values};
use super::gpu::{Input, Launch};

/// The row-major position of a multi-index.
fn flat_index(index: &[usize], strides: &[usize]) -> usize {
    index.iter().zip(strides).map(|(i, s)| i * s).sum()
}

/// Calls `f` with every multi-index of `shape`, in row-major order.
fn for_each_index(shape: &[usize], mut f: impl FnMut(&[usize])) {
    let n: usize = shape.iter().product();
    let mut index = vec![0usize; shape.len()];
    for _ in 0..n {
        f(&index);
        for d in (0..shape.len()).rev() {
            index[d] += 1;
            if index[d] < shape[d] {
                break;
            }
            index[d] = 0;
        }
    }
}

fn index_values(index: &Tensor) -> Result<Vec<i64>, Error> {
    Ok(index
        .kernel_scalars()?
        .into_iter()
        .map(|s| match s {
            Scalar::Int(i) => i,
            other => other.as_f64() as i64,
        })
        .collect())
}

/// A gradient of `shape` from accumulated sums, in the incoming gradient's dtype and device.
pub(super) fn gradient_from_sums(
    grad: &Tensor,
    sums: Vec<f64>,
    shape: &[usize],
) -> Result<Tensor, Error> {
    let sums: Vec<Scalar> = sums.into_iter().map(Scalar::Float).collect();
    Tensor::from_values(
        grad.session(),
        &sums,
        shape,
        grad.dtype(),
        grad.device(),
        "index_backward",
    )
}

impl Tensor {
    /// `torch.cat(tensors, dim)`: dtypes promoted, shapes equal except along `dim`.
    pub fn cat(tensors: &[&Tensor], dim: i64) -> Result<Tensor, Error> {
        let first = tensors.first().ok_or(Error::CatEmpty)?;
        let ndim = first.dim();
        for t in tensors {
            if t.dim() != ndim {
                return Err(Error::CatDims {
                    first: ndim,
                    other: t.dim(),
                });
            }
        }
        let d = wrap_dim(dim, ndim)?;
        let device = super::common_device(tensors)?;
        for (number, t) in tensors.iter().enumerate() {
            for axis in (0..ndim).filter(|&a| a != d) {
                if t.shape()[axis] != first.shape()[axis] {
                    return Err(Error::CatSizes {
                        dim: d,
                        expected: first.shape()[axis],
                        got: t.shape()[axis],
                        number,
                    });
                }
            }
        }
        let dtype = tensors
            .iter()
            .map(|t| t.dtype())
            .reduce(promote_types)
            .unwrap_or(DType::Float32);
        let mut shape = first.shape().to_vec();
        shape[d] = tensors.iter().map(|t| t.shape()[d]).sum();
        let out = match super::gpu::cat(tensors, d, &shape, dtype, device) {
            Some(out) => {
                super::record_gpu_kernel(first.session(), device, "cat");
                out?
            }
            None => cat_on_host(tensors, d, &shape, dtype, device)?,
        };
        let sizes: Vec<(usize, DType)> =
            tensors.iter().map(|t| (t.shape()[d], t.dtype())).collect();
        let meta = autograd::record(tensors, || {
            Backward::new("CatBackward0", move |grad| {
                let mut start = 0;
                sizes
                    .iter()
                    .map(|&(size, dtype)| {
                        let piece = grad
                            .slice(d as i64, Some(start as i64), Some((start + size) as i64), 1)?
                            .contiguous()?;
                        start += size;
                        Ok(Some(if piece.dtype() == dtype {
                            piece
                        } else {
                            piece.to_dtype(dtype)?
                        }))
                    })
                    .collect()
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `torch.stack(tensors, dim)`: equal shapes joined along a new dimension.
    pub fn stack(tensors: &[&Tensor], dim: i64) -> Result<Tensor, Error> {
        let first = tensors.first().ok_or(Error::StackEmpty)?;
        for (entry, t) in tensors.iter().enumerate() {
            if t.shape() != first.shape() {
                return Err(Error::StackSizes {
                    first: first.shape().to_vec(),
                    other: t.shape().to_vec(),
                    entry,
                });
            }
        }
        let session = first.session().clone();
        let d = wrap_dim(dim, first.dim() + 1)?;
        let out = session.no_grad(|| {
            let expanded = tensors
                .iter()
                .map(|t| t.unsqueeze(d as i64))
                .collect::<Result<Vec<_>, _>>()?;
            Tensor::cat(&expanded.iter().collect::<Vec<_>>(), d as i64)
        })?;
        let count = tensors.len();
        let meta = autograd::record(tensors, || {
            Backward::new("StackBackward0", move |grad| {
                (0..count)
                    .map(|i| Ok(Some(grad.select(d as i64, i as i64)?.contiguous()?)))
                    .collect()
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `torch.where(condition, self, other)`.
    pub fn where_(condition: &Tensor, x: &Tensor, y: &Tensor) -> Result<Tensor, Error> {
        if condition.dtype() != DType::Bool {
            return Err(Error::WhereCondition {
                dtype: condition.dtype(),
            });
        }
        let device = super::common_device(&[condition, x, y])?;
        let shape = broadcast_shapes(&broadcast_shapes(condition.shape(), x.shape())?, y.shape())?;
        let sizes: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
        let dtype = promote_types(x.dtype(), y.dtype());
        let kind = LaneKind::of(dtype);
        let launch = Launch {
            op: Elementwise::Where,
            compute: kind,
            kinds: &[LaneKind::Bool, kind, kind],
            shape: &shape,
            out_dtype: dtype,
        };
        let inputs = [Input::Tensor(condition), Input::Tensor(x), Input::Tensor(y)];
        let out = match super::gpu::elementwise(x.session(), device, launch, &inputs) {
            Some(out) => {
                super::record_gpu_kernel(x.session(), device, "where");
                out?
            }
            None => {
                let (c, a, b) = (
                    condition.expand(&sizes)?.kernel_scalars()?,
                    x.expand(&sizes)?.kernel_scalars()?,
                    y.expand(&sizes)?.kernel_scalars()?,
                );
                let values: Vec<Scalar> = c
                    .iter()
                    .zip(a.iter().zip(&b))
                    .map(|(c, (a, b))| if *c == Scalar::Bool(true) { *a } else { *b })
                    .collect();
                Tensor::from_values(x.session(), &values, &shape, dtype, device, "where")?
            }
        };
        let mask = SavedTensor::new(&condition.detach());
        let (x_shape, x_dtype, y_shape, y_dtype) =
            (x.shape().to_vec(), x.dtype(), y.shape().to_vec(), y.dtype());
        let meta = autograd::record(&[x, y], || {
            Backward::saving("WhereBackward0", move |grad| {
                let mask = mask.unpack()?.to_dtype(grad.dtype())?;
                let for_x = binary_values(Binary::Mul, grad.into(), (&mask).into())?;
                let inverse =
                    binary_values(Binary::Sub, Operand::Scalar(Scalar::Int(1)), (&mask).into())?;
                let for_y = binary_values(Binary::Mul, grad.into(), (&inverse).into())?;
                Ok(vec![
                    Some(super::elementwise::reduce_grad(&for_x, &x_shape, x_dtype)?),
                    Some(super::elementwise::reduce_grad(&for_y, &y_shape, y_dtype)?),
                ])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `torch.gather(self, dim, index)`: `out[i][j] = self[i][index[i][j]]` (for dim 1). Indices out of
    /// range raise, as PyTorch's CPU kernel does.
    pub fn gather(&self, dim: i64, index: &Tensor) -> Result<Tensor, Error> {
        if !matches!(index.dtype(), DType::Int64 | DType::Int32) {
            return Err(Error::GatherIndexDtype);
        }
        if index.dim() != self.dim() {
            return Err(Error::GatherIndexDims);
        }
        let d = wrap_dim(dim, self.dim())?;
        let device = super::common_device(&[self, index])?;
        for axis in (0..self.dim()).filter(|&a| a != d) {
            if index.shape()[axis] > self.shape()[axis] {
                return Err(Error::GatherSizes {
                    axis,
                    index: index.shape().to_vec(),
                    input: self.shape().to_vec(),
                    dim: d,
                });
            }
        }
        let size = self.shape()[d];
        let positions = checked_positions(
            self,
            index_values(index)?,
            size,
            "ScatterGatherKernel.cu: operator(): block: [0,0,0], thread: [0,0,0] Assertion `idx_dim >= 0 && idx_dim < index_size && \"index out of bounds\"` failed.",
            |bad| Error::IndexOutOfBounds {
                index: bad,
                dim: d,
                size,
            },
        )?;
        if size == 0 && !positions.is_empty() {
            return Tensor::full(
                self.session(),
                index.shape(),
                Scalar::Int(0),
                self.dtype(),
                device,
            );
        }
        let source = self.kernel_scalars()?;
        let strides = contiguous_strides(self.shape());
        let mut values = Vec::with_capacity(positions.len());
        let mut k = 0;
        for_each_index(index.shape(), |at| {
            let mut from = at.to_vec();
            from[d] = positions[k] as usize;
            values.push(source[flat_index(&from, &strides)]);
            k += 1;
        });
        let out = Tensor::from_values(
            self.session(),
            &values,
            index.shape(),
            self.dtype(),
            device,
            "gather",
        )?;
        let (shape, saved_index) = (self.shape().to_vec(), positions);
        let index_shape = index.shape().to_vec();
        let meta = autograd::record(&[self], || {
            Backward::new("GatherBackward0", move |grad| {
                let g = grad.kernel_scalars()?;
                let strides = contiguous_strides(&shape);
                let mut sums = vec![0.0f64; shape.iter().product()];
                let mut k = 0;
                for_each_index(&index_shape, |at| {
                    let mut to = at.to_vec();
                    to[d] = saved_index[k] as usize;
                    sums[flat_index(&to, &strides)] += g[k].as_f64();
                    k += 1;
                });
                Ok(vec![Some(gradient_from_sums(grad, sums, &shape)?)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `torch.index_select(self, dim, index)`: whole slices picked by a vector of indices.
    pub fn index_select(&self, dim: i64, index: &Tensor) -> Result<Tensor, Error> {
        if index.dim() > 1 {
            return Err(Error::IndexSelectVector);
        }
        let d = wrap_dim(dim, self.dim())?;
        let size = self.shape().get(d).copied().unwrap_or(1);
        let positions = checked_positions(
            self,
            index_values(index)?,
            size,
            "Indexing.cu: indexSelectSmallIndex: block: [0,0,0], thread: [0,0,0] Assertion `srcIndex < srcSelectDimSize` failed.",
            |_| Error::IndexOutOfRangeInSelf,
        )?;
        let pieces = positions
            .iter()
            .map(|&p| self.select(d as i64, p)?.unsqueeze(d as i64))
            .collect::<Result<Vec<_>, _>>()?;
        let out = self
            .session()
            .no_grad(|| Tensor::cat(&pieces.iter().collect::<Vec<_>>(), d as i64))?;
        let shape = self.shape().to_vec();
        let meta = autograd::record(&[self], || {
            Backward::new("IndexSelectBackward0", move |grad| {
                // index_add: each selected slice's gradient added back at its source position.
                let g = grad.kernel_scalars()?;
                let inner: usize = shape[d + 1..].iter().product();
                let outer: usize = shape[..d].iter().product();
                let (size, picked) = (shape[d], positions.len());
                let mut sums = vec![0.0f64; shape.iter().product()];
                for o in 0..outer {
                    for (k, &p) in positions.iter().enumerate() {
                        for i in 0..inner {
                            sums[(o * size + p as usize) * inner + i] +=
                                g[(o * picked + k) * inner + i].as_f64();
                        }
                    }
                }
                Ok(vec![Some(gradient_from_sums(grad, sums, &shape)?)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `masked_fill(mask, value)`: `value` where the (broadcast) boolean mask is true.
    pub fn masked_fill(&self, mask: &Tensor, value: Scalar) -> Result<Tensor, Error> {
        if mask.dtype() != DType::Bool {
            return Err(Error::MaskedFillMask {
                dtype: mask.dtype(),
            });
        }
        let fill = Tensor::full(self.session(), &[], value, self.dtype(), crate::Device::CPU)?;
        let out = self
            .session()
            .no_grad(|| Tensor::where_(mask, &fill, self))?;
        let out = if out.dtype() == self.dtype() {
            out
        } else {
            out.to_dtype(self.dtype())?
        };
        let keep = SavedTensor::new(&mask.detach());
        let meta = autograd::record(&[self], || {
            Backward::saving("MaskedFillBackward0", move |grad| {
                let keep = binary_values(
                    Binary::Sub,
                    Operand::Scalar(Scalar::Int(1)),
                    (&keep.unpack()?.to_dtype(grad.dtype())?).into(),
                )?;
                Ok(vec![Some(binary_values(
                    Binary::Mul,
                    grad.into(),
                    (&keep).into(),
                )?)])
            })
        });
        Ok(out.with_autograd(meta))
    }
}

impl Tensor {
    /// `t[mask]` with a boolean mask over the leading dimensions: the selected rows, flattened
    /// (`IndexBackward0`).
    pub fn index_mask(&self, mask: &Tensor) -> Result<Tensor, Error> {
        if mask.dtype() != DType::Bool {
            return self.index_with(mask);
        }
        let k = mask.dim();
        for d in 0..k {
            if self.shape().get(d) != Some(&mask.shape()[d]) {
                return Err(Error::MaskShape {
                    mask: mask.shape().to_vec(),
                    input: self.shape().to_vec(),
                    dim: d,
                });
            }
        }
        let rows: Vec<usize> = mask
            .kernel_scalars()?
            .iter()
            .enumerate()
            .filter(|(_, m)| **m == Scalar::Bool(true))
            .map(|(i, _)| i)
            .collect();
        let mut shape = vec![rows.len()];
        shape.extend_from_slice(&self.shape()[k..]);
        self.pick_rows(k, &rows, &shape)
    }

    /// `t[index]` with an integer tensor: rows of the first dimension, negative indices counting
    /// from the end (`IndexBackward0`).
    pub fn index_with(&self, index: &Tensor) -> Result<Tensor, Error> {
        if self.dim() == 0 {
            return Err(Error::TooManyIndices { ndim: 0 });
        }
        let size = self.shape()[0];
        let wrapped: Vec<i64> = index_values(index)?
            .into_iter()
            .map(|i| if i < 0 { i + size as i64 } else { i })
            .collect();
        let rows = checked_positions(
            self,
            wrapped,
            size,
            "IndexKernel.cu: operator(): block: [0,0,0], thread: [0,0,0] Assertion `-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"` failed.",
            |bad| Error::IndexOutOfBoundsIndexing {
                index: if bad >= size as i64 { bad } else { bad - size as i64 },
                dim: 0,
                size,
            },
        )?
        .into_iter()
        .map(|p| p as usize)
        .collect::<Vec<_>>();
        let mut shape = index.shape().to_vec();
        shape.extend_from_slice(&self.shape()[1..]);
        if size == 0 && !rows.is_empty() {
            // Only a GPU gets here (its assert pending): the kernel's output is all it leaves.
            return Tensor::full(
                self.session(),
                &shape,
                Scalar::Int(0),
                self.dtype(),
                self.device(),
            );
        }
        self.pick_rows(1, &rows, &shape)
    }

    /// Rows of this tensor seen as (product of the first `k` dims) × (the rest).
    fn pick_rows(&self, k: usize, rows: &[usize], shape: &[usize]) -> Result<Tensor, Error> {
        let row_len: usize = self.shape()[k..].iter().product();
        let values = self.kernel_scalars()?;
        let picked: Vec<Scalar> = rows
            .iter()
            .flat_map(|&r| values[r * row_len..(r + 1) * row_len].iter().copied())
            .collect();
        let out = Tensor::from_values(
            self.session(),
            &picked,
            shape,
            self.dtype(),
            self.device(),
            "index_select",
        )?;
        let (input_shape, rows) = (self.shape().to_vec(), rows.to_vec());
        let meta = autograd::record(&[self], || {
            Backward::new("IndexBackward0", move |grad| {
                let g = grad.kernel_scalars()?;
                let mut sums = vec![0.0f64; input_shape.iter().product()];
                for (i, &r) in rows.iter().enumerate() {
                    for j in 0..row_len {
                        sums[r * row_len + j] += g[i * row_len + j].as_f64();
                    }
                }
                Ok(vec![Some(gradient_from_sums(grad, sums, &input_shape)?)])
            })
        });
        Ok(out.with_autograd(meta))
    }
}

/// Indices a kernel reads along a dimension of `size`. Out-of-range ones are the CPU's error at
/// once; on a GPU they fire a device-side assert (raised at the next sync point) and the kernel
/// reads a clamped position instead, as far as its output is concerned.
fn checked_positions(
    source: &Tensor,
    positions: Vec<i64>,
    size: usize,
    assertion: &str,
    cpu_error: impl FnOnce(i64) -> Error,
) -> Result<Vec<i64>, Error> {
    if let Some(&bad) = positions.iter().find(|&&p| p < 0 || p as usize >= size) {
        source
            .session()
            .device_assert(source.device(), assertion, || cpu_error(bad))?;
    }
    let last = size.saturating_sub(1) as i64;
    Ok(positions.into_iter().map(|p| p.clamp(0, last)).collect())
}

/// `cat` computed on the host (the CPU, or standing in for a GPU device).
fn cat_on_host(
    tensors: &[&Tensor],
    d: usize,
    shape: &[usize],
    dtype: DType,
    device: crate::Device,
) -> Result<Tensor, Error> {
    let strides = contiguous_strides(shape);
    let mut values = vec![Scalar::Int(0); shape.iter().product()];
    let mut start = 0;
    for t in tensors {
        let source = t.kernel_scalars()?;
        let mut k = 0;
        for_each_index(t.shape(), |index| {
            let mut at = index.to_vec();
            at[d] += start;
            values[flat_index(&at, &strides)] = source[k];
            k += 1;
        });
        start += t.shape()[d];
    }
    let session = tensors.first().ok_or(Error::CatEmpty)?.session();
    Tensor::from_values(session, &values, shape, dtype, device, "cat")
}
