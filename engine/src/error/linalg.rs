//! The errors of `torch.linalg`, in ATen's words (`aten/src/ATen/native/LinearAlgebraUtils.h`,
//! `BatchLinearAlgebra.cpp`).

use thiserror::Error;

use super::PythonType;

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
