//! The engine's one error type. Its `Display` is the text a learner sees, PyTorch's own wording
//! where PyTorch has one; [`Error::python_type`] says which Python exception carries it.

use thiserror::Error;

use crate::device::DEVICE_TYPE_NAMES;
use crate::layout::ShapeText;

/// The Python exception class an engine error surfaces as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PythonType {
    RuntimeError,
    ValueError,
    TypeError,
    IndexError,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    #[error("Device string must not be empty")]
    EmptyDeviceString,
    #[error("Invalid device string: '{string}'")]
    InvalidDeviceString { string: String },
    #[error("Could not parse device index '{index}' in device string '{string}'")]
    UnparsableDeviceIndex { index: String, string: String },
    #[error("Expected one of {} device type at start of device string: {name}", DEVICE_TYPE_NAMES.join(", "))]
    UnknownDeviceType { name: String },
    #[error(
        "type (string) must not include an index because index was passed explicitly: {string}"
    )]
    IndexGivenTwice { string: String },
    #[error("Device index must not be negative")]
    NegativeDeviceIndex,

    // Shapes and views (aten/src/ATen/native/TensorShape.cpp, InferSize.h, ExpandUtils.cpp).
    #[error("Dimension out of range (expected to be in range of [{min}, {max}], but got {dim})")]
    DimOutOfRange { dim: i64, min: i64, max: i64 },
    #[error("only one dimension can be inferred")]
    InferMoreThanOneDim,
    #[error(
        "invalid shape dimension {size} at index {index} of shape {}",
        ShapeText(shape)
    )]
    InvalidShapeDim {
        size: i64,
        index: usize,
        shape: Vec<i64>,
    },
    #[error("shape '{}' is invalid for input of size {numel}", ShapeText(shape))]
    ShapeInvalidForSize { shape: Vec<i64>, numel: usize },
    #[error(
        "cannot reshape tensor of 0 elements into shape {} because the unspecified dimension size -1 can be any value and is ambiguous",
        ShapeText(shape)
    )]
    AmbiguousInferOfEmpty { shape: Vec<i64> },
    #[error(
        "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead."
    )]
    ViewNotCompatible,
    #[error("t() expects a tensor with <= 2 dimensions, but self is {dim}D")]
    TNeedsAtMost2D { dim: usize },
    #[error(
        "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = {ndim} is not equal to len(dims) = {len}"
    )]
    PermuteWrongLength { ndim: usize, len: usize },
    #[error("permute(): duplicate dims are not allowed.")]
    PermuteDuplicateDims,
    #[error(
        "expand({type_name}{{{}}}, size={}): the number of sizes provided ({}) must be greater or equal to the number of dimensions in the tensor ({})",
        ShapeText(shape),
        ShapeText(sizes),
        sizes.len(),
        shape.len()
    )]
    ExpandTooFewSizes {
        type_name: String,
        shape: Vec<usize>,
        sizes: Vec<i64>,
    },
    #[error(
        "The expanded size of the tensor ({size}) isn't allowed in a leading, non-existing dimension {dim}"
    )]
    ExpandLeadingInfer { size: i64, dim: usize },
    #[error(
        "The expanded size of the tensor ({target}) must match the existing size ({existing}) at non-singleton dimension {dim}.  Target sizes: {}.  Tensor sizes: {}",
        ShapeText(sizes),
        ShapeText(shape)
    )]
    ExpandMismatch {
        target: i64,
        existing: usize,
        dim: usize,
        sizes: Vec<i64>,
        shape: Vec<usize>,
    },
    #[error("numel: integer multiplication overflow")]
    NumelOverflow,
    #[error("select() cannot be applied to a 0-dim tensor.")]
    SelectZeroDim,
    #[error(
        "select(): index {index} out of range for tensor of size {} at dimension {dim}",
        ShapeText(shape)
    )]
    SelectOutOfRange {
        index: i64,
        shape: Vec<usize>,
        dim: usize,
    },
    #[error("too many indices for tensor of dimension {ndim}")]
    TooManyIndices { ndim: usize },
    #[error("slice step cannot be zero")]
    SliceStepZero,
    #[error("step must be greater than zero")]
    SliceStepNegative,
    #[error(
        "The size of tensor a ({a}) must match the size of tensor b ({b}) at non-singleton dimension {dim}"
    )]
    BroadcastMismatch { a: usize, b: usize, dim: usize },
}

impl Error {
    pub fn python_type(&self) -> PythonType {
        match self {
            Error::EmptyDeviceString
            | Error::InvalidDeviceString { .. }
            | Error::UnparsableDeviceIndex { .. }
            | Error::UnknownDeviceType { .. }
            | Error::IndexGivenTwice { .. }
            | Error::NegativeDeviceIndex => PythonType::RuntimeError,
            Error::DimOutOfRange { .. }
            | Error::SelectZeroDim
            | Error::SelectOutOfRange { .. }
            | Error::TooManyIndices { .. } => PythonType::IndexError,
            Error::SliceStepZero | Error::SliceStepNegative => PythonType::ValueError,
            Error::InferMoreThanOneDim
            | Error::InvalidShapeDim { .. }
            | Error::ShapeInvalidForSize { .. }
            | Error::AmbiguousInferOfEmpty { .. }
            | Error::ViewNotCompatible
            | Error::TNeedsAtMost2D { .. }
            | Error::PermuteWrongLength { .. }
            | Error::PermuteDuplicateDims
            | Error::ExpandTooFewSizes { .. }
            | Error::ExpandLeadingInfer { .. }
            | Error::ExpandMismatch { .. }
            | Error::NumelOverflow
            | Error::BroadcastMismatch { .. } => PythonType::RuntimeError,
        }
    }
}

impl PythonType {
    pub fn name(self) -> &'static str {
        match self {
            PythonType::RuntimeError => "RuntimeError",
            PythonType::ValueError => "ValueError",
            PythonType::TypeError => "TypeError",
            PythonType::IndexError => "IndexError",
        }
    }
}
