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

/// A generator object (`type(g).__name__ == "generator"`).
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
}

impl Interpreter {
    /// A generator that runs `body` in `activation` (the called function's frame, its
    /// arguments bound) when first resumed.
    pub(crate) fn generator(&self, mut activation: Activation, body: Body) -> Value {
        let link = Rc::new(Link {
            parked: RefCell::new(self.hollow()),
            yielded: RefCell::new(None),
            resume: RefCell::new(None),
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
                Some(Resume::Throw(e)) => Err(Flow::Error(e)),
                _ => me.run_generator_body(&mut body).await,
            };
            let activation = me.stack.pop();
            me.adopt(&mut own.parked.borrow_mut());
            match outcome {
                Err(Flow::Error(mut e)) => {
                    if let Some(a) = activation {
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
        Value::Iterator(Rc::new(RefCell::new(Iter::Generator(Rc::new(generator)))))
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
        }
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
        let (cell, line) = match self.stack.last() {
            Some(a) => (a.cell.clone(), a.line),
            None => return Ok(Value::None),
        };
        let activation = Activation {
            function: "<genexpr>".into(),
            cell,
            line,
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
            return match resume {
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
                "can't send non-None value to a just-started generator",
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
            // it silently.
            Err(Flow::Error(e)) if e.kind == ExcType::StopIteration => {
                let mut error =
                    PyException::new(ExcType::RuntimeError, "generator raised StopIteration");
                error.frames = e.frames;
                Err(error.into())
            }
            Err(other) => Err(other),
        }
    }

    /// `yield value` in a generator's body: suspends it; what it evaluates to when resumed.
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
        let mut resume = Resume::Send(Value::None);
        loop {
            match self.resume(&inner, resume).await? {
                Step::Returned(value) => return Ok(value),
                Step::Yielded(value) => {
                    resume = match self.yield_value(value).await {
                        Ok(sent) => Resume::Send(sent),
                        Err(Flow::Error(e)) => Resume::Throw(e),
                        Err(other) => return Err(other),
                    };
                }
            }
        }
    }

    /// `g.send(value)`, `g.throw(exc)`, `g.close()`.
    pub(crate) async fn generator_method(
        &mut self,
        generator: &Generator,
        name: &str,
        args: Vec<Value>,
    ) -> Result<Value, Flow> {
        let resume = match (name, args.as_slice()) {
            ("send", [value]) => Resume::Send(value.clone()),
            ("__next__", []) => Resume::Send(Value::None),
            ("throw", [exception, ..]) => Resume::Throw(match exception {
                Value::ExcClass(kind) => PyException::new(kind.clone(), ""),
                Value::Exception(e) => (**e).clone(),
                _ => {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        "exceptions must be classes or instances deriving from BaseException, not "
                            .to_owned()
                            + &exception.type_name(),
                    )
                    .into());
                }
            }),
            ("close", []) => {
                if !generator.started.get() {
                    *generator.body.borrow_mut() = None;
                    return Ok(Value::None);
                }
                let exit = PyException::new(ExcType::Other("GeneratorExit".into()), "");
                return match self.resume(generator, Resume::Throw(exit)).await {
                    Ok(Step::Yielded(_)) => Err(PyException::new(
                        ExcType::RuntimeError,
                        "generator ignored GeneratorExit",
                    )
                    .into()),
                    Ok(Step::Returned(_)) => Ok(Value::None),
                    Err(Flow::Error(e)) if e.kind.name() == "GeneratorExit" => Ok(Value::None),
                    Err(other) => Err(other),
                };
            }
            _ => {
                let expected = match name {
                    "send" => "takes exactly one argument",
                    "throw" => "expected at least 1 argument",
                    _ => "takes no arguments",
                };
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!("generator.{name}() {expected} ({} given)", args.len()),
                )
                .into());
            }
        };
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

/// The methods a generator has.
pub(crate) const METHODS: &[&str] = &["send", "throw", "close", "__next__"];

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
