//! `nn.Module`: the registry of parameters, buffers and child modules behind every layer and every
//! learner-defined model, with PyTorch's rules: what attribute assignment registers, the order
//! `state_dict` keys come in, `load_state_dict`'s errors, and `to()` moving parameters **in place**
//! (the same Parameter objects) while buffers are replaced and plain attributes stay where they are.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, SizeMismatch};
use crate::tensor::Tensor;
use crate::transfer::{Target, To};

use super::layers::Layer;
use super::parameter::Parameter;

impl std::fmt::Debug for Module {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.repr())
    }
}

/// Runs a learner-defined module's `forward` (the cell runtime's part of a forward pass).
pub type CustomForward<'a> = dyn FnMut(&Module, &[Tensor]) -> Result<Tensor, Error> + 'a;

/// A module: a shared handle, as Python objects are.
#[derive(Clone)]
pub struct Module(Rc<ModuleImpl>);

struct ModuleImpl {
    layer: Layer,
    /// For a replica made by `nn.DataParallel`, the module it copies.
    original: Option<Module>,
    training: Cell<bool>,
    parameters: RefCell<Vec<(String, Option<Parameter>)>>,
    buffers: RefCell<Vec<Buffer>>,
    children: RefCell<Vec<(String, Option<Module>)>>,
}

struct Buffer {
    name: String,
    tensor: Option<Tensor>,
    /// Persistent buffers are part of `state_dict`.
    persistent: bool,
}

/// What a module holds, taken apart (for checkpoints of whole modules).
pub(crate) struct ModuleParts {
    pub layer: Layer,
    pub training: bool,
    pub parameters: Vec<(String, Option<Tensor>)>,
    /// Name, tensor, persistent.
    pub buffers: Vec<(String, Option<Tensor>, bool)>,
    pub children: Vec<(String, Option<Module>)>,
}

/// A value assigned to a module attribute (`module.name = value`).
pub enum Assign {
    Parameter(Parameter),
    Module(Module),
    Tensor(Tensor),
    None,
    /// Anything else, by its Python type name.
    Other(String),
}

/// What `module.name` finds among the registered members.
#[derive(Clone)]
pub enum Member {
    Parameter(Option<Parameter>),
    Buffer(Option<Tensor>),
    Module(Option<Module>),
}

/// `load_state_dict(strict=False)`'s result, `_IncompatibleKeys`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct IncompatibleKeys {
    pub missing_keys: Vec<String>,
    pub unexpected_keys: Vec<String>,
}

impl IncompatibleKeys {
    /// Its repr: `<All keys matched successfully>` when there is nothing to report.
    pub fn repr(&self) -> String {
        if self.missing_keys.is_empty() && self.unexpected_keys.is_empty() {
            return "<All keys matched successfully>".into();
        }
        let list = |keys: &[String]| {
            let quoted: Vec<String> = keys.iter().map(|k| format!("'{k}'")).collect();
            format!("[{}]", quoted.join(", "))
        };
        format!(
            "_IncompatibleKeys(missing_keys={}, unexpected_keys={})",
            list(&self.missing_keys),
            list(&self.unexpected_keys)
        )
    }
}

impl Module {
    /// A module of `layer`'s kind with nothing registered yet, in training mode.
    pub fn new(layer: Layer) -> Module {
        Module(Rc::new(ModuleImpl {
            layer,
            original: None,
            training: Cell::new(true),
            parameters: RefCell::default(),
            buffers: RefCell::default(),
            children: RefCell::default(),
        }))
    }

    /// A learner's `nn.Module` subclass: its forward is the learner's code.
    pub fn custom(class_name: &str) -> Module {
        Module::new(Layer::Custom {
            class_name: class_name.to_owned(),
        })
    }

    /// The module a `DataParallel` replica copies (whose learner-defined `forward` and plain
    /// attributes the replica runs with).
    pub fn original(&self) -> Option<&Module> {
        self.0.original.as_ref()
    }

    /// `replicate(module, devices)` for one device: the same tree, parameters copied onto
    /// `device` through the autograd graph (their gradients reach the originals), buffers copied.
    pub(crate) fn replicate_to(&self, device: Device) -> Result<Module, Error> {
        let to = |t: &Tensor| {
            t.to(To {
                device: Some(Target::Device(device)),
                ..To::default()
            })
        };
        let replica = Module(Rc::new(ModuleImpl {
            layer: self.0.layer.clone(),
            original: Some(self.clone()),
            training: Cell::new(self.training()),
            parameters: RefCell::default(),
            buffers: RefCell::default(),
            children: RefCell::default(),
        }));
        for (name, p) in self.0.parameters.borrow().iter() {
            let copy = p
                .as_ref()
                .map(|p| to(&p.tensor()).map(Parameter::replica))
                .transpose()?;
            set_entry(&mut replica.0.parameters.borrow_mut(), name, copy);
        }
        for buffer in self.0.buffers.borrow().iter() {
            replica.0.buffers.borrow_mut().push(Buffer {
                name: buffer.name.clone(),
                tensor: buffer.tensor.as_ref().map(to).transpose()?,
                persistent: buffer.persistent,
            });
        }
        for (name, child) in self.0.children.borrow().iter() {
            let copy = child.as_ref().map(|c| c.replicate_to(device)).transpose()?;
            set_entry(&mut replica.0.children.borrow_mut(), name, copy);
        }
        Ok(replica)
    }

    /// The module's registrations, for `torch.save` of a whole module.
    pub(crate) fn parts(&self) -> ModuleParts {
        ModuleParts {
            layer: self.0.layer.clone(),
            training: self.training(),
            parameters: self
                .0
                .parameters
                .borrow()
                .iter()
                .map(|(n, p)| (n.clone(), p.as_ref().map(Parameter::tensor)))
                .collect(),
            buffers: self
                .0
                .buffers
                .borrow()
                .iter()
                .map(|b| (b.name.clone(), b.tensor.clone(), b.persistent))
                .collect(),
            children: self.0.children.borrow().clone(),
        }
    }

    /// A module rebuilt from its registrations (`torch.load(weights_only=False)`).
    pub(crate) fn from_parts(parts: ModuleParts) -> Result<Module, Error> {
        let module = Module::new(parts.layer);
        module.0.training.set(parts.training);
        for (name, tensor) in parts.parameters {
            let parameter = tensor
                .map(|t| Parameter::new(&t, t.requires_grad()))
                .transpose()?;
            set_entry(&mut module.0.parameters.borrow_mut(), &name, parameter);
        }
        for (name, tensor, persistent) in parts.buffers {
            module.0.buffers.borrow_mut().push(Buffer {
                name,
                tensor,
                persistent,
            });
        }
        *module.0.children.borrow_mut() = parts.children;
        Ok(module)
    }

    pub fn layer(&self) -> &Layer {
        &self.0.layer
    }

    /// `type(module).__name__`.
    pub fn class_name(&self) -> String {
        self.0.layer.class_name()
    }

    /// Python's `is`.
    pub fn is(&self, other: &Module) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }

    /// A number naming this module object (Python's `id()`), stable while it lives.
    pub fn id(&self) -> usize {
        Rc::as_ptr(&self.0) as usize
    }

    // ---- registration ----

    /// `register_parameter(name, param)`.
    pub fn register_parameter(
        &self,
        name: &str,
        parameter: Option<Parameter>,
    ) -> Result<(), Error> {
        if self.has_buffer(name) || self.child(name).is_some() {
            return Err(Error::AttributeExists { name: name.into() });
        }
        set_entry(&mut self.0.parameters.borrow_mut(), name, parameter);
        Ok(())
    }

    /// `register_buffer(name, tensor, persistent=True)`.
    pub fn register_buffer(
        &self,
        name: &str,
        tensor: Option<Tensor>,
        persistent: bool,
    ) -> Result<(), Error> {
        if self.parameter(name).is_some() || self.child(name).is_some() {
            return Err(Error::AttributeExists { name: name.into() });
        }
        let mut buffers = self.0.buffers.borrow_mut();
        match buffers.iter_mut().find(|b| b.name == name) {
            Some(buffer) => {
                buffer.tensor = tensor;
                buffer.persistent = persistent;
            }
            None => buffers.push(Buffer {
                name: name.into(),
                tensor,
                persistent,
            }),
        }
        Ok(())
    }

    /// `add_module(name, module)` (also what assigning a module attribute does).
    pub fn add_module(&self, name: &str, module: Option<Module>) {
        set_entry(&mut self.0.children.borrow_mut(), name, module);
    }

    /// `module.name = value`, as `Module.__setattr__` decides: a Parameter registers (leaving any
    /// buffer or child of that name), a module becomes a child, a tensor or `None` updates a
    /// registered buffer or parameter slot. Returns `false` when the value is a plain attribute
    /// the caller keeps itself (which also drops any member of that name).
    pub fn assign(&self, name: &str, value: Assign) -> Result<bool, Error> {
        match value {
            Assign::Parameter(p) => {
                self.remove(name);
                set_entry(&mut self.0.parameters.borrow_mut(), name, Some(p));
                return Ok(true);
            }
            Assign::Module(m) => {
                self.remove(name);
                self.add_module(name, Some(m));
                return Ok(true);
            }
            _ => {}
        }
        if self.parameter_slot(name) {
            return match value {
                Assign::None => {
                    set_entry(&mut self.0.parameters.borrow_mut(), name, None);
                    Ok(true)
                }
                Assign::Tensor(t) => Err(Error::ParameterAssign {
                    type_name: t.type_name(),
                    name: name.into(),
                }),
                Assign::Other(type_name) => Err(Error::ParameterAssign {
                    type_name,
                    name: name.into(),
                }),
                Assign::Parameter(_) | Assign::Module(_) => Ok(true),
            };
        }
        if self.child_slot(name) && matches!(value, Assign::None) {
            self.add_module(name, None);
            return Ok(true);
        }
        if self.has_buffer(name) {
            let tensor = match value {
                Assign::Tensor(t) => Some(t),
                Assign::None => None,
                Assign::Other(type_name) => {
                    return Err(Error::BufferAssign {
                        type_name,
                        name: name.into(),
                    });
                }
                Assign::Parameter(_) | Assign::Module(_) => return Ok(true),
            };
            let mut buffers = self.0.buffers.borrow_mut();
            if let Some(buffer) = buffers.iter_mut().find(|b| b.name == name) {
                buffer.tensor = tensor;
            }
            return Ok(true);
        }
        self.remove(name);
        Ok(false)
    }

    /// `module.name` among the registered members (`Module.__getattr__`).
    pub fn member(&self, name: &str) -> Option<Member> {
        if let Some((_, p)) = self.0.parameters.borrow().iter().find(|(n, _)| n == name) {
            return Some(Member::Parameter(p.clone()));
        }
        if let Some(b) = self.0.buffers.borrow().iter().find(|b| b.name == name) {
            return Some(Member::Buffer(b.tensor.clone()));
        }
        self.0
            .children
            .borrow()
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, m)| Member::Module(m.clone()))
    }

    /// `del module.name`.
    pub fn remove(&self, name: &str) {
        self.0.parameters.borrow_mut().retain(|(n, _)| n != name);
        self.0.buffers.borrow_mut().retain(|b| b.name != name);
        self.0.children.borrow_mut().retain(|(n, _)| n != name);
    }

    pub fn parameter(&self, name: &str) -> Option<Parameter> {
        match self.member(name) {
            Some(Member::Parameter(p)) => p,
            _ => None,
        }
    }

    pub fn buffer(&self, name: &str) -> Option<Tensor> {
        match self.member(name) {
            Some(Member::Buffer(b)) => b,
            _ => None,
        }
    }

    pub fn child(&self, name: &str) -> Option<Module> {
        match self.member(name) {
            Some(Member::Module(m)) => m,
            _ => None,
        }
    }

    fn parameter_slot(&self, name: &str) -> bool {
        self.0.parameters.borrow().iter().any(|(n, _)| n == name)
    }

    fn child_slot(&self, name: &str) -> bool {
        self.0.children.borrow().iter().any(|(n, _)| n == name)
    }

    fn has_buffer(&self, name: &str) -> bool {
        self.0.buffers.borrow().iter().any(|b| b.name == name)
    }

    // ---- walking the tree ----

    /// `named_children()`: direct children in registration order (each module once).
    pub fn named_children(&self) -> Vec<(String, Module)> {
        let mut seen: Vec<Module> = Vec::new();
        let mut out = Vec::new();
        for (name, child) in self.0.children.borrow().iter() {
            if let Some(child) = child
                && !seen.iter().any(|m| m.is(child))
            {
                seen.push(child.clone());
                out.push((name.clone(), child.clone()));
            }
        }
        out
    }

    pub fn children(&self) -> Vec<Module> {
        self.named_children().into_iter().map(|(_, m)| m).collect()
    }

    /// `named_modules()`: this module (named `""`), then every descendant depth first, each once.
    pub fn named_modules(&self) -> Vec<(String, Module)> {
        let mut out = Vec::new();
        self.collect_modules("", &mut out);
        out
    }

    fn collect_modules(&self, prefix: &str, out: &mut Vec<(String, Module)>) {
        if out.iter().any(|(_, m)| m.is(self)) {
            return;
        }
        out.push((prefix.to_owned(), self.clone()));
        for (name, child) in self.0.children.borrow().iter() {
            if let Some(child) = child {
                child.collect_modules(&join(prefix, name), out);
            }
        }
    }

    pub fn modules(&self) -> Vec<Module> {
        self.named_modules().into_iter().map(|(_, m)| m).collect()
    }

    /// `named_parameters()`: each module's own parameters, module by module, each Parameter once.
    pub fn named_parameters(&self) -> Vec<(String, Parameter)> {
        let mut out: Vec<(String, Parameter)> = Vec::new();
        for (prefix, module) in self.named_modules() {
            for (name, p) in module.0.parameters.borrow().iter() {
                if let Some(p) = p
                    && !out.iter().any(|(_, q)| q.is(p))
                {
                    out.push((join(&prefix, name), p.clone()));
                }
            }
        }
        out
    }

    pub fn parameters(&self) -> Vec<Parameter> {
        self.named_parameters()
            .into_iter()
            .map(|(_, p)| p)
            .collect()
    }

    /// `named_buffers()`, each tensor once.
    pub fn named_buffers(&self) -> Vec<(String, Tensor)> {
        let mut out: Vec<(String, Tensor)> = Vec::new();
        for (prefix, module) in self.named_modules() {
            for buffer in module.0.buffers.borrow().iter() {
                if let Some(t) = &buffer.tensor
                    && !out.iter().any(|(_, u)| u.is(t))
                {
                    out.push((join(&prefix, &buffer.name), t.clone()));
                }
            }
        }
        out
    }

    pub fn buffers(&self) -> Vec<Tensor> {
        self.named_buffers().into_iter().map(|(_, t)| t).collect()
    }

    /// `apply(fn)`: children first (depth first), then this module.
    pub fn apply<E>(&self, f: &mut dyn FnMut(&Module) -> Result<(), E>) -> Result<(), E> {
        for child in self.children() {
            child.apply(f)?;
        }
        f(self)
    }

    // ---- state ----

    /// `state_dict()`: own parameters, then own persistent buffers, then each child's under
    /// `name.`, detached from the graph.
    pub fn state_dict(&self) -> Vec<(String, Tensor)> {
        let mut out = Vec::new();
        self.collect_state("", &mut out);
        out
    }

    fn collect_state(&self, prefix: &str, out: &mut Vec<(String, Tensor)>) {
        for (name, p) in self.0.parameters.borrow().iter() {
            if let Some(p) = p {
                out.push((join(prefix, name), p.tensor().detach()));
            }
        }
        for buffer in self.0.buffers.borrow().iter() {
            if let (Some(t), true) = (&buffer.tensor, buffer.persistent) {
                out.push((join(prefix, &buffer.name), t.detach()));
            }
        }
        for (name, child) in self.0.children.borrow().iter() {
            if let Some(child) = child {
                child.collect_state(&join(prefix, name), out);
            }
        }
    }

    /// `load_state_dict(state_dict, strict)`: copies each value into the matching parameter or
    /// buffer (in place, under no_grad, converting device and dtype as `copy_` does). Strict mode
    /// refuses missing and unexpected keys; shape mismatches are refused either way, all problems
    /// reported together as PyTorch does.
    pub fn load_state_dict(
        &self,
        state: &[(String, Tensor)],
        strict: bool,
    ) -> Result<IncompatibleKeys, Error> {
        let targets = self.state_targets();
        let mut keys = IncompatibleKeys::default();
        let mut size_mismatches = Vec::new();
        for (key, target) in &targets {
            match state.iter().find(|(k, _)| k == key) {
                None => keys.missing_keys.push(key.clone()),
                Some((_, value)) if value.shape() != target.shape() => {
                    size_mismatches.push(SizeMismatch {
                        key: key.clone(),
                        checkpoint: value.shape().to_vec(),
                        model: target.shape().to_vec(),
                    });
                }
                Some(_) => {}
            }
        }
        keys.unexpected_keys = state
            .iter()
            .map(|(k, _)| k)
            .filter(|k| !targets.iter().any(|(t, _)| t == *k))
            .cloned()
            .collect();
        let refused = !size_mismatches.is_empty()
            || (strict && !(keys.missing_keys.is_empty() && keys.unexpected_keys.is_empty()));
        if refused {
            let (missing, unexpected) = if strict {
                (keys.missing_keys, keys.unexpected_keys)
            } else {
                (Vec::new(), Vec::new())
            };
            return Err(Error::LoadStateDict {
                module: self.class_name(),
                missing,
                unexpected,
                size_mismatches,
            });
        }
        let session_of = targets.first().map(|(_, t)| t.session().clone());
        if let Some(session) = session_of {
            session.no_grad(|| -> Result<(), Error> {
                for (key, target) in &targets {
                    if let Some((_, value)) = state.iter().find(|(k, _)| k == key) {
                        target.copy_(value)?;
                    }
                }
                Ok(())
            })?;
        }
        Ok(keys)
    }

    /// The tensors `state_dict` would return, by key, without detaching.
    fn state_targets(&self) -> Vec<(String, Tensor)> {
        let mut out = Vec::new();
        for (prefix, module) in self.named_modules() {
            for (name, p) in module.0.parameters.borrow().iter() {
                if let Some(p) = p {
                    out.push((join(&prefix, name), p.tensor()));
                }
            }
            for buffer in module.0.buffers.borrow().iter() {
                if let (Some(t), true) = (&buffer.tensor, buffer.persistent) {
                    out.push((join(&prefix, &buffer.name), t.clone()));
                }
            }
        }
        out
    }

    // ---- moving ----

    /// `module.to(device, dtype, non_blocking)`: parameters keep their identity (their data is
    /// replaced, gradients move along), buffers are replaced, the dtype only touches floating-point
    /// tensors and must itself be floating point.
    pub fn to(&self, request: &To) -> Result<&Module, Error> {
        if let Some(dtype) = request.dtype
            && !dtype.is_floating_point()
        {
            return Err(Error::ModuleToDtype { dtype });
        }
        self.convert(&|t: &Tensor| {
            let dtype = request.dtype.filter(|_| t.dtype().is_floating_point());
            t.to(To {
                device: request.device.clone(),
                dtype,
                non_blocking: request.non_blocking,
                copy: false,
            })
        })?;
        Ok(self)
    }

    /// `module.cuda(device)`.
    pub fn cuda(&self, index: Option<i8>) -> Result<&Module, Error> {
        self.to(&To {
            device: Some(Target::Device(Device {
                kind: crate::device::DeviceType::Cuda,
                index,
            })),
            ..To::default()
        })
    }

    /// `module.cpu()`.
    pub fn cpu(&self) -> Result<&Module, Error> {
        self.to(&To {
            device: Some(Target::Device(Device::CPU)),
            ..To::default()
        })
    }

    /// `half()`, `float()`, `double()`, `bfloat16()`: floating-point parameters and buffers cast.
    pub fn cast(&self, dtype: DType) -> Result<&Module, Error> {
        self.to(&To::dtype(dtype))
    }

    /// `Module._apply(fn)`: children first, then own parameters (data replaced in place), their
    /// gradients, and buffers (replaced).
    fn convert(&self, f: &dyn Fn(&Tensor) -> Result<Tensor, Error>) -> Result<(), Error> {
        for child in self.children() {
            child.convert(f)?;
        }
        let parameters: Vec<Parameter> = self
            .0
            .parameters
            .borrow()
            .iter()
            .filter_map(|(_, p)| p.clone())
            .collect();
        for p in parameters {
            let current = p.tensor();
            let session = current.session().clone();
            let moved = session.no_grad(|| f(&current))?;
            let grad = current.raw_grad();
            let moved_grad = match &grad {
                Some(g) => Some(session.no_grad(|| f(g))?),
                None => None,
            };
            let unchanged =
                moved.is(&current) && grad.iter().zip(&moved_grad).all(|(g, m)| g.is(m));
            if !unchanged {
                p.set_data(&moved, moved_grad)?;
            }
        }
        let buffers: Vec<(usize, Tensor)> = self
            .0
            .buffers
            .borrow()
            .iter()
            .enumerate()
            .filter_map(|(i, b)| b.tensor.clone().map(|t| (i, t)))
            .collect();
        for (i, t) in buffers {
            let moved = t.session().no_grad(|| f(&t))?;
            if let Some(buffer) = self.0.buffers.borrow_mut().get_mut(i) {
                buffer.tensor = Some(moved);
            }
        }
        Ok(())
    }

    // ---- modes and gradients ----

    pub fn training(&self) -> bool {
        self.0.training.get()
    }

    /// `train(mode)`: this module and every descendant.
    pub fn train(&self, mode: bool) -> &Module {
        for module in self.modules() {
            module.0.training.set(mode);
        }
        self
    }

    /// `eval()`.
    pub fn eval(&self) -> &Module {
        self.train(false)
    }

    /// `zero_grad(set_to_none=True)`.
    pub fn zero_grad(&self, set_to_none: bool) -> Result<(), Error> {
        super::zero_grads(&self.parameters(), set_to_none)
    }

    /// `requires_grad_(requires_grad)`: every parameter.
    pub fn requires_grad_(&self, requires_grad: bool) -> Result<&Module, Error> {
        for p in self.parameters() {
            p.tensor().set_requires_grad(requires_grad)?;
        }
        Ok(self)
    }

    // ---- forward and repr ----

    /// `module(*inputs)` for the built-in layers; `custom` runs a learner's `forward` (the cell
    /// runtime's part) wherever one sits in the tree, such as inside a `Sequential`.
    pub fn forward_with(
        &self,
        inputs: &[Tensor],
        custom: &mut CustomForward,
    ) -> Result<Tensor, Error> {
        self.0.layer.forward(self, inputs, custom)
    }

    /// [`Module::forward_with`] where no learner code exists: a custom module has no forward.
    pub fn forward(&self, inputs: &[Tensor]) -> Result<Tensor, Error> {
        self.forward_with(inputs, &mut |m, _| {
            Err(Error::MissingForward {
                class_name: m.class_name(),
            })
        })
    }

    /// `repr(module)`: `Name(extra)`, children indented one per line as `(name): repr`.
    pub fn repr(&self) -> String {
        self.repr_with(&|_| Shown::default())
    }

    /// `repr(module)` where the caller may say how some modules show (a learner's `__repr__`
    /// or `extra_repr`), asked of this module and each one below it.
    pub fn repr_with(&self, shown: &dyn Fn(&Module) -> Shown) -> String {
        let custom = shown(self);
        if let Some(text) = custom.repr {
            return text;
        }
        let extra = custom
            .extra_repr
            .unwrap_or_else(|| self.0.layer.extra_repr(self));
        let extra_lines: Vec<&str> = if extra.is_empty() {
            Vec::new()
        } else {
            extra.lines().collect()
        };
        let child_lines: Vec<String> = self
            .0
            .children
            .borrow()
            .iter()
            .map(|(name, child)| {
                let text = child
                    .as_ref()
                    .map_or("None".to_owned(), |c| c.repr_with(shown));
                format!("({name}): {}", text.replace('\n', "\n  "))
            })
            .collect();
        let mut text = format!("{}(", self.class_name());
        if extra_lines.len() == 1 && child_lines.is_empty() {
            text.push_str(extra_lines[0]);
        } else if !extra_lines.is_empty() || !child_lines.is_empty() {
            let lines: Vec<String> = extra_lines
                .iter()
                .map(|l| (*l).to_owned())
                .chain(child_lines)
                .collect();
            text.push_str("\n  ");
            text.push_str(&lines.join("\n  "));
            text.push('\n');
        }
        text.push(')');
        text
    }
}

/// How a module shows in a repr when its class says so: its whole `repr`, or its
/// `extra_repr`; `None` for the built-in text.
#[derive(Debug, Clone, Default)]
pub struct Shown {
    pub repr: Option<String>,
    pub extra_repr: Option<String>,
}

/// Sets or appends `name` in an ordered registry.
fn set_entry<T>(entries: &mut Vec<(String, T)>, name: &str, value: T) {
    match entries.iter_mut().find(|(n, _)| n == name) {
        Some(entry) => entry.1 = value,
        None => entries.push((name.to_owned(), value)),
    }
}

/// `prefix.name`, or `name` at the top.
fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_owned()
    } else {
        format!("{prefix}.{name}")
    }
}
