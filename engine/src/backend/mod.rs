//! Backends: where tensor data lives and where kernels run.
//!
//! `cpu` runs every op today (for GPU devices too, marked in the trace as a stand-in); `gpu` is the
//! wgpu backend, so far proven by one real compute round trip.

pub mod cpu;
pub mod gpu;
