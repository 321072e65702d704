//! Order statistics along a dim: `sort`, `argsort`, `msort`, `topk`, `kthvalue`, `median`,
//! `nanmedian` and `mode`, with their indices and PyTorch's nodes.
//!
//! Each row is ordered on the host by the algorithm PyTorch's CPU kernel calls, with its
//! comparator (`backend/cpu/stl.rs`), so that equal values come back with PyTorch's indices; on a
//! GPU device that is a stand-in the trace labels (CUDA's kernels order ties their own way).

use std::cmp::Ordering;

use crate::autograd::{self, Backward};
use crate::backend::cpu::elementwise::Binary;
use crate::backend::cpu::stl;
use crate::dtype::DType;
use crate::element::Scalar;
use crate::error::{Error, ReduceError};
use crate::layout::wrap_dim;
use crate::ops::Source;
use crate::tensor::Tensor;

/// One element of a row and its position there.
pub(super) type Entry = (Scalar, usize);

fn is_nan(s: &Scalar) -> bool {
    matches!(s, Scalar::Float(x) if x.is_nan())
}

/// `a < b` as C++ compares the values (false whenever a NaN is involved).
fn lt(a: &Scalar, b: &Scalar) -> bool {
    compare(a, b) == Some(Ordering::Less)
}

fn gt(a: &Scalar, b: &Scalar) -> bool {
    compare(a, b) == Some(Ordering::Greater)
}

pub(super) fn compare(a: &Scalar, b: &Scalar) -> Option<Ordering> {
    match (a, b) {
        (Scalar::Int(x), Scalar::Int(y)) => Some(x.cmp(y)),
        (Scalar::Bool(x), Scalar::Bool(y)) => Some(x.cmp(y)),
        _ => a.as_f64().partial_cmp(&b.as_f64()),
    }
}

/// NaN last (`KeyValueCompAsc`, topk's smallest-first comparator).
pub(super) fn ascending(a: &Entry, b: &Entry) -> bool {
    (!is_nan(&a.0) && is_nan(&b.0)) || lt(&a.0, &b.0)
}

/// NaN first (`KeyValueCompDesc`, topk's largest-first comparator, kthvalue's `gt_or_nan`).
fn descending(a: &Entry, b: &Entry) -> bool {
    (is_nan(&a.0) && !is_nan(&b.0)) || gt(&a.0, &b.0)
}

/// A row-wise result: values in the input's dtype, indices as int64, `width` per row.
struct Rows {
    values: Vec<Scalar>,
    indices: Vec<Scalar>,
}

impl Tensor {
    /// The rows along `d` (moved last), each with its positions.
    fn rows_along(&self, d: usize) -> Result<(Vec<Vec<Entry>>, Vec<usize>), Error> {
        let moved = match self.dim() {
            0 => self.reshape(&[1])?,
            _ => self.movedim(&[d as i64], &[-1])?.contiguous()?,
        };
        let n = moved.shape().last().copied().unwrap_or(1);
        let values = moved.kernel_scalars()?;
        let rows = match n {
            0 => Vec::new(),
            _ => values
                .chunks(n)
                .map(|row| row.iter().copied().zip(0..).collect())
                .collect(),
        };
        Ok((rows, moved.shape().to_vec()))
    }

    /// Rows of results back as tensors of the moved shape with `width` along the last dim, then
    /// moved back to `d`.
    fn tensors_from_rows(
        &self,
        rows: Rows,
        moved: &[usize],
        width: usize,
        d: usize,
        op: &str,
    ) -> Result<(Tensor, Tensor), Error> {
        let mut shape = moved.to_vec();
        if let Some(last) = shape.last_mut() {
            *last = width;
        }
        let back = |t: Tensor| -> Result<Tensor, Error> {
            match self.dim() {
                0 => t.reshape(&[]),
                _ => t.movedim(&[-1], &[d as i64])?.contiguous(),
            }
        };
        let values = Tensor::from_values(
            self.session(),
            &rows.values,
            &shape,
            self.dtype(),
            self.device(),
            op,
        )?;
        let indices = Tensor::from_values(
            self.session(),
            &rows.indices,
            &shape,
            DType::Int64,
            self.device(),
            op,
        )?;
        Ok((back(values)?, back(indices)?))
    }

    /// The dim of an order statistic: a 0-dim tensor has one, dim 0 or -1.
    fn order_dim(&self, dim: i64) -> Result<usize, Error> {
        wrap_dim(dim, self.dim().max(1))
    }

    /// `sort(dim=-1, descending=False, stable=False)`: `std::sort` of (value, index) pairs, or a
    /// stable sort when asked (`SortBackward0`; `SortBackward1` for the `stable=` overload).
    pub fn sort(
        &self,
        dim: i64,
        descending: bool,
        stable: Option<bool>,
    ) -> Result<(Tensor, Tensor), Error> {
        let d = self.order_dim(dim)?;
        let (mut rows, moved) = self.rows_along(d)?;
        let less = if descending {
            descending_fn()
        } else {
            ascending_fn()
        };
        for row in &mut rows {
            match stable {
                Some(true) => row.sort_by(|a, b| match (less(a, b), less(b, a)) {
                    (true, _) => Ordering::Less,
                    (_, true) => Ordering::Greater,
                    _ => Ordering::Equal,
                }),
                _ => stl::sort(row, &less),
            }
        }
        let width = moved.last().copied().unwrap_or(1);
        let (values, indices) =
            self.tensors_from_rows(collect(&rows, width), &moved, width, d, "sort")?;
        let name = if stable.is_some() {
            "SortBackward1"
        } else {
            "SortBackward0"
        };
        Ok((self.selected(values, &indices, d, true, name)?, indices))
    }

    /// `argsort(dim, descending, stable)`: the indices of `sort`.
    pub fn argsort(&self, dim: i64, descending: bool, stable: bool) -> Result<Tensor, Error> {
        let (_, indices) = self
            .session()
            .no_grad(|| self.sort(dim, descending, Some(stable)))?;
        Ok(indices)
    }

    /// `topk(k, dim=-1, largest=True, sorted=True)`, as `topk_impl_loop` selects: a partial sort
    /// when `k · 64 ≤ n`, else `nth_element` then a sort of the first `k - 1` (`TopkBackward0`).
    pub fn topk(
        &self,
        k: i64,
        dim: i64,
        largest: bool,
        sorted: bool,
    ) -> Result<(Tensor, Tensor), Error> {
        let d = self.order_dim(dim)?;
        let n = self.shape().get(d).copied().unwrap_or(1);
        let k = usize::try_from(k)
            .ok()
            .filter(|&k| k <= n)
            .ok_or(ReduceError::TopkRange)?;
        let (mut rows, moved) = self.rows_along(d)?;
        let less = if largest {
            descending_fn()
        } else {
            ascending_fn()
        };
        if k > 0 {
            for row in &mut rows {
                if k * 64 <= row.len() {
                    stl::partial_sort(row, k, &less);
                } else {
                    stl::nth_element(row, k - 1, &less);
                    if sorted {
                        stl::sort(&mut row[..k - 1], &less);
                    }
                }
            }
        }
        let (values, indices) = self.tensors_from_rows(collect(&rows, k), &moved, k, d, "topk")?;
        Ok((
            self.selected(values, &indices, d, true, "TopkBackward0")?,
            indices,
        ))
    }

    /// `kthvalue(k, dim=-1, keepdim)`: the `k`-th smallest by PyTorch's quickselect
    /// (`KthvalueBackward0`).
    pub fn kthvalue(&self, k: i64, dim: i64, keepdim: bool) -> Result<(Tensor, Tensor), Error> {
        let d = self.order_dim(dim)?;
        let n = self.shape().get(d).copied().unwrap_or(1);
        self.check_nonzero_dim("kthvalue", d)?;
        let k = usize::try_from(k)
            .ok()
            .filter(|&k| (1..=n).contains(&k))
            .ok_or(ReduceError::KthRange { dim: d })?;
        let (mut rows, moved) = self.rows_along(d)?;
        for row in &mut rows {
            stl::quick_select(row, k - 1, &descending);
            row.swap(0, k - 1);
        }
        self.one_per_row(rows, &moved, d, keepdim, "KthvalueBackward0")
    }

    /// `median(dim, keepdim)`: the lower median and where it is, a NaN where a row has one
    /// (`MedianBackward1`); `nanmedian` skips NaNs (`NanmedianBackward1`).
    pub fn median_dim(
        &self,
        dim: i64,
        keepdim: bool,
        skip_nan: bool,
    ) -> Result<(Tensor, Tensor), Error> {
        let op = if skip_nan { "nanmedian" } else { "median" };
        let d = self.order_dim(dim)?;
        self.check_nonzero_dim(op, d)?;
        let (mut rows, moved) = self.rows_along(d)?;
        for row in &mut rows {
            let pick = median_of(row, skip_nan);
            row.swap(0, pick);
        }
        let name = if skip_nan {
            "NanmedianBackward1"
        } else {
            "MedianBackward1"
        };
        self.one_per_row(rows, &moved, d, keepdim, name)
    }

    /// `median()` of no element: ATen's `at::full({}, NaN).to(self.options())`, so NaN cast to
    /// the dtype as x86 casts it (the lowest value of int32 and int64, 0 for the narrower
    /// integers, true for bool).
    fn empty_median(&self) -> Result<Tensor, Error> {
        let nan = Scalar::Float(f64::NAN);
        Tensor::full(self.session(), &[], nan, self.dtype(), self.device())
    }

    /// `median()` of every element: NaN if any is (`MedianBackward0`, the gradient shared by the
    /// elements equal to it); `nanmedian()` skips NaNs (`NanmedianBackward0`).
    pub fn median(&self, skip_nan: bool) -> Result<Tensor, Error> {
        if self.numel() == 0 {
            return self.empty_median();
        }
        let flat = self.reshape(&[-1])?;
        let (values, _) = self
            .session()
            .no_grad(|| flat.median_dim(0, false, skip_nan))?;
        let name = if skip_nan {
            "NanmedianBackward0"
        } else {
            "MedianBackward0"
        };
        let (input, value) = (self.detach(), values.detach());
        let meta = autograd::record(&[self], || {
            Backward::new(name, move |grad| {
                // evenly_distribute_backward: the elements equal to the median (NaNs, for a NaN
                // median) share the gradient.
                let nan = value.kernel_scalars()?.first().is_some_and(is_nan);
                let mask = match nan {
                    true => input.compare(Binary::Ne, &input)?,
                    false => input.compare(Binary::Eq, &value)?,
                };
                let count = mask.sum(&[], false)?.to_dtype(grad.dtype())?;
                let zeros = grad.zeros_like_shape(input.shape())?;
                Ok(vec![Some(Tensor::where_(
                    &mask,
                    &grad.div(&count)?,
                    &zeros,
                )?)])
            })
        });
        Ok(values.with_autograd(meta))
    }

    /// `mode(dim=-1, keepdim)`: the most frequent value (the smallest of equally frequent ones)
    /// and the position `std::sort` left last among its copies (`ModeBackward0`).
    pub fn mode(&self, dim: i64, keepdim: bool) -> Result<(Tensor, Tensor), Error> {
        let d = self.order_dim(dim)?;
        self.check_nonzero_dim("mode", d)?;
        let (mut rows, moved) = self.rows_along(d)?;
        for row in &mut rows {
            stl::sort(row, &|a: &Entry, b: &Entry| lt(&a.0, &b.0));
            let (mut best, mut best_count, mut count) = (0, 0, 0);
            for i in 0..row.len() {
                count += 1;
                if i + 1 == row.len() || compare(&row[i].0, &row[i + 1].0) != Some(Ordering::Equal)
                {
                    if count > best_count {
                        (best, best_count) = (i, count);
                    }
                    count = 0;
                }
            }
            row.swap(0, best);
        }
        self.one_per_row(rows, &moved, d, keepdim, "ModeBackward0")
    }

    /// The error of an order statistic over an empty dim.
    fn check_nonzero_dim(&self, op: &'static str, d: usize) -> Result<(), Error> {
        match self.shape().get(d) {
            Some(0) => Err(ReduceError::EmptyDim { op, dim: d }.into()),
            _ => Ok(()),
        }
    }

    /// Each row's first entry as the result, the dim kept or not.
    fn one_per_row(
        &self,
        rows: Vec<Vec<Entry>>,
        moved: &[usize],
        d: usize,
        keepdim: bool,
        name: &'static str,
    ) -> Result<(Tensor, Tensor), Error> {
        let (values, indices) = self.tensors_from_rows(collect(&rows, 1), moved, 1, d, name)?;
        let (values, indices) = match keepdim || self.dim() == 0 {
            true => (values, indices),
            false => (
                values.squeeze(Some(d as i64))?,
                indices.squeeze(Some(d as i64))?,
            ),
        };
        Ok((self.selected(values, &indices, d, keepdim, name)?, indices))
    }

    /// `values` under node `name`, whose gradient goes back to where `indices` point
    /// (`value_selecting_reduction_backward`).
    fn selected(
        &self,
        values: Tensor,
        indices: &Tensor,
        d: usize,
        keepdim: bool,
        name: &'static str,
    ) -> Result<Tensor, Error> {
        let (shape, at) = (self.shape().to_vec(), indices.detach());
        let zero_dim = self.dim() == 0;
        let meta = autograd::record(&[self], || {
            Backward::new(name, move |grad| {
                if zero_dim {
                    return Ok(vec![Some(grad.clone())]);
                }
                let (grad, at) = match keepdim {
                    true => (grad.clone(), at.clone()),
                    false => (grad.unsqueeze(d as i64)?, at.unsqueeze(d as i64)?),
                };
                let zeros = grad.zeros_like_shape(&shape)?;
                Ok(vec![Some(zeros.scatter(
                    d as i64,
                    &at,
                    Source::Tensor(&grad),
                )?)])
            })
        });
        Ok(values.with_autograd(meta))
    }

    /// Zeros of `shape` in this tensor's dtype and device.
    fn zeros_like_shape(&self, shape: &[usize]) -> Result<Tensor, Error> {
        Tensor::full(
            self.session(),
            shape,
            Scalar::Int(0),
            self.dtype(),
            self.device(),
        )
    }
}

fn ascending_fn() -> fn(&Entry, &Entry) -> bool {
    ascending
}

fn descending_fn() -> fn(&Entry, &Entry) -> bool {
    descending
}

/// The first `width` entries of each row as values and indices.
fn collect(rows: &[Vec<Entry>], width: usize) -> Rows {
    let mut out = Rows {
        values: Vec::with_capacity(rows.len() * width),
        indices: Vec::with_capacity(rows.len() * width),
    };
    for row in rows {
        for &(value, at) in &row[..width.min(row.len())] {
            out.values.push(value);
            out.indices.push(Scalar::Int(at as i64));
        }
    }
    out
}

/// Where `median_with_indices_impl` finds a row's median: its first NaN (for `median`), else
/// `std::nth_element` over positions with PyTorch's comparator (ties by position; NaNs last for
/// `nanmedian`). Returns the entry's place in `row`.
fn median_of(row: &[Entry], skip_nan: bool) -> usize {
    if !skip_nan && let Some(at) = row.iter().position(|e| is_nan(&e.0)) {
        return at;
    }
    let nans = row.iter().filter(|e| is_nan(&e.0)).count();
    // C++ integer division truncates toward zero: an all-NaN row picks position 0 of the order.
    let nth = ((row.len() as i64 - nans as i64 - 1) / 2).max(0) as usize;
    let mut order: Vec<usize> = (0..row.len()).collect();
    let value = |i: &usize| &row[*i].0;
    stl::nth_element(&mut order, nth, &|i: &usize, j: &usize| {
        lt(value(i), value(j))
            || (compare(value(i), value(j)) == Some(Ordering::Equal) && i < j)
            || (skip_nan && is_nan(value(j)) && !is_nan(value(i)))
    });
    order[nth]
}
