//! The interpreter: one notebook's state (its namespace, the running cell's budgets and the
//! stack of activations) and the machinery every statement goes through (budget, stop, pauses,
//! line tracking, names and assignment targets).

use std::collections::HashMap;
use std::rc::Rc;

use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::Ranged;
use tolab_engine::Session;

use super::args::{Eval, Flow};
use super::exception::{ExcType, Frame, PyException};
use super::operators;
use super::source::CellSource;
use super::value::{Class, Instance, Names, Scope, Value};

/// One activation: the function running (`<module>` at a cell's top level), the line it is on,
/// and its names.
pub(crate) struct Activation {
    pub(crate) function: String,
    pub(crate) cell: Rc<CellSource>,
    /// The line it started on; read [`Activation::line`], which knows the statement running.
    pub(crate) line: usize,
    /// Where the statement running starts: its line is found only when something asks
    /// (a traceback, a warning), not for every statement.
    pub(crate) at: Option<ruff_text_size::TextSize>,
    /// Its local names (none at a cell's top level, where names are the cell namespace's).
    pub(crate) locals: Option<Scope>,
    /// The scopes it can read through, innermost first: its function's closure.
    pub(crate) enclosing: Rc<[Scope]>,
    /// Whether functions defined here close over `locals` (not in a class body, as in Python).
    pub(crate) encloses: bool,
    /// Names a `global` statement sent to the cell namespace.
    pub(crate) globals: Vec<String>,
    /// Names a `nonlocal` statement sent to an enclosing function's scope.
    pub(crate) nonlocals: Vec<String>,
    /// In a method: the object it was called on and the class that defines it (for `super()`).
    pub(crate) this: Option<(Value, Rc<Class>)>,
    /// In a generator's own frame: where its `yield`s hand values (and the interpreter's state)
    /// back to whoever resumed it.
    pub(crate) generator: Option<Rc<super::generator::Link>>,
    /// In a function's own frame: the names that are its locals (see [`super::locals`]).
    pub(crate) assigned: Option<Rc<rustc_hash::FxHashSet<String>>>,
    /// What the `__qualname__` of a function or class defined here starts with: `main.<locals>`
    /// in a function `main`, `Net` in a class body, nothing at top level.
    pub(crate) qualifier: Rc<str>,
}

impl Activation {
    /// A frame at top level (a cell's, a module's): no locals of its own, no closure.
    /// A list, set or dict comprehension's frame (which has no traceback line of its own).
    pub(crate) fn is_comprehension(&self) -> bool {
        self.function == super::expressions::COMPREHENSION
    }

    pub(crate) fn top_level(function: &str, cell: Rc<CellSource>, line: usize) -> Activation {
        Activation {
            function: function.to_owned(),
            cell,
            line,
            at: None,
            locals: None,
            enclosing: Rc::from(Vec::new()),
            encloses: false,
            globals: Vec::new(),
            nonlocals: Vec::new(),
            this: None,
            generator: None,
            assigned: None,
            qualifier: Rc::from(""),
        }
    }

    /// The line it is on.
    pub(crate) fn line(&self) -> usize {
        self.at.map_or(self.line, |at| self.cell.line_at(at))
    }

    /// The `__qualname__` of `name` defined in this frame.
    pub(crate) fn qualified(&self, name: &str) -> String {
        match &*self.qualifier {
            "" => name.to_owned(),
            qualifier => format!("{qualifier}.{name}"),
        }
    }
}

/// How deep calls may nest before `RecursionError`.
pub(crate) const MAX_DEPTH: usize = 200;

pub struct Interpreter {
    pub(crate) session: Session,
    pub(crate) globals: Names,
    /// What the cell printed; shared with the ranks `mp.spawn` starts, whose output interleaves.
    pub(crate) stdout: Rc<std::cell::RefCell<String>>,
    /// What it wrote to `sys.stderr`, shown after its stdout.
    pub(crate) stderr: Rc<std::cell::RefCell<String>>,
    pub(crate) stack: Vec<Activation>,
    /// The exceptions being handled (`except` blocks running), for a bare `raise`.
    /// Each as raised (what a bare `raise` raises again) and as seen from the frame that caught
    /// it (what `logging`'s `exc_info` prints).
    pub(crate) handling: Vec<(PyException, PyException)>,
    /// The cell instance owning each engine module of an `nn.Module` subclass, by module id.
    pub(crate) instances: HashMap<usize, Rc<Instance>>,
    /// Statements left before the cell's step budget runs out.
    pub(crate) steps_left: u64,
    /// Where `torch.save` writes and `torch.load` reads.
    pub(crate) files: Rc<dyn tolab_engine::serialization::Files>,
    /// The namespaces of the standard-library modules written in Python that the notebook has
    /// imported (each runs once, at its first import).
    pub(crate) source_modules: HashMap<&'static str, Scope>,
    /// Python's `random` module's generator.
    pub(crate) python_random: Rc<std::cell::RefCell<crate::stdlib::random::PythonRandom>>,
    /// `numpy`'s state: `np.random`'s generator (and, through it, the print options reset).
    pub(crate) numpy: crate::stdlib::numpy::State,
    pub(crate) limits: super::Limits,
    /// When the running cell's wall-clock budget runs out (seconds on [`super::clock::seconds`]).
    pub(crate) deadline: f64,
    pub(crate) stop: super::StopHandle,
    /// The machine stack's position when the running cell started.
    pub(crate) stack_base: usize,
    /// While stepping: the gate each statement waits at.
    pub(crate) gate: Option<Rc<super::Gate>>,
    /// When the cell last paused (let the event loop run, reported progress), and whether it
    /// is time to again.
    pub(crate) last_pause: f64,
    pub(crate) pause_due: bool,
    /// Set while a call must finish without pausing ([`Interpreter::call_now`]), and in the
    /// processes `mp.spawn` starts.
    pub(crate) hold_pauses: bool,
    /// The `torch.backends` switches a learner set (`torch.backends.cudnn.benchmark = True`).
    pub(crate) backend_flags: Names,
    /// In a process `mp.spawn` started: its rank and process group.
    pub(crate) rank: Option<crate::torch::distributed::Rank>,
    /// Who hears of a running cell's output and events as they happen.
    pub(crate) progress: Option<super::ProgressSink>,
}

/// How often a running cell pauses (seconds): it lets the browser's event loop run, well inside
/// the 100 ms in which a Stop must take effect, and reports its progress.
pub(crate) const PAUSE_EVERY: f64 = 0.04;

/// Where the machine stack is now (the address of a local: the stack grows down natively and in
/// wasm's shadow stack alike).
pub(crate) fn stack_position() -> usize {
    let marker = 0u8;
    std::ptr::addr_of!(marker) as usize
}

/// The longest a pause waits for the GPU to catch up: back-pressure only, so a browser whose
/// work-done callback is late must not hold the cell (nor its Stop).
const THROTTLE_SECONDS: f64 = 1.0;

/// How many steps pass between looks at the clock.
const CLOCK_EVERY: u64 = 256;
impl Interpreter {
    pub fn new(session: Session) -> Interpreter {
        let numpy = crate::stdlib::numpy::State::new(&session);
        Interpreter {
            session,
            // A notebook runs as the main module (`if __name__ == "__main__":` blocks run).
            globals: Names::from_iter([("__name__".to_owned(), Value::str("__main__"))]),
            stdout: Rc::default(),
            stderr: Rc::default(),
            stack: Vec::new(),
            handling: Vec::new(),
            instances: HashMap::new(),
            steps_left: u64::MAX,
            files: Rc::new(tolab_engine::serialization::MemoryFiles::default()),
            python_random: Rc::default(),
            source_modules: HashMap::new(),
            numpy,
            limits: super::Limits::default(),
            deadline: f64::INFINITY,
            stop: super::StopHandle::default(),
            stack_base: stack_position(),
            gate: None,
            last_pause: 0.0,
            pause_due: false,
            hold_pauses: false,
            rank: None,
            backend_flags: Names::default(),
            progress: None,
        }
    }

    /// An interpreter with no frames and no state of its own, for a generator to hold between
    /// resumptions (see [`super::generator`]); its shared handles are this one's.
    pub(crate) fn hollow(&self) -> Interpreter {
        Interpreter {
            session: self.session.clone(),
            globals: Names::default(),
            stdout: self.stdout.clone(),
            stderr: self.stderr.clone(),
            stack: Vec::new(),
            handling: Vec::new(),
            instances: HashMap::new(),
            steps_left: 0,
            files: self.files.clone(),
            python_random: self.python_random.clone(),
            numpy: self.numpy.share(),
            source_modules: HashMap::new(),
            limits: self.limits,
            deadline: self.deadline,
            stop: self.stop.clone(),
            stack_base: self.stack_base,
            gate: None,
            last_pause: 0.0,
            pause_due: false,
            hold_pauses: false,
            backend_flags: Names::default(),
            rank: None,
            progress: None,
        }
    }

    /// Swaps everything but the frames (the activations and the exceptions being handled) with
    /// `other`: how a generator takes its caller's state on resuming and gives it back at a
    /// `yield`.
    pub(crate) fn adopt(&mut self, other: &mut Interpreter) {
        std::mem::swap(self, other);
        std::mem::swap(&mut self.stack, &mut other.stack);
        std::mem::swap(&mut self.handling, &mut other.handling);
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Runs a parsed cell; the value of a trailing expression comes back, as a notebook shows it.
    pub async fn run_module(
        &mut self,
        cell: Rc<CellSource>,
        body: &[Stmt],
    ) -> Result<Option<Value>, PyException> {
        self.stack
            .push(Activation::top_level("<module>", cell.clone(), 0));
        let mut shown = None;
        let mut result = Ok(());
        for (i, stmt) in body.iter().enumerate() {
            self.pause_point().await;
            let last = i + 1 == body.len();
            let outcome = match (stmt, last) {
                (Stmt::Expr(e), true) => match self.at_gate(stmt).await {
                    Ok(()) => self
                        .note_line(stmt)
                        .and(self.expr(&e.value).await)
                        .map(|v| {
                            shown = Some(v);
                        }),
                    Err(flow) => Err(flow),
                },
                _ => self.exec(stmt).await,
            };
            if let Err(flow) = outcome {
                result = Err(flow);
                break;
            }
        }
        let activation = self.stack.pop();
        match result {
            Ok(()) => Ok(shown.filter(|v| !matches!(v, Value::None))),
            Err(Flow::Error(mut e)) => {
                if let Some(a) = activation {
                    e.frames.insert(0, frame_of(&a));
                }
                Err(*e)
            }
            Err(Flow::Return(_)) => Err(PyException::new(
                ExcType::SyntaxError,
                "'return' outside function",
            )),
            Err(Flow::Break | Flow::Continue) => Err(PyException::new(
                ExcType::SyntaxError,
                "'break' outside loop",
            )),
        }
    }

    /// One step of the cell's budget: a statement run or an item drawn from an iterator.
    pub(crate) fn charge_step(&mut self) -> Result<(), Flow> {
        if self.steps_left == 0 {
            return Err(PyException::ending_cell(
                ExcType::RuntimeError,
                format!(
                    "the cell ran out of its step budget ({} statements and loop items: an infinite loop?)",
                    self.limits.steps
                ),
            )
            .into());
        }
        self.steps_left -= 1;
        if self.steps_left.is_multiple_of(CLOCK_EVERY) {
            self.check_clock()?;
        }
        Ok(())
    }

    /// Ends the cell on a Stop request or past its time budget; notes when a pause is due.
    pub(crate) fn check_clock(&mut self) -> Result<(), Flow> {
        if self.stop.take() {
            return Err(PyException::ending_cell(ExcType::KeyboardInterrupt, "").into());
        }
        let now = super::clock::seconds();
        self.pause_due = (super::clock::YIELDS || self.progress.is_some())
            && now - self.last_pause > PAUSE_EVERY;
        if now > self.deadline {
            self.steps_left = 0;
            return Err(PyException::ending_cell(
                ExcType::RuntimeError,
                format!(
                    "the cell ran past its time budget of {} s (an infinite loop?)",
                    self.limits.seconds
                ),
            )
            .into());
        }
        Ok(())
    }

    /// Between statements, when due: reports progress and lets the event loop run (a Stop
    /// request, or the UI, gets its turn).
    pub(crate) async fn pause_point(&mut self) {
        if self.pause_due && !self.hold_pauses {
            self.pause_due = false;
            self.last_pause = super::clock::seconds();
            self.report_progress();
            let _ = super::clock::within(THROTTLE_SECONDS, self.session.throttle_gpu()).await;
            super::clock::yield_to_event_loop().await;
        }
    }

    pub(crate) fn note_line(&mut self, stmt: &Stmt) -> Result<(), Flow> {
        self.charge_step()?;
        let Some(a) = self.stack.last_mut() else {
            return Ok(());
        };
        a.at = Some(stmt.range().start());
        self.session
            .warnings()
            .set_place(Rc::as_ptr(&a.cell) as usize, stmt.range().start().to_u32());
        if self.session.is_tracing() {
            let (line, column) = a.cell.position(stmt.range().start());
            let (end_line, end_column) = a.cell.position(stmt.range().end());
            let number = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
            self.session.set_span(Some(tolab_engine::trace::SourceSpan {
                cell: a.cell.name.clone(),
                line: number(line),
                column: number(column),
                end_line: number(end_line),
                end_column: number(end_column),
            }));
        }
        Ok(())
    }

    pub(crate) fn block<'a>(&'a mut self, body: &'a [Stmt]) -> Eval<'a, ()> {
        Box::pin(async move {
            for stmt in body {
                if self.pause_due {
                    Box::pin(self.pause_point()).await;
                }
                self.exec(stmt).await?;
            }
            Ok(())
        })
    }

    /// While stepping, waits for the learner's next Step before `stmt`. The wait does not count
    /// against the cell's time budget; a cancelled step ends the cell as a Stop would.
    pub(crate) async fn at_gate(&mut self, stmt: &Stmt) -> Result<(), Flow> {
        let Some(gate) = self.gate.clone().filter(|_| !self.hold_pauses) else {
            return Ok(());
        };
        let Some(a) = self.stack.last() else {
            return Ok(());
        };
        let at = super::Position {
            cell: a.cell.name.to_string(),
            line: a.cell.line_of(stmt.range()),
        };
        let waited = super::clock::seconds();
        let passed = gate.pass(at).await;
        self.deadline += super::clock::seconds() - waited;
        passed.map_err(|_| PyException::ending_cell(ExcType::KeyboardInterrupt, "").into())
    }
}

impl Interpreter {
    /// The scopes a function (or comprehension) made now can read: the running function's, then
    /// its closure; a class body's names are not among them, as in Python.
    pub(crate) fn closure(&self) -> Rc<[Scope]> {
        match self.stack.last() {
            Some(a) => match (&a.locals, a.encloses) {
                (Some(locals), true) => std::iter::once(locals.clone())
                    .chain(a.enclosing.iter().cloned())
                    .collect(),
                _ => a.enclosing.clone(),
            },
            None => Rc::from(Vec::new()),
        }
    }

    /// A class body run in a namespace of its own: the names it defines.
    pub(crate) async fn run_class_body(
        &mut self,
        name: &str,
        body: &[Stmt],
    ) -> Result<Names, Flow> {
        let (cell, line, qualifier) = match self.stack.last() {
            Some(a) => (a.cell.clone(), a.line(), a.qualified(name)),
            None => return Ok(Names::default()),
        };
        let enclosing = self.closure();
        self.stack.push(Activation {
            locals: Some(Scope::default()),
            enclosing,
            qualifier: qualifier.into(),
            ..Activation::top_level("<class body>", cell, line)
        });
        let outcome = self.block(body).await;
        let namespace = self
            .stack
            .pop()
            .and_then(|a| a.locals)
            .map(|scope| scope.take())
            .unwrap_or_default();
        outcome.map(|()| namespace)
    }

    pub(crate) fn set_name(&mut self, name: &str, value: Value) {
        let scope = self.stack.last().and_then(|a| {
            if a.globals.iter().any(|g| g == name) {
                None
            } else if a.nonlocals.iter().any(|n| n == name) {
                a.enclosing
                    .iter()
                    .find(|s| s.borrow().contains_key(name))
                    .cloned()
            } else {
                a.locals.clone()
            }
        });
        // Rebinding a name reuses its key: no allocation on the hot path of a loop.
        fn bind(names: &mut Names, name: &str, value: Value) {
            match names.get_mut(name) {
                Some(slot) => *slot = value,
                None => {
                    names.insert(name.to_owned(), value);
                }
            }
        }
        match scope {
            Some(scope) => bind(&mut scope.borrow_mut(), name, value),
            None => bind(&mut self.globals, name, value),
        }
    }

    pub(crate) fn lookup(&self, name: &str) -> Result<Value, PyException> {
        if let Some(a) = self.stack.last() {
            if let Some(v) = a
                .locals
                .as_ref()
                .and_then(|l| l.borrow().get(name).cloned())
            {
                return Ok(v);
            }
            // A local not bound yet is not the global of that name.
            if a.assigned
                .as_ref()
                .is_some_and(|locals| locals.contains(name))
                && !a.globals.iter().any(|g| g == name)
                && !a.nonlocals.iter().any(|n| n == name)
            {
                return Err(PyException::new(
                    ExcType::Other("UnboundLocalError".into()),
                    format!(
                        "cannot access local variable '{name}' where it is not associated with a value"
                    ),
                ));
            }
            for scope in a.enclosing.iter() {
                if let Some(v) = scope.borrow().get(name) {
                    return Ok(v.clone());
                }
            }
        }
        if let Some(v) = self.globals.get(name) {
            return Ok(v.clone());
        }
        super::builtins::lookup(name)
            .or_else(|| ExcType::builtin(name).map(Value::ExcClass))
            .ok_or_else(|| {
                PyException::new(ExcType::NameError, format!("name '{name}' is not defined"))
            })
    }

    /// Binds `value` to a target: a name directly (a loop variable, most often), anything else
    /// (attributes, items, unpacking) through [`Interpreter::assign_boxed`].
    pub(crate) async fn assign(&mut self, target: &Expr, value: Value) -> Result<(), Flow> {
        match target {
            Expr::Name(n) => {
                self.set_name(n.id.as_str(), value);
                Ok(())
            }
            _ => self.assign_boxed(target, value).await,
        }
    }

    fn assign_boxed<'a>(&'a mut self, target: &'a Expr, value: Value) -> Eval<'a, ()> {
        Box::pin(async move {
            match target {
                Expr::Name(n) => self.set_name(n.id.as_str(), value),
                Expr::Attribute(a) => {
                    let owner = self.expr(&a.value).await?;
                    Box::pin(self.assign_attribute(&owner, a.attr.id.as_str(), value)).await?;
                }
                Expr::Tuple(t) => self.unpack(&t.elts, value).await?,
                Expr::List(l) => self.unpack(&l.elts, value).await?,
                Expr::Subscript(s) => {
                    let container = self.expr(&s.value).await?;
                    let index = self.subscript(&s.slice).await?;
                    if let Value::Instance(i) = &container
                        && i.class.lookup("__setitem__").is_some()
                    {
                        self.call_dunder(&container, "__setitem__", vec![index, value])
                            .await?;
                        return Ok(());
                    }
                    let index = Box::pin(self.held_key(&container, index)).await?;
                    self.engine_call(|_| {
                        Ok(operators::set_item(&container, &index, value.clone())?)
                    })
                    .await?;
                }
                _ => return Err(PyException::unsupported("this assignment target").into()),
            }
            Ok(())
        })
    }

    async fn unpack(&mut self, targets: &[Expr], value: Value) -> Result<(), Flow> {
        let items = self.collect(&value).await?;
        let starred = targets.iter().position(|t| matches!(t, Expr::Starred(_)));
        let fixed = targets.len() - usize::from(starred.is_some());
        let fits = match starred {
            Some(_) => items.len() >= fixed,
            None => items.len() == fixed,
        };
        if !fits {
            let message = if starred.is_some() {
                format!(
                    "not enough values to unpack (expected at least {fixed}, got {})",
                    items.len()
                )
            } else if items.len() > fixed {
                format!("too many values to unpack (expected {fixed})")
            } else {
                format!(
                    "not enough values to unpack (expected {fixed}, got {})",
                    items.len()
                )
            };
            return Err(PyException::new(ExcType::ValueError, message).into());
        }
        let mut items = items.into_iter();
        for (i, target) in targets.iter().enumerate() {
            match target {
                Expr::Starred(s) if Some(i) == starred => {
                    let taken = items.len() - (targets.len() - i - 1);
                    let rest: Vec<Value> = items.by_ref().take(taken).collect();
                    self.assign(&s.value, Value::list(rest)).await?;
                }
                _ => {
                    let item = items.next().unwrap_or(Value::None);
                    self.assign(target, item).await?;
                }
            }
        }
        Ok(())
    }
}

pub(crate) fn frame_of(a: &Activation) -> Frame {
    Frame {
        file: a.cell.name.to_string(),
        line: a.line(),
        function: a.function.clone(),
        text: a.cell.line(a.line()).to_owned(),
    }
}
