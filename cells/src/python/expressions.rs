//! Expressions: literals, names, operators (a synchronous fast path for simple ones),
//! containers, comprehensions, attributes, subscripts, f-strings and `%` formatting, lambdas.

use std::rc::Rc;

use ruff_python_ast::{BoolOp, CmpOp, Comprehension, Expr, ExprGenerator, Number, Parameters};
use ruff_text_size::Ranged;

use super::args::{Eval, Flow};
use super::dunders::{has_learner_objects, holds_learner_objects};
use super::exception::{ExcType, PyException};
use super::interpreter::{Activation, Interpreter};
use super::iteration::Iter;
use super::operators;
use super::sync::sync_first;
use super::value::{FunctionBody, Scope, Value};

impl Interpreter {
    /// Evaluates an expression; [`is_simple`] ones synchronously, without boxing a future.
    pub(crate) async fn expr(&mut self, e: &Expr) -> Result<Value, Flow> {
        if is_simple(e) {
            // The fast path stays synchronous; only a read that could not wait (in the browser)
            // takes the awaiting one, and so does a learner's object, whose operators are
            // methods (what the fast path computed before meeting it is rolled back).
            // One mark serves both rollbacks.
            let mark = self.session.retry_mark();
            let simple = match self.simple_expr(e) {
                Err(flow) if super::sync::would_block(&flow) => {
                    self.session.rewind(mark);
                    Box::pin(self.engine_call(|me| me.simple_expr(e))).await?
                }
                other => other?,
            };
            if let Some(value) = simple {
                return Ok(value);
            }
            self.session.rewind(mark);
        }
        self.expr_boxed(e).await
    }

    /// An [`is_simple`] expression's value: literals, names, and arithmetic and single
    /// comparisons of those (all synchronous operations); `None` where a learner's object
    /// takes part.
    pub(crate) fn simple_expr(&mut self, e: &Expr) -> Result<Option<Value>, Flow> {
        macro_rules! operand {
            ($e:expr) => {
                match self.simple_expr($e)? {
                    Some(Value::Instance(_)) | None => return Ok(None),
                    Some(v) => v,
                }
            };
        }
        Ok(Some(match e {
            Expr::NumberLiteral(n) => match &n.value {
                Number::Int(i) => match i.as_i64() {
                    Some(small) => Value::Int(small),
                    None => super::int::literal(&i.to_string())?,
                },
                Number::Float(x) => Value::Float(*x),
                Number::Complex { real, imag } => Value::Complex(*real, *imag),
            },
            Expr::StringLiteral(s) => Value::str(s.value.to_str()),
            Expr::BytesLiteral(b) => super::bytes::value(&b.value.bytes().collect::<Vec<u8>>()),
            Expr::BooleanLiteral(b) => Value::Bool(b.value),
            Expr::NoneLiteral(_) => Value::None,
            Expr::EllipsisLiteral(_) => Value::ELLIPSIS,
            Expr::Name(n) => self.lookup(n.id.as_str())?,
            Expr::BinOp(b) => {
                let left = operand!(&b.left);
                let right = operand!(&b.right);
                operators::binary(b.op, &left, &right, false)?
            }
            Expr::UnaryOp(u) => operators::unary(u.op, &operand!(&u.operand))?,
            Expr::Compare(c) => match (c.ops.first(), c.comparators.first()) {
                (Some(op), Some(right)) => {
                    let left = operand!(&c.left);
                    let right = operand!(right);
                    // `==` of containers holding learners' objects needs their `__eq__`.
                    if matches!(op, CmpOp::Eq | CmpOp::NotEq)
                        && holds_learner_objects(&left)
                        && holds_learner_objects(&right)
                    {
                        return Ok(None);
                    }
                    operators::compare(*op, &left, &right)?
                }
                _ => return Err(PyException::unsupported("this comparison").into()),
            },
            _ => return Err(PyException::unsupported("this expression").into()),
        }))
    }

    fn expr_boxed<'a>(&'a mut self, e: &'a Expr) -> Eval<'a, Value> {
        Box::pin(async move {
            Ok(match e {
                Expr::NumberLiteral(_)
                | Expr::StringLiteral(_)
                | Expr::BytesLiteral(_)
                | Expr::BooleanLiteral(_)
                | Expr::NoneLiteral(_)
                | Expr::EllipsisLiteral(_)
                | Expr::Name(_) => self.simple_expr(e)?.unwrap_or(Value::None),
                Expr::BinOp(b) => {
                    let left = self.expr(&b.left).await?;
                    let right = self.expr(&b.right).await?;
                    if let (ruff_python_ast::Operator::Mod, Value::Str(template)) = (b.op, &left) {
                        return Ok(Value::str(&self.percent_format(template, &right).await?));
                    }
                    if has_learner_objects([&left, &right])
                        && let Some(v) =
                            Box::pin(self.binary_dunder(b.op, &left, &right, false)).await?
                    {
                        return Ok(v);
                    }
                    sync_first!(self, |_me| Ok(operators::binary(
                        b.op, &left, &right, false
                    )?))?
                }
                Expr::UnaryOp(u) => {
                    let operand = self.expr(&u.operand).await?;
                    if let Value::Instance(_) = operand {
                        return Box::pin(self.unary_dunder(u.op, &operand)).await;
                    }
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
                    let last = c.ops.len().saturating_sub(1);
                    for (i, (op, right)) in c.ops.iter().zip(c.comparators.iter()).enumerate() {
                        let right = self.expr(right).await?;
                        let learned = if has_learner_objects([&left, &right]) {
                            Box::pin(self.compare_dunder(*op, &left, &right)).await?
                        } else if matches!(op, CmpOp::Eq | CmpOp::NotEq)
                            && holds_learner_objects(&left)
                            && holds_learner_objects(&right)
                        {
                            let equal = Box::pin(self.deep_equal(&left, &right)).await?;
                            Some(Value::Bool(equal == (*op == CmpOp::Eq)))
                        } else {
                            None
                        };
                        result = match learned {
                            Some(answer) => answer,
                            None => sync_first!(self, |_me| Ok(operators::compare(
                                *op, &left, &right
                            )?))?,
                        };
                        // Only a chain (`a < b < c`) asks an intermediate result its truth.
                        if i < last
                            && !matches!(result, Value::Tensor(_))
                            && !self.truth(&result).await?
                        {
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
                Expr::Set(set) => {
                    let items = self.exprs(&set.elts).await?;
                    Value::set(Box::pin(self.distinct_keys(items)).await?)?
                }
                Expr::SetComp(c) => {
                    let items = self.comprehension(&c.generators, &c.elt, None).await?;
                    Value::set(Box::pin(self.distinct_keys(items)).await?)?
                }
                Expr::Tuple(t) => Value::Tuple(self.exprs(&t.elts).await?.into()),
                Expr::Dict(d) => {
                    // A key given twice keeps its first place and its last value, as in Python.
                    let dict = Value::Dict(Rc::default());
                    for item in &d.items {
                        let Some(key) = &item.key else {
                            // `{**defaults, **overrides}`
                            let mapping = self.expr(&item.value).await?;
                            let Value::Dict(entries) = &*mapping.resolved() else {
                                return Err(PyException::new(
                                    ExcType::TypeError,
                                    format!("'{}' object is not a mapping", mapping.type_name()),
                                )
                                .into());
                            };
                            let entries = entries.borrow().clone();
                            for (key, value) in entries {
                                super::operators::set_item(&dict, &key, value)?;
                            }
                            continue;
                        };
                        let key = self.expr(key).await?;
                        let value = self.expr(&item.value).await?;
                        let key = Box::pin(self.held_key(&dict, key)).await?;
                        super::operators::set_item(&dict, &key, value)?;
                    }
                    dict
                }
                Expr::Attribute(a) => {
                    let owner = self.expr(&a.value).await?;
                    self.attribute(&owner, a.attr.id.as_str()).await?
                }
                Expr::Subscript(s) => {
                    let container = self.expr(&s.value).await?;
                    let index = self.subscript(&s.slice).await?;
                    self.item(&container, index).await?
                }
                Expr::Call(call) => self.call_expr(call).await?,
                Expr::FString(f) => Value::str(&self.fstring(f).await?),
                Expr::ListComp(c) => {
                    Value::list(self.comprehension(&c.generators, &c.elt, None).await?)
                }
                Expr::Generator(c) => self.generator_expression(c).await?,
                Expr::DictComp(c) => {
                    let key = c
                        .key
                        .as_deref()
                        .ok_or_else(|| PyException::unsupported("'**' in a dict comprehension"))?;
                    let values = self
                        .comprehension(&c.generators, &c.value, Some(key))
                        .await?;
                    // A key made twice keeps its first place and its last value.
                    let dict = Value::Dict(Rc::default());
                    for pair in values {
                        if let Value::Tuple(kv) = &pair
                            && let [key, value] = &kv[..]
                        {
                            let key = Box::pin(self.held_key(&dict, key.clone())).await?;
                            super::operators::set_item(&dict, &key, value.clone())?;
                        }
                    }
                    dict
                }
                // `name := value`: binds, and is the value.
                Expr::Named(n) => {
                    let value = self.expr(&n.value).await?;
                    // Inside a comprehension the name binds in the scope around it (PEP 572).
                    let mut comprehensions = Vec::new();
                    while self.stack.len() > 1
                        && self.stack.last().is_some_and(|a| a.is_comprehension())
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
                Expr::Yield(y) => {
                    let value = self.optional(&y.value).await?;
                    Box::pin(self.yield_expression(value)).await?
                }
                // Boxed, as the other async-only paths: they keep the hot futures small.
                Expr::Await(a) => {
                    let value = self.expr(&a.value).await?;
                    Box::pin(self.await_value(value)).await?
                }
                Expr::YieldFrom(y) => {
                    let iterable = self.expr(&y.value).await?;
                    Box::pin(self.yield_from(&iterable)).await?
                }
                _ => return Err(PyException::unsupported("this expression").into()),
            })
        })
    }

    /// A subscript: slices become `slice` tuples for the container to read.
    pub(crate) async fn subscript(&mut self, e: &Expr) -> Result<Value, Flow> {
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
        let (cell, line, qualifier) = match self.stack.last() {
            Some(a) => (a.cell.clone(), a.line(), a.qualified(COMPREHENSION)),
            None => return Ok(Vec::new()),
        };
        let enclosing = self.closure();
        self.stack.push(Activation {
            qualifier: qualifier.into(),
            function: COMPREHENSION.into(),
            cell,
            line,
            at: None,
            locals: Some(Scope::default()),
            enclosing,
            encloses: true,
            globals: Vec::new(),
            nonlocals: Vec::new(),
            this: None,
            generator: None,
            assigned: None,
        });
        let mut out = Vec::new();
        let result = self
            .generate(generators, element, key, Some(&mut out), None)
            .await;
        self.stack.pop();
        result.map(|()| out)
    }

    /// A generator expression's body, run in its generator's frame: each element is yielded.
    pub(crate) async fn lazy_comprehension(
        &mut self,
        e: &ExprGenerator,
        first: Option<Iter>,
    ) -> Result<(), Flow> {
        self.generate(&e.generators, &e.elt, None, None, first)
            .await
    }

    /// Runs a comprehension's loops, from the outermost: each element goes to `out`, or is
    /// yielded where there is none (a generator expression). `made` is the outermost loop's
    /// iterator when it was made already.
    fn generate<'a>(
        &'a mut self,
        generators: &'a [Comprehension],
        element: &'a Expr,
        key: Option<&'a Expr>,
        mut out: Option<&'a mut Vec<Value>>,
        made: Option<Iter>,
    ) -> Eval<'a, ()> {
        Box::pin(async move {
            let Some((first, rest)) = generators.split_first() else {
                let value = self.expr(element).await?;
                let value = match key {
                    Some(k) => Value::Tuple(Rc::from(vec![self.expr(k).await?, value])),
                    None => value,
                };
                match out {
                    Some(out) => out.push(value),
                    None => {
                        Box::pin(self.yield_value(value)).await?;
                    }
                }
                return Ok(());
            };
            let mut items = match made {
                Some(items) => items,
                None => {
                    let iterable = self.expr(&first.iter).await?;
                    match first.is_async {
                        true => Iter::Async(Box::pin(self.async_iter(&iterable)).await?),
                        false => self.iter_of(&iterable).await?,
                    }
                }
            };
            'items: while let Some(item) = self.next_of(&mut items).await? {
                self.assign(&first.target, item).await?;
                for condition in &first.ifs {
                    if !self.test(condition).await? {
                        continue 'items;
                    }
                }
                self.generate(rest, element, key, out.as_deref_mut(), None)
                    .await?;
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

    /// `container[index]`: a learner's `__getitem__` (or `__missing__`), a `ModuleList`'s
    /// children, or the built-in lookup.
    pub(crate) async fn item(&mut self, container: &Value, index: Value) -> Result<Value, Flow> {
        let index = Box::pin(self.held_key(container, index)).await?;
        Ok(match container {
            Value::Instance(_) | Value::Class(_)
                if container
                    .dunder_class()
                    .is_some_and(|c| c.lookup("__getitem__").is_some()) =>
            {
                self.call_dunder(container, "__getitem__", vec![index])
                    .await?
            }
            // A dict subclass with `__missing__` (defaultdict, Counter) answers
            // for keys it lacks.
            Value::Instance(i) if i.class.lookup("__missing__").is_some() => {
                match operators::get_item(container, &index) {
                    Err(e) if e.kind == super::exception::ExcType::KeyError => {
                        self.call_dunder(container, "__missing__", vec![index])
                            .await?
                    }
                    other => other?,
                }
            }
            Value::NnModule(m) if crate::torch::nn::module::holds_module_list(m) => {
                let children: Vec<Value> = m.children().iter().map(|c| self.object_of(c)).collect();
                operators::get_item(&Value::list(children), &index)?
            }
            _ => sync_first!(self, |_me| Ok(operators::get_item(container, &index)?))?,
        })
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
                        let conversion = match i.conversion {
                            ConversionFlag::None if i.debug_text.is_some() && spec.is_empty() => {
                                Some('r')
                            }
                            ConversionFlag::None => None,
                            ConversionFlag::Repr => Some('r'),
                            ConversionFlag::Str => Some('s'),
                            ConversionFlag::Ascii => Some('a'),
                        };
                        let value = Box::pin(self.convert(value, conversion)).await?;
                        out.push_str(&Box::pin(self.format_object(&value, &spec)).await?);
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
}

/// The name of a comprehension's own scope (a walrus inside binds in the scope around it).
pub(crate) const COMPREHENSION: &str = "<listcomp>";

/// Whether [`Interpreter::simple_expr`] evaluates `e`: it holds only literals, names, arithmetic
/// and single comparisons, which run synchronously and have no effects on the cell's flow.
pub(crate) fn is_simple(e: &Expr) -> bool {
    match e {
        Expr::NumberLiteral(_)
        | Expr::StringLiteral(_)
        | Expr::BytesLiteral(_)
        | Expr::BooleanLiteral(_)
        | Expr::NoneLiteral(_)
        | Expr::EllipsisLiteral(_)
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
