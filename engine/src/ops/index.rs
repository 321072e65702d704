//! Indexing with `[]`, as PyTorch does it: `applySlicing` (torch/csrc/autograd/
//! python_variable_indexing.cpp) turns integers, slices, `None` and `...` into a view, then ATen's
//! `index` and `index_put_` take the index tensors (int64, int32, and bool masks through
//! `nonzero`), broadcast together, wherever they stand.
//!
//! The result of an advanced index puts the broadcast index shape where the indexed dims were
//! when they are adjacent, else in front. Each result element is one position in storage: the
//! index tensors are combined into one tensor of storage offsets by elementwise ops on the
//! tensor's device, and the pick kernel reads through it, so a GPU tensor is indexed on the GPU
//! (an index out of range there is a device-side assert, as in CUDA; on the CPU it raises at
//! once). Its gradient is the scatter-add through the same offsets.

use crate::autograd::{self, Backward, SavedTensor};
use crate::backend::cpu::elementwise::Binary;
use crate::dtype::DType;
use crate::element::Scalar;
use crate::error::{Error, IndexingError};
use crate::layout::{Layout, contiguous_strides};
use crate::tensor::Tensor;

use super::indexing::{
    INDEX_ASSERT, Picking, Walk, checked_positions, index_values, pick, pick_gradient,
};

/// One part of an index, as Python gives it.
#[derive(Debug, Clone)]
pub enum TensorIndex {
    Int(i64),
    Slice {
        start: Option<i64>,
        stop: Option<i64>,
        step: i64,
    },
    None,
    Ellipsis,
    /// A Python `True`/`False`: a new dimension of size 1 (or 0).
    Bool(bool),
    Tensor(Tensor),
}

/// An index tensor of an advanced index, at the dim of the view it indexes.
#[derive(Debug, Clone)]
enum Part {
    /// Positions (int64 or int32).
    Positions(usize, Tensor),
    /// A bool mask over the dims from here on (as many as it has).
    Mask(usize, Tensor),
}

/// What an advanced index picks: the index tensors (int64 on the tensor's device, negatives
/// wrapped) at the dims they index, and the geometry of the result.
struct Plan {
    indexed: Vec<(usize, Tensor)>,
    geometry: Geometry,
}

/// The shape the index tensors broadcast to, and where each dim of the result comes from.
#[derive(Debug, Clone)]
struct Geometry {
    shape: Vec<usize>,
    dims: Vec<ResultDim>,
}

#[derive(Debug, Clone, Copy)]
enum ResultDim {
    /// A dim of the indexed tensor, kept.
    Kept(usize),
    /// A dim of the index shape.
    Indexed(usize),
}

impl Geometry {
    /// The result's shape, for an indexed tensor of `shape`.
    fn result_shape(&self, shape: &[usize]) -> Vec<usize> {
        self.dims
            .iter()
            .map(|d| match *d {
                ResultDim::Kept(k) => shape[k],
                ResultDim::Indexed(b) => self.shape[b],
            })
            .collect()
    }

    /// The pick of the result's elements from a source of `shape` whose dims step by `strides`
    /// from `offset`, each indexed element `offset + combined offset` (`index`'s walk), among
    /// `size` elements.
    fn picking(
        &self,
        (shape, strides, offset): (&[usize], &[usize], usize),
        size: usize,
        index: &Walk,
    ) -> Picking {
        Picking {
            shape: self.result_shape(shape),
            source_offset: offset,
            source_strides: self
                .dims
                .iter()
                .map(|d| match *d {
                    ResultDim::Kept(k) => strides[k],
                    ResultDim::Indexed(_) => 0,
                })
                .collect(),
            index_offset: index.offset,
            index_strides: self
                .dims
                .iter()
                .map(|d| match *d {
                    ResultDim::Kept(_) => 0,
                    ResultDim::Indexed(b) => index.strides[b],
                })
                .collect(),
            dim_stride: 1,
            size,
            wrap_negative: false,
            ignore: None,
        }
    }
}

impl Tensor {
    /// `t[parts]`.
    pub fn index(&self, parts: &[TensorIndex]) -> Result<Tensor, Error> {
        let (view, tensors) = self.basic_index(parts)?;
        if tensors.is_empty() {
            return Ok(view);
        }
        let plan = view.plan(&tensors)?;
        view.pick_planned(&plan)
    }

    /// `t[parts] = values`: a copy into the view the basic parts make, or `index_put_` of the
    /// index tensors (values cast to the tensor's dtype first, as Python's `__setitem__` does).
    pub fn index_assign(&self, parts: &[TensorIndex], values: &Tensor) -> Result<(), Error> {
        let (view, tensors) = self.basic_index(parts)?;
        if tensors.is_empty() {
            view.copy_(values)?;
            return Ok(());
        }
        let values = values.to_dtype_if_needed(self.dtype())?;
        view.put_parts_(&tensors, &values, false)
    }

    /// `index_put_(indices, values, accumulate)`: one index tensor (or `None`) per leading dim.
    pub fn index_put_(
        &self,
        indices: &[Option<Tensor>],
        values: &Tensor,
        accumulate: bool,
    ) -> Result<&Tensor, Error> {
        let parts = put_checked(self, indices, values)?;
        self.put_parts_(&parts, values, accumulate)?;
        Ok(self)
    }

    /// `torch.index_put(input, indices, values, accumulate)`: the same on a copy.
    pub fn index_put(
        &self,
        indices: &[Option<Tensor>],
        values: &Tensor,
        accumulate: bool,
    ) -> Result<Tensor, Error> {
        let parts = put_checked(self, indices, values)?;
        self.put(&parts, values, accumulate)
    }

    /// `masked_fill_(mask, value)`: `value` where the (broadcast) mask is true
    /// (`MaskedFillBackward0`).
    pub fn masked_fill_(&self, mask: &Tensor, value: Scalar) -> Result<&Tensor, Error> {
        self.in_place(|t| t.masked_fill(mask, value), Vec::new())
    }

    fn put_parts_(&self, parts: &[Part], values: &Tensor, accumulate: bool) -> Result<(), Error> {
        self.in_place(
            |t| t.put(parts, values, accumulate),
            vec![Some(values.clone())],
        )?;
        Ok(())
    }

    /// Integers, slices, `None`, `True`/`False` and `...` applied as views; the index tensors
    /// left for the advanced step, at the view's dims they index.
    fn basic_index(&self, parts: &[TensorIndex]) -> Result<(Tensor, Vec<Part>), Error> {
        let consumed: usize = parts
            .iter()
            .map(|p| match p {
                TensorIndex::Int(_) | TensorIndex::Slice { .. } => 1,
                TensorIndex::Tensor(t) if is_mask(t) => t.dim(),
                TensorIndex::Tensor(_) => 1,
                TensorIndex::None | TensorIndex::Ellipsis | TensorIndex::Bool(_) => 0,
            })
            .sum();
        if consumed > self.dim() {
            return Err(Error::TooManyIndices { ndim: self.dim() });
        }
        let mut view = self.clone();
        let mut dim = 0usize;
        let mut tensors = Vec::new();
        let mut ellipsis = false;
        for part in parts {
            match part {
                TensorIndex::Ellipsis => {
                    // The first `...` stands for the dims the others leave; later ones for none.
                    if !std::mem::replace(&mut ellipsis, true) {
                        dim += self.dim() - consumed;
                    }
                }
                TensorIndex::Int(i) => {
                    let size = view.shape()[dim];
                    if *i >= size as i64 || *i < -(size as i64) {
                        return Err(Error::IndexOutOfBoundsIndexing {
                            index: *i,
                            dim,
                            size,
                        });
                    }
                    view = view.select(dim as i64, *i)?;
                }
                TensorIndex::Slice { start, stop, step } => {
                    // A whole dim (`:`) makes no view, as in PyTorch.
                    if start.is_some() || stop.is_some() || *step != 1 {
                        view = view.slice(dim as i64, *start, *stop, *step)?;
                    }
                    dim += 1;
                }
                TensorIndex::None => {
                    view = view.unsqueeze(dim as i64)?;
                    dim += 1;
                }
                TensorIndex::Bool(keep) => {
                    view = view.unsqueeze(dim as i64)?;
                    if !keep {
                        view = view.slice(dim as i64, Some(0), Some(0), 1)?;
                    }
                    dim += 1;
                }
                TensorIndex::Tensor(t) if is_mask(t) => {
                    if t.dtype() == DType::UInt8 {
                        self.session().warn(
                            "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.",
                        );
                    }
                    let mask = if t.dim() == 0 {
                        view = view.unsqueeze(dim as i64)?;
                        t.reshape(&[1])?
                    } else {
                        t.clone()
                    };
                    for (k, &size) in mask.shape().iter().enumerate() {
                        if view.shape().get(dim + k) != Some(&size) {
                            return Err(Error::MaskShape {
                                mask: mask.shape().to_vec(),
                                input: view.shape().to_vec(),
                                dim: dim + k,
                            });
                        }
                    }
                    let k = mask.dim();
                    tensors.push(Part::Mask(dim, mask));
                    dim += k;
                }
                TensorIndex::Tensor(t) => {
                    if !matches!(t.dtype(), DType::Int64 | DType::Int32) {
                        return Err(IndexingError::IndexDtype.into());
                    }
                    tensors.push(Part::Positions(dim, t.clone()));
                    dim += 1;
                }
            }
        }
        Ok((view, tensors))
    }

    /// An index tensor moved to this tensor's device (PyTorch copies CPU indices over; indices
    /// on another GPU are an error), as int64.
    fn index_here(&self, index: &Tensor) -> Result<Tensor, Error> {
        let index = if index.device() == self.device() {
            index.clone()
        } else if index.device().is_cpu() {
            index.to(crate::To {
                device: Some(crate::Target::Device(self.device())),
                ..crate::To::default()
            })?
        } else {
            return Err(Error::IndexDevice {
                device: self.device(),
            });
        };
        index.to_dtype_if_needed(DType::Int64)
    }

    /// The plan of an advanced index of this tensor: masks made positions (a sync point, as
    /// `nonzero` is), indices broadcast, checked (at once on the CPU) and wrapped.
    fn plan(&self, parts: &[Part]) -> Result<Plan, Error> {
        let mut indexed: Vec<(usize, Tensor)> = Vec::new();
        for part in parts {
            match part {
                Part::Positions(d, t) => indexed.push((*d, self.index_here(t)?)),
                Part::Mask(d, mask) => {
                    for (k, column) in mask.nonzero_columns()?.into_iter().enumerate() {
                        indexed.push((d + k, self.index_here(&column)?));
                    }
                }
            }
        }
        let mut shape: Vec<usize> = Vec::new();
        for (_, t) in &indexed {
            shape = crate::layout::broadcast_shapes(&shape, t.shape()).map_err(|_| {
                IndexingError::IndexShapes {
                    shapes: indexed.iter().map(|(_, t)| t.shape().to_vec()).collect(),
                }
            })?;
        }
        // On the CPU an index out of range raises before anything is picked, naming the index
        // tensor's place among them (ATen's `index` kernel counts only those).
        for (k, (d, t)) in indexed.iter().enumerate() {
            let size = self.shape()[*d];
            if t.device().is_cpu()
                && let Some(&bad) = index_values(t)?
                    .iter()
                    .find(|&&i| i >= size as i64 || i < -(size as i64))
            {
                return Err(Error::IndexOutOfBoundsIndexing {
                    index: bad,
                    dim: k,
                    size,
                });
            }
        }
        let wrapped = self.session().no_grad(|| {
            indexed
                .iter()
                .map(|(d, t)| {
                    let size = Scalar::Int(self.shape()[*d] as i64);
                    let negative = t.compare(Binary::Lt, Scalar::Int(0))?;
                    let wrapped = t.add(&negative.to_dtype(DType::Int64)?.mul(size)?)?;
                    Ok((*d, wrapped))
                })
                .collect::<Result<Vec<_>, Error>>()
        })?;
        let positions: Vec<usize> = wrapped.iter().map(|(d, _)| *d).collect();
        let adjacent = positions.windows(2).all(|w| w[1] == w[0] + 1);
        let kept: Vec<usize> = (0..self.dim()).filter(|d| !positions.contains(d)).collect();
        let at = match adjacent {
            true => kept.iter().filter(|&&d| d < positions[0]).count(),
            false => 0,
        };
        let mut dims: Vec<ResultDim> = kept.iter().map(|&d| ResultDim::Kept(d)).collect();
        dims.splice(at..at, (0..shape.len()).map(ResultDim::Indexed));
        Ok(Plan {
            indexed: wrapped,
            geometry: Geometry { shape, dims },
        })
    }

    /// The index tensors of `plan` combined into one of element offsets along `strides` (of
    /// the index shape, int64, contiguous), computed on the device. `checked` marks a position
    /// out of range with `-1`, which the pick kernel's bounds check turns into a device-side
    /// assert.
    fn combined(&self, plan: &Plan, strides: &[usize], checked: bool) -> Result<Tensor, Error> {
        let shape = &plan.geometry.shape;
        let sizes: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
        self.session().no_grad(|| {
            let session = self.session();
            let mut total =
                Tensor::full(session, shape, Scalar::Int(0), DType::Int64, self.device())?;
            let mut bad: Option<Tensor> = None;
            for (d, t) in &plan.indexed {
                total = total.add(&t.mul(Scalar::Int(strides[*d] as i64))?)?;
                if checked {
                    let size = Scalar::Int(self.shape()[*d] as i64);
                    let out = t
                        .compare(Binary::Lt, Scalar::Int(0))?
                        .bitwise(Binary::BitOr, &t.compare(Binary::Ge, size)?)?;
                    bad = Some(match bad {
                        Some(b) => b.bitwise(Binary::BitOr, &out)?,
                        None => out,
                    });
                }
            }
            if let Some(bad) = bad {
                let marker = Tensor::full(
                    session,
                    &[],
                    Scalar::Int(-1),
                    DType::Int64,
                    crate::Device::CPU,
                )?;
                total = Tensor::where_(&bad.expand(&sizes)?, &marker, &total)?;
            }
            total.expand(&sizes)?.contiguous()
        })
    }

    /// The elements `plan` picks (`IndexBackward0`: the gradient scatter-added back).
    fn pick_planned(&self, plan: &Plan) -> Result<Tensor, Error> {
        let size = self.storage_len();
        let combined = self.combined(plan, self.stride(), !self.device().is_cpu())?;
        // The pick reads storage directly: the view's strides and offset are in the picking.
        let storage = self.relaid(Layout {
            shape: vec![size],
            strides: vec![1],
            offset: 0,
        });
        let geometry = &plan.geometry;
        let source = (self.shape(), self.stride(), self.storage_offset());
        let out = pick(
            &storage,
            &combined,
            |_, index| geometry.picking(source, size, index),
            ("index", INDEX_ASSERT),
            |values| {
                checked_positions(self, values, size, INDEX_ASSERT, |bad| {
                    Error::IndexOutOfBoundsIndexing {
                        index: bad,
                        dim: 0,
                        size,
                    }
                })
            },
        )?;
        if !(self.requires_grad() && self.session().is_grad_enabled()) {
            return Ok(out);
        }
        let shape = self.shape().to_vec();
        let strides = contiguous_strides(&shape);
        let positions = SavedTensor::new(&self.combined(plan, &strides, false)?);
        let geometry = geometry.clone();
        let meta = autograd::record(&[self], || {
            Backward::saving("IndexBackward0", move |grad| {
                let numel = shape.iter().product();
                let summed = pick_gradient(grad, positions.unpack()?, &shape, |_, index| {
                    geometry.picking((&shape, &strides, 0), numel, index)
                })?;
                Ok(vec![Some(summed)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// A copy of this tensor with `values` (broadcast to the indexing result) put where the
    /// parts pick, added to what is there when `accumulate` (`IndexPutBackward0`).
    fn put(&self, parts: &[Part], values: &Tensor, accumulate: bool) -> Result<Tensor, Error> {
        let out = self
            .session()
            .no_grad(|| self.put_values(parts, values, accumulate))?;
        let (parts, shape, dtype) = (parts.to_vec(), values.shape().to_vec(), values.dtype());
        let meta = autograd::record(&[self, values], || {
            Backward::saving("IndexPutBackward0", move |grad| {
                let to_self = match accumulate {
                    true => grad.clone(),
                    false => {
                        let zero = Tensor::full(
                            grad.session(),
                            &[],
                            Scalar::Int(0),
                            grad.dtype(),
                            crate::Device::CPU,
                        )?;
                        grad.put_values(&parts, &zero, false)?
                    }
                };
                let picked = grad.pick_planned(&grad.plan(&parts)?)?;
                let to_values = super::elementwise::reduce_grad(&picked, &shape, dtype)?;
                Ok(vec![Some(to_self), Some(to_values)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// The values of [`Tensor::put`], with nothing recorded.
    fn put_values(
        &self,
        parts: &[Part],
        values: &Tensor,
        accumulate: bool,
    ) -> Result<Tensor, Error> {
        // `t[mask] = value`: one `where` on the device, no positions needed.
        if let [Part::Mask(d, mask)] = parts
            && values.numel() == 1
            && !accumulate
        {
            let mut shape = vec![1i64; self.dim()];
            for (k, &size) in mask.shape().iter().enumerate() {
                shape[d + k] = size as i64;
            }
            let mask = mask.to_dtype_if_needed(DType::Bool)?.reshape(&shape)?;
            let value = values.reshape(&[])?;
            return Tensor::where_(&mask, &value, self)?.to_dtype_if_needed(self.dtype());
        }
        let plan = self.plan(parts)?;
        let result = plan.geometry.result_shape(self.shape());
        let sizes: Vec<i64> = result.iter().map(|&s| s as i64).collect();
        let values = values
            .expand(&sizes)
            .map_err(|_| IndexingError::ValueShape {
                value: values.shape().to_vec(),
                result: result.clone(),
            })?;
        let out = self.clone_tensor()?;
        let (shape, numel) = (out.shape().to_vec(), out.numel());
        let strides = contiguous_strides(&shape);
        let positions = out.combined(&plan, &strides, !self.device().is_cpu())?;
        let geometry = &plan.geometry;
        let picking =
            |_: &Walk, index: &Walk| geometry.picking((&shape, &strides, 0), numel, index);
        if accumulate
            && let Some(summed) = super::gpu::scatter_add(
                &values.contiguous()?,
                &positions,
                &picking(&Walk::row_major(&shape), &Walk::layout(&positions)),
                &shape,
            )
        {
            super::record_gpu_kernel(self.session(), self.device(), "index_put_");
            return out.add(&summed?);
        }
        // On the host (the CPU's own, or standing in for a GPU, as the trace says): each value
        // written, or added, at its position in row-major order.
        let checked = checked_positions(
            self,
            index_values(&positions)?,
            numel,
            INDEX_ASSERT,
            |bad| Error::IndexOutOfBoundsIndexing {
                index: bad,
                dim: 0,
                size: numel,
            },
        )?;
        let picking = picking(
            &Walk::row_major(&shape),
            &Walk::row_major(positions.shape()),
        );
        let given = values.kernel_scalars()?;
        let mut elements = out.kernel_scalars()?;
        for (k, at) in picking.positions(&checked).into_iter().enumerate() {
            if let Some(p) = at {
                elements[p] = match (accumulate, elements[p], given[k]) {
                    (false, _, value) => value,
                    (true, Scalar::Int(x), Scalar::Int(y)) => Scalar::Int(x.wrapping_add(y)),
                    (true, Scalar::Bool(x), Scalar::Bool(y)) => Scalar::Bool(x || y),
                    (true, x, y) => Scalar::Float(x.as_f64() + y.as_f64()),
                };
            }
        }
        Tensor::from_values(
            self.session(),
            &elements,
            &shape,
            self.dtype(),
            self.device(),
            "index_put_",
        )
    }

    /// `nonzero()`: the positions of the nonzero elements, one row each (int64, `[n, ndim]`).
    /// How many there are decides the shape, so the host reads the values: a sync point on a
    /// GPU, as in PyTorch.
    pub fn nonzero(&self) -> Result<Tensor, Error> {
        let rows = self.nonzero_positions()?;
        let n = self.dim();
        let flat: Vec<Scalar> = rows
            .iter()
            .flatten()
            .map(|&i| Scalar::Int(i as i64))
            .collect();
        Tensor::from_values(
            self.session(),
            &flat,
            &[rows.len(), n],
            DType::Int64,
            self.device(),
            "nonzero",
        )
    }

    /// `nonzero(as_tuple=True)`: one int64 vector of positions per dim.
    pub fn nonzero_columns(&self) -> Result<Vec<Tensor>, Error> {
        let rows = self.nonzero_positions()?;
        if self.dim() == 0 {
            let ones: Vec<Scalar> = rows.iter().map(|_| Scalar::Int(0)).collect();
            return Ok(vec![Tensor::from_values(
                self.session(),
                &ones,
                &[ones.len()],
                DType::Int64,
                self.device(),
                "nonzero",
            )?]);
        }
        (0..self.dim())
            .map(|d| {
                let column: Vec<Scalar> = rows.iter().map(|r| Scalar::Int(r[d] as i64)).collect();
                Tensor::from_values(
                    self.session(),
                    &column,
                    &[rows.len()],
                    DType::Int64,
                    self.device(),
                    "nonzero",
                )
            })
            .collect()
    }

    /// The multi-index of every nonzero element, in row-major order.
    fn nonzero_positions(&self) -> Result<Vec<Vec<usize>>, Error> {
        let values = self.scalars()?;
        let strides = contiguous_strides(self.shape());
        Ok(values
            .iter()
            .enumerate()
            .filter(|(_, v)| v.as_f64() != 0.0 || matches!(v, Scalar::Float(x) if x.is_nan()))
            .map(|(flat, _)| {
                strides
                    .iter()
                    .zip(self.shape())
                    .map(|(&s, &n)| (flat / s.max(1)) % n.max(1))
                    .collect()
            })
            .collect())
    }
}

fn is_mask(t: &Tensor) -> bool {
    matches!(t.dtype(), DType::Bool | DType::UInt8)
}

/// `index_put_`'s indices: one per leading dim (a mask covers as many as it has), `None` for a
/// dim taken whole.
fn index_parts(indices: &[Option<Tensor>]) -> Result<Vec<Part>, Error> {
    let mut parts = Vec::new();
    let mut dim = 0;
    for index in indices {
        match index {
            None => dim += 1,
            Some(t) if is_mask(t) => {
                parts.push(Part::Mask(dim, t.clone()));
                dim += t.dim().max(1);
            }
            Some(t) if matches!(t.dtype(), DType::Int64 | DType::Int32) => {
                parts.push(Part::Positions(dim, t.clone()));
                dim += 1;
            }
            Some(_) => return Err(IndexingError::IndexDtype.into()),
        }
    }
    Ok(parts)
}

/// `index_put`'s checks: the values' dtype must be the tensor's, and some index given.
fn put_checked(
    t: &Tensor,
    indices: &[Option<Tensor>],
    values: &Tensor,
) -> Result<Vec<Part>, Error> {
    if values.dtype() != t.dtype() {
        return Err(IndexingError::PutDtype {
            destination: t.dtype().scalar_type_name(),
            src: values.dtype().scalar_type_name(),
        }
        .into());
    }
    let parts = index_parts(indices)?;
    if parts.is_empty() {
        return Err(IndexingError::IndexDtype.into());
    }
    Ok(parts)
}
