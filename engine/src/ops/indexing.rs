//! Joining and picking: `cat`, `stack`, `where`, `masked_fill`, and the ops that pick elements
//! through an index (`gather`, `index_select`, `t[idx]`, `t[mask]`).
//!
//! Every pick is one [`Picking`]: for each element of the result, a source position walked by
//! strides plus what the index says along one dimension. On a GPU the gather kernel reads through
//! it and checks the indices itself (a failure is a device-side assert, raised at the next sync
//! point); its gradient is the scatter-add kernel writing through the same picking. On the host
//! the same picking walks row-major values, after the CPU's bounds checks (which raise at once).

use crate::autograd::{self, Backward, SavedTensor};
use crate::backend::cpu::elementwise::{Binary, LaneKind};
use crate::backend::gpu::Elementwise;
use crate::dtype::{DType, promote_types};
use crate::element::Scalar;
use crate::error::{Error, IndexingError};
use crate::layout::{broadcast_shapes, contiguous_strides, wrap_dim};
use crate::tensor::Tensor;

use super::elementwise::{Operand, binary_values};
use super::gpu::{Input, Launch};

/// A tensor's elements as a pick walks them: its own layout where a GPU kernel reads it, or
/// row-major where the host reads its values.
#[derive(Debug, Clone)]
pub(crate) struct Walk {
    pub(super) shape: Vec<usize>,
    pub(super) strides: Vec<usize>,
    pub(super) offset: usize,
}

impl Walk {
    pub(crate) fn layout(t: &Tensor) -> Walk {
        Walk {
            shape: t.shape().to_vec(),
            strides: t.stride().to_vec(),
            offset: t.storage_offset(),
        }
    }

    pub(super) fn row_major(shape: &[usize]) -> Walk {
        Walk {
            shape: shape.to_vec(),
            strides: contiguous_strides(shape),
            offset: 0,
        }
    }

    /// The strides with the picked dimension `d` stepping nowhere (the index steps it).
    fn strides_without(&self, d: usize) -> Vec<usize> {
        let mut strides = self.strides.clone();
        strides[d] = 0;
        strides
    }
}

/// How an op picks: element `k` of `shape` comes from the source element at `source_offset`
/// plus `k` walked by `source_strides`, plus `dim_stride` times the index element at
/// `index_offset` plus `k` walked by `index_strides`.
#[derive(Debug, Clone)]
pub(crate) struct Picking {
    pub shape: Vec<usize>,
    pub source_offset: usize,
    pub source_strides: Vec<usize>,
    pub index_offset: usize,
    pub index_strides: Vec<usize>,
    pub dim_stride: usize,
    /// The picked dimension's size: indices outside it fail the bounds check.
    pub size: usize,
    /// Negative indices count from the end (`t[idx]`).
    pub wrap_negative: bool,
    /// An index value that picks nothing (`padding_idx` in embedding's gradient).
    pub ignore: Option<i64>,
}

impl Picking {
    /// `gather(d, index)`: the result has the index's shape.
    pub(super) fn gather(source: &Walk, index: &Walk, d: usize) -> Picking {
        Picking {
            shape: index.shape.clone(),
            source_offset: source.offset,
            source_strides: source.strides_without(d),
            index_offset: index.offset,
            index_strides: index.strides.clone(),
            dim_stride: source.strides[d],
            size: source.shape[d],
            wrap_negative: false,
            ignore: None,
        }
    }

    /// `index_select(d, index)` with a vector (or 0-dim) index: whole slices along `d`.
    pub(crate) fn select(source: &Walk, index: &Walk, d: usize) -> Picking {
        let mut shape = source.shape.clone();
        shape[d] = index.shape.first().copied().unwrap_or(1);
        let mut index_strides = vec![0; shape.len()];
        index_strides[d] = index.strides.first().copied().unwrap_or(0);
        Picking {
            shape,
            index_strides,
            ..Picking::gather(source, index, d)
        }
    }

    /// `nll_loss`'s pick: each row's log-probability at its target class (a 1-D input is one
    /// row), nothing where the target is `ignore`.
    pub(crate) fn targets(input: &Walk, target: &Walk, ignore: i64) -> Picking {
        let (rows, row_stride, class_dim) = match input.shape[..] {
            [rows, _] => (rows, input.strides[0], 1),
            _ => (1, 0, 0),
        };
        Picking {
            shape: vec![rows],
            source_offset: input.offset,
            source_strides: vec![row_stride],
            index_offset: target.offset,
            index_strides: vec![target.strides.first().copied().unwrap_or(0)],
            dim_stride: input.strides[class_dim],
            size: input.shape[class_dim],
            wrap_negative: false,
            ignore: Some(ignore),
        }
    }

    /// For each element of the result, row-major, the source position it picks on the host from
    /// `index` (row-major values); `None` where the index picks nothing (ignored, or out of
    /// range after a device-side assert).
    pub(super) fn positions(&self, index: &[i64]) -> Vec<Option<usize>> {
        let mut positions = Vec::with_capacity(self.shape.iter().product());
        for_each_index(&self.shape, |at| {
            let i = index[self.index_offset + flat_index(at, &self.index_strides)];
            let i = if self.wrap_negative && i < 0 {
                i + self.size as i64
            } else {
                i
            };
            let picked =
                Some(i).filter(|&i| Some(i) != self.ignore && i >= 0 && (i as usize) < self.size);
            positions.push(picked.map(|i| {
                self.source_offset
                    + flat_index(at, &self.source_strides)
                    + i as usize * self.dim_stride
            }));
        });
        positions
    }
}

/// The gradient of a pick: `grad` (of the picking's shape) summed into zeros of `shape` at the
/// positions `index` picked (`scatter_add`, `index_add`, `index_put_` with accumulate).
/// `picking` builds the pick from the result's row-major walk and the index's walk.
pub(crate) fn pick_gradient(
    grad: &Tensor,
    index: &Tensor,
    shape: &[usize],
    picking: impl Fn(&Walk, &Walk) -> Picking,
) -> Result<Tensor, Error> {
    let destination = Walk::row_major(shape);
    if let Some(summed) = super::gpu::scatter_add(
        grad,
        index,
        &picking(&destination, &Walk::layout(index)),
        shape,
    ) {
        super::record_gpu_kernel(grad.session(), grad.device(), "index_add");
        return summed;
    }
    let picking = picking(&destination, &Walk::row_major(index.shape()));
    let g = grad.kernel_scalars()?;
    let mut sums = vec![0.0f64; shape.iter().product()];
    for (k, position) in picking
        .positions(&index_values(index)?)
        .into_iter()
        .enumerate()
    {
        if let Some(p) = position {
            sums[p] += g[k].as_f64();
        }
    }
    gradient_from_sums(grad, sums, shape)
}

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

pub(super) fn index_values(index: &Tensor) -> Result<Vec<i64>, Error> {
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
    /// `torch.cat(tensors, dim)`: dtypes promoted, shapes equal except along `dim`. As in ATen,
    /// a 1-D tensor with no elements is left out whatever its shape (the legacy rule that lets
    /// `out = torch.cat([out, rows])` start from `torch.tensor([])`); it still counts for the
    /// dtype and the device, and gets an empty gradient.
    pub fn cat(tensors: &[&Tensor], dim: i64) -> Result<Tensor, Error> {
        let first = tensors.first().ok_or(Error::CatEmpty)?;
        let skipped = |t: &Tensor| t.dim() == 1 && t.numel() == 0;
        let mut joined: Vec<&Tensor> = tensors.iter().copied().filter(|t| !skipped(t)).collect();
        if joined.is_empty() {
            // All of them are empty and 1-D: joined as they are.
            joined = tensors.to_vec();
        }
        let reference = joined[0];
        let ndim = reference.dim();
        for t in &joined {
            if t.dim() != ndim {
                return Err(Error::CatDims {
                    first: ndim,
                    other: t.dim(),
                });
            }
        }
        let d = wrap_dim(dim, ndim)?;
        let named: Vec<(&'static str, Option<&Tensor>)> =
            tensors.iter().map(|&t| ("tensors", Some(t))).collect();
        let device = super::check_arguments("wrapper_CUDA_cat", &named)?;
        for (number, t) in tensors.iter().enumerate().filter(|(_, t)| !skipped(t)) {
            for axis in (0..ndim).filter(|&a| a != d) {
                if t.shape()[axis] != reference.shape()[axis] {
                    return Err(Error::CatSizes {
                        dim: d,
                        expected: reference.shape()[axis],
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
        let mut shape = reference.shape().to_vec();
        shape[d] = joined.iter().map(|t| t.shape()[d]).sum();
        let out = match super::gpu::cat(&joined, d, &shape, dtype, device) {
            Some(out) => {
                super::record_gpu_kernel(first.session(), device, "cat");
                out?
            }
            None => cat_on_host(&joined, d, &shape, dtype, device)?,
        };
        // Each input's share of the gradient: its rows, or nothing for one left out.
        let sizes: Vec<(Option<usize>, DType)> = tensors
            .iter()
            .map(|t| ((!skipped(t)).then(|| t.shape()[d]), t.dtype()))
            .collect();
        let meta = autograd::record(tensors, || {
            Backward::new("CatBackward0", move |grad| {
                let mut start = 0;
                sizes
                    .iter()
                    .map(|&(size, dtype)| {
                        let Some(size) = size else {
                            return Tensor::zeros(grad.session(), &[0], dtype, grad.device())
                                .map(Some);
                        };
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
    /// range raise on the CPU (PyTorch's CPU kernel checks them) and fire a device-side assert on
    /// a GPU.
    pub fn gather(&self, dim: i64, index: &Tensor) -> Result<Tensor, Error> {
        if !matches!(index.dtype(), DType::Int64 | DType::Int32) {
            return Err(Error::GatherIndexDtype);
        }
        if index.dim() != self.dim() {
            return Err(Error::GatherIndexDims);
        }
        let d = wrap_dim(dim, self.dim())?;
        super::check_arguments(
            "wrapper_CUDA_gather",
            &[("self", Some(self)), ("index", Some(index))],
        )?;
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
        const ASSERT: &str = "ScatterGatherKernel.cu: operator(): block: [0,0,0], thread: [0,0,0] Assertion `idx_dim >= 0 && idx_dim < index_size && \"index out of bounds\"` failed.";
        let size = self.shape()[d];
        let picking = move |source: &Walk, index: &Walk| Picking::gather(source, index, d);
        let out = pick(self, index, picking, ("gather", ASSERT), |values| {
            checked_positions(self, values, size, ASSERT, |bad| Error::IndexOutOfBounds {
                index: bad,
                dim: d,
                size,
            })
        })?;
        Ok(out.with_autograd(pick_history(self, index, "GatherBackward0", picking)))
    }

    /// `torch.index_select(self, dim, index)`: whole slices picked by a vector of indices.
    pub fn index_select(&self, dim: i64, index: &Tensor) -> Result<Tensor, Error> {
        if index.dim() > 1 {
            return Err(Error::IndexSelectVector);
        }
        if self.dim() == 0 {
            return Err(Error::SelectZeroDim);
        }
        let d = wrap_dim(dim, self.dim())?;
        super::check_arguments(
            "wrapper_CUDA__index_select",
            &[("self", Some(self)), ("index", Some(index))],
        )?;
        const ASSERT: &str = "Indexing.cu: indexSelectSmallIndex: block: [0,0,0], thread: [0,0,0] Assertion `srcIndex < srcSelectDimSize` failed.";
        let size = self.shape()[d];
        let picking = move |source: &Walk, index: &Walk| Picking::select(source, index, d);
        let out = pick(self, index, picking, ("index_select", ASSERT), |values| {
            checked_positions(self, values, size, ASSERT, |bad| match d {
                0 => Error::IndexOutOfRangeInSelf,
                _ => IndexingError::IndicesOutOfData { id: bad, size }.into(),
            })
        })?;
        Ok(out.with_autograd(pick_history(self, index, "IndexSelectBackward0", picking)))
    }

    /// `masked_fill(mask, value)`: `value` where the (broadcast) boolean mask is true.
    pub fn masked_fill(&self, mask: &Tensor, value: Scalar) -> Result<Tensor, Error> {
        // The CUDA kernel's own check (`masked_fill__cuda`), before the dtype's; it runs when
        // either tensor is on a GPU.
        if mask.device() != self.device()
            && [mask, self]
                .iter()
                .any(|t| t.device().kind == crate::DeviceType::Cuda)
        {
            return Err(Error::MaskDevice {
                mask: mask.device(),
                tensor: self.device(),
            });
        }
        if mask.dtype() != DType::Bool {
            return Err(Error::MaskedFillMask {
                dtype: mask.dtype(),
            });
        }
        let dtype = self.dtype();
        dtype.check_scalar(value)?;
        let fill = Tensor::full(self.session(), &[], value, dtype, crate::Device::CPU)?;
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

pub(super) const INDEX_ASSERT: &str = "IndexKernel.cu: operator(): block: [0,0,0], thread: [0,0,0] Assertion `-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"` failed.";

/// The elements of `source` that `index` picks as `picking` says, recorded as the kernel `op`:
/// on the GPU where it can (the kernel checking the indices, failing with `assertion`), else on
/// the host after `check` made the index values in-range positions (the CPU's bounds check, or a
/// device-side assert where the GPU has no kernel for the dtype).
pub(super) fn pick(
    source: &Tensor,
    index: &Tensor,
    picking: impl Fn(&Walk, &Walk) -> Picking,
    (op, assertion): (&str, &str),
    check: impl Fn(Vec<i64>) -> Result<Vec<i64>, Error>,
) -> Result<Tensor, Error> {
    let on_gpu = picking(&Walk::layout(source), &Walk::layout(index));
    let host_check = || check(index_values(index)?).map(drop);
    if let Some(out) = super::gpu::gather(source, index, &on_gpu, (op, assertion), host_check) {
        return out;
    }
    let positions = check(index_values(index)?)?;
    let picking = picking(
        &Walk::row_major(source.shape()),
        &Walk::row_major(index.shape()),
    );
    let values = source.kernel_scalars()?;
    let picked: Vec<Scalar> = picking
        .positions(&positions)
        .into_iter()
        .map(|p| p.map_or(Scalar::Int(0), |p| values[p]))
        .collect();
    Tensor::from_values(
        source.session(),
        &picked,
        &picking.shape,
        source.dtype(),
        source.device(),
        op,
    )
}

/// The history of a pick from `source` through `index`: the node `name`, whose backward is the
/// scatter-add of the gradient through the same picking.
fn pick_history(
    source: &Tensor,
    index: &Tensor,
    name: &'static str,
    picking: impl Fn(&Walk, &Walk) -> Picking + Copy + 'static,
) -> crate::autograd::AutogradMeta {
    let index = SavedTensor::new(&index.detach());
    let shape = source.shape().to_vec();
    autograd::record(&[source], || {
        Backward::saving(name, move |grad| {
            Ok(vec![Some(pick_gradient(
                grad,
                index.unpack()?,
                &shape,
                picking,
            )?)])
        })
    })
}

/// Indices a kernel reads along a dimension of `size`. Out-of-range ones are the CPU's error at
/// once; on a GPU they fire a device-side assert (raised at the next sync point) and the kernel
/// reads a clamped position instead, as far as its output is concerned.
pub(super) fn checked_positions(
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
