//! The runtime: owns the engine's resources and answers [`Request`]s.

use tolab_engine::backend::gpu::{GpuContext, GpuError};

use crate::protocol::{BackendReport, Reply, Request};

/// One learner session's runtime. The GPU is opened on first need and kept.
#[derive(Default)]
pub struct Runtime {
    gpu: Option<Result<GpuContext, GpuError>>,
}

impl Runtime {
    pub fn new() -> Self {
        Self::default()
    }

    /// Answers one request.
    pub async fn handle(&mut self, request: Request) -> Reply {
        match request {
            Request::DescribeBackend => Reply::Backend(self.backend().await),
        }
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
