//! The lab's Python: cells parsed with Astral's parser and run by an async tree-walking
//! evaluator against the engine. One [`Interpreter`] is one notebook: its cells share a
//! namespace and an engine session.

pub(crate) mod args;
mod bindings;
mod builtin_arity;
pub(crate) mod builtins;
mod bytes;
mod calls;
pub(crate) mod clock;
mod completion;
mod complex;
mod context;
mod coroutine;
pub(crate) mod dunders;
mod dynamic;
pub(crate) mod exception;
mod expressions;
pub(crate) mod generator;
pub(crate) mod hashing;
pub(crate) mod int;
pub(crate) mod interpreter;
pub(crate) mod iteration;
pub(crate) mod keys;
mod locals;
mod methods;
pub(crate) mod modules;
pub(crate) mod objects;
pub(crate) mod operators;
pub(crate) mod parameters;
mod patterns;
mod percent;
mod source;
mod statements;
mod stepping;
mod str_format;
mod strings;
mod sync;
mod syntax;
pub(crate) mod value;

use std::rc::Rc;

use serde::{Deserialize, Serialize};
use tolab_engine::Session;
use tolab_engine::trace::{EventKind, TraceEvent};

pub use bindings::binds;
pub(crate) use clock::within;
pub use completion::{Completion, Completions};
pub use exception::{ExcType, PyException};
pub use interpreter::Interpreter;
use source::CellSource;
pub use stepping::{Gate, Position};

/// What running a cell produced, for the UI to show and animate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// Everything the cell printed, in order.
    pub stdout: String,
    /// What it wrote to `sys.stderr` (logging's default stream, `print(..., file=sys.stderr)`).
    #[serde(default)]
    pub stderr: String,
    /// The repr of a trailing expression's value, as a notebook shows it.
    pub value: Option<String>,
    /// The uncaught exception's traceback, as Python prints it.
    pub error: Option<String>,
    /// The warnings PyTorch raised while the cell ran (Python prints them on stderr).
    pub warnings: Vec<String>,
    /// What happened inside the engine, each event tied to the statement that caused it (empty
    /// unless the session traces).
    pub trace: Vec<TraceEvent>,
    /// Events past the session's limit for one run, counted but not kept.
    #[serde(default)]
    pub trace_dropped: u64,
    pub timings: Timings,
}

/// A piece of what a cell shows, in the order it shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    Stdout,
    Stderr,
    Warning,
    Value,
    Traceback,
}

impl RunRecord {
    /// What the cell shows, piece by piece: what it printed (stdout, then stderr), each warning as Python prints it
    /// (`UserWarning: …`), the value and the traceback.
    pub fn shown(&self) -> Vec<(Shown, String)> {
        let mut parts = vec![(Shown::Stdout, self.stdout.clone())];
        if !self.stderr.is_empty() {
            parts.push((Shown::Stderr, self.stderr.clone()));
        }
        for warning in &self.warnings {
            parts.push((Shown::Warning, format!("UserWarning: {warning}\n")));
        }
        if let Some(value) = &self.value {
            parts.push((Shown::Value, format!("{value}\n")));
        }
        if let Some(error) = &self.error {
            parts.push((Shown::Traceback, error.clone()));
        }
        parts
    }

    /// [`RunRecord::shown`] as one text: what a lesson file records as a cell's output.
    pub fn transcript(&self) -> String {
        self.shown().into_iter().map(|(_, text)| text).collect()
    }
}

/// What a running cell produced since its last progress report. A cell reports every few tens
/// of milliseconds while it runs, so that the UI shows output and animates events before the
/// cell ends; each report hands its part over, and the final [`RunRecord`] holds only the rest
/// (so a cell printing for minutes keeps no more than a report's worth in the runtime).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// What the cell printed since the last report.
    pub stdout: String,
    /// The events recorded since the last report.
    pub trace: Vec<TraceEvent>,
}

/// Who hears a running cell's [`Progress`] (the worker posts it to the page; the CLI prints it).
pub type ProgressSink = Rc<dyn Fn(Progress)>;

/// How much of the running cell's stdout (bytes) and trace (events) has been reported: by
/// progress reports, or by the Steps of a stepped cell.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Reported {
    stdout: usize,
    trace: usize,
}

impl Reported {
    /// What the cell printed and recorded since the last call, now counted as reported.
    pub(crate) fn take_new(
        &mut self,
        stdout: &std::cell::RefCell<String>,
        session: &Session,
    ) -> Progress {
        let stdout = stdout
            .borrow()
            .get(self.stdout..)
            .unwrap_or_default()
            .to_owned();
        let trace = session.trace_since(self.trace);
        self.stdout += stdout.len();
        self.trace += trace.len();
        Progress { stdout, trace }
    }

    /// `record` less what was already reported (the last Step of a stepped cell).
    pub(crate) fn remove_from(&self, record: &mut RunRecord) {
        record.stdout = record
            .stdout
            .get(self.stdout..)
            .unwrap_or_default()
            .to_owned();
        record.trace.drain(..self.trace.min(record.trace.len()));
    }
}

/// What one Step did: the record of what ran (its output and events; the trailing value and the
/// error with the step that ends the cell), the statement it ran, and where the cell waits now
/// (`None` once it is done: its last statement ran, or one failed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub record: RunRecord,
    pub ran: Option<Position>,
    pub next: Option<Position>,
    pub done: bool,
}

/// How long a cell took and how much of its budget it used.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Timings {
    /// Wall-clock time from parsing to the last statement, in milliseconds.
    pub wall_ms: f64,
    /// Statements run and items drawn from iterators (the step budget's unit).
    pub steps: u64,
}

/// The limits on one cell. Interactive cells have none but the stack ([`Limits::interactive`]:
/// Stop ends them, as in a notebook); exercise checks, the grader and the CLI have budgets, so
/// that an infinite loop ends with an error and a verdict.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Statements run plus items drawn from iterators.
    pub steps: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Machine stack the cell's nested calls may use before `RecursionError` (each Python call
    /// level costs kilobytes of native stack, far more in debug builds).
    pub stack_bytes: usize,
}

impl Limits {
    /// A learner's interactive cell: no step budget and no wall clock.
    pub fn interactive() -> Limits {
        Limits {
            steps: u64::MAX,
            seconds: f64::INFINITY,
            ..Limits::default()
        }
    }

    /// Budgets of `steps` and `seconds` (each cell gets them whole).
    pub fn budget(steps: u64, seconds: f64) -> Limits {
        Limits {
            steps,
            seconds,
            ..Limits::default()
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            steps: 5_000_000,
            seconds: 30.0,
            // The wasm build links a 16 MiB stack (.cargo/config.toml); a native thread is only
            // known to have Rust's 2 MiB default.
            stack_bytes: if cfg!(target_arch = "wasm32") {
                12 << 20
            } else {
                1 << 20
            },
        }
    }
}

/// Shared with whoever may stop a running cell (the worker's message loop on a Stop request):
/// the cell ends with `KeyboardInterrupt` within a few thousand steps. The request is consumed
/// by the cell it ends; [`StopHandle::clear`] drops one that came after its cell finished.
#[derive(Debug, Clone, Default)]
pub struct StopHandle(Rc<std::cell::Cell<bool>>);

impl StopHandle {
    pub fn stop(&self) {
        self.0.set(true);
    }

    pub fn clear(&self) {
        self.0.set(false);
    }

    pub(crate) fn take(&self) -> bool {
        self.0.replace(false)
    }
}

impl Interpreter {
    /// A fresh notebook over `session`.
    pub fn notebook(session: Session) -> Interpreter {
        Interpreter::new(session)
    }

    /// Where `torch.save` writes and `torch.load` reads (in memory unless set: the browser keeps
    /// a lesson's files there; the CLI uses the working directory).
    pub fn with_files(mut self, files: Rc<dyn tolab_engine::serialization::Files>) -> Interpreter {
        self.files = files;
        self
    }

    /// The limits each cell runs under.
    pub fn with_limits(mut self, limits: Limits) -> Interpreter {
        self.limits = limits;
        self
    }

    /// The limits the cells from now on run under.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// What stops a running cell from outside.
    pub fn stop_handle(&self) -> StopHandle {
        self.stop.clone()
    }

    /// Shares a stop handle (the runtime's, which outlives its notebooks).
    pub fn with_stop_handle(mut self, stop: StopHandle) -> Interpreter {
        self.stop = stop;
        self
    }

    /// Who hears of running cells' output and events as they happen (nobody, with `None`).
    pub fn set_progress(&mut self, sink: Option<ProgressSink>) {
        self.progress = sink;
    }

    /// Hands what the running cell produced since the last report, if anything, to whoever
    /// hears its progress.
    pub(crate) fn report_progress(&mut self) {
        let Some(sink) = &self.progress else {
            return;
        };
        let progress = Progress {
            stdout: self.stdout.take(),
            trace: self.session.take_trace(),
        };
        if !progress.stdout.is_empty() || !progress.trace.is_empty() {
            sink(progress);
        }
    }

    /// Runs one cell (`name` is how tracebacks call it, such as `<cell 1>`).
    pub async fn run_cell(&mut self, name: &str, text: &str) -> RunRecord {
        let started = self.begin();
        let cell = Rc::new(CellSource::new(name, text));
        let outcome = match cell.parse() {
            Ok(module) => self.run_module(cell.clone(), &module.body).await,
            Err(e) => Err(e),
        };
        let shown = self.shown(outcome).await;
        self.finish(shown, started)
    }

    /// Steps through the cells it runs from now on (`None`: runs them straight through).
    pub fn set_gate(&mut self, gate: Option<Rc<Gate>>) {
        self.gate = gate;
    }

    /// The cells' output so far (shared: what a stepped cell printed can be read while it waits).
    pub fn stdout_handle(&self) -> Rc<std::cell::RefCell<String>> {
        self.stdout.clone()
    }

    /// Fresh budgets for a run; the time it started.
    fn begin(&mut self) -> f64 {
        // NumPy scalars make arrays in the notebook that runs.
        crate::stdlib::numpy::enter(&self.session);
        self.steps_left = self.limits.steps;
        self.stack_base = interpreter::stack_position();
        self.deadline = clock::seconds() + self.limits.seconds;
        clock::seconds()
    }

    /// The repr of a cell's trailing value, as a notebook shows it (a learner's `__repr__`
    /// included, which may fail in its turn).
    async fn shown(
        &mut self,
        outcome: Result<Option<value::Value>, PyException>,
    ) -> Result<Option<String>, PyException> {
        let Some(value) = outcome? else {
            return Ok(None);
        };
        match self.text_of(&value, false).await {
            Ok(text) => Ok(Some(text)),
            Err(args::Flow::Error(e)) => Err(*e),
            Err(_) => Ok(Some(value.repr())),
        }
    }

    /// The record of a run that ended with `outcome` (the trailing value's text, or the error).
    fn finish(&mut self, outcome: Result<Option<String>, PyException>, started: f64) -> RunRecord {
        let (value, error) = match outcome {
            Ok(value) => (value, None),
            Err(e) => {
                let traceback = e.traceback();
                let last = traceback.lines().last().unwrap_or_default().to_owned();
                self.session()
                    .record(None, || EventKind::Error { message: last });
                (None, Some(traceback))
            }
        };
        self.session().set_span(None);
        // The next run's lines are new places to warn from.
        self.session().warnings().reset_registry();
        RunRecord {
            stdout: self.stdout.take(),
            stderr: self.stderr.take(),
            value,
            error,
            warnings: self.session().take_warnings(),
            trace: self.session().take_trace(),
            trace_dropped: self.session().end_trace_run(),
            timings: Timings {
                wall_ms: (clock::seconds() - started) * 1000.0,
                steps: self.limits.steps - self.steps_left,
            },
        }
    }
}
