//! Objects with behaviour: classes defined in cells (with inheritance and `super()`), their
//! instances, and the `torch.nn` / `torch.optim` objects. An instance of an `nn.Module` subclass
//! owns an engine module: assigning a layer, a Parameter or a tensor to `self.x` registers it as
//! PyTorch's `Module.__setattr__` would, and calling the instance runs its `forward`.

use std::cell::RefCell;
use std::rc::Rc;

use ruff_python_ast::StmtClassDef;
use tolab_engine::nn::functional::Reduction;
use tolab_engine::nn::{Assign, Factory, Layer, Member, Module, Parameter};
use tolab_engine::optim::{Algorithm, Hyper, Optimizer, Options, StateDict};
use tolab_engine::{Tensor, To};

use super::args::{Args, Flow};
use super::exception::{ExcType, PyException};
use super::interpreter::Interpreter;
use super::modules::{device_of, dtype_of};
use super::operators::iterate;
use super::value::{Class, Instance, Names, Value, as_f64};

type Result<T> = std::result::Result<T, PyException>;

/// The `torch.nn` classes a cell can use.
pub const NN_CLASSES: &[&str] = &[
    "Module",
    "Linear",
    "ReLU",
    "Sigmoid",
    "Tanh",
    "Dropout",
    "Flatten",
    "Sequential",
    "ModuleList",
    "Identity",
    "Softmax",
    "LogSoftmax",
    "MSELoss",
    "CrossEntropyLoss",
    "NLLLoss",
    "BCEWithLogitsLoss",
    "Conv2d",
    "Embedding",
    "LayerNorm",
    "Parameter",
];

/// The methods every module has.
pub(super) const MODULE_METHODS: &[&str] = &[
    "parameters",
    "named_parameters",
    "buffers",
    "named_buffers",
    "children",
    "named_children",
    "modules",
    "named_modules",
    "register_buffer",
    "register_parameter",
    "add_module",
    "load_state_dict",
    "to",
    "cuda",
    "cpu",
    "float",
    "double",
    "half",
    "train",
    "eval",
    "zero_grad",
    "state_dict",
    "requires_grad_",
    "append",
    "extend",
];

/// Whether a module holds a list of children (`Sequential`, `ModuleList`), which `len`,
/// indexing, iteration and `append` work on.
pub(super) fn holds_module_list(module: &Module) -> bool {
    matches!(module.layer(), Layer::Sequential) || module.class_name() == "ModuleList"
}

/// The modules among `values`, or the error for one that is not.
fn modules_of(values: &[Value]) -> Result<Vec<Module>> {
    values
        .iter()
        .map(|v| match v {
            Value::NnModule(m) => Ok(m.clone()),
            Value::Instance(i) if i.module.is_some() => {
                Ok(i.module.clone().unwrap_or_else(|| Module::custom("?")))
            }
            other => Err(type_error(format!(
                "{} is not a Module subclass",
                other.type_name()
            ))),
        })
        .collect()
}

/// A generator over `values`, as `parameters()` and its siblings return.
fn items(values: Vec<Value>) -> Value {
    Value::Iterator(Rc::new(RefCell::new(super::iteration::Iter::Items(
        values.into_iter(),
    ))))
}

/// `(name, value)` pairs, as `named_parameters()` and its siblings give them.
fn named(pairs: impl Iterator<Item = (String, Value)>) -> Value {
    items(
        pairs
            .map(|(n, v)| Value::Tuple(Rc::from(vec![Value::str(&n), v])))
            .collect(),
    )
}

/// A string argument, by position or keyword.
fn text_arg(args: &Args, index: usize, name: &str) -> String {
    args.get(index, name).map_or(String::new(), Value::str_text)
}

/// PyTorch's error for registering something that is not a tensor (or Parameter) under a name.
fn cannot_assign(value: &Value, slot: &str, args: &Args, required: &str) -> PyException {
    type_error(format!(
        "cannot assign '{}' object to {slot} '{}' ({required} or None required)",
        value.type_name(),
        text_arg(args, 0, "name")
    ))
}

fn type_error(message: String) -> PyException {
    PyException::new(ExcType::TypeError, message)
}

/// `int` arguments of a constructor.
fn count(args: &Args, index: usize, name: &str) -> Result<usize> {
    match args.get(index, name) {
        Some(Value::Int(n)) if *n >= 0 => Ok(*n as usize),
        other => Err(type_error(format!(
            "{name} must be a non-negative int, not {}",
            other.map_or("nothing".into(), Value::type_name)
        ))),
    }
}

/// An `int` or `(int, int)` argument (`kernel_size=3`, `stride=(2, 1)`), with its default.
fn pair(args: &Args, index: usize, name: &str, default: Option<usize>) -> Result<[usize; 2]> {
    let bad = || type_error(format!("{name} must be an int or a pair of ints"));
    match args.get(index, name) {
        None => default.map(|d| [d, d]).ok_or_else(|| {
            type_error(format!(
                "__init__() missing 1 required positional argument: '{name}'"
            ))
        }),
        Some(Value::Int(n)) if *n >= 0 => Ok([*n as usize; 2]),
        Some(v @ (Value::Tuple(_) | Value::List(_))) => match iterate(v)?.as_slice() {
            [Value::Int(a), Value::Int(b)] if *a >= 0 && *b >= 0 => Ok([*a as usize, *b as usize]),
            _ => Err(bad()),
        },
        Some(_) => Err(bad()),
    }
}

/// A convolution's `padding`: an int, a pair, `'same'` or `'valid'`.
fn padding(args: &Args, index: usize) -> Result<tolab_engine::nn::functional::Padding> {
    use tolab_engine::nn::functional::Padding;
    Ok(match args.get(index, "padding") {
        Some(Value::Str(s)) if &**s == "same" => Padding::Same,
        Some(Value::Str(s)) if &**s == "valid" => Padding::Explicit([0, 0]),
        _ => Padding::Explicit(pair(args, index, "padding", Some(0))?),
    })
}

fn reduction(args: &Args) -> Result<Reduction> {
    match args.keyword("reduction") {
        None => Ok(Reduction::Mean),
        Some(v) => Reduction::from_name(&v.str_text()).ok_or_else(|| {
            PyException::new(
                ExcType::ValueError,
                format!("{} is not a valid value for reduction", v.str_text()),
            )
        }),
    }
}

impl Interpreter {
    /// `class Name(Base): ...`: methods and class attributes from the body.
    pub(super) async fn define_class(
        &mut self,
        def: &StmtClassDef,
    ) -> std::result::Result<(), Flow> {
        let mut base = None;
        let mut is_module = false;
        let mut builtin_base = None;
        if let Some(arguments) = &def.arguments {
            for expr in arguments.args.iter() {
                match &self.expr(expr).await? {
                    Value::Class(c) => {
                        is_module |= c.is_module;
                        base = Some(c.clone());
                    }
                    Value::NnClass("Module") => is_module = true,
                    Value::Type(name @ ("object" | "torch.utils.data.Dataset")) => {
                        builtin_base = Some(*name);
                    }
                    other => {
                        return Err(PyException::unsupported(&format!(
                            "deriving from {}",
                            other.repr()
                        ))
                        .into());
                    }
                }
            }
        }
        let class = Rc::new(Class {
            name: def.name.id.to_string(),
            base,
            is_module,
            builtin_base,
            namespace: RefCell::new(Names::default()),
        });
        let namespace = self.run_class_body(&def.body).await?;
        *class.namespace.borrow_mut() = namespace;
        self.set_name(def.name.id.as_str(), Value::Class(class));
        Ok(())
    }

    /// Calling a cell class: a new instance, initialised by the nearest `__init__`.
    pub(super) async fn instantiate(
        &mut self,
        class: &Rc<Class>,
        args: Args,
    ) -> std::result::Result<Value, Flow> {
        let instance = Rc::new(Instance {
            class: class.clone(),
            attributes: RefCell::new(Names::default()),
            module: class.is_module.then(|| Module::custom(&class.name)),
        });
        if let Some(module) = &instance.module {
            self.instances.insert(module.id(), instance.clone());
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
        }
        Ok(object)
    }

    /// The Python object for an engine module: the cell instance that owns it, or the built-in
    /// layer itself.
    pub(super) fn object_of(&self, module: &Module) -> Value {
        if let Some(instance) = self.instances.get(&module.id()) {
            return Value::Instance(instance.clone());
        }
        // A `DataParallel` replica of a learner's module: the learner's class, run on the
        // replica's own parameters (its children are replicas too).
        if let Some(instance) = module.original().and_then(|o| self.instances.get(&o.id())) {
            return Value::Instance(Rc::new(Instance {
                class: instance.class.clone(),
                attributes: RefCell::new(instance.attributes.borrow().clone()),
                module: Some(module.clone()),
            }));
        }
        Value::NnModule(module.clone())
    }

    /// `module(*inputs)`: a learner's `forward`, a `Sequential` walked child by child, or the
    /// engine's forward of a built-in layer.
    pub(super) async fn call_module(
        &mut self,
        module: &Module,
        args: Args,
    ) -> std::result::Result<Value, Flow> {
        match module.layer() {
            Layer::Custom { .. } => {
                let object = self.object_of(module);
                let forward = self.get_attribute(&object, "forward").map_err(|_| {
                    PyException::new(
                        ExcType::NotImplementedError,
                        format!(
                            "Module [{}] is missing the required \"forward\" function",
                            module.class_name()
                        ),
                    )
                })?;
                Box::pin(self.call(&forward, args)).await
            }
            Layer::Sequential => {
                let mut current = args.positional.into_iter().next().unwrap_or(Value::None);
                for child in module.children() {
                    let child = self.object_of(&child);
                    current = Box::pin(self.call(
                        &child,
                        Args {
                            positional: vec![current],
                            keywords: Vec::new(),
                        },
                    ))
                    .await?;
                }
                Ok(current)
            }
            _ => {
                let inputs: Vec<Tensor> = args
                    .positional
                    .iter()
                    .map(|v| match &*v.resolved() {
                        Value::Tensor(t) => Ok(t.clone()),
                        other => Err(type_error(format!(
                            "{}.forward() expects tensors, got {}",
                            module.class_name(),
                            other.type_name()
                        ))),
                    })
                    .collect::<Result<_>>()?;
                self.engine_call(|me| me.forward_with_learner_code(module, &inputs))
                    .await
            }
        }
    }

    /// The engine's forward of a built-in module, which calls back into learners' modules it
    /// holds (`DataParallel` and `DistributedDataParallel` around a learner's `nn.Module`).
    fn forward_with_learner_code(
        &mut self,
        module: &Module,
        inputs: &[Tensor],
    ) -> std::result::Result<Value, Flow> {
        let raised = RefCell::new(None);
        let me = RefCell::new(&mut *self);
        let output = module.forward_with(inputs, &mut |inner: &Module, inputs: &[Tensor]| {
            let mut me = me.borrow_mut();
            let object = me.object_of(inner);
            let args = Args::positional(inputs.iter().cloned().map(Value::Tensor).collect());
            let failure = match me.call_now(&object, args) {
                Ok(Value::Tensor(ref t)) => return Ok(t.clone()),
                Ok(other) => Flow::from(type_error(format!(
                    "{}.forward() returned {}; the lab's parallel wrappers gather tensors",
                    inner.class_name(),
                    other.type_name()
                ))),
                Err(flow) => flow,
            };
            *raised.borrow_mut() = Some(failure);
            // Stands in for the learner's exception, which replaces it below.
            Err(tolab_engine::Error::MissingForward {
                class_name: inner.class_name(),
            })
        });
        if let Some(failure) = raised.into_inner() {
            return Err(failure);
        }
        Ok(Value::Tensor(output?))
    }

    /// `obj.name` for objects with behaviour; everything else goes to the engine's attributes.
    pub(super) fn get_attribute(&mut self, owner: &Value, name: &str) -> Result<Value> {
        if let Value::Module(module) = owner
            && let Some(default) = super::modules::backend_flag(module, name)
        {
            let set = self.backend_flags.get(&format!("{module}.{name}")).cloned();
            return Ok(set.unwrap_or(default));
        }
        match owner {
            Value::Instance(instance) => {
                if let Some(v) = instance.attributes.borrow().get(name) {
                    return Ok(v.clone());
                }
                if let Some(module) = &instance.module {
                    if let Some(member) = module.member(name) {
                        return Ok(self.member_value(member));
                    }
                    if name == "training" {
                        return Ok(Value::Bool(module.training()));
                    }
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
                    None => match &instance.module {
                        Some(module) if MODULE_METHODS.contains(&name) => Ok(Value::Method(
                            Box::new(Value::NnModule(module.clone())),
                            Rc::from(name),
                        )),
                        _ => Err(PyException::new(
                            ExcType::AttributeError,
                            format!("'{}' object has no attribute '{name}'", instance.class.name),
                        )),
                    },
                }
            }
            Value::NnModule(module) => match module.member(name) {
                Some(member) => Ok(self.member_value(member)),
                None if name == "training" => Ok(Value::Bool(module.training())),
                None if MODULE_METHODS.contains(&name) => {
                    Ok(Value::Method(Box::new(owner.clone()), Rc::from(name)))
                }
                None => Err(PyException::new(
                    ExcType::AttributeError,
                    format!("'{}' object has no attribute '{name}'", module.class_name()),
                )),
            },
            Value::Super(object, class) => {
                let found = class.base.as_ref().and_then(|b| b.lookup(name));
                match &found {
                    Some(Value::Function(f)) => Ok(Value::BoundMethod(object.clone(), f.clone())),
                    Some(_) => Ok(found.unwrap_or(Value::None)),
                    // `super().__init__()` of nn.Module: the module exists already.
                    None if name == "__init__" => Ok(Value::Builtin("__noop__")),
                    None => Err(PyException::new(
                        ExcType::AttributeError,
                        format!("'super' object has no attribute '{name}'"),
                    )),
                }
            }
            Value::Module("os") if name == "environ" => Ok(Value::Environ(self.session.clone())),
            Value::Class(class)
                if let Some(method) = class_method(class.lookup(name).as_ref(), class) =>
            {
                Ok(method)
            }
            Value::Class(class) if name != "__name__" => class.lookup(name).ok_or_else(|| {
                PyException::new(
                    ExcType::AttributeError,
                    format!("type object '{}' has no attribute '{name}'", class.name),
                )
            }),
            Value::Optimizer(_)
                if matches!(
                    name,
                    "step" | "zero_grad" | "state_dict" | "load_state_dict"
                ) =>
            {
                Ok(Value::Method(Box::new(owner.clone()), Rc::from(name)))
            }
            other => super::attributes::get(other, name),
        }
    }

    fn member_value(&self, member: Member) -> Value {
        match member {
            Member::Parameter(p) => p.map_or(Value::None, Value::Parameter),
            Member::Buffer(t) => t.map_or(Value::None, Value::Tensor),
            Member::Module(m) => m.map_or(Value::None, |m| self.object_of(&m)),
        }
    }

    /// `obj.name = value`.
    pub(super) fn set_attribute(&mut self, owner: &Value, name: &str, value: Value) -> Result<()> {
        if let Value::Module(module) = owner
            && super::modules::backend_flag(module, name).is_some()
        {
            self.backend_flags
                .insert(format!("{module}.{name}"), Value::Bool(value.truthy()));
            return Ok(());
        }
        if let Value::Tensor(_) | Value::Parameter(_) = owner
            && let Value::Tensor(tensor) = &*owner.resolved()
        {
            return set_tensor_attribute(tensor, name, value);
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
                instance.attributes.borrow_mut().remove(name);
                return Ok(());
            }
        }
        instance
            .attributes
            .borrow_mut()
            .insert(name.to_owned(), value);
        Ok(())
    }

    /// `nn.Linear(...)` and the other built-in classes.
    pub(super) fn construct_nn(&mut self, name: &str, args: Args) -> Result<Value> {
        let session = self.session.clone();
        let factory = Factory {
            bias: args.keyword("bias").is_none_or(Value::truthy),
            device: args
                .keyword("device")
                .map(device_of)
                .transpose()?
                .unwrap_or(tolab_engine::Device::CPU),
            dtype: args
                .keyword("dtype")
                .map(dtype_of)
                .transpose()?
                .unwrap_or(tolab_engine::DType::Float32),
        };
        let layer = match name {
            "Parameter" => {
                let data = match args.positional.first().map(|v| v.resolved().into_owned()) {
                    Some(Value::Tensor(ref t)) => t.clone(),
                    _ => return Err(type_error("Parameter() expects a tensor".into())),
                };
                let requires_grad = args.get(1, "requires_grad").is_none_or(Value::truthy);
                return Ok(Value::Parameter(Parameter::new(&data, requires_grad)?));
            }
            "Module" => return Ok(Value::NnModule(Module::custom("Module"))),
            "Sequential" => {
                let children = modules_of(&args.positional)?;
                return Ok(Value::NnModule(Module::sequential(&children)));
            }
            "ModuleList" => {
                let list = Module::custom("ModuleList");
                let children = match args.get(0, "modules") {
                    None | Some(Value::None) => Vec::new(),
                    Some(iterable) => modules_of(&iterate(iterable)?)?,
                };
                for (i, child) in children.into_iter().enumerate() {
                    list.add_module(&i.to_string(), Some(child));
                }
                return Ok(Value::NnModule(list));
            }
            "Linear" => Layer::Linear {
                in_features: count(&args, 0, "in_features")?,
                out_features: count(&args, 1, "out_features")?,
            },
            "ReLU" => Layer::ReLU,
            "Sigmoid" => Layer::Sigmoid,
            "Tanh" => Layer::Tanh,
            "Identity" => Layer::Identity,
            "Softmax" | "LogSoftmax" => Layer::Softmax {
                dim: match args.get(0, "dim") {
                    None | Some(Value::None) => None,
                    Some(d) => Some(as_f64(d) as i64),
                },
                log: name == "LogSoftmax",
            },
            "Dropout" => Layer::Dropout {
                p: args.get(0, "p").map_or(0.5, as_f64),
            },
            "Flatten" => Layer::Flatten {
                start_dim: args.get(0, "start_dim").map_or(1.0, as_f64) as i64,
                end_dim: args.get(1, "end_dim").map_or(-1.0, as_f64) as i64,
            },
            "MSELoss" => Layer::MSELoss {
                reduction: reduction(&args)?,
            },
            "CrossEntropyLoss" => Layer::CrossEntropyLoss {
                reduction: reduction(&args)?,
                ignore_index: args.keyword("ignore_index").map_or(-100.0, as_f64) as i64,
            },
            "NLLLoss" => Layer::NLLLoss {
                reduction: reduction(&args)?,
                ignore_index: args.keyword("ignore_index").map_or(-100.0, as_f64) as i64,
            },
            "BCEWithLogitsLoss" => Layer::BCEWithLogitsLoss {
                reduction: reduction(&args)?,
            },
            "Conv2d" => Layer::Conv2d {
                in_channels: count(&args, 0, "in_channels")?,
                out_channels: count(&args, 1, "out_channels")?,
                kernel_size: pair(&args, 2, "kernel_size", None)?,
                stride: pair(&args, 3, "stride", Some(1))?,
                padding: padding(&args, 4)?,
                dilation: pair(&args, 5, "dilation", Some(1))?,
                groups: match args.get(6, "groups") {
                    None => 1,
                    Some(_) => count(&args, 6, "groups")?,
                },
            },
            "Embedding" => Layer::Embedding {
                num_embeddings: count(&args, 0, "num_embeddings")?,
                embedding_dim: count(&args, 1, "embedding_dim")?,
                padding_idx: args
                    .get(2, "padding_idx")
                    .filter(|v| !matches!(v, Value::None))
                    .map(|v| as_f64(v) as i64),
            },
            "LayerNorm" => Layer::LayerNorm {
                normalized_shape: match args.get(0, "normalized_shape") {
                    Some(Value::Int(n)) if *n >= 0 => vec![*n as usize],
                    Some(shape) => iterate(shape)?
                        .iter()
                        .map(|v| as_f64(v).max(0.0) as usize)
                        .collect(),
                    None => {
                        return Err(type_error(
                            "LayerNorm.__init__() missing 1 required positional argument: 'normalized_shape'".into(),
                        ));
                    }
                },
                eps: args.get(1, "eps").map_or(1e-5, as_f64),
                elementwise_affine: args.get(2, "elementwise_affine").is_none_or(Value::truthy),
            },
            other => {
                return Err(PyException::new(
                    ExcType::AttributeError,
                    format!("module 'torch.nn' has no attribute '{other}'"),
                ));
            }
        };
        Ok(Value::NnModule(Module::build(&session, layer, &factory)?))
    }

    /// A module method (`model.parameters()`, `model.to("cuda")`, …); methods that return the
    /// module return the learner's object.
    pub(super) fn module_method(
        &mut self,
        module: &Module,
        name: &str,
        args: Args,
    ) -> Result<Value> {
        let this = self.object_of(module);
        Ok(match name {
            "append" | "extend" if holds_module_list(module) => {
                let added = match name {
                    "append" => modules_of(&args.positional[..args.positional.len().min(1)])?,
                    _ => modules_of(&iterate(args.positional.first().unwrap_or(&Value::None))?)?,
                };
                for child in added {
                    let next = module.children().len();
                    module.add_module(&next.to_string(), Some(child));
                }
                this
            }
            // A generator in PyTorch: `next(model.parameters())` works, and it is used up once.
            "parameters" => items(
                module
                    .parameters()
                    .into_iter()
                    .map(Value::Parameter)
                    .collect(),
            ),
            "named_parameters" => named(
                module
                    .named_parameters()
                    .into_iter()
                    .map(|(n, p)| (n, Value::Parameter(p))),
            ),
            "children" => items(
                module
                    .children()
                    .iter()
                    .map(|m| self.object_of(m))
                    .collect(),
            ),
            "modules" => items(module.modules().iter().map(|m| self.object_of(m)).collect()),
            "buffers" => items(module.buffers().into_iter().map(Value::Tensor).collect()),
            "named_buffers" => named(
                module
                    .named_buffers()
                    .into_iter()
                    .map(|(n, t)| (n, Value::Tensor(t))),
            ),
            "named_children" => named(
                module
                    .named_children()
                    .into_iter()
                    .map(|(n, m)| (n, self.object_of(&m))),
            ),
            "named_modules" => named(
                module
                    .named_modules()
                    .into_iter()
                    .map(|(n, m)| (n, self.object_of(&m))),
            ),
            "register_buffer" => {
                let tensor = match &args.get(1, "tensor").map(|v| v.resolved().into_owned()) {
                    Some(Value::Tensor(t)) => Some(t.clone()),
                    None | Some(Value::None) => None,
                    Some(other) => {
                        return Err(cannot_assign(other, "buffer", &args, "torch Tensor"));
                    }
                };
                let persistent = args.get(2, "persistent").is_none_or(Value::truthy);
                module.register_buffer(&text_arg(&args, 0, "name"), tensor, persistent)?;
                Value::None
            }
            "register_parameter" => {
                let parameter = match args.get(1, "param") {
                    Some(Value::Parameter(p)) => Some(p.clone()),
                    None | Some(Value::None) => None,
                    Some(other) => {
                        return Err(cannot_assign(
                            other,
                            "parameter",
                            &args,
                            "torch.nn.Parameter",
                        ));
                    }
                };
                module.register_parameter(&text_arg(&args, 0, "name"), parameter)?;
                Value::None
            }
            "add_module" => {
                let child = match args.get(1, "module") {
                    Some(Value::NnModule(m)) => Some(m.clone()),
                    Some(Value::Instance(i)) => i.module.clone(),
                    _ => None,
                };
                module.add_module(&text_arg(&args, 0, "name"), child);
                Value::None
            }
            "load_state_dict" => {
                let Some(Value::Dict(entries)) = args.get(0, "state_dict") else {
                    return Err(type_error(format!(
                        "Expected state_dict to be dict-like, got {}.",
                        args.get(0, "state_dict")
                            .map_or("nothing".into(), |v| format!("<class '{}'>", v.type_name()))
                    )));
                };
                let state = entries
                    .borrow()
                    .iter()
                    .filter_map(|(k, v)| match &*v.resolved() {
                        Value::Tensor(t) => Some((k.str_text(), t.clone())),
                        _ => None,
                    })
                    .collect::<Vec<_>>();
                let strict = args.get(1, "strict").is_none_or(Value::truthy);
                Value::IncompatibleKeys(Rc::new(module.load_state_dict(&state, strict)?))
            }
            "state_dict" => Value::Dict(Rc::new(RefCell::new(
                module
                    .state_dict()
                    .into_iter()
                    .map(|(k, t)| (Value::str(&k), Value::Tensor(t)))
                    .collect(),
            ))),
            "to" | "cuda" | "cpu" | "float" | "double" | "half" => {
                let request = match name {
                    "to" => super::attributes::to_request(&args)?,
                    "cuda" => To::device(match args.positional.first() {
                        Some(v) => format!("cuda:{}", as_f64(v) as i64),
                        None => "cuda".into(),
                    }),
                    "cpu" => To::device("cpu"),
                    "double" => To::dtype(tolab_engine::DType::Float64),
                    "half" => To::dtype(tolab_engine::DType::Float16),
                    _ => To::dtype(tolab_engine::DType::Float32),
                };
                module.to(&request)?;
                this
            }
            "train" => {
                module.train(args.get(0, "mode").is_none_or(Value::truthy));
                this
            }
            "eval" => {
                module.eval();
                this
            }
            "zero_grad" => {
                module.zero_grad(args.get(0, "set_to_none").is_none_or(Value::truthy))?;
                Value::None
            }
            "requires_grad_" => {
                module.requires_grad_(args.get(0, "requires_grad").is_none_or(Value::truthy))?;
                this
            }
            other => {
                return Err(PyException::new(
                    ExcType::AttributeError,
                    format!(
                        "'{}' object has no attribute '{other}'",
                        module.class_name()
                    ),
                ));
            }
        })
    }
}

/// `optim.SGD(params, lr=..., ...)` and its siblings.
pub fn construct_optimizer(name: &str, args: Args) -> Result<Value> {
    let algorithm = match name {
        "SGD" => Algorithm::Sgd,
        "Adam" => Algorithm::Adam,
        "AdamW" => Algorithm::AdamW,
        other => {
            return Err(PyException::new(
                ExcType::AttributeError,
                format!("module 'torch.optim' has no attribute '{other}'"),
            ));
        }
    };
    let params = iterate(args.positional.first().unwrap_or(&Value::None))?
        .into_iter()
        .map(|v| match &v {
            Value::Parameter(p) => Ok(p.clone()),
            Value::Tensor(t) => Ok(Parameter::of_tensor(t)?),
            other => Err(type_error(format!(
                "optimizer can only optimize Tensors, but one of the params is {}",
                other.type_name()
            ))),
        })
        .collect::<Result<Vec<_>>>()?;
    let mut options = Vec::new();
    if let Some(lr) = args.positional.get(1) {
        options.push(("lr".to_owned(), hyper(lr)));
    }
    for (k, v) in &args.keywords {
        options.push((k.clone(), hyper(v)));
    }
    Ok(Value::Optimizer(Rc::new(Optimizer::new(
        algorithm,
        vec![(params, Vec::new())],
        &options,
    )?)))
}

fn hyper(v: &Value) -> Hyper {
    match v {
        Value::Bool(b) => Hyper::Bool(*b),
        Value::Int(i) => Hyper::Int(*i),
        Value::Float(x) => Hyper::Float(*x),
        Value::Tuple(items) if items.len() == 2 => {
            Hyper::Pair(as_f64(&items[0]), as_f64(&items[1]))
        }
        _ => Hyper::None,
    }
}

/// `optimizer.step()` and `optimizer.zero_grad()`.
pub fn optimizer_method(optimizer: &Optimizer, name: &str, args: &Args) -> Result<Value> {
    match name {
        "step" => optimizer.step()?,
        "state_dict" => return Ok(optimizer_state_dict(&optimizer.state_dict())),
        "load_state_dict" => {
            let saved = args.get(0, "state_dict").cloned().unwrap_or(Value::None);
            optimizer.load_state_dict(&parse_optimizer_state(&saved)?)?;
        }
        _ => optimizer.zero_grad(args.get(0, "set_to_none").is_none_or(Value::truthy))?,
    }
    Ok(Value::None)
}

/// `optimizer.state_dict()` as PyTorch shapes it: `{'state': {index: {name: tensor}},
/// 'param_groups': [{setting: value, …, 'params': [index, …]}]}`.
fn optimizer_state_dict(saved: &StateDict) -> Value {
    let dict = |entries: Vec<(Value, Value)>| Value::Dict(Rc::new(RefCell::new(entries)));
    let state = saved
        .state
        .iter()
        .map(|(index, entries)| {
            let tensors = entries
                .iter()
                .map(|(name, t)| (Value::str(name), Value::Tensor(t.clone())))
                .collect();
            (Value::Int(*index as i64), dict(tensors))
        })
        .collect();
    let groups = saved
        .param_groups
        .iter()
        .map(|(options, indices)| {
            let mut entries: Vec<(Value, Value)> = options
                .entries()
                .iter()
                .map(|(k, v)| (Value::str(k), hyper_value(v)))
                .collect();
            let params = indices.iter().map(|&i| Value::Int(i as i64)).collect();
            entries.push((Value::str("params"), Value::list(params)));
            dict(entries)
        })
        .collect();
    dict(vec![
        (Value::str("state"), dict(state)),
        (Value::str("param_groups"), Value::list(groups)),
    ])
}

pub fn hyper_value(v: &Hyper) -> Value {
    match v {
        Hyper::Float(x) => Value::Float(*x),
        Hyper::Int(i) => Value::Int(*i),
        Hyper::Bool(b) => Value::Bool(*b),
        Hyper::None => Value::None,
        Hyper::Pair(a, b) => Value::Tuple(Rc::from(vec![Value::Float(*a), Value::Float(*b)])),
    }
}

pub fn value_hyper(v: &Value) -> Result<Hyper> {
    Ok(match v {
        Value::Float(x) => Hyper::Float(*x),
        Value::Int(i) => Hyper::Int(*i),
        Value::Bool(b) => Hyper::Bool(*b),
        Value::None => Hyper::None,
        Value::Tuple(pair) if pair.len() == 2 => Hyper::Pair(as_f64(&pair[0]), as_f64(&pair[1])),
        other => {
            return Err(type_error(format!(
                "an optimizer setting cannot be a {}",
                other.type_name()
            )));
        }
    })
}

/// The inverse of [`optimizer_state_dict`], for `load_state_dict`.
fn parse_optimizer_state(saved: &Value) -> Result<StateDict> {
    let malformed = || {
        PyException::new(
            ExcType::ValueError,
            "loaded state dict is not an optimizer state dict (it needs 'state' and 'param_groups')",
        )
    };
    let entries = |v: &Value| match v {
        Value::Dict(d) => Ok(d.borrow().clone()),
        _ => Err(malformed()),
    };
    let top = entries(saved)?;
    let field = |name: &str| {
        top.iter()
            .find(|(k, _)| matches!(k, Value::Str(s) if &**s == name))
            .map(|(_, v)| v.clone())
            .ok_or_else(malformed)
    };
    let mut state = Vec::new();
    for (index, per_param) in entries(&field("state")?)? {
        let Value::Int(index) = index else {
            return Err(malformed());
        };
        let tensors = entries(&per_param)?
            .into_iter()
            .map(|(name, t)| match &*t.resolved() {
                Value::Tensor(t) => Ok((name.str_text(), t.clone())),
                _ => Err(malformed()),
            })
            .collect::<Result<_>>()?;
        state.push((index.max(0) as usize, tensors));
    }
    let mut param_groups = Vec::new();
    for group in iterate(&field("param_groups")?)? {
        let mut options = Vec::new();
        let mut indices = Vec::new();
        for (k, v) in entries(&group)? {
            if k.str_text() == "params" {
                indices = iterate(&v)?.iter().map(|i| as_f64(i) as usize).collect();
            } else {
                options.push((k.str_text(), value_hyper(&v)?));
            }
        }
        param_groups.push((Options::from_entries(options), indices));
    }
    Ok(StateDict {
        state,
        param_groups,
    })
}

/// Losses and activations of `torch.nn.functional`.
pub fn functional(name: &str, args: &Args) -> Result<Value> {
    use tolab_engine::nn::functional as f;
    let tensor = |i: usize| -> Result<Tensor> {
        match args.positional.get(i).map(|v| v.resolved().into_owned()) {
            Some(Value::Tensor(ref t)) => Ok(t.clone()),
            other => Err(type_error(format!(
                "{name}(): argument {} must be a Tensor, not {}",
                i + 1,
                other.map_or("nothing".into(), |v| v.type_name())
            ))),
        }
    };
    let optional = |i: usize, key: &str| match args.get(i, key).map(|v| v.resolved().into_owned()) {
        Some(Value::Tensor(ref t)) => Some(t.clone()),
        _ => None,
    };
    let reduce = reduction(args)?;
    Ok(Value::Tensor(match name {
        "relu" => tensor(0)?.relu()?,
        "sigmoid" => tensor(0)?.sigmoid()?,
        "tanh" => tensor(0)?.tanh()?,
        "softmax" => tensor(0)?.softmax(args.get(1, "dim").map_or(-1.0, as_f64) as i64)?,
        "log_softmax" => tensor(0)?.log_softmax(args.get(1, "dim").map_or(-1.0, as_f64) as i64)?,
        "mse_loss" => f::mse_loss(&tensor(0)?, &tensor(1)?, reduce)?,
        "cross_entropy" => f::cross_entropy(&tensor(0)?, &tensor(1)?, reduce, -100)?,
        "nll_loss" => f::nll_loss(&tensor(0)?, &tensor(1)?, reduce, -100)?,
        "binary_cross_entropy_with_logits" => {
            f::binary_cross_entropy_with_logits(&tensor(0)?, &tensor(1)?, reduce)?
        }
        "linear" => f::linear(&tensor(0)?, &tensor(1)?, optional(2, "bias").as_ref())?,
        "dropout" => f::dropout(
            &tensor(0)?,
            args.get(1, "p").map_or(0.5, as_f64),
            args.get(2, "training").is_none_or(Value::truthy),
        )?,
        "conv2d" => f::conv2d(
            &tensor(0)?,
            &tensor(1)?,
            optional(2, "bias").as_ref(),
            pair(args, 3, "stride", Some(1))?,
            padding(args, 4)?,
            pair(args, 5, "dilation", Some(1))?,
            args.get(6, "groups").map_or(1.0, as_f64).max(1.0) as usize,
        )?,
        "embedding" => f::embedding(
            &tensor(0)?,
            &tensor(1)?,
            args.get(2, "padding_idx")
                .filter(|v| !matches!(v, Value::None))
                .map(|v| as_f64(v) as i64),
        )?,
        "layer_norm" => {
            let shape: Vec<usize> = match args.get(1, "normalized_shape") {
                Some(Value::Int(n)) => vec![(*n).max(0) as usize],
                Some(v) => iterate(v)?
                    .iter()
                    .map(|d| as_f64(d).max(0.0) as usize)
                    .collect(),
                None => Vec::new(),
            };
            f::layer_norm(
                &tensor(0)?,
                &shape,
                optional(2, "weight").as_ref(),
                optional(3, "bias").as_ref(),
                args.get(4, "eps").map_or(1e-5, as_f64),
            )?
        }
        other => {
            return Err(PyException::new(
                ExcType::AttributeError,
                format!("module 'torch.nn.functional' has no attribute '{other}'"),
            ));
        }
    }))
}

/// `t.grad = g` and `t.requires_grad = flag`; the rest of a tensor's attributes are read-only here.
fn set_tensor_attribute(tensor: &tolab_engine::Tensor, name: &str, value: Value) -> Result<()> {
    match (name, &*value.resolved()) {
        ("grad", Value::None) => Ok(tensor.assign_grad(None)?),
        ("grad", Value::Tensor(grad)) => Ok(tensor.assign_grad(Some(grad.clone()))?),
        ("grad", other) => Err(type_error(format!(
            "assigned grad expected to be a Tensor or None but got grad of type {}",
            other.type_name()
        ))),
        ("requires_grad", flag) => Ok(tensor.set_requires_grad(flag.truthy())?),
        ("data", _) => Err(PyException::unsupported(
            "assigning to .data (use `with torch.no_grad(): t.copy_(new)`, or `.to()` on the module)",
        )),
        (name, _) => Err(PyException::new(
            ExcType::AttributeError,
            format!("attribute '{name}' of 'torch._C.TensorBase' objects is not writable"),
        )),
    }
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
