//! The to(device) lab's tensor engine.
//!
//! It owns everything the lab shows happening inside PyTorch: devices, tensors, the seven-step
//! transfer, autograd and the memory model (see DESIGN.md). Backends sit behind one interface in
//! [`backend`]; the GPU one runs real WGSL kernels through wgpu, in the browser (WebGPU) and natively
//! (Vulkan / Metal / DX12).

pub mod autograd;
pub mod backend;
pub mod device;
pub mod dtype;
pub mod element;
pub mod error;
pub mod layout;
pub mod memory;
pub mod ops;
pub mod random;
pub mod repr;
pub mod session;
pub mod storage;
pub mod tensor;
pub mod trace;
pub mod transfer;

pub use device::{Device, DeviceType};
pub use dtype::DType;
pub use element::Scalar;
pub use error::{Error, PythonType};
pub use ops::Operand;
pub use session::{Session, SessionConfig};
pub use tensor::Tensor;
pub use transfer::{Target, To};
