//! Statements: assignments (with a synchronous fast path for simple ones), control flow,
//! `try`, `def` and `class` bodies, imports, `global`/`nonlocal`, `del`.

use std::rc::Rc;

use ruff_python_ast::{ExceptHandler, Expr, Parameters, Stmt, StmtFunctionDef};
use ruff_text_size::Ranged;

use super::args::{Args, Eval, Flow};
use super::exception::{ExcType, PyException};
use super::expressions::is_simple;
use super::interpreter::Interpreter;
use super::operators;
use super::sync::sync_first;
use super::value::{Function, FunctionBody, Value};

impl Interpreter {
    /// Runs one statement: a plain one (see [`Interpreter::exec_plain`]) synchronously, with
    /// no future to box or move, which is most of a scalar loop's cost.
    pub(crate) async fn exec(&mut self, stmt: &Stmt) -> Result<(), Flow> {
        match self.exec_plain(stmt) {
            Plain::Done(outcome) => outcome,
            Plain::Body(body) => self.block(body).await,
            Plain::Awaits => self.exec_boxed(stmt).await,
        }
    }

    /// `name = simple`, `name op= simple` and an `if` of simple tests, where only plain values
    /// take part (no learner's object with operator methods, no GPU read that must wait in the
    /// browser); anything else is left to the awaiting path, with nothing done (what was
    /// computed is rolled back; the step and the line are noted again there).
    fn exec_plain<'s>(&mut self, stmt: &'s Stmt) -> Plain<'s> {
        if self.gate.is_some() {
            return Plain::Awaits;
        }
        let mark = self.session.retry_mark();
        let outcome = match stmt {
            Stmt::Assign(a) if a.targets.len() == 1 && is_simple(&a.value) => {
                let Expr::Name(name) = &a.targets[0] else {
                    return Plain::Awaits;
                };
                self.plain_value(stmt, &a.value).map(|value| {
                    value.map(|value| {
                        self.set_name(name.id.as_str(), value);
                        Plain::Done(Ok(()))
                    })
                })
            }
            Stmt::AugAssign(a) if is_simple(&a.value) => {
                let Expr::Name(name) = &*a.target else {
                    return Plain::Awaits;
                };
                self.plain_update(stmt, name.id.as_str(), a.op, &a.value)
            }
            Stmt::If(s) if is_simple(&s.test) => self.plain_branch(stmt, s),
            _ => return Plain::Awaits,
        };
        match outcome {
            Some(Ok(plain)) => plain,
            Some(Err(flow)) => Plain::Done(Err(flow)),
            None => {
                self.session.rewind(mark);
                Plain::Awaits
            }
        }
    }

    /// `name op= e`, the target read before the operand is evaluated, as in Python.
    fn plain_update(
        &mut self,
        stmt: &Stmt,
        name: &str,
        op: ruff_python_ast::Operator,
        e: &Expr,
    ) -> Option<Result<Plain<'static>, Flow>> {
        let values = self
            .note_line(stmt)
            .and_then(|()| self.lookup(name).map_err(Flow::from));
        let (current, operand) = match values {
            Ok(current) => match self.plain_expr(e)? {
                Ok(operand) => (current, operand),
                Err(flow) => return Some(Err(flow)),
            },
            Err(flow) => return Some(Err(flow)),
        };
        if super::dunders::has_learner_objects([&current, &operand]) {
            return None;
        }
        match operators::binary(op, &current, &operand, true) {
            Ok(updated) => {
                self.set_name(name, updated);
                Some(Ok(Plain::Done(Ok(()))))
            }
            Err(e) => {
                let flow = Flow::from(e);
                (!super::sync::would_block(&flow)).then_some(Err(flow))
            }
        }
    }

    /// The value of the simple expression `e` of `stmt` (its line noted); `None` where it
    /// needs the awaiting path.
    fn plain_value(&mut self, stmt: &Stmt, e: &Expr) -> Option<Result<Value, Flow>> {
        if let Err(flow) = self.note_line(stmt) {
            return Some(Err(flow));
        }
        self.plain_expr(e)
    }

    /// A simple expression's value where no learner's object and no waiting read takes part.
    fn plain_expr(&mut self, e: &Expr) -> Option<Result<Value, Flow>> {
        match self.simple_expr(e) {
            Ok(Some(Value::Instance(_))) | Ok(None) => None,
            Ok(Some(value)) => Some(Ok(value)),
            Err(flow) if super::sync::would_block(&flow) => None,
            Err(flow) => Some(Err(flow)),
        }
    }

    /// The branch of `if`/`elif`/`else` whose simple tests choose it, where every test it
    /// evaluates has a plain truth value.
    fn plain_branch<'s>(
        &mut self,
        stmt: &Stmt,
        s: &'s ruff_python_ast::StmtIf,
    ) -> Option<Result<Plain<'s>, Flow>> {
        let tests = std::iter::once((Some(&*s.test), &s.body)).chain(
            s.elif_else_clauses
                .iter()
                .map(|clause| (clause.test.as_ref(), &clause.body)),
        );
        for (test, body) in tests {
            let Some(test) = test else {
                return Some(Ok(Plain::Body(body)));
            };
            if !is_simple(test) {
                return None;
            }
            let value = match self.plain_value(stmt, test)? {
                Ok(value) => value,
                Err(flow) => return Some(Err(flow)),
            };
            if plain_truth(&value)? {
                return Some(Ok(Plain::Body(body)));
            }
        }
        Some(Ok(Plain::Done(Ok(()))))
    }

    /// `if test: ... elif ...: ... else: ...`, its line already noted.
    /// `current op= operand`: a learner's `__iadd__` (or `__add__`, …) where one takes part,
    /// else the operator in place.
    async fn augmented(
        &mut self,
        op: ruff_python_ast::Operator,
        current: &Value,
        operand: &Value,
    ) -> Result<Value, Flow> {
        if super::dunders::has_learner_objects([current, operand])
            && let Some(updated) = Box::pin(self.binary_dunder(op, current, operand, true)).await?
        {
            return Ok(updated);
        }
        sync_first!(self, |_me| Ok(operators::binary(
            op, current, operand, true
        )?))
    }

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
                    let updated = self.augmented(a.op, &current, &operand).await?;
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
                    let mut items = match s.is_async {
                        true => super::iteration::Iter::Async(
                            Box::pin(self.async_iter(&iterable)).await?,
                        ),
                        false => self.iter_of(&iterable).await?,
                    };
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
                    // Decorators are evaluated first and applied innermost first, as for
                    // functions; the name is bound to what the last one returns.
                    let mut decorators = Vec::with_capacity(def.decorator_list.len());
                    for decorator in &def.decorator_list {
                        decorators.push(self.expr(&decorator.expression).await?);
                    }
                    let mut class = self.define_class(def).await?;
                    for decorator in decorators.iter().rev() {
                        class = self.call(decorator, Args::positional(vec![class])).await?;
                    }
                    self.set_name(def.name.id.as_str(), class);
                }
                Stmt::Import(import) => {
                    for alias in &import.names {
                        let name = alias.name.id.as_str();
                        let module = self.import(name).await?;
                        match &alias.asname {
                            Some(asname) => self.set_name(asname.id.as_str(), module),
                            None => {
                                // `import os.path` binds `os`, run first as in CPython.
                                let top = name.split('.').next().unwrap_or(name);
                                let top = Box::pin(self.import(top)).await?;
                                self.set_name(name.split('.').next().unwrap_or(name), top);
                            }
                        }
                    }
                }
                Stmt::ImportFrom(import) => {
                    let module = import.module.as_ref().map_or("", |m| m.id.as_str());
                    for alias in &import.names {
                        let name = alias.name.id.as_str();
                        let value = self.import_from(module, name).await?;
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
                Stmt::Match(m) => self.match_statement(m).await?,
                Stmt::Try(t) => self.try_statement(t).await?,
                Stmt::Raise(r) => {
                    let error = match &r.exc {
                        Some(e) => {
                            let value = self.expr(e).await?;
                            match self.exception_from(&value).await? {
                                Some(error) => error,
                                None => PyException::new(
                                    ExcType::TypeError,
                                    format!(
                                        "exceptions must derive from BaseException, not {}",
                                        value.type_name()
                                    ),
                                ),
                            }
                        }
                        None => self
                            .handling
                            .last()
                            .map(|(e, _)| e.clone())
                            .ok_or_else(|| {
                                PyException::new(
                                    ExcType::RuntimeError,
                                    "No active exception to reraise",
                                )
                            })?,
                    };
                    // An exception raised again keeps the frames it was raised through (its
                    // `__traceback__`); the frames it goes on through come before them.
                    let mut error = error;
                    // `raise … from cause`: its `__cause__`, and no context shown.
                    if let Some(cause) = &r.cause {
                        let cause = self.expr(cause).await?;
                        let cause = Box::pin(self.exception_for_cause(cause)).await?;
                        error.link(cause, None, true);
                    }
                    return Err(error.into());
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
                    self.note_annotation(a);
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
            let error = PyException::clone(error);
            for handler in &t.handlers {
                let ExceptHandler::ExceptHandler(h) = handler;
                let matches = match &h.type_ {
                    None => true,
                    Some(types) => {
                        let classes = match self.expr(types).await? {
                            Value::Tuple(ref items) => items.to_vec(),
                            one => vec![one],
                        };
                        classes.iter().any(|c| error.caught_by(c))
                    }
                };
                if matches {
                    if let Some(name) = &h.name {
                        self.set_name(name.id.as_str(), error.value());
                    }
                    // The traceback `sys.exc_info()` sees starts at the frame that caught it.
                    let mut seen = error.clone();
                    if let Some(a) = self.stack.last() {
                        seen.frames.insert(0, super::interpreter::frame_of(a));
                    }
                    self.handling.push((error.clone(), seen.clone()));
                    outcome = self.block(&h.body).await;
                    self.handling.pop();
                    // `except E as name:` unbinds the name when the handler ends, as CPython
                    // does (so the traceback it holds is freed).
                    if let Some(name) = &h.name {
                        self.unbind(name.id.as_str());
                    }
                    // An exception raised while handling this one has it as `__context__`
                    // (not a re-raise of it, and not one that has a context already).
                    if let Err(Flow::Error(raised)) = &mut outcome
                        && !raised.ends_cell
                        && raised.context().is_none()
                        && !same_exception(raised, &error)
                    {
                        raised.link(None, Some(seen), false);
                    }
                    break;
                }
            }
        } else if outcome.is_ok() {
            outcome = self.block(&t.orelse).await;
        }
        // An exception passing through names the line it was raised at, not the finally's.
        let line = self.stack.last().map(|a| a.at);
        let finally = self.block(&t.finalbody).await;
        if let (Some(line), Some(a), true, Ok(())) =
            (line, self.stack.last_mut(), outcome.is_err(), &finally)
        {
            a.at = line;
        }
        finally.and(outcome)
    }

    /// What `raise … from cause` makes `__cause__`: an exception (the one being handled
    /// keeps its traceback), a class (instantiated), or None.
    async fn exception_for_cause(&mut self, cause: Value) -> Result<Option<PyException>, Flow> {
        if let Value::None = cause {
            return Ok(None);
        }
        if let Some((_, seen)) = self.handling.iter().rev().find(|(e, _)| match &cause {
            // A built-in exception's value is made afresh each time it is bound.
            Value::Exception(bound) => same_exception(bound, e),
            _ => super::value::identical(&e.value(), &cause),
        }) {
            return Ok(Some(seen.clone()));
        }
        match self.exception_from(&cause).await? {
            Some(error) => Ok(Some(error)),
            None => Err(PyException::new(
                ExcType::TypeError,
                "exception causes must derive from BaseException",
            )
            .into()),
        }
    }

    /// The exception `raise value` raises: an exception object, or a new one of an exception
    /// class; `None` for anything else.
    pub(crate) async fn exception_from(
        &mut self,
        value: &Value,
    ) -> Result<Option<PyException>, Flow> {
        Ok(Some(match value {
            Value::Exception(e) => (**e).clone(),
            Value::ExcClass(kind) => PyException::new(kind.clone(), ""),
            Value::Class(c) if c.exception.is_some() => {
                let object = self.instantiate(c, Args::default()).await?;
                self.exception_of(object).await?
            }
            Value::Instance(i) if i.class.exception.is_some() => {
                self.exception_of(value.clone()).await?
            }
            _ => return Ok(None),
        }))
    }

    /// Removes a name from the scope it would be bound in; what it held, if anything.
    fn unbind(&mut self, name: &str) -> Option<Value> {
        match self.stack.last().and_then(|a| a.locals.as_ref()) {
            Some(locals) => locals.borrow_mut().shift_remove(name),
            None => self.globals.shift_remove(name),
        }
    }

    async fn delete(&mut self, target: &Expr) -> Result<(), Flow> {
        match target {
            Expr::Name(n) => {
                let name = n.id.as_str();
                let removed = self.unbind(name);
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
                if let Value::Instance(i) = &container
                    && i.class.lookup("__delitem__").is_some()
                {
                    self.call_dunder(&container, "__delitem__", vec![index])
                        .await?;
                    return Ok(());
                }
                let index = Box::pin(self.held_key(&container, index)).await?;
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
        if let Value::Function(f) = &mut function
            && let Some(f) = Rc::get_mut(f)
        {
            f.returns = def.returns.as_ref().map(|r| Rc::new((**r).clone()));
            f.is_async = def.is_async;
        }
        for decorator in decorators.iter().rev() {
            function = self
                .call(decorator, Args::positional(vec![function]))
                .await?;
        }
        self.set_name(def.name.id.as_str(), function);
        Ok(())
    }

    /// In a class body, `name: annotation` is recorded in the class's `__annotations__` (in
    /// order, as the text written: annotations are not evaluated, as under
    /// `from __future__ import annotations`), which `dataclasses` reads.
    fn note_annotation(&mut self, a: &ruff_python_ast::StmtAnnAssign) {
        let Expr::Name(name) = &*a.target else {
            return;
        };
        let Some(activation) = self.stack.last() else {
            return;
        };
        let (Some(locals), false) = (&activation.locals, activation.encloses) else {
            return;
        };
        let text = activation
            .cell
            .text
            .get(a.annotation.range().start().to_usize()..a.annotation.range().end().to_usize())
            .unwrap_or("")
            .to_owned();
        let mut locals = locals.borrow_mut();
        let annotations = locals
            .entry("__annotations__".to_owned())
            .or_insert_with(|| Value::Dict(Rc::default()));
        if let Value::Dict(entries) = annotations {
            let key = Value::str(name.id.as_str());
            let mut entries = entries.borrow_mut();
            match entries
                .iter_mut()
                .find(|(k, _)| super::value::equal(k, &key))
            {
                Some(entry) => entry.1 = Value::str(&text),
                None => entries.push((key, Value::str(&text))),
            }
        }
    }

    /// A function value: its defaults evaluated now, as Python does at definition time.
    pub(crate) async fn function(
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
        let qualname = self
            .stack
            .last()
            .map_or_else(|| name.clone(), |a| a.qualified(&name));
        let generator = match &body {
            FunctionBody::Statements(body) => super::generator::has_yield(body),
            FunctionBody::Expression(e) => super::generator::expression_has_yield(e),
        };
        let assigned = match &body {
            FunctionBody::Statements(body) => super::locals::local_names(body),
            FunctionBody::Expression(_) => Default::default(),
        };
        Ok(Value::Function(Rc::new(Function {
            generator,
            is_async: false,
            assigned: Rc::new(assigned),
            attributes: Default::default(),
            name,
            qualname,
            parameters: Rc::new(parameters.clone()),
            returns: None,
            body,
            defaults,
            keyword_defaults,
            cell,
            line,
            enclosing: self.closure(),
        })))
    }
}

/// How a statement outside the subset is named in its error.
fn statement_name(stmt: &Stmt) -> String {
    match stmt {
        Stmt::TypeAlias(_) => "'type' aliases",
        _ => "this statement",
    }
    .to_owned()
}

/// Whether `raised` is `handled` raised again (`raise`, `raise e`): frames aside, the same.
fn same_exception(raised: &PyException, handled: &PyException) -> bool {
    let bare = |e: &PyException| PyException {
        frames: Vec::new(),
        ..e.clone()
    };
    bare(raised) == bare(handled)
}

/// What [`Interpreter::exec_plain`] made of a statement.
enum Plain<'s> {
    /// Run to its end, or to its error.
    Done(Result<(), Flow>),
    /// An `if` whose tests chose this body, still to run.
    Body(&'s [Stmt]),
    /// Needs the awaiting path; nothing was done.
    Awaits,
}

/// A truth value no method and no GPU read decides ([`Value::truth`]); `None` where a learner's
/// `__bool__`/`__len__` or a tensor's value does.
fn plain_truth(v: &Value) -> Option<bool> {
    match v {
        Value::Instance(_) | Value::Tensor(_) | Value::Parameter(_) => None,
        other => other.truth().ok(),
    }
}
