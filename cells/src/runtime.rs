//! The runtime: owns the engine's resources and the notebook, and answers [`Request`]s.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::Poll;

use tolab_engine::backend::gpu::{GpuContext, GpuError};
use tolab_engine::{Session, SessionConfig};

use crate::protocol::{
    BackendReport, Budget, CellSource, CheckOutcome, CheckSpec, DeviceEntry, DeviceReport,
    DeviceSettings, ExerciseReport, RUNS_WITHOUT_ERROR, Reply, Request, SetupRun,
};
use crate::python::{
    Gate, Interpreter, Limits, Position, Progress, ProgressSink, Reported, RunRecord, Step,
    StopHandle, Timings,
};

/// One learner session's runtime. The GPU is opened on first need and kept; the notebook (its
/// namespace and engine session) is made by the first cell and dropped by Reset.
#[derive(Default)]
pub struct Runtime {
    gpu: Option<Result<Rc<GpuContext>, GpuError>>,
    notebook: Option<Interpreter>,
    /// The cell being stepped through, waiting at its gate between Step requests (it holds the
    /// notebook meanwhile).
    stepping: Option<Stepping>,
    /// Shared by every notebook this runtime makes.
    stop: StopHandle,
    progress: Option<ProgressSink>,
    /// The machine every new notebook starts on.
    settings: DeviceSettings,
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
            Request::DescribeDevices => Reply::Devices(self.devices().await),
            Request::Configure { mut settings } => {
                self.cancel_stepping().await;
                settings.gpu_count = settings.gpu_count.min(DeviceSettings::MAX_GPUS);
                self.settings = settings;
                self.notebook = None;
                Reply::Devices(self.devices().await)
            }
            Request::RunCell { cell, source } => {
                self.cancel_stepping().await;
                self.open_gpu().await;
                Reply::Ran(self.notebook().run_cell(&cell, &source).await)
            }
            Request::Step { cell, source } => Reply::Stepped(self.step(cell, source).await),
            Request::CheckExercise {
                cell,
                source,
                checks,
                setup,
                budget,
            } => {
                self.open_gpu().await;
                let exercise = CellSource { cell, source };
                Reply::Checked(
                    self.check_exercise(&setup, &exercise, &checks, budget)
                        .await,
                )
            }
            // The notebook as it stands (none before a first cell: builtins and keywords only).
            Request::Complete { before } => Reply::Completions(match &self.notebook {
                Some(notebook) => notebook.complete(&before),
                None => Interpreter::notebook(Session::default()).complete(&before),
            }),
            Request::FindDefinition { name, cells } => Reply::Definition {
                cell: cells
                    .into_iter()
                    .rev()
                    .find(|c| crate::python::binds(&c.source, &name))
                    .map(|c| c.cell),
            },
            Request::Reset => {
                self.cancel_stepping().await;
                self.notebook = None;
                Reply::Reset
            }
            // Reaching here, the Stop has found no cell running: it ends a stepped cell, if any.
            Request::Stop => {
                self.cancel_stepping().await;
                self.stop.clear();
                Reply::Stopped
            }
        }
    }

    /// The notebook a cell runs in, made by the first one. A Stop that came after its cell had
    /// finished is dropped here, so that it does not end this one.
    fn notebook(&mut self) -> &mut Interpreter {
        let notebook = self.take_notebook();
        self.notebook.insert(notebook)
    }

    /// [`Runtime::notebook`], handed over (to a stepped cell's run, which gives it back).
    fn take_notebook(&mut self) -> Interpreter {
        self.stop.clear();
        let mut notebook = self.notebook.take().unwrap_or_else(|| {
            // The UI animates the trace, so a notebook's session always records it.
            let session = self.new_session();
            session.set_tracing(true);
            session.set_trace_limit(TRACE_LIMIT);
            Interpreter::notebook(session)
                .with_stop_handle(self.stop.clone())
                .with_limits(Limits::interactive())
        });
        notebook.set_progress(self.progress.clone());
        notebook
    }

    /// One Step: the next statement of the cell being stepped (the cell's first, for a cell not
    /// being stepped, which ends any other first).
    async fn step(&mut self, cell: String, source: String) -> Step {
        let current = self
            .stepping
            .take()
            .filter(|s| s.cell == cell && s.source == source);
        let mut stepping = match current {
            Some(stepping) => stepping,
            None => {
                self.cancel_stepping().await;
                self.open_gpu().await;
                let mut stepping = Stepping::start(self.take_notebook(), cell, source);
                // Run up to the first statement, so that the Step below runs it.
                if let Some((notebook, record)) = stepping.advance().await {
                    self.notebook = Some(notebook);
                    return stepping.finished(record, None);
                }
                stepping
            }
        };
        let ran = stepping.at.clone();
        stepping.gate.permit();
        match stepping.advance().await {
            Some((notebook, record)) => {
                self.notebook = Some(notebook);
                stepping.finished(record, ran)
            }
            None => {
                let step = stepping.partial(ran);
                self.stepping = Some(stepping);
                step
            }
        }
    }

    /// Ends the stepped cell, if any, at its gate (with `KeyboardInterrupt`, so that its `with`
    /// blocks and `finally` clauses run).
    async fn cancel_stepping(&mut self) {
        if let Some(mut stepping) = self.stepping.take() {
            loop {
                stepping.gate.cancel();
                if let Some((notebook, _)) = stepping.advance().await {
                    self.notebook = Some(notebook);
                    return;
                }
            }
        }
    }

    /// Opens the GPU once, before the first notebook needs it.
    async fn open_gpu(&mut self) {
        if self.gpu.is_none() {
            self.gpu = Some(open_gpu().await.map(Rc::new));
        }
    }

    /// Checks an exercise in a fresh notebook of its own: the lesson's `setup` cells, then its
    /// code, then its checks (named `<check N>` in tracebacks), each under `budget`. The
    /// learner's notebook is left as it was. The first outcome says whether the code itself ran
    /// without an error.
    async fn check_exercise(
        &mut self,
        setup: &[CellSource],
        exercise: &CellSource,
        checks: &[CheckSpec],
        budget: Budget,
    ) -> ExerciseReport {
        self.stop.clear();
        let mut notebook = Interpreter::notebook(self.new_session())
            .with_stop_handle(self.stop.clone())
            .with_limits(Limits::budget(budget.steps, f64::from(budget.seconds)));
        let mut ran = Vec::with_capacity(setup.len());
        for cell in setup {
            let record = notebook.run_cell(&cell.cell, &cell.source).await;
            ran.push(SetupRun {
                cell: cell.cell.clone(),
                error: record.error.as_deref().and_then(last_line),
            });
        }
        let record = notebook.run_cell(&exercise.cell, &exercise.source).await;
        let outcome = |message: &str, error: &Option<String>| CheckOutcome {
            message: message.to_owned(),
            passed: error.is_none(),
            reason: error.as_deref().and_then(last_line),
        };
        let mut outcomes = vec![outcome(RUNS_WITHOUT_ERROR, &record.error)];
        for (i, check) in checks.iter().enumerate() {
            let ran = notebook
                .run_cell(&format!("<check {}>", i + 1), &check.code)
                .await;
            outcomes.push(outcome(&check.message, &ran.error));
        }
        // A Stop pressed after the check ended must not end the learner's next cell.
        self.stop.clear();
        ExerciseReport {
            setup: ran,
            record,
            checks: outcomes,
        }
    }

    /// A session on the machine the settings describe, on the GPU where there is one.
    fn new_session(&self) -> Session {
        let config = SessionConfig {
            gpu_count: self.settings.gpu_count,
            ..SessionConfig::default()
        };
        let session = match self.gpu.as_ref().and_then(|g| g.as_ref().ok()) {
            Some(gpu) => Session::with_gpu(config, Rc::clone(gpu)),
            None => Session::new(config),
        };
        if let Some(visible) = &self.settings.cuda_visible_devices {
            session.set_env("CUDA_VISIBLE_DEVICES", Some(visible));
        }
        session
    }

    /// The devices a new notebook sees, asked of a fresh session as a learner's first cell would.
    async fn devices(&mut self) -> DeviceReport {
        let backend = self.backend().await;
        let session = self.new_session();
        let config = session.config();
        let gpu_backing = match &backend {
            BackendReport::Gpu { adapter } => adapter.summary(),
            BackendReport::CpuEmulated { reason } => format!("emulated on the CPU: {reason}"),
        };
        let mut devices = vec![DeviceEntry {
            device: "cpu".into(),
            backing: "the CPU".into(),
            capacity: config.cpu_capacity,
            physical: None,
        }];
        devices.extend((0..session.device_count()).map(|i| DeviceEntry {
            device: format!("cuda:{i}"),
            backing: gpu_backing.clone(),
            capacity: config.gpu_capacity,
            physical: session.physical_gpu(i),
        }));
        devices.push(DeviceEntry {
            device: "mps".into(),
            backing: gpu_backing,
            capacity: config.mps_capacity,
            physical: None,
        });
        DeviceReport {
            backend,
            settings: self.settings.clone(),
            devices,
        }
    }

    async fn backend(&mut self) -> BackendReport {
        self.open_gpu().await;
        let Some(gpu) = &self.gpu else {
            return BackendReport::CpuEmulated {
                reason: no_adapter_reason("not opened"),
            };
        };
        match gpu {
            Ok(gpu) => BackendReport::Gpu {
                adapter: gpu.report().clone(),
            },
            Err(GpuError::NoAdapter { reason }) => BackendReport::CpuEmulated {
                reason: no_adapter_reason(reason),
            },
            Err(other) => BackendReport::CpuEmulated {
                reason: other.to_string(),
            },
        }
    }
}

/// Opens the GPU. A browser's WebGPU now and then never answers a request for an adapter or a
/// device (seen in headless Chromium about one start in twenty): each try has a time limit, and
/// after the last the GPU devices run on the CPU and the lab says why. Natively it is awaited.
async fn open_gpu() -> Result<GpuContext, GpuError> {
    const TRIES: u32 = 3;
    const SECONDS: f64 = 5.0;
    for _ in 0..TRIES {
        if let Some(opened) = crate::python::within(SECONDS, GpuContext::new()).await {
            return opened;
        }
    }
    // Not `NoAdapter`: the browser may well have WebGPU, it just did not answer.
    Err(GpuError::Backend {
        reason: format!("the browser's WebGPU did not answer ({TRIES} tries of {SECONDS} s)"),
    })
}

/// The most trace events one cell's run keeps: far more than any view draws, few enough that
/// a loop left running for minutes does not fill the browser's memory.
const TRACE_LIMIT: usize = 20_000;

/// The last line of a traceback: the exception, as `except` would name it.
fn last_line(traceback: &str) -> Option<String> {
    traceback.lines().last().map(str::to_owned)
}

#[cfg(target_arch = "wasm32")]
fn no_adapter_reason(_detail: &str) -> String {
    "this browser has no WebGPU".to_owned()
}

#[cfg(not(target_arch = "wasm32"))]
fn no_adapter_reason(detail: &str) -> String {
    format!("no GPU adapter was found ({detail})")
}

/// A cell being stepped through: its run, alive between Step requests while it waits at its
/// gate, and what earlier Steps already reported.
struct Stepping {
    cell: String,
    source: String,
    gate: Rc<Gate>,
    /// The cell's run, owning the notebook until it ends.
    run: Pin<Box<dyn Future<Output = (Interpreter, RunRecord)>>>,
    /// Where the cell waits.
    at: Option<Position>,
    stdout: Rc<RefCell<String>>,
    session: Session,
    /// What earlier Steps already reported.
    reported: Reported,
}

impl Stepping {
    fn start(mut notebook: Interpreter, cell: String, source: String) -> Stepping {
        let gate = Rc::new(Gate::default());
        notebook.set_gate(Some(gate.clone()));
        // Each Step reports what it ran; progress reports would take it first.
        notebook.set_progress(None);
        let (stdout, session) = (notebook.stdout_handle(), notebook.session().clone());
        let run = {
            let (cell, source) = (cell.clone(), source.clone());
            Box::pin(async move {
                let record = notebook.run_cell(&cell, &source).await;
                notebook.set_gate(None);
                (notebook, record)
            })
        };
        Stepping {
            cell,
            source,
            gate,
            run,
            at: None,
            stdout,
            session,
            reported: Reported::default(),
        }
    }

    /// Runs the cell until it waits at its gate (`None`; [`Stepping::at`] says where) or ends
    /// (the notebook back, and the cell's record).
    async fn advance(&mut self) -> Option<(Interpreter, RunRecord)> {
        let mut parked = self.gate.parked();
        let outcome = std::future::poll_fn(|cx| {
            if let Poll::Ready(ended) = self.run.as_mut().poll(cx) {
                return Poll::Ready(Ok(ended));
            }
            Pin::new(&mut parked).poll(cx).map(Err)
        })
        .await;
        match outcome {
            Ok(ended) => Some(ended),
            Err(at) => {
                self.at = Some(at);
                None
            }
        }
    }

    /// The Step that ran `ran`, with the cell now waiting: what it printed and recorded since the
    /// last Step.
    fn partial(&mut self, ran: Option<Position>) -> Step {
        let Progress { stdout, trace } = self.reported.take_new(&self.stdout, &self.session);
        Step {
            record: RunRecord {
                stdout,
                stderr: String::new(),
                value: None,
                error: None,
                warnings: Vec::new(),
                trace,
                trace_dropped: 0,
                timings: Timings {
                    wall_ms: 0.0,
                    steps: 0,
                },
            },
            ran,
            next: self.at.clone(),
            done: false,
        }
    }

    /// The Step that ended the cell: its record, less what earlier Steps reported.
    fn finished(self, mut record: RunRecord, ran: Option<Position>) -> Step {
        self.reported.remove_from(&mut record);
        Step {
            record,
            ran,
            next: None,
            done: true,
        }
    }
}
