//! Learners' classes: defining one (with inheritance from a cell class, `object`,
//! `nn.Module` or `Dataset`), making instances, and reading and setting attributes of objects
//! with behaviour (an instance of an `nn.Module` subclass keeps its parameters, buffers and
//! children in its engine module, as PyTorch's `Module.__setattr__` does).

use std::cell::RefCell;
use std::rc::Rc;

use ruff_python_ast::StmtClassDef;
use tolab_engine::nn::{Assign, Module};

use super::args::{Args, Flow};
use super::exception::{ExcType, PyException};
use super::interpreter::Interpreter;
use super::value::{Class, Function, Instance, Value};

type Result<T> = std::result::Result<T, PyException>;

impl Interpreter {
    /// `class Name(Base): ...`: the class, its methods and class attributes from the body.
    pub(crate) async fn define_class(
        &mut self,
        def: &StmtClassDef,
    ) -> std::result::Result<Value, Flow> {
        let mut bases = Vec::new();
        let mut metaclass = None;
        if let Some(arguments) = &def.arguments {
            for expr in arguments.args.iter() {
                bases.push(self.expr(expr).await?);
            }
            for keyword in arguments.keywords.iter() {
                match (&keyword.arg, &self.expr(&keyword.value).await?) {
                    (Some(name), Value::Class(m)) if name.as_str() == "metaclass" => {
                        metaclass = Some(m.clone())
                    }
                    (Some(name), Value::Builtin("type")) if name.as_str() == "metaclass" => {}
                    (Some(name), other) if name.as_str() == "metaclass" => {
                        return Err(PyException::unsupported(&format!(
                            "a metaclass that is not a class deriving from type ({})",
                            other.repr()
                        ))
                        .into());
                    }
                    (Some(name), _) => {
                        return Err(PyException::unsupported(&format!(
                            "class keyword arguments ({name}=)"
                        ))
                        .into());
                    }
                    (None, _) => {
                        return Err(PyException::unsupported("'**' in a class's bases").into());
                    }
                }
            }
        }
        let module = match &self.lookup("__name__") {
            Ok(Value::Str(module)) => module.clone(),
            _ => Rc::from("__main__"),
        };
        let mut class = class_from_bases(def.name.id.as_str(), module, &bases)?;
        if metaclass.is_some() {
            class.metaclass = metaclass;
        }
        let class = Rc::new(class);
        let namespace = self.run_class_body(def.name.id.as_str(), &def.body).await?;
        *class.namespace.borrow_mut() = namespace;
        let made = Value::Class(class.clone());
        // The metaclass's `__init__(cls, name, bases, namespace)` finishes the class (what
        // `EnumMeta` turns attributes into members with). `__new__` is not called.
        if let Some(init) = class.metaclass.as_ref().and_then(|m| m.lookup("__init__")) {
            let namespace: Vec<(Value, Value)> = class
                .namespace
                .borrow()
                .iter()
                .map(|(k, v)| (Value::str(k), v.clone()))
                .collect();
            let args = Args::positional(vec![
                Value::str(&class.name),
                Value::Tuple(bases.into()),
                Value::Dict(Rc::new(RefCell::new(namespace))),
            ]);
            let init = self.bind(&made, init);
            Box::pin(self.call(&init, args)).await?;
        }
        Ok(made)
    }

    /// Calling a cell class: a new instance, initialised by the nearest `__init__`.
    pub(crate) async fn instantiate(
        &mut self,
        class: &Rc<Class>,
        args: Args,
    ) -> std::result::Result<Value, Flow> {
        check_not_abstract(class)?;
        let container = builtin_kind(class);
        let instance = self.bare_instance(class);
        // An int, float or str subclass's value, as `int(*args, **kwargs)` makes it.
        if let Some(kind) = container.filter(|kind| VALUES.contains(kind)) {
            let made = Box::pin(self.call_builtin(kind, args.clone())).await?;
            *instance.builtin.borrow_mut() = Some(made);
        }
        if class.exception.is_some() {
            // As `BaseException.__new__` does, whatever `__init__` does after.
            let given = Value::Tuple(args.positional.clone().into());
            instance
                .attributes
                .borrow_mut()
                .insert("args".into(), given);
        }
        let object = Value::Instance(instance);
        if let Some(Value::Function(ref init)) = class.lookup("__init__") {
            let mut positional = vec![object.clone()];
            positional.extend(args.positional);
            self.call_function_of(
                init,
                class.clone(),
                Args {
                    positional,
                    keywords: args.keywords,
                },
            )
            .await?;
        } else if container.is_some_and(|kind| CONTAINERS.contains(&kind)) {
            self.fill_container(&object, args).await?;
        }
        Ok(object)
    }

    /// A new object of `class` that no `__init__` has run on (`object.__new__(cls)`).
    pub(crate) fn bare_instance(&mut self, class: &Rc<Class>) -> Rc<Instance> {
        let container = builtin_kind(class);
        let instance = Rc::new(Instance {
            class: class.clone(),
            attributes: RefCell::default(),
            module: class.is_module.then(|| Module::custom(&class.name)),
            builtin: RefCell::new(container.map(empty_container)),
        });
        if let Some(module) = &instance.module {
            self.instances.insert(module.id(), instance.clone());
        }
        instance
    }

    /// Fills the built-in container an object of a container subclass is, as the built-in's
    /// constructor would (`dict(*args, **kwargs)`, `list(iterable)`); a dict, list or set keeps
    /// its identity.
    pub(crate) async fn fill_container(
        &mut self,
        object: &Value,
        args: Args,
    ) -> std::result::Result<(), Flow> {
        let Value::Instance(instance) = object else {
            return Ok(());
        };
        let Some(kind) = CONTAINERS
            .iter()
            .find(|name| instance.class.derives_from_builtin(name))
        else {
            return Ok(());
        };
        let made = Box::pin(self.call_builtin(kind, args)).await?;
        let mut slot = instance.builtin.borrow_mut();
        match (slot.as_ref(), &made) {
            (Some(Value::Dict(old)), Value::Dict(new)) => *old.borrow_mut() = new.borrow().clone(),
            (Some(Value::List(old)), Value::List(new)) => *old.borrow_mut() = new.borrow().clone(),
            (Some(Value::Set(old)), Value::Set(new)) => *old.borrow_mut() = new.borrow().clone(),
            _ => *slot = Some(made),
        }
        Ok(())
    }

    /// What raising an object of a learner's exception class raises: named as CPython's
    /// tracebacks name it (`MyError` from a cell, `statistics.StatisticsError` from a module),
    /// with its `str()` for a message.
    pub(crate) async fn exception_of(
        &mut self,
        object: Value,
    ) -> std::result::Result<PyException, Flow> {
        let message = self.text_of(&object, true).await?;
        let name = match &object {
            Value::Instance(i) if matches!(&*i.class.module, "__main__" | "builtins") => {
                i.class.name.clone()
            }
            Value::Instance(i) => format!("{}.{}", i.class.module, i.class.name),
            other => other.type_name().to_owned(),
        };
        Ok(PyException {
            args: super::exception::ExceptionArgs::Object(Rc::new(object)),
            ..PyException::new(ExcType::Other(name), message)
        })
    }

    /// `obj.name` as an expression reads it: [`Self::get_attribute`], then a property's getter
    /// run on the instance.
    pub(crate) async fn attribute(
        &mut self,
        owner: &Value,
        name: &str,
    ) -> std::result::Result<Value, Flow> {
        if let (Value::Function(f), "__annotations__") = (owner, name)
            && !f.attributes.borrow().contains_key(name)
        {
            let annotations = Box::pin(self.annotations(f)).await?;
            f.attributes
                .borrow_mut()
                .insert(name.to_owned(), annotations.clone());
            return Ok(annotations);
        }
        let found = self.get_attribute(owner, name)?;
        if let (Value::Wrapped(w), Value::Instance(_)) = (&found, owner)
            && let super::value::Wrapped::Property(getter, _) = &**w
        {
            let getter = getter.clone();
            return self
                .call(&getter, Args::positional(vec![owner.clone()]))
                .await;
        }
        Ok(found)
    }

    /// A function's `__annotations__`: its parameters' and return annotations, evaluated
    /// where it was defined (the first time they are read, where CPython evaluates them at
    /// definition time).
    async fn annotations(&mut self, f: &Rc<Function>) -> std::result::Result<Value, Flow> {
        let p = &f.parameters;
        let mut annotated: Vec<(String, &ruff_python_ast::Expr)> = Vec::new();
        // In CPython's order: positional, `*args`, keyword-only, `**kwargs`.
        fn named(p: &ruff_python_ast::ParameterWithDefault) -> &ruff_python_ast::Parameter {
            &p.parameter
        }
        let parameters = (p.posonlyargs.iter().chain(p.args.iter()).map(named))
            .chain(p.vararg.as_deref())
            .chain(p.kwonlyargs.iter().map(named))
            .chain(p.kwarg.as_deref());
        for parameter in parameters {
            if let Some(annotation) = &parameter.annotation {
                annotated.push((parameter.name.id.to_string(), annotation));
            }
        }
        if let Some(returns) = &f.returns {
            annotated.push(("return".to_owned(), returns));
        }
        self.stack.push(super::interpreter::Activation {
            enclosing: f.enclosing.clone(),
            ..super::interpreter::Activation::top_level(&f.name, f.cell.clone(), f.line)
        });
        let mut entries = Vec::with_capacity(annotated.len());
        let mut outcome = Ok(());
        for (name, annotation) in annotated {
            match self.expr(annotation).await {
                Ok(value) => entries.push((Value::str(&name), value)),
                Err(e) => {
                    outcome = Err(e);
                    break;
                }
            }
        }
        self.stack.pop();
        outcome?;
        Ok(Value::Dict(Rc::new(RefCell::new(entries))))
    }

    /// `obj.name` for objects with behaviour (learners' instances and classes, modules,
    /// `super()`); everything else through [`super::methods::get`].
    pub(crate) fn get_attribute(&mut self, owner: &Value, name: &str) -> Result<Value> {
        if let Value::Module(module) = owner
            && let Some(scope) = self.source_modules.get(module)
        {
            return scope
                .borrow()
                .get(name)
                .cloned()
                .ok_or_else(|| super::modules::no_attribute(module, name));
        }
        if let Value::Module(module) = owner
            && let Some(default) = crate::torch::backend_flag(module, name)
        {
            let set = self.backend_flags.get(&format!("{module}.{name}")).cloned();
            return Ok(set.unwrap_or(default));
        }
        // `object.__class__`, a data descriptor no instance attribute shadows.
        if name == "__class__" && !matches!(owner, Value::Module(_)) {
            return Ok(super::builtins::type_of(owner));
        }
        match owner {
            Value::Instance(instance) => {
                if let Some(v) = instance.attributes.borrow().get(name) {
                    return Ok(v.clone());
                }
                // A snapshot of its attributes (writing into it does not change the object).
                if name == "__dict__" {
                    let attributes = instance.attributes.borrow();
                    let entries: Vec<(Value, Value)> = attributes
                        .iter()
                        .map(|(k, v)| (Value::str(k), v.clone()))
                        .collect();
                    return Ok(Value::Dict(Rc::new(RefCell::new(entries))));
                }
                if let Some(module) = &instance.module
                    && let Some(member) = module.member(name)
                {
                    return Ok(self.member_value(member));
                }
                let found = instance.class.lookup(name);
                if let Some(method) = class_method(found.as_ref(), &instance.class) {
                    return Ok(method);
                }
                match &found {
                    Some(Value::Function(f)) => {
                        Ok(Value::BoundMethod(Box::new(owner.clone()), f.clone()))
                    }
                    Some(_) => Ok(found.unwrap_or(Value::None)),
                    // An exception never raised from or during another.
                    None if instance.class.exception.is_some()
                        && matches!(name, "__cause__" | "__context__" | "__traceback__") =>
                    {
                        Ok(Value::None)
                    }
                    None if instance.class.exception.is_some()
                        && name == "__suppress_context__" =>
                    {
                        Ok(Value::Bool(false))
                    }
                    // A container subclass has its built-in's methods (`counter.items()`).
                    None if let Some(container) = instance.builtin.borrow().clone() => {
                        super::methods::get(&container, name).map_err(|_| {
                            PyException::new(
                                ExcType::AttributeError,
                                format!(
                                    "'{}' object has no attribute '{name}'",
                                    instance.class.name
                                ),
                            )
                        })
                    }
                    None => instance
                        .module
                        .as_ref()
                        .and_then(|module| self.module_attribute(module, owner, name))
                        .ok_or_else(|| {
                            PyException::new(
                                ExcType::AttributeError,
                                format!(
                                    "'{}' object has no attribute '{name}'",
                                    instance.class.name
                                ),
                            )
                        }),
                }
            }
            Value::NnModule(module) => {
                self.module_attribute(module, owner, name).ok_or_else(|| {
                    crate::torch::no_attribute(
                        "torch.nn.Module",
                        &format!("'{}' object", module.class_name()),
                        name,
                    )
                })
            }
            Value::Super(object, class) => {
                let owner_class = match &**object {
                    Value::Class(c) => Some(c.clone()),
                    Value::Instance(i) => Some(i.class.clone()),
                    _ => None,
                };
                // The classes after `class` in the object's own method resolution order.
                let found = owner_class
                    .as_ref()
                    .unwrap_or(class)
                    .lookup_after(class, name);
                if let Some(owner_class) = owner_class
                    && let Some(method) = class_method(found.as_ref(), &owner_class)
                {
                    return Ok(method);
                }
                match &found {
                    Some(Value::Function(f)) => Ok(Value::BoundMethod(object.clone(), f.clone())),
                    Some(_) => Ok(found.unwrap_or(Value::None)),
                    // `super().__init__(...)` of a container subclass: its contents.
                    None if name == "__init__"
                        && CONTAINERS.iter().any(|c| class.derives_from_builtin(c)) =>
                    {
                        Ok(Value::Method(
                            object.clone(),
                            Rc::from("__container_init__"),
                        ))
                    }
                    // `super().__init__(message)` of an exception: its `args`.
                    None if name == "__init__" && class.exception.is_some() => Ok(Value::Method(
                        object.clone(),
                        Rc::from("__exception_init__"),
                    )),
                    // `super().__init__()` of nn.Module: the module exists already.
                    None if name == "__init__" => Ok(Value::Builtin("__noop__")),
                    // `super().__repr__()` of a module: nn.Module's own text.
                    None if name == "__repr__"
                        && matches!(&**object, Value::Instance(i) if i.module.is_some()) =>
                    {
                        Ok(Value::Method(object.clone(), Rc::from(MODULE_REPR)))
                    }
                    // A method of the built-in base (`super().to(device)`,
                    // `super().state_dict()`), on the object itself.
                    None => crate::torch::bound("torch.nn.Module", name, Some(object))
                        .filter(|_| matches!(&**object, Value::Instance(i) if i.module.is_some()))
                        .ok_or_else(|| super_lacks(name)),
                }
            }
            Value::Function(f) if let Some(value) = f.attributes.borrow().get(name) => {
                Ok(value.clone())
            }
            Value::Function(f) => match name {
                "__name__" => Ok(Value::str(&f.name)),
                "__qualname__" => Ok(Value::str(&f.qualname)),
                "__defaults__" if f.defaults.is_empty() => Ok(Value::None),
                "__defaults__" => Ok(Value::Tuple(f.defaults.clone().into())),
                "__kwdefaults__" if f.keyword_defaults.is_empty() => Ok(Value::None),
                "__kwdefaults__" => Ok(Value::Dict(Rc::new(RefCell::new(
                    f.keyword_defaults
                        .iter()
                        .map(|(k, v)| (Value::str(k), v.clone()))
                        .collect(),
                )))),
                "__module__" => Ok(Value::str("__main__")),
                "__doc__" => Ok(match &f.body {
                    super::value::FunctionBody::Statements(body) => docstring(body),
                    super::value::FunctionBody::Expression(_) => Value::None,
                }),
                _ => Err(PyException::new(
                    ExcType::AttributeError,
                    format!("'function' object has no attribute '{name}'"),
                )),
            },
            Value::Class(class) if name == "__dict__" => Ok(Value::Dict(Rc::new(RefCell::new(
                class
                    .namespace
                    .borrow()
                    .iter()
                    .map(|(k, v)| (Value::str(k), v.clone()))
                    .collect(),
            )))),
            Value::Class(class) if name == "__module__" => Ok(Value::Str(class.module.clone())),
            Value::Class(class) if name == "__mro__" => {
                Ok(Value::Tuple(method_order(class).into()))
            }
            Value::Class(class) if name == "__bases__" => {
                let mut bases: Vec<Value> = class.bases.iter().cloned().map(Value::Class).collect();
                if bases.is_empty() {
                    // The built-in class it names instead (`object` when none).
                    bases = method_order(class).into_iter().skip(1).take(1).collect();
                }
                Ok(Value::Tuple(bases.into()))
            }
            // `MyFunction.apply`, which `torch.autograd.Function` gives its subclasses.
            Value::Class(class)
                if name == "apply" && crate::torch::function::is_function_class(class) =>
            {
                Ok(Value::Method(Box::new(owner.clone()), Rc::from(name)))
            }
            Value::Class(class)
                if let Some(method) = class_method(class.lookup(name).as_ref(), class) =>
            {
                Ok(method)
            }
            Value::Class(class) if let Some(found) = class.lookup(name) => Ok(found),
            // A metaclass's method, bound to the class (`Sized.register(tuple)`).
            Value::Class(class)
                if let Some(method) = class.metaclass.as_ref().and_then(|m| m.lookup(name)) =>
            {
                Ok(self.bind(owner, method))
            }
            Value::Class(class) if name != "__name__" => Err(PyException::new(
                ExcType::AttributeError,
                format!("type object '{}' has no attribute '{name}'", class.name),
            )),
            other => super::methods::get(other, name),
        }
    }

    /// `obj.name = value` and `setattr(obj, name, value)`: through the class's `__setattr__`
    /// where it has one.
    pub(crate) async fn assign_attribute(
        &mut self,
        owner: &Value,
        name: &str,
        value: Value,
    ) -> std::result::Result<(), Flow> {
        if let Value::Instance(i) = owner
            && let Some(Value::Wrapped(w)) = &i.class.lookup(name)
            && let super::value::Wrapped::Property(_, setter) = &**w
        {
            let Some(setter) = setter else {
                return Err(PyException::new(
                    ExcType::AttributeError,
                    format!(
                        "property '{name}' of '{}' object has no setter",
                        i.class.name
                    ),
                )
                .into());
            };
            self.call(setter, Args::positional(vec![owner.clone(), value]))
                .await?;
            return Ok(());
        }
        if let Value::Instance(i) = owner
            && i.class.lookup("__setattr__").is_some()
        {
            self.call_dunder(owner, "__setattr__", vec![Value::str(name), value])
                .await?;
            return Ok(());
        }
        Ok(self.set_attribute(owner, name, value)?)
    }

    /// `obj.name = value`, as `object.__setattr__` does it.
    pub(crate) fn set_attribute(&mut self, owner: &Value, name: &str, value: Value) -> Result<()> {
        if let Value::Module(module) = owner
            && crate::torch::backend_flag(module, name).is_some()
        {
            self.backend_flags
                .insert(format!("{module}.{name}"), Value::Bool(value.truthy()));
            return Ok(());
        }
        if let Value::Tensor(_) | Value::Parameter(_) = owner
            && let Value::Tensor(tensor) = &*owner.resolved()
        {
            return crate::torch::tensor::set_attribute(tensor, name, value);
        }
        match owner {
            Value::Class(class) => {
                class.namespace.borrow_mut().insert(name.to_owned(), value);
                return Ok(());
            }
            Value::Function(f) => {
                f.attributes.borrow_mut().insert(name.to_owned(), value);
                return Ok(());
            }
            Value::FunctionCtx(ctx) => {
                crate::torch::function::set_ctx_attribute(ctx, name, value);
                return Ok(());
            }
            _ => {}
        }
        let Value::Instance(instance) = owner else {
            return Err(PyException::new(
                ExcType::AttributeError,
                format!(
                    "'{}' object attribute '{name}' is read-only",
                    owner.type_name()
                ),
            ));
        };
        if let Some(module) = &instance.module {
            let assign = match &value {
                Value::Parameter(p) => Assign::Parameter(p.clone()),
                Value::NnModule(m) => Assign::Module(m.clone()),
                Value::Instance(i) if i.module.is_some() => {
                    Assign::Module(i.module.clone().unwrap_or_else(|| Module::custom("?")))
                }
                Value::Tensor(t) => Assign::Tensor(t.clone()),
                Value::None => Assign::None,
                other => Assign::Other(other.type_name()),
            };
            if module.assign(name, assign)? {
                instance.attributes.borrow_mut().shift_remove(name);
                return Ok(());
            }
        }
        instance
            .attributes
            .borrow_mut()
            .insert(name.to_owned(), value);
        Ok(())
    }
}

/// The built-in containers a cell's class may derive from.
const CONTAINERS: &[&str] = &["dict", "list", "set", "tuple"];

/// The built-in immutable values a cell's class may derive from (`class Stage(int, Enum)`):
/// the object's value is made from the call's arguments before `__init__` runs, as
/// `int.__new__` makes it.
const VALUES: &[&str] = &["int", "float", "str"];

/// The built-in class whose value an object of `class` carries, if any.
fn builtin_kind(class: &Class) -> Option<&'static str> {
    CONTAINERS
        .iter()
        .chain(VALUES)
        .find(|name| class.derives_from_builtin(name))
        .copied()
}

/// An empty built-in container, or a value type's zero.
fn empty_container(name: &str) -> Value {
    match name {
        "dict" => Value::Dict(Rc::default()),
        "list" => Value::list(Vec::new()),
        "set" => Value::Set(Rc::default()),
        "int" => Value::Int(0),
        "float" => Value::Float(0.0),
        "str" => Value::str(""),
        _ => Value::Tuple(Rc::from(Vec::new())),
    }
}

/// A new class named `name` deriving from `bases` (cell classes, in C3 order as CPython
/// orders them; `object`, the built-in containers, `Dataset`, `nn.Module` and exception
/// classes), its namespace still empty.
pub(crate) fn class_from_bases(name: &str, module: Rc<str>, bases: &[Value]) -> Result<Class> {
    let mut class = Class::plain(name, module);
    for base in bases {
        match base {
            Value::Class(c) => {
                if class.bases.iter().any(|b| Rc::ptr_eq(b, c)) {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        format!("duplicate base class {}", c.name),
                    ));
                }
                class.is_module |= c.is_module;
                class.metaclass = class.metaclass.take().or_else(|| c.metaclass.clone());
                class.exception = more_specific(class.exception.take(), c.exception.clone());
                class.builtin_base = class.builtin_base.or(c.builtin_base);
                class.bases.push(c.clone());
            }
            Value::ExcClass(kind) => {
                class.exception = more_specific(class.exception.take(), Some(kind.clone()));
            }
            Value::NnClass("Module") => class.is_module = true,
            // A metaclass (`class EnumMeta(type)`).
            Value::Builtin("type") => class.builtin_base = Some("type"),
            Value::Type(
                t @ ("object"
                | "torch.utils.data.Dataset"
                | crate::torch::function::FUNCTION
                | "dict"
                | "list"
                | "set"
                | "tuple"
                | "int"
                | "float"
                | "str"),
            ) => {
                // One built-in layout per object (`class X(int, str)` cannot be).
                let layout = |b: &str| CONTAINERS.contains(&b) || VALUES.contains(&b);
                if layout(t) && class.builtin_base.is_some_and(|b| b != *t && layout(b)) {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        "multiple bases have instance lay-out conflict",
                    ));
                }
                if class.builtin_base.is_none() || *t != "object" {
                    class.builtin_base = Some(*t);
                }
            }
            other => {
                return Err(PyException::unsupported(&format!(
                    "deriving from {}",
                    other.repr()
                )));
            }
        }
    }
    class.ancestors = linearize(&class.bases).ok_or_else(|| {
        let names: Vec<&str> = class.bases.iter().map(|b| b.name.as_str()).collect();
        PyException::new(
            ExcType::TypeError,
            format!(
                "Cannot create a consistent method resolution\norder (MRO) for bases {}",
                names.join(", ")
            ),
        )
    })?;
    Ok(class)
}

/// `cls.__mro__`: the class, its cell ancestors, then the built-in classes it derives from
/// (an exception class's chain up to `BaseException`, a container, `nn.Module`), then `object`.
fn method_order(class: &Rc<Class>) -> Vec<Value> {
    let mut order: Vec<Value> = std::iter::once(class.clone())
        .chain(class.ancestors.iter().cloned())
        .map(Value::Class)
        .collect();
    if let Some(kind) = &class.exception {
        order.push(Value::ExcClass(kind.clone()));
        // The built-in exception classes above it, most specific first.
        const ABOVE: &[&str] = &[
            "UnicodeError",
            "ValueError",
            "IndexError",
            "LookupError",
            "ArithmeticError",
            "OSError",
            "RuntimeError",
            "NameError",
            "Warning",
            "Exception",
            "BaseException",
        ];
        for name in ABOVE {
            if let Some(parent) = ExcType::builtin(name)
                && parent != *kind
                && kind.caught_by(&parent)
            {
                order.push(Value::ExcClass(parent));
            }
        }
    } else if class.is_module {
        order.push(Value::NnClass("Module"));
    } else if let Some(builtin) = class.builtin_base.filter(|b| *b != "object") {
        order.push(Value::Type(builtin));
    }
    order.push(Value::Type("object"));
    order
}

/// C3: the merge of the bases' orders and the bases themselves (`None` where no consistent
/// order exists).
fn linearize(bases: &[Rc<Class>]) -> Option<Vec<Rc<Class>>> {
    let mut orders: Vec<Vec<Rc<Class>>> = bases
        .iter()
        .map(|b| {
            std::iter::once(b.clone())
                .chain(b.ancestors.iter().cloned())
                .collect()
        })
        .collect();
    orders.push(bases.to_vec());
    let mut merged = Vec::new();
    loop {
        orders.retain(|o| !o.is_empty());
        if orders.is_empty() {
            return Some(merged);
        }
        let in_a_tail = |c: &Rc<Class>| {
            orders
                .iter()
                .any(|o| o[1..].iter().any(|t| Rc::ptr_eq(t, c)))
        };
        let head = orders
            .iter()
            .map(|o| o[0].clone())
            .find(|h| !in_a_tail(h))?;
        for order in &mut orders {
            if Rc::ptr_eq(&order[0], &head) {
                order.remove(0);
            }
        }
        merged.push(head);
    }
}

/// Of two built-in exception classes a class derives from, the one its `except` clauses and
/// traceback go by: the more specific (`class ConfigError(TrainingError, ValueError)` is a
/// `ValueError`, `TrainingError` being only an `Exception`).
fn more_specific(a: Option<ExcType>, b: Option<ExcType>) -> Option<ExcType> {
    match (a, b) {
        (Some(a), Some(b)) if a == ExcType::Exception || a.name() == "BaseException" => Some(b),
        (Some(a), _) => Some(a),
        (None, b) => b,
    }
}

/// An `abc.ABC` subclass with abstract methods left cannot be instantiated.
fn check_not_abstract(class: &Rc<Class>) -> Result<()> {
    let abstract_methods = abstract_methods(class);
    if abstract_methods.is_empty() {
        return Ok(());
    }
    Err(PyException::new(
        ExcType::TypeError,
        format!(
            "Can't instantiate abstract class {} with abstract method{} {}",
            class.name,
            if abstract_methods.len() == 1 { "" } else { "s" },
            abstract_methods.join(", ")
        ),
    ))
}

/// The abstract methods `class` has left, sorted (`__abstractmethods__`): those marked by
/// `@abstractmethod`, a property's getter included, that no class along the MRO overrides.
/// Only classes made by `abc.ABCMeta` have any.
pub(crate) fn abstract_methods(class: &Rc<Class>) -> Vec<String> {
    let is_abc = class
        .metaclass
        .as_ref()
        .is_some_and(|m| m.name == "ABCMeta" && &*m.module == "abc");
    if !is_abc {
        return Vec::new();
    }
    let marked = |f: &Function| {
        f.attributes
            .borrow()
            .get("__isabstractmethod__")
            .is_some_and(Value::truthy)
    };
    let mut names = Vec::new();
    for c in std::iter::once(class).chain(class.ancestors.iter()) {
        names.extend(c.namespace.borrow().keys().cloned());
    }
    let mut abstract_methods: Vec<String> = names
        .into_iter()
        .filter(|name| match &class.lookup(name) {
            Some(Value::Function(f)) => marked(f),
            Some(Value::Wrapped(w)) => match &**w {
                super::value::Wrapped::Property(Value::Function(f), _)
                | super::value::Wrapped::StaticMethod(Value::Function(f))
                | super::value::Wrapped::ClassMethod(Value::Function(f)) => marked(f),
                _ => false,
            },
            _ => false,
        })
        .collect();
    abstract_methods.sort();
    abstract_methods.dedup();
    abstract_methods
}

/// A function's docstring: its body's leading string.
fn docstring(body: &[ruff_python_ast::Stmt]) -> Value {
    match body.first() {
        Some(ruff_python_ast::Stmt::Expr(e)) => match &*e.value {
            ruff_python_ast::Expr::StringLiteral(s) => Value::str(s.value.to_str()),
            _ => Value::None,
        },
        _ => Value::None,
    }
}

fn super_lacks(name: &str) -> PyException {
    PyException::new(
        ExcType::AttributeError,
        format!("'super' object has no attribute '{name}'"),
    )
}

/// A `@classmethod` found on `class` (or on the class of an object), bound to that class.
fn class_method(found: Option<&Value>, class: &Rc<Class>) -> Option<Value> {
    let Some(Value::Wrapped(wrapped)) = found else {
        return None;
    };
    let super::value::Wrapped::ClassMethod(Value::Function(f)) = &**wrapped else {
        return None;
    };
    Some(Value::BoundMethod(
        Box::new(Value::Class(class.clone())),
        f.clone(),
    ))
}

/// The method `super().__repr__()` and `nn.Module.__repr__` give a module: nn.Module's text.
pub(crate) const MODULE_REPR: &str = "__module_repr__";
