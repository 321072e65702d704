//! The builtin functions learners use: `print len range str int float bool abs min max sum round
//! list tuple dict repr type isinstance enumerate zip map filter iter next sorted any all getattr
//! hasattr setattr id super`, and the builtin types (`int`, `list`, …) as values.

use std::rc::Rc;

use super::args::{Args, Flow};
use super::exception::{ExcType, PyException};
use super::interpreter::Interpreter;
use super::operators::{compare, iterate};
use super::value::{
    Cut, MAX_REPR_DEPTH, MAX_REPR_PARTS, ReprContext, Value, address, as_f64, range_len,
};

/// The builtin types: calling one converts (`int("3")`), and `isinstance` tests against it.
pub const TYPES: &[&str] = &[
    "int", "float", "str", "bool", "list", "tuple", "dict", "set", "object",
];

const NAMES: &[&str] = &[
    "print",
    "len",
    "range",
    "abs",
    "min",
    "max",
    "sum",
    "round",
    "repr",
    "type",
    "isinstance",
    "enumerate",
    "zip",
    "map",
    "filter",
    "iter",
    "next",
    "sorted",
    "any",
    "all",
    "getattr",
    "hasattr",
    "setattr",
    "id",
    "callable",
    "input",
    "property",
    "staticmethod",
    "classmethod",
    "super",
    "chr",
    "ord",
];

/// The builtins that take an iterable first and consume it whole.
const CONSUMERS: &[&str] = &[
    "list", "tuple", "dict", "set", "sum", "min", "max", "sorted", "any", "all",
];

/// Every builtin's name (types first).
pub fn names() -> impl Iterator<Item = &'static str> {
    TYPES.iter().chain(NAMES).copied()
}

/// A builtin by name, for name lookup after locals and globals.
pub fn lookup(name: &str) -> Option<Value> {
    if let Some(t) = TYPES.iter().find(|n| **n == name) {
        return Some(Value::Type(t));
    }
    NAMES
        .iter()
        .find(|n| **n == name)
        .map(|n| Value::Builtin(n))
}

/// Builtins that read the values of the tensors they are given (a sync point for GPU tensors).
const READ_VALUES: &[&str] = &[
    "bool", "float", "int", "round", "abs", "sum", "min", "max", "sorted", "any", "all",
];

impl Interpreter {
    /// Calls a builtin. Those that need the interpreter (to iterate lazily, to call learner
    /// methods, to read attributes) are answered here; the rest by [`call`].
    pub(crate) async fn call_builtin(&mut self, name: &str, mut args: Args) -> Result<Value, Flow> {
        if READ_VALUES.contains(&name) {
            for arg in &args.positional {
                self.fetch_values(arg).await?;
            }
        }
        match name {
            "iter" | "next" | "enumerate" | "zip" | "map" | "filter" => {
                return self.iterator_builtin(name, args).await;
            }
            "len" => {
                if let [object] = args.positional.as_slice() {
                    match object {
                        Value::Instance(i) if i.class.lookup("__len__").is_some() => {
                            let object = object.clone();
                            return self.call_dunder(&object, "__len__", Vec::new()).await;
                        }
                        Value::TensorDataset(_) => {
                            let object = object.clone();
                            return Ok(Value::Int(self.dataset_len(&object).await? as i64));
                        }
                        Value::DataLoader(loader) => {
                            let loader = loader.clone();
                            return Ok(Value::Int(self.loader_len(&loader).await? as i64));
                        }
                        Value::NnModule(m) if crate::torch::nn::module::holds_module_list(m) => {
                            return Ok(Value::Int(m.children().len() as i64));
                        }
                        _ => {}
                    }
                }
            }
            "getattr" | "hasattr" => {
                let (object, attribute) = match args.positional.as_slice() {
                    [object, Value::Str(a), ..] => (object.clone(), a.clone()),
                    _ => {
                        return Err(PyException::new(
                            ExcType::TypeError,
                            format!("{name}(): attribute name must be string"),
                        )
                        .into());
                    }
                };
                let found = self.get_attribute(&object, &attribute);
                return Ok(match (name, found, args.positional.get(2)) {
                    ("hasattr", found, _) => Value::Bool(found.is_ok()),
                    (_, Ok(v), _) => v,
                    (_, Err(e), Some(default)) if e.kind == ExcType::AttributeError => {
                        default.clone()
                    }
                    (_, Err(e), _) => return Err(e.into()),
                });
            }
            "setattr" => {
                let [object, Value::Str(attribute), value] = args.positional.as_slice() else {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        "setattr expected 3 arguments: object, name (a string), value",
                    )
                    .into());
                };
                let (object, attribute, value) = (object.clone(), attribute.clone(), value.clone());
                self.set_attribute(&object, &attribute, value)?;
                return Ok(Value::None);
            }
            "print" | "str" | "repr" => {
                for v in args.positional.iter_mut() {
                    let text = self.text_of(v, name != "repr").await?;
                    if name == "repr" {
                        return Ok(Value::str(&text));
                    }
                    *v = Value::str(&text);
                }
            }
            _ => {}
        }
        if CONSUMERS.contains(&name)
            && !(matches!(name, "min" | "max") && args.positional.len() > 1)
            && let Some(first) = args.positional.first_mut()
            && !matches!(
                first,
                Value::List(_) | Value::Tuple(_) | Value::Dict(_) | Value::Str(_)
            )
        {
            let items = self.collect(&first.clone()).await?;
            *first = Value::list(items);
        }
        if matches!(name, "sorted" | "min" | "max")
            && let Some(key) = args.keyword("key").filter(|k| !matches!(k, Value::None))
        {
            return self.by_key(name, key.clone(), &args).await;
        }
        call(self, name, args).map_err(Flow::from)
    }

    /// `str(v)` (`as_str`) or `repr(v)`, with learners' `__str__`/`__repr__`, also of objects
    /// inside containers.
    pub(crate) async fn text_of(&mut self, v: &Value, as_str: bool) -> Result<String, Flow> {
        self.fetch_values(v).await?;
        let container = matches!(
            v,
            Value::List(_) | Value::Tuple(_) | Value::Dict(_) | Value::Set(_)
        );
        if let Value::Instance(i) = v
            && as_str
            && i.class.lookup("__str__").is_some()
        {
            return Ok(self.call_dunder(v, "__str__", Vec::new()).await?.str_text());
        }
        if as_str && !container && !matches!(v, Value::Instance(_)) {
            return Ok(v.str_text());
        }
        let mut cx = ReprContext::default();
        for object in learner_objects(v) {
            let text = self.call_dunder(&object, "__repr__", Vec::new()).await?;
            if let Value::Instance(i) = &object {
                cx.learned.insert(address(i), text.str_text());
            }
        }
        let text = v.repr_in(&mut cx);
        match cx.cut {
            None => Ok(text),
            Some(Cut::TooDeep) => Err(PyException::new(
                ExcType::RecursionError,
                "maximum recursion depth exceeded while getting the repr of an object",
            )
            .into()),
            Some(Cut::TooLong) => Err(PyException::new(
                ExcType::MemoryError,
                format!(
                    "this repr would show more than {MAX_REPR_PARTS} containers: too long for the lab"
                ),
            )
            .into()),
        }
    }

    /// `sorted`, `min` and `max` with `key=`: the key of each item decides, ties keep their order.
    async fn by_key(&mut self, name: &str, key: Value, args: &Args) -> Result<Value, Flow> {
        let items = match args.positional.as_slice() {
            [one] => iterate(one)?,
            many => many.to_vec(),
        };
        let mut keyed = Vec::with_capacity(items.len());
        for item in items {
            let k = self
                .call(&key, Args::positional(vec![item.clone()]))
                .await?;
            keyed.push((k, item));
        }
        let mut failure = None;
        let result = match name {
            "sorted" => {
                super::methods::sort_by_value(&mut keyed, |(k, _)| k, reversed(args))?;
                Value::list(keyed.into_iter().map(|(_, v)| v).collect())
            }
            _ => {
                let wanted = if name == "min" {
                    std::cmp::Ordering::Less
                } else {
                    std::cmp::Ordering::Greater
                };
                let mut best: Option<(Value, Value)> = None;
                for pair in keyed {
                    best = match best {
                        Some(b) if super::methods::order(&pair.0, &b.0, &mut failure) != wanted => {
                            Some(b)
                        }
                        _ => Some(pair),
                    };
                }
                best.map(|(_, v)| v).ok_or_else(|| {
                    PyException::new(
                        ExcType::ValueError,
                        format!("{name}() arg is an empty sequence"),
                    )
                })?
            }
        };
        match failure {
            Some(e) => Err(e.into()),
            None => Ok(result),
        }
    }
}

fn arity(name: &str, args: &Args, min: usize, max: usize) -> Result<(), PyException> {
    let n = args.positional.len();
    if n < min || n > max {
        let expected = if min == max {
            format!("exactly {min} argument{}", if min == 1 { "" } else { "s" })
        } else {
            format!("at most {max} arguments")
        };
        return Err(PyException::new(
            ExcType::TypeError,
            format!("{name}() takes {expected} ({n} given)"),
        ));
    }
    Ok(())
}

pub fn call(interp: &mut Interpreter, name: &str, args: Args) -> Result<Value, PyException> {
    let first = || args.positional.first().cloned().unwrap_or(Value::None);
    Ok(match name {
        "print" => {
            let sep = args.keyword("sep").map_or(" ".into(), Value::str_text);
            let end = args.keyword("end").map_or("\n".into(), Value::str_text);
            let text: Vec<String> = args.positional.iter().map(Value::str_text).collect();
            let mut stdout = interp.stdout.borrow_mut();
            stdout.push_str(&text.join(&sep));
            stdout.push_str(&end);
            Value::None
        }
        "len" => {
            arity(name, &args, 1, 1)?;
            let v = first();
            let n = match &v {
                Value::Str(s) => s.chars().count(),
                Value::Tensor(t) if t.dim() == 0 => {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        "len() of a 0-d tensor",
                    ));
                }
                Value::Tensor(t) => t.shape()[0],
                Value::NdArray(a) if a.ndim() == 0 => {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        "len() of unsized object",
                    ));
                }
                Value::NdArray(a) => a.shape[0],
                Value::Range { start, stop, step } => range_len(*start, *stop, *step) as usize,
                other => iterate(other)
                    .map_err(|_| {
                        PyException::new(
                            ExcType::TypeError,
                            format!("object of type '{}' has no len()", other.type_name()),
                        )
                    })?
                    .len(),
            };
            Value::Int(n as i64)
        }
        "range" => {
            arity(name, &args, 1, 3)?;
            let ints: Vec<i64> = args
                .positional
                .iter()
                .map(super::value::as_index)
                .collect::<Result<_, _>>()?;
            let (start, stop, step) = match ints.as_slice() {
                [stop] => (0, *stop, 1),
                [start, stop] => (*start, *stop, 1),
                [start, stop, step] => (*start, *stop, *step),
                _ => (0, 0, 1),
            };
            if step == 0 {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "range() arg 3 must not be zero",
                ));
            }
            Value::Range { start, stop, step }
        }
        // A cell has no keyboard to read: say so at once rather than wait for ever.
        "input" => {
            return Err(PyException::new(
                ExcType::Other("OSError".into()),
                "input() reads from the keyboard, which lab cells do not have: set the value in the code instead",
            ));
        }
        "str" => Value::str(
            &args
                .positional
                .first()
                .map_or(String::new(), Value::str_text),
        ),
        "repr" => {
            arity(name, &args, 1, 1)?;
            Value::str(&first().repr())
        }
        "int" | "float" | "abs" if matches!(first(), Value::NpScalar(_)) => {
            let Value::NpScalar(x) = first() else {
                return Ok(Value::None);
            };
            let mut args = args;
            args.positional[0] = crate::stdlib::numpy::python_number(&x);
            if name == "abs" {
                return crate::stdlib::numpy::absolute(&Value::NpScalar(x));
            }
            return call(interp, name, args);
        }
        "abs" if matches!(first(), Value::NdArray(_)) => {
            return crate::stdlib::numpy::absolute(&first());
        }
        "int" | "float" if matches!(first(), Value::NdArray(_)) => {
            let Value::NdArray(a) = &first() else {
                return Ok(Value::None);
            };
            let a = a.clone();
            if a.size() != 1 {
                return Err(PyException::new(
                    ExcType::TypeError,
                    "only length-1 arrays can be converted to Python scalars",
                ));
            }
            let mut args = args;
            args.positional[0] = crate::stdlib::numpy::python_number(&a.scalar_at(0)?);
            return call(interp, name, args);
        }
        "int" => match &first() {
            Value::Float(x) if x.is_finite() => Value::Int(x.trunc() as i64),
            Value::Int(i) => Value::Int(*i),
            Value::Bool(b) => Value::Int(i64::from(*b)),
            Value::Str(s) => Value::Int(s.trim().parse().map_err(|_| {
                PyException::new(
                    ExcType::ValueError,
                    format!(
                        "invalid literal for int() with base 10: {}",
                        Value::Str(s.clone()).repr()
                    ),
                )
            })?),
            Value::Tensor(t) => Value::Int(one_element(t)?.as_f64() as i64),
            Value::None if args.positional.is_empty() => Value::Int(0),
            other => return Err(conversion_error("int", other)),
        },
        "float" => match &first() {
            Value::Int(_) | Value::Bool(_) | Value::Float(_) => Value::Float(as_f64(&first())),
            Value::Str(s) => Value::Float(s.trim().parse().map_err(|_| {
                PyException::new(
                    ExcType::ValueError,
                    format!(
                        "could not convert string to float: {}",
                        Value::Str(s.clone()).repr()
                    ),
                )
            })?),
            Value::Tensor(t) => Value::Float(one_element(t)?.as_f64()),
            Value::None if args.positional.is_empty() => Value::Float(0.0),
            other => return Err(conversion_error("float", other)),
        },
        "bool" => Value::Bool(first().truth()?),
        "chr" => match &first() {
            Value::Int(code) => Value::str(
                &u32::try_from(*code)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or_else(|| {
                        PyException::new(ExcType::ValueError, "chr() arg not in range(0x110000)")
                    })?
                    .to_string(),
            ),
            other => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "'{}' object cannot be interpreted as an integer",
                        other.type_name()
                    ),
                ));
            }
        },
        "ord" => match &first() {
            Value::Str(s) if s.chars().count() == 1 => {
                Value::Int(i64::from(u32::from(s.chars().next().unwrap_or_default())))
            }
            Value::Str(s) => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "ord() expected a character, but string of length {} found",
                        s.chars().count()
                    ),
                ));
            }
            other => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "ord() expected string of length 1, but {} found",
                        other.type_name()
                    ),
                ));
            }
        },
        "abs" => match &first() {
            Value::Int(i) => Value::Int(i.abs()),
            Value::Float(x) => Value::Float(x.abs()),
            Value::Tensor(t) => Value::Tensor(t.abs()?),
            other => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!("bad operand type for abs(): '{}'", other.type_name()),
                ));
            }
        },
        "min" | "max" => {
            let items = if args.positional.len() == 1 {
                iterate(&first())?
            } else {
                args.positional.clone()
            };
            let op = if name == "min" {
                ruff_python_ast::CmpOp::Lt
            } else {
                ruff_python_ast::CmpOp::Gt
            };
            let mut best: Option<Value> = None;
            for item in items {
                best = Some(match best {
                    None => item,
                    Some(b) if compare(op, &item, &b)?.truthy() => item,
                    Some(b) => b,
                });
            }
            best.ok_or_else(|| {
                PyException::new(
                    ExcType::ValueError,
                    format!("{name}() arg is an empty sequence"),
                )
            })?
        }
        "sum" => {
            let mut total = args.positional.get(1).cloned().unwrap_or(Value::Int(0));
            for item in iterate(&first())? {
                total =
                    super::operators::binary(ruff_python_ast::Operator::Add, &total, &item, false)?;
            }
            total
        }
        "round" if matches!(first(), Value::NpScalar(_)) && args.positional.len() > 1 => {
            let digits = super::value::as_index(&args.positional[1])?;
            let session = interp.session.clone();
            crate::stdlib::numpy::functions::round(&session, &first(), digits)?
        }
        "round" => {
            let x = as_f64(&first());
            match args.positional.get(1) {
                // Python rounds the exact binary value: 2.675 is 2.67499999…, so 2.67.
                Some(Value::Int(digits)) if (0..=17).contains(digits) => {
                    Value::Float(format!("{x:.*}", *digits as usize).parse().unwrap_or(x))
                }
                Some(Value::Int(digits)) => {
                    let scale = 10f64.powi(*digits as i32);
                    Value::Float(round_half_even(x * scale) / scale)
                }
                _ => Value::Int(round_half_even(x) as i64),
            }
        }
        "list" => Value::list(match args.positional.first() {
            Some(v) => iterate(v)?,
            None => Vec::new(),
        }),
        "tuple" => Value::Tuple(match args.positional.first() {
            Some(v) => iterate(v)?.into(),
            None => Rc::from(Vec::new()),
        }),
        "type" => {
            arity(name, &args, 1, 1)?;
            type_of(&first())
        }
        "isinstance" => {
            arity(name, &args, 2, 2)?;
            let classes = match args.positional.get(1) {
                Some(Value::Tuple(classes)) => classes.to_vec(),
                Some(one) => vec![one.clone()],
                None => Vec::new(),
            };
            let object = first();
            let mut verdict = false;
            for class in &classes {
                verdict |= is_instance(&object, class)?;
            }
            Value::Bool(verdict)
        }
        "dict" => match args.positional.first() {
            None => Value::Dict(Rc::new(std::cell::RefCell::new(
                args.keywords
                    .iter()
                    .map(|(k, v)| (Value::str(k), v.clone()))
                    .collect(),
            ))),
            Some(Value::Dict(entries)) => {
                Value::Dict(Rc::new(std::cell::RefCell::new(entries.borrow().clone())))
            }
            Some(pairs) => {
                let mut entries: Vec<(Value, Value)> = Vec::new();
                for pair in iterate(pairs)? {
                    let [k, v] = <[Value; 2]>::try_from(iterate(&pair)?).map_err(|_| {
                        PyException::new(
                            ExcType::ValueError,
                            "dictionary update sequence element has the wrong length; 2 is required",
                        )
                    })?;
                    match entries
                        .iter_mut()
                        .find(|(key, _)| super::value::equal(key, &k))
                    {
                        Some(entry) => entry.1 = v,
                        None => entries.push((k, v)),
                    }
                }
                Value::Dict(Rc::new(std::cell::RefCell::new(entries)))
            }
        },
        "set" => Value::set(match args.positional.first() {
            Some(v) => iterate(v)?,
            None => Vec::new(),
        })?,
        "any" => Value::Bool(iterate(&first())?.iter().any(Value::truthy)),
        "all" => Value::Bool(iterate(&first())?.iter().all(Value::truthy)),
        "id" => {
            arity(name, &args, 1, 1)?;
            Value::Int(identity(&first()) as i64)
        }
        "callable" => Value::Bool(is_callable(&first())),
        "property" => Value::Wrapped(Rc::new(super::value::Wrapped::Property(first()))),
        "staticmethod" => Value::Wrapped(Rc::new(super::value::Wrapped::StaticMethod(first()))),
        "classmethod" => Value::Wrapped(Rc::new(super::value::Wrapped::ClassMethod(first()))),
        "sorted" => {
            let mut items = iterate(&first())?;
            super::methods::sort_by_value(&mut items, |v| v, reversed(&args))?;
            Value::list(items)
        }
        other => {
            return Err(PyException::new(
                ExcType::NameError,
                format!("name '{other}' is not defined"),
            ));
        }
    })
}

/// `int(t)` / `float(t)`: the value of a one-element tensor.
fn one_element(t: &tolab_engine::Tensor) -> Result<tolab_engine::Scalar, PyException> {
    if t.numel() != 1 {
        return Err(PyException::new(
            ExcType::ValueError,
            "only one element tensors can be converted to Python scalars",
        ));
    }
    Ok(t.item()?)
}

fn conversion_error(target: &str, v: &Value) -> PyException {
    PyException::new(
        ExcType::TypeError,
        format!(
            "{target}() argument must be a string or a real number, not '{}'",
            v.type_name()
        ),
    )
}

/// Python 3's `round`: halves go to the even neighbour.
fn round_half_even(x: f64) -> f64 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
        r - x.signum()
    } else {
        r
    }
}

/// `reverse=True`.
fn reversed(args: &Args) -> bool {
    args.keyword("reverse").is_some_and(Value::truthy)
}

/// `callable(x)`.
pub fn is_callable(v: &Value) -> bool {
    match v {
        Value::Function(_)
        | Value::Builtin(_)
        | Value::ModuleFn(..)
        | Value::Method(..)
        | Value::BoundMethod(..)
        | Value::Class(_)
        | Value::Type(_)
        | Value::NnClass(_)
        | Value::ExcClass(_)
        | Value::NnModule(_)
        | Value::GradMode(_) => true,
        Value::Wrapped(w) => !matches!(&**w, super::value::Wrapped::Property(_)),
        Value::Instance(i) => i.module.is_some() || i.class.lookup("__call__").is_some(),
        _ => false,
    }
}

/// `type(x)`: the object's class.
fn type_of(v: &Value) -> Value {
    match v {
        Value::Instance(i) => Value::Class(i.class.clone()),
        Value::NnModule(m) => match crate::torch::signature::binding("torch.nn", &m.class_name()) {
            Some(binding) => Value::NnClass(binding.name()),
            None => Value::Type(match m.class_name().as_str() {
                "DistributedDataParallel" => {
                    "torch.nn.parallel.distributed.DistributedDataParallel"
                }
                "DataParallel" => "torch.nn.parallel.data_parallel.DataParallel",
                _ => "torch.nn.Module",
            }),
        },
        Value::Parameter(_) => Value::NnClass("Parameter"),
        Value::Exception(e) => Value::ExcClass(e.kind.clone()),
        Value::Tensor(_) => Value::Type("torch.Tensor"),
        Value::NdArray(_) => Value::Type("numpy.ndarray"),
        Value::NpScalar(x) => Value::NpType(x.dtype),
        Value::Device(_) => Value::Type("torch.device"),
        Value::DType(_) => Value::Type("torch.dtype"),
        Value::Size(_) => Value::Type("torch.Size"),
        Value::StructSeq(s) => Value::Type(s.name),
        other => match TYPES.iter().find(|t| **t == other.type_name()) {
            Some(name) => Value::Type(name),
            None => Value::Type(leak_free_name(other)),
        },
    }
}

/// The qualified names of the other types a cell can meet.
fn leak_free_name(v: &Value) -> &'static str {
    match v {
        Value::None => "NoneType",
        Value::Range { .. } => "range",
        Value::Function(_) => "function",
        Value::Module(_) => "module",
        Value::GradFn(_) => "torch.autograd.graph.Node",
        Value::TensorDataset(_) => "torch.utils.data.dataset.TensorDataset",
        Value::DataLoader(_) => "torch.utils.data.dataloader.DataLoader",
        Value::Generator(_) => "torch.Generator",
        _ => "object",
    }
}

/// `isinstance(object, class)`.
fn is_instance(object: &Value, class: &Value) -> Result<bool, PyException> {
    let object = &*object.resolved();
    Ok(match class {
        Value::Type("object") => true,
        Value::Type("int") => matches!(object, Value::Int(_) | Value::Bool(_)),
        // NumPy's float64 derives from Python's float.
        Value::Type("float") => match object {
            Value::Float(_) => true,
            Value::NpScalar(x) => x.dtype == crate::stdlib::numpy::dtype::NpDType::Float64,
            _ => false,
        },
        Value::Type("torch.Tensor") => {
            matches!(object, Value::Tensor(_))
        }
        Value::Type("torch.utils.data.Dataset") => match object {
            Value::TensorDataset(_) => true,
            Value::Instance(i) => i.class.derives_from_builtin("torch.utils.data.Dataset"),
            _ => false,
        },
        Value::Type(name) => match type_of(object) {
            Value::Type(t) => t == *name,
            _ => false,
        },
        Value::Class(c) => match object {
            Value::Instance(i) => i.class.is_or_derives(c),
            _ => false,
        },
        Value::NnClass("Module") => match object {
            Value::NnModule(_) => true,
            Value::Instance(i) => i.module.is_some(),
            _ => false,
        },
        Value::NnClass(name) => match object {
            Value::NnModule(m) => m.class_name() == *name,
            _ => false,
        },
        Value::ExcClass(kind) => match object {
            Value::Exception(e) => e.kind.caught_by(kind),
            _ => false,
        },
        other => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "isinstance() arg 2 must be a type, a tuple of types, or a union, not {}",
                    other.type_name()
                ),
            ));
        }
    })
}

/// `id(x)`: the object's identity (its address for shared objects, its value's for the rest).
fn identity(v: &Value) -> usize {
    fn at<T: ?Sized>(rc: &Rc<T>) -> usize {
        Rc::as_ptr(rc) as *const u8 as usize
    }
    match v {
        Value::List(l) => at(l),
        Value::Dict(d) => at(d),
        Value::Tuple(t) => at(t),
        Value::Str(s) => at(s),
        Value::Function(f) => at(f),
        Value::Class(c) => at(c),
        Value::Instance(i) => at(i),
        Value::Tensor(t) => t.id() as usize,
        Value::Parameter(p) => p.tensor().id() as usize,
        Value::NnModule(m) => m.id(),
        Value::Int(i) => 0x9000 + *i as usize * 32,
        Value::Bool(b) => 0x8000 + usize::from(*b) * 32,
        Value::None => 0x7000,
        other => std::ptr::from_ref(other) as usize,
    }
}

/// The learner objects with a `__repr__` of their own in `v` and the containers inside it (each
/// once, cycles and all; no deeper than `repr` goes).
fn learner_objects(v: &Value) -> Vec<Value> {
    let mut seen = std::collections::HashSet::new();
    found_in(v, |v| match v {
        Value::Instance(i) => Some(i.class.lookup("__repr__").is_some() && seen.insert(address(i))),
        _ => None,
    })
}

/// The tensors in `v` and the containers inside it, parameters included: what printing `v`
/// reads.
pub(crate) fn tensors_in(v: &Value) -> Vec<tolab_engine::Tensor> {
    found_in(v, |v| match v {
        Value::Tensor(_) | Value::Parameter(_) => Some(true),
        _ => None,
    })
    .into_iter()
    .filter_map(|v| match &v {
        Value::Tensor(t) => Some(t.clone()),
        Value::Parameter(p) => Some(p.tensor()),
        _ => None,
    })
    .collect()
}

/// The values in `v` and the containers inside it (each container once, cycles and all; no
/// deeper than `repr` goes) that `pick` decides on: `Some(true)` takes one, `Some(false)` passes
/// it by, and `None` looks inside it when it is a container.
fn found_in(v: &Value, mut pick: impl FnMut(&Value) -> Option<bool>) -> Vec<Value> {
    let mut found = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut todo = vec![(v.clone(), 0)];
    while let Some((v, depth)) = todo.pop() {
        if let Some(take) = pick(&v) {
            if take {
                found.push(v);
            }
            continue;
        }
        let inside: Vec<Value> = match &v {
            Value::List(items) if seen.insert(address(items)) => items.borrow().clone(),
            Value::Set(items) if seen.insert(address(items)) => items.borrow().clone(),
            Value::Tuple(items) if seen.insert(address(items)) => items.to_vec(),
            Value::Dict(entries) if seen.insert(address(entries)) => entries
                .borrow()
                .iter()
                .flat_map(|(k, v)| [k.clone(), v.clone()])
                .collect(),
            Value::StructSeq(s) => s.items(),
            _ => continue,
        };
        if depth < MAX_REPR_DEPTH {
            // Reversed onto the stack, so that they are met in order.
            todo.extend(inside.into_iter().rev().map(|item| (item, depth + 1)));
        }
    }
    found
}
