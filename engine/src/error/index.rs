//! The errors of indexing with `[]` and of the scatter, put and mask ops, in PyTorch's words
//! (`torch/csrc/autograd/python_variable_indexing.cpp`, `aten/src/ATen/native/IndexingUtils.h`,
//! `TensorAdvancedIndexing.cpp`, `ScatterGatherChecks.h`).

use thiserror::Error;

use super::PythonType;
use crate::layout::ShapeText;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IndexingError {
    #[error("tensors used as indices must be long, int, byte or bool tensors")]
    IndexDtype,
    #[error(
        "shape mismatch: indexing tensors could not be broadcast together with shapes {}",
        shapes.iter().map(|s| ShapeText(s).to_string()).collect::<Vec<_>>().join(", ")
    )]
    IndexShapes { shapes: Vec<Vec<usize>> },
    #[error(
        "shape mismatch: value tensor of shape {} cannot be broadcast to indexing result of shape {}",
        ShapeText(value),
        ShapeText(result)
    )]
    ValueShape {
        value: Vec<usize>,
        result: Vec<usize>,
    },
    #[error(
        "Index put requires the source and destination dtypes match, got {destination} for the destination and {src} for the source."
    )]
    PutDtype {
        destination: &'static str,
        src: &'static str,
    },
    /// `index_select` along a dim other than the first, on the CPU.
    #[error("INDICES element is out of DATA bounds, id={id} axis_dim={size}")]
    IndicesOutOfData { id: i64, size: usize },
    #[error("Index tensor must have the same number of dimensions as {what} tensor")]
    ScatterIndexDims { what: &'static str },
    #[error(
        "Expected index {} to be no larger than self {} apart from dimension {dim}{rest}",
        ShapeText(index),
        ShapeText(input)
    )]
    ScatterIndexSize {
        index: Vec<usize>,
        input: Vec<usize>,
        dim: usize,
        rest: String,
    },
    #[error("scatter(): Expected self.dtype to be equal to src.dtype")]
    ScatterDtype,
    #[error("{op}(): Expected dtype int32/int64 for index")]
    IndexDtypeFor { op: &'static str },
    #[error("index_copy_(): index {index} is out of bounds for dimension {dim} with size {size}")]
    IndexCopyOutOfBounds { index: i64, dim: usize, size: usize },
    #[error("reduce argument must be either add or multiply.")]
    ScatterReduceMode,
    #[error("reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")]
    ScatterReduceName { reduce: String },
    #[error("index_add_(): self ({self_dtype}) and source ({src}) must have the same scalar type")]
    IndexAddDtype {
        self_dtype: &'static str,
        src: &'static str,
    },
    #[error(
        "{op}(): Index is supposed to be a vector, but got dim: {ndim} with type: {dtype} and size: {}",
        ShapeText(shape)
    )]
    IndexVector {
        op: &'static str,
        ndim: usize,
        dtype: &'static str,
        shape: Vec<usize>,
    },
    #[error("Index has to be a vector/scalar")]
    IndexFillVector,
    #[error(
        "index_copy_(): Source/destination tensor must have same slice shapes. Destination slice shape: {} at dimension {dim} and source slice shape: {} at dimension 0.",
        spaced(destination),
        spaced(src)
    )]
    IndexCopyShape {
        destination: Vec<usize>,
        dim: usize,
        src: Vec<usize>,
    },
    #[error(
        "index_copy_(): Number of indices ({indices}) should be equal to source.size(dim) ({size})"
    )]
    IndexCopyCount { indices: usize, size: usize },
    #[error("masked_select: expected BoolTensor for mask")]
    MaskedSelectMask,
    #[error("masked_scatter_ only supports boolean masks, but got mask with dtype {dtype}")]
    MaskedScatterMask { dtype: &'static str },
    #[error(
        "masked_scatter: expected self and source to have same dtypes but got{self_dtype} and {src}"
    )]
    MaskedScatterDtype {
        self_dtype: &'static str,
        src: &'static str,
    },
    #[error("Number of elements of source < number of ones in mask")]
    MaskedScatterTooFew,
    #[error("out of range: tried to access index {index} on a tensor of {numel} elements.")]
    TakeOutOfRange { index: i64, numel: usize },
    #[error(
        "torch.take_along_dim(): input and indices should have the same number of dimensions, but got {input} dimensions for input, and {indices} dimensions for indices"
    )]
    TakeAlongDims { input: usize, indices: usize },
    #[error("torch.take_along_dim(): dtype of indices should be Long but got {dtype}")]
    TakeAlongDtype { dtype: &'static str },
}

impl IndexingError {
    pub fn python_type(&self) -> PythonType {
        match self {
            IndexingError::IndexDtype
            | IndexingError::IndexShapes { .. }
            | IndexingError::IndexCopyOutOfBounds { .. }
            | IndexingError::TakeOutOfRange { .. } => PythonType::IndexError,
            IndexingError::IndexVector { .. } | IndexingError::IndexCopyCount { .. } => {
                PythonType::IndexError
            }
            _ => PythonType::RuntimeError,
        }
    }
}

/// A C++ `IntArrayRef` as ATen's slice-shape messages print it: the sizes, space-separated.
fn spaced(sizes: &[usize]) -> String {
    sizes
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}
