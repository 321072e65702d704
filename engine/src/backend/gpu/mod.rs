//! The wgpu backend: one adapter and device, the kernels that run on it, and the readbacks
//! that bring results home.
//!
//! In the browser wgpu drives WebGPU (`navigator.gpu`); natively it picks Vulkan, Metal, DX12 or GL.
//! Everything here is `async` because a browser cannot block on the GPU: a readback is a future that
//! resolves when `mapAsync` does, and natively the same future is driven by `Device::poll`.

mod adapter;
mod buffer;
pub(crate) mod clock;
mod conv;
mod elementwise;
mod error;
mod format;
mod grid;
mod matmul;
mod random;
mod readback;
mod reduce;
mod scatter;
mod split;
mod timestamp;

use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use crate::dtype::DType;

pub use adapter::AdapterReport;
pub use buffer::{GpuBuffer, SegmentBuffers};
pub use conv::{ConvOperand, ConvPass, ConvShape};
pub use elementwise::{Elementwise, Operand as KernelOperand, Output, Pick};
pub use error::GpuError;
pub use matmul::{MatrixView, Product, product_lanes};
pub use random::Distribution;
pub use reduce::{ReduceInput, accumulator};
pub use timestamp::Timestamp;

/// An open GPU: the adapter wgpu chose, a device with the adapter's own limits, and the compiled
/// pipelines of the kernels the backend runs.
pub struct GpuContext {
    device: wgpu::Device,
    queue: wgpu::Queue,
    report: AdapterReport,
    /// Compiled kernels by their generated source's key: each is built once per device.
    pipelines: RefCell<HashMap<String, Rc<wgpu::ComputePipeline>>>,
    /// Whether a synchronous readback may block the host (natively yes; a browser cannot, and
    /// native tests switch it off to run the browser's way).
    readbacks_block: std::cell::Cell<bool>,
    /// Errors wgpu raised outside any error scope (a failed submission, a lost device): kept
    /// here and raised at the next sync point instead of aborting the process.
    uncaptured: Arc<Mutex<Vec<String>>>,
    /// Kernels recorded but not submitted yet, and how many: a submission costs far more than a
    /// dispatch, so kernels queue up in one command encoder until something needs them to run
    /// (see [`GpuContext::flush`]).
    batch: RefCell<Option<(wgpu::CommandEncoder, u32)>>,
    /// Submissions the GPU has not finished yet (decremented by the queue's work-done
    /// callbacks): [`GpuContext::throttle`] keeps it small.
    in_flight: Arc<std::sync::atomic::AtomicUsize>,
    /// How kernels bind each dtype (float16 as `f16` where the adapter has `shader-f16`).
    format: format::Format,
    /// The largest storage binding a kernel may use: the adapter's, or less for tests.
    max_binding: std::cell::Cell<u64>,
}

/// The most kernels one submission carries: enough to amortise its cost, few enough that the
/// GPU starts on a long run of small ops while the host is still recording them.
const BATCH: u32 = 64;

/// The most submissions left queued before [`GpuContext::throttle`] waits for the GPU: a loop
/// that never syncs must not queue minutes of work (in a browser, the page's own drawing waits
/// behind it in the GPU process).
const MAX_IN_FLIGHT: usize = 4;

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
        let wanted = wgpu::Features::SHADER_F16
            | wgpu::Features::SHADER_F64
            | wgpu::Features::TIMESTAMP_QUERY;
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

        let uncaptured = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&uncaptured);
        device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            if let Ok(mut errors) = sink.lock() {
                errors.push(error.to_string());
            }
        }));
        let report = AdapterReport::describe(&adapter, &device).await;
        Ok(Self {
            device,
            queue,
            format: format::Format {
                native_f16: report.shader_f16,
            },
            max_binding: std::cell::Cell::new(report.max_storage_buffer_binding_size),
            report,
            pipelines: RefCell::default(),
            readbacks_block: std::cell::Cell::new(cfg!(not(target_arch = "wasm32"))),
            uncaptured,
            batch: RefCell::default(),
            in_flight: Arc::default(),
        })
    }

    /// Waits, when more than a few submissions are still queued, until the GPU has done them:
    /// the host's back-pressure, called between a cell's statements. Without it a loop of GPU
    /// ops that never reads a value would queue work faster than the GPU does it.
    pub async fn throttle(&self) {
        use std::sync::atomic::Ordering;
        if self.in_flight.load(Ordering::Acquire) <= MAX_IN_FLIGHT {
            return;
        }
        let (done, finished) = futures_channel::oneshot::channel::<()>();
        self.queue.on_submitted_work_done(move || {
            let _ = done.send(());
        });
        // Natively this waits for the queue and runs the callbacks; in the browser the callback
        // arrives from the event loop.
        let _ = self.device.poll(wgpu::PollType::wait_indefinitely());
        let _ = finished.await;
    }

    /// Makes synchronous readbacks fail with [`GpuError::WouldBlock`], as in a browser, so that
    /// native tests run the browser's path (reads that await their readbacks).
    pub fn never_block_on_readbacks(&self) {
        self.readbacks_block.set(false);
    }

    /// Binds float16 packed in words, as on an adapter without `shader-f16` (the browsers' path),
    /// so that native tests cover it too.
    pub fn without_shader_f16(mut self) -> Self {
        self.format.native_f16 = false;
        self.pipelines.borrow_mut().clear();
        self
    }

    /// Caps storage bindings at `bytes`, as an adapter with a smaller limit would, so that tests
    /// split kernels over small tensors.
    pub fn limit_bindings(&self, bytes: u64) {
        self.max_binding.set(bytes);
    }

    fn max_binding(&self) -> u64 {
        self.max_binding.get()
    }

    fn format(&self) -> format::Format {
        self.format
    }

    /// Elements of `dtype` per element of a kernel's binding: a row-major write of packed
    /// elements starts and ends on a word boundary.
    pub fn packing(&self, dtype: DType) -> u32 {
        self.format.packing(dtype)
    }

    /// What the adapter is and what it supports: shown in the lab's header and recorded in traces.
    pub fn report(&self) -> &AdapterReport {
        &self.report
    }

    /// Raises the first error wgpu reported outside an error scope since the last check.
    fn check_errors(&self) -> Result<(), GpuError> {
        let first = self
            .uncaptured
            .lock()
            .map(|mut errors| errors.drain(..).next())
            .unwrap_or(None);
        match first {
            Some(reason) => Err(GpuError::Backend { reason }),
            None => Ok(()),
        }
    }

    /// The compiled pipeline of `source` (entry point `main`), built on first use.
    fn pipeline(&self, key: &str, source: impl FnOnce() -> String) -> Rc<wgpu::ComputePipeline> {
        if let Some(found) = self.pipelines.borrow().get(key) {
            return Rc::clone(found);
        }
        let module = self
            .device
            .create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(key),
                source: wgpu::ShaderSource::Wgsl(source().into()),
            });
        let pipeline = Rc::new(self.device.create_compute_pipeline(
            &wgpu::ComputePipelineDescriptor {
                label: Some(key),
                layout: None,
                module: &module,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                cache: None,
            },
        ));
        self.pipelines
            .borrow_mut()
            .insert(key.to_owned(), Rc::clone(&pipeline));
        pipeline
    }
}

impl GpuContext {
    /// A buffer for a kernel's intermediate results, outside the memory model (as cuBLAS and
    /// reductions use workspace CUDA's caching allocator does not count as tensors).
    pub fn scratch(&self, bytes: u64) -> GpuBuffer {
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("scratch"),
            size: buffer::padded(bytes),
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        GpuBuffer::whole(Rc::new(buffer), bytes)
    }

    /// Records one dispatch of `pipeline` over `grid`, its bindings in slot order, and submits it
    /// without waiting.
    fn dispatch(
        &self,
        label: &str,
        pipeline: &wgpu::ComputePipeline,
        bindings: &[wgpu::BindingResource],
        grid: grid::Grid,
    ) {
        self.dispatch_3d(label, pipeline, bindings, grid, 1);
    }

    /// [`GpuContext::dispatch`] with `depth` layers of the grid (one per batch entry).
    fn dispatch_3d(
        &self,
        label: &str,
        pipeline: &wgpu::ComputePipeline,
        bindings: &[wgpu::BindingResource],
        grid: grid::Grid,
        depth: u32,
    ) {
        let entries: Vec<wgpu::BindGroupEntry> = bindings
            .iter()
            .enumerate()
            .map(|(slot, resource)| wgpu::BindGroupEntry {
                binding: slot as u32,
                resource: resource.clone(),
            })
            .collect();
        let bind_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(label),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        });
        self.record(|encoder| {
            // One pass per kernel: wgpu orders passes that share a buffer, as CUDA orders the
            // kernels of a stream.
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(label),
                timestamp_writes: None,
            });
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(grid.workgroups_x, grid.workgroups_y, depth);
        });
    }

    /// Records commands into the batch, submitting it once it holds [`BATCH`] entries.
    fn record(&self, commands: impl FnOnce(&mut wgpu::CommandEncoder)) {
        let mut batch = self.batch.borrow_mut();
        let (encoder, entries) = batch.get_or_insert_with(|| (self.encoder("kernels"), 0));
        commands(encoder);
        *entries += 1;
        if *entries >= BATCH {
            drop(batch);
            self.flush();
        }
    }

    /// Submits the kernels recorded so far. Anything that must come after them on the queue
    /// flushes first: an upload (`write_buffer` runs before the next submission's commands, so
    /// it would overtake kernels still in the batch that read the old bytes), a readback, a wait.
    pub(super) fn flush(&self) {
        if let Some((encoder, _)) = self.batch.borrow_mut().take() {
            self.queue.submit([encoder.finish()]);
            use std::sync::atomic::Ordering;
            self.in_flight.fetch_add(1, Ordering::AcqRel);
            let in_flight = Arc::clone(&self.in_flight);
            self.queue.on_submitted_work_done(move || {
                in_flight.fetch_sub(1, Ordering::AcqRel);
            });
        }
    }
}

impl std::fmt::Debug for GpuContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GpuContext")
            .field("adapter", &self.report.name)
            .field("backend", &self.report.backend)
            .finish()
    }
}

/// The value of a future that is already complete, without waiting: natively wgpu's callbacks
/// have run by the time `Device::poll` returns, so a readback's future is ready when polled once.
fn poll_ready<F: Future>(future: F) -> Option<F::Output> {
    let mut future = std::pin::pin!(future);
    let mut context = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut context) {
        std::task::Poll::Ready(value) => Some(value),
        std::task::Poll::Pending => None,
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
