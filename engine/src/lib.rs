//! The to(device) lab's tensor engine: what the lab shows happening inside PyTorch, reproduced
//! closely enough that a learner's own PyTorch prints the same.
//!
//! - [`session`]: one learner's state (devices, CUDA's lazy start, allocators, grad mode,
//!   generators, warnings, trace). [`device`], [`dtype`], [`element`]: the vocabulary.
//! - [`tensor`], [`layout`], [`storage`]: tensors as views of storage; [`repr`] prints them.
//! - [`transfer`]: the seven steps of `.to()`. [`memory`]: the caching allocator per device.
//! - [`ops`]: operations with PyTorch's device checks, promotion and broadcasting;
//!   [`autograd`]: the graph they record and the backward engine; [`random`]: PyTorch's CPU
//!   generator.
//! - [`backend`]: where work runs: the CPU backend, and the wgpu backend (WGSL kernels) that holds
//!   `cuda:N`/`mps` tensors in real GPU buffers when the session has an adapter. Host work done
//!   for a GPU device (an op without a GPU kernel yet, or no adapter) is marked as a stand-in.
//! - [`trace`]: the events the UI animates. [`error`]: one error type with PyTorch's texts.

pub mod amp;
mod asserts;
pub mod autograd;
pub mod backend;
pub mod cuda;
pub mod data;
pub mod device;
pub mod distributed;
pub mod dtype;
pub mod element;
pub mod error;
pub mod files;
pub mod host;
pub mod layout;
pub mod memory;
pub mod nn;
pub mod ops;
pub mod optim;
pub mod random;
pub mod repr;
pub mod serialization;
pub mod session;
pub mod storage;
pub mod tensor;
pub mod trace;
pub mod transfer;
pub mod value;
pub mod warnings;

pub use device::{Device, DeviceType};
pub use dtype::DType;
pub use element::Scalar;
pub use error::{Error, PythonType};
pub use ops::{MatrixOrder, Operand, Rounding, ScatterReduce, Source, TensorIndex};
pub use session::{ProcessState, Session, SessionConfig, StreamMark};
pub use tensor::Tensor;
pub use transfer::{Target, To};
pub use warnings::{WarningAction, WarningFilter};
