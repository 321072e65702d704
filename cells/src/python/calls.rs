//! Calls: evaluating a call's arguments (`*args`, `**kwargs` with CPython's errors), calling
//! any callable value, and binding arguments to a learner's function's parameters.

use std::future::Future;
use std::rc::Rc;

use ruff_python_ast::{Expr, ExprCall};

use super::args::{Args, Flow};
use super::exception::{ExcType, PyException};
use super::interpreter::{Activation, Interpreter, MAX_DEPTH, frame_of, stack_position};
use super::value::{Class, Function, FunctionBody, Names, Value};

impl Interpreter {
    pub(crate) async fn call_expr(&mut self, call: &ExprCall) -> Result<Value, Flow> {
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
    pub(crate) fn call_now(&mut self, callee: &Value, args: Args) -> Result<Value, Flow> {
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
                    // A classmethod, bound to its class: `super()` inside it works too.
                    Value::Class(c) => defining_class(c, f),
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
            // A metaclass's `__call__` answers for calling its classes (`Color("red")`).
            Value::Class(class)
                if let Some(call) = class.metaclass.as_ref().and_then(|m| m.lookup("__call__")) =>
            {
                let bound = self.bind(callee, call);
                Box::pin(self.call(&bound, args)).await
            }
            Value::Class(class) => self.instantiate(class, args).await,
            Value::Typing(alias) => Ok(crate::stdlib::typing::call_typing(alias, &args)?),
            // As a decorator, `set_grad_enabled(mode)` undoes its own setting and runs the
            // function under `mode`.
            Value::SetGradEnabled { mode, previous } => match args.positional.as_slice() {
                [f] if super::builtins::is_callable(f) => {
                    self.session.set_grad_enabled(*previous);
                    Ok(Value::Wrapped(Rc::new(super::value::Wrapped::GradMode(
                        *mode,
                        f.clone(),
                    ))))
                }
                _ => Err(PyException::new(
                    ExcType::TypeError,
                    "set_grad_enabled() decorates one function",
                )
                .into()),
            },
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
                super::value::Wrapped::Property(..) => Err(PyException::new(
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
            Value::NnClass(name) => {
                let binding = crate::torch::signature::binding("torch.nn", name)
                    .ok_or_else(|| PyException::unsupported(&format!("calling torch.nn.{name}")))?;
                Box::pin(self.call_torch(binding, None, args)).await
            }
            Value::NnModule(module) => self.call_module(module, args).await,
            Value::TorchFn(binding) => Box::pin(self.call_torch(binding, None, args)).await,
            Value::TorchMethod(owner, binding) => {
                Box::pin(self.call_torch(binding, Some((**owner).clone()), args)).await
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
            Value::ModuleFn(module, name) => Box::pin(self.call_stdlib(module, name, args)).await,
            Value::Type("torch.Tensor") => {
                let binding = crate::torch::signature::binding("torch", "Tensor")
                    .expect("torch.Tensor is in the signature table");
                Box::pin(self.call_torch(binding, None, args)).await
            }
            Value::Type(crate::torch::autograd::VARIABLE) => {
                Ok(crate::torch::autograd::variable(&self.session, &args)?)
            }
            Value::TensorType(t) => Ok(crate::torch::legacy::construct(
                &self.session,
                Some(*t),
                &args,
            )?),
            Value::Type("torch.Size") => {
                let items = match args.positional.as_slice() {
                    [] => Vec::new(),
                    [items] if args.keywords.is_empty() => super::operators::iterate(items)?,
                    _ => {
                        return Err(PyException::new(
                            ExcType::TypeError,
                            "torch.Size() takes at most one iterable, and no keywords",
                        )
                        .into());
                    }
                };
                Ok(crate::torch::size::from_items(&items)?)
            }
            Value::NpType(dtype) => Ok(crate::stdlib::numpy::call_type(
                &self.session,
                *dtype,
                &args,
            )?),
            Value::Method(owner, name) if generator_of(owner).is_some() => {
                let generator = generator_of(owner).expect("checked above");
                Box::pin(self.generator_method(&generator, name, args.positional)).await
            }
            // `@name.setter` / `@name.getter`: a property with that function in its place.
            Value::Method(owner, name) if matches!(&**owner, Value::Wrapped(_)) => {
                let (Value::Wrapped(w), [function]) = (&**owner, args.positional.as_slice()) else {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        format!("{name}() takes exactly one argument"),
                    )
                    .into());
                };
                let super::value::Wrapped::Property(getter, setter) = &**w else {
                    return Err(PyException::new(ExcType::TypeError, "not a property").into());
                };
                let property = match &**name {
                    "setter" => {
                        super::value::Wrapped::Property(getter.clone(), Some(function.clone()))
                    }
                    _ => super::value::Wrapped::Property(function.clone(), setter.clone()),
                };
                Ok(Value::Wrapped(Rc::new(property)))
            }
            // `template.format(...)` asks learners' objects how they format.
            Value::Method(owner, name)
                if matches!(&**name, "format" | "format_map")
                    && matches!(&**owner, Value::Str(_) | Value::Type("str")) =>
            {
                Box::pin(self.str_format(owner, name, args)).await
            }
            Value::Method(owner, name)
                if &**name == "apply"
                    && let Value::Class(class) = &**owner
                    && crate::torch::function::is_function_class(class) =>
            {
                let class = class.clone();
                Box::pin(crate::torch::function::apply(self, &class, args)).await
            }
            Value::Method(owner, name) if &**name == "__container_init__" => {
                Box::pin(self.fill_container(owner, args)).await?;
                Ok(Value::None)
            }
            Value::Method(owner, name) if &**name == super::objects::MODULE_REPR => {
                let Value::Instance(i) = &**owner else {
                    return Err(PyException::new(ExcType::TypeError, "not a module").into());
                };
                let module = i
                    .module
                    .clone()
                    .ok_or_else(|| PyException::new(ExcType::TypeError, "not a module"))?;
                Ok(Value::str(
                    &Box::pin(self.module_repr(&module, false)).await?,
                ))
            }
            // An unbound method of a built-in class: the method of its first argument.
            Value::Method(owner, name)
                if matches!(**owner, Value::NnClass(_) | Value::Type("torch.Tensor")) =>
            {
                let mut positional = args.positional.into_iter();
                let Some(receiver) = positional.next() else {
                    let message = match &**owner {
                        Value::NnClass(_) => {
                            format!(
                                "Module.{name}() missing 1 required positional argument: 'self'"
                            )
                        }
                        _ => format!("unbound method TensorBase.{name}() needs an argument"),
                    };
                    return Err(PyException::new(ExcType::TypeError, message).into());
                };
                let rest = Args {
                    positional: positional.collect(),
                    keywords: args.keywords,
                };
                let method = match (&**owner, &receiver) {
                    (Value::NnClass(_), Value::Instance(i)) if &**name == "__repr__" => {
                        match &i.module {
                            Some(module) => {
                                let text = Box::pin(self.module_repr(module, false)).await?;
                                return Ok(Value::str(&text));
                            }
                            None => Box::pin(self.attribute(&receiver, name)).await?,
                        }
                    }
                    (Value::NnClass(_), _) => {
                        match crate::torch::bound("torch.nn.Module", name, Some(&receiver)) {
                            Some(method) => method,
                            None => Box::pin(self.attribute(&receiver, name)).await?,
                        }
                    }
                    _ => Box::pin(self.attribute(&receiver, name)).await?,
                };
                Box::pin(self.call(&method, rest)).await
            }
            Value::Method(owner, name) if &**name == "__exception_init__" => {
                if let Value::Instance(i) = &**owner {
                    let given = Value::Tuple(args.positional.into());
                    i.attributes.borrow_mut().insert("args".into(), given);
                }
                Ok(Value::None)
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
                        // `text.startswith(tag)` of a str subclass's object: its text.
                        if let Value::Instance(_) = arg
                            && let plain @ Value::Str(_) = arg.resolved().into_owned()
                        {
                            *arg = plain;
                        }
                    }
                }
                let args = match Box::pin(self.keyed_method(owner, name, args)).await? {
                    super::keys::Keyed::Call(args) => args,
                    super::keys::Keyed::Answer(answer) => return Ok(answer),
                };
                self.engine_call(|_| {
                    super::methods::call_method(owner, name, args.clone()).map_err(Flow::from)
                })
                .await
            }
            Value::ExcClass(kind) => Ok(Value::Exception(Rc::new(PyException::with_args(
                kind.clone(),
                args.positional,
            )))),
            other => Err(PyException::new(
                ExcType::TypeError,
                format!("'{}' object is not callable", other.type_name()),
            )
            .into()),
        }
    }

    /// Calls a method defined in `class` (so that `super()` inside it searches `class`'s base).
    pub(crate) async fn call_function_of(
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
        let activation = Activation {
            function: f.name.clone(),
            cell: f.cell.clone(),
            line: f.line,
            at: None,
            locals: Some(Rc::new(std::cell::RefCell::new(locals))),
            enclosing: f.enclosing.clone(),
            encloses: true,
            globals: Vec::new(),
            nonlocals: Vec::new(),
            this,
            generator: None,
            assigned: Some(f.assigned.clone()),
            qualifier: format!("{}.<locals>", f.qualname).into(),
        };
        if f.generator || f.is_async {
            use super::generator::{Body, Kind};
            let body = match &f.body {
                FunctionBody::Statements(body) => Body::Statements(body.clone()),
                FunctionBody::Expression(e) => Body::Expression(e.clone()),
            };
            let kind = match (f.is_async, f.generator) {
                (false, _) => Kind::Generator,
                (true, false) => Kind::Coroutine,
                (true, true) => Kind::AsyncGenerator,
            };
            return Ok(self.generator(activation, body, kind));
        }
        self.stack.push(activation);
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

/// One parameter of a learner's function, as [`super::parameters::bind`] sees it.
struct Declared<'a> {
    name: &'a str,
    has_default: bool,
    keyword_only: bool,
    positional_only: bool,
}

impl super::parameters::Parameter for Declared<'_> {
    fn name(&self) -> &str {
        self.name
    }
    fn has_default(&self) -> bool {
        self.has_default
    }
    fn keyword_only(&self) -> bool {
        self.keyword_only
    }
    fn positional_only(&self) -> bool {
        self.positional_only
    }
}

/// A call's arguments bound to a function's parameters, with CPython's errors for what does
/// not fit ([`super::parameters::bind`]); defaults fill the rest, extras go to `*args` and
/// `**kwargs`.
fn bind_arguments(f: &Function, args: Args) -> Result<Names, PyException> {
    let p = &f.parameters;
    let positional = p.posonlyargs.len() + p.args.len();
    let first_default = positional.saturating_sub(f.defaults.len());
    let mut declared: Vec<Declared> = p
        .posonlyargs
        .iter()
        .chain(p.args.iter())
        .enumerate()
        .map(|(i, a)| Declared {
            name: a.parameter.name.id.as_str(),
            has_default: i >= first_default,
            keyword_only: false,
            positional_only: i < p.posonlyargs.len(),
        })
        .collect();
    declared.extend(p.kwonlyargs.iter().map(|a| {
        let name = a.parameter.name.id.as_str();
        Declared {
            name,
            has_default: f.keyword_defaults.iter().any(|(k, _)| k == name),
            keyword_only: true,
            positional_only: false,
        }
    }));
    let slots = super::parameters::bind(
        &f.qualname,
        &declared,
        p.vararg.is_some(),
        p.kwarg.is_some(),
        args.positional,
        args.keywords,
    )?;
    let mut locals = Names::default();
    for (i, (param, value)) in declared.iter().zip(slots.values).enumerate() {
        let value = match value {
            Some(value) => value,
            None if i < positional => f.defaults[i - first_default].clone(),
            None => f
                .keyword_defaults
                .iter()
                .find(|(k, _)| k == param.name)
                .map(|(_, v)| v.clone())
                .unwrap_or(Value::None),
        };
        locals.insert(param.name.to_owned(), value);
    }
    if let Some(vararg) = &p.vararg {
        locals.insert(vararg.name.id.to_string(), Value::Tuple(slots.rest.into()));
    }
    if let Some(kwarg) = &p.kwarg {
        let spare = slots
            .extra_keywords
            .into_iter()
            .map(|(k, v)| (Value::str(&k), v))
            .collect();
        locals.insert(
            kwarg.name.id.to_string(),
            Value::Dict(Rc::new(std::cell::RefCell::new(spare))),
        );
    }
    Ok(locals)
}

/// The generator (or coroutine) a value is, if it is one.
fn generator_of(value: &Value) -> Option<Rc<super::generator::Generator>> {
    match value {
        Value::Coroutine(g) => Some(g.clone()),
        Value::Iterator(it) => match &*it.try_borrow().ok()? {
            super::iteration::Iter::Generator(g) => Some(g.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// The class in `class`'s ancestry whose body defined `f`.
fn defining_class(class: &Rc<Class>, f: &Rc<Function>) -> Option<Rc<Class>> {
    let defines = class.namespace.borrow().values().any(|v| match v {
        Value::Function(g) => Rc::ptr_eq(g, f),
        Value::Wrapped(w) => matches!(
            &**w,
            super::value::Wrapped::ClassMethod(Value::Function(g)) if Rc::ptr_eq(g, f)
        ),
        _ => false,
    });
    if defines {
        Some(class.clone())
    } else {
        class.ancestors.iter().find_map(|a| defining_class(a, f))
    }
}

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
