//! The lab's cell runtime and the message contract between it and the UI.
//!
//! The UI never reaches into the engine: it sends a [`Request`] and renders the [`Reply`] that comes
//! back (DESIGN.md, "The way data flows"). Both are serde types, so the same messages can cross a Web
//! Worker boundary in the browser or Tauri IPC on the desktop. Cells of Python run in
//! [`python::Interpreter`] (one per notebook).

mod protocol;
pub mod python;
mod runtime;
mod stdlib;
mod torch;

pub use protocol::{
    BackendReport, Budget, CellSource, CheckOutcome, CheckSpec, DeviceEntry, DeviceReport,
    DeviceSettings, ExerciseReport, RUNS_WITHOUT_ERROR, Reply, ReplyEnvelope, Request,
    RequestEnvelope, SetupRun,
};
pub use python::{
    Completion, Completions, Limits, Position, Progress, ProgressSink, RunRecord, Shown, Step,
    StopHandle, Timings,
};
pub use runtime::Runtime;
pub use tolab_engine::backend::gpu::AdapterReport;
/// Bytes as PyTorch's allocator prints them (`512 bytes`, `2.00 MiB`), for the UI's labels.
pub use tolab_engine::memory::Size;
/// The events a [`RunRecord`] carries, part of the contract with the UI.
pub use tolab_engine::trace;
pub use tolab_engine::{Device, DeviceType};
