//! What can go wrong on the GPU backend, as one typed error.

use thiserror::Error;

/// A failure of the wgpu backend. The text is what the lab shows a learner.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GpuError {
    #[error("no GPU adapter is available: {reason}")]
    NoAdapter { reason: String },
    #[error("the GPU adapter refused to open a device: {reason}")]
    DeviceRequest { reason: String },
    #[error(
        "a buffer of {bytes} bytes exceeds this adapter's largest storage binding ({max_bytes} bytes)"
    )]
    BufferTooLarge { bytes: u64, max_bytes: u64 },
    #[error("{invocations} GPU invocations do not fit one dispatch grid")]
    GridTooLarge { invocations: u64 },
    #[error("reading a buffer back from the GPU failed: {reason}")]
    Readback { reason: String },
    /// In the browser a readback is a future: a synchronous read of GPU memory that has not
    /// come back yet fails with this, and the runtime awaits the readback and runs the call again.
    #[error(
        "the values of a GPU tensor are not back on the host yet (the browser cannot wait here)"
    )]
    WouldBlock,
    #[error("the GPU could not allocate {bytes} bytes")]
    OutOfMemory { bytes: u64 },
    #[error("this adapter has no kernel for {what}")]
    Unsupported { what: String },
    #[error("the GPU backend failed: {reason}")]
    Backend { reason: String },
}
