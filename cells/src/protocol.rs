//! The messages between the UI and the runtime: the only contract between the two sides.

use serde::{Deserialize, Serialize};
use tolab_engine::backend::gpu::AdapterReport;

use crate::python::{Completions, Progress, RunRecord, Step};

/// What the UI asks of the runtime.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// Which backend the GPU devices (`cuda:N`, `mps`) run on.
    DescribeBackend,
    /// The devices a notebook sees, what backs each and its memory cap.
    DescribeDevices,
    /// Changes the lab's machine (its GPU count and `CUDA_VISIBLE_DEVICES`) and starts afresh,
    /// as Reset does: the driver reads them when the process starts.
    Configure { settings: DeviceSettings },
    /// Runs one cell in the notebook; `cell` names it in tracebacks (`<cell 3>`).
    RunCell { cell: String, source: String },
    /// Runs the next statement of a cell, at any depth: into loop bodies and the functions it
    /// calls (the first, for a cell not being stepped). Between Steps the cell waits; a Stop, a
    /// Reset, a run or a Step of another cell ends it.
    Step { cell: String, source: String },
    /// Checks an exercise in a notebook of its own, so that it does not depend on what the
    /// learner ran before (nor disturb it): the lesson's cells in `setup`, in order, then the
    /// exercise's code as cell `cell`, then each check, all under `budget`.
    CheckExercise {
        cell: String,
        source: String,
        checks: Vec<CheckSpec>,
        #[serde(default)]
        setup: Vec<CellSource>,
        #[serde(default)]
        budget: Budget,
    },
    /// Which of `cells` (the cells above the one that raised, in page order) last binds `name`
    /// at its top level (assigns, imports, defines it): the cell a `NameError` needs run first.
    FindDefinition {
        name: String,
        cells: Vec<CellSource>,
    },
    /// What may complete `before` (a cell's text up to the cursor) in the notebook's live
    /// namespace, as a Jupyter kernel's `complete_request`.
    Complete { before: String },
    /// Starts afresh: a new namespace and a new engine session.
    Reset,
    /// Ends the running cell with `KeyboardInterrupt`. The worker acts on it as it arrives
    /// ([`crate::Runtime::stop_handle`]), not after the cell it would stop.
    Stop,
}

/// A request with the number its reply will carry, as it crosses the worker boundary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestEnvelope {
    pub id: u64,
    pub request: Request,
}

/// A reply to the request with the same `id`. A running cell's request gets any number of
/// [`Reply::Progress`] before its one final reply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReplyEnvelope {
    pub id: u64,
    pub reply: Reply,
}

/// What the runtime answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Reply {
    Backend(BackendReport),
    /// The devices, after a DescribeDevices or a Configure.
    Devices(DeviceReport),
    /// What the running cell produced since its last progress reply; not final.
    Progress(Progress),
    Ran(RunRecord),
    Checked(ExerciseReport),
    Completions(Completions),
    /// The answer to a FindDefinition: the cell's name, or `None` when none of them binds it.
    Definition {
        cell: Option<String>,
    },
    Stepped(Step),
    Reset,
    /// A Stop handled when no cell was running any more.
    Stopped,
    /// The runtime could not be reached (its worker did not start, or stopped answering).
    Unavailable {
        reason: String,
    },
    /// Made by the page, not the runtime: the runtime's worker died or stopped answering and was
    /// replaced by a fresh one. The request's work and the notebook's variables are gone.
    Restarted {
        reason: String,
    },
}

/// What backs the lab's GPU devices.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BackendReport {
    /// A real GPU adapter through wgpu.
    Gpu { adapter: AdapterReport },
    /// No adapter: GPU devices run on the CPU backend, and the UI must say so plainly.
    CpuEmulated { reason: String },
}

impl BackendReport {
    /// The one line the lab's header shows.
    pub fn headline(&self) -> String {
        match self {
            BackendReport::Gpu { adapter } => format!("GPU: {}", adapter.summary()),
            BackendReport::CpuEmulated { reason } => format!("emulated on the CPU: {reason}"),
        }
    }
}

/// The lab's machine, as a learner sets it in the device panel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceSettings {
    /// Physical GPUs (logical CUDA devices before `CUDA_VISIBLE_DEVICES`), at most
    /// [`DeviceSettings::MAX_GPUS`].
    pub gpu_count: usize,
    /// The process's `CUDA_VISIBLE_DEVICES` (`None`: unset, every GPU visible).
    pub cuda_visible_devices: Option<String>,
}

impl DeviceSettings {
    pub const MAX_GPUS: usize = 8;
}

impl Default for DeviceSettings {
    fn default() -> Self {
        DeviceSettings {
            gpu_count: tolab_engine::SessionConfig::default().gpu_count,
            cuda_visible_devices: None,
        }
    }
}

/// What the device panel shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceReport {
    pub backend: BackendReport,
    /// The settings in force (a GPU count above the most is lowered to it).
    pub settings: DeviceSettings,
    pub devices: Vec<DeviceEntry>,
}

/// One device a notebook can use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceEntry {
    /// As PyTorch names it: `cpu`, `cuda:0`, `mps`.
    pub device: String,
    /// What runs its work: `the CPU`, the adapter's name, or the CPU standing in for a GPU.
    pub backing: String,
    /// The memory cap of its allocator, in bytes.
    pub capacity: u64,
    /// For `cuda:N`: the physical GPU behind it (after `CUDA_VISIBLE_DEVICES`).
    pub physical: Option<usize>,
}

/// A cell's code and its name in tracebacks (`<cell 3>`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellSource {
    pub cell: String,
    pub source: String,
}

/// What an exercise check may spend before it is ended with an error: interactive cells have
/// no such limit (Stop ends them, as in a notebook), but a check must come to a verdict even
/// when the learner's loop never ends. Each cell of the check's run (setup cells, the code, each
/// check) gets the whole budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Budget {
    /// Statements run plus items drawn from iterators.
    pub steps: u64,
    /// Wall-clock seconds.
    pub seconds: u32,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            steps: 20_000_000,
            seconds: 60,
        }
    }
}

/// One check of an exercise: Python run after the learner's code; it passes when it raises
/// nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckSpec {
    /// What it checks, as the learner reads it.
    pub message: String,
    pub code: String,
}

/// How an exercise fared: the lesson's cells it ran first, the run of the learner's code, and
/// each check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExerciseReport {
    pub setup: Vec<SetupRun>,
    pub record: RunRecord,
    pub checks: Vec<CheckOutcome>,
}

impl ExerciseReport {
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.passed)
    }
}

/// A lesson cell an exercise check ran first, and the last line of the error it raised, if any
/// (a cell may raise on purpose: the lesson shows the error).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupRun {
    pub cell: String,
    pub error: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckOutcome {
    pub message: String,
    pub passed: bool,
    /// Why it failed: the last line of the exception it raised (`AssertionError: …`).
    pub reason: Option<String>,
}

/// The check every exercise has first: the learner's code itself raises nothing.
pub const RUNS_WITHOUT_ERROR: &str = "your code runs without an error";
