//! Shape and joining ops beyond the plain views of `tensor.rs`: narrowing and splitting, moving,
//! flipping, rolling and repeating dimensions, diagonals and triangles, windows, and stacking.
//!
//! Views share storage (`narrow`, `split`, `chunk`, `unbind`, `movedim`, `diagonal`, `unfold`,
//! `unflatten`); the rest are copies made by ops that run on either backend (index picks along
//! an `arange` made on the tensor's device, `where` over a mask of positions, the copy kernel
//! writing into a view), computed without recording and then given PyTorch's node.

use crate::autograd::{self, Backward};
use crate::backend::cpu::elementwise::Binary;
use crate::dtype::DType;
use crate::element::Scalar;
use crate::error::{Error, ShapeError};
use crate::layout::{Layout, wrap_dim};
use crate::tensor::Tensor;

impl Tensor {
    /// `narrow(dim, start, length)`: `length` elements from `start` (negative counts from the
    /// end), a view (`SliceBackward0`).
    pub fn narrow(&self, dim: i64, start: i64, length: i64) -> Result<Tensor, Error> {
        if self.dim() == 0 {
            return Err(Error::Shape(ShapeError::SplitZeroDim { op: "narrow()" }));
        }
        let d = wrap_dim(dim, self.dim())?;
        let size = self.shape()[d];
        if length < 0 {
            return Err(ShapeError::NarrowNegativeLength.into());
        }
        let n = size as i64;
        if start < -n || start > n {
            return Err(ShapeError::NarrowStart { start, size }.into());
        }
        let start = if start < 0 { start + n } else { start };
        if start + length > n {
            return Err(ShapeError::NarrowPastEnd {
                start,
                length,
                size,
            }
            .into());
        }
        self.slice(d as i64, Some(start), Some(start + length), 1)
    }

    /// A slice recorded under `name` (the pieces of `split` and `chunk`).
    fn piece(
        &self,
        d: usize,
        start: usize,
        len: usize,
        name: &'static str,
    ) -> Result<Tensor, Error> {
        let (start, stop) = (start as i64, (start + len) as i64);
        let layout = self.layout().slice(d as i64, Some(start), Some(stop), 1)?;
        Ok(self.view_of(
            layout,
            Tensor::embed_back(name, self.shape(), move |l| {
                l.slice(d as i64, Some(start), Some(stop), 1)
            }),
        ))
    }

    /// `split(split_size, dim)`: pieces of `split_size` along `dim`, the last one shorter.
    pub fn split(&self, split_size: i64, dim: i64) -> Result<Vec<Tensor>, Error> {
        if self.dim() == 0 {
            return Err(ShapeError::SplitZeroDim { op: "split" }.into());
        }
        let d = wrap_dim(dim, self.dim())?;
        let size = self.shape()[d];
        if split_size < 0 {
            return Err(ShapeError::SplitSizeNegative { split_size }.into());
        }
        if split_size == 0 && size > 0 {
            return Err(ShapeError::SplitSizeZero { size }.into());
        }
        let step = split_size as usize;
        let pieces = if size == 0 { 1 } else { size.div_ceil(step) };
        (0..pieces)
            .map(|k| {
                let start = k * step;
                self.piece(d, start, step.min(size - start), "SplitBackward0")
            })
            .collect()
    }

    /// `split([sizes], dim)`: pieces of the given sizes, which must add up to the dimension.
    pub fn split_with_sizes(&self, sizes: &[i64], dim: i64) -> Result<Vec<Tensor>, Error> {
        if self.dim() == 0 {
            return Err(ShapeError::SplitZeroDim {
                op: "split_with_sizes",
            }
            .into());
        }
        let d = wrap_dim(dim, self.dim())?;
        let size = self.shape()[d];
        if sizes.iter().any(|&s| s < 0) {
            return Err(ShapeError::SplitSizesNegative {
                sizes: sizes.to_vec(),
            }
            .into());
        }
        if sizes.iter().try_fold(0i64, |a, &s| a.checked_add(s)) != Some(size as i64) {
            return Err(ShapeError::SplitSizesSum {
                size,
                dim: d,
                sizes: sizes.to_vec(),
            }
            .into());
        }
        let mut start = 0;
        sizes
            .iter()
            .map(|&len| {
                let piece = self.piece(d, start, len as usize, "SplitWithSizesBackward0");
                start += len as usize;
                piece
            })
            .collect()
    }

    /// `chunk(chunks, dim)`: `split` into pieces of `ceil(size / chunks)`.
    pub fn chunk(&self, chunks: i64, dim: i64) -> Result<Vec<Tensor>, Error> {
        if self.dim() == 0 {
            return Err(ShapeError::SplitZeroDim { op: "chunk" }.into());
        }
        if chunks <= 0 {
            return Err(ShapeError::ChunkCount { chunks }.into());
        }
        let d = wrap_dim(dim, self.dim())?;
        let size = self.shape()[d] as i64;
        let split_size = (size + chunks - 1) / chunks;
        if split_size == 0 && size == 0 {
            let sizes = vec![0; chunks as usize];
            return self.split_with_sizes(&sizes, dim);
        }
        self.split(split_size, dim)
    }

    /// `tensor_split(sections, dim)`: `sections` pieces as equal as can be, the first ones one
    /// longer (`SliceBackward0`).
    pub fn tensor_split_sections(&self, sections: i64, dim: i64) -> Result<Vec<Tensor>, Error> {
        if self.dim() == 0 {
            return Err(ShapeError::SplitZeroDim { op: "tensor_split" }.into());
        }
        if sections <= 0 {
            return Err(ShapeError::TensorSplitSections { sections }.into());
        }
        let d = wrap_dim(dim, self.dim())?;
        let size = self.shape()[d] as i64;
        let (base, extra) = (size / sections, size % sections);
        let mut start = 0;
        (0..sections)
            .map(|k| {
                let len = base + i64::from(k < extra);
                let piece = self.slice(d as i64, Some(start), Some(start + len), 1);
                start += len;
                piece
            })
            .collect()
    }

    /// `tensor_split(indices, dim)`: pieces cut before each index.
    pub fn tensor_split_indices(&self, indices: &[i64], dim: i64) -> Result<Vec<Tensor>, Error> {
        if self.dim() == 0 {
            return Err(ShapeError::SplitZeroDim { op: "tensor_split" }.into());
        }
        let d = wrap_dim(dim, self.dim())?;
        let mut start = 0;
        let mut pieces = Vec::with_capacity(indices.len() + 1);
        for &stop in indices.iter().chain([&i64::MAX]) {
            let stop = if stop == i64::MAX { None } else { Some(stop) };
            pieces.push(self.slice(d as i64, Some(start), stop, 1)?);
            start = stop.unwrap_or(start);
        }
        Ok(pieces)
    }

    /// `unbind(dim)`: the slices along `dim`, each without it (`UnbindBackward0`).
    pub fn unbind(&self, dim: i64) -> Result<Vec<Tensor>, Error> {
        if self.dim() == 0 {
            return Err(ShapeError::NoDimensions { dim }.into());
        }
        let d = wrap_dim(dim, self.dim())?;
        (0..self.shape()[d] as i64)
            .map(|i| {
                let layout = self.layout().select(d as i64, i)?;
                Ok(self.view_of(
                    layout,
                    Tensor::embed_back("UnbindBackward0", self.shape(), move |l| {
                        l.select(d as i64, i)
                    }),
                ))
            })
            .collect()
    }

    /// `movedim(source, destination)`: the listed dimensions moved to the given places, the
    /// others keeping their order (a `permute`).
    pub fn movedim(&self, source: &[i64], destination: &[i64]) -> Result<Tensor, Error> {
        if source.len() != destination.len() {
            return Err(ShapeError::MovedimLengths {
                from: source.to_vec(),
                to: destination.to_vec(),
            }
            .into());
        }
        let n = self.dim();
        let wrap = |dims: &[i64], which: &'static str| -> Result<Vec<usize>, Error> {
            let wrapped = dims
                .iter()
                .map(|&d| wrap_dim(d, n))
                .collect::<Result<Vec<_>, _>>()?;
            let mut seen = vec![false; n.max(1)];
            for &d in &wrapped {
                if std::mem::replace(&mut seen[d], true) {
                    return Err(ShapeError::MovedimRepeated {
                        which,
                        dims: dims.to_vec(),
                    }
                    .into());
                }
            }
            Ok(wrapped)
        };
        let (from, to) = (wrap(source, "source")?, wrap(destination, "destination")?);
        let mut order: Vec<Option<usize>> = vec![None; n];
        for (&f, &t) in from.iter().zip(&to) {
            order[t] = Some(f);
        }
        let mut rest = (0..n).filter(|d| !from.contains(d));
        let dims: Vec<i64> = order
            .into_iter()
            .map(|d| d.or_else(|| rest.next()).unwrap_or(0) as i64)
            .collect();
        self.permute(&dims)
    }

    /// Distinct wrapped dims, with PyTorch's error for a repeated one.
    fn distinct_dims(&self, dims: &[i64]) -> Result<Vec<usize>, Error> {
        let mut wrapped: Vec<usize> = Vec::with_capacity(dims.len());
        for &dim in dims {
            let d = wrap_dim(dim, self.dim())?;
            if wrapped.contains(&d) {
                return Err(ShapeError::RepeatedDim { dim: d }.into());
            }
            wrapped.push(d);
        }
        Ok(wrapped)
    }

    /// `n` int64 positions on this tensor's device: `from`, `from + step`, …
    fn positions(&self, from: i64, n: usize, step: i64) -> Result<Tensor, Error> {
        let end = from + n as i64 * step;
        Tensor::arange(
            self.session(),
            Scalar::Int(from),
            Scalar::Int(end),
            Scalar::Int(step),
            Some(DType::Int64),
            self.device(),
        )
    }

    /// This tensor's values picked along `d` through `index` (positions on its device), with
    /// nothing recorded: the copy step of `flip`, `roll` and `rot90`.
    fn picked(&self, d: usize, index: &Tensor) -> Result<Tensor, Error> {
        self.session()
            .no_grad(|| self.index_select(d as i64, index))
    }

    /// The values of `values` (computed without recording) with the node `name` over this tensor,
    /// whose backward is `back` applied to the incoming gradient.
    fn recorded(
        &self,
        values: Tensor,
        name: &'static str,
        back: impl Fn(&Tensor) -> Result<Tensor, Error> + 'static,
    ) -> Tensor {
        let meta = autograd::record(&[self], || {
            Backward::new(name, move |grad| Ok(vec![Some(back(grad)?)]))
        });
        values.with_autograd(meta)
    }

    /// `flip(dims)`: the order of elements reversed along each of `dims` (a copy,
    /// `FlipBackward0`).
    pub fn flip(&self, dims: &[i64]) -> Result<Tensor, Error> {
        let wrapped = self.distinct_dims(dims)?;
        let mut out = self.session().no_grad(|| self.clone_tensor())?;
        for &d in &wrapped {
            let n = self.shape()[d];
            if n > 1 {
                out = out.picked(d, &self.positions(n as i64 - 1, n, -1)?)?;
            }
        }
        let dims = dims.to_vec();
        Ok(self.recorded(out, "FlipBackward0", move |grad| grad.flip(&dims)))
    }

    /// `roll(shifts, dims)`: elements shifted along each dim, wrapping around; with no dims, the
    /// flattened tensor is rolled (`RollBackward0`).
    pub fn roll(&self, shifts: &[i64], dims: &[i64]) -> Result<Tensor, Error> {
        if dims.is_empty() && shifts.len() == 1 {
            let flat = self.session().no_grad(|| self.reshape(&[-1]))?;
            let rolled = flat.roll(shifts, &[0])?;
            let shape: Vec<i64> = self.shape().iter().map(|&s| s as i64).collect();
            let out = self.session().no_grad(|| rolled.reshape(&shape))?;
            let shifts = shifts.to_vec();
            return Ok(self.recorded(out, "RollBackward0", move |grad| {
                let back: Vec<i64> = shifts.iter().map(|s| -s).collect();
                grad.roll(&back, &[])
            }));
        }
        if shifts.len() != dims.len() {
            return Err(ShapeError::RollAlign {
                shifts: shifts.len(),
                dims: dims.len(),
            }
            .into());
        }
        let mut out = self.session().no_grad(|| self.clone_tensor())?;
        for (&shift, &dim) in shifts.iter().zip(dims) {
            let d = wrap_dim(dim, self.dim())?;
            let n = self.shape()[d];
            if n == 0 {
                continue;
            }
            // Element k comes from (k - shift) mod n.
            let start = (-shift).rem_euclid(n as i64);
            let from = self.session().no_grad(|| {
                self.positions(start, n, 1)?
                    .remainder(Scalar::Int(n as i64))
            })?;
            out = out.picked(d, &from)?;
        }
        let (shifts, dims) = (shifts.to_vec(), dims.to_vec());
        Ok(self.recorded(out, "RollBackward0", move |grad| {
            let back: Vec<i64> = shifts.iter().map(|s| -s).collect();
            grad.roll(&back, &dims)
        }))
    }

    /// `rot90(k, dims)`: `k` quarter turns in the plane of `dims`, from the first towards the
    /// second (`Rot90Backward0`).
    pub fn rot90(&self, k: i64, dims: &[i64]) -> Result<Tensor, Error> {
        if dims.len() != 2 {
            return Err(ShapeError::Rot90Dims { dims: dims.len() }.into());
        }
        if self.dim() < 2 {
            return Err(ShapeError::Rot90Rank { ndim: self.dim() }.into());
        }
        let (d0, d1) = (
            wrap_dim(dims[0], self.dim())?,
            wrap_dim(dims[1], self.dim())?,
        );
        if d0 == d1 {
            return Err(ShapeError::Rot90SameDims { dim0: d0, dim1: d1 }.into());
        }
        let out = self.session().no_grad(|| match k.rem_euclid(4) {
            1 => self
                .flip(&[d1 as i64])?
                .transpose(d0 as i64, d1 as i64)?
                .contiguous(),
            2 => self.flip(&[d0 as i64, d1 as i64]),
            3 => self
                .flip(&[d0 as i64])?
                .transpose(d0 as i64, d1 as i64)?
                .contiguous(),
            _ => self.clone_tensor(),
        })?;
        let dims = dims.to_vec();
        Ok(self.recorded(out, "Rot90Backward0", move |grad| grad.rot90(-k, &dims)))
    }

    /// `repeat(*sizes)`: the tensor tiled `sizes[i]` times along each dimension (leading sizes
    /// add dimensions), a copy (`RepeatBackward0`).
    pub fn repeat(&self, sizes: &[i64]) -> Result<Tensor, Error> {
        if sizes.len() < self.dim() {
            return Err(ShapeError::RepeatTooFewDims.into());
        }
        let lead = sizes.len() - self.dim();
        let padded: Vec<usize> = std::iter::repeat_n(1, lead)
            .chain(self.shape().iter().copied())
            .collect();
        let target: Vec<i64> = sizes
            .iter()
            .zip(&padded)
            .map(|(&r, &s)| r.saturating_mul(s as i64))
            .collect();
        if let Some(&size) = target.iter().find(|&&s| s < 0) {
            return Err(ShapeError::NegativeDimension {
                size,
                shape: target,
            }
            .into());
        }
        // [s0, s1, …] seen as [1, s0, 1, s1, …], expanded to [r0, s0, r1, s1, …], copied.
        let mut interleaved = Vec::with_capacity(2 * padded.len());
        let mut expanded = Vec::with_capacity(2 * padded.len());
        for (&r, &s) in sizes.iter().zip(&padded) {
            interleaved.extend([1, s as i64]);
            expanded.extend([r, s as i64]);
        }
        let out = self.session().no_grad(|| {
            self.reshape(&interleaved)?
                .expand(&expanded)?
                .contiguous()?
                .reshape(&target)
        })?;
        let shape: Vec<i64> = self.shape().iter().map(|&s| s as i64).collect();
        Ok(self.recorded(out, "RepeatBackward0", move |grad| {
            let folded = grad.reshape(&expanded)?;
            let repeats: Vec<i64> = (0..expanded.len()).step_by(2).map(|d| d as i64).collect();
            folded.sum(&repeats, false)?.reshape(&shape)
        }))
    }

    /// `tile(dims)`: `repeat`, with missing leading repetitions taken as 1.
    pub fn tile(&self, dims: &[i64]) -> Result<Tensor, Error> {
        let mut sizes = vec![1; self.dim().saturating_sub(dims.len())];
        sizes.extend_from_slice(dims);
        self.repeat(&sizes)
    }

    /// `repeat_interleave(repeats, dim)` with one count for every element: each element repeated
    /// in place (`unsqueeze`, `expand`, a copy and a `view`, as PyTorch composes it). Without a
    /// dim the tensor is flattened first.
    pub fn repeat_interleave(&self, repeats: i64, dim: Option<i64>) -> Result<Tensor, Error> {
        if repeats < 0 {
            return Err(ShapeError::RepeatsNegative.into());
        }
        let (input, d) = match dim {
            Some(dim) if self.dim() > 0 => (self.clone(), wrap_dim(dim, self.dim())?),
            Some(dim) => (self.reshape(&[1])?, wrap_dim(dim, 0)?),
            None => (self.flatten_all()?, 0),
        };
        let mut expanded = shape_i64(input.shape());
        expanded.insert(d + 1, repeats);
        let mut target = shape_i64(input.shape());
        target[d] = target[d].checked_mul(repeats).ok_or(Error::NumelOverflow)?;
        input
            .unsqueeze(d as i64 + 1)?
            .expand(&expanded)?
            .clone_tensor()?
            .view(&target)
    }

    /// `repeat_interleave(repeats_tensor, dim)`: element `i` along `dim` repeated `repeats[i]`
    /// times (`IndexSelectBackward0`). The counts decide the result's size, so they are read on
    /// the host, a sync point on a GPU as in PyTorch.
    pub fn repeat_interleave_counts(
        &self,
        repeats: &Tensor,
        dim: Option<i64>,
    ) -> Result<Tensor, Error> {
        let (input, d) = match dim {
            Some(dim) => (self.clone(), wrap_dim(dim, self.dim())?),
            None => (self.flatten_all()?, 0),
        };
        if repeats.dim() > 1 {
            return Err(ShapeError::RepeatsNot1D.into());
        }
        let size = input.shape().get(d).copied().unwrap_or(1);
        let counts = Tensor::repeat_counts(repeats)?;
        let counts = match counts.len() {
            1 if repeats.dim() == 0 || size != 1 => vec![counts[0]; size],
            n if n == size => counts,
            n => {
                return Err(ShapeError::RepeatsSize { repeats: n, size }.into());
            }
        };
        let index = Tensor::repeated_positions(&counts, repeats.session(), self.device())?;
        input.index_select(d as i64, &index)
    }

    /// `torch.repeat_interleave(repeats)`: each position `i` repeated `repeats[i]` times.
    pub fn repeat_interleave_positions(repeats: &Tensor) -> Result<Tensor, Error> {
        if repeats.dim() > 1 {
            return Err(ShapeError::RepeatsNot1D.into());
        }
        let counts = Tensor::repeat_counts(repeats)?;
        Tensor::repeated_positions(&counts, repeats.session(), repeats.device())
    }

    /// The counts of a repeats tensor, read on the host and checked.
    fn repeat_counts(repeats: &Tensor) -> Result<Vec<usize>, Error> {
        repeats
            .scalars()?
            .into_iter()
            .map(|s| match s {
                Scalar::Int(n) if n >= 0 => Ok(n as usize),
                Scalar::Bool(b) => Ok(usize::from(b)),
                _ => Err(ShapeError::RepeatsNegative.into()),
            })
            .collect()
    }

    /// `[0] * counts[0] + [1] * counts[1] + …` as an int64 tensor on `device`.
    fn repeated_positions(
        counts: &[usize],
        session: &crate::Session,
        device: crate::Device,
    ) -> Result<Tensor, Error> {
        let total = counts
            .iter()
            .try_fold(0usize, |a, &c| a.checked_add(c))
            .ok_or(Error::NumelOverflow)?;
        session.check_fits(device, &[total], 8)?;
        let positions: Vec<Scalar> = counts
            .iter()
            .enumerate()
            .flat_map(|(i, &c)| std::iter::repeat_n(Scalar::Int(i as i64), c))
            .collect();
        Tensor::from_values(
            session,
            &positions,
            &[total],
            DType::Int64,
            device,
            "repeat_interleave",
        )
    }

    /// The tensor as one dimension (`reshape(-1)`).
    pub fn flatten_all(&self) -> Result<Tensor, Error> {
        self.reshape(&[-1])
    }

    /// `unflatten(dim, sizes)`: dimension `dim` seen as `sizes` (one may be `-1`), a view.
    pub fn unflatten(&self, dim: i64, sizes: &[i64]) -> Result<Tensor, Error> {
        let d = wrap_dim(dim, self.dim())?;
        if sizes.is_empty() {
            return Err(ShapeError::UnflattenEmpty.into());
        }
        let size = self.shape().get(d).copied().unwrap_or(1);
        let resolved = crate::layout::infer_size(sizes, size).map_err(|e| match e {
            Error::ShapeInvalidForSize { .. } => ShapeError::UnflattenSizes {
                sizes: sizes.to_vec(),
                dim: d,
                size,
            }
            .into(),
            other => other,
        })?;
        let mut shape: Vec<i64> = self.shape().iter().map(|&s| s as i64).collect();
        shape.splice(d..=d, resolved.iter().map(|&s| s as i64));
        self.view(&shape)
    }

    /// `unfold(dim, size, step)`: the windows of `size` every `step` along `dim`, as a last
    /// dimension (a view, `UnfoldBackward0`: overlapping windows add their gradients).
    pub fn unfold(&self, dim: i64, size: i64, step: i64) -> Result<Tensor, Error> {
        let layout = self.layout().unfold(dim, size, step)?;
        let shape = self.shape().to_vec();
        let d = wrap_dim(dim, self.dim())?;
        Ok(self.view_of(layout, move || {
            Backward::new("UnfoldBackward0", move |grad| {
                let zeros = Tensor::full(
                    grad.session(),
                    &shape,
                    Scalar::Int(0),
                    grad.dtype(),
                    grad.device(),
                )?;
                if shape.is_empty() {
                    return Ok(vec![Some(grad.reshape(&[])?)]);
                }
                // Window w covers positions w·step … w·step + size − 1: position j of every
                // window is one strided slice of the input.
                let windows = grad.shape()[d];
                for j in 0..size {
                    let picked = grad.select(-1, j)?;
                    let stop = j + (windows as i64 - 1) * step + 1;
                    let target = zeros.layout().slice(d as i64, Some(j), Some(stop), step)?;
                    let region = zeros.relaid(target.clone());
                    let summed = region.add(&picked)?;
                    zeros.write_view(&target, &summed)?;
                }
                Ok(vec![Some(zeros)])
            })
        }))
    }

    /// `diagonal(offset, dim1, dim2)`: the diagonal as a last dimension, a view
    /// (`DiagonalBackward0`).
    pub fn diagonal(&self, offset: i64, dim1: i64, dim2: i64) -> Result<Tensor, Error> {
        let layout = self.layout().diagonal(offset, dim1, dim2)?;
        Ok(self.view_of(
            layout,
            Tensor::embed_back("DiagonalBackward0", self.shape(), move |l| {
                l.diagonal(offset, dim1, dim2)
            }),
        ))
    }

    /// `diag_embed(offset, dim1, dim2)`: the last dimension laid along the diagonal of a new
    /// square pair of dimensions, zeros elsewhere (`DiagEmbedBackward0`).
    pub fn diag_embed(&self, offset: i64, dim1: i64, dim2: i64) -> Result<Tensor, Error> {
        let ndim = self.dim() + 1;
        let (d1, d2) = (wrap_dim(dim1, ndim)?, wrap_dim(dim2, ndim)?);
        if d1 == d2 {
            return Err(ShapeError::DiagonalSameDims { dim1, dim2 }.into());
        }
        let n = self.shape().last().copied().unwrap_or(1) + offset.unsigned_abs() as usize;
        let mut shape: Vec<usize> = self.shape()[..self.dim().saturating_sub(1)].to_vec();
        let (low, high) = (d1.min(d2), d1.max(d2));
        shape.insert(low, n);
        shape.insert(high, n);
        let out = Tensor::full(
            self.session(),
            &shape,
            Scalar::Int(0),
            self.dtype(),
            self.device(),
        )?;
        // The diagonal of the result has this tensor's shape.
        out.write_view(&out.layout().diagonal(offset, d1 as i64, d2 as i64)?, self)?;
        Ok(self.recorded(out, "DiagEmbedBackward0", move |grad| {
            grad.diagonal(offset, d1 as i64, d2 as i64)
        }))
    }

    /// `torch.diag(input, diagonal)`: a vector made a square matrix's diagonal, or a matrix's
    /// diagonal (`DiagEmbedBackward0`, `DiagonalBackward0_copy`).
    pub fn diag(&self, offset: i64) -> Result<Tensor, Error> {
        match self.dim() {
            1 => self.diag_embed(offset, 0, 1),
            2 => {
                let out = self
                    .session()
                    .no_grad(|| self.diagonal(offset, 0, 1)?.clone_tensor())?;
                let shape = self.shape().to_vec();
                Ok(self.recorded(out, "DiagonalBackward0_copy", move |grad| {
                    let zeros = Tensor::full(
                        grad.session(),
                        &shape,
                        Scalar::Int(0),
                        grad.dtype(),
                        grad.device(),
                    )?;
                    zeros.write_view(&zeros.layout().diagonal(offset, 0, 1)?, grad)?;
                    Ok(zeros)
                }))
            }
            ndim => Err(ShapeError::DiagRank { ndim }.into()),
        }
    }

    /// `triu(diagonal)` / `tril(diagonal)`: the upper (lower) triangle of the last two
    /// dimensions, zeros elsewhere (`TriuBackward0`, `TrilBackward0`).
    pub fn triangle(&self, upper: bool, offset: i64) -> Result<Tensor, Error> {
        let op = if upper { "triu" } else { "tril" };
        if self.dim() < 2 {
            return Err(ShapeError::TriangleRank { op }.into());
        }
        let keep = self.triangle_mask(upper, offset)?;
        let zero = Tensor::full(
            self.session(),
            &[],
            Scalar::Int(0),
            self.dtype(),
            crate::Device::CPU,
        )?;
        let out = self
            .session()
            .no_grad(|| Tensor::where_(&keep, self, &zero))?
            .to_dtype_if_needed(self.dtype())?;
        let name = if upper {
            "TriuBackward0"
        } else {
            "TrilBackward0"
        };
        Ok(self.recorded(out, name, move |grad| grad.triangle(upper, offset)))
    }

    /// `triu_` / `tril_`.
    pub fn triangle_(&self, upper: bool, offset: i64) -> Result<&Tensor, Error> {
        if self.dim() < 2 {
            let op = if upper { "triu" } else { "tril" };
            return Err(ShapeError::TriangleRank { op }.into());
        }
        self.in_place(|t| t.triangle(upper, offset), Vec::new())
    }

    /// Where the triangle keeps values: `col - row >= offset` (upper) or `<= offset` (lower),
    /// computed on the tensor's device.
    fn triangle_mask(&self, upper: bool, offset: i64) -> Result<Tensor, Error> {
        let n = self.dim();
        let (rows, cols) = (self.shape()[n - 2], self.shape()[n - 1]);
        self.session().no_grad(|| {
            let row = self.positions(0, rows, 1)?.unsqueeze(1)?;
            let col = self.positions(0, cols, 1)?.unsqueeze(0)?;
            let diff = col.sub(&row)?;
            let test = if upper { Binary::Ge } else { Binary::Le };
            diff.compare(test, Scalar::Int(offset))
        })
    }

    /// `trace()`: the sum of a matrix's diagonal (`TraceBackward0`); integers sum to int64.
    pub fn trace(&self) -> Result<Tensor, Error> {
        if self.dim() != 2 {
            return Err(ShapeError::TraceRank { ndim: self.dim() }.into());
        }
        if self.dtype() == DType::Bool {
            return Err(Error::KernelNotForDtype {
                kernel: "trace".into(),
                dtype: DType::Bool,
            });
        }
        let out = self
            .session()
            .no_grad(|| self.diagonal(0, 0, 1)?.sum(&[], false))?;
        let shape = self.shape().to_vec();
        Ok(self.recorded(out, "TraceBackward0", move |grad| {
            let (rows, cols) = (shape[0] as i64, shape[1] as i64);
            let eye = Tensor::eye(
                grad.session(),
                rows,
                Some(cols),
                grad.dtype(),
                grad.device(),
            )?;
            eye.mul(grad)
        }))
    }

    /// `T`: the dimensions reversed (`PermuteBackward0`); PyTorch warns for other than 2.
    pub fn reversed_dims(&self) -> Result<Tensor, Error> {
        match self.dim() {
            2 => {}
            0 => self.session().warn(ZERO_DIM_T_WARNING),
            _ => self.session().warn(T_WARNING),
        }
        let dims: Vec<i64> = (0..self.dim() as i64).rev().collect();
        self.permute(&dims)
    }

    /// `mT`: the last two dimensions swapped.
    pub fn matrix_transpose(&self) -> Result<Tensor, Error> {
        if self.dim() < 2 {
            return Err(ShapeError::MatrixTransposeRank { ndim: self.dim() }.into());
        }
        self.transpose(-2, -1)
    }

    /// `H`: a matrix's conjugate transpose (real tensors: the transpose).
    pub fn adjoint(&self) -> Result<Tensor, Error> {
        if self.dim() != 2 {
            return Err(ShapeError::AdjointRank { ndim: self.dim() }.into());
        }
        self.transpose(0, 1)
    }

    /// `atleast_1d/2d/3d`: dimensions added to reach `n` (a 0-dim tensor becomes `[1]`,
    /// `[1, 1]`, `[1, 1, 1]`; a vector `[1, k]`, `[1, k, 1]`; a matrix `[r, c, 1]`).
    pub fn at_least(&self, n: usize) -> Result<Tensor, Error> {
        match (self.dim(), n) {
            (d, n) if d >= n => Ok(self.clone()),
            (0, n) => self.reshape(&vec![1; n]),
            (1, 2) | (1, 3) => {
                let lifted = self.unsqueeze(0)?;
                if n == 3 {
                    lifted.unsqueeze(2)
                } else {
                    Ok(lifted)
                }
            }
            _ => self.unsqueeze(2),
        }
    }

    /// `squeeze(dims)` of several dims: each of size 1 removed, in one view
    /// (`SqueezeBackward2`).
    pub fn squeeze_dims(&self, dims: &[i64]) -> Result<Tensor, Error> {
        let wrapped = self.distinct_dims(dims)?;
        let mut layout: Layout = self.layout().clone();
        for d in (0..self.dim()).rev() {
            if wrapped.contains(&d) && self.shape()[d] == 1 {
                layout.shape.remove(d);
                layout.strides.remove(d);
            }
        }
        Ok(self.view_of(
            layout,
            Tensor::reshape_back("SqueezeBackward2", self.shape()),
        ))
    }
}

/// Joining several tensors: `hstack`, `vstack`, `dstack`, `column_stack`, `broadcast_tensors`,
/// `meshgrid`.
impl Tensor {
    /// `hstack`: along the first dimension for vectors, else along the second.
    pub fn hstack(tensors: &[&Tensor]) -> Result<Tensor, Error> {
        let lifted = at_least_all(tensors, 1, "hstack")?;
        let dim = if lifted.iter().all(|t| t.dim() == 1) {
            0
        } else {
            1
        };
        Tensor::cat(&lifted.iter().collect::<Vec<_>>(), dim)
    }

    /// `vstack` (`row_stack`): vectors become rows.
    pub fn vstack(tensors: &[&Tensor]) -> Result<Tensor, Error> {
        let lifted = at_least_all(tensors, 2, "vstack")?;
        Tensor::cat(&lifted.iter().collect::<Vec<_>>(), 0)
    }

    /// `dstack`: along a third dimension.
    pub fn dstack(tensors: &[&Tensor]) -> Result<Tensor, Error> {
        let lifted = at_least_all(tensors, 3, "dstack")?;
        Tensor::cat(&lifted.iter().collect::<Vec<_>>(), 2)
    }

    /// `column_stack`: vectors (and scalars) become columns.
    pub fn column_stack(tensors: &[&Tensor]) -> Result<Tensor, Error> {
        if tensors.is_empty() {
            return Err(ShapeError::EmptyTensorList { op: "column_stack" }.into());
        }
        let columns = tensors
            .iter()
            .map(|t| match t.dim() {
                0 | 1 => t.reshape(&[t.numel() as i64, 1]),
                _ => Ok((*t).clone()),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Tensor::cat(&columns.iter().collect::<Vec<_>>(), 1)
    }

    /// `broadcast_tensors`: each expanded to the shape they broadcast to.
    pub fn broadcast_tensors(tensors: &[&Tensor]) -> Result<Vec<Tensor>, Error> {
        let mut shape: Vec<usize> = Vec::new();
        for t in tensors {
            shape = crate::layout::broadcast_shapes(&shape, t.shape())?;
        }
        let sizes = shape_i64(&shape);
        tensors.iter().map(|t| t.expand(&sizes)).collect()
    }

    /// `meshgrid(tensors, indexing)`: each vector expanded along its own dimension of the grid;
    /// `xy` indexing swaps the first two.
    pub fn meshgrid(tensors: &[&Tensor], cartesian: bool) -> Result<Vec<Tensor>, Error> {
        for t in tensors {
            if t.dim() > 1 {
                return Err(ShapeError::MeshgridRank {
                    shown: t.repr().unwrap_or_default(),
                }
                .into());
            }
        }
        let mut sizes: Vec<i64> = tensors.iter().map(|t| t.numel() as i64).collect();
        let swap = cartesian && tensors.len() >= 2;
        if swap {
            sizes.swap(0, 1);
        }
        tensors
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let at = match (swap, i) {
                    (true, 0) => 1,
                    (true, 1) => 0,
                    _ => i,
                };
                let mut shape = vec![1i64; tensors.len()];
                shape[at] = -1;
                t.view(&shape)?.expand(&sizes)
            })
            .collect()
    }
}

/// PyTorch's warnings for `T` on tensors that are not matrices (TensorShape.cpp).
const T_WARNING: &str = "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it will throw an error in a future release. Consider `x.mT` to transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.";
const ZERO_DIM_T_WARNING: &str =
    "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.";

fn at_least_all(tensors: &[&Tensor], n: usize, op: &'static str) -> Result<Vec<Tensor>, Error> {
    if tensors.is_empty() {
        return Err(ShapeError::EmptyTensorList { op }.into());
    }
    tensors.iter().map(|t| t.at_least(n)).collect()
}

fn shape_i64(shape: &[usize]) -> Vec<i64> {
    shape.iter().map(|&s| s as i64).collect()
}
