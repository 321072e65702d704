//! The errors of counting and searching (`bincount`, `histc`, `unique`, `searchsorted`,
//! `bucketize`), in ATen's words: `aten/src/ATen/native/SummaryOps.cpp`, `Histogram.cpp`,
//! `Unique.cpp`, `Bucketization.cpp` and `BucketizationUtils.h` on the CPU, and
//! `cuda/SummaryOps.cu` where CUDA words its own checks.

use thiserror::Error;

use super::{CppDouble, PythonType};
use crate::dtype::DType;
use crate::layout::ShapeText;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SearchError {
    #[error("bincount only supports 1-d non-negative integral inputs.")]
    BincountInput,
    #[error("minlength should be >= 0")]
    BincountMinlength,
    #[error("maximum value of input overflowed, it should be < 9223372036854775807 but got {max}")]
    BincountOverflow { max: i64 },
    #[error("weights should be 1-d and have the same length as input")]
    BincountWeights,
    #[error("torch.histogram(): bins must be > 0, but got {bins} for dimension 0")]
    HistogramBins { bins: i64 },
    #[error("torch.histc: range of [{min}, {max}] is not finite")]
    HistcRange { min: CppDouble, max: CppDouble },
    #[error("torch.histc: max must be larger than min")]
    HistcOrder,
    /// A bound that does not fit the input's dtype, as `linspace` casts the outer edges.
    #[error("value cannot be converted to type {ctype} without overflow")]
    HistcEdgeOverflow { ctype: &'static str },
    /// `_histc_cuda_template`'s checks, worded without the `torch.histc` prefix.
    #[error("bins must be > 0")]
    CudaHistcBins,
    #[error("range of [{min}, {max}] is not finite")]
    CudaHistcRange { min: CppDouble, max: CppDouble },
    #[error("max must be larger than min")]
    CudaHistcOrder,
    #[error("HalfTensor is not supported")]
    CudaHistcHalf,
    #[error("There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")]
    UniqueZeroDims,
    #[error("Number of zero sized dimensions is more than one, so unique cannot be applied ")]
    UniqueManyZeroDims,
    #[error("torch.searchsorted(): side can only be 'left' or 'right' but got {side}")]
    Side { side: String },
    #[error(
        "torch.searchsorted(): side and right can't be set to opposites, got side of {side} while right was True"
    )]
    SideAgainstRight { side: String },
    #[error(
        "torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor {}and got sorter tensor {}",
        ShapeText(boundaries),
        ShapeText(sorter)
    )]
    SorterSize {
        boundaries: Vec<usize>,
        sorter: Vec<usize>,
    },
    #[error(
        "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype {}",
        dtype.scalar_type_name()
    )]
    SorterDtype { dtype: DType },
    #[error("torch.searchsorted(): sorter index out of range")]
    SorterRange,
    #[error(
        "torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, but we got boundaries tensor dim({boundaries}) and input value's dim({input}) numel({numel})"
    )]
    ScalarInput {
        boundaries: usize,
        input: usize,
        numel: usize,
    },
    #[error(
        "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension"
    )]
    ZeroDimBoundaries,
    #[error(
        "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match, but we got boundaries tensor {} and input value tensor {}",
        ShapeText(boundaries),
        ShapeText(input)
    )]
    LeadingDims {
        boundaries: Vec<usize>,
        input: Vec<usize>,
    },
    #[error(
        "torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or Long(int64) depending on whether out_int32 flag is True, but we got output tensor's dtype {} and out_int32 flag is {}",
        dtype.scalar_type_name(),
        if *out_int32 { "True" } else { "False" }
    )]
    OutDtype { dtype: DType, out_int32: bool },
    #[error("boundaries tensor must be 1 dimension, but got dim({dim})")]
    BucketizeBoundaries { dim: usize },
}

impl SearchError {
    pub fn python_type(&self) -> PythonType {
        PythonType::RuntimeError
    }
}
