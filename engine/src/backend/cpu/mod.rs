//! The CPU backend: kernels over [`CpuStorage`](crate::storage::CpuStorage).
//!
//! Elementwise kernels work on *lanes*: the elements an operand contributes, gathered in row-major
//! order (broadcasting included) and widened to the type the arithmetic runs in — `f32` for
//! float32, float16 and bfloat16 (PyTorch computes the 16-bit types in float and rounds the
//! result), `f64` for float64, `i64` for the integer types (narrowed with wrap-around on store), and
//! `bool`.

pub mod buffer;
pub mod cascade;
pub mod elementwise;
pub mod matmul;
pub mod reduce;
pub mod stl;
pub mod unary;
