//! The runtime: owns the engine's resources and the notebook, and answers [`Request`]s.

use tolab_engine::Session;
use tolab_engine::backend::gpu::{GpuContext, GpuError};

use crate::protocol::{BackendReport, Reply, Request};
use crate::python::{Interpreter, ProgressSink, StopHandle};

/// One learner session's runtime. The GPU is opened on first need and kept; the notebook (its
/// namespace and engine session) is made by the first cell and dropped by Reset.
#[derive(Default)]
pub struct Runtime {
    gpu: Option<Result<GpuContext, GpuError>>,
    notebook: Option<Interpreter>,
    /// Shared by every notebook this runtime makes.
    stop: StopHandle,
    progress: Option<ProgressSink>,
}

impl Runtime {
    pub fn new() -> Self {
        Self::default()
    }

    /// What a Stop request sets, from outside a running cell (the worker's message handler).
    pub fn stop_handle(&self) -> StopHandle {
        self.stop.clone()
    }

    /// Who hears a running cell's output and events before its record is complete (the worker
    /// posts them to the page as [`Reply::Progress`] under the running request's id).
    pub fn on_progress(&mut self, sink: ProgressSink) {
        self.progress = Some(sink);
    }

    /// Answers one request.
    pub async fn handle(&mut self, request: Request) -> Reply {
        match request {
            Request::DescribeBackend => Reply::Backend(self.backend().await),
            Request::RunCell { cell, source } => {
                Reply::Ran(self.notebook().run_cell(&cell, &source).await)
            }
            Request::Step { cell, source } => {
                Reply::Stepped(self.notebook().step_cell(&cell, &source).await)
            }
            Request::Reset => {
                self.notebook = None;
                Reply::Reset
            }
            // Reaching here, the Stop has found no cell running.
            Request::Stop => {
                self.stop.clear();
                Reply::Stopped
            }
        }
    }

    /// The notebook a cell runs in, made by the first one. A Stop that came after its cell had
    /// finished is dropped here, so that it does not end this one.
    fn notebook(&mut self) -> &mut Interpreter {
        self.stop.clear();
        let stop = self.stop.clone();
        let notebook = self.notebook.get_or_insert_with(|| {
            // The UI animates the trace, so a notebook's session always records it.
            let session = Session::default();
            session.set_tracing(true);
            Interpreter::notebook(session).with_stop_handle(stop)
        });
        notebook.set_progress(self.progress.clone());
        notebook
    }

    async fn backend(&mut self) -> BackendReport {
        let gpu = match self.gpu.take() {
            Some(opened) => opened,
            None => GpuContext::new().await,
        };
        let report = match &gpu {
            Ok(gpu) => BackendReport::Gpu {
                adapter: gpu.report().clone(),
            },
            Err(GpuError::NoAdapter { reason }) => BackendReport::CpuEmulated {
                reason: no_adapter_reason(reason),
            },
            Err(other) => BackendReport::CpuEmulated {
                reason: other.to_string(),
            },
        };
        self.gpu = Some(gpu);
        report
    }
}

#[cfg(target_arch = "wasm32")]
fn no_adapter_reason(_detail: &str) -> String {
    "this browser has no WebGPU".to_owned()
}

#[cfg(not(target_arch = "wasm32"))]
fn no_adapter_reason(detail: &str) -> String {
    format!("no GPU adapter was found ({detail})")
}
