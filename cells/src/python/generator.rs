//! Generators: a function with `yield` and a generator expression run lazily, one item per
//! `next()`, with `send`, `throw`, `close` and `yield from` as in Python.
//!
//! How a body is suspended mid-statement in an async tree walker: the interpreter's state (the
//! notebook's names, the cell's budgets, the engine session) is one value that only the code
//! running now may hold. A generator owns a [`hollow`](Interpreter::hollow) interpreter holding
//! only its own frames, and its body is a future over that interpreter. Resuming it parks the
//! caller's interpreter in the generator's [`Link`]; the body [`adopt`](Interpreter::adopt)s
//! the state from there, runs to its next `yield`, gives the state back, leaves the value in the
//! link and returns `Pending`. The caller takes its interpreter back and goes on with the value.
//! A `Pending` with no value left in the link is a real wait (a GPU readback in the browser), which
//! the caller passes on to whoever polls it. A suspended generator is just a future nobody polls.
//!
//! Coroutines are the same machine, as in CPython: `async def` makes one, and `await x` is
//! `yield from` of `x`'s awaitable, so what a coroutine yields (an `asyncio` future, or nothing
//! for `sleep(0)`) reaches whoever drives it with `send` (the event loop of `py/asyncio.py`).
//! An async generator marks the values its own `yield`s give ([`Link::wrapped`]); each
//! `__anext__()` is an awaitable ([`Kind::AsyncStep`]) that passes the unmarked ones on to
//! the driver and evaluates to the first marked one.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::Poll;

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{Expr, ExprGenerator, Stmt};

use super::args::Flow;
use super::exception::{ExcType, PyException};
use super::interpreter::{Activation, Interpreter, frame_of};
use super::iteration::Iter;
use super::value::{Scope, Value};

/// What a generator object is to Python.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A function with `yield`, or a generator expression.
    Generator,
    /// An `async def` function's call.
    Coroutine,
    /// An `async def` function with `yield`.
    AsyncGenerator,
    /// What an async generator's `__anext__`, `asend`, `athrow` and `aclose` return.
    AsyncStep,
}

impl Kind {
    /// `type(g).__name__`.
    pub(crate) fn type_name(self) -> &'static str {
        match self {
            Kind::Generator => "generator",
            Kind::Coroutine => "coroutine",
            Kind::AsyncGenerator => "async_generator",
            Kind::AsyncStep => "async_generator_asend",
        }
    }

    /// The methods its objects have.
    pub(crate) fn methods(self) -> &'static [&'static str] {
        match self {
            Kind::Generator => &["send", "throw", "close", "__next__"],
            Kind::Coroutine | Kind::AsyncStep => &["send", "throw", "close", "__await__"],
            Kind::AsyncGenerator => &["__anext__", "__aiter__", "asend", "athrow", "aclose"],
        }
    }
}

/// A generator object: a generator, a coroutine or an async generator (see [`Kind`]).
pub struct Generator {
    /// The function it runs (`<genexpr>` for a generator expression), for its repr.
    pub name: String,
    /// Its body, until it returns or raises (taken out while it runs).
    body: RefCell<Option<Running>>,
    link: Rc<Link>,
    started: Cell<bool>,
    running: Cell<bool>,
}

/// A generator's body as a future.
type Running = Pin<Box<dyn Future<Output = Result<Value, Flow>>>>;

/// What a generator and whoever resumes it exchange.
pub(crate) struct Link {
    /// The interpreter the running side is not using: while the generator runs, its caller's
    /// (whose state the generator has adopted); otherwise a hollow one.
    parked: RefCell<Interpreter>,
    /// The value of the `yield` that suspended the body.
    yielded: RefCell<Option<Value>>,
    /// What the body's `yield` evaluates to when it resumes (`send`), or raises (`throw`).
    resume: RefCell<Option<Resume>>,
    pub(crate) kind: Kind,
    /// An async generator's value in `yielded` came from its own `yield` (not from an `await`
    /// inside it).
    wrapped: Cell<bool>,
}

pub(crate) enum Resume {
    Send(Value),
    Throw(PyException),
}

/// How a resumption ended.
pub(crate) enum Step {
    Yielded(Value),
    /// The body returned (with `return value`: what `yield from` evaluates to).
    Returned(Value),
}

/// What a generator runs.
pub(crate) enum Body {
    Statements(Rc<[Stmt]>),
    /// A lambda whose expression yields.
    Expression(Rc<Expr>),
    /// A generator expression: its first loop's iterator was made where it was written.
    Comprehension(Rc<ExprGenerator>, Option<Iter>),
    /// One step of an async generator, resumed with `resume`; `closing` for `aclose()`.
    AsyncStep {
        generator: Rc<Generator>,
        resume: Option<Resume>,
        closing: bool,
    },
}

impl Generator {
    pub(crate) fn kind(&self) -> Kind {
        self.link.kind
    }
}

impl Interpreter {
    /// A generator of `kind` that runs `body` in `activation` (the called function's frame,
    /// its arguments bound) when first resumed.
    pub(crate) fn generator(&self, mut activation: Activation, body: Body, kind: Kind) -> Value {
        let link = Rc::new(Link {
            parked: RefCell::new(self.hollow()),
            yielded: RefCell::new(None),
            resume: RefCell::new(None),
            kind,
            wrapped: Cell::new(false),
        });
        let name = activation.function.clone();
        activation.generator = Some(link.clone());
        let mut me = self.hollow();
        me.stack.push(activation);
        let own = link.clone();
        let future = async move {
            let mut body = body;
            me.adopt(&mut own.parked.borrow_mut());
            let outcome = match own.resume.take() {
                // Thrown into before it started: raised at its first line.
                Some(Resume::Throw(e)) => Err(e.into()),
                _ => me.run_generator_body(&mut body).await,
            };
            let activation = me.stack.pop();
            me.adopt(&mut own.parked.borrow_mut());
            match outcome {
                Err(Flow::Error(mut e)) => {
                    // An async generator's step has no frame of its own in a traceback.
                    if let Some(a) = activation.filter(|_| kind != Kind::AsyncStep) {
                        e.frames.insert(0, frame_of(&a));
                    }
                    Err(Flow::Error(e))
                }
                Err(Flow::Return(v)) => Ok(v),
                other => other,
            }
        };
        let generator = Generator {
            name,
            body: RefCell::new(Some(Box::pin(future))),
            link,
            started: Cell::new(false),
            running: Cell::new(false),
        };
        match kind {
            Kind::Generator => {
                Value::Iterator(Rc::new(RefCell::new(Iter::Generator(Rc::new(generator)))))
            }
            _ => Value::Coroutine(Rc::new(generator)),
        }
    }

    async fn run_generator_body(&mut self, body: &mut Body) -> Result<Value, Flow> {
        match body {
            Body::Statements(statements) => self.block(statements).await.map(|()| Value::None),
            Body::Expression(e) => self.expr(e).await,
            Body::Comprehension(e, first) => {
                let first = first.take();
                self.lazy_comprehension(e, first)
                    .await
                    .map(|()| Value::None)
            }
            Body::AsyncStep {
                generator,
                resume,
                closing,
            } => {
                let resume = resume.take().unwrap_or(Resume::Send(Value::None));
                self.async_step(&generator.clone(), resume, *closing).await
            }
        }
    }

    /// Runs an async generator to the next value its own `yield` gives (what the step
    /// evaluates to), passing on to the driver what its `await`s yield; at its end,
    /// `StopAsyncIteration` (for `aclose()`, `None`).
    async fn async_step(
        &mut self,
        generator: &Rc<Generator>,
        mut resume: Resume,
        closing: bool,
    ) -> Result<Value, Flow> {
        loop {
            match self.resume(generator, resume).await {
                Ok(Step::Yielded(value)) if generator.link.wrapped.take() => {
                    return match closing {
                        false => Ok(value),
                        true => Err(PyException::new(
                            ExcType::RuntimeError,
                            "async generator ignored GeneratorExit",
                        )
                        .into()),
                    };
                }
                Ok(Step::Yielded(value)) => {
                    resume = match self.yield_value(value).await {
                        Ok(sent) => Resume::Send(sent),
                        Err(Flow::Error(e)) => Resume::Throw(*e),
                        Err(other) => return Err(other),
                    };
                }
                Ok(Step::Returned(_)) if closing => return Ok(Value::None),
                Ok(Step::Returned(_)) => {
                    return Err(PyException::new(stop_async_iteration(), "").into());
                }
                Err(Flow::Error(e))
                    if closing
                        && matches!(e.kind.name(), "GeneratorExit" | "StopAsyncIteration") =>
                {
                    return Ok(Value::None);
                }
                Err(other) => return Err(other),
            }
        }
    }

    /// An async generator's `__anext__()`, `asend(v)`, `athrow(e)` or `aclose()`: an awaitable
    /// that runs it one step.
    pub(crate) fn async_generator_step(
        &self,
        generator: &Rc<Generator>,
        resume: Option<Resume>,
        closing: bool,
    ) -> Result<Value, Flow> {
        let (cell, line) = self
            .stack
            .last()
            .map(|a| (a.cell.clone(), a.line()))
            .ok_or_else(|| PyException::new(ExcType::RuntimeError, "no cell is running"))?;
        let body = Body::AsyncStep {
            generator: generator.clone(),
            resume,
            closing,
        };
        let activation = Activation::top_level("__anext__", cell, line);
        Ok(self.generator(activation, body, Kind::AsyncStep))
    }

    /// `(element for target in iterable if …)`: the first iterable is evaluated now, where
    /// the expression is written (so `(x for x in 5)` fails here, as in Python); the rest runs
    /// item by item in a scope of its own.
    pub(crate) async fn generator_expression(&mut self, e: &ExprGenerator) -> Result<Value, Flow> {
        let Some(first) = e.generators.first() else {
            return Ok(Value::None);
        };
        let iterable = self.expr(&first.iter).await?;
        let items = self.iter_of(&iterable).await?;
        let (cell, line, qualifier) = match self.stack.last() {
            Some(a) => (a.cell.clone(), a.line(), a.qualified("<genexpr>")),
            None => return Ok(Value::None),
        };
        let activation = Activation {
            qualifier: qualifier.into(),
            function: "<genexpr>".into(),
            cell,
            line,
            at: None,
            locals: Some(Scope::default()),
            enclosing: self.closure(),
            encloses: true,
            globals: Vec::new(),
            nonlocals: Vec::new(),
            this: None,
            generator: None,
            assigned: None,
        };
        Ok(self.generator(
            activation,
            Body::Comprehension(Rc::new(e.clone()), Some(items)),
            Kind::Generator,
        ))
    }

    /// Runs a generator to its next `yield` (or its end), sending it `resume`.
    pub(crate) async fn resume(
        &mut self,
        generator: &Generator,
        resume: Resume,
    ) -> Result<Step, Flow> {
        if generator.running.get() {
            return Err(
                PyException::new(ExcType::ValueError, "generator already executing").into(),
            );
        }
        let taken = generator.body.borrow_mut().take();
        let Some(mut body) = taken else {
            let reused = match generator.kind() {
                Kind::Coroutine => "cannot reuse already awaited coroutine",
                Kind::AsyncStep => "cannot reuse already awaited __anext__()/asend()",
                Kind::Generator | Kind::AsyncGenerator => "",
            };
            return match resume {
                _ if !reused.is_empty() => {
                    Err(PyException::new(ExcType::RuntimeError, reused).into())
                }
                Resume::Throw(e) => Err(e.into()),
                Resume::Send(_) => Ok(Step::Returned(Value::None)),
            };
        };
        if !generator.started.get()
            && let Resume::Send(value) = &resume
            && !matches!(value, Value::None)
        {
            *generator.body.borrow_mut() = Some(body);
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "can't send non-None value to a just-started {}",
                    generator.kind().type_name().replace('_', " ")
                ),
            )
            .into());
        }
        generator.started.set(true);
        generator.running.set(true);
        let link = &generator.link;
        *link.resume.borrow_mut() = Some(resume);
        std::mem::swap(self, &mut link.parked.borrow_mut());
        let polled = std::future::poll_fn(|context| match body.as_mut().poll(context) {
            Poll::Ready(outcome) => Poll::Ready(Some(outcome)),
            Poll::Pending if link.yielded.borrow().is_some() => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        })
        .await;
        std::mem::swap(self, &mut link.parked.borrow_mut());
        generator.running.set(false);
        let Some(outcome) = polled else {
            *generator.body.borrow_mut() = Some(body);
            let value = link.yielded.take().unwrap_or(Value::None);
            return Ok(Step::Yielded(value));
        };
        match outcome {
            Ok(value) => Ok(Step::Returned(value)),
            // PEP 479: a StopIteration escaping a generator's body would end whoever iterates
            // it silently (and a StopAsyncIteration, whoever iterates an async generator).
            Err(Flow::Error(e))
                if e.kind == ExcType::StopIteration
                    || (generator.kind() == Kind::AsyncGenerator
                        && e.kind.name() == "StopAsyncIteration") =>
            {
                let mut error = PyException::new(
                    ExcType::RuntimeError,
                    format!(
                        "{} raised {}",
                        generator.kind().type_name().replace('_', " "),
                        e.kind.name()
                    ),
                );
                error.frames = e.frames;
                Err(error.into())
            }
            Err(other) => Err(other),
        }
    }

    /// A `yield value` expression in a generator's body (in an async generator's, the value
    /// its `async for` gets).
    pub(crate) async fn yield_expression(&mut self, value: Value) -> Result<Value, Flow> {
        if let Some(link) = self.stack.iter().rev().find_map(|a| a.generator.as_ref()) {
            match link.kind {
                Kind::AsyncGenerator => link.wrapped.set(true),
                Kind::Coroutine => {
                    return Err(PyException::new(
                        ExcType::SyntaxError,
                        "'yield' inside async function",
                    )
                    .into());
                }
                Kind::Generator | Kind::AsyncStep => {}
            }
        }
        self.yield_value(value).await
    }

    /// Suspends the generator whose body runs, handing `value` to whoever resumed it; what
    /// it is resumed with.
    pub(crate) async fn yield_value(&mut self, value: Value) -> Result<Value, Flow> {
        let Some(link) = self.stack.iter().rev().find_map(|a| a.generator.clone()) else {
            return Err(PyException::new(ExcType::SyntaxError, "'yield' outside function").into());
        };
        *link.yielded.borrow_mut() = Some(value);
        self.adopt(&mut link.parked.borrow_mut());
        Suspend(false).await;
        self.adopt(&mut link.parked.borrow_mut());
        match link.resume.take() {
            Some(Resume::Throw(e)) => Err(e.into()),
            Some(Resume::Send(v)) => Ok(v),
            None => Ok(Value::None),
        }
    }

    /// `yield from iterable`: a generator is delegated to (what is sent or thrown goes to it,
    /// and its return value is the expression's); any other iterable's items are yielded.
    pub(crate) async fn yield_from(&mut self, iterable: &Value) -> Result<Value, Flow> {
        let inner = match iterable {
            Value::Iterator(it) => match &*it.borrow() {
                Iter::Generator(g) => Some(g.clone()),
                _ => None,
            },
            _ => None,
        };
        let Some(inner) = inner else {
            let mut items = self.iter_of(iterable).await?;
            while let Some(item) = self.next_of(&mut items).await? {
                self.yield_value(item).await?;
            }
            return Ok(Value::None);
        };
        self.delegate(&inner).await
    }

    /// Runs `inner` to its end from a generator's body, passing on what it yields and what the
    /// body is resumed with: `yield from`, and `await` of a coroutine.
    pub(crate) async fn delegate(&mut self, inner: &Generator) -> Result<Value, Flow> {
        let mut resume = Resume::Send(Value::None);
        loop {
            match self.resume(inner, resume).await? {
                Step::Returned(value) => return Ok(value),
                Step::Yielded(value) => {
                    resume = match self.yield_value(value).await {
                        Ok(sent) => Resume::Send(sent),
                        Err(Flow::Error(e)) => Resume::Throw(*e),
                        Err(other) => return Err(other),
                    };
                }
            }
        }
    }

    /// `g.send(value)`, `g.throw(exc)`, `g.close()`; a coroutine's `__await__()`; an async
    /// generator's `__anext__()`, `asend(value)`, `athrow(exc)`, `aclose()`.
    pub(crate) async fn generator_method(
        &mut self,
        generator: &Rc<Generator>,
        name: &str,
        args: Vec<Value>,
    ) -> Result<Value, Flow> {
        let kind = generator.kind();
        let resume = match (name, args.as_slice()) {
            ("send" | "asend", [value]) => Resume::Send(value.clone()),
            ("__next__" | "__anext__", []) => Resume::Send(Value::None),
            ("throw" | "athrow", [exception, ..]) => match self.exception_from(exception).await? {
                Some(e) => Resume::Throw(e),
                None => {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        "exceptions must be classes or instances deriving from BaseException, not "
                            .to_owned()
                            + &exception.type_name(),
                    )
                    .into());
                }
            },
            ("__await__" | "__aiter__", []) => return Ok(Value::Coroutine(generator.clone())),
            ("close" | "aclose", []) => {
                let exit = PyException::new(ExcType::Other("GeneratorExit".into()), "");
                if kind == Kind::AsyncGenerator {
                    return self.async_generator_step(generator, Some(Resume::Throw(exit)), true);
                }
                if !generator.started.get() {
                    *generator.body.borrow_mut() = None;
                    return Ok(Value::None);
                }
                return match self.resume(generator, Resume::Throw(exit)).await {
                    Ok(Step::Yielded(_)) => Err(PyException::new(
                        ExcType::RuntimeError,
                        format!("{} ignored GeneratorExit", kind.type_name()),
                    )
                    .into()),
                    Ok(Step::Returned(_)) => Ok(Value::None),
                    Err(Flow::Error(e)) if e.kind.name() == "GeneratorExit" => Ok(Value::None),
                    Err(other) => Err(other),
                };
            }
            _ => {
                let expected = match name {
                    "send" | "asend" => "takes exactly one argument",
                    "throw" | "athrow" => "expected at least 1 argument",
                    _ => "takes no arguments",
                };
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "{}.{name}() {expected} ({} given)",
                        kind.type_name(),
                        args.len()
                    ),
                )
                .into());
            }
        };
        if kind == Kind::AsyncGenerator {
            return self.async_generator_step(generator, Some(resume), false);
        }
        match self.resume(generator, resume).await? {
            Step::Yielded(value) => Ok(value),
            Step::Returned(value) => Err(stop_iteration(value).into()),
        }
    }
}

/// The `StopIteration` a finished generator raises, carrying its return value.
pub(crate) fn stop_iteration(value: Value) -> PyException {
    match value {
        Value::None => PyException::new(ExcType::StopIteration, ""),
        value => PyException::with_args(ExcType::StopIteration, vec![value]),
    }
}

/// The exception an async generator's step raises at its end.
pub(crate) fn stop_async_iteration() -> ExcType {
    ExcType::Other("StopAsyncIteration".into())
}

/// Returns `Pending` once: the point where a generator's body waits to be resumed.
struct Suspend(bool);

impl Future for Suspend {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, _: &mut std::task::Context<'_>) -> Poll<()> {
        if self.0 {
            Poll::Ready(())
        } else {
            self.0 = true;
            Poll::Pending
        }
    }
}

/// Whether a function body yields (and so makes a generator), not counting functions and
/// classes defined inside it.
pub(crate) fn has_yield(body: &[Stmt]) -> bool {
    let mut finder = YieldFinder(false);
    for stmt in body {
        finder.visit_stmt(stmt);
    }
    finder.0
}

pub(crate) fn expression_has_yield(e: &Expr) -> bool {
    let mut finder = YieldFinder(false);
    finder.visit_expr(e);
    finder.0
}

struct YieldFinder(bool);

impl<'a> Visitor<'a> for YieldFinder {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        if !matches!(stmt, Stmt::FunctionDef(_) | Stmt::ClassDef(_)) {
            visitor::walk_stmt(self, stmt);
        }
    }

    fn visit_expr(&mut self, e: &'a Expr) {
        match e {
            Expr::Yield(_) | Expr::YieldFrom(_) => self.0 = true,
            Expr::Lambda(_) => {}
            _ => visitor::walk_expr(self, e),
        }
    }
}
