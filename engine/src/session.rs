//! A session: the engine state one learner's cells share, as PyTorch's process-wide state is
//! shared by a script — the devices and their allocators, CUDA's lazy initialisation (which reads
//! `CUDA_VISIBLE_DEVICES` once), the current CUDA device, grad mode and the trace.
//!
//! A `Session` is a cheap handle; tensors keep one so that freeing memory and recording events
//! reach the right session. Resetting a lesson makes a new session.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use crate::asserts::{CheckedLaunch, FlagRead, KernelChecks};
use crate::backend::gpu::{GpuBuffer, GpuContext, GpuError, SegmentBuffers};
use crate::device::{Device, DeviceType};
use crate::dtype::DType;
use crate::error::{Error, RandomError};
use crate::memory::{BlockId, DetailedStats, DeviceAllocator, MemoryStats};
use crate::random::{Generator, GeneratorHandle};
use crate::repr::PrintOptions;
use crate::storage::Readback;
use crate::trace::{EventKind, TraceEvent, Tracer};
use crate::warnings::Warnings;

const GIB: u64 = 1 << 30;

/// How a session's machine looks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionConfig {
    /// Logical CUDA devices before `CUDA_VISIBLE_DEVICES` narrows them.
    pub gpu_count: usize,
    /// Memory cap of each logical GPU, in bytes.
    pub gpu_capacity: u64,
    pub mps_capacity: u64,
    pub cpu_capacity: u64,
}

impl Default for SessionConfig {
    fn default() -> Self {
        Self {
            gpu_count: 2,
            gpu_capacity: GIB,
            mps_capacity: GIB,
            cpu_capacity: 2 * GIB,
        }
    }
}

/// CUDA as the process sees it after initialisation.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Cuda {
    /// Physical GPU behind each logical index.
    visible: Vec<usize>,
    current: usize,
    /// `CUDA_LAUNCH_BLOCKING=1`: every kernel is waited for, so its errors surface at its call.
    launch_blocking: bool,
}

/// What belongs to one process rather than to the machine: its current GPU and its default CPU
/// generator. A simulated process (a distributed rank) swaps its own in while it runs.
#[derive(Debug, Clone, Default)]
pub struct ProcessState {
    current_device: usize,
    /// `None`: a fresh process's generator (the default seed).
    generator: Option<Generator>,
    /// GPU readbacks this process awaits.
    readbacks_in_flight: usize,
}

/// A device-side assert on a GPU: pending until the host next waits for that device, then
/// raised, after which the device refuses all work (as a CUDA context does after an assert).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DeviceAssert {
    Pending,
    Raised,
}

#[derive(Debug)]
struct State {
    config: SessionConfig,
    env: RefCell<HashMap<String, String>>,
    cuda: RefCell<Option<Cuda>>,
    allocators: RefCell<HashMap<Device, DeviceAllocator>>,
    tracer: RefCell<Tracer>,
    grad_enabled: Cell<bool>,
    anomaly: Cell<crate::autograd::AnomalyMode>,
    /// `torch.set_default_dtype`: the dtype of floats made without one (a floating dtype),
    /// which Python floats promote to.
    default_dtype: Cell<DType>,
    /// `torch.set_default_device`: where factories without `device=` put their tensors
    /// (`None`: the CPU, as when it was never set).
    default_device: Cell<Option<Device>>,
    /// `torch.set_printoptions`.
    print_options: Cell<PrintOptions>,
    /// Whether the learner turned recording off (the lab's own `no_grad` work, like a backward
    /// pass, is no graph break).
    learner_no_grad: Cell<bool>,
    next_id: Cell<u64>,
    /// One generator per device type and index: PyTorch's default CPU generator and, standing in
    /// for CUDA's Philox generators, one Mersenne Twister per GPU (their values differ from CUDA's).
    generators: RefCell<HashMap<Device, Generator>>,
    /// The learner's `torch.Generator` an op was given (`generator=`), drawn from instead of
    /// the CPU's default generator while the op runs.
    explicit_generator: RefCell<Option<Rc<RefCell<Generator>>>>,
    /// The `UserWarning`s raised, and Python's `warnings` state that decides which show.
    warnings: RefCell<Warnings>,
    /// `torch.cuda.set_sync_debug_mode`.
    sync_debug_mode: Cell<crate::cuda::SyncDebugMode>,
    /// Whether this process has a CUDA context (a tensor was placed on a GPU): a forked DataLoader
    /// worker may not create one then.
    cuda_context: Cell<bool>,
    /// The DataLoader worker running now, if any.
    worker: Cell<Option<Worker>>,
    /// The autocast dtype of each device type inside an enabled `torch.autocast` region.
    autocast: RefCell<HashMap<DeviceType, DType>>,
    device_asserts: RefCell<HashMap<Device, DeviceAssert>>,
    /// The bounds-checking kernels launched on GPUs, and the flags they raise.
    kernel_checks: RefCell<KernelChecks>,
    /// The wgpu backend behind `cuda:N` and `mps`, when the runtime found an adapter: every
    /// logical GPU is a set of buffers on it, with its own allocator and cap.
    gpu: Option<Rc<GpuContext>>,
    /// Per logical GPU, the real buffers behind its allocator's segments.
    segments: RefCell<HashMap<Device, SegmentBuffers>>,
    /// Readbacks a read in the browser asked for and could not wait for (see
    /// [`Session::complete_readbacks`]).
    pending_readbacks: RefCell<Vec<(GpuBuffer, DType, Readback)>>,
    /// Readbacks being awaited now (a simulated process waiting on one is not deadlocked).
    readbacks_in_flight: Cell<usize>,
}

/// A point on a GPU's queue (`torch.cuda.Event.record()`): a timestamp the GPU writes when it
/// gets there, where the adapter has timestamp queries; else the host's clock at recording.
#[derive(Debug, Clone)]
pub enum StreamMark {
    Gpu(Rc<crate::backend::gpu::Timestamp>),
    Host { us: f64 },
}

/// See [`Session::retry_mark`].
#[derive(Debug, Clone, Copy)]
pub struct RetryMark {
    events: crate::trace::TraceMark,
    launches: usize,
    warnings: crate::warnings::WarningsMark,
}

/// Where a new storage lives: its allocator block, its (simulated) address, and on a GPU backed
/// by an adapter, the real buffer range.
pub(crate) struct Allocated {
    pub block: BlockId,
    pub address: u64,
    pub gpu: Option<GpuBuffer>,
}

/// A simulated DataLoader worker process, while it runs.
#[derive(Debug, Clone, Copy)]
struct Worker {
    id: usize,
    /// The parent had a CUDA context when it forked this worker.
    forked_with_cuda: bool,
}

/// What a simulated worker's run leaves aside, to restore when the main process resumes.
struct ParentProcess {
    cuda_context: bool,
    generator: Option<Generator>,
}

#[derive(Debug, Clone)]
pub struct Session(Rc<State>);

impl Default for Session {
    fn default() -> Self {
        Session::new(SessionConfig::default())
    }
}

impl Session {
    /// A session whose GPU devices run on the CPU backend (marked as a stand-in in the trace).
    pub fn new(config: SessionConfig) -> Self {
        Session::build(config, None)
    }

    /// A session whose GPU devices live on `gpu`.
    pub fn with_gpu(config: SessionConfig, gpu: Rc<GpuContext>) -> Self {
        Session::build(config, Some(gpu))
    }

    fn build(config: SessionConfig, gpu: Option<Rc<GpuContext>>) -> Self {
        Session(Rc::new(State {
            config,
            env: RefCell::default(),
            cuda: RefCell::default(),
            allocators: RefCell::default(),
            tracer: RefCell::default(),
            grad_enabled: Cell::new(true),
            anomaly: Cell::default(),
            default_dtype: Cell::new(DType::Float32),
            default_device: Cell::new(None),
            print_options: Cell::default(),
            learner_no_grad: Cell::new(false),
            next_id: Cell::new(1),
            generators: RefCell::default(),
            explicit_generator: RefCell::default(),
            warnings: RefCell::default(),
            sync_debug_mode: Cell::default(),
            cuda_context: Cell::new(false),
            worker: Cell::new(None),
            autocast: RefCell::default(),
            device_asserts: RefCell::default(),
            kernel_checks: RefCell::default(),
            gpu,
            segments: RefCell::default(),
            pending_readbacks: RefCell::default(),
            readbacks_in_flight: Cell::new(0),
        }))
    }

    pub(crate) fn want_readback(&self, buffer: GpuBuffer, dtype: DType, readback: Readback) {
        self.0
            .pending_readbacks
            .borrow_mut()
            .push((buffer, dtype, readback));
    }

    /// Awaits the readbacks that reads asked for: the sync point of the browser, where the host
    /// cannot block. Afterwards the same reads find their values.
    pub async fn complete_readbacks(&self) -> Result<(), Error> {
        let pending = std::mem::take(&mut *self.0.pending_readbacks.borrow_mut());
        let Some(gpu) = self.0.gpu.clone() else {
            return Ok(());
        };
        for (buffer, dtype, readback) in pending {
            self.read_back(&gpu, &buffer, dtype, &readback).await?;
        }
        Ok(())
    }

    /// Reads `buffer`'s `dtype` elements back into `readback`, counted as in flight meanwhile
    /// (a simulated process awaiting it is not deadlocked).
    pub(crate) async fn read_back(
        &self,
        gpu: &GpuContext,
        buffer: &GpuBuffer,
        dtype: DType,
        readback: &Readback,
    ) -> Result<(), Error> {
        let count = &self.0.readbacks_in_flight;
        count.set(count.get() + 1);
        let bytes = gpu.download_async(buffer).await;
        count.set(count.get() - 1);
        *readback.borrow_mut() = Some(crate::storage::host_elements(dtype, &bytes?)?);
        Ok(())
    }

    /// Whether the running process awaits a GPU readback now.
    pub fn readbacks_in_flight(&self) -> bool {
        self.0.readbacks_in_flight.get() > 0
    }

    /// Where a call begins that may have to run again (in the browser, after awaiting its
    /// readbacks): the trace's length, the checking kernels launched and the warnings raised so
    /// far.
    pub fn retry_mark(&self) -> RetryMark {
        RetryMark {
            events: self.0.tracer.borrow().mark(),
            launches: self.0.kernel_checks.borrow().count(),
            warnings: self.0.warnings.borrow().mark(),
        }
    }

    /// Rolls back to `mark` a call that will run again: its events are dropped, and its checking
    /// kernels will get the same codes when it launches them again.
    pub fn rewind(&self, mark: RetryMark) {
        self.0.tracer.borrow_mut().rewind(mark.events);
        self.0.kernel_checks.borrow_mut().truncate(mark.launches);
        self.0.warnings.borrow_mut().rewind(mark.warnings);
    }

    /// The GPU backing `device`, if it is a GPU device and the session has one.
    pub fn gpu(&self, device: Device) -> Option<&Rc<GpuContext>> {
        match device.kind {
            DeviceType::Cuda | DeviceType::Mps => self.0.gpu.as_ref(),
            _ => None,
        }
    }

    /// The adapter every GPU device of this session runs on, if any.
    pub fn adapter(&self) -> Option<&Rc<GpuContext>> {
        self.0.gpu.as_ref()
    }

    /// Lets the GPU catch up when a run of ops has queued more than it has done
    /// ([`GpuContext::throttle`]); at once where there is no GPU or little is queued.
    pub async fn throttle_gpu(&self) {
        if let Some(gpu) = self.adapter() {
            gpu.throttle().await;
        }
    }

    /// Bytes of real GPU buffers behind `device`'s reserved segments.
    pub fn gpu_buffer_bytes(&self, device: Device) -> u64 {
        self.0
            .segments
            .borrow()
            .get(&device)
            .map_or(0, SegmentBuffers::bytes)
    }

    pub fn config(&self) -> &SessionConfig {
        &self.0.config
    }

    /// `os.environ[key] = value`. Only read where PyTorch reads it: `CUDA_VISIBLE_DEVICES` when
    /// CUDA initialises, so setting it afterwards changes nothing.
    pub fn set_env(&self, key: &str, value: Option<&str>) {
        let mut env = self.0.env.borrow_mut();
        match value {
            Some(v) => env.insert(key.to_owned(), v.to_owned()),
            None => env.remove(key),
        };
    }

    /// `os.environ.get(key)`.
    pub fn env(&self, key: &str) -> Option<String> {
        self.0.env.borrow().get(key).cloned()
    }

    /// `os.environ`'s keys, sorted.
    pub fn env_keys(&self) -> Vec<String> {
        let mut keys: Vec<String> = self.0.env.borrow().keys().cloned().collect();
        keys.sort();
        keys
    }

    /// A fresh id for tensors and graph nodes.
    pub fn next_id(&self) -> u64 {
        let id = self.0.next_id.get();
        self.0.next_id.set(id + 1);
        id
    }

    // ---- CUDA ----

    /// Initialises CUDA on first use, reading `CUDA_VISIBLE_DEVICES` as the driver does: a
    /// comma-separated list of device numbers, cut at the first entry that is not a valid, new one.
    fn cuda<T>(&self, f: impl FnOnce(&mut Cuda) -> T) -> T {
        let mut cuda = self.0.cuda.borrow_mut();
        let cuda = cuda.get_or_insert_with(|| {
            let physical = self.0.config.gpu_count;
            let visible = match self.0.env.borrow().get("CUDA_VISIBLE_DEVICES") {
                None => (0..physical).collect(),
                Some(list) => {
                    let mut visible: Vec<usize> = Vec::new();
                    for entry in list.split(',') {
                        match entry.trim().parse::<usize>() {
                            Ok(i) if i < physical && !visible.contains(&i) => visible.push(i),
                            _ => break,
                        }
                    }
                    visible
                }
            };
            let launch_blocking = self
                .0
                .env
                .borrow()
                .get("CUDA_LAUNCH_BLOCKING")
                .is_some_and(|v| v == "1");
            Cuda {
                visible,
                current: 0,
                launch_blocking,
            }
        });
        f(cuda)
    }

    /// `torch.cuda.device_count()`.
    pub fn device_count(&self) -> usize {
        self.cuda(|c| c.visible.len())
    }

    /// `torch.cuda.is_available()`.
    pub fn is_available(&self) -> bool {
        self.device_count() > 0
    }

    /// `torch.cuda.current_device()`.
    pub fn current_device(&self) -> Result<usize, Error> {
        self.cuda(|c| {
            if c.visible.is_empty() {
                Err(Error::NoCudaGpus)
            } else {
                Ok(c.current)
            }
        })
    }

    /// `torch.cuda.set_device(device)`.
    pub fn set_device(&self, index: usize) -> Result<(), Error> {
        self.cuda(|c| match c.visible.len() {
            0 => Err(Error::NoCudaGpus),
            n if index >= n => Err(Error::CudaInvalidDevice),
            _ => {
                c.current = index;
                Ok(())
            }
        })
    }

    /// The physical GPU behind a logical CUDA index (after `CUDA_VISIBLE_DEVICES`).
    pub fn physical_gpu(&self, index: usize) -> Option<usize> {
        self.cuda(|c| c.visible.get(index).copied())
    }

    /// The concrete device a tensor on `device` lives on: `cuda` becomes the current CUDA device,
    /// `mps` becomes `mps:0`, `cpu:0` becomes `cpu`; indices that do not exist are errors.
    pub fn resolve(&self, device: Device) -> Result<Device, Error> {
        let device = self.normalise(device)?;
        match device.kind {
            DeviceType::Cuda => {
                let count = self.device_count();
                if count == 0 {
                    return Err(Error::NoCudaGpus);
                }
                let index = device.index.and_then(|i| usize::try_from(i).ok());
                match index {
                    Some(i) if i < count => {
                        self.use_cuda_context()?;
                        Ok(device)
                    }
                    _ => Err(Error::CudaInvalidDevice),
                }
            }
            DeviceType::Mps if device.index != Some(0) => Err(Error::MpsInvalidDevice),
            DeviceType::Other(_) => Err(Error::NoBackendForDevice {
                device: device.kind.name(),
            }),
            _ => Ok(device),
        }
    }

    /// Placing data on a GPU needs this process's CUDA context, which a worker forked from a parent
    /// that already had one cannot create (`_lazy_init`'s bad-fork check).
    pub(crate) fn use_cuda_context(&self) -> Result<(), Error> {
        if let Some(worker) = self.0.worker.get()
            && worker.forked_with_cuda
        {
            return Err(Error::CudaInForkedWorker);
        }
        self.0.cuda_context.set(true);
        Ok(())
    }

    /// `torch.cuda.is_initialized()`: whether this process has a CUDA context.
    pub fn is_cuda_initialized(&self) -> bool {
        self.0.cuda_context.get()
    }

    pub(crate) fn current_sync_debug_mode(&self) -> crate::cuda::SyncDebugMode {
        self.0.sync_debug_mode.get()
    }

    pub(crate) fn replace_sync_debug_mode(&self, mode: crate::cuda::SyncDebugMode) {
        self.0.sync_debug_mode.set(mode);
    }

    /// Runs `f` as DataLoader worker `id` would, in a process forked from this one: with the
    /// worker's own CPU generator (`generator`, kept between calls), marked in the trace, and
    /// unable to use CUDA if this process had already used it. What the worker does to CUDA does
    /// not carry back to the parent.
    pub fn in_worker<T>(&self, id: usize, generator: &mut Generator, f: impl FnOnce() -> T) -> T {
        let parent = self.enter_worker(id, generator);
        let result = f();
        self.leave_worker(id, generator, parent);
        result
    }

    /// [`Session::in_worker`] for work that awaits (a learner's `__getitem__` run by the cell
    /// runtime).
    pub async fn in_worker_async<T>(
        &self,
        id: usize,
        generator: &mut Generator,
        work: impl std::future::Future<Output = T>,
    ) -> T {
        let parent = self.enter_worker(id, generator);
        let result = work.await;
        self.leave_worker(id, generator, parent);
        result
    }

    /// Switches to worker `id`: its generator and its view of CUDA. What to restore comes back.
    fn enter_worker(&self, id: usize, generator: &Generator) -> ParentProcess {
        let parent = ParentProcess {
            cuda_context: self.0.cuda_context.get(),
            generator: self
                .0
                .generators
                .borrow_mut()
                .insert(Device::CPU, generator.clone()),
        };
        self.0.worker.set(Some(Worker {
            id,
            forked_with_cuda: parent.cuda_context,
        }));
        self.record(None, || EventKind::WorkerStart { worker: id });
        parent
    }

    /// Back to the main process; the worker's generator keeps its advanced state.
    fn leave_worker(&self, id: usize, generator: &mut Generator, parent: ParentProcess) {
        self.record(None, || EventKind::WorkerEnd { worker: id });
        self.0.worker.set(None);
        self.0.cuda_context.set(parent.cuda_context);
        let mut generators = self.0.generators.borrow_mut();
        if let Some(worker_generator) = generators.remove(&Device::CPU) {
            *generator = worker_generator;
        }
        if let Some(parent) = parent.generator {
            generators.insert(Device::CPU, parent);
        }
    }

    /// A kernel's bounds check failed on `device`. On a GPU this is a device-side assert: the
    /// kernel's message goes to stderr (the trace), and the error waits for the next sync point —
    /// unless `CUDA_LAUNCH_BLOCKING=1`, which raises it here. Elsewhere the caller raises its own
    /// error (`cpu_error`) at once.
    pub(crate) fn device_assert(
        &self,
        device: Device,
        assertion: &str,
        cpu_error: impl FnOnce() -> Error,
    ) -> Result<(), Error> {
        if device.kind != DeviceType::Cuda {
            return Err(cpu_error());
        }
        self.record(Some(device), || EventKind::DeviceAssert {
            message: assertion.to_owned(),
        });
        if self.cuda(|c| c.launch_blocking) {
            self.0
                .device_asserts
                .borrow_mut()
                .insert(device, DeviceAssert::Raised);
            return Err(Error::DeviceSideAssert);
        }
        self.pend_device_assert(device);
        Ok(())
    }

    /// The flag that bounds-checking kernels on GPU `device` raise, and the code a kernel
    /// launched now writes there when a check fails: on a CUDA device it registers the launch
    /// (its assertion, and the statement running), elsewhere (`mps`, whose indices the host
    /// checked first) it is 0, which writes nothing.
    pub(crate) fn checked_launch(
        &self,
        device: Device,
        gpu: &GpuContext,
        assertion: &str,
    ) -> (GpuBuffer, u32) {
        let flag = self.assert_flag(device, gpu);
        if device.kind != DeviceType::Cuda {
            return (flag, 0);
        }
        let code = self.0.kernel_checks.borrow_mut().launch(CheckedLaunch {
            device,
            assertion: assertion.to_owned(),
            span: self.0.tracer.borrow().span(),
        });
        (flag, code)
    }

    /// The flag of GPU `device` that kernels raise when a bounds check fails.
    pub(crate) fn assert_flag(&self, device: Device, gpu: &GpuContext) -> GpuBuffer {
        self.0.kernel_checks.borrow_mut().flag(device, gpu)
    }

    /// After a checking kernel was queued: under `CUDA_LAUNCH_BLOCKING=1` every launch waits for
    /// its kernel, so a failed check is raised by the call that launched it.
    pub(crate) fn after_checked_launch(&self, device: Device) -> Result<(), Error> {
        if device.kind == DeviceType::Cuda && self.cuda(|c| c.launch_blocking) {
            return self.wait_for(device, "CUDA_LAUNCH_BLOCKING=1");
        }
        Ok(())
    }

    /// Reads `device`'s assert flag where a checking kernel ran since the last read: a failed
    /// check becomes a pending device-side assert, traced at the line that launched the kernel.
    /// In the browser the read is a readback to await (the call fails with `WouldBlock` first).
    fn read_assert_flag(&self, device: Device, gpu: &GpuContext) -> Result<(), Error> {
        let mut checks = self.0.kernel_checks.borrow_mut();
        let Some(flag) = checks.unchecked(device) else {
            return Ok(());
        };
        let (value, covers) = match checks.fetched(device) {
            Some(fetched) => fetched,
            None => match gpu.download(&flag) {
                Ok(bytes) => {
                    let word = bytes.get(..4).and_then(|w| w.try_into().ok());
                    (word.map_or(0, u32::from_le_bytes), checks.count())
                }
                Err(GpuError::WouldBlock) => {
                    let readback = Readback::default();
                    checks.fetching(device, Rc::clone(&readback));
                    self.want_readback(flag, DType::Int32, readback);
                    return Err(GpuError::WouldBlock.into());
                }
                Err(e) => return Err(e.into()),
            },
        };
        if let FlagRead::Failed(launch) = checks.read(device, value, covers) {
            let message = launch.map_or_else(
                || "a device-side assertion failed".to_owned(),
                |l| l.assertion.clone(),
            );
            let span = launch.and_then(|l| l.span.clone());
            self.0
                .tracer
                .borrow_mut()
                .record_at(span, Some(device), || EventKind::DeviceAssert { message });
            self.pend_device_assert(device);
        }
        Ok(())
    }

    /// A device-side assert fired on `device`: the next sync point raises it.
    fn pend_device_assert(&self, device: Device) {
        self.0
            .device_asserts
            .borrow_mut()
            .entry(device)
            .or_insert(DeviceAssert::Pending);
    }

    /// A synchronizing operation: the host waits for `device` (`item()`, printing, a blocking
    /// copy to the CPU). On a GPU the sync debug mode hears of it first; then as [`Session::wait_for`].
    pub(crate) fn sync(&self, device: Device, reason: &str) -> Result<(), Error> {
        if device.kind == DeviceType::Cuda {
            self.synchronizing()?;
        }
        self.wait_for(device, reason)
    }

    /// The host waits for `device` (also where the learner asked for it:
    /// `torch.cuda.synchronize()`, which the sync debug mode leaves alone): recorded in the
    /// trace, and where a device-side assert is pending or was raised, it is raised now.
    fn wait_for(&self, device: Device, reason: &str) -> Result<(), Error> {
        let waited_us = match self.gpu(device) {
            Some(gpu) => {
                let waited = gpu.wait()?;
                self.read_assert_flag(device, gpu)?;
                waited
            }
            None => 0,
        };
        if device.kind != DeviceType::Cuda {
            return Ok(());
        }
        self.record(Some(device), || EventKind::Sync {
            reason: reason.to_owned(),
            waited_us,
        });
        let mut asserts = self.0.device_asserts.borrow_mut();
        if let Some(state) = asserts.get_mut(&device) {
            *state = DeviceAssert::Raised;
            return Err(Error::DeviceSideAssert);
        }
        Ok(())
    }

    /// Any work on `device`: refused once a device-side assert was raised there.
    pub(crate) fn check_usable(&self, device: Device) -> Result<(), Error> {
        match self.0.device_asserts.borrow().get(&device) {
            Some(DeviceAssert::Raised) => Err(Error::DeviceSideAssert),
            _ => Ok(()),
        }
    }

    /// `torch.cuda.Event.record()`: marks the point the GPU's queue has reached.
    pub fn record_mark(&self) -> StreamMark {
        match self.adapter().and_then(|gpu| gpu.timestamp()) {
            Some(timestamp) => StreamMark::Gpu(Rc::new(timestamp)),
            None => StreamMark::Host {
                us: crate::backend::gpu::clock::now_us(),
            },
        }
    }

    /// `start.elapsed_time(end)` in milliseconds: GPU time between two timestamps (a sync point:
    /// both must have been reached), or host time between two recordings.
    pub fn elapsed_ms(&self, start: &StreamMark, end: &StreamMark) -> Result<f64, Error> {
        match (start, end, self.adapter()) {
            (StreamMark::Gpu(a), StreamMark::Gpu(b), Some(gpu)) => {
                // Both readbacks are asked for before a browser's first wait, so one round does.
                let read = |t: &crate::backend::gpu::Timestamp| match gpu.ticks(t) {
                    Err(GpuError::WouldBlock) => {
                        self.want_readback(t.resolved.clone(), DType::Int64, Rc::clone(&t.ticks));
                        Err(Error::from(GpuError::WouldBlock))
                    }
                    ticks => Ok(ticks?),
                };
                let (from, to) = (read(a), read(b));
                let ticks = to?.saturating_sub(from?);
                Ok(ticks as f64 * gpu.tick_ns() / 1e6)
            }
            (StreamMark::Host { us: a }, StreamMark::Host { us: b }, _) => Ok((b - a) / 1000.0),
            // One session's marks are all of one kind: its adapter writes timestamps or not.
            _ => Ok(0.0),
        }
    }

    /// `torch.cuda.synchronize(device)`: waits for the current GPU when `index` is `None`.
    pub fn synchronize(&self, index: Option<usize>) -> Result<(), Error> {
        let index = match index {
            Some(i) => i,
            None => self.current_device()?,
        };
        let device = self.resolve(Device::cuda(index as i8))?;
        self.wait_for(device, "torch.cuda.synchronize()")
    }

    /// Swaps this process's state with `state`; swapping again restores it.
    pub fn swap_process(&self, state: &mut ProcessState) {
        self.cuda(|c| std::mem::swap(&mut c.current, &mut state.current_device));
        state.readbacks_in_flight = self
            .0
            .readbacks_in_flight
            .replace(state.readbacks_in_flight);
        let mut generators = self.0.generators.borrow_mut();
        let mine = generators.remove(&Device::CPU);
        if let Some(g) = state.generator.take() {
            generators.insert(Device::CPU, g);
        }
        state.generator = mine;
    }

    /// The DataLoader worker running now, if any.
    pub fn current_worker(&self) -> Option<usize> {
        self.0.worker.get().map(|w| w.id)
    }

    /// ATen's `ensure_has_index`, with `cpu:0` seen as `cpu`: `cuda` becomes the current CUDA
    /// device and `mps` becomes `mps:0`. Nothing is checked for existence (see [`Session::resolve`]).
    pub fn normalise(&self, device: Device) -> Result<Device, Error> {
        Ok(match device.kind {
            DeviceType::Cpu => Device::CPU,
            DeviceType::Cuda if device.index.is_none() => {
                Device::cuda(self.current_device()? as i8)
            }
            DeviceType::Mps if device.index.is_none() => Device {
                kind: DeviceType::Mps,
                index: Some(0),
            },
            _ => device,
        })
    }

    // ---- memory ----

    /// Charges `bytes` to `device`'s allocator; `None` for `meta`, which holds no data. On a GPU
    /// device backed by an adapter the block is a range of a real buffer.
    pub(crate) fn allocate(&self, device: Device, bytes: u64) -> Result<Option<Allocated>, Error> {
        if device.kind == DeviceType::Meta {
            return Ok(None);
        }
        self.check_usable(device)?;
        let mut allocators = self.0.allocators.borrow_mut();
        let allocator = allocators
            .entry(device)
            .or_insert_with(|| self.new_allocator(device));
        let allocation = allocator.allocate(bytes);
        let stats = allocator.stats();
        let mut tracer = self.0.tracer.borrow_mut();
        let a = match allocation {
            Ok(a) => a,
            Err(oom) => {
                let (tried, capacity) = (oom.tried, oom.capacity);
                let error = Error::out_of_memory(device, oom);
                tracer.record(Some(device), || EventKind::OutOfMemory {
                    tried,
                    capacity,
                    message: error.to_string(),
                });
                return Err(error);
            }
        };
        let gpu = match self.gpu(device) {
            Some(gpu) => {
                let mut segments = self.0.segments.borrow_mut();
                let buffers = segments.entry(device).or_default();
                // Segments vanish only when the allocator released its cache to make room.
                if a.released_for_retry > 0 {
                    buffers.retain(allocator.segment_bases());
                }
                let block = buffers.block(
                    gpu,
                    a.segment_base,
                    a.new_segment,
                    a.address - a.segment_base,
                    bytes,
                );
                match block {
                    Ok(block) => Some(block),
                    Err(e) => {
                        // The real allocation failed: the allocator's bookkeeping is undone.
                        allocator.free(a.block);
                        allocator.empty_cache();
                        buffers.retain(allocator.segment_bases());
                        let error = Error::Gpu(e);
                        tracer.record(Some(device), || EventKind::Error {
                            message: error.to_string(),
                        });
                        return Err(error);
                    }
                }
            }
            None => None,
        };
        if a.released_for_retry > 0 {
            tracer.record(Some(device), || EventKind::Release {
                bytes: a.released_for_retry,
                reserved: stats.reserved,
            });
        }
        tracer.record(Some(device), || EventKind::Alloc {
            bytes,
            block_size: a.size,
            new_segment: a.new_segment,
            allocated: stats.allocated,
            reserved: stats.reserved,
        });
        Ok(Some(Allocated {
            block: a.block,
            address: a.address,
            gpu,
        }))
    }

    /// Refuses, with the device's out-of-memory error, a result of `shape` × `element_size` bytes
    /// that could never fit: ops call this before building such a result in host memory.
    pub(crate) fn check_fits(
        &self,
        device: Device,
        shape: &[usize],
        element_size: usize,
    ) -> Result<(), Error> {
        let bytes = crate::layout::checked_storage_size(shape, element_size)? as u64;
        if device.kind == DeviceType::Meta {
            return Ok(());
        }
        let mut allocators = self.0.allocators.borrow_mut();
        let allocator = allocators
            .entry(device)
            .or_insert_with(|| self.new_allocator(device));
        match allocator.never_fits(bytes) {
            Some(oom) => Err(Error::out_of_memory(device, oom)),
            None => Ok(()),
        }
    }

    pub(crate) fn free(&self, device: Device, block: BlockId) {
        let mut allocators = self.0.allocators.borrow_mut();
        let Some(allocator) = allocators.get_mut(&device) else {
            return;
        };
        if let Some(block_size) = allocator.free(block) {
            let stats = allocator.stats();
            self.0
                .tracer
                .borrow_mut()
                .record(Some(device), || EventKind::Free {
                    block_size,
                    allocated: stats.allocated,
                    reserved: stats.reserved,
                });
        }
    }

    fn new_allocator(&self, device: Device) -> DeviceAllocator {
        let config = &self.0.config;
        match device.kind {
            DeviceType::Cuda => {
                let index = device.index.unwrap_or(0).max(0) as u64;
                DeviceAllocator::caching(config.gpu_capacity, 0x7f00_0000_0000 + (index << 40))
            }
            DeviceType::Mps => DeviceAllocator::caching(config.mps_capacity, 0x1_0000_0000),
            _ => DeviceAllocator::exact(config.cpu_capacity, 0x5555_0000_0000),
        }
    }

    /// The statistics of a concrete device (zeros for one never used).
    pub fn memory_stats(&self, device: Device) -> MemoryStats {
        self.0
            .allocators
            .borrow()
            .get(&device)
            .map(DeviceAllocator::stats)
            .unwrap_or_default()
    }

    /// Every counter of a concrete device's allocator (`torch.cuda.memory_stats`; zeros for one
    /// never used).
    pub fn detailed_memory_stats(&self, device: Device) -> DetailedStats {
        self.0
            .allocators
            .borrow()
            .get(&device)
            .map(|a| *a.detailed_stats())
            .unwrap_or_default()
    }

    /// `torch.cuda.memory_summary(device)` for a concrete CUDA device.
    pub fn memory_summary(&self, device: Device) -> String {
        let stats = self.detailed_memory_stats(device);
        crate::memory::summary(&stats, i64::from(device.index.unwrap_or(0)))
    }

    /// `torch.cuda.empty_cache()` for one device; returns the bytes released.
    pub fn empty_cache(&self, device: Device) -> u64 {
        let mut allocators = self.0.allocators.borrow_mut();
        let Some(allocator) = allocators.get_mut(&device) else {
            return 0;
        };
        let released = allocator.empty_cache();
        if let Some(buffers) = self.0.segments.borrow_mut().get_mut(&device) {
            buffers.retain(allocator.segment_bases());
        }
        let reserved = allocator.stats().reserved;
        if released > 0 {
            self.0
                .tracer
                .borrow_mut()
                .record(Some(device), || EventKind::Release {
                    bytes: released,
                    reserved,
                });
        }
        released
    }

    /// `torch.cuda.reset_peak_memory_stats` for one device.
    pub fn reset_peak_memory_stats(&self, device: Device) {
        if let Some(allocator) = self.0.allocators.borrow_mut().get_mut(&device) {
            allocator.reset_peak_stats();
        }
    }

    // ---- random numbers ----

    /// `torch.manual_seed(seed)`: reseeds every device's generator.
    pub fn manual_seed(&self, seed: u64) {
        let mut generators = self.0.generators.borrow_mut();
        generators.clear();
        generators.insert(Device::CPU, Generator::new(seed));
    }

    /// `torch.initial_seed()`.
    pub fn initial_seed(&self) -> u64 {
        self.with_generator(Device::CPU, |g| g.seed())
    }

    /// Runs `f` with the generator of a concrete device, created from the last seed on first use
    /// (for the CPU, the op's own `generator=` while [`Session::using_generator`] runs it).
    pub fn with_generator<T>(&self, device: Device, f: impl FnOnce(&mut Generator) -> T) -> T {
        let explicit = self.0.explicit_generator.borrow().clone();
        if let Some(g) = explicit.filter(|_| device == Device::CPU) {
            return f(&mut g.borrow_mut());
        }
        let mut generators = self.0.generators.borrow_mut();
        let seed = generators
            .get(&Device::CPU)
            .map_or(crate::random::DEFAULT_SEED, Generator::seed);
        f(generators
            .entry(device)
            .or_insert_with(|| Generator::new(seed)))
    }

    /// The default generators of `devices` as they are now (`None`: not made yet), for
    /// `torch.random.fork_rng` to put back.
    pub fn generator_states(&self, devices: &[Device]) -> Vec<(Device, Option<Generator>)> {
        let generators = self.0.generators.borrow();
        devices
            .iter()
            .map(|d| (*d, generators.get(d).cloned()))
            .collect()
    }

    /// Puts back generators saved by [`Session::generator_states`].
    pub fn restore_generator_states(&self, states: Vec<(Device, Option<Generator>)>) {
        let mut generators = self.0.generators.borrow_mut();
        for (device, state) in states {
            match state {
                Some(g) => generators.insert(device, g),
                None => generators.remove(&device),
            };
        }
    }

    /// Runs an op that draws on `device` with `generator` (its `generator=` argument): PyTorch's
    /// `get_generator_or_default`. The lab's generators are CPU generators, so one given for a
    /// GPU draw is refused as `check_generator` refuses it.
    pub fn using_generator<T>(
        &self,
        generator: Option<&GeneratorHandle>,
        device: Device,
        f: impl FnOnce() -> Result<T, Error>,
    ) -> Result<T, Error> {
        let Some(generator) = generator else {
            return f();
        };
        let device = self.resolve(device)?;
        if device.kind != DeviceType::Cpu {
            return Err(RandomError::GeneratorDevice {
                expected: device.kind,
            }
            .into());
        }
        let previous = self.0.explicit_generator.replace(generator.own());
        let result = f();
        self.0.explicit_generator.replace(previous);
        result
    }

    // ---- autocast ----

    /// The dtype listed ops cast to on `kind` inside an enabled autocast region
    /// (`torch.is_autocast_enabled(device_type)` when `Some`).
    pub fn autocast_dtype(&self, kind: DeviceType) -> Option<DType> {
        self.0.autocast.borrow().get(&kind).copied()
    }

    /// Enters (`Some`) or leaves autocast on `kind`, returning the state it replaces.
    pub(crate) fn set_autocast(&self, kind: DeviceType, dtype: Option<DType>) -> Option<DType> {
        let mut autocast = self.0.autocast.borrow_mut();
        match dtype {
            Some(d) => autocast.insert(kind, d),
            None => autocast.remove(&kind),
        }
    }

    // ---- defaults ----

    /// `torch.get_default_dtype()`.
    pub fn default_dtype(&self) -> DType {
        self.0.default_dtype.get()
    }

    /// `torch.set_default_dtype(d)`: only floating types qualify.
    pub fn set_default_dtype(&self, dtype: DType) -> Result<(), Error> {
        if !dtype.is_floating_point() {
            return Err(Error::DefaultDtypeNotFloat);
        }
        self.0.default_dtype.set(dtype);
        Ok(())
    }

    /// `torch.get_default_device()`'s setting: `None` unless `set_default_device` named one.
    pub fn default_device(&self) -> Option<Device> {
        self.0.default_device.get()
    }

    /// `torch.set_default_device(device)`; `None` goes back to the CPU.
    pub fn set_default_device(&self, device: Option<Device>) {
        self.0.default_device.set(device);
    }

    /// The print options every repr follows (`torch._tensor_str.PRINT_OPTS`).
    pub fn print_options(&self) -> PrintOptions {
        self.0.print_options.get()
    }

    /// `torch.set_printoptions(...)`.
    pub fn set_print_options(&self, options: PrintOptions) {
        self.0.print_options.set(options);
    }

    // ---- autograd mode ----

    /// `torch.is_grad_enabled()`.
    pub fn is_grad_enabled(&self) -> bool {
        self.0.grad_enabled.get()
    }

    /// `torch.set_grad_enabled(mode)`; returns the previous mode, for `no_grad` to restore.
    pub fn set_grad_enabled(&self, enabled: bool) -> bool {
        self.0.learner_no_grad.set(!enabled);
        self.0.grad_enabled.replace(enabled)
    }

    /// Runs `f` without recording, as the lab's own work (an optimizer's update, a backward
    /// pass) does, restoring the mode afterwards.
    pub fn no_grad<T>(&self, f: impl FnOnce() -> T) -> T {
        let previous = self.0.grad_enabled.replace(false);
        let result = f();
        self.0.grad_enabled.set(previous);
        result
    }

    /// `torch.is_anomaly_enabled()` and `is_anomaly_check_nan_enabled()`.
    pub fn anomaly_mode(&self) -> crate::autograd::AnomalyMode {
        self.0.anomaly.get()
    }

    /// `torch.autograd.set_detect_anomaly`: returns the mode it replaces.
    pub fn set_anomaly_mode(
        &self,
        mode: crate::autograd::AnomalyMode,
    ) -> crate::autograd::AnomalyMode {
        self.0.anomaly.replace(mode)
    }

    /// Whether ops run now are not recorded because the learner said so (`torch.no_grad()`).
    pub(crate) fn is_learner_no_grad(&self) -> bool {
        !self.is_grad_enabled() && self.0.learner_no_grad.get()
    }

    // ---- warnings ----

    /// Raises a PyTorch `UserWarning`: kept for the runtime to print and recorded in the trace,
    /// unless the filters hold it back (by default, a place that gave it already in this run).
    pub fn warn(&self, message: &str) {
        if self.0.warnings.borrow_mut().raise(message) {
            self.record(None, || EventKind::Warning {
                message: message.to_owned(),
            });
        }
    }

    /// A warning PyTorch gives once per process (`TORCH_WARN_ONCE`, or a Python module's
    /// "warned already" flag), known by `key`.
    pub fn warn_once(&self, key: &'static str, message: &str) {
        if self.0.warnings.borrow_mut().first_time(key) {
            self.warn(message);
        }
    }

    /// The `warnings` state of this session.
    pub fn warnings(&self) -> std::cell::RefMut<'_, Warnings> {
        self.0.warnings.borrow_mut()
    }

    /// The warnings raised since the last call.
    pub fn take_warnings(&self) -> Vec<String> {
        self.0.warnings.borrow_mut().take()
    }

    // ---- trace ----

    pub fn set_tracing(&self, enabled: bool) {
        self.0.tracer.borrow_mut().set_enabled(enabled);
    }

    pub fn record(&self, device: Option<Device>, kind: impl FnOnce() -> EventKind) {
        self.0.tracer.borrow_mut().record(device, kind);
    }

    /// Whether events are being recorded.
    pub fn is_tracing(&self) -> bool {
        self.0.tracer.borrow().is_enabled()
    }

    /// The learner's source the following events belong to (the statement running).
    pub fn set_span(&self, span: Option<crate::trace::SourceSpan>) {
        self.0.tracer.borrow_mut().set_span(span);
    }

    /// A copy of the events recorded after the first `from` of those not yet taken (what a
    /// running cell streams to the UI before its record is complete).
    pub fn trace_since(&self, from: usize) -> Vec<TraceEvent> {
        self.0.tracer.borrow().since(from).to_vec()
    }

    pub fn take_trace(&self) -> Vec<TraceEvent> {
        self.0.tracer.borrow_mut().take()
    }

    /// The most events one run keeps (a cell's, until [`Session::end_trace_run`]); later ones
    /// are counted.
    pub fn set_trace_limit(&self, limit: usize) {
        self.0.tracer.borrow_mut().set_limit(limit);
    }

    /// Ends a run's trace: how many of its events were past the limit.
    pub fn end_trace_run(&self) -> u64 {
        self.0.tracer.borrow_mut().end_run()
    }
}
