//! The errors of the shape and joining ops (`narrow`, `split`, `movedim`, `flip`, `roll`,
//! `repeat`, `unfold`, diagonals, triangles, stacking), in ATen's words
//! (`aten/src/ATen/native/TensorShape.cpp`, `TensorTransformations.cpp`, `Repeat.cpp`).

use thiserror::Error;

use super::PythonType;
use crate::layout::ShapeText;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ShapeError {
    #[error("start ({start}) + length ({length}) exceeds dimension size ({size}).")]
    NarrowPastEnd {
        start: i64,
        length: i64,
        size: usize,
    },
    #[error("start out of range (expected to be in range of [-{size}, {size}], but got {start})")]
    NarrowStart { start: i64, size: usize },
    #[error("narrow(): length must be non-negative.")]
    NarrowNegativeLength,
    #[error("chunk expects `chunks` to be greater than 0, got: {chunks}")]
    ChunkCount { chunks: i64 },
    #[error("split_size can only be 0 if dimension size is 0, but got dimension size of {size}")]
    SplitSizeZero { size: usize },
    #[error("split expects split_size be non-negative, but got split_size={split_size}")]
    SplitSizeNegative { split_size: i64 },
    #[error(
        "split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size at dimension {dim}), but got split_sizes={}",
        ShapeText(sizes)
    )]
    SplitSizesSum {
        size: usize,
        dim: usize,
        sizes: Vec<i64>,
    },
    #[error(
        "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes={}",
        ShapeText(sizes)
    )]
    SplitSizesNegative { sizes: Vec<i64> },
    #[error("{op} expects at least a 1-dimensional tensor")]
    SplitZeroDim { op: &'static str },
    #[error("number of sections must be larger than 0, got {sections}")]
    TensorSplitSections { sections: i64 },
    #[error(
        "movedim: Invalid source or destination dims: source ({} dims) should contain the same number of dims as destination ({} dims)",
        ShapeText(from),
        ShapeText(to)
    )]
    MovedimLengths { from: Vec<i64>, to: Vec<i64> },
    #[error("movedim: repeated dim in `{which}` ({})", ShapeText(dims))]
    MovedimRepeated { which: &'static str, dims: Vec<i64> },
    #[error("dim {dim} appears multiple times in the list of dims")]
    RepeatedDim { dim: usize },
    #[error("shifts and dimensions must align. shifts: {shifts}, dims:{dims}")]
    RollAlign { shifts: usize, dims: usize },
    #[error("expected total rotation dims == 2, but got dims = {dims}")]
    Rot90Dims { dims: usize },
    #[error("expected total dims >= 2, but got total dims = {ndim}")]
    Rot90Rank { ndim: usize },
    #[error("expected rotation dims to be different, but got dim0 = {dim0} and dim1 = {dim1}")]
    Rot90SameDims { dim0: usize, dim1: usize },
    #[error(
        "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"
    )]
    RepeatTooFewDims,
    #[error(
        "Trying to create tensor with negative dimension {size}: {}",
        ShapeText(shape)
    )]
    NegativeDimension { size: i64, shape: Vec<i64> },
    #[error("Repeats must be non-negative")]
    RepeatsNegative,
    #[error(
        "repeats must have the same size as input along dim, but got repeats.size(0) = {repeats} and input.size(0) = {size}"
    )]
    RepeatsSize { repeats: usize, size: usize },
    #[error("repeat_interleave only accept 1D vector as repeat")]
    RepeatsNot1D,
    #[error("maximum size for tensor at dimension {dim} is {max} but size is {size}")]
    UnfoldSize { dim: usize, max: usize, size: i64 },
    #[error("step is {step} but must be > 0")]
    UnfoldStep { step: i64 },
    #[error("diag(): Supports 1D or 2D tensors. Got {ndim}D")]
    DiagRank { ndim: usize },
    #[error("diagonal dimensions cannot be identical {dim1}, {dim2}")]
    DiagonalSameDims { dim1: i64, dim2: i64 },
    #[error("trace: expected a matrix, but got tensor with dim {ndim}")]
    TraceRank { ndim: usize },
    #[error("{op}: input tensor must have at least 2 dimensions")]
    TriangleRank { op: &'static str },
    #[error(
        "unflatten: Provided sizes {} don't multiply up to the size of dim {dim} ({size}) in the input tensor",
        ShapeText(sizes)
    )]
    UnflattenSizes {
        sizes: Vec<i64>,
        dim: usize,
        size: usize,
    },
    #[error("unflatten: sizes must be non-empty")]
    UnflattenEmpty,
    #[error("Dimension specified as {dim} but tensor has no dimensions")]
    NoDimensions { dim: i64 },
    #[error("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {shown}")]
    MeshgridRank { shown: String },
    #[error("{op} expects a non-empty TensorList")]
    EmptyTensorList { op: &'static str },
    #[error(
        "tensor.H is only supported on matrices (2-D tensors). Got {ndim}-D tensor. For batches of matrices, consider using tensor.mH"
    )]
    AdjointRank { ndim: usize },
    #[error("tensor.mT is only supported on matrices or batches of matrices. Got {ndim}-D tensor.")]
    MatrixTransposeRank { ndim: usize },
}

impl ShapeError {
    pub fn python_type(&self) -> PythonType {
        match self {
            ShapeError::NarrowStart { .. } | ShapeError::NoDimensions { .. } => {
                PythonType::IndexError
            }
            _ => PythonType::RuntimeError,
        }
    }
}
