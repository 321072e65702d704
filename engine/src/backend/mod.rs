//! Backends: where tensor data lives and where kernels run.
//!
//! `cpu` runs the CPU device's ops; `gpu` (wgpu, WGSL kernels) runs `cuda:N` and `mps` tensors,
//! which live in its buffers when the session has an adapter. An op the GPU has no kernel for yet
//! is computed by `cpu` on the values read back, and the trace marks it as a CPU stand-in;
//! without an adapter every GPU device runs on `cpu`, marked the same way.

pub mod cpu;
pub mod gpu;
