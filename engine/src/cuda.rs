//! What `torch.cuda` says about the lab's GPUs beyond their tensors: whether CUDA is
//! initialised yet, the properties of a device (`get_device_properties`), the driver's view of
//! its memory (`mem_get_info`), and the sync debug mode that warns or raises wherever the host
//! waits for a GPU (`set_sync_debug_mode`).
//!
//! The GPUs are simulated (their kernels run on one wgpu adapter, or on the CPU backend), so
//! their properties are the lab's own: the memory cap each one has, the compute capability whose
//! dtypes the lab computes in (8.0: bfloat16 and float16 natively), and CUDA's architectural
//! limits for that capability; nothing borrowed from a real card's data sheet.

use crate::device::Device;
use crate::error::Error;
use crate::session::Session;

/// `torch.cuda.set_sync_debug_mode`: what a synchronizing CUDA operation does
/// (`c10::cuda::SyncDebugMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SyncDebugMode {
    #[default]
    Disabled,
    Warn,
    Error,
}

impl SyncDebugMode {
    /// The mode for `set_sync_debug_mode(0 | 1 | 2)`.
    pub fn from_level(level: i64) -> Option<SyncDebugMode> {
        match level {
            0 => Some(SyncDebugMode::Disabled),
            1 => Some(SyncDebugMode::Warn),
            2 => Some(SyncDebugMode::Error),
            _ => None,
        }
    }

    /// What `get_sync_debug_mode()` returns.
    pub fn level(self) -> i64 {
        match self {
            SyncDebugMode::Disabled => 0,
            SyncDebugMode::Warn => 1,
            SyncDebugMode::Error => 2,
        }
    }
}

/// The text of `c10::cuda::warn_or_error_on_sync`, as a warning or as the error.
pub(crate) const SYNCHRONIZING: &str = "called a synchronizing CUDA operation";

/// `torch.cuda.get_device_properties(i)`: a `cudaDeviceProp` of the lab's simulated GPU `i`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceProperties {
    pub index: usize,
    pub name: String,
    pub major: i64,
    pub minor: i64,
    /// The device's memory cap, in bytes (`totalGlobalMem`).
    pub total_memory: u64,
    pub multi_processor_count: i64,
    pub max_threads_per_multi_processor: i64,
    pub max_threads_per_block: i64,
    pub warp_size: i64,
    pub regs_per_multiprocessor: i64,
    pub shared_memory_per_block: i64,
    pub shared_memory_per_block_optin: i64,
    pub shared_memory_per_multiprocessor: i64,
    pub l2_cache_size: i64,
    pub clock_rate: i64,
    pub memory_clock_rate: i64,
    pub memory_bus_width: i64,
    pub is_integrated: i64,
    pub is_multi_gpu_board: i64,
}

impl DeviceProperties {
    /// The device's UUID as PyTorch prints it: the lab's GPUs are numbered, not made.
    pub fn uuid(&self) -> String {
        format!("00000000-0000-0000-0000-{:012x}", self.index)
    }

    /// An attribute by its Python name, for the ones that are integers.
    pub fn integer(&self, name: &str) -> Option<i64> {
        Some(match name {
            "major" => self.major,
            "minor" => self.minor,
            "total_memory" => i64::try_from(self.total_memory).unwrap_or(i64::MAX),
            "multi_processor_count" => self.multi_processor_count,
            "max_threads_per_multi_processor" => self.max_threads_per_multi_processor,
            "max_threads_per_block" => self.max_threads_per_block,
            "warp_size" => self.warp_size,
            "regs_per_multiprocessor" => self.regs_per_multiprocessor,
            "shared_memory_per_block" => self.shared_memory_per_block,
            "shared_memory_per_block_optin" => self.shared_memory_per_block_optin,
            "shared_memory_per_multiprocessor" => self.shared_memory_per_multiprocessor,
            "L2_cache_size" => self.l2_cache_size,
            "clock_rate" => self.clock_rate,
            "memory_clock_rate" => self.memory_clock_rate,
            "memory_bus_width" => self.memory_bus_width,
            "is_integrated" => self.is_integrated,
            "is_multi_gpu_board" => self.is_multi_gpu_board,
            "pci_bus_id" => i64::try_from(self.index).unwrap_or(i64::MAX),
            "pci_device_id" | "pci_domain_id" => 0,
            _ => return None,
        })
    }

    /// The attributes PyTorch's `_CudaDeviceProperties` has on a CUDA build, for `dir()`.
    pub const ATTRIBUTES: &'static [&'static str] = &[
        "L2_cache_size",
        "clock_rate",
        "is_integrated",
        "is_multi_gpu_board",
        "major",
        "max_threads_per_block",
        "max_threads_per_multi_processor",
        "memory_bus_width",
        "memory_clock_rate",
        "minor",
        "multi_processor_count",
        "name",
        "pci_bus_id",
        "pci_device_id",
        "pci_domain_id",
        "regs_per_multiprocessor",
        "shared_memory_per_block",
        "shared_memory_per_block_optin",
        "shared_memory_per_multiprocessor",
        "total_memory",
        "uuid",
        "warp_size",
    ];
}

/// PyTorch's `__repr__` (torch/csrc/cuda/Module.cpp): memory sizes in whole MiB.
impl std::fmt::Display for DeviceProperties {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const MIB: u64 = 1 << 20;
        write!(
            f,
            "_CudaDeviceProperties(name='{}', major={}, minor={}, total_memory={}MB, \
             multi_processor_count={}, uuid={}, pci_bus_id={}, pci_device_id=0, \
             pci_domain_id=0, L2_cache_size={}MB)",
            self.name,
            self.major,
            self.minor,
            self.total_memory / MIB,
            self.multi_processor_count,
            self.uuid(),
            self.index,
            self.l2_cache_size.unsigned_abs() / MIB,
        )
    }
}

impl Session {
    /// `torch.cuda.init()`, and what every CUDA call that needs the driver does first: CUDA is
    /// initialised, or it cannot be (no GPU; a forked worker of a parent that had it).
    pub fn cuda_init(&self) -> Result<(), Error> {
        if !self.is_available() {
            return Err(Error::NoCudaGpus);
        }
        self.use_cuda_context()
    }

    /// `torch.cuda.get_device_properties(index)` (an index `device_count()` has; initialises
    /// CUDA).
    pub fn device_properties(&self, index: usize) -> Result<DeviceProperties, Error> {
        self.cuda_init()?;
        Ok(DeviceProperties {
            index,
            name: format!("to(device) lab simulated GPU {index}"),
            major: 8,
            minor: 0,
            total_memory: self.config().gpu_capacity,
            // One queue runs each simulated GPU's kernels.
            multi_processor_count: 1,
            // CUDA's limits for compute capability 8.0 (the CUDA C++ Programming Guide's
            // table of technical specifications).
            max_threads_per_multi_processor: 2048,
            max_threads_per_block: 1024,
            warp_size: 32,
            regs_per_multiprocessor: 65536,
            shared_memory_per_block: 48 << 10,
            shared_memory_per_block_optin: 163 << 10,
            shared_memory_per_multiprocessor: 164 << 10,
            // A simulated GPU has no cache, clocks or memory bus to report.
            l2_cache_size: 0,
            clock_rate: 0,
            memory_clock_rate: 0,
            memory_bus_width: 0,
            is_integrated: 0,
            is_multi_gpu_board: 0,
        })
    }

    /// `torch.cuda.mem_get_info(device)`: `(free, total)` bytes as the driver sees them: the
    /// cap, less what the caching allocator has reserved.
    pub fn mem_get_info(&self, device: Device) -> Result<(u64, u64), Error> {
        self.cuda_init()?;
        let total = self.config().gpu_capacity;
        let reserved = self.memory_stats(device).reserved;
        Ok((total.saturating_sub(reserved), total))
    }

    /// `torch.cuda.set_sync_debug_mode(mode)` (initialises CUDA).
    pub fn set_sync_debug_mode(&self, mode: SyncDebugMode) -> Result<(), Error> {
        self.cuda_init()?;
        self.replace_sync_debug_mode(mode);
        Ok(())
    }

    /// `torch.cuda.get_sync_debug_mode()` (initialises CUDA).
    pub fn sync_debug_mode(&self) -> Result<SyncDebugMode, Error> {
        self.cuda_init()?;
        Ok(self.current_sync_debug_mode())
    }

    /// A synchronizing CUDA operation is about to run (a blocking copy to or from a GPU, a read
    /// of a GPU's values): the sync debug mode warns, or refuses it.
    pub(crate) fn synchronizing(&self) -> Result<(), Error> {
        match self.current_sync_debug_mode() {
            SyncDebugMode::Disabled => Ok(()),
            SyncDebugMode::Warn => {
                // PyTorch appends "(Triggered internally at …/CUDAFunctions.cpp:<line>.)",
                // which names its own build; the lab's warnings carry the message alone.
                self.warn(SYNCHRONIZING);
                Ok(())
            }
            SyncDebugMode::Error => Err(Error::SynchronizingOperation),
        }
    }
}
