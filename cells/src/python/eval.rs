//! The tree-walking evaluator: statements and expressions of the lab's Python subset, run
//! asynchronously (GPU sync points will await real readbacks), with Python's scoping (a function's
//! locals, then the cell namespace, then builtins), control flow and tracebacks. What lies outside
//! the subset fails at its line with a clear message.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use ruff_python_ast::{
    BoolOp, Comprehension, ExceptHandler, Expr, ExprCall, Number, Parameters, Stmt, StmtFunctionDef,
};
use ruff_text_size::Ranged;
use tolab_engine::Session;

use super::exception::{ExcType, Frame, PyException};
use super::operators;
use super::source::CellSource;
use super::value::{Class, Function, FunctionBody, Instance, Names, Scope, Value};

/// Why a block stopped early.
pub enum Flow {
    Error(PyException),
    Return(Value),
    Break,
    Continue,
}

impl From<PyException> for Flow {
    fn from(e: PyException) -> Flow {
        Flow::Error(e)
    }
}

impl From<tolab_engine::Error> for Flow {
    fn from(e: tolab_engine::Error) -> Flow {
        Flow::Error(e.into())
    }
}

pub type Eval<'a, T> = Pin<Box<dyn Future<Output = Result<T, Flow>> + 'a>>;

/// A call's arguments: positional, then keyword.
#[derive(Default, Clone)]
pub struct Args {
    pub positional: Vec<Value>,
    pub keywords: Vec<(String, Value)>,
}

impl Args {
    pub fn positional(values: Vec<Value>) -> Args {
        Args {
            positional: values,
            keywords: Vec::new(),
        }
    }

    pub fn keyword(&self, name: &str) -> Option<&Value> {
        self.keywords
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
    }

    /// The argument at `index` or named `name`.
    pub fn get(&self, index: usize, name: &str) -> Option<&Value> {
        self.positional.get(index).or_else(|| self.keyword(name))
    }
}

/// One activation: the function running (`<module>` at a cell's top level), the line it is on,
/// and its names.
struct Activation {
    function: String,
    cell: Rc<CellSource>,
    line: usize,
    /// Its local names (none at a cell's top level, where names are the cell namespace's).
    locals: Option<Scope>,
    /// The scopes it can read through, innermost first: its function's closure.
    enclosing: Rc<[Scope]>,
    /// Whether functions defined here close over `locals` (not in a class body, as in Python).
    encloses: bool,
    /// Names a `global` statement sent to the cell namespace.
    globals: Vec<String>,
    /// Names a `nonlocal` statement sent to an enclosing function's scope.
    nonlocals: Vec<String>,
    /// In a method: the object it was called on and the class that defines it (for `super()`).
    this: Option<(Value, Rc<Class>)>,
}

/// How deep calls may nest before `RecursionError`.
const MAX_DEPTH: usize = 200;

pub struct Interpreter {
    pub(crate) session: Session,
    pub(crate) globals: Names,
    /// What the cell printed; shared with the ranks `mp.spawn` starts, whose output interleaves.
    pub(crate) stdout: Rc<std::cell::RefCell<String>>,
    stack: Vec<Activation>,
    /// The exceptions being handled (`except` blocks running), for a bare `raise`.
    handling: Vec<PyException>,
    /// The cell instance owning each engine module of an `nn.Module` subclass, by module id.
    pub(super) instances: HashMap<usize, Rc<Instance>>,
    /// Statements left before the cell's step budget runs out.
    pub(crate) steps_left: u64,
    /// Where `torch.save` writes and `torch.load` reads.
    pub(crate) files: Rc<dyn tolab_engine::serialization::Files>,
    /// Python's `random` module's generator.
    pub(super) python_random: super::stdlib::PythonRandom,
    pub(super) limits: super::Limits,
    /// When the running cell's wall-clock budget runs out (seconds on [`super::stdlib::seconds`]).
    pub(super) deadline: f64,
    pub(super) stop: super::StopHandle,
    /// The machine stack's position when the running cell started.
    pub(super) stack_base: usize,
    /// While stepping: the gate each statement waits at.
    pub(super) gate: Option<Rc<super::Gate>>,
    /// When the cell last paused (let the event loop run, reported progress), and whether it
    /// is time to again.
    last_pause: f64,
    pause_due: bool,
    /// Set while a call must finish without pausing ([`Interpreter::call_now`]), and in the
    /// processes `mp.spawn` starts.
    pub(super) hold_pauses: bool,
    /// The `torch.backends` switches a learner set (`torch.backends.cudnn.benchmark = True`).
    pub(super) backend_flags: Names,
    /// In a process `mp.spawn` started: its rank and process group.
    pub(super) rank: Option<super::distributed::Rank>,
    /// Who hears of a running cell's output and events as they happen.
    pub(super) progress: Option<super::ProgressSink>,
}

/// How often a running cell pauses (seconds): it lets the browser's event loop run, well inside
/// the 100 ms in which a Stop must take effect, and reports its progress.
pub(super) const PAUSE_EVERY: f64 = 0.04;

/// Where the machine stack is now (the address of a local: the stack grows down natively and in
/// wasm's shadow stack alike).
pub(super) fn stack_position() -> usize {
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
        Interpreter {
            session,
            // A notebook runs as the main module (`if __name__ == "__main__":` blocks run).
            globals: Names::from_iter([("__name__".to_owned(), Value::str("__main__"))]),
            stdout: Rc::default(),
            stack: Vec::new(),
            handling: Vec::new(),
            instances: HashMap::new(),
            steps_left: u64::MAX,
            files: Rc::new(tolab_engine::serialization::MemoryFiles::default()),
            python_random: super::stdlib::PythonRandom::default(),
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

    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Runs a parsed cell; the value of a trailing expression comes back, as a notebook shows it.
    pub async fn run_module(
        &mut self,
        cell: Rc<CellSource>,
        body: &[Stmt],
    ) -> Result<Option<Value>, PyException> {
        self.stack.push(Activation {
            function: "<module>".into(),
            cell: cell.clone(),
            line: 0,
            locals: None,
            enclosing: Rc::from(Vec::new()),
            encloses: false,
            globals: Vec::new(),
            nonlocals: Vec::new(),
            this: None,
        });
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
                Err(e)
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
    pub(super) fn charge_step(&mut self) -> Result<(), Flow> {
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
    pub(super) fn check_clock(&mut self) -> Result<(), Flow> {
        if self.stop.take() {
            return Err(PyException::ending_cell(ExcType::KeyboardInterrupt, "").into());
        }
        let now = super::stdlib::seconds();
        self.pause_due = (super::stdlib::YIELDS || self.progress.is_some())
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
    pub(super) async fn pause_point(&mut self) {
        if self.pause_due && !self.hold_pauses {
            self.pause_due = false;
            self.last_pause = super::stdlib::seconds();
            self.report_progress();
            let _ = super::stdlib::within(THROTTLE_SECONDS, self.session.throttle_gpu()).await;
            super::stdlib::yield_to_event_loop().await;
        }
    }

    fn note_line(&mut self, stmt: &Stmt) -> Result<(), Flow> {
        self.charge_step()?;
        let Some(a) = self.stack.last_mut() else {
            return Ok(());
        };
        a.line = a.cell.line_of(stmt.range());
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

    pub(super) fn block<'a>(&'a mut self, body: &'a [Stmt]) -> Eval<'a, ()> {
        Box::pin(async move {
            for stmt in body {
                self.pause_point().await;
                self.exec(stmt).await?;
            }
            Ok(())
        })
    }

    /// While stepping, waits for the learner's next Step before `stmt`. The wait does not count
    /// against the cell's time budget; a cancelled step ends the cell as a Stop would.
    async fn at_gate(&mut self, stmt: &Stmt) -> Result<(), Flow> {
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
        let waited = super::stdlib::seconds();
        let passed = gate.pass(at).await;
        self.deadline += super::stdlib::seconds() - waited;
        passed.map_err(|_| PyException::ending_cell(ExcType::KeyboardInterrupt, "").into())
    }

    /// Runs one statement. Plain assignments of simple expressions (`total += i * 3`) take a
    /// synchronous path: no future is boxed for them, which is most of a scalar loop's cost.
    async fn exec(&mut self, stmt: &Stmt) -> Result<(), Flow> {
        if self.gate.is_none() {
            fn simple_name(target: &Expr) -> Option<&str> {
                match target {
                    Expr::Name(n) => Some(n.id.as_str()),
                    _ => None,
                }
            }
            match stmt {
                Stmt::Assign(a) if a.targets.len() == 1 && is_simple(&a.value) => {
                    if let Some(name) = simple_name(&a.targets[0]) {
                        self.note_line(stmt)?;
                        let value = sync_first!(self, |me| me.simple_expr(&a.value))?;
                        self.set_name(name, value);
                        return Ok(());
                    }
                }
                Stmt::AugAssign(a) if is_simple(&a.value) => {
                    if let Some(name) = simple_name(&a.target) {
                        self.note_line(stmt)?;
                        let current = self.lookup(name)?;
                        let operand = sync_first!(self, |me| me.simple_expr(&a.value))?;
                        let updated = sync_first!(self, |_me| Ok(operators::binary(
                            a.op, &current, &operand, true
                        )?))?;
                        self.set_name(name, updated);
                        return Ok(());
                    }
                }
                Stmt::If(s) => {
                    self.note_line(stmt)?;
                    return self.if_stmt(s).await;
                }
                _ => {}
            }
        }
        self.exec_boxed(stmt).await
    }

    /// `if test: ... elif ...: ... else: ...`, its line already noted.
    async fn if_stmt(&mut self, s: &ruff_python_ast::StmtIf) -> Result<(), Flow> {
        if self.test(&s.test).await? {
            return self.block(&s.body).await;
        }
        for clause in &s.elif_else_clauses {
            let taken = match &clause.test {
                Some(test) => self.test(test).await?,
                None => true,
            };
            if taken {
                return self.block(&clause.body).await;
            }
        }
        Ok(())
    }

    fn exec_boxed<'a>(&'a mut self, stmt: &'a Stmt) -> Eval<'a, ()> {
        Box::pin(async move {
            self.at_gate(stmt).await?;
            self.note_line(stmt)?;
            match stmt {
                Stmt::Expr(e) => {
                    self.expr(&e.value).await?;
                }
                Stmt::Assign(a) => {
                    let value = self.expr(&a.value).await?;
                    for target in &a.targets {
                        self.assign(target, value.clone()).await?;
                    }
                }
                Stmt::AugAssign(a) => {
                    let current = self.expr(&a.target).await?;
                    let operand = self.expr(&a.value).await?;
                    let updated = sync_first!(self, |_me| Ok(operators::binary(
                        a.op, &current, &operand, true
                    )?))?;
                    self.assign(&a.target, updated).await?;
                }
                Stmt::If(s) => self.if_stmt(s).await?,
                Stmt::While(s) => {
                    let mut broke = false;
                    while !broke && self.test(&s.test).await? {
                        broke = self.loop_body(&s.body).await?;
                    }
                    if !broke {
                        self.block(&s.orelse).await?;
                    }
                }
                Stmt::For(s) => {
                    let mut broke = false;
                    let iterable = self.expr(&s.iter).await?;
                    let mut items = self.iter_of(&iterable).await?;
                    while let Some(item) = self.next_of(&mut items).await? {
                        self.assign(&s.target, item).await?;
                        broke = self.loop_body(&s.body).await?;
                        if broke {
                            break;
                        }
                    }
                    if !broke {
                        self.block(&s.orelse).await?;
                    }
                }
                Stmt::Break(_) => return Err(Flow::Break),
                Stmt::Continue(_) => return Err(Flow::Continue),
                Stmt::Pass(_) => {}
                Stmt::Return(r) => {
                    let value = match &r.value {
                        Some(v) => self.expr(v).await?,
                        None => Value::None,
                    };
                    return Err(Flow::Return(value));
                }
                Stmt::FunctionDef(def) => self.define(def).await?,
                Stmt::ClassDef(def) => {
                    if !def.decorator_list.is_empty() {
                        return Err(PyException::unsupported("a class decorator").into());
                    }
                    self.define_class(def).await?;
                }
                Stmt::Import(import) => {
                    for alias in &import.names {
                        let name = alias.name.id.as_str();
                        let module = super::modules::import(name)?;
                        match &alias.asname {
                            Some(asname) => self.set_name(asname.id.as_str(), module),
                            None => {
                                // `import torch.nn` binds `torch`.
                                let top = name.split('.').next().unwrap_or(name);
                                self.set_name(top, super::modules::import(top)?);
                            }
                        }
                    }
                }
                Stmt::ImportFrom(import) => {
                    let module = import.module.as_ref().map_or("", |m| m.id.as_str());
                    for alias in &import.names {
                        let name = alias.name.id.as_str();
                        let value = match (module, name) {
                            ("os", "environ") => Value::Environ(self.session.clone()),
                            _ => super::modules::import_from(module, name)?,
                        };
                        let bound = alias.asname.as_ref().map_or(name, |a| a.id.as_str());
                        self.set_name(bound, value);
                    }
                }
                Stmt::Assert(a) => {
                    if !self.test(&a.test).await? {
                        let message = match &a.msg {
                            Some(m) => self.expr(m).await?.str_text(),
                            None => String::new(),
                        };
                        return Err(PyException::new(ExcType::AssertionError, message).into());
                    }
                }
                Stmt::With(w) => self.with_statement(w).await?,
                Stmt::Try(t) => self.try_statement(t).await?,
                Stmt::Raise(r) => {
                    let error = match &r.exc {
                        Some(e) => match &self.expr(e).await? {
                            Value::ExcClass(kind) => PyException::new(kind.clone(), ""),
                            Value::Exception(e) => (**e).clone(),
                            other => PyException::new(
                                ExcType::TypeError,
                                format!(
                                    "exceptions must derive from BaseException, not {}",
                                    other.type_name()
                                ),
                            ),
                        },
                        None => self.handling.last().cloned().ok_or_else(|| {
                            PyException::new(
                                ExcType::RuntimeError,
                                "No active exception to reraise",
                            )
                        })?,
                    };
                    return Err(Flow::Error(PyException {
                        frames: Vec::new(),
                        ..error
                    }));
                }
                Stmt::Global(g) => {
                    if let Some(a) = self.stack.last_mut() {
                        a.globals.extend(g.names.iter().map(|n| n.id.to_string()));
                    }
                }
                Stmt::Nonlocal(n) => {
                    let Some(a) = self.stack.last_mut() else {
                        return Ok(());
                    };
                    for name in &n.names {
                        if !a
                            .enclosing
                            .iter()
                            .any(|s| s.borrow().contains_key(name.as_str()))
                        {
                            return Err(PyException::new(
                                ExcType::SyntaxError,
                                format!("no binding for nonlocal '{name}' found"),
                            )
                            .into());
                        }
                        a.nonlocals.push(name.to_string());
                    }
                }
                // `x: int = 5` binds as `x = 5`; annotations are not evaluated (as under
                // `from __future__ import annotations`), and a bare `x: int` binds nothing.
                Stmt::AnnAssign(a) => {
                    if let Some(value) = &a.value {
                        let value = self.expr(value).await?;
                        self.assign(&a.target, value).await?;
                    }
                }
                Stmt::Delete(d) => {
                    for target in &d.targets {
                        self.delete(target).await?;
                    }
                }
                other => return Err(PyException::unsupported(&statement_name(other)).into()),
            }
            Ok(())
        })
    }

    /// `try: … except …: … else: … finally: …`.
    async fn try_statement(&mut self, t: &ruff_python_ast::StmtTry) -> Result<(), Flow> {
        let mut outcome = self.block(&t.body).await;
        if let Err(Flow::Error(error)) = &outcome
            && !error.ends_cell
        {
            let error = error.clone();
            for handler in &t.handlers {
                let ExceptHandler::ExceptHandler(h) = handler;
                let matches = match &h.type_ {
                    None => true,
                    Some(types) => {
                        let classes = match self.expr(types).await? {
                            Value::Tuple(ref items) => items.to_vec(),
                            one => vec![one],
                        };
                        classes.iter().any(|c| match c {
                            Value::ExcClass(kind) => error.kind.caught_by(kind),
                            _ => false,
                        })
                    }
                };
                if matches {
                    if let Some(name) = &h.name {
                        self.set_name(name.id.as_str(), Value::Exception(Rc::new(error.clone())));
                    }
                    self.handling.push(error.clone());
                    outcome = self.block(&h.body).await;
                    self.handling.pop();
                    break;
                }
            }
        } else if outcome.is_ok() {
            outcome = self.block(&t.orelse).await;
        }
        let finally = self.block(&t.finalbody).await;
        finally.and(outcome)
    }

    async fn delete(&mut self, target: &Expr) -> Result<(), Flow> {
        match target {
            Expr::Name(n) => {
                let name = n.id.as_str();
                let removed = match self.stack.last().and_then(|a| a.locals.as_ref()) {
                    Some(locals) => locals.borrow_mut().remove(name),
                    None => self.globals.remove(name),
                };
                if removed.is_none() {
                    return Err(PyException::new(
                        ExcType::NameError,
                        format!("name '{name}' is not defined"),
                    )
                    .into());
                }
                Ok(())
            }
            Expr::Subscript(s) => {
                let container = self.expr(&s.value).await?;
                let index = self.subscript(&s.slice).await?;
                operators::delete_item(&container, &index)?;
                Ok(())
            }
            _ => Err(PyException::unsupported("this 'del' target").into()),
        }
    }

    /// One pass of a loop's body: whether it ended with `break`.
    async fn loop_body(&mut self, body: &[Stmt]) -> Result<bool, Flow> {
        match self.block(body).await {
            Err(Flow::Break) => Ok(true),
            Err(Flow::Continue) | Ok(()) => Ok(false),
            Err(other) => Err(other),
        }
    }

    async fn define(&mut self, def: &StmtFunctionDef) -> Result<(), Flow> {
        if def.is_async {
            return Err(PyException::unsupported("'async def'").into());
        }
        // Decorators are evaluated before the function is made, and applied innermost first.
        let mut decorators = Vec::with_capacity(def.decorator_list.len());
        for decorator in &def.decorator_list {
            decorators.push(self.expr(&decorator.expression).await?);
        }
        let mut function = self
            .function(
                def.name.id.to_string(),
                &def.parameters,
                FunctionBody::Statements(def.body.to_vec().into()),
                def.range(),
            )
            .await?;
        for decorator in decorators.iter().rev() {
            function = self
                .call(decorator, Args::positional(vec![function]))
                .await?;
        }
        self.set_name(def.name.id.as_str(), function);
        Ok(())
    }

    /// A function value: its defaults evaluated now, as Python does at definition time.
    async fn function(
        &mut self,
        name: String,
        parameters: &Parameters,
        body: FunctionBody,
        range: ruff_text_size::TextRange,
    ) -> Result<Value, Flow> {
        let mut defaults = Vec::new();
        for parameter in parameters.posonlyargs.iter().chain(parameters.args.iter()) {
            if let Some(default) = &parameter.default {
                defaults.push(self.expr(default).await?);
            }
        }
        let mut keyword_defaults = Vec::new();
        for parameter in parameters.kwonlyargs.iter() {
            if let Some(default) = &parameter.default {
                keyword_defaults.push((
                    parameter.parameter.name.id.to_string(),
                    self.expr(default).await?,
                ));
            }
        }
        let cell = self
            .stack
            .last()
            .map(|a| a.cell.clone())
            .ok_or_else(|| PyException::new(ExcType::RuntimeError, "no cell is running"))?;
        let line = cell.line_of(range);
        Ok(Value::Function(Rc::new(Function {
            name,
            parameters: Rc::new(parameters.clone()),
            body,
            defaults,
            keyword_defaults,
            cell,
            line,
            enclosing: self.closure(),
        })))
    }

    /// The scopes a function (or comprehension) made now can read: the running function's, then
    /// its closure; a class body's names are not among them, as in Python.
    fn closure(&self) -> Rc<[Scope]> {
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
    pub(super) async fn run_class_body(&mut self, body: &[Stmt]) -> Result<Names, Flow> {
        let (cell, line) = match self.stack.last() {
            Some(a) => (a.cell.clone(), a.line),
            None => return Ok(Names::default()),
        };
        let enclosing = self.closure();
        self.stack.push(Activation {
            function: "<class body>".into(),
            cell,
            line,
            locals: Some(Scope::default()),
            enclosing,
            encloses: false,
            globals: Vec::new(),
            nonlocals: Vec::new(),
            this: None,
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

    pub(super) fn set_name(&mut self, name: &str, value: Value) {
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

    fn lookup(&self, name: &str) -> Result<Value, PyException> {
        if let Some(a) = self.stack.last() {
            let scopes = a.locals.iter().chain(a.enclosing.iter());
            for scope in scopes {
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
    pub(super) async fn assign(&mut self, target: &Expr, value: Value) -> Result<(), Flow> {
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
                    self.set_attribute(&owner, a.attr.id.as_str(), value)?;
                }
                Expr::Tuple(t) => self.unpack(&t.elts, value).await?,
                Expr::List(l) => self.unpack(&l.elts, value).await?,
                Expr::Subscript(s) => {
                    let container = self.expr(&s.value).await?;
                    let index = self.subscript(&s.slice).await?;
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

    /// Evaluates an expression; [`is_simple`] ones synchronously, without boxing a future.
    pub(crate) async fn expr(&mut self, e: &Expr) -> Result<Value, Flow> {
        if is_simple(e) {
            // The fast path stays synchronous; only a read that could not wait (in the browser)
            // takes the awaiting one.
            return sync_first!(self, |me| me.simple_expr(e));
        }
        self.expr_boxed(e).await
    }

    /// An [`is_simple`] expression's value: literals, names, and arithmetic and single
    /// comparisons of those (all synchronous operations).
    fn simple_expr(&mut self, e: &Expr) -> Result<Value, Flow> {
        Ok(match e {
            Expr::NumberLiteral(n) => match &n.value {
                Number::Int(i) => Value::Int(i.as_i64().ok_or_else(PyException::beyond_64_bits)?),
                Number::Float(x) => Value::Float(*x),
                Number::Complex { .. } => {
                    return Err(PyException::unsupported("complex numbers").into());
                }
            },
            Expr::StringLiteral(s) => Value::str(s.value.to_str()),
            Expr::BooleanLiteral(b) => Value::Bool(b.value),
            Expr::NoneLiteral(_) => Value::None,
            Expr::Name(n) => self.lookup(n.id.as_str())?,
            Expr::BinOp(b) => {
                let left = self.simple_expr(&b.left)?;
                let right = self.simple_expr(&b.right)?;
                operators::binary(b.op, &left, &right, false)?
            }
            Expr::UnaryOp(u) => operators::unary(u.op, &self.simple_expr(&u.operand)?)?,
            Expr::Compare(c) => match (c.ops.first(), c.comparators.first()) {
                (Some(op), Some(right)) => {
                    let left = self.simple_expr(&c.left)?;
                    let right = self.simple_expr(right)?;
                    operators::compare(*op, &left, &right)?
                }
                _ => return Err(PyException::unsupported("this comparison").into()),
            },
            _ => return Err(PyException::unsupported("this expression").into()),
        })
    }

    fn expr_boxed<'a>(&'a mut self, e: &'a Expr) -> Eval<'a, Value> {
        Box::pin(async move {
            Ok(match e {
                Expr::NumberLiteral(_)
                | Expr::StringLiteral(_)
                | Expr::BooleanLiteral(_)
                | Expr::NoneLiteral(_)
                | Expr::Name(_) => self.simple_expr(e)?,
                Expr::BinOp(b) => {
                    let left = self.expr(&b.left).await?;
                    let right = self.expr(&b.right).await?;
                    if let (ruff_python_ast::Operator::Mod, Value::Str(template)) = (b.op, &left) {
                        return Ok(Value::str(&self.percent_format(template, &right).await?));
                    }
                    sync_first!(self, |_me| Ok(operators::binary(
                        b.op, &left, &right, false
                    )?))?
                }
                Expr::UnaryOp(u) => {
                    let operand = self.expr(&u.operand).await?;
                    sync_first!(self, |_me| Ok(operators::unary(u.op, &operand)?))?
                }
                Expr::BoolOp(b) => {
                    let mut last = Value::None;
                    for value in &b.values {
                        last = self.expr(value).await?;
                        let decided = match b.op {
                            BoolOp::And => !self.truth(&last).await?,
                            BoolOp::Or => self.truth(&last).await?,
                        };
                        if decided {
                            break;
                        }
                    }
                    last
                }
                Expr::Compare(c) => {
                    let mut left = self.expr(&c.left).await?;
                    let mut result = Value::Bool(true);
                    for (op, right) in c.ops.iter().zip(c.comparators.iter()) {
                        let right = self.expr(right).await?;
                        result =
                            sync_first!(self, |_me| Ok(operators::compare(*op, &left, &right)?))?;
                        if !matches!(result, Value::Tensor(_)) && !self.truth(&result).await? {
                            break;
                        }
                        left = right;
                    }
                    result
                }
                Expr::If(i) => {
                    if self.test(&i.test).await? {
                        self.expr(&i.body).await?
                    } else {
                        self.expr(&i.orelse).await?
                    }
                }
                Expr::List(l) => Value::list(self.exprs(&l.elts).await?),
                Expr::Set(set) => Value::set(self.exprs(&set.elts).await?)?,
                Expr::SetComp(c) => {
                    Value::set(self.comprehension(&c.generators, &c.elt, None).await?)?
                }
                Expr::Tuple(t) => Value::Tuple(self.exprs(&t.elts).await?.into()),
                Expr::Dict(d) => {
                    let mut entries = Vec::new();
                    for item in &d.items {
                        let Some(key) = &item.key else {
                            return Err(PyException::unsupported("'**' in a dict display").into());
                        };
                        let key = self.expr(key).await?;
                        let value = self.expr(&item.value).await?;
                        entries.push((key, value));
                    }
                    Value::Dict(Rc::new(std::cell::RefCell::new(entries)))
                }
                Expr::Attribute(a) => {
                    let owner = self.expr(&a.value).await?;
                    let found = self.get_attribute(&owner, a.attr.id.as_str())?;
                    match &found {
                        Value::Wrapped(w) if matches!(owner, Value::Instance(_)) => match &**w {
                            super::value::Wrapped::Property(getter) => {
                                self.call(getter, Args::positional(vec![owner])).await?
                            }
                            _ => Value::Wrapped(w.clone()),
                        },
                        _ => found,
                    }
                }
                Expr::Subscript(s) => {
                    let container = self.expr(&s.value).await?;
                    let index = self.subscript(&s.slice).await?;
                    match &container {
                        Value::Instance(i) if i.class.lookup("__getitem__").is_some() => {
                            self.call_dunder(&container, "__getitem__", vec![index])
                                .await?
                        }
                        Value::NnModule(m) if super::objects::holds_module_list(m) => {
                            let children: Vec<Value> =
                                m.children().iter().map(|c| self.object_of(c)).collect();
                            operators::get_item(&Value::list(children), &index)?
                        }
                        _ => sync_first!(self, |_me| Ok(operators::get_item(&container, &index)?))?,
                    }
                }
                Expr::Call(call) => self.call_expr(call).await?,
                Expr::FString(f) => Value::str(&self.fstring(f).await?),
                Expr::ListComp(c) => {
                    Value::list(self.comprehension(&c.generators, &c.elt, None).await?)
                }
                Expr::Generator(c) => {
                    Value::list(self.comprehension(&c.generators, &c.elt, None).await?)
                }
                Expr::DictComp(c) => {
                    let key = c
                        .key
                        .as_deref()
                        .ok_or_else(|| PyException::unsupported("'**' in a dict comprehension"))?;
                    let values = self
                        .comprehension(&c.generators, &c.value, Some(key))
                        .await?;
                    let entries = values
                        .into_iter()
                        .filter_map(|pair| match &pair {
                            Value::Tuple(kv) if kv.len() == 2 => {
                                Some((kv[0].clone(), kv[1].clone()))
                            }
                            _ => None,
                        })
                        .collect();
                    Value::Dict(Rc::new(std::cell::RefCell::new(entries)))
                }
                // `name := value`: binds, and is the value.
                Expr::Named(n) => {
                    let value = self.expr(&n.value).await?;
                    // Inside a comprehension the name binds in the scope around it (PEP 572).
                    let mut comprehensions = Vec::new();
                    while self.stack.len() > 1
                        && self
                            .stack
                            .last()
                            .is_some_and(|a| a.function == COMPREHENSION)
                        && let Some(activation) = self.stack.pop()
                    {
                        comprehensions.push(activation);
                    }
                    let bound = self.assign(&n.target, value.clone()).await;
                    while let Some(activation) = comprehensions.pop() {
                        self.stack.push(activation);
                    }
                    bound?;
                    value
                }
                Expr::Lambda(l) => {
                    let empty = Parameters::default();
                    let parameters = l.parameters.as_deref().unwrap_or(&empty);
                    self.function(
                        "<lambda>".into(),
                        parameters,
                        FunctionBody::Expression(Rc::new((*l.body).clone())),
                        l.range(),
                    )
                    .await?
                }
                Expr::Yield(_) | Expr::YieldFrom(_) => {
                    return Err(PyException::unsupported("'yield'").into());
                }
                _ => return Err(PyException::unsupported("this expression").into()),
            })
        })
    }

    /// A subscript: slices become `slice` tuples for the container to read.
    async fn subscript(&mut self, e: &Expr) -> Result<Value, Flow> {
        match e {
            Expr::Slice(s) => {
                let lower = self.optional(&s.lower).await?;
                let upper = self.optional(&s.upper).await?;
                let step = self.optional(&s.step).await?;
                Ok(operators::slice_value(lower, upper, step))
            }
            Expr::Tuple(t) => {
                let mut parts = Vec::new();
                for elt in &t.elts {
                    parts.push(Box::pin(self.subscript(elt)).await?);
                }
                Ok(Value::Tuple(parts.into()))
            }
            other => self.expr(other).await,
        }
    }

    /// The values a comprehension produces (`(key, value)` pairs when `key` is given), its loop
    /// variables kept in a scope of their own.
    async fn comprehension(
        &mut self,
        generators: &[Comprehension],
        element: &Expr,
        key: Option<&Expr>,
    ) -> Result<Vec<Value>, Flow> {
        let (cell, line) = match self.stack.last() {
            Some(a) => (a.cell.clone(), a.line),
            None => return Ok(Vec::new()),
        };
        let enclosing = self.closure();
        self.stack.push(Activation {
            function: COMPREHENSION.into(),
            cell,
            line,
            locals: Some(Scope::default()),
            enclosing,
            encloses: true,
            globals: Vec::new(),
            nonlocals: Vec::new(),
            this: None,
        });
        let mut out = Vec::new();
        let result = self.generate(generators, element, key, &mut out).await;
        self.stack.pop();
        result.map(|()| out)
    }

    fn generate<'a>(
        &'a mut self,
        generators: &'a [Comprehension],
        element: &'a Expr,
        key: Option<&'a Expr>,
        out: &'a mut Vec<Value>,
    ) -> Eval<'a, ()> {
        Box::pin(async move {
            let Some((first, rest)) = generators.split_first() else {
                let value = self.expr(element).await?;
                out.push(match key {
                    Some(k) => Value::Tuple(Rc::from(vec![self.expr(k).await?, value])),
                    None => value,
                });
                return Ok(());
            };
            let iterable = self.expr(&first.iter).await?;
            let mut items = self.iter_of(&iterable).await?;
            'items: while let Some(item) = self.next_of(&mut items).await? {
                self.assign(&first.target, item).await?;
                for condition in &first.ifs {
                    if !self.test(condition).await? {
                        continue 'items;
                    }
                }
                self.generate(rest, element, key, out).await?;
            }
            Ok(())
        })
    }

    async fn optional(&mut self, e: &Option<Box<Expr>>) -> Result<Value, Flow> {
        match e {
            Some(e) => self.expr(e).await,
            None => Ok(Value::None),
        }
    }

    async fn exprs(&mut self, items: &[Expr]) -> Result<Vec<Value>, Flow> {
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            if let Expr::Starred(s) = item {
                let iterable = self.expr(&s.value).await?;
                out.extend(self.collect(&iterable).await?);
            } else {
                out.push(self.expr(item).await?);
            }
        }
        Ok(out)
    }

    async fn fstring(&mut self, f: &ruff_python_ast::ExprFString) -> Result<String, Flow> {
        use ruff_python_ast::FStringPart;
        let mut out = String::new();
        for part in f.value.iter() {
            match part {
                FStringPart::Literal(lit) => out.push_str(&lit.value),
                FStringPart::FString(fs) => out.push_str(&self.interpolate(&fs.elements).await?),
            }
        }
        Ok(out)
    }

    /// The text of an f-string's elements; a format spec is itself such a list (`{x:{width}}`).
    fn interpolate<'a>(
        &'a mut self,
        elements: &'a ruff_python_ast::InterpolatedStringElements,
    ) -> Eval<'a, String> {
        use ruff_python_ast::{ConversionFlag, InterpolatedStringElement};
        Box::pin(async move {
            let mut out = String::new();
            for element in elements.iter() {
                match element {
                    InterpolatedStringElement::Literal(lit) => out.push_str(&lit.value),
                    InterpolatedStringElement::Interpolation(i) => {
                        // `{x=}` prints its own text first, then the value (its repr unless a
                        // conversion or a spec says otherwise).
                        if let Some(debug) = &i.debug_text {
                            out.push_str(debug.as_str());
                        }
                        let value = self.expr(&i.expression).await?;
                        self.fetch_values(&value).await?;
                        let spec = match &i.format_spec {
                            Some(spec) => self.interpolate(&spec.elements).await?,
                            None => String::new(),
                        };
                        let learners = matches!(
                            value,
                            Value::Instance(_)
                                | Value::List(_)
                                | Value::Tuple(_)
                                | Value::Dict(_)
                                | Value::Set(_)
                        );
                        let conversion = match i.conversion {
                            ConversionFlag::None if i.debug_text.is_some() && spec.is_empty() => {
                                ConversionFlag::Repr
                            }
                            other => other,
                        };
                        let value = match conversion {
                            ConversionFlag::Repr => Value::str(&self.text_of(&value, false).await?),
                            ConversionFlag::Str => Value::str(&self.text_of(&value, true).await?),
                            // `format(x, "")` is `str(x)`.
                            _ if learners && spec.is_empty() => {
                                Value::str(&self.text_of(&value, true).await?)
                            }
                            _ => value,
                        };
                        out.push_str(&operators::format(&value, &spec)?);
                    }
                }
            }
            Ok(out)
        })
    }

    /// `template % args`, with learners' `__str__` and `__repr__` for `%s` and `%r`.
    async fn percent_format(&mut self, template: &str, args: &Value) -> Result<String, Flow> {
        let steps = super::percent::plan(template, args)?;
        let mut texts = Vec::with_capacity(steps.len());
        for step in &steps {
            texts.push(match step.argument() {
                Some((value, Some(as_str))) => Some(self.text_of(value, as_str).await?),
                Some((value, None)) => {
                    self.fetch_values(value).await?;
                    None
                }
                None => None,
            });
        }
        Ok(super::percent::assemble(steps, texts)?)
    }

    async fn call_expr(&mut self, call: &ExprCall) -> Result<Value, Flow> {
        let callee = self.expr(&call.func).await?;
        let mut positional = Vec::new();
        for arg in call.arguments.args.iter() {
            if let Expr::Starred(s) = arg {
                let iterable = self.expr(&s.value).await?;
                positional.extend(self.collect(&iterable).await?);
            } else {
                positional.push(self.expr(arg).await?);
            }
        }
        let mut keywords = Vec::new();
        // The parser refuses a name given twice, so only `**` can repeat one.
        let unpacking = unpacks(call);
        for keyword in call.arguments.keywords.iter() {
            let value = self.expr(&keyword.value).await?;
            match &keyword.arg {
                Some(name) if !unpacking => {
                    keywords.push((name.id.to_string(), value));
                }
                Some(name) => {
                    add_keyword(&mut keywords, name.id.to_string(), value, &callee, call)?
                }
                // `f(**mapping)`: a dict's items, each key a string.
                None => {
                    for (name, value) in unpacked_keywords(&callee, &call.func, &value)? {
                        add_keyword(&mut keywords, name, value, &callee, call)?;
                    }
                }
            }
        }
        self.call(
            &callee,
            Args {
                positional,
                keywords,
            },
        )
        .await
    }

    /// Runs a learner's callable to the end where the engine needs its answer at once (a
    /// `map_location` function). Pauses are held off meanwhile, so the call never waits on the
    /// event loop; one that still would (a `time.sleep` in the browser) fails plainly.
    pub(super) fn call_now(&mut self, callee: &Value, args: Args) -> Result<Value, Flow> {
        let held = std::mem::replace(&mut self.hold_pauses, true);
        let outcome = {
            let call = std::pin::pin!(self.call(callee, args));
            let mut context = std::task::Context::from_waker(std::task::Waker::noop());
            match call.poll(&mut context) {
                std::task::Poll::Ready(outcome) => outcome,
                std::task::Poll::Pending => Err(PyException::unsupported(
                    "waiting (time.sleep, a GPU readback) inside a map_location function",
                )
                .into()),
            }
        };
        self.hold_pauses = held;
        outcome
    }

    /// Calls any callable value.
    pub(crate) async fn call(&mut self, callee: &Value, args: Args) -> Result<Value, Flow> {
        match callee {
            Value::Function(f) => self.call_function(f, None, args).await,
            Value::BoundMethod(object, f) => {
                let class = match &**object {
                    Value::Instance(i) => defining_class(&i.class, f),
                    _ => None,
                };
                let mut positional = vec![(**object).clone()];
                positional.extend(args.positional);
                let args = Args {
                    positional,
                    keywords: args.keywords,
                };
                match class {
                    Some(class) => self.call_function_of(f, class, args).await,
                    None => self.call_function(f, None, args).await,
                }
            }
            Value::Class(class) => self.instantiate(class, args).await,
            Value::Typing(alias) => Ok(super::stdlib::call_typing(alias, &args)?),
            Value::GradMode(mode) => match args.positional.as_slice() {
                [f] if super::builtins::is_callable(f) => Ok(Value::Wrapped(Rc::new(
                    super::value::Wrapped::GradMode(*mode, f.clone()),
                ))),
                _ => Err(PyException::new(
                    ExcType::TypeError,
                    "no_grad()/enable_grad() decorate one function",
                )
                .into()),
            },
            Value::Wrapped(wrapped) => match &**wrapped {
                super::value::Wrapped::GradMode(mode, f) => {
                    let previous = self.session.set_grad_enabled(*mode);
                    let outcome = Box::pin(self.call(f, args)).await;
                    self.session.set_grad_enabled(previous);
                    outcome
                }
                super::value::Wrapped::StaticMethod(f) => Box::pin(self.call(f, args)).await,
                super::value::Wrapped::Property(_) => Err(PyException::new(
                    ExcType::TypeError,
                    "'property' object is not callable",
                )
                .into()),
                super::value::Wrapped::ClassMethod(_) => Err(PyException::new(
                    ExcType::TypeError,
                    "'classmethod' object is not callable",
                )
                .into()),
            },
            Value::Instance(instance) => match &instance.module {
                Some(module) => self.call_module(module, args).await,
                None => match instance.class.lookup("__call__") {
                    Some(Value::Function(ref f)) => {
                        let method = Value::BoundMethod(Box::new(callee.clone()), f.clone());
                        Box::pin(self.call(&method, args)).await
                    }
                    _ => Err(PyException::new(
                        ExcType::TypeError,
                        format!("'{}' object is not callable", instance.class.name),
                    )
                    .into()),
                },
            },
            Value::NnClass(name) => self.construct_nn(name, args).map_err(Flow::from),
            Value::NnModule(module) => self.call_module(module, args).await,
            Value::Method(owner, name) if matches!(**owner, Value::NnModule(_)) => {
                let Value::NnModule(module) = &**owner else {
                    return Ok(Value::None);
                };
                self.engine_call(|me| {
                    me.module_method(module, name, args.clone())
                        .map_err(Flow::from)
                })
                .await
            }
            Value::Method(owner, name) if matches!(**owner, Value::Optimizer(_)) => {
                let Value::Optimizer(optimizer) = &**owner else {
                    return Ok(Value::None);
                };
                self.engine_call(|_| {
                    super::objects::optimizer_method(optimizer, name, &args).map_err(Flow::from)
                })
                .await
            }
            Value::Builtin("super") => self
                .stack
                .iter()
                .rev()
                .find_map(|a| a.this.clone())
                .map(|(object, class)| Value::Super(Box::new(object), class))
                .ok_or_else(|| {
                    PyException::new(ExcType::RuntimeError, "super(): no arguments").into()
                }),
            Value::Builtin("__noop__") => Ok(Value::None),
            Value::Builtin(name) | Value::Type(name)
                if super::builtins::TYPES.contains(name) || matches!(callee, Value::Builtin(_)) =>
            {
                Box::pin(self.call_builtin(name, args)).await
            }
            Value::ModuleFn(module, name) => {
                Box::pin(self.call_module_function(module, name, args)).await
            }
            Value::Method(owner, name) if &**name == "backward" => {
                // A backward pass cannot run twice: in the browser it waits for readbacks
                // between nodes instead of being retried.
                let result = match &*owner.resolved() {
                    Value::Tensor(t) => {
                        let (gradient, retain) = super::attributes::backward_args(&args);
                        t.backward_async(gradient.as_ref(), retain).await?;
                        Value::None
                    }
                    _ => super::attributes::call_method(owner, name, args)?,
                };
                self.after_backward().await?;
                Ok(result)
            }
            Value::Method(owner, name) => {
                // A str, list, dict or set method consumes an iterable argument whole
                // (`", ".join(map(str, xs))`, `xs.extend(x for …)`): lazy ones are drained here.
                let mut args = args;
                if matches!(
                    **owner,
                    Value::Str(_) | Value::List(_) | Value::Dict(_) | Value::Set(_)
                ) {
                    for arg in &mut args.positional {
                        if let Value::Iterator(_) = arg {
                            *arg = Value::list(self.collect(arg).await?);
                        }
                    }
                }
                self.engine_call(|_| {
                    super::attributes::call_method(owner, name, args.clone()).map_err(Flow::from)
                })
                .await
            }
            Value::ExcClass(kind) => {
                let message = args
                    .positional
                    .first()
                    .map_or(String::new(), Value::str_text);
                Ok(Value::Exception(Rc::new(PyException::new(
                    kind.clone(),
                    message,
                ))))
            }
            other => Err(PyException::new(
                ExcType::TypeError,
                format!("'{}' object is not callable", other.type_name()),
            )
            .into()),
        }
    }

    /// Calls a method defined in `class` (so that `super()` inside it searches `class`'s base).
    pub(super) async fn call_function_of(
        &mut self,
        f: &Function,
        class: Rc<Class>,
        args: Args,
    ) -> Result<Value, Flow> {
        let object = args.positional.first().cloned().unwrap_or(Value::None);
        self.call_function(f, Some((object, class)), args).await
    }

    async fn call_function(
        &mut self,
        f: &Function,
        this: Option<(Value, Rc<Class>)>,
        args: Args,
    ) -> Result<Value, Flow> {
        let stack_used = self.stack_base.abs_diff(stack_position());
        if self.stack.len() >= MAX_DEPTH || stack_used > self.limits.stack_bytes {
            return Err(PyException::new(
                ExcType::RecursionError,
                "maximum recursion depth exceeded",
            )
            .into());
        }
        let locals = bind_arguments(f, args)?;
        self.stack.push(Activation {
            function: f.name.clone(),
            cell: f.cell.clone(),
            line: f.line,
            locals: Some(Rc::new(std::cell::RefCell::new(locals))),
            enclosing: f.enclosing.clone(),
            encloses: true,
            globals: Vec::new(),
            nonlocals: Vec::new(),
            this,
        });
        let outcome = match &f.body {
            FunctionBody::Statements(body) => match self.block(body).await {
                Ok(()) => Ok(Value::None),
                Err(Flow::Return(v)) => Ok(v),
                Err(other) => Err(other),
            },
            FunctionBody::Expression(e) => self.expr(e).await,
        };
        let activation = self.stack.pop();
        match outcome {
            Err(Flow::Error(mut e)) => {
                if let Some(a) = activation {
                    e.frames.insert(0, frame_of(&a));
                }
                Err(Flow::Error(e))
            }
            other => other,
        }
    }
}

/// A call's arguments bound to a function's parameters, with Python's errors for what does not
/// fit: positional, then keywords, then defaults; extras into `*args` and `**kwargs`.
fn bind_arguments(f: &Function, args: Args) -> Result<Names, PyException> {
    let p = &f.parameters;
    let name = &f.name;
    let positional: Vec<&str> = p
        .posonlyargs
        .iter()
        .chain(p.args.iter())
        .map(|a| a.parameter.name.id.as_str())
        .collect();
    let mut locals = Names::default();
    let Args {
        positional: given,
        keywords,
    } = args;
    if given.len() > positional.len() && p.vararg.is_none() {
        return Err(PyException::new(
            ExcType::TypeError,
            format!(
                "{name}() takes {} positional argument{} but {} were given",
                positional.len(),
                if positional.len() == 1 { "" } else { "s" },
                given.len()
            ),
        ));
    }
    let mut extra = Vec::new();
    for (i, value) in given.into_iter().enumerate() {
        match positional.get(i) {
            Some(param) => {
                locals.insert((*param).to_owned(), value);
            }
            None => extra.push(value),
        }
    }
    if let Some(vararg) = &p.vararg {
        locals.insert(vararg.name.id.to_string(), Value::Tuple(extra.into()));
    }
    let keyword_only: Vec<&str> = p
        .kwonlyargs
        .iter()
        .map(|a| a.parameter.name.id.as_str())
        .collect();
    let mut spare = Vec::new();
    for (key, value) in keywords {
        if positional.contains(&key.as_str()) || keyword_only.contains(&key.as_str()) {
            if locals.contains_key(&key) {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!("{name}() got multiple values for argument '{key}'"),
                ));
            }
            locals.insert(key, value);
        } else if p.kwarg.is_some() {
            spare.push((Value::str(&key), value));
        } else {
            return Err(PyException::new(
                ExcType::TypeError,
                format!("{name}() got an unexpected keyword argument '{key}'"),
            ));
        }
    }
    if let Some(kwarg) = &p.kwarg {
        locals.insert(
            kwarg.name.id.to_string(),
            Value::Dict(Rc::new(std::cell::RefCell::new(spare))),
        );
    }
    let first_default = positional.len() - f.defaults.len();
    let mut missing = Vec::new();
    for (i, param) in positional.iter().enumerate() {
        if !locals.contains_key(*param) {
            match i.checked_sub(first_default) {
                Some(d) => {
                    locals.insert((*param).to_owned(), f.defaults[d].clone());
                }
                None => missing.push(format!("'{param}'")),
            }
        }
    }
    for param in keyword_only {
        if !locals.contains_key(param) {
            match f.keyword_defaults.iter().find(|(k, _)| k == param) {
                Some((_, v)) => {
                    locals.insert(param.to_owned(), v.clone());
                }
                None => missing.push(format!("'{param}'")),
            }
        }
    }
    if !missing.is_empty() {
        let names = match missing.as_slice() {
            [one] => one.clone(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
            [] => String::new(),
        };
        return Err(PyException::new(
            ExcType::TypeError,
            format!(
                "{name}() missing {} required positional argument{}: {names}",
                missing.len(),
                if missing.len() == 1 { "" } else { "s" }
            ),
        ));
    }
    Ok(locals)
}

/// The class in `class`'s ancestry whose body defined `f`.
fn defining_class(class: &Rc<Class>, f: &Rc<Function>) -> Option<Rc<Class>> {
    let defines = class
        .namespace
        .borrow()
        .values()
        .any(|v| matches!(v, Value::Function(g) if Rc::ptr_eq(g, f)));
    if defines {
        Some(class.clone())
    } else {
        class.base.as_ref().and_then(|b| defining_class(b, f))
    }
}

fn frame_of(a: &Activation) -> Frame {
    Frame {
        file: a.cell.name.to_string(),
        line: a.line,
        function: a.function.clone(),
        text: a.cell.line(a.line).to_owned(),
    }
}

/// How a statement outside the subset is named in its error.
fn statement_name(stmt: &Stmt) -> String {
    match stmt {
        Stmt::Match(_) => "'match'",
        _ => "this statement",
    }
    .to_owned()
}

/// The name of a comprehension's own scope (a walrus inside binds in the scope around it).
const COMPREHENSION: &str = "<listcomp>";

/// Whether a call unpacks a mapping into its keywords (`f(**kwargs)`).
fn unpacks(call: &ExprCall) -> bool {
    call.arguments.keywords.iter().any(|k| k.arg.is_none())
}

/// Adds a keyword of a call that unpacks a mapping, where a name may come twice.
fn add_keyword(
    keywords: &mut Vec<(String, Value)>,
    name: String,
    value: Value,
    callee: &Value,
    call: &ExprCall,
) -> Result<(), PyException> {
    if keywords.iter().any(|(k, _)| *k == name) {
        return Err(PyException::new(
            ExcType::TypeError,
            format!(
                "{}() got multiple values for keyword argument '{name}'",
                callee_name(callee, &call.func)
            ),
        ));
    }
    keywords.push((name, value));
    Ok(())
}

/// The keywords `f(**value)` passes: a dict's items, whose keys must be strings.
fn unpacked_keywords(
    callee: &Value,
    func: &Expr,
    value: &Value,
) -> Result<Vec<(String, Value)>, PyException> {
    let Value::Dict(entries) = &*value.resolved() else {
        return Err(PyException::new(
            ExcType::TypeError,
            format!(
                "{}() argument after ** must be a mapping, not {}",
                callee_name(callee, func),
                value.type_name()
            ),
        ));
    };
    entries
        .borrow()
        .iter()
        .map(|(key, value)| match key {
            Value::Str(name) => Ok((name.to_string(), value.clone())),
            _ => Err(PyException::new(
                ExcType::TypeError,
                "keywords must be strings",
            )),
        })
        .collect()
}

/// How CPython names a callee in a call's errors: a cell's function by its module and name
/// (`__main__.step`), a builtin by its name, anything else as the call wrote it.
fn callee_name(callee: &Value, func: &Expr) -> String {
    fn written(func: &Expr) -> String {
        match func {
            Expr::Name(n) => n.id.to_string(),
            Expr::Attribute(a) => format!("{}.{}", written(&a.value), a.attr.id),
            _ => "function".into(),
        }
    }
    match callee {
        Value::Function(f) | Value::BoundMethod(_, f) => format!("__main__.{}", f.name),
        Value::Builtin(name) => (*name).to_owned(),
        _ => written(func),
    }
}

/// Whether [`Interpreter::simple_expr`] evaluates `e`: it holds only literals, names, arithmetic
/// and single comparisons, which run synchronously and have no effects on the cell's flow.
fn is_simple(e: &Expr) -> bool {
    match e {
        Expr::NumberLiteral(_)
        | Expr::StringLiteral(_)
        | Expr::BooleanLiteral(_)
        | Expr::NoneLiteral(_)
        | Expr::Name(_) => true,
        // `"…" % x` formats with learners' `__str__`, which needs the awaiting path.
        Expr::BinOp(b)
            if b.op == ruff_python_ast::Operator::Mod
                && matches!(*b.left, Expr::StringLiteral(_)) =>
        {
            false
        }
        Expr::BinOp(b) => is_simple(&b.left) && is_simple(&b.right),
        Expr::UnaryOp(u) => is_simple(&u.operand),
        Expr::Compare(c) => {
            c.ops.len() == 1 && is_simple(&c.left) && c.comparators.iter().all(is_simple)
        }
        _ => false,
    }
}

/// A synchronous engine call on a hot path: run at once, and only when a read could not wait
/// (in the browser) run again through [`Interpreter::engine_call`], which awaits the readbacks.
macro_rules! sync_first {
    ($self:ident, |$me:ident| $call:expr) => {{
        let mark = $self.session.retry_mark();
        let $me = &mut *$self;
        match $call {
            Err(flow) if would_block(&flow) => {
                $self.session.rewind(mark);
                // Boxed, so that the hot path's future stays small.
                Box::pin($self.engine_call(|$me| $call)).await
            }
            outcome => outcome,
        }
    }};
}
use sync_first;

/// Whether `flow` is a read of GPU memory that could not wait for its readback (in the browser).
fn would_block(flow: &Flow) -> bool {
    matches!(flow, Flow::Error(e) if e.engine.as_deref().is_some_and(tolab_engine::Error::is_would_block))
}

impl Interpreter {
    /// Runs a synchronous call into the engine. In the browser a read of GPU memory whose bytes
    /// are not back yet fails with `WouldBlock` before the call has changed anything (reads come
    /// before writes): the readbacks it asked for are awaited (the browser's sync point) and the
    /// call runs again, the trace rolled back to where it began. Natively reads never fail so.
    ///
    /// A call that reads GPU memory it wrote itself (an op the CPU computes from a result the GPU
    /// made in the same call) never finds its bytes back in time: after a few rounds its error
    /// stands, and the learner reads it.
    pub(super) async fn engine_call<T>(
        &mut self,
        mut call: impl FnMut(&mut Self) -> Result<T, Flow>,
    ) -> Result<T, Flow> {
        const ROUNDS: usize = 4;
        let mut round = 1;
        loop {
            let mark = self.session.retry_mark();
            match call(self) {
                Err(flow) if round < ROUNDS && would_block(&flow) => {
                    self.session.rewind(mark);
                    self.session.complete_readbacks().await?;
                    round += 1;
                }
                outcome => return outcome,
            }
        }
    }

    /// Python's truth value of `value` (a one-element tensor's is read from the device).
    pub(super) async fn truth(&mut self, value: &Value) -> Result<bool, Flow> {
        self.fetch_values(value).await?;
        Ok(value.truth()?)
    }

    /// The truth value of the expression `e` (`if`, `while`, `assert`, comprehension filters).
    async fn test(&mut self, e: &Expr) -> Result<bool, Flow> {
        let value = self.expr(e).await?;
        self.truth(&value).await
    }

    /// Brings the values of every GPU tensor in `value` back to the host before something
    /// synchronous prints or tests them (in the browser, the await is the sync point).
    pub(super) async fn fetch_values(&mut self, value: &Value) -> Result<(), Flow> {
        let holds_tensors = matches!(
            value,
            Value::Tensor(_)
                | Value::Parameter(_)
                | Value::List(_)
                | Value::Tuple(_)
                | Value::Dict(_)
                | Value::Set(_)
                | Value::StructSeq(_)
        );
        if !holds_tensors {
            return Ok(());
        }
        for tensor in super::builtins::tensors_in(value) {
            tensor.fetch().await?;
        }
        Ok(())
    }
}
