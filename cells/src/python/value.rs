//! The values a cell computes with: Python's own (numbers, strings, lists, tuples, dicts, ranges,
//! functions) and the engine's objects (tensors, devices, dtypes, autograd nodes), with Python's
//! `repr`/`str`, truth and equality.

use std::cell::RefCell;
use std::rc::Rc;

use ruff_python_ast::{Expr, Parameters, Stmt};
use tolab_engine::autograd::GradFn;
use tolab_engine::repr::python_float;
use tolab_engine::{DType, Device, Tensor};

use super::exception::{ExcType, PyException};
use super::source::CellSource;

#[derive(Clone)]
pub enum Value {
    None,
    Bool(bool),
    Int(i64),
    /// An int beyond 64 bits (never one that fits an `i64`: see [`super::int`]).
    BigInt(Rc<num_bigint::BigInt>),
    Float(f64),
    /// A complex number: its real and imaginary parts.
    Complex(f64, f64),
    Str(Rc<str>),
    Bytes(Rc<[u8]>),
    List(Rc<RefCell<Vec<Value>>>),
    Tuple(Rc<[Value]>),
    Dict(Rc<RefCell<Vec<(Value, Value)>>>),
    /// A set, in insertion order (CPython orders by hash; the lab does not promise its order).
    Set(Rc<RefCell<Vec<Value>>>),
    Range {
        start: i64,
        stop: i64,
        step: i64,
    },
    Function(Rc<Function>),
    /// A builtin function, by name (`print`, `len`, …).
    Builtin(&'static str),
    /// An importable module of the lab (`torch`, `torch.nn`, `math`, …), by dotted name.
    Module(&'static str),
    /// A function of a standard-library module (`math.sqrt`), by module and name.
    ModuleFn(&'static str, Rc<str>),
    /// A torch function or class from the signature table (`torch.sum`, `F.relu`,
    /// `optim.SGD`).
    TorchFn(&'static crate::torch::signature::Binding),
    /// A torch method bound to its object (`t.sum`, `model.parameters`).
    TorchMethod(Box<Value>, &'static crate::torch::signature::Binding),
    /// A method bound to its object (`x.to`).
    Method(Box<Value>, Rc<str>),
    Tensor(Tensor),
    Device(Device),
    DType(DType),
    /// `torch.Size`, a tuple of ints (a learner's may hold negative ones).
    Size(Rc<[i64]>),
    /// `torch.finfo(dtype)`.
    FInfo(tolab_engine::dtype::FloatInfo),
    /// `torch.iinfo(dtype)`.
    IInfo(tolab_engine::dtype::IntInfo),
    /// A legacy tensor type (`torch.FloatTensor`, `torch.cuda.LongTensor`).
    TensorType(crate::torch::legacy::TensorType),
    GradFn(GradFn),
    /// `torch.no_grad()` (`false`) or `torch.enable_grad()` (`true`), a context manager.
    GradMode(bool),
    /// What `Tensor.register_hook` returns (`torch.utils.hooks.RemovableHandle`).
    HookHandle(Rc<tolab_engine::autograd::HookHandle>),
    /// The `ctx` of a `torch.autograd.Function` (its node, to PyTorch).
    FunctionCtx(Rc<crate::torch::function::FunctionCtx>),
    /// `torch.set_grad_enabled(mode)`, which set the mode when made: as a context manager it
    /// puts `previous` back on exit.
    SetGradEnabled {
        mode: bool,
        previous: bool,
    },
    /// `torch.random.fork_rng(...)`, a context manager.
    ForkRng(Rc<crate::torch::random::ForkRng>),
    /// `torch.autograd.detect_anomaly()` or `set_detect_anomaly(mode)`, a context manager.
    Anomaly(Rc<crate::torch::autograd::AnomalySwitch>),
    /// A builtin exception class (`ValueError`).
    ExcClass(ExcType),
    /// A raised or created exception.
    Exception(Rc<PyException>),
    /// A class defined in a cell.
    Class(Rc<Class>),
    /// An instance of a cell's class (of an `nn.Module` subclass, with its engine module).
    Instance(Rc<Instance>),
    /// A cell function bound to the object it was looked up on.
    BoundMethod(Box<Value>, Rc<Function>),
    /// `super()` inside a method: the object, and the class whose parents to search.
    Super(Box<Value>, Rc<Class>),
    /// A built-in `torch.nn` class (`nn.Linear`), by name.
    NnClass(&'static str),
    /// A built-in layer or loss (an engine module without learner code).
    NnModule(tolab_engine::nn::Module),
    /// `nn.Parameter`: behaves as its tensor, keeps its identity across `module.to()`.
    Parameter(tolab_engine::nn::Parameter),
    /// A `torch.optim` optimizer.
    Optimizer(Rc<tolab_engine::optim::Optimizer>),
    /// A built-in type (`int`, `torch.Tensor`, `torch.utils.data.Dataset`), by qualified name.
    Type(&'static str),
    /// An iterator object (`iter(x)`, `enumerate(x)`, `zip(...)`, `map(...)`, …).
    Iterator(Rc<RefCell<super::iteration::Iter>>),
    /// A coroutine, an async generator, or an async generator's `__anext__()` (a generator is
    /// an iterator).
    Coroutine(Rc<super::generator::Generator>),
    TensorDataset(Rc<tolab_engine::data::TensorDataset>),
    DataLoader(Rc<crate::torch::data::Loader>),
    /// `torch.Generator()`.
    Generator(tolab_engine::random::GeneratorHandle),
    /// The Mersenne Twister behind a `random.Random` (the module's own is the notebook's).
    PyRandom(Rc<RefCell<crate::stdlib::random::PythonRandom>>),
    /// A compiled regular expression behind a `re.Pattern`.
    Regex(Rc<crate::stdlib::re::Compiled>),
    /// `torch.autocast(...)` / `torch.amp.autocast(...)`, a context manager.
    Autocast(Rc<AutocastRequest>),
    /// `torch.amp.GradScaler()`.
    GradScaler(Rc<tolab_engine::amp::GradScaler>),
    /// `warnings.catch_warnings(record=...)`, a context manager.
    CatchWarnings(bool),
    /// A warning caught by `catch_warnings(record=True)`: its `message` and `category`.
    Warning(Rc<str>),
    /// `os.environ`, kept in the engine session (which reads `CUDA_VISIBLE_DEVICES` once).
    Environ(tolab_engine::Session),
    /// What `load_state_dict` returns: its `missing_keys` and `unexpected_keys`.
    IncompatibleKeys(Rc<tolab_engine::nn::IncompatibleKeys>),
    /// `optimizer.param_groups[i]`: a live dict (`group["lr"] = 0.01` changes the optimizer).
    ParamGroup(Rc<tolab_engine::optim::Optimizer>, usize),
    /// What a decorator made of a function.
    Wrapped(Rc<Wrapped>),
    /// `DistributedSampler(dataset, ...)`: one rank's share of a dataset.
    Sampler(Rc<Sampler>),
    /// `torch.cuda.Event(enable_timing=...)`.
    CudaEvent(Rc<CudaEvent>),
    /// `torch.cuda.get_device_properties(i)`.
    DeviceProperties(Rc<tolab_engine::cuda::DeviceProperties>),
    /// A named tuple torch returns (`torch.return_types.max(values=…, indices=…)`).
    StructSeq(Rc<StructSeq>),
    /// A `typing` name, subscripted or not (`typing.Optional[int]`), by its repr: annotations
    /// are not checked at run time, as in Python.
    Typing(Rc<str>),
    /// A NumPy array (`numpy.ndarray`).
    NdArray(Rc<crate::stdlib::numpy::array::NdArray>),
    /// A NumPy scalar (`np.float64(1.5)`).
    NpScalar(crate::stdlib::numpy::array::NpScalar),
    /// A NumPy scalar type (`np.float32`): callable, and a dtype where one is expected.
    NpType(crate::stdlib::numpy::dtype::NpDType),
    /// A NumPy dtype object (`a.dtype`).
    NpDType(crate::stdlib::numpy::dtype::NpDType),
}

/// `torch.cuda.Event`: a point recorded on the GPU's queue (a GPU timestamp where the adapter
/// writes them), so that `elapsed_time` measures the GPU's work between two events.
pub struct CudaEvent {
    pub session: tolab_engine::Session,
    pub timing: bool,
    pub recorded: std::cell::RefCell<Option<tolab_engine::StreamMark>>,
}

/// A `DistributedSampler` and the length of the dataset it samples.
pub struct Sampler {
    pub engine: Rc<tolab_engine::data::DistributedSampler>,
    pub dataset_len: usize,
}

impl Sampler {
    /// `len(sampler)`.
    pub fn len(&self) -> usize {
        self.engine.num_samples(self.dataset_len)
    }

    /// `list(sampler)`: this rank's indices for the current epoch.
    pub fn indices(&self) -> Vec<Value> {
        let indices = self.engine.indices(self.dataset_len);
        indices.into_iter().map(|i| Value::Int(i as i64)).collect()
    }
}

/// A tuple whose items also have names, as torch's `torch.return_types` are.
pub struct StructSeq {
    /// The type's qualified name (`torch.return_types.max`).
    pub name: &'static str,
    pub fields: Vec<(&'static str, Value)>,
}

impl StructSeq {
    pub fn items(&self) -> Vec<Value> {
        self.fields.iter().map(|(_, v)| v.clone()).collect()
    }

    pub fn field(&self, name: &str) -> Option<Value> {
        self.fields
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
    }
}

/// A function as a decorator left it.
pub enum Wrapped {
    /// `@torch.no_grad()` / `@torch.enable_grad()`: runs with grad mode set, then restores it.
    GradMode(bool, Value),
    /// `@property`: read as an attribute, the getter runs.
    /// `property(getter)`, and the setter `@name.setter` gave it.
    Property(Value, Option<Value>),
    /// `@staticmethod`: not bound to the object it is looked up on.
    StaticMethod(Value),
    /// `@classmethod`: bound to the class it is looked up on (or the class of the object).
    ClassMethod(Value),
}

/// The arguments of an `autocast` context, applied when it is entered.
pub struct AutocastRequest {
    pub device_type: String,
    pub dtype: Option<tolab_engine::DType>,
    pub enabled: bool,
}

/// A class defined in a cell.
pub struct Class {
    pub name: String,
    /// The cell classes it derives from, as the class statement lists them.
    pub bases: Vec<Rc<Class>>,
    /// Its method resolution order after itself (C3, as CPython's `__mro__[1:]`, less the
    /// built-in classes).
    pub ancestors: Vec<Rc<Class>>,
    /// Whether `nn.Module` is among its ancestors.
    pub is_module: bool,
    /// The built-in class at the root of its ancestry (`torch.utils.data.Dataset`, `object`).
    pub builtin_base: Option<&'static str>,
    /// The built-in exception class it derives from, for an exception class
    /// (`class StatisticsError(ValueError)`).
    pub exception: Option<ExcType>,
    /// The module it was defined in (`__main__` in a cell), as its reprs name it.
    pub module: Rc<str>,
    /// Its metaclass, when a cell class (`class Enum(metaclass=EnumMeta)`): the class whose
    /// dunders answer for the class itself (`Color("red")`, `Color["RED"]`, `list(Color)`).
    pub metaclass: Option<Rc<Class>>,
    /// Methods and class attributes.
    pub namespace: RefCell<Names>,
}

impl Class {
    /// A class with no cell classes among its bases.
    pub fn plain(name: &str, module: Rc<str>) -> Class {
        Class {
            name: name.to_owned(),
            bases: Vec::new(),
            ancestors: Vec::new(),
            is_module: false,
            builtin_base: None,
            exception: None,
            module,
            metaclass: None,
            namespace: RefCell::new(Names::default()),
        }
    }

    /// `issubclass(self, other)` among cell classes.
    pub fn is_or_derives(&self, other: &Class) -> bool {
        std::ptr::eq(self, other) || self.ancestors.iter().any(|a| std::ptr::eq(&**a, other))
    }

    /// Whether the built-in class `name` is among its ancestors.
    pub fn derives_from_builtin(&self, name: &str) -> bool {
        self.builtin_base == Some(name)
            || self.ancestors.iter().any(|a| a.builtin_base == Some(name))
    }

    /// A name on this class or its ancestors, in method resolution order.
    pub fn lookup(&self, name: &str) -> Option<Value> {
        if let Some(v) = self.namespace.borrow().get(name) {
            return Some(v.clone());
        }
        self.ancestors
            .iter()
            .find_map(|a| a.namespace.borrow().get(name).cloned())
    }

    /// What `super()` finds from `owner`'s methods: a name on the classes after `owner` in this
    /// class's method resolution order.
    pub fn lookup_after(&self, owner: &Class, name: &str) -> Option<Value> {
        let after: Vec<&Class> = if std::ptr::eq(self, owner) {
            self.ancestors.iter().map(|a| &**a).collect()
        } else {
            let at = self
                .ancestors
                .iter()
                .position(|a| std::ptr::eq(&**a, owner));
            match at {
                Some(at) => self.ancestors[at + 1..].iter().map(|a| &**a).collect(),
                // Not in this class's order (a method borrowed from elsewhere): its own.
                None => owner.ancestors.iter().map(|a| &**a).collect(),
            }
        };
        after
            .into_iter()
            .find_map(|a| a.namespace.borrow().get(name).cloned())
    }
}

/// An object made by calling a cell's class.
pub struct Instance {
    pub class: Rc<Class>,
    /// Its attributes, in the order they were first set (as `vars(obj)` lists them).
    pub attributes: RefCell<Attributes>,
    /// For an `nn.Module` subclass: the engine module holding its parameters, buffers, children.
    pub module: Option<tolab_engine::nn::Module>,
    /// For a subclass of a built-in container (`class Counter(dict)`): the container it is,
    /// which the language's own operations use where the class does not say otherwise.
    pub builtin: RefCell<Option<Value>>,
}

/// A function defined in a cell, by `def` or `lambda`.
pub struct Function {
    pub name: String,
    /// `main.<locals>.f`: where it was defined, as tracebacks and errors name it.
    pub qualname: String,
    pub parameters: Rc<Parameters>,
    /// Its return annotation (`-> Tensor`), evaluated with the parameters' when
    /// `__annotations__` is first read.
    pub returns: Option<Rc<Expr>>,
    pub body: FunctionBody,
    /// The defaults of the trailing positional parameters, in order.
    pub defaults: Vec<Value>,
    /// The defaults of keyword-only parameters.
    pub keyword_defaults: Vec<(String, Value)>,
    pub cell: Rc<CellSource>,
    /// The line the definition starts on.
    pub line: usize,
    /// The scopes of the functions it is nested in, innermost first (its closure).
    pub enclosing: Rc<[Scope]>,
    /// Whether its body has a `yield`: calling it makes a generator (an async generator when
    /// it is `async def`).
    pub generator: bool,
    /// `async def`: calling it makes a coroutine.
    pub is_async: bool,
    /// Its local names, as the compiler decides them (see [`super::locals`]).
    pub assigned: Rc<rustc_hash::FxHashSet<String>>,
    /// Attributes set on it (`wrapper.__name__ = …`, `f.__isabstractmethod__ = True`).
    pub attributes: RefCell<Names>,
}

/// A function call's local names; shared, so that nested functions see (and `nonlocal` changes)
/// the names of the call they were defined in.
pub type Scope = Rc<RefCell<Names>>;

/// Names bound to values (a scope, a class's namespace, an object's attributes). Looked up at
/// every use of a name, so hashed with Fx rather than SipHash: cells cannot choose hostile keys.
/// Names in the order they were first bound (a class body's, as CPython keeps them).
pub type Names = indexmap::IndexMap<String, Value, rustc_hash::FxBuildHasher>;

/// An object's attributes: names in the order they were first set.
pub type Attributes = indexmap::IndexMap<String, Value, rustc_hash::FxBuildHasher>;

pub enum FunctionBody {
    Statements(Rc<[Stmt]>),
    /// A lambda's single expression.
    Expression(Rc<Expr>),
}

impl Value {
    /// `...` (`Ellipsis`), the one object of its type, as `NotImplemented` is a builtin by name.
    pub const ELLIPSIS: Value = Value::Builtin("Ellipsis");

    pub fn is_ellipsis(&self) -> bool {
        matches!(self, Value::Builtin("Ellipsis"))
    }

    /// A parameter seen as the tensor it holds now (operators and methods work on that).
    pub fn resolved(&self) -> std::borrow::Cow<'_, Value> {
        match self {
            Value::Parameter(p) => std::borrow::Cow::Owned(Value::Tensor(p.tensor())),
            Value::Instance(i) if i.builtin.borrow().is_some() => {
                std::borrow::Cow::Owned(i.builtin.borrow().clone().unwrap_or(Value::None))
            }
            other => std::borrow::Cow::Borrowed(other),
        }
    }

    pub fn str(s: &str) -> Value {
        Value::Str(Rc::from(s))
    }

    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::new(RefCell::new(items)))
    }

    /// A dict of `entries`, in their order (keys assumed distinct).
    pub fn dict(entries: Vec<(Value, Value)>) -> Value {
        Value::Dict(Rc::new(RefCell::new(entries)))
    }

    /// A tensor's shape as `torch.Size`.
    pub fn size(shape: &[usize]) -> Value {
        Value::Size(shape.iter().map(|&d| d as i64).collect())
    }

    /// A set of `items`, duplicates dropped (the first of equal items is kept).
    pub fn set(items: Vec<Value>) -> Result<Value, PyException> {
        let mut unique: Vec<Value> = Vec::with_capacity(items.len());
        for item in items {
            check_hashable(&item)?;
            if !unique.iter().any(|u| equal(u, &item)) {
                unique.push(item);
            }
        }
        Ok(Value::Set(Rc::new(RefCell::new(unique))))
    }

    /// The cell class whose methods answer `x.__dunder__()` for this value: an instance's
    /// class, or a class's metaclass.
    pub fn dunder_class(&self) -> Option<&Rc<Class>> {
        match self {
            Value::Instance(i) => Some(&i.class),
            Value::Class(c) => c.metaclass.as_ref(),
            _ => None,
        }
    }

    /// `type(x).__name__`.
    pub fn type_name(&self) -> String {
        match self {
            Value::None => "NoneType",
            Value::Bool(_) => "bool",
            Value::Int(_) | Value::BigInt(_) => "int",
            Value::Float(_) => "float",
            Value::Complex(..) => "complex",
            Value::Str(_) => "str",
            Value::Bytes(_) => "bytes",
            Value::List(_) => "list",
            Value::Tuple(_) => "tuple",
            Value::Dict(_) => "dict",
            Value::Set(_) => "set",
            Value::Range { .. } => "range",
            Value::Function(_) => "function",
            Value::Builtin("Ellipsis") => "ellipsis",
            Value::Builtin(_) | Value::ModuleFn(..) => "builtin_function_or_method",
            Value::TorchFn(b) if b.class.is_some() => "type",
            Value::TorchFn(b) if b.kind == crate::torch::signature::Kind::Python => "function",
            Value::TorchFn(_) => "builtin_function_or_method",
            Value::TorchMethod(_, b) if b.kind == crate::torch::signature::Kind::Python => "method",
            Value::TorchMethod(..) => "builtin_function_or_method",
            Value::Module(_) => "module",
            Value::Method(..) => "method",
            Value::Tensor(_) => "Tensor",
            Value::Device(_) => "device",
            Value::DType(_) => "dtype",
            Value::FInfo(_) => "torch.finfo",
            Value::IInfo(_) => "torch.iinfo",
            Value::TensorType(_) => "torch.tensortype",
            Value::Size(_) => "torch.Size",
            Value::GradFn(_) => "Node",
            Value::GradMode(false) => "no_grad",
            Value::GradMode(true) => "enable_grad",
            Value::SetGradEnabled { .. } => "set_grad_enabled",
            Value::Anomaly(a) => a.class_name(),
            Value::ForkRng(_) => "_GeneratorContextManager",
            Value::HookHandle(_) => "RemovableHandle",
            Value::ExcClass(_) | Value::Class(_) | Value::NnClass(_) => "type",
            Value::Exception(e) => e.kind.name(),
            Value::Instance(i) => return i.class.name.clone(),
            Value::FunctionCtx(c) => return c.name.clone(),
            Value::BoundMethod(..) => "method",
            Value::Super(..) => "super",
            Value::NnModule(m) => return m.class_name(),
            Value::Parameter(_) => "Parameter",
            Value::Optimizer(o) => o.algorithm().class_name(),
            Value::Type(_) => "type",
            Value::Iterator(it) => it.borrow().type_name(),
            Value::Coroutine(g) => g.kind().type_name(),
            Value::TensorDataset(_) => "TensorDataset",
            Value::DataLoader(_) => "DataLoader",
            Value::Generator(_) => "Generator",
            Value::PyRandom(_) => "_random.Random",
            Value::Regex(_) => "_sre.Pattern",
            Value::Autocast(_) => "autocast",
            Value::GradScaler(_) => "GradScaler",
            Value::CatchWarnings(_) => "catch_warnings",
            Value::Warning(_) => "WarningMessage",
            Value::Environ(_) => "_Environ",
            Value::IncompatibleKeys(_) => "_IncompatibleKeys",
            Value::ParamGroup(..) => "dict",
            Value::StructSeq(s) => s.name.rsplit('.').next().unwrap_or(s.name),
            // CPython's class for a subscripted or special typing name.
            Value::Typing(_) => "_GenericAlias",
            Value::Sampler(_) => "DistributedSampler",
            Value::NdArray(_) => "ndarray",
            Value::NpScalar(x) => x.dtype.name(),
            Value::NpType(_) => "type",
            Value::NpDType(d) => {
                return format!("{}DType", {
                    let name = d.name();
                    let mut chars = name.chars();
                    chars
                        .next()
                        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                        .unwrap_or_default()
                });
            }
            Value::CudaEvent(_) => "Event",
            Value::DeviceProperties(_) => "_CudaDeviceProperties",
            Value::Wrapped(w) => match &**w {
                Wrapped::GradMode(..) => "function",
                Wrapped::Property(..) => "property",
                Wrapped::StaticMethod(_) => "staticmethod",
                Wrapped::ClassMethod(_) => "classmethod",
            },
        }
        .to_owned()
    }

    /// `bool(x)`, which for a tensor reads its one value (a sync point) and refuses many.
    pub fn truth(&self) -> Result<bool, PyException> {
        match &*self.resolved() {
            v @ (Value::NdArray(_) | Value::NpScalar(_)) => crate::stdlib::numpy::truth(v),
            Value::Tensor(t) if t.numel() == 1 => Ok(t.item()?.as_f64() != 0.0),
            Value::Tensor(t) if t.numel() == 0 => Err(PyException::new(
                ExcType::RuntimeError,
                "Boolean value of Tensor with no values is ambiguous",
            )),
            Value::Tensor(_) => Err(PyException::new(
                ExcType::RuntimeError,
                "Boolean value of Tensor with more than one value is ambiguous",
            )),
            other => Ok(other.truthy()),
        }
    }

    /// Python's truth value for everything but tensors (see [`Value::truth`]).
    pub fn truthy(&self) -> bool {
        match self {
            Value::None => false,
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::Float(x) => *x != 0.0,
            Value::Complex(re, im) => *re != 0.0 || *im != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::Bytes(b) => !b.is_empty(),
            Value::List(items) => !items.borrow().is_empty(),
            Value::Tuple(items) => !items.is_empty(),
            Value::Dict(entries) => !entries.borrow().is_empty(),
            Value::Set(items) => !items.borrow().is_empty(),
            Value::Range { start, stop, step } => range_len(*start, *stop, *step) > 0,
            Value::Size(dims) => !dims.is_empty(),
            Value::NpScalar(x) => x.value.truthy(),
            _ => true,
        }
    }

    /// `repr(x)` with the default repr for learners' objects (see [`Value::repr_in`]).
    pub fn repr(&self) -> String {
        self.repr_in(&mut ReprContext::default())
    }

    /// `repr(x)`: learners' `__repr__` texts come from `cx`, a container already being shown
    /// shows as `[...]` (as CPython's), and nesting deeper than [`MAX_REPR_DEPTH`] or more than
    /// [`MAX_REPR_PARTS`] containers in all (shared ones count each time) are cut short, and
    /// the cut is noted in `cx` for the caller to raise.
    pub fn repr_in(&self, cx: &mut ReprContext) -> String {
        let container = match self {
            Value::List(items) => Some((address(items), "[...]")),
            Value::Tuple(items) => Some((address(items), "(...)")),
            Value::Dict(entries) => Some((address(entries), "{...}")),
            Value::Set(items) => Some((address(items), "{...}")),
            _ => None,
        };
        let Some((at, cut)) = container else {
            return self.leaf_repr(cx);
        };
        if cx.open.contains(&at) {
            return cut.into();
        }
        cx.parts += 1;
        if cx.cut.is_some() || cx.parts > MAX_REPR_PARTS {
            cx.cut.get_or_insert(Cut::TooLong);
            return cut.into();
        }
        if cx.open.len() >= MAX_REPR_DEPTH {
            cx.cut = Some(Cut::TooDeep);
            return cut.into();
        }
        cx.open.push(at);
        let mut join = |items: &[Value]| {
            let parts: Vec<String> = items.iter().map(|v| v.repr_in(cx)).collect();
            parts.join(", ")
        };
        let text = match self {
            Value::List(items) => format!("[{}]", join(&items.borrow())),
            Value::Tuple(items) if items.len() == 1 => format!("({},)", join(items)),
            Value::Tuple(items) => format!("({})", join(items)),
            Value::Set(items) if items.borrow().is_empty() => "set()".into(),
            Value::Set(items) => format!(
                "{{{}}}",
                join(&super::hashing::in_set_order(&items.borrow()))
            ),
            Value::Dict(entries) => {
                let parts: Vec<String> = entries
                    .borrow()
                    .iter()
                    .map(|(k, v)| format!("{}: {}", k.repr_in(cx), v.repr_in(cx)))
                    .collect();
                format!("{{{}}}", parts.join(", "))
            }
            other => other.leaf_repr(cx),
        };
        cx.open.pop();
        text
    }

    /// `repr` of everything but the containers [`Value::repr_in`] walks.
    fn leaf_repr(&self, cx: &mut ReprContext) -> String {
        match self {
            Value::None => "None".into(),
            Value::Bool(true) => "True".into(),
            Value::Bool(false) => "False".into(),
            Value::Int(i) => i.to_string(),
            // Past CPython's digit limit the caller raises its ValueError (see `Cut::Digits`).
            Value::BigInt(b) => super::int::decimal(b).unwrap_or_else(|_| {
                cx.cut.get_or_insert(Cut::Digits);
                String::new()
            }),
            Value::Float(x) => python_float(*x),
            Value::Complex(re, im) => super::complex::repr(*re, *im),
            Value::Str(s) => string_repr(s),
            Value::Bytes(b) => super::bytes::repr(b),
            Value::List(_) | Value::Tuple(_) | Value::Dict(_) | Value::Set(_) => self.repr_in(cx),
            Value::Range { start, stop, step } if *step == 1 => format!("range({start}, {stop})"),
            Value::Range { start, stop, step } => format!("range({start}, {stop}, {step})"),
            Value::Function(f) => format!("<function {} at {:#x}>", f.qualname, address(f)),
            Value::Builtin(name @ ("NotImplemented" | "Ellipsis")) => (*name).into(),
            Value::Builtin(name) => format!("<built-in function {name}>"),
            Value::Module(name) => format!("<module '{name}'>"),
            Value::ModuleFn(_, name) => format!("<built-in method {name} of type object>"),
            Value::TorchFn(b) => match b.class {
                Some(path) => format!("<class '{path}'>"),
                None if b.kind == crate::torch::signature::Kind::Python => {
                    format!(
                        "<function {} at {:#x}>",
                        b.name(),
                        std::ptr::from_ref(*b) as usize
                    )
                }
                None => format!("<built-in method {} of type object>", b.name()),
            },
            Value::TorchMethod(owner, b) if b.kind == crate::torch::signature::Kind::Python => {
                format!(
                    "<bound method {} of {}>",
                    b.signatures[0].name,
                    owner.repr()
                )
            }
            Value::TorchMethod(owner, b) => {
                format!(
                    "<built-in method {} of {} object>",
                    b.name(),
                    owner.type_name()
                )
            }
            // Unbound: `nn.Module.parameters`, `torch.Tensor.add`.
            Value::Method(owner, name) if matches!(**owner, Value::NnClass(_)) => {
                format!("<function Module.{name} at {:#x}>", address(name))
            }
            Value::Method(owner, name) if matches!(**owner, Value::Type("torch.Tensor")) => {
                format!("<method '{name}' of 'torch._C.TensorBase' objects>")
            }
            Value::Method(owner, name) => {
                format!("<built-in method {name} of {} object>", owner.type_name())
            }
            Value::Tensor(t) => t.repr().unwrap_or_else(|e| {
                let text = format!("<tensor: {e}>");
                cx.failed.get_or_insert(e);
                text
            }),
            Value::Device(d) => d.repr(),
            Value::DType(d) => d.to_string(),
            Value::FInfo(info) => info.to_string(),
            Value::IInfo(info) => info.to_string(),
            Value::TensorType(t) => format!("<class '{}'>", t.qualified_name()),
            Value::Size(dims) => {
                let parts: Vec<String> = dims.iter().map(ToString::to_string).collect();
                format!("torch.Size([{}])", parts.join(", "))
            }
            Value::GradFn(g) => format!(
                "<{} object at {:#x}>",
                g.name(),
                0x7f00_0000_0000u64 + g.id() * 0x40
            ),
            Value::ExcClass(kind) => format!("<class '{}'>", kind.name()),
            Value::Class(c) => format!("<class '{}.{}'>", c.module, c.name),
            Value::NnClass(name) => match crate::torch::signature::binding("torch.nn", name) {
                Some(b) => format!("<class '{}'>", b.class.unwrap_or(b.key)),
                None => format!("<class 'torch.nn.{name}'>"),
            },
            Value::Instance(i) => match (cx.learned.get(&address(i)), &i.module) {
                (Some(text), _) => text.clone(),
                (None, Some(m)) => cx.modules.get(&m.id()).cloned().unwrap_or_else(|| m.repr()),
                (None, None) if let Some(container) = i.builtin.borrow().as_ref() => {
                    container.repr_in(cx)
                }
                (None, None) if i.class.exception.is_some() => {
                    let args = match i.attributes.borrow().get("args") {
                        Some(Value::Tuple(args)) => args.to_vec(),
                        _ => Vec::new(),
                    };
                    let args: Vec<String> = args.iter().map(|a| a.repr_in(cx)).collect();
                    format!("{}({})", i.class.name, args.join(", "))
                }
                (None, None) => format!(
                    "<{}.{} object at {:#x}>",
                    i.class.module,
                    i.class.name,
                    address(i)
                ),
            },
            Value::BoundMethod(owner, f) => {
                format!("<bound method {} of {}>", f.qualname, owner.repr())
            }
            Value::Super(..) => "<super object>".into(),
            Value::NnModule(m) => cx.modules.get(&m.id()).cloned().unwrap_or_else(|| m.repr()),
            Value::Parameter(p) => p.repr().unwrap_or_else(|e| format!("<parameter: {e}>")),
            Value::Optimizer(o) => o.repr(),
            // A KeyError's message is already its key's repr.
            Value::Exception(e) if e.kind == ExcType::KeyError => {
                format!("KeyError({})", e.message)
            }
            // Its args as made (`FileNotFoundError(2, 'No such file or directory')`).
            Value::Exception(e) => match &e.args {
                super::exception::ExceptionArgs::Args(_) => {
                    let args: Vec<String> = e.args().iter().map(|a| a.repr_in(cx)).collect();
                    format!("{}({})", e.kind.name(), args.join(", "))
                }
                _ => format!("{}({})", e.kind.name(), Value::str(&e.message).repr()),
            },
            Value::GradMode(mode) => format!(
                "<torch.autograd.grad_mode.{} object>",
                if *mode { "enable_grad" } else { "no_grad" }
            ),
            Value::HookHandle(h) => format!(
                "<torch.utils.hooks.RemovableHandle object at {:#x}>",
                address(h)
            ),
            Value::FunctionCtx(c) => format!(
                "<torch.autograd.function.{} object at {:#x}>",
                c.name,
                address(c)
            ),
            Value::ForkRng(f) => format!(
                "<contextlib._GeneratorContextManager object at {:#x}>",
                address(f)
            ),
            Value::Anomaly(a) => format!(
                "<torch.autograd.anomaly_mode.{} object at {:#x}>",
                a.class_name(),
                address(a)
            ),
            Value::SetGradEnabled { mode, .. } => format!(
                "torch.autograd.grad_mode.set_grad_enabled(mode={})",
                if *mode { "True" } else { "False" }
            ),
            Value::Type(name) => format!("<class '{name}'>"),
            Value::Typing(text) => text.to_string(),
            Value::NdArray(_) | Value::NpScalar(_) | Value::NpType(_) | Value::NpDType(_) => {
                crate::stdlib::numpy::repr(self)
            }
            Value::Iterator(it) => match &*it.borrow() {
                super::iteration::Iter::Generator(g) => format!(
                    "<generator object {} at {:#x}>",
                    g.name,
                    Rc::as_ptr(g) as usize
                ),
                other => format!("<{} object>", other.type_name()),
            },
            Value::Coroutine(g) => format!(
                "<{} object {} at {:#x}>",
                g.kind().type_name(),
                g.name,
                Rc::as_ptr(g) as usize
            ),
            Value::TensorDataset(d) => {
                format!(
                    "<torch.utils.data.dataset.TensorDataset object at {:#x}>",
                    address(d)
                )
            }
            Value::DataLoader(d) => {
                format!(
                    "<torch.utils.data.dataloader.DataLoader object at {:#x}>",
                    address(d)
                )
            }
            Value::Generator(_) => "<torch._C.Generator object>".into(),
            Value::PyRandom(r) => format!("<_random.Random object at {:#x}>", address(r)),
            Value::Regex(r) => format!("<_sre.Pattern object at {:#x}>", address(r)),
            Value::Autocast(_) => "<torch.autocast object>".into(),
            Value::GradScaler(_) => "<torch.amp.grad_scaler.GradScaler object>".into(),
            Value::CatchWarnings(_) => "<warnings.catch_warnings object>".into(),
            Value::IncompatibleKeys(keys) => keys.repr(),
            Value::CudaEvent(e) => format!("<torch.cuda.Event {:#x}>", address(e)),
            Value::DeviceProperties(p) => p.to_string(),
            Value::Sampler(s) => format!(
                "<torch.utils.data.distributed.DistributedSampler object at {:#x}>",
                address(s)
            ),
            Value::StructSeq(s) => {
                let fields: Vec<String> = s
                    .fields
                    .iter()
                    .map(|(name, v)| format!("{name}={}", v.repr()))
                    .collect();
                format!("{}(\n{})", s.name, fields.join(",\n"))
            }
            Value::Wrapped(w) => match &**w {
                Wrapped::GradMode(_, f) | Wrapped::StaticMethod(f) | Wrapped::ClassMethod(f) => {
                    f.repr()
                }
                Wrapped::Property(..) => format!("<property object at {:#x}>", address(w)),
            },
            Value::ParamGroup(optimizer, index) => {
                let groups = optimizer.param_groups();
                let Some(group) = groups.get(*index) else {
                    return "{}".into();
                };
                let params: Vec<String> = group
                    .params
                    .iter()
                    .map(|p| p.repr().unwrap_or_default())
                    .collect();
                let mut parts = vec![format!("'params': [{}]", params.join(", "))];
                parts.extend(
                    group
                        .options
                        .entries()
                        .iter()
                        .map(|(k, v)| format!("'{k}': {}", v.text())),
                );
                format!("{{{}}}", parts.join(", "))
            }
            Value::Environ(session) => {
                let entries: Vec<String> = session
                    .env_keys()
                    .iter()
                    .map(|k| {
                        let v = session.env(k).unwrap_or_default();
                        format!("{}: {}", Value::str(k).repr(), Value::str(&v).repr())
                    })
                    .collect();
                format!("environ({{{}}})", entries.join(", "))
            }
            Value::Warning(message) => format!(
                "{{message : UserWarning({}), category : 'UserWarning'}}",
                Value::str(message).repr()
            ),
        }
    }

    /// `str(x)`: the text itself for strings, `repr` otherwise (as for every other type here).
    pub fn str_text(&self) -> String {
        match self {
            Value::Str(s) => s.to_string(),
            Value::Device(d) => d.to_string(),
            Value::Exception(e) => e.message.clone(),
            Value::NdArray(_) | Value::NpScalar(_) | Value::NpDType(_) => {
                crate::stdlib::numpy::str(self)
            }
            // A str subclass's object shows its text (a container's shows its repr anyway).
            Value::Instance(i) if matches!(&*i.builtin.borrow(), Some(Value::Str(_))) => {
                self.resolved().str_text()
            }
            other => other.repr(),
        }
    }
}

/// Sets and dict keys take only hashable values.
pub fn check_hashable(v: &Value) -> Result<(), PyException> {
    match v {
        Value::List(_) | Value::Dict(_) | Value::Set(_) => Err(PyException::new(
            ExcType::TypeError,
            format!("unhashable type: '{}'", v.type_name()),
        )),
        _ => Ok(()),
    }
}

/// Python's `==` on plain values (engine objects compare by identity); containers nested past
/// [`MAX_REPR_DEPTH`] or too large to compare are unequal (see [`try_equal`]).
/// How two numbers (`int`, `bool`, `float`) compare, exactly as Python compares them: ints
/// never pass through f64 (which rounds past 2**53), an int and a float compare by value.
/// `None` when a NaN takes part.
pub fn number_order(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    use std::cmp::Ordering;
    let int = |v: &Value| match v {
        Value::Int(i) => Some(*i),
        Value::Bool(b) => Some(i64::from(*b)),
        _ => None,
    };
    // An int against a float: compare the float's floor, then its fraction.
    let int_float = |i: i64, f: f64| -> Option<Ordering> {
        if f.is_nan() {
            return None;
        }
        if f >= 9_223_372_036_854_775_808.0 {
            return Some(Ordering::Less);
        }
        if f < -9_223_372_036_854_775_808.0 {
            return Some(Ordering::Greater);
        }
        let floor = f.floor();
        Some(i.cmp(&(floor as i64)).then(if f > floor {
            Ordering::Less
        } else {
            Ordering::Equal
        }))
    };
    // Big ints compare exactly, with ints and with floats alike.
    if matches!(a, Value::BigInt(_)) || matches!(b, Value::BigInt(_)) {
        let big = super::int::as_big;
        return match (big(a), big(b)) {
            (Some(x), Some(y)) => Some(x.cmp(&y)),
            (Some(x), None) => super::int::compare_float(&x, as_f64(b)),
            (None, Some(y)) => super::int::compare_float(&y, as_f64(a)).map(Ordering::reverse),
            (None, None) => None,
        };
    }
    match (int(a), int(b)) {
        (Some(x), Some(y)) => Some(x.cmp(&y)),
        (Some(x), None) => int_float(x, as_f64(b)),
        (None, Some(y)) => int_float(y, as_f64(a)).map(Ordering::reverse),
        (None, None) => as_f64(a).partial_cmp(&as_f64(b)),
    }
}

/// `d[key] = value` on a dict's entries: the equal key's value replaced, or a new entry last.
pub(crate) fn insert_entry(entries: &mut Vec<(Value, Value)>, key: Value, value: Value) {
    match entries.iter_mut().find(|(k, _)| equal(k, &key)) {
        Some(entry) => entry.1 = value,
        None => entries.push((key, value)),
    }
}

pub fn equal(a: &Value, b: &Value) -> bool {
    // Most dict keys and set items: no depth or size budget to keep.
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => return x == y,
        (Value::Str(x), Value::Str(y)) => return x == y,
        _ => {}
    }
    try_equal(a, b).unwrap_or(false)
}

/// `==` as the operator runs it: containers nested too deeply to compare raise `RecursionError`
/// (as CPython's), and ones too large to compare in the lab `MemoryError`.
pub fn try_equal(a: &Value, b: &Value) -> Result<bool, PyException> {
    let mut parts = MAX_REPR_PARTS;
    equal_within(a, b, MAX_REPR_DEPTH, &mut parts).map_err(|cut| match cut {
        Cut::TooDeep => PyException::new(
            ExcType::RecursionError,
            "maximum recursion depth exceeded in comparison",
        ),
        Cut::TooLong | Cut::Digits => PyException::new(
            ExcType::MemoryError,
            format!("comparing these values means visiting more than {MAX_REPR_PARTS} containers: too much for the lab"),
        ),
    })
}

/// `==` going at most `depth` containers deep and into at most `parts` containers. An item
/// identical to its counterpart is equal without a look inside, as in CPython (so a list
/// holding itself compares).
fn equal_within(a: &Value, b: &Value, depth: usize, parts: &mut usize) -> Result<bool, Cut> {
    // The common keys first: a dict's lookups compare every key they pass.
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => return Ok(x == y),
        (Value::Str(x), Value::Str(y)) => return Ok(x == y),
        _ => {}
    }
    // A container subclass's object equals what its built-in container equals.
    if let (Value::Instance(_), _) | (_, Value::Instance(_)) = (a, b)
        && let (a, b) = (a.resolved(), b.resolved())
        && !matches!(
            (&*a, &*b),
            (Value::Instance(_), _) | (_, Value::Instance(_))
        )
    {
        return equal_within(&a, &b, depth, parts);
    }
    let mut same = |p: &Value, q: &Value| -> Result<bool, Cut> {
        if depth == 0 {
            return Err(Cut::TooDeep);
        }
        // (Floats aside: the lab does not box them, so two NaNs would look like one.)
        if identical(p, q) && !matches!(p, Value::Float(_)) {
            return Ok(true);
        }
        *parts = parts.checked_sub(1).ok_or(Cut::TooLong)?;
        equal_within(p, q, depth - 1, parts)
    };
    let mut all = |pairs: &mut dyn Iterator<Item = (&Value, &Value)>| -> Result<bool, Cut> {
        for (p, q) in pairs {
            if !same(p, q)? {
                return Ok(false);
            }
        }
        Ok(true)
    };
    Ok(match (a, b) {
        (Value::None, Value::None) => true,
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::Bytes(x), Value::Bytes(y)) => x == y,
        (
            Value::Int(_) | Value::BigInt(_) | Value::Bool(_) | Value::Float(_),
            Value::Int(_) | Value::BigInt(_) | Value::Bool(_) | Value::Float(_),
        ) => number_order(a, b) == Some(std::cmp::Ordering::Equal),
        (Value::Complex(..), _) | (_, Value::Complex(..)) => {
            match (super::complex::of(a), super::complex::of(b)) {
                (Some(Ok(x)), Some(Ok(y))) => x == y,
                _ => false,
            }
        }
        (Value::List(x), Value::List(y)) => {
            let (x, y) = (x.borrow(), y.borrow());
            x.len() == y.len() && all(&mut x.iter().zip(y.iter()))?
        }
        (Value::Tuple(x), Value::Tuple(y)) => {
            x.len() == y.len() && all(&mut x.iter().zip(y.iter()))?
        }
        (Value::Size(x), Value::Size(y)) => x == y,
        (Value::NpScalar(x), other) | (other, Value::NpScalar(x))
            if matches!(
                other,
                Value::Int(_) | Value::Bool(_) | Value::Float(_) | Value::NpScalar(_)
            ) =>
        {
            let y = match other {
                Value::NpScalar(y) => y.value.as_f64(),
                v => as_f64(v),
            };
            x.value.as_f64() == y
        }
        (Value::NpDType(x) | Value::NpType(x), Value::NpDType(y) | Value::NpType(y)) => x == y,
        (Value::NpDType(x), Value::Str(s)) | (Value::Str(s), Value::NpDType(x)) => {
            crate::stdlib::numpy::dtype::NpDType::from_name(s) == Some(*x)
        }
        (Value::NdArray(x), Value::NdArray(y)) => Rc::ptr_eq(x, y),
        (Value::Set(x), Value::Set(y)) => {
            let (x, y) = (x.borrow(), y.borrow());
            x.len() == y.len() && x.iter().all(|v| y.iter().any(|w| equal(v, w)))
        }
        (Value::Size(x), Value::Tuple(y)) | (Value::Tuple(y), Value::Size(x)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|(p, q)| equal(&Value::Int(*p), q))
        }
        (Value::Device(x), Value::Device(y)) => x == y,
        (Value::DType(x), Value::DType(y)) => x == y,
        (Value::FInfo(x), Value::FInfo(y)) => x.dtype == y.dtype,
        (Value::IInfo(x), Value::IInfo(y)) => x.dtype == y.dtype,
        (Value::TensorType(x), Value::TensorType(y)) => x == y,
        (Value::Tensor(x), Value::Tensor(y)) => x.is(y),
        (Value::Class(x), Value::Class(y)) => Rc::ptr_eq(x, y),
        (Value::Instance(x), Value::Instance(y)) => Rc::ptr_eq(x, y),
        (Value::Parameter(x), Value::Parameter(y)) => x.is(y),
        (Value::Parameter(p), Value::Tensor(t)) | (Value::Tensor(t), Value::Parameter(p)) => {
            p.tensor().is(t)
        }
        (Value::Type(x), Value::Type(y)) | (Value::NnClass(x), Value::NnClass(y)) => x == y,
        (Value::ExcClass(x), Value::ExcClass(y)) => x == y,
        (Value::NnModule(x), Value::NnModule(y)) => x.is(y),
        // A method bound to the same object is the same method (`fut.remove_done_callback`).
        (Value::BoundMethod(o, f), Value::BoundMethod(p, g)) => Rc::ptr_eq(f, g) && identical(o, p),
        (Value::Dict(x), Value::Dict(y)) => {
            let (x, y) = (x.borrow(), y.borrow());
            if x.len() != y.len() {
                return Ok(false);
            }
            for (k, v) in x.iter() {
                let Some((_, w)) = y.iter().find(|(j, _)| equal(j, k)) else {
                    return Ok(false);
                };
                if !same(v, w)? {
                    return Ok(false);
                }
            }
            true
        }
        // Objects without an `==` of their own equal only themselves.
        _ => identical(a, b),
    })
}

/// Python's `is`.
pub(crate) fn identical(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::None, Value::None) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Tensor(x), Value::Tensor(y)) => x.is(y),
        (Value::List(x), Value::List(y)) => Rc::ptr_eq(x, y),
        (Value::Dict(x), Value::Dict(y)) => Rc::ptr_eq(x, y),
        (Value::Function(x), Value::Function(y)) => Rc::ptr_eq(x, y),
        (Value::Int(x), Value::Int(y)) => x == y && (-5..=256).contains(x),
        (Value::BigInt(x), Value::BigInt(y)) => Rc::ptr_eq(x, y),
        // Floats are not boxed in the lab: the same bits stand for the same object
        // (`nan is nan` for one `nan`), where CPython may hold two equal floats apart.
        (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits(),
        (Value::Str(x), Value::Str(y)) => Rc::ptr_eq(x, y),
        (Value::Bytes(x), Value::Bytes(y)) => Rc::ptr_eq(x, y),
        (Value::Set(x), Value::Set(y)) => Rc::ptr_eq(x, y),
        (Value::PyRandom(x), Value::PyRandom(y)) => Rc::ptr_eq(x, y),
        (Value::Instance(x), Value::Instance(y)) => Rc::ptr_eq(x, y),
        (Value::Class(x), Value::Class(y)) => Rc::ptr_eq(x, y),
        (Value::Tuple(x), Value::Tuple(y)) => Rc::ptr_eq(x, y),
        (Value::NnModule(x), Value::NnModule(y)) => x.is(y),
        (Value::Parameter(x), Value::Parameter(y)) => x.tensor().is(&y.tensor()),
        (Value::Optimizer(x), Value::Optimizer(y)) => Rc::ptr_eq(x, y),
        (Value::DataLoader(x), Value::DataLoader(y)) => Rc::ptr_eq(x, y),
        (Value::Type(x), Value::Type(y)) => x == y,
        (Value::NnClass(x), Value::NnClass(y)) => x == y,
        (Value::ExcClass(x), Value::ExcClass(y)) => x == y,
        (Value::Module(x), Value::Module(y)) => x == y,
        (Value::NdArray(x), Value::NdArray(y)) => Rc::ptr_eq(x, y),
        (Value::NpType(x), Value::NpType(y)) => x == y,
        (Value::Coroutine(x), Value::Coroutine(y)) => Rc::ptr_eq(x, y),
        (Value::Iterator(x), Value::Iterator(y)) => Rc::ptr_eq(x, y),
        (Value::Builtin(x), Value::Builtin(y)) => x == y,
        _ => false,
    }
}

/// A number as f64 (bools are ints in Python).
/// A number the engine hands back (`t.item()`), as Python's.
impl From<tolab_engine::Scalar> for Value {
    fn from(scalar: tolab_engine::Scalar) -> Value {
        match scalar {
            tolab_engine::Scalar::Bool(b) => Value::Bool(b),
            tolab_engine::Scalar::Int(i) => Value::Int(i),
            tolab_engine::Scalar::Float(x) => Value::Float(x),
        }
    }
}

/// An int where Python wants one (`range`, `math.factorial`): ints and bools, else CPython's
/// `TypeError`.
pub fn as_index(v: &Value) -> Result<i64, PyException> {
    match v {
        Value::Int(i) => Ok(*i),
        Value::Bool(b) => Ok(i64::from(*b)),
        Value::NpScalar(x) if !x.dtype.is_float() => Ok(x.value.as_i64()),
        Value::BigInt(_) => Err(PyException::new(
            ExcType::OverflowError,
            "Python int too large to convert to C ssize_t",
        )),
        other => Err(PyException::new(
            ExcType::TypeError,
            format!(
                "'{}' object cannot be interpreted as an integer",
                other.type_name()
            ),
        )),
    }
}

pub fn as_f64(v: &Value) -> f64 {
    match v {
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::Int(i) => *i as f64,
        // Past f64's range, infinite: `float(n)` raises CPython's OverflowError itself.
        Value::BigInt(b) => num_traits::ToPrimitive::to_f64(&**b).unwrap_or(f64::INFINITY),
        Value::Float(x) => *x,
        Value::NpScalar(x) => x.value.as_f64(),
        _ => f64::NAN,
    }
}

pub fn range_len(start: i64, stop: i64, step: i64) -> i64 {
    if step > 0 && stop > start {
        (stop - start + step - 1) / step
    } else if step < 0 && stop < start {
        (start - stop - step - 1) / -step
    } else {
        0
    }
}

/// How deep `repr` goes into nested containers before giving up.
pub const MAX_REPR_DEPTH: usize = 500;

/// How many containers one `repr` or `==` visits before giving up (a value that shares its
/// parts can be exponentially larger than its memory).
pub const MAX_REPR_PARTS: usize = 1_000_000;

/// Why a `repr` or `==` stopped short.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    TooDeep,
    TooLong,
    /// An int with more decimal digits than CPython converts (`int::MAX_STR_DIGITS`).
    Digits,
}

/// What a `repr` needs beyond the value: learners' own texts, and the containers being shown.
#[derive(Default)]
pub struct ReprContext {
    /// The text of each learner object's `__repr__`, by the object's address.
    pub learned: std::collections::HashMap<usize, String>,
    /// The repr of each module holding learners' modules (whose `__repr__` or `extra_repr`
    /// shows in it), by the module's id.
    pub modules: std::collections::HashMap<usize, String>,
    open: Vec<usize>,
    parts: usize,
    /// Set when the repr was cut short.
    pub cut: Option<Cut>,
    /// The first tensor whose values could not be read (a synchronizing operation refused, a
    /// device-side assert): the caller raises it, as printing raises in PyTorch.
    pub failed: Option<tolab_engine::Error>,
}

pub(crate) fn address<T: ?Sized>(rc: &Rc<T>) -> usize {
    Rc::as_ptr(rc) as *const u8 as usize
}

/// Python's `repr` of a string: single quotes unless the text has one and no double quote.
fn string_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::from(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// Values nest without limit (`a = [a]` in a loop): dropping one takes its containers apart
/// iteratively, so that a deep one does not overflow the stack as recursive drops would.
impl Drop for Value {
    fn drop(&mut self) {
        let mut orphans = Vec::new();
        take_children(self, &mut orphans);
        while let Some(mut orphan) = orphans.pop() {
            take_children(&mut orphan, &mut orphans);
        }
    }
}

/// Moves the items of a container this value alone holds into `out`.
fn take_children(v: &mut Value, out: &mut Vec<Value>) {
    match v {
        Value::List(items) | Value::Set(items) => {
            if let Some(cell) = Rc::get_mut(items) {
                out.append(cell.get_mut());
            }
        }
        Value::Tuple(items) => {
            if let Some(slice) = Rc::get_mut(items) {
                out.extend(slice.iter_mut().map(|x| std::mem::replace(x, Value::None)));
            }
        }
        Value::Dict(entries) => {
            if let Some(cell) = Rc::get_mut(entries) {
                out.extend(cell.get_mut().drain(..).flat_map(|(k, v)| [k, v]));
            }
        }
        _ => {}
    }
}
