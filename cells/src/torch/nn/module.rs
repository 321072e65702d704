//! What every `nn.Module` does, built-in or a learner's subclass: its methods (`parameters()`,
//! `to()`, `train()`, `state_dict()`, …), its members as attributes (`model.fc`,
//! `model.weight`), and being called (`model(x)` runs `forward`, a `Sequential` walks its
//! children).

use std::cell::RefCell;
use std::rc::Rc;

use std::collections::HashMap;

use tolab_engine::nn::{Layer, Member, Module, Shown};
use tolab_engine::{DType, Tensor, To};

use super::{module_of, modules_of};
use crate::python::args::{Args, Eval, Flow};
use crate::python::exception::{ExcType, PyException};
use crate::python::interpreter::Interpreter;
use crate::python::iteration::Iter;
use crate::python::operators::iterate;
use crate::python::value::{Instance, Value};
use crate::torch::Call;

type Result<T> = std::result::Result<T, PyException>;

/// Whether a module holds a list of children (`Sequential`, `ModuleList`), which `len`,
/// indexing, iteration and `append` work on.
pub fn holds_module_list(module: &Module) -> bool {
    matches!(module.layer(), Layer::Sequential) || module.class_name() == "ModuleList"
}

/// A generator over `values`, as `parameters()` and its siblings return.
fn items(values: Vec<Value>) -> Value {
    Value::Iterator(Rc::new(RefCell::new(Iter::Items(values.into_iter()))))
}

/// `(name, value)` pairs, as `named_parameters()` and its siblings give them.
fn named(pairs: impl Iterator<Item = (String, Value)>) -> Value {
    items(
        pairs
            .map(|(n, v)| Value::Tuple(Rc::from(vec![Value::str(&n), v])))
            .collect(),
    )
}

/// PyTorch's error for registering something that is not a tensor (or Parameter) under a name.
fn cannot_assign(value: &Value, slot: &str, name: &str, required: &str) -> PyException {
    PyException::new(
        ExcType::TypeError,
        format!(
            "cannot assign '{}' object to {slot} '{name}' ({required} or None required)",
            value.type_name()
        ),
    )
}

/// A module method (`model.parameters()`, `model.to("cuda")`, …); methods that return the
/// module return the learner's object.
pub fn method(me: &mut Interpreter, call: Call) -> Eval<'_, Value> {
    Box::pin(async move {
        let receiver = call.receiver().cloned().unwrap_or(Value::None);
        let module = module_of(&receiver).ok_or_else(|| {
            PyException::new(
                ExcType::TypeError,
                format!(
                    "descriptor '{}' for 'Module' objects doesn't apply to a '{}' object",
                    call.binding.name(),
                    receiver.type_name()
                ),
            )
        })?;
        let value = me
            .engine_call(|me| module_method(me, &module, &call).map_err(Flow::from))
            .await?;
        call.finish()?;
        Ok(value)
    })
}

fn module_method(me: &mut Interpreter, module: &Module, call: &Call) -> Result<Value> {
    let this = me.object_of(module);
    let text = |name: &str| -> Result<String> { call.string_value(name) };
    Ok(match call.binding.name() {
        "append" | "extend" => {
            let added = if call.binding.name() == "append" {
                modules_of(&[call.value("module")?.unwrap_or(Value::None)])?
            } else {
                modules_of(&iterate(&call.value("modules")?.unwrap_or(Value::None))?)?
            };
            for child in added {
                let next = module.children().len();
                module.add_module(&next.to_string(), Some(child));
            }
            this
        }
        // A generator in PyTorch: `next(model.parameters())` works, and it is used up once.
        "parameters" => {
            recurse_only(call)?;
            items(
                module
                    .parameters()
                    .into_iter()
                    .map(Value::Parameter)
                    .collect(),
            )
        }
        "named_parameters" => {
            named_defaults(call)?;
            named(
                module
                    .named_parameters()
                    .into_iter()
                    .map(|(n, p)| (n, Value::Parameter(p))),
            )
        }
        "children" => items(module.children().iter().map(|m| me.object_of(m)).collect()),
        "modules" => {
            if !call.truthy("remove_duplicate")? {
                return Err(crate::torch::ops::not_yet(
                    "modules(remove_duplicate=False)",
                ));
            }
            items(module.modules().iter().map(|m| me.object_of(m)).collect())
        }
        "buffers" => {
            recurse_only(call)?;
            items(module.buffers().into_iter().map(Value::Tensor).collect())
        }
        "named_buffers" => {
            named_defaults(call)?;
            named(
                module
                    .named_buffers()
                    .into_iter()
                    .map(|(n, t)| (n, Value::Tensor(t))),
            )
        }
        "named_children" => named(
            module
                .named_children()
                .into_iter()
                .map(|(n, m)| (n, me.object_of(&m))),
        ),
        "named_modules" => {
            named_defaults(call)?;
            if !matches!(call.value("memo")?, None | Some(Value::None)) {
                return Err(crate::torch::ops::not_yet("named_modules(memo=...)"));
            }
            named(
                module
                    .named_modules()
                    .into_iter()
                    .map(|(n, m)| (n, me.object_of(&m))),
            )
        }
        "register_buffer" => {
            let name = text("name")?;
            let tensor = match call
                .value("tensor")?
                .map(|v| v.resolved().into_owned())
                .as_ref()
            {
                Some(Value::Tensor(t)) => Some(t.clone()),
                None | Some(Value::None) => None,
                Some(other) => return Err(cannot_assign(other, "buffer", &name, "torch Tensor")),
            };
            module.register_buffer(&name, tensor, call.truthy("persistent")?)?;
            Value::None
        }
        "register_parameter" => {
            let name = text("name")?;
            let parameter = match call.value("param")?.as_ref() {
                Some(Value::Parameter(p)) => Some(p.clone()),
                None | Some(Value::None) => None,
                Some(other) => {
                    return Err(cannot_assign(
                        other,
                        "parameter",
                        &name,
                        "torch.nn.Parameter",
                    ));
                }
            };
            module.register_parameter(&name, parameter)?;
            Value::None
        }
        "add_module" => {
            let name = text("name")?;
            let child = match call.value("module")? {
                None | Some(Value::None) => None,
                Some(v) => Some(module_of(&v).ok_or_else(|| {
                    PyException::new(
                        ExcType::TypeError,
                        format!("{} is not a Module subclass", v.type_name()),
                    )
                })?),
            };
            module.add_module(&name, child);
            Value::None
        }
        "load_state_dict" => {
            let given = call.value("state_dict")?.unwrap_or(Value::None);
            let Value::Dict(entries) = &given else {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "Expected state_dict to be dict-like, got <class '{}'>.",
                        given.type_name()
                    ),
                ));
            };
            if call.truthy("assign")? {
                return Err(crate::torch::ops::not_yet("load_state_dict(assign=True)"));
            }
            let state = entries
                .borrow()
                .iter()
                .filter_map(|(k, v)| match &*v.resolved() {
                    Value::Tensor(t) => Some((k.str_text(), t.clone())),
                    _ => None,
                })
                .collect::<Vec<_>>();
            let strict = call.truthy("strict")?;
            Value::IncompatibleKeys(Rc::new(module.load_state_dict(&state, strict)?))
        }
        "state_dict" => {
            if !call.rest().is_empty() {
                return Err(crate::torch::ops::not_yet(
                    "state_dict() with positional arguments",
                ));
            }
            if !matches!(call.value("destination")?, None | Some(Value::None))
                || !text("prefix")?.is_empty()
                || call.truthy("keep_vars")?
            {
                return Err(crate::torch::ops::not_yet(
                    "state_dict(destination=, prefix=, keep_vars=)",
                ));
            }
            Value::Dict(Rc::new(RefCell::new(
                module
                    .state_dict()
                    .into_iter()
                    .map(|(k, t)| (Value::str(&k), Value::Tensor(t)))
                    .collect(),
            )))
        }
        "to" => {
            // `Module.to(*args, **kwargs)` parses its arguments as `Tensor.to` does.
            let args = Args {
                positional: call.rest().to_vec(),
                keywords: call.extra_keywords().to_vec(),
            };
            let to = crate::torch::signature::binding("Tensor", "to").ok_or_else(|| {
                PyException::new(ExcType::SystemError, "Tensor.to is missing from the table")
            })?;
            let parsed = crate::torch::parse::parse(to, None, &args)?;
            let request = crate::torch::tensor::to_request(&parsed)?;
            parsed.finish()?;
            module.to(&request)?;
            this
        }
        "cuda" => {
            let device = match call.value("device")?.as_ref() {
                None | Some(Value::None) => "cuda".to_owned(),
                Some(Value::Int(i)) => {
                    let d = crate::torch::parse::device_index(*i)?;
                    d.to_string()
                }
                Some(Value::Device(d)) => d.to_string(),
                Some(Value::Str(s)) => s.to_string(),
                Some(other) => {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        format!("expected a device, not '{}'", other.type_name()),
                    ));
                }
            };
            module.to(&To::device(device))?;
            this
        }
        "cpu" | "float" | "double" | "half" => {
            let request = match call.binding.name() {
                "cpu" => To::device("cpu"),
                "double" => To::dtype(DType::Float64),
                "half" => To::dtype(DType::Float16),
                _ => To::dtype(DType::Float32),
            };
            module.to(&request)?;
            this
        }
        "train" => {
            let mode = match call.value("mode")? {
                Some(Value::Bool(b)) => b,
                Some(other) => {
                    return Err(PyException::new(
                        ExcType::ValueError,
                        format!(
                            "training mode is expected to be boolean, got {}",
                            other.type_name()
                        ),
                    ));
                }
                None => true,
            };
            module.train(mode);
            this
        }
        "eval" => {
            module.eval();
            this
        }
        "zero_grad" => {
            module.zero_grad(call.truthy("set_to_none")?)?;
            Value::None
        }
        _ => {
            module.requires_grad_(call.truthy("requires_grad")?)?;
            this
        }
    })
}

/// `parameters(recurse=True)`: the lab's lists are always recursive.
fn recurse_only(call: &Call) -> Result<()> {
    if !call.truthy("recurse")? {
        return Err(crate::torch::ops::not_yet(&format!(
            "{}(recurse=False)",
            call.binding.name()
        )));
    }
    Ok(())
}

/// `named_*(prefix='', recurse=True, remove_duplicate=True)` at their defaults.
fn named_defaults(call: &Call) -> Result<()> {
    let sig = call.signature();
    if sig.position("prefix").is_some() && !call.string_value("prefix")?.is_empty() {
        return Err(crate::torch::ops::not_yet(&format!(
            "{}(prefix=...)",
            call.binding.name()
        )));
    }
    if sig.position("recurse").is_some() {
        recurse_only(call)?;
    }
    if !call.truthy("remove_duplicate")? {
        return Err(crate::torch::ops::not_yet(&format!(
            "{}(remove_duplicate=False)",
            call.binding.name()
        )));
    }
    Ok(())
}

impl Interpreter {
    /// `nn.Module.__repr__(module)`: the built-in text, with each learner's module below it
    /// shown by its class's `__repr__` or `extra_repr` (the top one's `__repr__` too when `own`:
    /// `repr(model)` rather than `super().__repr__()`).
    pub(crate) async fn module_repr(
        &mut self,
        top: &Module,
        own: bool,
    ) -> std::result::Result<String, Flow> {
        let mut shown: HashMap<usize, Shown> = HashMap::new();
        let mut todo = vec![top.clone()];
        while let Some(module) = todo.pop() {
            let object = self.object_of(&module);
            let mut custom = Shown::default();
            if let Value::Instance(i) = &object {
                let defines = |name| i.class.lookup(name).is_some();
                if defines("__repr__") && (own || !module.is(top)) {
                    let text = self.call_dunder(&object, "__repr__", Vec::new()).await?;
                    custom.repr = Some(self.text_of(&text, true).await?);
                } else if defines("extra_repr") {
                    let text = self.call_dunder(&object, "extra_repr", Vec::new()).await?;
                    custom.extra_repr = Some(self.text_of(&text, true).await?);
                }
            }
            if custom.repr.is_none() {
                todo.extend(module.children());
            }
            shown.insert(module.id(), custom);
        }
        Ok(top.repr_with(&|m| shown.get(&m.id()).cloned().unwrap_or_default()))
    }

    /// The Python object for an engine module: the cell instance that owns it, or the built-in
    /// layer itself.
    pub(crate) fn object_of(&self, module: &Module) -> Value {
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
                builtin: RefCell::new(None),
            }));
        }
        Value::NnModule(module.clone())
    }

    /// A module's member (`model.fc`, `model.weight`, a buffer) as the value a cell sees.
    pub(crate) fn member_value(&self, member: Member) -> Value {
        match member {
            Member::Parameter(p) => p.map_or(Value::None, Value::Parameter),
            Member::Buffer(t) => t.map_or(Value::None, Value::Tensor),
            Member::Module(m) => m.map_or(Value::None, |m| self.object_of(&m)),
        }
    }

    /// `module.name` for what a module itself has: its members, `training`, and the methods of
    /// `nn.Module` (and of `ModuleList` for module lists), bound to `owner`.
    pub(crate) fn module_attribute(
        &self,
        module: &Module,
        owner: &Value,
        name: &str,
    ) -> Option<Value> {
        if let Some(member) = module.member(name) {
            return Some(self.member_value(member));
        }
        if name == "training" {
            return Some(Value::Bool(module.training()));
        }
        // A method the module's own class defines (`ModuleList.append`), else `Module`'s.
        let class = format!("torch.nn.{}", module.class_name());
        crate::torch::bound(&class, name, Some(owner))
            .or_else(|| crate::torch::bound("torch.nn.Module", name, Some(owner)))
    }

    /// `module(*inputs)`: a learner's `forward`, a `Sequential` walked child by child, or the
    /// engine's forward of a built-in layer.
    pub(crate) async fn call_module(
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
                let mut current = match (args.positional.as_slice(), args.keywords.as_slice()) {
                    ([input], []) => input.clone(),
                    _ => {
                        return Err(PyException::new(
                            ExcType::TypeError,
                            format!(
                                "Sequential.forward() takes 2 positional arguments but {} were given",
                                args.positional.len() + 1
                            ),
                        )
                        .into());
                    }
                };
                for child in module.children() {
                    let child = self.object_of(&child);
                    current = Box::pin(self.call(&child, Args::positional(vec![current]))).await?;
                }
                Ok(current)
            }
            _ => {
                if let Some((key, _)) = args.keywords.first() {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        format!(
                            "{}.forward() got an unexpected keyword argument '{key}'",
                            module.class_name()
                        ),
                    )
                    .into());
                }
                let inputs: Vec<Tensor> = args
                    .positional
                    .iter()
                    .map(|v| match &*v.resolved() {
                        Value::Tensor(t) => Ok(t.clone()),
                        other => Err(PyException::new(
                            ExcType::TypeError,
                            format!(
                                "{}.forward() expects tensors, got {}",
                                module.class_name(),
                                other.type_name()
                            ),
                        )),
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
                Ok(other) => Flow::from(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "{}.forward() returned {}; the lab's parallel wrappers gather tensors",
                        inner.class_name(),
                        other.type_name()
                    ),
                )),
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
}
