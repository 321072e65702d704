//! Device-side asserts raised by GPU kernels.
//!
//! A kernel that checks indices (gather, index_select, `t[idx]`, embedding, nll_loss) cannot
//! raise an error: it flags its failure in a one-word buffer of its GPU and carries on, as CUDA's
//! `CUDA_KERNEL_ASSERT` does. Each checking launch gets a code (the first launch the largest, so
//! that `atomicMax` keeps the earliest failure). The next sync point reads the flag: that is when
//! the learner's program first hears of the error, on a line that did not cause it. The launch's
//! own line is kept here so that the trace can point at the real culprit.

use std::collections::HashMap;

use crate::backend::gpu::{GpuBuffer, GpuContext};
use crate::device::Device;
use crate::storage::Readback;
use crate::trace::SourceSpan;

/// A checking kernel launched on a GPU: what its assert says, and the statement that launched it.
#[derive(Debug)]
pub(crate) struct CheckedLaunch {
    pub device: Device,
    pub assertion: String,
    pub span: Option<SourceSpan>,
}

/// What a read of a device's flag found.
#[derive(Debug)]
pub(crate) enum FlagRead<'a> {
    /// Every launch up to then passed.
    Passed,
    /// A launch failed: the earliest, where it is still registered (a call run again may have
    /// rolled its launches back).
    Failed(Option<&'a CheckedLaunch>),
}

/// The checking kernels a session launched, and what their GPUs' flags said so far.
#[derive(Debug, Default)]
pub(crate) struct KernelChecks {
    /// Every checking launch, in order (on every device): launch `n` writes code `u32::MAX - n`.
    launches: Vec<CheckedLaunch>,
    /// Each device's flag: one word, 0 or the code of its earliest failed launch.
    flags: HashMap<Device, GpuBuffer>,
    /// Per device, how many launches (of all devices) are known to have passed.
    passed: HashMap<Device, usize>,
    /// Per device, a flag a browser readback is bringing home, and how many launches it covers.
    fetching: HashMap<Device, (Readback, usize)>,
}

/// The code a failure of launch `n` writes.
fn code(n: usize) -> u32 {
    u32::MAX - n as u32
}

impl KernelChecks {
    /// The flag of `device`, made (zeroed) on first use.
    pub fn flag(&mut self, device: Device, gpu: &GpuContext) -> GpuBuffer {
        self.flags
            .entry(device)
            .or_insert_with(|| gpu.scratch(4))
            .clone()
    }

    /// Registers a checking kernel about to be launched; returns the code its failure writes.
    pub fn launch(&mut self, launch: CheckedLaunch) -> u32 {
        self.launches.push(launch);
        code(self.launches.len() - 1)
    }

    /// How many launches there are: a call run again is rolled back to this count, so that its
    /// launches get the codes they had the first time.
    pub fn count(&self) -> usize {
        self.launches.len()
    }

    pub fn truncate(&mut self, count: usize) {
        self.launches.truncate(count);
    }

    /// `device`'s flag, when a launch on it has not been checked yet.
    pub fn unchecked(&self, device: Device) -> Option<GpuBuffer> {
        let passed = self.passed.get(&device).copied().unwrap_or(0);
        let waiting = self
            .launches
            .get(passed..)
            .unwrap_or_default()
            .iter()
            .any(|l| l.device == device);
        waiting.then(|| self.flags.get(&device).cloned()).flatten()
    }

    /// A flag value a browser readback brought home for `device`, and the launches it covers.
    pub fn fetched(&mut self, device: Device) -> Option<(u32, usize)> {
        let (readback, covers) = self.fetching.remove(&device)?;
        let value = readback.borrow_mut().take()?.get(0)?;
        Some((value.as_f64() as i32 as u32, covers))
    }

    /// Remembers that `readback` will bring `device`'s flag home, covering every launch so far.
    pub fn fetching(&mut self, device: Device, readback: Readback) {
        self.fetching
            .insert(device, (readback, self.launches.len()));
    }

    /// What `value`, read from `device`'s flag after the first `covers` launches, says.
    pub fn read(&mut self, device: Device, value: u32, covers: usize) -> FlagRead<'_> {
        if value == 0 {
            self.passed.insert(device, covers);
            return FlagRead::Passed;
        }
        FlagRead::Failed(self.launches.get((u32::MAX - value) as usize))
    }
}
