//! The errors of reductions, order statistics and norms (`amax`, `nanmean`, `topk`,
//! `kthvalue`, `vector_norm`, `matrix_norm`, `linalg.norm`), in ATen's words (`aten/src/ATen/native/ReduceOps.cpp`, `ReduceOpsUtils.h`,
//! `LinearAlgebra.cpp`).

use thiserror::Error;

use super::PythonType;
use crate::dtype::DType;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReduceError {
    /// `cumsum_(dim, dtype=)` with another dtype than the tensor's (`meta_func_cumsum_`).
    #[error(
        "Bad in-place call: input tensor dtype {} and output tensor dtype {} should match",
        input.cpp_name(),
        output.cpp_name()
    )]
    InPlaceDtype { input: DType, output: DType },
    #[error("{op}(): Expected reduction dim to be specified for input.numel() == 0.")]
    ArgEmpty { op: &'static str },
    #[error("{op}(): Expected reduction dim {dim} to have non-zero size.")]
    EmptyDim { op: &'static str, dim: usize },
    #[error("{op}(): expected input to have floating point or complex dtype but got {dtype}")]
    NeedsFloat {
        op: &'static str,
        dtype: &'static str,
    },
    #[error("linalg.{op}: Expected a floating point or complex tensor as input. Got {dtype}")]
    NormNeedsFloat {
        op: &'static str,
        dtype: &'static str,
    },
    #[error("selected index k out of range")]
    TopkRange,
    #[error("kthvalue(): selected number k out of range for dimension {dim}")]
    KthRange { dim: usize },
    #[error("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")]
    MatrixNormRank,
    #[error("linalg.matrix_norm: dim must be a 2-tuple. Got {given}")]
    MatrixNormDims { given: String },
    #[error("linalg.matrix_norm: Order {ord} not supported.")]
    MatrixNormOrder { ord: String },
    #[error(
        "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {ndim}D."
    )]
    NormRank { ndim: usize },
}

impl ReduceError {
    pub fn python_type(&self) -> PythonType {
        match self {
            ReduceError::EmptyDim { .. } | ReduceError::ArgEmpty { .. } => PythonType::IndexError,
            ReduceError::NeedsFloat { .. } | ReduceError::NormNeedsFloat { .. } => {
                PythonType::NotImplementedError
            }
            _ => PythonType::RuntimeError,
        }
    }
}
