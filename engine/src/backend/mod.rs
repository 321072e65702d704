//! Backends: where tensor data lives and where kernels run.
//!
//! Today this is the wgpu backend's first real compute path; the CPU backend and the shared
//! backend interface arrive with the engine core.

pub mod gpu;
