//! Shapes, strides and storage offsets: where each element of a tensor lives in its storage, and
//! the view operations that change that without copying (`view`, `transpose`, `permute`,
//! `unsqueeze`, `squeeze`, `expand`, `select`, slicing, `diagonal`, `unfold`).
//!
//! The algorithms and error texts follow ATen: `infer_size` and `computeStride`
//! (aten/src/ATen/InferSize.h, TensorUtils.cpp), `inferExpandGeometry` (ExpandUtils.cpp), and the
//! checks in TensorShape.cpp.

use std::fmt;

use crate::error::{Error, ShapeError};

/// The geometry of a tensor over its storage.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Layout {
    pub shape: Vec<usize>,
    /// Elements (not bytes) to step in storage per index in each dimension; 0 for expanded ones.
    pub strides: Vec<usize>,
    /// Index of the first element in storage.
    pub offset: usize,
}

/// What `reshape` can do: keep the storage (a view) or copy into this new shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reshape {
    View(Layout),
    Copy(Vec<usize>),
}

impl Layout {
    /// A fresh, row-major layout of `shape` at offset 0.
    pub fn contiguous(shape: &[usize]) -> Layout {
        Layout {
            shape: shape.to_vec(),
            strides: contiguous_strides(shape),
            offset: 0,
        }
    }

    pub fn dim(&self) -> usize {
        self.shape.len()
    }

    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }

    /// PyTorch's definition: row-major strides, ignoring dimensions of size 1; empty tensors are
    /// always contiguous.
    pub fn is_contiguous(&self) -> bool {
        if self.numel() == 0 {
            return true;
        }
        let mut expected = 1;
        for (&size, &stride) in self.shape.iter().zip(&self.strides).rev() {
            if size != 1 {
                if stride != expected {
                    return false;
                }
                expected *= size;
            }
        }
        true
    }

    /// The storage index of every element, in row-major order.
    pub fn indices(&self) -> impl Iterator<Item = usize> + '_ {
        let n = self.numel();
        let mut position = vec![0usize; self.dim()];
        let mut current = self.offset;
        (0..n).map(move |i| {
            if i > 0 {
                for d in (0..position.len()).rev() {
                    position[d] += 1;
                    current += self.strides[d];
                    if position[d] < self.shape[d] {
                        break;
                    }
                    current -= self.strides[d] * position[d];
                    position[d] = 0;
                }
            }
            current
        })
    }

    /// `tensor.view(*shape)`: the same storage seen with another shape, where the strides allow it.
    pub fn view(&self, spec: &[i64]) -> Result<Layout, Error> {
        let shape = infer_size(spec, self.numel())?;
        let strides = self.view_strides(&shape).ok_or(Error::ViewNotCompatible)?;
        Ok(Layout {
            shape,
            strides,
            offset: self.offset,
        })
    }

    /// `tensor.reshape(*shape)`: a view when the strides allow it, otherwise a contiguous copy.
    pub fn reshape(&self, spec: &[i64]) -> Result<Reshape, Error> {
        let shape = infer_size(spec, self.numel())?;
        Ok(match self.view_strides(&shape) {
            Some(strides) => Reshape::View(Layout {
                shape,
                strides,
                offset: self.offset,
            }),
            None => Reshape::Copy(shape),
        })
    }

    /// ATen's `computeStride`: strides that walk the same elements in `new_shape`, if there are any.
    fn view_strides(&self, new_shape: &[usize]) -> Option<Vec<usize>> {
        let (old_shape, old_strides) = (&self.shape, &self.strides);
        if old_shape.is_empty() {
            return Some(vec![1; new_shape.len()]);
        }
        let numel = self.numel();
        if numel == 0 && old_shape.as_slice() == new_shape {
            return Some(old_strides.clone());
        }
        let mut new_strides = vec![0usize; new_shape.len()];
        if numel == 0 {
            for d in (0..new_shape.len()).rev() {
                new_strides[d] = if d + 1 == new_shape.len() {
                    1
                } else {
                    new_shape[d + 1].max(1) * new_strides[d + 1]
                };
            }
            return Some(new_strides);
        }
        // Walk the old dimensions from the innermost, in chunks whose elements are evenly spaced,
        // and give each chunk's elements to new dimensions of the same total size.
        let mut view_d = new_shape.len() as isize - 1;
        let mut chunk_base_stride = *old_strides.last()?;
        let mut tensor_numel = 1;
        let mut view_numel = 1;
        for tensor_d in (0..old_shape.len()).rev() {
            tensor_numel *= old_shape[tensor_d];
            let chunk_ends = tensor_d == 0
                || (old_shape[tensor_d - 1] != 1
                    && old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride);
            if chunk_ends {
                while view_d >= 0 && (view_numel < tensor_numel || new_shape[view_d as usize] == 1)
                {
                    new_strides[view_d as usize] = view_numel * chunk_base_stride;
                    view_numel *= new_shape[view_d as usize];
                    view_d -= 1;
                }
                if view_numel != tensor_numel {
                    return None;
                }
                if tensor_d > 0 {
                    chunk_base_stride = old_strides[tensor_d - 1];
                    tensor_numel = 1;
                    view_numel = 1;
                }
            }
        }
        (view_d == -1).then_some(new_strides)
    }

    /// `tensor.transpose(dim0, dim1)`.
    pub fn transpose(&self, dim0: i64, dim1: i64) -> Result<Layout, Error> {
        let (a, b) = (wrap_dim(dim0, self.dim())?, wrap_dim(dim1, self.dim())?);
        let mut out = self.clone();
        if self.dim() > 0 {
            out.shape.swap(a, b);
            out.strides.swap(a, b);
        }
        Ok(out)
    }

    /// `tensor.t()`: transpose of a matrix; vectors and scalars are returned as they are.
    pub fn t(&self) -> Result<Layout, Error> {
        match self.dim() {
            0 | 1 => Ok(self.clone()),
            2 => self.transpose(0, 1),
            dim => Err(Error::TNeedsAtMost2D { dim }),
        }
    }

    /// `tensor.permute(*dims)`.
    pub fn permute(&self, dims: &[i64]) -> Result<Layout, Error> {
        if dims.len() != self.dim() {
            return Err(Error::PermuteWrongLength {
                ndim: self.dim(),
                len: dims.len(),
            });
        }
        let wrapped = dims
            .iter()
            .map(|&d| wrap_dim(d, self.dim()))
            .collect::<Result<Vec<_>, _>>()?;
        let mut seen = vec![false; self.dim()];
        for &d in &wrapped {
            if std::mem::replace(&mut seen[d], true) {
                return Err(Error::PermuteDuplicateDims);
            }
        }
        Ok(Layout {
            shape: wrapped.iter().map(|&d| self.shape[d]).collect(),
            strides: wrapped.iter().map(|&d| self.strides[d]).collect(),
            offset: self.offset,
        })
    }

    /// `tensor.unsqueeze(dim)`: a new dimension of size 1 (valid dims: `[-dim-1, dim]`).
    pub fn unsqueeze(&self, dim: i64) -> Result<Layout, Error> {
        let d = wrap_dim(dim, self.dim() + 1)?;
        let stride = if d >= self.dim() {
            1
        } else {
            self.shape[d] * self.strides[d]
        };
        let mut out = self.clone();
        out.shape.insert(d, 1);
        out.strides.insert(d, stride);
        Ok(out)
    }

    /// `tensor.squeeze()` (every size-1 dimension) or `tensor.squeeze(dim)` (that one, if size 1).
    pub fn squeeze(&self, dim: Option<i64>) -> Result<Layout, Error> {
        let keep: Vec<bool> = match dim {
            None => self.shape.iter().map(|&s| s != 1).collect(),
            Some(dim) => {
                let d = wrap_dim(dim, self.dim())?;
                (0..self.dim())
                    .map(|i| i != d || self.shape[i] != 1)
                    .collect()
            }
        };
        let pick = |v: &[usize]| {
            v.iter()
                .zip(&keep)
                .filter(|&(_, k)| *k)
                .map(|(x, _)| *x)
                .collect()
        };
        Ok(Layout {
            shape: pick(&self.shape),
            strides: pick(&self.strides),
            offset: self.offset,
        })
    }

    /// `tensor.expand(*sizes)`: size-1 dimensions repeated without copying (stride 0); `-1` keeps a
    /// size. `type_name` (`torch.FloatTensor`) appears in one of PyTorch's messages.
    pub fn expand(&self, sizes: &[i64], type_name: &str) -> Result<Layout, Error> {
        if sizes.len() < self.dim() {
            return Err(Error::ExpandTooFewSizes {
                type_name: type_name.to_owned(),
                shape: self.shape.clone(),
                sizes: sizes.to_vec(),
            });
        }
        if self.dim() == 0 {
            let shape = sizes
                .iter()
                .map(|&s| usize::try_from(s).map_err(|_| Error::NumelOverflow))
                .collect::<Result<Vec<_>, _>>()?;
            let strides = vec![0; shape.len()];
            return Ok(Layout {
                shape,
                strides,
                offset: self.offset,
            });
        }
        let n = sizes.len();
        let mut shape = vec![0usize; n];
        let mut strides = vec![0usize; n];
        for i in (0..n).rev() {
            let existing = (i + self.dim()).checked_sub(n);
            let (mut size, mut stride) = match existing {
                Some(d) => (self.shape[d], self.strides[d]),
                None => (
                    1,
                    if i + 1 < n {
                        shape[i + 1] * strides[i + 1]
                    } else {
                        1
                    },
                ),
            };
            let target = match sizes[i] {
                -1 if existing.is_none() => {
                    return Err(Error::ExpandLeadingInfer { size: -1, dim: i });
                }
                -1 => size as i64,
                t => t,
            };
            if usize::try_from(target).ok() != Some(size) {
                if size != 1 {
                    return Err(Error::ExpandMismatch {
                        target,
                        existing: size,
                        dim: i,
                        sizes: sizes.to_vec(),
                        shape: self.shape.clone(),
                    });
                }
                size = usize::try_from(target).map_err(|_| Error::NumelOverflow)?;
                stride = 0;
            }
            shape[i] = size;
            strides[i] = stride;
        }
        Ok(Layout {
            shape,
            strides,
            offset: self.offset,
        })
    }

    /// `tensor.select(dim, index)` (`t[i]` on the first dimension): that dimension removed.
    pub fn select(&self, dim: i64, index: i64) -> Result<Layout, Error> {
        if self.dim() == 0 {
            return Err(Error::SelectZeroDim);
        }
        let d = wrap_dim(dim, self.dim())?;
        let size = self.shape[d] as i64;
        if index < -size || index >= size {
            return Err(Error::SelectOutOfRange {
                index,
                shape: self.shape.clone(),
                dim: d,
            });
        }
        let i = if index < 0 { index + size } else { index } as usize;
        let mut out = self.clone();
        out.offset += i * self.strides[d];
        out.shape.remove(d);
        out.strides.remove(d);
        Ok(out)
    }

    /// `t[..., start:stop:step]` on dimension `dim`, with Python's clamping of out-of-range bounds.
    pub fn slice(
        &self,
        dim: i64,
        start: Option<i64>,
        stop: Option<i64>,
        step: i64,
    ) -> Result<Layout, Error> {
        let d =
            wrap_dim(dim, self.dim()).map_err(|_| Error::TooManyIndices { ndim: self.dim() })?;
        if self.dim() == 0 {
            return Err(Error::TooManyIndices { ndim: 0 });
        }
        if step == 0 {
            return Err(Error::SliceStepZero);
        }
        if step < 0 {
            return Err(Error::SliceStepNegative);
        }
        let size = self.shape[d] as i64;
        let clamp = |bound: i64| (if bound < 0 { bound + size } else { bound }).clamp(0, size);
        let start = clamp(start.unwrap_or(0));
        let stop = clamp(stop.unwrap_or(size)).max(start);
        let len = (stop - start + step - 1) / step;
        let mut out = self.clone();
        out.offset += start as usize * self.strides[d];
        out.shape[d] = len as usize;
        out.strides[d] *= step as usize;
        Ok(out)
    }
}

impl Layout {
    /// `diagonal(offset, dim1, dim2)`: both dimensions removed, and the diagonal (elements
    /// `[i, i + offset]`) appended as the last dimension; empty when the offset passes the edge.
    pub fn diagonal(&self, offset: i64, dim1: i64, dim2: i64) -> Result<Layout, Error> {
        let (d1, d2) = (wrap_dim(dim1, self.dim())?, wrap_dim(dim2, self.dim())?);
        if d1 == d2 {
            return Err(ShapeError::DiagonalSameDims { dim1, dim2 }.into());
        }
        let (rows, cols) = (self.shape[d1] as i64, self.shape[d2] as i64);
        let (len, start) = if offset >= 0 {
            (
                (rows).min(cols - offset).max(0),
                offset as usize * self.strides[d2],
            )
        } else {
            (
                (rows + offset).min(cols).max(0),
                offset.unsigned_abs() as usize * self.strides[d1],
            )
        };
        let mut out = self.clone();
        if len > 0 {
            out.offset += start;
        }
        let stride = self.strides[d1] + self.strides[d2];
        for d in [d1.max(d2), d1.min(d2)] {
            out.shape.remove(d);
            out.strides.remove(d);
        }
        out.shape.push(len as usize);
        out.strides.push(stride);
        Ok(out)
    }

    /// `unfold(dim, size, step)`: dimension `dim` becomes the windows' starts (every `step`), and a
    /// last dimension of `size` walks each window.
    pub fn unfold(&self, dim: i64, size: i64, step: i64) -> Result<Layout, Error> {
        let d = wrap_dim(dim, self.dim())?;
        let extent = self.shape.get(d).copied().unwrap_or(1);
        let stride = self.strides.get(d).copied().unwrap_or(1);
        if size < 0 || size as usize > extent {
            return Err(ShapeError::UnfoldSize {
                dim: d,
                max: extent,
                size,
            }
            .into());
        }
        if step <= 0 {
            return Err(ShapeError::UnfoldStep { step }.into());
        }
        let windows = (extent - size as usize) / step as usize + 1;
        let mut out = self.clone();
        if self.dim() == 0 {
            out.shape.push(size as usize);
            out.strides.push(1);
            return Ok(out);
        }
        out.shape[d] = windows;
        out.strides[d] = stride * step as usize;
        out.shape.push(size as usize);
        out.strides.push(stride);
        Ok(out)
    }

    /// Whether the elements fill a block of storage exactly once, in some order of dimensions
    /// (ATen's `is_non_overlapping_and_dense`): then copies keep the strides.
    pub fn is_non_overlapping_and_dense(&self) -> bool {
        let mut dims: Vec<usize> = (0..self.dim()).filter(|&d| self.shape[d] != 1).collect();
        dims.sort_by_key(|&d| self.strides[d]);
        let mut expected = 1;
        for d in dims {
            if self.strides[d] != expected {
                return false;
            }
            expected *= self.shape[d];
        }
        true
    }

    /// The layout a copy gets with `memory_format=torch.preserve_format` (what `.to()` uses): the
    /// same strides for a dense tensor, row-major otherwise; at offset 0 either way.
    pub fn preserved_for_copy(&self) -> Layout {
        if self.is_non_overlapping_and_dense() {
            Layout {
                shape: self.shape.clone(),
                strides: self.strides.clone(),
                offset: 0,
            }
        } else {
            Layout::contiguous(&self.shape)
        }
    }
}

/// The bytes a tensor of `shape` needs, or PyTorch's overflow error when that does not fit.
pub fn checked_storage_size(shape: &[usize], element_size: usize) -> Result<usize, Error> {
    shape
        .iter()
        .try_fold(element_size, |acc, &d| acc.checked_mul(d))
        .filter(|&bytes| bytes <= isize::MAX as usize)
        .ok_or_else(|| Error::StorageSizeOverflow {
            sizes: shape.iter().map(|&d| d as i64).collect(),
        })
}

/// Row-major strides for `shape`.
pub fn contiguous_strides(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * shape[d + 1].max(1);
    }
    strides
}

/// ATen's `maybe_wrap_dim`: `-1` is the last dimension; a 0-dim tensor accepts `0` and `-1`.
pub fn wrap_dim(dim: i64, ndim: usize) -> Result<usize, Error> {
    let n = ndim.max(1) as i64;
    if dim < -n || dim >= n {
        return Err(Error::DimOutOfRange {
            dim,
            min: -n,
            max: n - 1,
        });
    }
    Ok(if dim < 0 { dim + n } else { dim } as usize)
}

/// ATen's `infer_size`: a shape with at most one `-1`, resolved against `numel`.
pub fn infer_size(spec: &[i64], numel: usize) -> Result<Vec<usize>, Error> {
    let mut inferred = None;
    let mut known = 1usize;
    for (index, &size) in spec.iter().enumerate() {
        match size {
            -1 if inferred.is_some() => return Err(Error::InferMoreThanOneDim),
            -1 => inferred = Some(index),
            s if s >= 0 => known = known.saturating_mul(s as usize),
            s => {
                return Err(Error::InvalidShapeDim {
                    size: s,
                    index,
                    shape: spec.to_vec(),
                });
            }
        }
    }
    let mut shape: Vec<usize> = spec.iter().map(|&s| s.max(0) as usize).collect();
    match inferred {
        None if known == numel => Ok(shape),
        Some(i) if known > 0 && numel.is_multiple_of(known) => {
            shape[i] = numel / known;
            Ok(shape)
        }
        Some(_) if known == 0 && numel == 0 => Err(Error::AmbiguousInferOfEmpty {
            shape: spec.to_vec(),
        }),
        _ => Err(Error::ShapeInvalidForSize {
            shape: spec.to_vec(),
            numel,
        }),
    }
}

/// The shape two operands broadcast to, or PyTorch's error naming the first mismatch.
pub fn broadcast_shapes(a: &[usize], b: &[usize]) -> Result<Vec<usize>, Error> {
    let n = a.len().max(b.len());
    (0..n)
        .map(|i| {
            let size_a = (i + a.len()).checked_sub(n).map_or(1, |d| a[d]);
            let size_b = (i + b.len()).checked_sub(n).map_or(1, |d| b[d]);
            match (size_a, size_b) {
                (x, y) if x == y => Ok(x),
                (1, y) => Ok(y),
                (x, 1) => Ok(x),
                (x, y) => Err(Error::BroadcastMismatch { a: x, b: y, dim: i }),
            }
        })
        .collect()
}

/// A shape as PyTorch prints it in messages: `[2, 3]`.
pub struct ShapeText<'a, T>(pub &'a [T]);

impl<T: fmt::Display> fmt::Display for ShapeText<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, x) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{x}")?;
        }
        f.write_str("]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_walk_a_transposed_layout_in_row_major_order() {
        let layout = Layout::contiguous(&[2, 3]).t().unwrap();
        assert_eq!(layout.indices().collect::<Vec<_>>(), [0, 3, 1, 4, 2, 5]);
        let sliced = Layout::contiguous(&[4]).slice(0, Some(1), None, 2).unwrap();
        assert_eq!(sliced.indices().collect::<Vec<_>>(), [1, 3]);
        let expanded = Layout::contiguous(&[3])
            .expand(&[2, 3], "torch.FloatTensor")
            .unwrap();
        assert_eq!(expanded.indices().collect::<Vec<_>>(), [0, 1, 2, 0, 1, 2]);
        assert_eq!(Layout::contiguous(&[]).indices().collect::<Vec<_>>(), [0]);
        assert_eq!(Layout::contiguous(&[0, 3]).indices().count(), 0);
    }
}
