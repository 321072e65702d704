//! The errors of `torch.linalg`, in ATen's words (`aten/src/ATen/native/LinearAlgebraUtils.h`,
//! `BatchLinearAlgebra.cpp`).

use thiserror::Error;

use super::PythonType;
use crate::device::Device;
use crate::dtype::DType;
use crate::layout::ShapeText;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LinalgError {
    #[error("{op}: The input tensor A must have at least 2 dimensions.")]
    Rank { op: &'static str, ndim: usize },
    #[error("{op}: Expected a floating point or complex tensor as input. Got {dtype}")]
    Dtype {
        op: &'static str,
        dtype: &'static str,
    },
    #[error("{op}: A must be batches of square matrices, but they are {rows} by {cols} matrices")]
    NotSquare {
        op: &'static str,
        rows: usize,
        cols: usize,
    },
    #[error(
        "{op}: The diagonal element {diagonal} is zero, the inversion could not be completed because the input matrix is singular."
    )]
    Singular { op: &'static str, diagonal: usize },
    #[error("linalg.solve: The solver failed because the input matrix is singular.")]
    SolveSingular,
    #[error(
        "linalg.solve: Incompatible shapes of A and B for the equation AX = B ({} and {})",
        by(a),
        by(b)
    )]
    SolveShapes { a: Vec<usize>, b: Vec<usize> },
    #[error(
        "linalg.cholesky: The factorization could not be completed because the input is not positive-definite (the leading minor of order {order} is not positive-definite)."
    )]
    NotPositiveDefinite { order: usize },
    // cholesky_solve (BatchLinearAlgebra.cpp, `_linalg_broadcast_batch_dims` and its checks).
    #[error("b should have at least 2 dimensions, but has {ndim} dimensions instead")]
    SolveRhsRank { ndim: usize },
    #[error("A must be batches of square matrices, but they are {rows} by {cols} matrices")]
    SquareBatches { rows: usize, cols: usize },
    #[error("Expected b and A to be on the same device, but found b on {b} and A on {a} instead.")]
    SolveDevices { b: Device, a: Device },
    #[error(
        "Expected b and A to have the same dtype, but found b of type {} and A of type {} instead.",
        b.scalar_type_name(),
        a.scalar_type_name()
    )]
    SolveDtypes { b: DType, a: DType },
    #[error(
        "Incompatible matrix sizes for cholesky_solve: each A matrix is {n} by {n} but each b matrix is {rows} by {cols}"
    )]
    CholeskySolveSizes { n: usize, rows: usize, cols: usize },
    // The products (Linear.cpp, LinearAlgebra.cpp, Cross.cpp).
    #[error("both dimension lists should have same length")]
    TensordotLengths,
    #[error("both inputs should have same dtype")]
    TensordotDtype,
    #[error(
        "contracted dimensions need to match, but first has size {first} in dim {first_dim} and second has size {second} in dim {second_dim}"
    )]
    TensordotSizes {
        first: usize,
        first_dim: i64,
        second: usize,
        second_dim: i64,
    },
    #[error(
        "inner() the last dimension must match on both input tensors but got shapes {} and {}",
        ShapeText(a),
        ShapeText(b)
    )]
    InnerSizes { a: Vec<usize>, b: Vec<usize> },
    #[error("1D tensors expected, but got {a}D and {b}D tensors")]
    DotNeeds1D { a: usize, b: usize },
    #[error(
        "linalg.vecdot: Expected x and y to have the same dtype, but found x of type {} and y of type {} instead",
        x.scalar_type_name(),
        y.scalar_type_name()
    )]
    VecdotDtype { x: DType, y: DType },
    #[error("multi_dot(): expected at least 2 tensors but got {n}")]
    MultiDotCount { n: usize },
    #[error("multi_dot(): the {which} tensor must be 1D or 2D but got {dim}D")]
    MultiDotEnd { which: &'static str, dim: usize },
    #[error("multi_dot(): tensor {index} must be 2D but got {dim}D")]
    MultiDotMiddle { index: usize, dim: usize },
    #[error(
        "multi_dot(): all tensors must have be the same dtype but tensor 0 is {} and tensor {index} {}",
        first.cpp_name(),
        other.cpp_name()
    )]
    MultiDotDtype {
        first: DType,
        index: usize,
        other: DType,
    },
    #[error(
        "multi_dot(): all tensors must be on the same device but tensor 0 is on {first} and tensor {index} on {other}"
    )]
    MultiDotDevice {
        first: Device,
        index: usize,
        other: Device,
    },
    #[error(
        "multi_dot(): tensors {} and {index} with shapes {} and {} cannot be multiplied",
        index - 1,
        ShapeText(a),
        ShapeText(b)
    )]
    MultiDotShapes {
        index: usize,
        a: Vec<usize>,
        b: Vec<usize>,
    },
    #[error("Tensor dimension is {dim}, expected 2 instead.")]
    ChainMatmulDim { dim: usize },
    #[error("chain_matmul(): Expected one or more matrices")]
    ChainMatmulEmpty,
    #[error("linalg.cross: inputs must have the same number of dimensions.")]
    CrossRank,
    #[error("linalg.cross: inputs dimension {dim} must have length 3. Got {a} and {b}")]
    CrossLength { dim: i64, a: usize, b: usize },
    #[error("no dimension of size 3 in input")]
    CrossNoDim,
    // The `add*` products (LinearAlgebra.cpp, Blas.cpp).
    #[error(
        "self and mat2 must have the same dtype, but got {} and {}",
        input.scalar_type_name(),
        mat2.scalar_type_name()
    )]
    AddmmInputDtype { input: DType, mat2: DType },
    #[error("vector + matrix @ vector expected, got {input}, {mat}, {vec}")]
    AddmvDims {
        input: usize,
        mat: usize,
        vec: usize,
    },
    #[error("size mismatch, got input ({input}), mat ({}x{}), vec ({vec})", mat[0], mat[1])]
    AddmvSizes {
        input: usize,
        mat: [usize; 2],
        vec: usize,
    },
    #[error(
        "addmv input tensors must have the same dtype, but got {}, {}, and {}",
        dtypes[0].scalar_type_name(),
        dtypes[1].scalar_type_name(),
        dtypes[2].scalar_type_name()
    )]
    AddmvDtypes { dtypes: [DType; 3] },
    #[error("addr: Expected 1-D argument {argument}, but got {dim}-D")]
    AddrNeeds1D { argument: &'static str, dim: usize },
    #[error("Boolean {name} only supported for Boolean results.")]
    AddrBoolFactor { name: &'static str },
    #[error("For integral input tensors, argument {name} must not be a floating point number.")]
    IntegralFactor { name: &'static str },
    #[error("batch1 and batch2 must have same number of batches, got {batch1} and {batch2}")]
    AddbmmBatches { batch1: usize, batch2: usize },
    #[error("Incompatible matrix sizes for bmm ({}x{} and {}x{})", a[0], a[1], b[0], b[1])]
    AddbmmSizes { a: [usize; 2], b: [usize; 2] },
    #[error(
        "Input dtypes must be the same, got: input {}, batch1: {}, batch2: {}",
        dtypes[0].cpp_name(),
        dtypes[1].cpp_name(),
        dtypes[2].cpp_name()
    )]
    BaddbmmDtypes { dtypes: [DType; 3] },
}

/// A shape as ATen's linalg checks print it: `3x3`, `2x3x4`.
fn by(shape: &[usize]) -> String {
    shape
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join("x")
}

impl LinalgError {
    pub fn python_type(&self) -> PythonType {
        match self {
            LinalgError::Singular { .. }
            | LinalgError::SolveSingular
            | LinalgError::NotPositiveDefinite { .. } => PythonType::LinAlgError,
            LinalgError::Dtype { .. } => PythonType::NotImplementedError,
            _ => PythonType::RuntimeError,
        }
    }
}
