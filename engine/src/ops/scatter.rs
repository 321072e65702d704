//! Writing through an index: `scatter` (and `scatter_add`, `scatter_reduce`), `index_add`,
//! `index_fill`, `index_copy`, `masked_scatter`; and the picks that go with them: `take`,
//! `take_along_dim`, `masked_select`.
//!
//! Each write lands where the matching pick reads: `scatter` where `gather` reads through the
//! same index, the `index_*` ops where `index_select` does. Sums run on the GPU (the scatter-add
//! kernel, atomic, in float32); `index_fill` is a `where` over positions compared on the
//! device; the other writes are computed on the host, on a GPU device as a stand-in that the
//! trace labels.

use crate::autograd::{self, Backward, SavedTensor};
use crate::backend::cpu::elementwise::Binary;
use crate::dtype::DType;
use crate::element::Scalar;
use crate::error::{Error, IndexingError};
use crate::layout::wrap_dim;
use crate::tensor::Tensor;

use super::TensorIndex;
use super::indexing::{Picking, Walk, checked_positions, index_values, pick_gradient};

/// How `scatter` combines a value with what is there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScatterReduce {
    /// `scatter` without `reduce`: the value replaces it.
    Assign,
    Sum,
    Prod,
    Mean,
    Amax,
    Amin,
}

impl ScatterReduce {
    /// `scatter_reduce`'s names.
    pub fn from_name(name: &str) -> Result<ScatterReduce, Error> {
        Ok(match name {
            "sum" => ScatterReduce::Sum,
            "prod" => ScatterReduce::Prod,
            "mean" => ScatterReduce::Mean,
            "amax" => ScatterReduce::Amax,
            "amin" => ScatterReduce::Amin,
            other => {
                return Err(IndexingError::ScatterReduceName {
                    reduce: other.to_owned(),
                }
                .into());
            }
        })
    }

    /// `scatter`'s legacy `reduce=` names.
    pub fn from_legacy_name(name: &str) -> Result<ScatterReduce, Error> {
        match name {
            "add" => Ok(ScatterReduce::Sum),
            "multiply" => Ok(ScatterReduce::Prod),
            _ => Err(IndexingError::ScatterReduceMode.into()),
        }
    }

    /// `a` combined with `b` (both of one dtype's kind).
    fn combine(self, a: Scalar, b: Scalar) -> Scalar {
        match (self, a, b) {
            (ScatterReduce::Assign, _, b) => b,
            (ScatterReduce::Sum | ScatterReduce::Mean, Scalar::Int(x), Scalar::Int(y)) => {
                Scalar::Int(x.wrapping_add(y))
            }
            (ScatterReduce::Prod, Scalar::Int(x), Scalar::Int(y)) => Scalar::Int(x.wrapping_mul(y)),
            (ScatterReduce::Amax, Scalar::Int(x), Scalar::Int(y)) => Scalar::Int(x.max(y)),
            (ScatterReduce::Amin, Scalar::Int(x), Scalar::Int(y)) => Scalar::Int(x.min(y)),
            (ScatterReduce::Sum | ScatterReduce::Mean, Scalar::Bool(x), Scalar::Bool(y))
            | (ScatterReduce::Amax, Scalar::Bool(x), Scalar::Bool(y)) => Scalar::Bool(x || y),
            (ScatterReduce::Prod | ScatterReduce::Amin, Scalar::Bool(x), Scalar::Bool(y)) => {
                Scalar::Bool(x && y)
            }
            (kind, x, y) => {
                let (x, y) = (x.as_f64(), y.as_f64());
                Scalar::Float(match kind {
                    ScatterReduce::Prod => x * y,
                    // NaN propagates, as PyTorch's `amax`/`amin` do.
                    ScatterReduce::Amax if x.is_nan() || y.is_nan() => f64::NAN,
                    ScatterReduce::Amin if x.is_nan() || y.is_nan() => f64::NAN,
                    ScatterReduce::Amax => x.max(y),
                    ScatterReduce::Amin => x.min(y),
                    _ => x + y,
                })
            }
        }
    }
}

/// What a scatter writes: a tensor's elements (walked over the index's shape), or one number.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    Tensor(&'a Tensor),
    Value(Scalar),
}

impl Tensor {
    /// `scatter(dim, index, src | value)`: each source element written where `gather` would
    /// read it (`ScatterBackward0`, `ScatterBackward1` for a number).
    pub fn scatter(&self, dim: i64, index: &Tensor, src: Source) -> Result<Tensor, Error> {
        let node = match src {
            Source::Tensor(_) => "ScatterBackward0",
            Source::Value(_) => "ScatterBackward1",
        };
        self.scatter_with(node, dim, index, src, ScatterReduce::Assign, true)
    }

    /// `scatter(..., reduce='add' | 'multiply')`, deprecated in PyTorch: its node has no
    /// derivative.
    pub fn scatter_legacy(
        &self,
        dim: i64,
        index: &Tensor,
        src: Source,
        reduce: ScatterReduce,
    ) -> Result<Tensor, Error> {
        if matches!(src, Source::Tensor(_)) {
            self.session().warn(
                "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a future PyTorch release. Use torch.scatter_reduce instead for more reduction options.",
            );
        }
        self.scatter_with("NotImplemented", dim, index, src, reduce, true)
    }

    /// `scatter_add(dim, index, src)` (`ScatterAddBackward0`).
    pub fn scatter_add(&self, dim: i64, index: &Tensor, src: &Tensor) -> Result<Tensor, Error> {
        let src = Source::Tensor(src);
        self.scatter_with(
            "ScatterAddBackward0",
            dim,
            index,
            src,
            ScatterReduce::Sum,
            true,
        )
    }

    /// `scatter_reduce(dim, index, src, reduce, include_self)` (`ScatterReduceBackward0`).
    pub fn scatter_reduce(
        &self,
        dim: i64,
        index: &Tensor,
        src: &Tensor,
        reduce: ScatterReduce,
        include_self: bool,
    ) -> Result<Tensor, Error> {
        let src = Source::Tensor(src);
        self.scatter_with(
            "ScatterReduceBackward0",
            dim,
            index,
            src,
            reduce,
            include_self,
        )
    }

    fn scatter_with(
        &self,
        node: &'static str,
        dim: i64,
        index: &Tensor,
        src: Source,
        reduce: ScatterReduce,
        include_self: bool,
    ) -> Result<Tensor, Error> {
        let d = wrap_dim(dim, self.dim())?;
        let source = match src {
            Source::Tensor(t) => Some(t),
            Source::Value(_) => None,
        };
        self.check_scatter(d, index, source)?;
        let cut = source.map(|s| s.cut_to(index.shape())).transpose()?;
        let values = match &cut {
            Some(cut) => Source::Tensor(cut),
            None => src,
        };
        let out = self
            .session()
            .no_grad(|| self.scattered(d, index, values, reduce, include_self))?;
        let meta = self.scatter_history(node, d, index, source, reduce, include_self, &out)?;
        Ok(out.with_autograd(meta))
    }

    /// ScatterGatherChecks.h: the index's dtype, rank and sizes against this tensor (and the
    /// source's).
    fn check_scatter(&self, d: usize, index: &Tensor, src: Option<&Tensor>) -> Result<(), Error> {
        if !matches!(index.dtype(), DType::Int64 | DType::Int32) {
            return Err(IndexingError::IndexDtypeFor { op: "scatter" }.into());
        }
        if index.dim() != self.dim() && !(index.dim() <= 1 && self.dim() <= 1) {
            return Err(IndexingError::ScatterIndexDims { what: "self" }.into());
        }
        if let Some(src) = src
            && src.dtype() != self.dtype()
        {
            return Err(IndexingError::ScatterDtype.into());
        }
        let size = |t: &Tensor, a: usize| t.shape().get(a).copied().unwrap_or(1);
        let too_big_for_self = (0..index.dim()).any(|a| a != d && index.shape()[a] > size(self, a));
        let too_big_for_src =
            src.is_some_and(|src| (0..index.dim()).any(|a| index.shape()[a] > size(src, a)));
        if too_big_for_self || too_big_for_src {
            return Err(IndexingError::ScatterIndexSize {
                index: index.shape().to_vec(),
                input: self.shape().to_vec(),
                dim: d,
                rest: src.map_or(String::new(), |src| {
                    format!(
                        " and to be no larger size than src {}",
                        crate::layout::ShapeText(src.shape())
                    )
                }),
            }
            .into());
        }
        super::check_arguments(
            "wrapper_CUDA_scatter_src",
            &[("self", Some(self)), ("index", Some(index)), ("src", src)],
        )?;
        Ok(())
    }

    /// This tensor cut to its first `shape` elements along each dim (a view).
    fn cut_to(&self, shape: &[usize]) -> Result<Tensor, Error> {
        let mut cut = self.clone();
        for (a, &n) in shape.iter().enumerate().take(self.dim()) {
            cut = cut.slice(a as i64, Some(0), Some(n as i64), 1)?;
        }
        Ok(cut)
    }

    /// The values of a scatter, with nothing recorded.
    fn scattered(
        &self,
        d: usize,
        index: &Tensor,
        values: Source,
        reduce: ScatterReduce,
        include_self: bool,
    ) -> Result<Tensor, Error> {
        let size = self.shape().get(d).copied().unwrap_or(1);
        // Sums add on the device (the scatter-add kernel, in float32).
        if let (ScatterReduce::Sum, true, Source::Tensor(src)) = (reduce, include_self, values)
            && !self.device().is_cpu()
            && self.dtype() == DType::Float32
        {
            let summed = pick_gradient(&src.contiguous()?, index, self.shape(), |dest, ix| {
                Picking::gather(dest, ix, d)
            })?;
            return self.add(&summed);
        }
        let positions =
            checked_positions(self, index_values(index)?, size, GATHER_ASSERT, |bad| {
                Error::IndexOutOfBounds {
                    index: bad,
                    dim: d,
                    size,
                }
            })?;
        let picking = Picking::gather(
            &Walk::row_major(&self.shape_or_one()),
            &Walk::row_major(&index.shape_or_one()),
            d,
        );
        let given: Vec<Scalar> = match values {
            Source::Tensor(src) => src.kernel_scalars()?,
            Source::Value(v) => vec![v],
        };
        let mut elements = self.contiguous()?.kernel_scalars()?;
        let mut count = vec![usize::from(include_self); elements.len()];
        for (k, at) in picking.positions(&positions).into_iter().enumerate() {
            let Some(p) = at else { continue };
            let value = given[if given.len() == 1 { 0 } else { k }];
            elements[p] = match count[p] {
                0 => value,
                _ => reduce.combine(elements[p], value),
            };
            count[p] += 1;
        }
        if reduce == ScatterReduce::Mean {
            for (e, &n) in elements.iter_mut().zip(&count) {
                if n > 1 {
                    *e = match *e {
                        Scalar::Int(x) => Scalar::Int(x.div_euclid(n as i64)),
                        x => Scalar::Float(x.as_f64() / n as f64),
                    };
                }
            }
        }
        Tensor::from_values(
            self.session(),
            &elements,
            self.shape(),
            self.dtype(),
            self.device(),
            "scatter",
        )
    }

    /// The shape, with a 0-dim tensor seen as one element.
    fn shape_or_one(&self) -> Vec<usize> {
        match self.dim() {
            0 => vec![1],
            _ => self.shape().to_vec(),
        }
    }

    /// The node of a scatter and its gradients: what reached `self` passes where nothing was
    /// written over it, and each source element gets the gradient of where it landed.
    #[allow(clippy::too_many_arguments)]
    fn scatter_history(
        &self,
        node: &'static str,
        d: usize,
        index: &Tensor,
        source: Option<&Tensor>,
        reduce: ScatterReduce,
        include_self: bool,
        out: &Tensor,
    ) -> Result<crate::autograd::AutogradMeta, Error> {
        let tracked = self.requires_grad() || source.is_some_and(Tensor::requires_grad);
        if !tracked || !self.session().is_grad_enabled() {
            return Ok(crate::autograd::AutogradMeta::default());
        }
        if node == "NotImplemented" {
            let inputs: Vec<&Tensor> = std::iter::once(self).chain(source).collect();
            return Ok(autograd::record(&inputs, || {
                Backward::new(node, |_| {
                    Err(Error::NoDerivative {
                        op: "aten::scatter",
                    })
                })
            }));
        }
        if reduce == ScatterReduce::Prod {
            return Err(Error::GradientNotInLab {
                op: "scatter_reduce with reduce='prod'",
            });
        }
        let index = SavedTensor::new(&index.detach());
        let saved_self = SavedTensor::new(&self.detach());
        let saved_out = SavedTensor::new(&out.detach());
        let saved_src = source.map(|s| SavedTensor::new(&s.detach()));
        let src_shape = source.map(|s| s.shape().to_vec());
        let inputs: Vec<&Tensor> = std::iter::once(self).chain(source).collect();
        Ok(autograd::record(&inputs, || {
            Backward::saving(node, move |grad| {
                let index = index.unpack()?;
                let zero = Scalar::Int(0);
                let (to_self, to_src) = match reduce {
                    ScatterReduce::Assign => (
                        grad.scatter(d as i64, index, Source::Value(zero))?,
                        grad.gather(d as i64, index)?,
                    ),
                    ScatterReduce::Sum if include_self => {
                        (grad.clone(), grad.gather(d as i64, index)?)
                    }
                    ScatterReduce::Sum => (
                        grad.scatter(d as i64, index, Source::Value(zero))?,
                        grad.gather(d as i64, index)?,
                    ),
                    ScatterReduce::Mean => {
                        // Each position's gradient shared by everything averaged there.
                        let ones = Tensor::full(
                            grad.session(),
                            index.shape(),
                            Scalar::Int(1),
                            grad.dtype(),
                            grad.device(),
                        )?;
                        let start = f64::from(u8::from(include_self));
                        let base = Tensor::full(
                            grad.session(),
                            grad.shape(),
                            Scalar::Float(start),
                            grad.dtype(),
                            grad.device(),
                        )?;
                        let count = base.scatter_add(d as i64, index, &ones)?;
                        let shared = grad.div(&count.clamp(Some(Scalar::Int(1)), None)?)?;
                        let to_self = match include_self {
                            true => shared.clone(),
                            false => shared.scatter(d as i64, index, Source::Value(zero))?,
                        };
                        (to_self, shared.gather(d as i64, index)?)
                    }
                    ScatterReduce::Amax | ScatterReduce::Amin => {
                        // Shared evenly by the values equal to the result there.
                        let result = saved_out.unpack()?;
                        let picked = result.gather(d as i64, index)?;
                        let src_hits = match &saved_src {
                            Some(src) => src
                                .unpack()?
                                .cut_to(index.shape())?
                                .compare(Binary::Eq, &picked)?,
                            None => picked.compare(Binary::Eq, &picked)?,
                        }
                        .to_dtype(grad.dtype())?;
                        let self_hits = match include_self {
                            true => saved_self
                                .unpack()?
                                .compare(Binary::Eq, result)?
                                .to_dtype(grad.dtype())?,
                            false => Tensor::full(
                                grad.session(),
                                grad.shape(),
                                Scalar::Int(0),
                                grad.dtype(),
                                grad.device(),
                            )?,
                        };
                        let count = self_hits.scatter_add(d as i64, index, &src_hits)?;
                        let shared = grad.div(&count.clamp(Some(Scalar::Int(1)), None)?)?;
                        (
                            shared.mul(&self_hits)?,
                            shared.gather(d as i64, index)?.mul(&src_hits)?,
                        )
                    }
                    ScatterReduce::Prod => unreachable!("refused before recording"),
                };
                // PyTorch returns the source's gradient in the index's shape, which its engine
                // refuses when the source was larger.
                let to_src = match &src_shape {
                    Some(shape) if shape.as_slice() != to_src.shape() => {
                        return Err(Error::InvalidGradient {
                            node,
                            index: 1,
                            got: to_src.shape().to_vec(),
                            expected: shape.clone(),
                        });
                    }
                    Some(_) => Some(to_src),
                    None => None,
                };
                Ok(std::iter::once(Some(to_self))
                    .chain(src_shape.as_ref().map(|_| to_src))
                    .collect())
            })
        }))
    }

    /// `index_add(dim, index, source, alpha)`: `alpha · source[i]` added at `index[i]` along
    /// `dim` (`IndexAddBackward0`).
    pub fn index_add(
        &self,
        dim: i64,
        index: &Tensor,
        source: &Tensor,
        alpha: Scalar,
    ) -> Result<Tensor, Error> {
        let d = wrap_dim(dim, self.dim())?;
        self.check_index_vector("index_add_", index)?;
        if source.dtype() != self.dtype() {
            return Err(IndexingError::IndexAddDtype {
                self_dtype: self.dtype().scalar_type_name(),
                src: source.dtype().scalar_type_name(),
            }
            .into());
        }
        let size = self.shape().get(d).copied().unwrap_or(1);
        checked_positions(self, index_values(index)?, size, INDEX_ADD_ASSERT, |bad| {
            Error::IndexOutOfBounds {
                index: bad,
                dim: d,
                size,
            }
        })?;
        let out = self.session().no_grad(|| {
            let scaled = source.mul(alpha)?.to_dtype_if_needed(self.dtype())?;
            let summed = pick_gradient(&scaled.contiguous()?, index, self.shape(), |dest, ix| {
                Picking::select(dest, ix, d)
            })?;
            self.add(&summed)?.to_dtype_if_needed(self.dtype())
        })?;
        let saved = SavedTensor::new(&index.detach());
        let meta = autograd::record(&[self, source], || {
            Backward::saving("IndexAddBackward0", move |grad| {
                let picked = grad.index_select(d as i64, saved.unpack()?)?.mul(alpha)?;
                Ok(vec![Some(grad.clone()), Some(picked)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `index_fill(dim, index, value)`: `value` in the slices `index` names
    /// (`IndexFillBackward0`), a `where` over positions compared on the device.
    pub fn index_fill(&self, dim: i64, index: &Tensor, value: Scalar) -> Result<Tensor, Error> {
        let d = wrap_dim(dim, self.dim())?;
        if index.dim() > 1 {
            return Err(IndexingError::IndexFillVector.into());
        }
        let out = self.session().no_grad(|| {
            let chosen = self.slices_named(d, index)?;
            let fill = Tensor::full(self.session(), &[], value, self.dtype(), crate::Device::CPU)?;
            Tensor::where_(&chosen, &fill, self)?.to_dtype_if_needed(self.dtype())
        })?;
        let saved = SavedTensor::new(&index.detach());
        let meta = autograd::record(&[self], || {
            Backward::saving("IndexFillBackward0", move |grad| {
                Ok(vec![Some(grad.index_fill(
                    d as i64,
                    saved.unpack()?,
                    Scalar::Int(0),
                )?)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// A bool tensor broadcastable to this one, true in the slices along `d` that `index`
    /// names (negative positions count from the end). An index out of range is the CPU's error,
    /// or a GPU's device-side assert.
    fn slices_named(&self, d: usize, index: &Tensor) -> Result<Tensor, Error> {
        let size = self.shape().get(d).copied().unwrap_or(1);
        let index = index.to_device_of(self)?.reshape(&[1, -1])?;
        if index.device().is_cpu() {
            if let Some(&bad) = index_values(&index)?
                .iter()
                .find(|&&i| i >= size as i64 || i < -(size as i64))
            {
                return Err(Error::IndexOutOfBoundsIndexing {
                    index: bad,
                    dim: d,
                    size,
                });
            }
        } else {
            // The pick kernel checks the positions itself: a device-side assert when one is out
            // of range, as CUDA's `index_fill` raises.
            let n = Tensor::arange(
                self.session(),
                Scalar::Int(0),
                Scalar::Int(size as i64),
                Scalar::Int(1),
                Some(DType::Int64),
                self.device(),
            )?;
            n.index(&[TensorIndex::Tensor(index.reshape(&[-1])?)])?;
        }
        let n = size as i64;
        let wrapped = index.add(
            &index
                .compare(Binary::Lt, Scalar::Int(0))?
                .to_dtype(DType::Int64)?
                .mul(Scalar::Int(n))?,
        )?;
        let positions = Tensor::arange(
            self.session(),
            Scalar::Int(0),
            Scalar::Int(n),
            Scalar::Int(1),
            Some(DType::Int64),
            self.device(),
        )?
        .reshape(&[-1, 1])?;
        let hit = positions
            .compare(Binary::Eq, &wrapped)?
            .sum(&[1], false)?
            .compare(Binary::Gt, Scalar::Int(0))?;
        let mut shape = vec![1i64; self.dim().max(1)];
        shape[d] = n;
        hit.reshape(&shape)
    }

    /// An index tensor on this tensor's device (CPU indices are copied over, as PyTorch does).
    fn to_device_of(&self, other: &Tensor) -> Result<Tensor, Error> {
        match self.device() == other.device() {
            true => Ok(self.clone()),
            false => self.to(crate::To {
                device: Some(crate::Target::Device(other.device())),
                ..crate::To::default()
            }),
        }
    }

    /// `index_copy(dim, index, source)`: `source[i]` written at `index[i]` along `dim`
    /// (`IndexCopyBackward0`).
    pub fn index_copy(&self, dim: i64, index: &Tensor, source: &Tensor) -> Result<Tensor, Error> {
        let d = wrap_dim(dim, self.dim())?;
        self.check_index_vector("index_copy_", index)?;
        let mut slice = self.shape().to_vec();
        let mut source_slice = source.shape().to_vec();
        if !slice.is_empty() {
            slice.remove(d);
        }
        if !source_slice.is_empty() {
            source_slice.remove(d.min(source_slice.len() - 1));
        }
        if slice != source_slice {
            return Err(IndexingError::IndexCopyShape {
                destination: slice,
                dim: d,
                src: source_slice,
            }
            .into());
        }
        let count = source.shape().get(d).copied().unwrap_or(1);
        if index.numel() != count {
            return Err(IndexingError::IndexCopyCount {
                indices: index.numel(),
                size: count,
            }
            .into());
        }
        let size = self.shape().get(d).copied().unwrap_or(1);
        if index.device().is_cpu()
            && let Some(&bad) = index_values(index)?
                .iter()
                .find(|&&i| i >= size as i64 || i < 0)
        {
            return Err(IndexingError::IndexCopyOutOfBounds {
                index: bad,
                dim: d,
                size,
            }
            .into());
        }
        let mut parts = vec![
            TensorIndex::Slice {
                start: None,
                stop: None,
                step: 1
            };
            d
        ];
        parts.push(TensorIndex::Tensor(index.reshape(&[-1])?));
        let out = self.session().no_grad(|| -> Result<Tensor, Error> {
            let copy = self.clone_tensor()?;
            copy.index_assign(&parts, &source.to_dtype_if_needed(self.dtype())?)?;
            Ok(copy)
        })?;
        let saved = SavedTensor::new(&index.detach());
        let meta = autograd::record(&[self, source], || {
            Backward::saving("IndexCopyBackward0", move |grad| {
                let index = saved.unpack()?;
                Ok(vec![
                    Some(grad.index_fill(d as i64, index, Scalar::Int(0))?),
                    Some(grad.index_select(d as i64, index)?),
                ])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `index_add`'s and `index_copy`'s check that the index is a vector.
    fn check_index_vector(&self, op: &'static str, index: &Tensor) -> Result<(), Error> {
        if index.dim() > 1 {
            return Err(IndexingError::IndexVector {
                op,
                ndim: index.dim(),
                dtype: index.dtype().scalar_type_name(),
                shape: index.shape().to_vec(),
            }
            .into());
        }
        if !matches!(index.dtype(), DType::Int64 | DType::Int32) {
            return Err(IndexingError::IndexDtypeFor { op }.into());
        }
        Ok(())
    }

    /// `masked_select(mask)`: the elements where the (broadcast) mask is true, as a vector
    /// (`MaskedSelectBackward0`). How many there are is read on the host: a sync point on a GPU.
    pub fn masked_select(&self, mask: &Tensor) -> Result<Tensor, Error> {
        if mask.dtype() != DType::Bool {
            return Err(IndexingError::MaskedSelectMask.into());
        }
        let shape = crate::layout::broadcast_shapes(self.shape(), mask.shape())?;
        let sizes: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
        let out = self.session().no_grad(|| {
            self.expand(&sizes)?
                .index(&[TensorIndex::Tensor(mask.expand(&sizes)?)])
        })?;
        let (own, saved) = (self.shape().to_vec(), SavedTensor::new(&mask.detach()));
        let meta = autograd::record(&[self], || {
            Backward::saving("MaskedSelectBackward0", move |grad| {
                let zeros = Tensor::full(
                    grad.session(),
                    &shape,
                    Scalar::Int(0),
                    grad.dtype(),
                    grad.device(),
                )?;
                let mask = saved.unpack()?.expand(&sizes)?;
                let placed = zeros.masked_scatter(&mask, grad)?;
                Ok(vec![Some(placed.sum_to_shape(&own)?)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `masked_scatter(mask, source)`: the source's elements, in order, where the mask is true
    /// (`MaskedScatterBackward0`).
    pub fn masked_scatter(&self, mask: &Tensor, source: &Tensor) -> Result<Tensor, Error> {
        if mask.dtype() != DType::Bool {
            return Err(IndexingError::MaskedScatterMask {
                dtype: mask.dtype().scalar_type_name(),
            }
            .into());
        }
        if source.dtype() != self.dtype() {
            return Err(IndexingError::MaskedScatterDtype {
                self_dtype: self.dtype().scalar_type_name(),
                src: source.dtype().scalar_type_name(),
            }
            .into());
        }
        let sizes: Vec<i64> = self.shape().iter().map(|&s| s as i64).collect();
        let mask = mask.expand(&sizes)?;
        let chosen = mask.nonzero_columns()?;
        let count = chosen.first().map_or(0, Tensor::numel);
        if source.numel() < count {
            return Err(IndexingError::MaskedScatterTooFew.into());
        }
        let out = self.session().no_grad(|| -> Result<Tensor, Error> {
            let values = source
                .reshape(&[-1])?
                .slice(0, Some(0), Some(count as i64), 1)?;
            let copy = self.clone_tensor()?;
            let parts: Vec<TensorIndex> = chosen.into_iter().map(TensorIndex::Tensor).collect();
            if count > 0 {
                copy.index_assign(&parts, &values)?;
            }
            Ok(copy)
        })?;
        let (saved, source_shape) = (SavedTensor::new(&mask.detach()), source.shape().to_vec());
        let meta = autograd::record(&[self, source], || {
            Backward::saving("MaskedScatterBackward0", move |grad| {
                let mask = saved.unpack()?;
                let to_self = grad.masked_fill(mask, Scalar::Int(0))?;
                let picked = grad.masked_select(mask)?;
                let total: usize = source_shape.iter().product();
                let zeros = Tensor::full(
                    grad.session(),
                    &[total],
                    Scalar::Int(0),
                    grad.dtype(),
                    grad.device(),
                )?;
                let placed = picked.padded_into(&zeros)?;
                let shape: Vec<i64> = source_shape.iter().map(|&s| s as i64).collect();
                Ok(vec![Some(to_self), Some(placed.reshape(&shape)?)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `zeros` (a fresh vector) with this vector written at its start.
    fn padded_into(&self, zeros: &Tensor) -> Result<Tensor, Error> {
        let region = zeros
            .layout()
            .slice(0, Some(0), Some(self.numel() as i64), 1)?;
        zeros.write_view(&region, self)?;
        Ok(zeros.clone())
    }

    /// `take(index)`: elements of the flattened tensor (`TakeBackward0`); negative positions
    /// count from the end.
    pub fn take(&self, index: &Tensor) -> Result<Tensor, Error> {
        if !matches!(index.dtype(), DType::Int64) {
            return Err(IndexingError::IndexDtypeFor { op: "take" }.into());
        }
        let numel = self.numel();
        if index.device().is_cpu()
            && let Some(&bad) = index_values(index)?
                .iter()
                .find(|&&i| i >= numel as i64 || i < -(numel as i64))
        {
            return Err(IndexingError::TakeOutOfRange { index: bad, numel }.into());
        }
        let out = self.session().no_grad(|| {
            self.reshape(&[-1])?
                .index(&[TensorIndex::Tensor(index.clone())])
        })?;
        let (shape, saved) = (self.shape().to_vec(), SavedTensor::new(&index.detach()));
        let meta = autograd::record(&[self], || {
            Backward::saving("TakeBackward0", move |grad| {
                let total = shape.iter().product::<usize>();
                let zeros = Tensor::full(
                    grad.session(),
                    &[total],
                    Scalar::Int(0),
                    grad.dtype(),
                    grad.device(),
                )?;
                let placed = zeros.index_put(
                    &[Some(saved.unpack()?.reshape(&[-1])?)],
                    &grad.reshape(&[-1])?,
                    true,
                )?;
                let shape: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
                Ok(vec![Some(placed.reshape(&shape)?)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `take_along_dim(indices, dim)`: `gather` with the indices broadcast against this tensor
    /// (but along `dim`); without a dim, of the flattened tensor.
    pub fn take_along_dim(&self, indices: &Tensor, dim: Option<i64>) -> Result<Tensor, Error> {
        if indices.dtype() != DType::Int64 {
            return Err(IndexingError::TakeAlongDtype {
                dtype: indices.dtype().scalar_type_name(),
            }
            .into());
        }
        let Some(dim) = dim else {
            return self.reshape(&[-1])?.gather(0, &indices.reshape(&[-1])?);
        };
        if indices.dim() != self.dim() {
            return Err(IndexingError::TakeAlongDims {
                input: self.dim(),
                indices: indices.dim(),
            }
            .into());
        }
        let d = wrap_dim(dim, self.dim())?;
        let mut self_shape = self.shape().to_vec();
        let mut index_shape = indices.shape().to_vec();
        self_shape[d] = 1;
        index_shape[d] = 1;
        let common = crate::layout::broadcast_shapes(&self_shape, &index_shape)?;
        let sized = |n: usize| -> Vec<i64> {
            let mut s: Vec<i64> = common.iter().map(|&c| c as i64).collect();
            s[d] = n as i64;
            s
        };
        let input = self.expand(&sized(self.shape()[d]))?;
        let indices = indices.expand(&sized(indices.shape()[d]))?;
        input.gather(dim, &indices)
    }
}

const GATHER_ASSERT: &str = "ScatterGatherKernel.cu: operator(): block: [0,0,0], thread: [0,0,0] Assertion `idx_dim >= 0 && idx_dim < index_size && \"index out of bounds\"` failed.";
const INDEX_ADD_ASSERT: &str = "Indexing.cu: indexFuncLargeIndex: block: [0,0,0], thread: [0,0,0] Assertion `dstIndex < dstAddDimSize` failed.";
