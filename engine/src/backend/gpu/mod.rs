//! The wgpu backend: one adapter and device, the kernels that run on it, and the readbacks
//! that bring results home.
//!
//! In the browser wgpu drives WebGPU (`navigator.gpu`); natively it picks Vulkan, Metal, DX12 or GL.
//! Everything here is `async` because a browser cannot block on the GPU: a readback is a future that
//! resolves when `mapAsync` does, and natively the same future is driven by `Device::poll`.

mod adapter;
mod affine;
mod error;
mod grid;
mod readback;

pub use adapter::AdapterReport;
pub use error::GpuError;

/// An open GPU: the adapter wgpu chose, a device with the adapter's own limits, and the compiled
/// pipelines of the kernels the backend runs.
pub struct GpuContext {
    device: wgpu::Device,
    queue: wgpu::Queue,
    report: AdapterReport,
    affine: affine::AffineKernel,
}

impl GpuContext {
    /// Finds an adapter and opens a device on it.
    ///
    /// Fails with [`GpuError::NoAdapter`] where there is none (a browser without WebGPU, a machine
    /// without any Vulkan/Metal/DX12/GL driver); callers then fall back to the CPU and say so.
    pub async fn new() -> Result<Self, GpuError> {
        let instance = wgpu::Instance::new(instance_descriptor());
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                ..Default::default()
            })
            .await
            .map_err(|e| GpuError::NoAdapter {
                reason: e.to_string(),
            })?;

        // Ask for the adapter's real limits (WebGPU's defaults cap storage bindings at 128 MiB) and
        // for the float16/float64 shader features where it has them.
        let wanted = wgpu::Features::SHADER_F16 | wgpu::Features::SHADER_F64;
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("tolab"),
                required_features: adapter.features() & wanted,
                required_limits: adapter.limits(),
                ..Default::default()
            })
            .await
            .map_err(|e| GpuError::DeviceRequest {
                reason: e.to_string(),
            })?;

        let report = AdapterReport::describe(&adapter, &device).await;
        let affine = affine::AffineKernel::new(&device);
        Ok(Self {
            device,
            queue,
            report,
            affine,
        })
    }

    /// What the adapter is and what it supports: shown in the lab's header and recorded in traces.
    pub fn report(&self) -> &AdapterReport {
        &self.report
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn instance_descriptor() -> wgpu::InstanceDescriptor {
    // Natively any backend will do; WGPU_BACKEND and friends may narrow the choice.
    wgpu::InstanceDescriptor::new_without_display_handle_from_env()
}

#[cfg(target_arch = "wasm32")]
fn instance_descriptor() -> wgpu::InstanceDescriptor {
    // In the browser the engine runs on WebGPU or not at all (no WebGL fallback: its compute
    // model is too different to be worth showing as "the GPU").
    wgpu::InstanceDescriptor {
        backends: wgpu::Backends::BROWSER_WEBGPU,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    }
}
