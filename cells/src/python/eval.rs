//! The tree-walking evaluator: statements and expressions of the lab's Python subset, run
//! asynchronously (GPU sync points will await real readbacks), with Python's scoping (a function's
//! locals, then the cell namespace, then builtins), control flow and tracebacks. What lies outside
//! the subset fails at its line with a clear message.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use ruff_python_ast::{BoolOp, Expr, ExprCall, Number, Stmt, StmtFunctionDef};
use ruff_text_size::Ranged;
use tolab_engine::Session;

use super::exception::{ExcType, Frame, PyException};
use super::operators;
use super::source::CellSource;
use super::value::{Function, Value};

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
pub struct Args {
    pub positional: Vec<Value>,
    pub keywords: Vec<(String, Value)>,
}

impl Args {
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
/// and its locals.
struct Activation {
    function: String,
    cell: Rc<CellSource>,
    line: usize,
    locals: Option<HashMap<String, Value>>,
}

/// How deep calls may nest before `RecursionError`.
const MAX_DEPTH: usize = 200;

pub struct Interpreter {
    pub(crate) session: Session,
    pub(crate) globals: HashMap<String, Value>,
    pub(crate) stdout: String,
    stack: Vec<Activation>,
    /// Statements left before the cell's step budget runs out.
    pub(crate) steps_left: u64,
}

impl Interpreter {
    pub fn new(session: Session) -> Interpreter {
        Interpreter {
            session,
            globals: HashMap::new(),
            stdout: String::new(),
            stack: Vec::new(),
            steps_left: u64::MAX,
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
        });
        let mut shown = None;
        let mut result = Ok(());
        for (i, stmt) in body.iter().enumerate() {
            let last = i + 1 == body.len();
            let outcome = match (stmt, last) {
                (Stmt::Expr(e), true) => {
                    self.note_line(stmt)
                        .and(self.expr(&e.value).await)
                        .map(|v| {
                            shown = Some(v);
                        })
                }
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

    fn note_line(&mut self, stmt: &Stmt) -> Result<(), Flow> {
        if self.steps_left == 0 {
            return Err(PyException::new(
                ExcType::RuntimeError,
                "the cell ran out of its step budget (an infinite loop?)",
            )
            .into());
        }
        self.steps_left -= 1;
        if let Some(a) = self.stack.last_mut() {
            a.line = a.cell.line_of(stmt.range());
        }
        Ok(())
    }

    fn block<'a>(&'a mut self, body: &'a [Stmt]) -> Eval<'a, ()> {
        Box::pin(async move {
            for stmt in body {
                self.exec(stmt).await?;
            }
            Ok(())
        })
    }

    fn exec<'a>(&'a mut self, stmt: &'a Stmt) -> Eval<'a, ()> {
        Box::pin(async move {
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
                    let updated = operators::binary(a.op, &current, &operand, true)?;
                    self.assign(&a.target, updated).await?;
                }
                Stmt::If(s) => {
                    if self.expr(&s.test).await?.truthy() {
                        self.block(&s.body).await?;
                    } else {
                        for clause in &s.elif_else_clauses {
                            let taken = match &clause.test {
                                Some(test) => self.expr(test).await?.truthy(),
                                None => true,
                            };
                            if taken {
                                self.block(&clause.body).await?;
                                break;
                            }
                        }
                    }
                }
                Stmt::While(s) => {
                    let mut broke = false;
                    while !broke && self.expr(&s.test).await?.truthy() {
                        broke = self.loop_body(&s.body).await?;
                    }
                    if !broke {
                        self.block(&s.orelse).await?;
                    }
                }
                Stmt::For(s) => {
                    let mut broke = false;
                    for item in operators::iterate(&self.expr(&s.iter).await?)? {
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
                        let value = super::modules::import_from(module, name)?;
                        let bound = alias.asname.as_ref().map_or(name, |a| a.id.as_str());
                        self.set_name(bound, value);
                    }
                }
                Stmt::Assert(a) => {
                    if !self.expr(&a.test).await?.truthy() {
                        let message = match &a.msg {
                            Some(m) => self.expr(m).await?.str_text(),
                            None => String::new(),
                        };
                        return Err(PyException::new(ExcType::AssertionError, message).into());
                    }
                }
                Stmt::With(w) => {
                    let mut entered = Vec::new();
                    for item in &w.items {
                        let manager = self.expr(&item.context_expr).await?;
                        let restore = super::modules::enter(&self.session, &manager)?;
                        entered.push(restore);
                        if let Some(target) = &item.optional_vars {
                            self.assign(target, manager).await?;
                        }
                    }
                    let outcome = self.block(&w.body).await;
                    for restore in entered.into_iter().rev() {
                        super::modules::exit(&self.session, restore);
                    }
                    outcome?;
                }
                other => return Err(PyException::unsupported(&statement_name(other)).into()),
            }
            Ok(())
        })
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
        let mut defaults = Vec::new();
        for parameter in def.parameters.args.iter() {
            if let Some(default) = &parameter.default {
                defaults.push(self.expr(default).await?);
            }
        }
        let cell = self
            .stack
            .last()
            .map(|a| a.cell.clone())
            .ok_or_else(|| PyException::new(ExcType::RuntimeError, "no cell is running"))?;
        let function = Value::Function(Rc::new(Function {
            def: Rc::new(def.clone()),
            defaults,
            cell,
        }));
        self.set_name(def.name.id.as_str(), function);
        Ok(())
    }

    fn set_name(&mut self, name: &str, value: Value) {
        match self.stack.last_mut().and_then(|a| a.locals.as_mut()) {
            Some(locals) => {
                locals.insert(name.to_owned(), value);
            }
            None => {
                self.globals.insert(name.to_owned(), value);
            }
        }
    }

    fn lookup(&self, name: &str) -> Result<Value, PyException> {
        if let Some(v) = self
            .stack
            .last()
            .and_then(|a| a.locals.as_ref())
            .and_then(|l| l.get(name))
        {
            return Ok(v.clone());
        }
        if let Some(v) = self.globals.get(name) {
            return Ok(v.clone());
        }
        super::builtins::lookup(name).ok_or_else(|| {
            PyException::new(ExcType::NameError, format!("name '{name}' is not defined"))
        })
    }

    fn assign<'a>(&'a mut self, target: &'a Expr, value: Value) -> Eval<'a, ()> {
        Box::pin(async move {
            match target {
                Expr::Name(n) => self.set_name(n.id.as_str(), value),
                Expr::Tuple(t) => self.unpack(&t.elts, value).await?,
                Expr::List(l) => self.unpack(&l.elts, value).await?,
                Expr::Subscript(s) => {
                    let container = self.expr(&s.value).await?;
                    let index = self.expr(&s.slice).await?;
                    operators::set_item(&container, &index, value)?;
                }
                _ => return Err(PyException::unsupported("this assignment target").into()),
            }
            Ok(())
        })
    }

    async fn unpack(&mut self, targets: &[Expr], value: Value) -> Result<(), Flow> {
        let items = operators::iterate(&value)?;
        if items.len() != targets.len() {
            let message = if items.len() > targets.len() {
                format!("too many values to unpack (expected {})", targets.len())
            } else {
                format!(
                    "not enough values to unpack (expected {}, got {})",
                    targets.len(),
                    items.len()
                )
            };
            return Err(PyException::new(ExcType::ValueError, message).into());
        }
        for (target, item) in targets.iter().zip(items) {
            self.assign(target, item).await?;
        }
        Ok(())
    }

    pub(crate) fn expr<'a>(&'a mut self, e: &'a Expr) -> Eval<'a, Value> {
        Box::pin(async move {
            Ok(match e {
                Expr::NumberLiteral(n) => match &n.value {
                    Number::Int(i) => Value::Int(i.as_i64().ok_or_else(|| {
                        PyException::new(
                            ExcType::OverflowError,
                            "integers beyond 64 bits are not supported in lab cells",
                        )
                    })?),
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
                    let left = self.expr(&b.left).await?;
                    let right = self.expr(&b.right).await?;
                    operators::binary(b.op, &left, &right, false)?
                }
                Expr::UnaryOp(u) => {
                    let operand = self.expr(&u.operand).await?;
                    operators::unary(u.op, &operand)?
                }
                Expr::BoolOp(b) => {
                    let mut last = Value::None;
                    for value in &b.values {
                        last = self.expr(value).await?;
                        let decided = match b.op {
                            BoolOp::And => !last.truthy(),
                            BoolOp::Or => last.truthy(),
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
                        result = operators::compare(*op, &left, &right)?;
                        if !matches!(result, Value::Tensor(_)) && !result.truthy() {
                            break;
                        }
                        left = right;
                    }
                    result
                }
                Expr::If(i) => {
                    if self.expr(&i.test).await?.truthy() {
                        self.expr(&i.body).await?
                    } else {
                        self.expr(&i.orelse).await?
                    }
                }
                Expr::List(l) => Value::list(self.exprs(&l.elts).await?),
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
                    super::attributes::get(&owner, a.attr.id.as_str())?
                }
                Expr::Subscript(s) => {
                    let container = self.expr(&s.value).await?;
                    let index = self.subscript(&s.slice).await?;
                    operators::get_item(&container, &index)?
                }
                Expr::Call(call) => self.call_expr(call).await?,
                Expr::FString(f) => Value::str(&self.fstring(f).await?),
                Expr::ListComp(_) => {
                    return Err(PyException::unsupported("a list comprehension").into());
                }
                Expr::Lambda(_) => return Err(PyException::unsupported("'lambda'").into()),
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
                out.extend(operators::iterate(&self.expr(&s.value).await?)?);
            } else {
                out.push(self.expr(item).await?);
            }
        }
        Ok(out)
    }

    async fn fstring(&mut self, f: &ruff_python_ast::ExprFString) -> Result<String, Flow> {
        use ruff_python_ast::{FStringPart, InterpolatedStringElement};
        let mut out = String::new();
        for part in f.value.iter() {
            match part {
                FStringPart::Literal(lit) => out.push_str(&lit.value),
                FStringPart::FString(fs) => {
                    for element in fs.elements.iter() {
                        match element {
                            InterpolatedStringElement::Literal(lit) => out.push_str(&lit.value),
                            InterpolatedStringElement::Interpolation(i) => {
                                let value = self.expr(&i.expression).await?;
                                let spec = match &i.format_spec {
                                    Some(spec) => spec
                                        .elements
                                        .iter()
                                        .filter_map(|e| match e {
                                            InterpolatedStringElement::Literal(l) => {
                                                Some(l.value.to_string())
                                            }
                                            InterpolatedStringElement::Interpolation(_) => None,
                                        })
                                        .collect::<String>(),
                                    None => String::new(),
                                };
                                let text = match i.conversion {
                                    ruff_python_ast::ConversionFlag::Repr => value.repr(),
                                    _ => operators::format(&value, &spec)?,
                                };
                                out.push_str(&text);
                            }
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    async fn call_expr(&mut self, call: &ExprCall) -> Result<Value, Flow> {
        let callee = self.expr(&call.func).await?;
        let mut positional = Vec::new();
        for arg in call.arguments.args.iter() {
            if let Expr::Starred(s) = arg {
                positional.extend(operators::iterate(&self.expr(&s.value).await?)?);
            } else {
                positional.push(self.expr(arg).await?);
            }
        }
        let mut keywords = Vec::new();
        for keyword in call.arguments.keywords.iter() {
            let Some(name) = &keyword.arg else {
                return Err(PyException::unsupported("'**' arguments").into());
            };
            keywords.push((name.id.to_string(), self.expr(&keyword.value).await?));
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

    /// Calls any callable value.
    pub(crate) async fn call(&mut self, callee: &Value, args: Args) -> Result<Value, Flow> {
        match callee {
            Value::Function(f) => self.call_function(f, args).await,
            Value::Builtin(name) => super::builtins::call(self, name, args).map_err(Flow::from),
            Value::ModuleFn(module, name) => {
                super::modules::call(&self.session, module, name, args).map_err(Flow::from)
            }
            Value::Method(owner, name) => {
                super::attributes::call_method(owner, name, args).map_err(Flow::from)
            }
            other => Err(PyException::new(
                ExcType::TypeError,
                format!("'{}' object is not callable", other.type_name()),
            )
            .into()),
        }
    }

    async fn call_function(&mut self, f: &Function, args: Args) -> Result<Value, Flow> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(PyException::new(
                ExcType::RecursionError,
                "maximum recursion depth exceeded",
            )
            .into());
        }
        let def = &f.def;
        let params: Vec<&str> = def
            .parameters
            .args
            .iter()
            .map(|p| p.parameter.name.id.as_str())
            .collect();
        let name = def.name.id.as_str();
        if args.positional.len() > params.len() {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "{name}() takes {} positional argument{} but {} were given",
                    params.len(),
                    if params.len() == 1 { "" } else { "s" },
                    args.positional.len()
                ),
            )
            .into());
        }
        let first_default = params.len() - f.defaults.len();
        let mut locals = HashMap::new();
        for (i, param) in params.iter().enumerate() {
            let value = args
                .positional
                .get(i)
                .cloned()
                .or_else(|| args.keyword(param).cloned())
                .or_else(|| i.checked_sub(first_default).map(|d| f.defaults[d].clone()));
            match value {
                Some(v) => {
                    locals.insert((*param).to_owned(), v);
                }
                None => {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        format!("{name}() missing 1 required positional argument: '{param}'"),
                    )
                    .into());
                }
            }
        }
        if let Some((unknown, _)) = args
            .keywords
            .iter()
            .find(|(k, _)| !params.contains(&k.as_str()))
        {
            return Err(PyException::new(
                ExcType::TypeError,
                format!("{name}() got an unexpected keyword argument '{unknown}'"),
            )
            .into());
        }
        self.stack.push(Activation {
            function: name.to_owned(),
            cell: f.cell.clone(),
            line: f.cell.line_of(def.range()),
            locals: Some(locals),
        });
        let outcome = self.block(&def.body).await;
        let activation = self.stack.pop();
        match outcome {
            Ok(()) => Ok(Value::None),
            Err(Flow::Return(v)) => Ok(v),
            Err(Flow::Error(mut e)) => {
                if let Some(a) = activation {
                    e.frames.insert(0, frame_of(&a));
                }
                Err(Flow::Error(e))
            }
            Err(other) => Err(other),
        }
    }
}

fn frame_of(a: &Activation) -> Frame {
    Frame {
        file: a.cell.name.clone(),
        line: a.line,
        function: a.function.clone(),
        text: a.cell.line(a.line).to_owned(),
    }
}

/// How a statement outside the subset is named in its error.
fn statement_name(stmt: &Stmt) -> String {
    match stmt {
        Stmt::ClassDef(_) => "'class'",
        Stmt::Try(_) => "'try'",
        Stmt::Raise(_) => "'raise'",
        Stmt::Delete(_) => "'del'",
        Stmt::Global(_) => "'global'",
        Stmt::Nonlocal(_) => "'nonlocal'",
        Stmt::Match(_) => "'match'",
        Stmt::AnnAssign(_) => "an annotated assignment",
        _ => "this statement",
    }
    .to_owned()
}
