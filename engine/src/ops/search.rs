//! Counting and searching: `bincount`, `histc`, `unique`, `unique_consecutive`, `searchsorted`
//! and `bucketize`, each as PyTorch 2.15's CPU kernel computes it.
//!
//! All of them read their input on the host: their result's size depends on the data (the
//! largest value, the number of distinct ones), so PyTorch's CUDA kernels synchronise here too.
//! On a GPU device the counting itself is a host stand-in the trace labels; `histc` follows
//! CUDA's own checks there (`cuda/SummaryOps.cu`), which accept integer inputs.

use crate::autograd::{self, Backward};
use crate::backend::cpu::stl;
use crate::device::{Device, DeviceType};
use crate::dtype::{DType, promote_types};
use crate::element::Scalar;
use crate::error::{CppDouble, Error, SearchError};
use crate::layout::wrap_dim;
use crate::ops::sort::{Entry, ascending, compare};
use crate::storage::CpuStorage;
use crate::tensor::Tensor;

/// What `unique` and `unique_consecutive` return: the values, and where asked the inverse
/// indices (the input's shape, or the size of `dim`) and the counts.
pub struct Unique {
    pub values: Tensor,
    pub inverse: Option<Tensor>,
    pub counts: Option<Tensor>,
}

/// The keywords of `torch.searchsorted`.
#[derive(Clone, Copy, Default)]
pub struct SearchSorted<'a> {
    pub out_int32: bool,
    pub right: bool,
    pub side: Option<&'a str>,
    pub sorter: Option<&'a Tensor>,
    /// The dtype of an `out=` tensor, checked among the other arguments as PyTorch checks it.
    pub out_dtype: Option<DType>,
}

impl Tensor {
    /// `bincount(weights=None, minlength=0)`: how often each non-negative integer occurs, or the
    /// sum of its weights (float32 weights sum as float32, any other as float64), in
    /// `max(input) + 1` bins at least `minlength` (`_bincount_cpu_template`, SummaryOps.cpp).
    pub fn bincount(&self, weights: Option<&Tensor>, minlength: i64) -> Result<Tensor, Error> {
        for t in std::iter::once(self).chain(weights) {
            no_meta(t, "aten::bincount")?;
        }
        let device = super::check_arguments(
            "wrapper_CUDA__bincount",
            &[("self", Some(self)), ("weights", weights)],
        )?;
        if !self.dtype().is_integral(false) {
            return Err(Error::KernelNotForDtype {
                kernel: format!("bincount_{}", kernel_suffix(device)),
                dtype: self.dtype(),
            });
        }
        if minlength < 0 {
            return Err(SearchError::BincountMinlength.into());
        }
        let minlength = usize::try_from(minlength).map_err(|_| SearchError::BincountMinlength)?;
        if self.dim() == 1 && self.numel() == 0 {
            return Tensor::full(
                self.session(),
                &[minlength],
                Scalar::Int(0),
                DType::Int64,
                device,
            );
        }
        let values = ints(&self.kernel_scalars()?);
        if self.dim() != 1 || values.iter().any(|&v| v < 0) {
            return Err(SearchError::BincountInput.into());
        }
        let max = values.iter().copied().max().unwrap_or(0);
        if max == i64::MAX {
            return Err(SearchError::BincountOverflow { max }.into());
        }
        // A count too large for this machine is refused by the allocator, as out of memory.
        let bins = usize::try_from(max + 1)
            .unwrap_or(usize::MAX)
            .max(minlength);
        let weighed = match weights {
            Some(w) if w.dim() != 1 || w.numel() != values.len() => {
                return Err(SearchError::BincountWeights.into());
            }
            Some(w) => Some((w.kernel_scalars()?, w.dtype() == DType::Float32)),
            None => None,
        };
        let dtype = match &weighed {
            None => DType::Int64,
            Some((_, true)) => DType::Float32,
            Some((_, false)) => DType::Float64,
        };
        let out =
            Tensor::generated(
                self.session(),
                &[bins],
                dtype,
                device,
                "bincount",
                |n| match weighed {
                    None => {
                        let mut counts = vec![0i64; n];
                        for &v in &values {
                            counts[v as usize] += 1;
                        }
                        CpuStorage::I64(counts)
                    }
                    Some((w, true)) => {
                        let mut sums = vec![0f32; n];
                        for (&v, w) in values.iter().zip(&w) {
                            sums[v as usize] += w.as_f64() as f32;
                        }
                        CpuStorage::F32(sums)
                    }
                    Some((w, false)) => {
                        let mut sums = vec![0f64; n];
                        for (&v, w) in values.iter().zip(&w) {
                            sums[v as usize] += w.as_f64();
                        }
                        CpuStorage::F64(sums)
                    }
                },
            )?;
        // `weights: not_implemented` in derivatives.yaml: the graph goes on, backward fails.
        let meta = autograd::record_edges(&[weights], || {
            Backward::new("NotImplemented", |_| {
                Err(Error::NoDerivative {
                    op: "aten::bincount",
                })
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `histc(bins=100, min=0, max=0)`: a histogram of `bins` equal bins over `[min, max]` (the
    /// data's extremes when the two are equal), elements outside it and NaNs left out, the last
    /// bin closed (`histogram_histc_out`, Histogram.cpp; CUDA's `_histc_cuda` on a GPU).
    pub fn histc(&self, bins: i64, min: f64, max: f64) -> Result<Tensor, Error> {
        let dtype = self.dtype();
        let cuda = self.device().kind == DeviceType::Cuda;
        if cuda {
            if dtype == DType::Float16 {
                return Err(SearchError::CudaHistcHalf.into());
            }
            if !dtype.is_integral(false) && !matches!(dtype, DType::Float32 | DType::Float64) {
                return Err(Error::KernelNotForDtype {
                    kernel: "histc".into(),
                    dtype,
                });
            }
            if bins <= 0 {
                return Err(SearchError::CudaHistcBins.into());
            }
        } else if bins <= 0 {
            return Err(SearchError::HistogramBins { bins }.into());
        }
        let bins = usize::try_from(bins).map_err(|_| SearchError::HistogramBins { bins })?;
        if self.device().kind == DeviceType::Meta {
            return Tensor::full(
                self.session(),
                &[bins],
                Scalar::Int(0),
                dtype,
                self.device(),
            );
        }
        let data = self.kernel_scalars()?;
        let (mut lo, mut hi) = (min, max);
        if lo == hi && !data.is_empty() {
            (lo, hi) = extremes(&data);
        }
        if lo == hi {
            (lo, hi) = (lo - 1.0, hi + 1.0);
        }
        let finite = lo.is_finite() && hi.is_finite();
        let (lo, hi) = match cuda {
            true => {
                let (lo, hi) = (in_dtype(dtype, lo), in_dtype(dtype, hi));
                if !finite {
                    let (min, max) = (CppDouble(lo), CppDouble(hi));
                    return Err(SearchError::CudaHistcRange { min, max }.into());
                }
                if lo >= hi {
                    return Err(SearchError::CudaHistcOrder.into());
                }
                (lo, hi)
            }
            false => {
                if !finite {
                    let (min, max) = (CppDouble(lo), CppDouble(hi));
                    return Err(SearchError::HistcRange { min, max }.into());
                }
                if lo >= hi {
                    return Err(SearchError::HistcOrder.into());
                }
                // `linspace` makes the edges in the input's dtype.
                let edge = |v: f64| {
                    let cast = in_dtype(dtype, v);
                    match cast.is_finite() {
                        true => Ok(cast),
                        false => Err(SearchError::HistcEdgeOverflow {
                            ctype: dtype.cpp_name(),
                        }),
                    }
                };
                let edges = (edge(lo)?, edge(hi)?);
                if !dtype.is_floating_point() {
                    return Err(Error::KernelNotForDtype {
                        kernel: "histogram_cpu".into(),
                        dtype,
                    });
                }
                edges
            }
        };
        let round = |v: f64| in_dtype(dtype, v);
        let out = Tensor::generated(
            self.session(),
            &[bins],
            dtype,
            self.device(),
            "histc",
            |n| {
                let mut hist = vec![0f64; n];
                for x in data.iter().map(|s| s.as_f64()) {
                    if !(x >= lo && x <= hi) {
                        continue;
                    }
                    // `(elt - leftmost) * bins / (rightmost - leftmost)`, each step in the dtype
                    // (integer division for CUDA's integer inputs).
                    let pos = match dtype.is_floating_point() {
                        true => {
                            round(round(round(x - lo) * round(n as f64)) / round(hi - lo)) as usize
                        }
                        false => ((x - lo) as i128 * n as i128 / (hi - lo) as i128) as usize,
                    };
                    let at = pos.min(n - 1);
                    hist[at] = round(hist[at] + 1.0);
                }
                CpuStorage::from_scalars(
                    dtype,
                    &hist.into_iter().map(Scalar::Float).collect::<Vec<_>>(),
                )
            },
        )?;
        Ok(out)
    }

    /// `unique(sorted=True, return_inverse, return_counts, dim=None)`. Without `dim`, the
    /// flattened input sorted as `sort()` sorts it, then each run of equal values kept once
    /// (NaNs are each their own, `unique_cpu_sorted_template`); with `dim`, the slices along it
    /// in lexicographic order (`_unique_dim_cpu_template`). The CPU always sorts, whatever
    /// `sorted` says.
    pub fn unique(
        &self,
        return_inverse: bool,
        return_counts: bool,
        dim: Option<i64>,
    ) -> Result<Unique, Error> {
        let op = match dim {
            Some(_) => "aten::unique_dim",
            None => "aten::_unique2",
        };
        no_meta(self, op)?;
        match dim {
            Some(dim) => self.unique_dim(dim, false, return_inverse, return_counts),
            None => {
                let mut entries: Vec<Entry> = self.kernel_scalars()?.into_iter().zip(0..).collect();
                stl::sort(&mut entries, &ascending);
                let runs = runs(&entries, |a, b| {
                    compare(&a.0, &b.0).is_some_and(|o| o.is_eq())
                });
                self.unique_result(
                    &entries,
                    &runs,
                    (return_inverse, return_counts),
                    ("_unique2", "Unique2Backward0"),
                )
            }
        }
    }

    /// `unique_consecutive(return_inverse, return_counts, dim=None)`: each run of equal
    /// neighbours kept once, in place (`unique_consecutive_cpu_template`).
    pub fn unique_consecutive(
        &self,
        return_inverse: bool,
        return_counts: bool,
        dim: Option<i64>,
    ) -> Result<Unique, Error> {
        no_meta(self, "aten::unique_consecutive")?;
        match dim {
            Some(dim) if !(self.dim() == 1 && dim == 0) => {
                self.unique_dim(dim, true, return_inverse, return_counts)
            }
            _ => {
                let entries: Vec<Entry> = self.kernel_scalars()?.into_iter().zip(0..).collect();
                // C++'s `value != last_value`: NaNs never equal.
                let runs = runs(&entries, |a, b| a.0.as_f64() == b.0.as_f64());
                self.unique_result(
                    &entries,
                    &runs,
                    (return_inverse, return_counts),
                    ("unique_consecutive", "UniqueConsecutiveBackward0"),
                )
            }
        }
    }

    /// The distinct slices along `dim`, sorted lexicographically unless `consecutive`.
    fn unique_dim(
        &self,
        dim: i64,
        consecutive: bool,
        return_inverse: bool,
        return_counts: bool,
    ) -> Result<Unique, Error> {
        let d = wrap_dim(dim, self.dim())?;
        let size = self.shape().get(d).copied().unwrap_or(1);
        let zero_dims = self.shape().iter().filter(|&&s| s == 0).count();
        let names = match consecutive {
            true => ("unique_consecutive", "UniqueConsecutiveBackward0"),
            false => ("unique_dim", "UniqueDimBackward0"),
        };
        if size == 0 {
            if zero_dims != 1 {
                return Err(SearchError::UniqueManyZeroDims.into());
            }
            let values = self.detach().contiguous()?;
            let empty = |t: &Tensor| t.empty_long(&[0]);
            return Ok(Unique {
                inverse: return_inverse.then(|| empty(self)).transpose()?,
                counts: return_counts.then(|| empty(self)).transpose()?,
                values: self.with_unique_node(values, names),
            });
        }
        if zero_dims != 0 {
            return Err(SearchError::UniqueZeroDims.into());
        }
        let moved = match self.dim() {
            0 => self.reshape(&[1])?,
            _ => self.movedim(&[d as i64], &[0])?.contiguous()?,
        };
        let width = moved.numel() / size;
        let flat = moved.kernel_scalars()?;
        let slice = |i: usize| &flat[i * width..(i + 1) * width];
        let mut order: Vec<usize> = (0..size).collect();
        if !consecutive {
            stl::sort(&mut order, &|&a: &usize, &b: &usize| {
                for (x, y) in slice(a).iter().zip(slice(b)) {
                    match compare(x, y) {
                        Some(std::cmp::Ordering::Less) => return true,
                        Some(std::cmp::Ordering::Greater) => return false,
                        _ => {}
                    }
                }
                false
            });
        }
        let entries: Vec<(usize, usize)> = order.iter().map(|&i| (i, i)).collect();
        // `at::equal`: NaNs never equal.
        let runs = runs(&entries, |a, b| {
            slice(a.0)
                .iter()
                .zip(slice(b.0))
                .all(|(x, y)| x.as_f64() == y.as_f64())
        });
        let mut inverse = vec![0usize; size];
        for (k, run) in runs.iter().enumerate() {
            for &(i, _) in &entries[run.clone()] {
                inverse[i] = k;
            }
        }
        let values: Vec<Scalar> = runs
            .iter()
            .flat_map(|r| slice(entries[r.start].0).iter().copied())
            .collect();
        let mut shape = moved.shape().to_vec();
        shape[0] = runs.len();
        let out = Tensor::from_values(
            self.session(),
            &values,
            &shape,
            self.dtype(),
            self.device(),
            "unique_dim",
        )?;
        let out = match self.dim() {
            0 => out.reshape(&[-1])?,
            _ => out.movedim(&[0], &[d as i64])?,
        };
        let long = |v: Vec<usize>| {
            let v: Vec<Scalar> = v.into_iter().map(|i| Scalar::Int(i as i64)).collect();
            Tensor::from_values(
                self.session(),
                &v,
                &[v.len()],
                DType::Int64,
                self.device(),
                "unique_dim",
            )
        };
        Ok(Unique {
            inverse: return_inverse.then(|| long(inverse)).transpose()?,
            counts: return_counts
                .then(|| long(runs.iter().map(|r| r.len()).collect()))
                .transpose()?,
            values: self.with_unique_node(out, names),
        })
    }

    /// The tensors of a `unique` without `dim` from the runs of `entries`: the values 1-D, the
    /// inverse in the input's shape.
    fn unique_result(
        &self,
        entries: &[Entry],
        runs: &[std::ops::Range<usize>],
        (return_inverse, return_counts): (bool, bool),
        names: (&'static str, &'static str),
    ) -> Result<Unique, Error> {
        let op = names.0;
        let values: Vec<Scalar> = runs.iter().map(|r| entries[r.start].0).collect();
        let inverse = runs_inverse(runs, entries, self.numel());
        let long = |v: Vec<usize>, shape: &[usize]| {
            let v: Vec<Scalar> = v.into_iter().map(|i| Scalar::Int(i as i64)).collect();
            Tensor::from_values(self.session(), &v, shape, DType::Int64, self.device(), op)
        };
        let n = values.len();
        let out = Tensor::from_values(
            self.session(),
            &values,
            &[n],
            self.dtype(),
            self.device(),
            op,
        )?;
        Ok(Unique {
            inverse: return_inverse
                .then(|| long(inverse, self.shape()))
                .transpose()?,
            counts: return_counts
                .then(|| long(runs.iter().map(|r| r.len()).collect(), &[n]))
                .transpose()?,
            values: self.with_unique_node(out, names),
        })
    }

    /// `values` under a node whose backward PyTorch does not implement.
    fn with_unique_node(&self, values: Tensor, (op, node): (&'static str, &'static str)) -> Tensor {
        let meta = autograd::record(&[self], || {
            Backward::new(node, move |_| Err(Error::DerivativeNotImplemented { op }))
        });
        values.with_autograd(meta)
    }

    /// An empty int64 tensor on this tensor's device.
    fn empty_long(&self, shape: &[usize]) -> Result<Tensor, Error> {
        Tensor::full(
            self.session(),
            shape,
            Scalar::Int(0),
            DType::Int64,
            self.device(),
        )
    }

    /// `torch.searchsorted(self, values, ...)`: for each value, the index in its row of this
    /// sorted sequence (1-D, or rows matching the values' leading dims) where it would be
    /// inserted, before equal ones or after them (`right`), through `sorter`'s order if given
    /// (`searchsorted_cpu`, Bucketization.cpp; checks in `searchsorted_pre_check`).
    pub fn searchsorted(&self, values: &Tensor, options: SearchSorted) -> Result<Tensor, Error> {
        let right = check_side(options.right, options.side)?;
        let device = super::check_arguments(
            "wrapper_CUDA_Tensor_searchsorted",
            &[
                ("sorted_sequence", Some(self)),
                ("self", Some(values)),
                ("sorter", options.sorter),
            ],
        )?;
        self.search(values, right, options, device)
    }

    /// `torch.bucketize(self, boundaries, ...)`: `searchsorted(boundaries, self)` for 1-D
    /// boundaries.
    pub fn bucketize(
        &self,
        boundaries: &Tensor,
        out_int32: bool,
        right: bool,
        out_dtype: Option<DType>,
    ) -> Result<Tensor, Error> {
        let device = super::check_arguments(
            "wrapper_CUDA_Tensor_bucketize",
            &[("self", Some(self)), ("boundaries", Some(boundaries))],
        )?;
        if boundaries.dim() != 1 {
            let dim = boundaries.dim();
            return Err(SearchError::BucketizeBoundaries { dim }.into());
        }
        let options = SearchSorted {
            out_int32,
            right,
            out_dtype,
            ..SearchSorted::default()
        };
        boundaries.search(self, right, options, device)
    }

    fn search(
        &self,
        values: &Tensor,
        right: bool,
        options: SearchSorted,
        device: Device,
    ) -> Result<Tensor, Error> {
        let (bd, input) = (self.shape(), values.shape());
        if let Some(sorter) = options.sorter {
            if sorter.shape() != bd {
                return Err(SearchError::SorterSize {
                    boundaries: bd.to_vec(),
                    sorter: sorter.shape().to_vec(),
                }
                .into());
            }
            if sorter.dtype() != DType::Int64 {
                let dtype = sorter.dtype();
                return Err(SearchError::SorterDtype { dtype }.into());
            }
        }
        if values.dim() == 0 && self.dim() != 1 {
            return Err(SearchError::ScalarInput {
                boundaries: self.dim(),
                input: 0,
                numel: 1,
            }
            .into());
        }
        if self.dim() == 0 {
            return Err(SearchError::ZeroDimBoundaries.into());
        }
        let leading = bd.len() == input.len() && bd[..bd.len() - 1] == input[..input.len() - 1];
        if self.dim() != 1 && !leading {
            return Err(SearchError::LeadingDims {
                boundaries: bd.to_vec(),
                input: input.to_vec(),
            }
            .into());
        }
        let index_dtype = if options.out_int32 {
            DType::Int32
        } else {
            DType::Int64
        };
        if let Some(dtype) = options.out_dtype.filter(|&d| d != index_dtype) {
            let out_int32 = options.out_int32;
            return Err(SearchError::OutDtype { dtype, out_int32 }.into());
        }
        if device.kind == DeviceType::Meta {
            return Tensor::full(self.session(), input, Scalar::Int(0), index_dtype, device);
        }
        let n = bd.last().copied().unwrap_or(0);
        let sorter = match options.sorter {
            Some(s) => {
                let order = ints(&s.kernel_scalars()?);
                if order
                    .iter()
                    .any(|&i| usize::try_from(i).map_or(true, |i| i >= n))
                {
                    return Err(SearchError::SorterRange.into());
                }
                Some(order.into_iter().map(|i| i as usize).collect::<Vec<_>>())
            }
            None => None,
        };
        let common = promote_types(self.dtype(), values.dtype());
        if common == DType::Bool {
            return Err(Error::KernelNotForDtype {
                kernel: format!("searchsorted_out_{}", kernel_suffix(device)),
                dtype: common,
            });
        }
        // The comparisons run in the promoted dtype.
        let cast = |t: &Tensor| -> Result<Vec<Scalar>, Error> {
            Ok(cast_to(common, &t.kernel_scalars()?))
        };
        let (boundaries, wanted) = (cast(self)?, cast(values)?);
        let width = input.last().copied().unwrap_or(1).max(1);
        let positions: Vec<Scalar> = wanted
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let row = if self.dim() == 1 { 0 } else { i / width };
                let start = row * n;
                let at = |k: usize| {
                    let k = sorter.as_ref().map_or(k, |s| s[start + k]);
                    &boundaries[start + k]
                };
                Scalar::Int(bound(n, v, at, right) as i64)
            })
            .collect();
        Tensor::from_values(
            self.session(),
            &positions,
            input,
            index_dtype,
            device,
            "searchsorted",
        )
    }
}

/// The error of an op with no Meta kernel, for a meta tensor.
fn no_meta(t: &Tensor, op: &'static str) -> Result<(), Error> {
    match t.device().kind {
        DeviceType::Meta => Err(Error::NoMetaKernel { op }),
        _ => Ok(()),
    }
}

/// `cus_lower_bound`/`cus_upper_bound`: a binary search that sends NaNs, and values past every
/// boundary, to the end.
fn bound<'a>(n: usize, value: &Scalar, at: impl Fn(usize) -> &'a Scalar, right: bool) -> usize {
    let (mut start, mut end) = (0, n);
    while start < end {
        let mid = start + (end - start) / 2;
        let order = compare(at(mid), value);
        let go_right = match right {
            // !(mid_val > val)
            true => order != Some(std::cmp::Ordering::Greater),
            // !(mid_val >= val)
            false => !matches!(order, Some(o) if o.is_ge()),
        };
        if go_right {
            start = mid + 1;
        } else {
            end = mid;
        }
    }
    start
}

/// `side=` and `right=` together, as `searchsorted_pre_check` reconciles them.
fn check_side(right: bool, side: Option<&str>) -> Result<bool, Error> {
    match side {
        None => Ok(right),
        Some(side) if side != "left" && side != "right" => Err(SearchError::Side {
            side: side.to_owned(),
        }
        .into()),
        Some(side) if right && side != "right" => Err(SearchError::SideAgainstRight {
            side: side.to_owned(),
        }
        .into()),
        Some(side) => Ok(side == "right"),
    }
}

/// The runs of equal neighbours of `entries`, by `equal`.
fn runs<T>(entries: &[T], equal: impl Fn(&T, &T) -> bool) -> Vec<std::ops::Range<usize>> {
    let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
    for i in 0..entries.len() {
        match runs.last_mut() {
            Some(run) if equal(&entries[run.start], &entries[i]) => run.end = i + 1,
            _ => runs.push(i..i + 1),
        }
    }
    runs
}

/// Each input position's run.
fn runs_inverse(runs: &[std::ops::Range<usize>], entries: &[Entry], numel: usize) -> Vec<usize> {
    let mut inverse = vec![0; numel];
    for (k, run) in runs.iter().enumerate() {
        for &(_, at) in &entries[run.clone()] {
            inverse[at] = k;
        }
    }
    inverse
}

fn ints(values: &[Scalar]) -> Vec<i64> {
    values
        .iter()
        .map(|v| match *v {
            Scalar::Int(i) => i,
            Scalar::Bool(b) => i64::from(b),
            Scalar::Float(f) => f as i64,
        })
        .collect()
}

/// The least and greatest values (`aminmax`): a NaN anywhere makes both NaN, as ATen's vector
/// code leaves it (sign bit set, so C++ prints `-nan`).
fn extremes(data: &[Scalar]) -> (f64, f64) {
    let values = data.iter().map(|s| s.as_f64());
    if values.clone().any(f64::is_nan) {
        return (-f64::NAN, -f64::NAN);
    }
    values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    })
}

/// `v` as an element of `dtype` (rounded to float32 or half, truncated to an integer).
fn in_dtype(dtype: DType, v: f64) -> f64 {
    cast_to(dtype, &[Scalar::Float(v)])
        .first()
        .map_or(v, |s| s.as_f64())
}

/// `values` converted to `dtype` as PyTorch's casts convert them.
fn cast_to(dtype: DType, values: &[Scalar]) -> Vec<Scalar> {
    let storage = CpuStorage::from_scalars(dtype, values);
    (0..storage.len()).filter_map(|i| storage.get(i)).collect()
}

/// The suffix of a kernel's name in ATen's dispatch errors: `bincount_cpu`, `bincount_cuda`.
fn kernel_suffix(device: Device) -> &'static str {
    match device.kind {
        DeviceType::Cuda => "cuda",
        _ => "cpu",
    }
}
