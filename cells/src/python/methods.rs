//! `obj.name` and `obj.method(...)` on the language's own objects and the engine's small ones:
//! the methods of `str`, `list`, `dict` and `set`, a device's `type` and `index`, a dtype's
//! facts, an autograd node's `next_functions`, `os.environ`, an optimizer's param group (a live
//! dict), and the fields of the named tuples torch returns.

use std::cell::RefCell;
use std::rc::Rc;

use super::args::Args;
use super::exception::{ExcType, PyException};
use super::operators::compare;
use super::value::{Value, as_f64, equal};

type Result<T> = std::result::Result<T, PyException>;

/// PyTorch's and Python's "no attribute" error for `owner.name`.
pub fn no_attribute(owner: &Value, name: &str) -> PyException {
    let owner = match owner {
        Value::Module(m) => return super::modules::no_attribute(m, name),
        other => format!("'{}' object", other.type_name()),
    };
    PyException::new(
        ExcType::AttributeError,
        format!("{owner} has no attribute '{name}'"),
    )
}

const TUPLE_METHODS: &[&str] = &["count", "index"];

pub(crate) const LIST_METHODS: &[&str] = &[
    "append", "extend", "pop", "insert", "index", "count", "remove", "reverse", "sort", "copy",
    "clear",
];
pub(crate) const DICT_METHODS: &[&str] = &[
    "items",
    "keys",
    "values",
    "get",
    "pop",
    "update",
    "setdefault",
    "copy",
    "clear",
];
pub(crate) const INT_METHODS: &[&str] = &[
    "bit_length",
    "bit_count",
    "conjugate",
    "as_integer_ratio",
    "to_bytes",
];
pub(crate) const FLOAT_METHODS: &[&str] = &["is_integer", "conjugate", "as_integer_ratio", "hex"];
pub(crate) const SET_METHODS: &[&str] = &[
    "add",
    "discard",
    "remove",
    "update",
    "union",
    "intersection",
    "difference",
    "issubset",
    "copy",
    "clear",
    "pop",
];

/// `owner.name` for everything but learners' objects and modules (see
/// [`super::interpreter::Interpreter::get_attribute`]): torch's objects through their bindings,
/// the language's own through their method tables.
pub fn get(owner: &Value, name: &str) -> Result<Value> {
    let resolved = owner.resolved();
    let method = || {
        Ok(Value::Method(
            Box::new(resolved.clone().into_owned()),
            Rc::from(name),
        ))
    };
    let torch_method = |namespace: &str| {
        crate::torch::bound(namespace, name, Some(owner)).ok_or_else(|| {
            crate::torch::no_attribute(namespace, &format!("'{}' object", owner.type_name()), name)
        })
    };
    match &*resolved {
        Value::Module(m) => {
            super::modules::attribute(m, name).ok_or_else(|| super::modules::no_attribute(m, name))
        }
        Value::Tensor(t) => crate::torch::tensor::attribute(t, owner, name),
        Value::NdArray(a) => crate::stdlib::numpy::methods::attribute(a, name),
        Value::NpScalar(x) => crate::stdlib::numpy::methods::scalar_attribute(x, name),
        Value::NpDType(d) => crate::stdlib::numpy::methods::dtype_attribute(*d, name),
        Value::NpType(d) if name == "__name__" => Ok(Value::str(d.name())),
        Value::Iterator(it)
            if matches!(&*it.borrow(), super::iteration::Iter::Generator(g)
                if g.kind().methods().contains(&name)) =>
        {
            method()
        }
        Value::Coroutine(g) if g.kind().methods().contains(&name) => method(),
        Value::Exception(e) => match name {
            "args" => Ok(Value::Tuple(e.args().into())),
            "errno" | "strerror" | "filename" if let Some(field) = e.os_error_field(name) => {
                Ok(field)
            }
            "__cause__" | "__context__" | "__suppress_context__" => {
                Ok(e.chain_field(name).unwrap_or(Value::None))
            }
            "value" if e.kind == ExcType::StopIteration => {
                Ok(e.args().into_iter().next().unwrap_or(Value::None))
            }
            // `SystemExit.code`: no argument is None, one is itself, more are the tuple.
            "code" if e.kind.name() == "SystemExit" => Ok(match e.args().as_slice() {
                [] => Value::None,
                [code] => code.clone(),
                all => Value::Tuple(all.into()),
            }),
            _ => Err(no_attribute(owner, name)),
        },
        Value::Device(d) => match name {
            "type" => Ok(Value::str(d.kind.name())),
            "index" => Ok(d.index.map_or(Value::None, |i| Value::Int(i64::from(i)))),
            _ => Err(no_attribute(owner, name)),
        },
        Value::TensorType(t) => t.attribute(name).ok_or_else(|| no_attribute(owner, name)),
        Value::FInfo(info) => match name {
            "bits" => Ok(Value::Int(i64::from(info.bits))),
            "eps" => Ok(Value::Float(info.eps)),
            "max" => Ok(Value::Float(info.max)),
            "min" => Ok(Value::Float(-info.max)),
            "tiny" | "smallest_normal" => Ok(Value::Float(info.tiny)),
            "resolution" => Ok(Value::Float(info.resolution)),
            "dtype" => Ok(Value::str(info.dtype.name())),
            _ => Err(no_attribute(owner, name)),
        },
        Value::IInfo(info) => match name {
            "bits" => Ok(Value::Int(i64::from(info.bits))),
            "min" => Ok(Value::Int(info.min)),
            "max" => Ok(Value::Int(info.max)),
            "dtype" => Ok(Value::str(info.dtype.name())),
            _ => Err(no_attribute(owner, name)),
        },
        Value::DType(d) => match name {
            "is_floating_point" => Ok(Value::Bool(d.is_floating_point())),
            "is_signed" => Ok(Value::Bool(d.is_signed())),
            "is_complex" => Ok(Value::Bool(false)),
            "itemsize" => Ok(Value::Int(d.size() as i64)),
            _ => Err(no_attribute(owner, name)),
        },
        Value::HookHandle(_) if name == "remove" => method(),
        Value::FunctionCtx(ctx) => crate::torch::function::ctx_attribute(ctx, owner, name),
        Value::GradFn(g) => match name {
            "next_functions" => Ok(Value::Tuple(
                g.next_functions()
                    .iter()
                    .map(|n| {
                        Value::Tuple(Rc::from(vec![
                            n.clone().map_or(Value::None, Value::GradFn),
                            Value::Int(0),
                        ]))
                    })
                    .collect(),
            )),
            "name" => method(),
            // An `AccumulateGrad` node's leaf.
            "variable" if g.name() == "AccumulateGrad" => {
                Ok(g.variable().map_or(Value::None, Value::Tensor))
            }
            _ => Err(no_attribute(owner, name)),
        },
        Value::Int(_) | Value::BigInt(_) | Value::Bool(_) => match name {
            "real" | "numerator" => Ok(super::int::normalized(
                super::int::as_big(&resolved).unwrap_or_default(),
            )),
            "imag" => Ok(Value::Int(0)),
            "denominator" => Ok(Value::Int(1)),
            _ if INT_METHODS.contains(&name) => method(),
            _ => Err(no_attribute(owner, name)),
        },
        Value::Float(x) => match name {
            "real" => Ok(Value::Float(*x)),
            "imag" => Ok(Value::Float(0.0)),
            _ if FLOAT_METHODS.contains(&name) => method(),
            _ => Err(no_attribute(owner, name)),
        },
        Value::Complex(re, im) => match super::complex::attribute(*re, *im, name) {
            Some(part) => Ok(part),
            None if super::complex::METHODS.contains(&name) => method(),
            None => Err(no_attribute(owner, name)),
        },
        Value::List(_) if LIST_METHODS.contains(&name) => method(),
        Value::Tuple(_) if TUPLE_METHODS.contains(&name) => method(),
        Value::Size(_) if TUPLE_METHODS.contains(&name) || name == "numel" => method(),
        Value::Dict(_) if DICT_METHODS.contains(&name) => method(),
        Value::Set(_) if SET_METHODS.contains(&name) => method(),
        Value::Str(_) if super::strings::METHODS.contains(&name) => method(),
        Value::Bytes(_) if super::bytes::METHODS.contains(&name) => method(),
        Value::Type("bytes") if name == "fromhex" => method(),
        Value::Type("int") if name == "from_bytes" => method(),
        // `nn.Module.__repr__(model)`, `torch.Tensor.add(t, 1)`: a method of a built-in class,
        // called with its object first.
        Value::NnClass(_) | Value::Type("torch.Tensor")
            if name != "__name__" && name != "__mro__" =>
        {
            method()
        }
        Value::Environ(_) if DICT_METHODS.contains(&name) => method(),
        Value::Generator(_) if name == "device" => Ok(Value::Device(tolab_engine::Device::CPU)),
        Value::Generator(_) => torch_method("torch.Generator"),
        Value::GradScaler(_) => torch_method("torch.amp.GradScaler"),
        Value::CudaEvent(_) => torch_method("torch.cuda.Event"),
        Value::DeviceProperties(p) => match name {
            "name" => Ok(Value::str(&p.name)),
            "uuid" => Ok(Value::str(&p.uuid())),
            _ => p
                .integer(name)
                .map(Value::Int)
                .ok_or_else(|| no_attribute(owner, name)),
        },
        Value::Optimizer(optimizer) => crate::torch::optim::attribute(optimizer, owner, name)
            .ok_or_else(|| no_attribute(owner, name)),
        Value::Sampler(sampler) => match name {
            "num_replicas" => Ok(Value::Int(sampler.engine.num_replicas as i64)),
            "rank" => Ok(Value::Int(sampler.engine.rank as i64)),
            "shuffle" => Ok(Value::Bool(sampler.engine.shuffle)),
            "seed" => Ok(Value::Int(sampler.engine.seed as i64)),
            "drop_last" => Ok(Value::Bool(sampler.engine.drop_last)),
            "num_samples" => Ok(Value::Int(sampler.len() as i64)),
            _ => torch_method("torch.utils.data.DistributedSampler"),
        },
        Value::ParamGroup(..) if DICT_METHODS.contains(&name) => method(),
        Value::StructSeq(s) => s.field(name).ok_or_else(|| no_attribute(owner, name)),
        Value::IncompatibleKeys(keys) => {
            let strings =
                |keys: &[String]| Value::list(keys.iter().map(|k| Value::str(k)).collect());
            match name {
                "missing_keys" => Ok(strings(&keys.missing_keys)),
                "unexpected_keys" => Ok(strings(&keys.unexpected_keys)),
                _ => Err(no_attribute(owner, name)),
            }
        }
        Value::DataLoader(loader) => match name {
            "dataset" => Ok(loader.dataset.clone()),
            _ => Err(no_attribute(owner, name)),
        },
        Value::Warning(message) => match name {
            "message" => Ok(Value::str(message)),
            "category" => Ok(Value::Type("UserWarning")),
            _ => Err(no_attribute(owner, name)),
        },
        Value::Type("object") if name == "__setattr__" => Ok(Value::Builtin("__object_setattr__")),
        Value::Type("str") if name == "maketrans" => Ok(Value::Builtin("__str_maketrans__")),
        // `str.lower` unbound: `sorted(words, key=str.lower)`, `map(str.strip, lines)`.
        Value::Type("str") if super::strings::METHODS.contains(&name) => method(),
        Value::Wrapped(w)
            if matches!(&**w, super::value::Wrapped::Property(..))
                && matches!(name, "setter" | "getter") =>
        {
            method()
        }
        Value::Type(type_name) | Value::NnClass(type_name) if name == "__name__" => Ok(Value::str(
            type_name.rsplit('.').next().unwrap_or(type_name),
        )),
        // A built-in type's method resolution order (`bool` derives from `int`).
        Value::Type(t) if name == "__mro__" => Ok(Value::Tuple(
            match *t {
                "object" => vec![Value::Type("object")],
                "bool" => vec![
                    Value::Type("bool"),
                    Value::Type("int"),
                    Value::Type("object"),
                ],
                t => vec![Value::Type(t), Value::Type("object")],
            }
            .into(),
        )),
        Value::TorchFn(b) if name == "__name__" => Ok(Value::str(b.name())),
        Value::Class(class) if name == "__name__" => Ok(Value::str(&class.name)),
        Value::ExcClass(kind) if name == "__name__" => Ok(Value::str(
            kind.name().rsplit('.').next().unwrap_or(kind.name()),
        )),
        _ => Err(no_attribute(owner, name)),
    }
}

pub fn call_method(owner: &Value, name: &str, args: Args) -> Result<Value> {
    let owner = &*owner.resolved();
    let arg = |i: usize| args.positional.get(i).cloned().unwrap_or(Value::None);
    match owner {
        // `name()` gives the C++ class's qualified name for the nodes written by hand.
        Value::GradFn(g) if name == "name" => Ok(Value::str(&g.qualified_name())),
        Value::FunctionCtx(ctx) => crate::torch::function::ctx_method(ctx, name, &args),
        Value::HookHandle(h) if name == "remove" => {
            h.remove();
            Ok(Value::None)
        }
        Value::Tensor(_) if let Some(method) = super::dunders::operator_method(name) => {
            super::dunders::call_operator_method(owner, method, &args.positional)
        }
        Value::NdArray(a) => crate::stdlib::numpy::methods::call(a, name, &args),
        Value::NpScalar(x) => crate::stdlib::numpy::methods::call_scalar(x, name, &args),
        Value::List(items) => list_method(items, name, &args),
        Value::Tuple(items) => tuple_method(items, name, &args),
        Value::Size(dims) if name == "numel" => Ok(crate::torch::size::numel(dims)),
        Value::Size(_) => tuple_method(&super::operators::iterate(owner)?, name, &args),
        Value::Dict(entries) => dict_method(entries, name, &args),
        Value::Set(items) => set_method(items, name, &args),
        Value::ParamGroup(optimizer, group) => {
            let key = arg(0);
            match name {
                "get" => super::operators::get_item(owner, &key).or_else(|_| Ok(arg(1))),
                "keys" => Ok(Value::list(
                    std::iter::once(Value::str("params"))
                        .chain(
                            optimizer.param_groups()[*group]
                                .options
                                .entries()
                                .iter()
                                .map(|(k, _)| Value::str(k)),
                        )
                        .collect(),
                )),
                _ => Err(PyException::unsupported(&format!("param_group.{name}()"))),
            }
        }
        Value::Environ(session) => {
            let key = arg(0).str_text();
            Ok(match name {
                "get" => session.env(&key).map_or_else(|| arg(1), |v| Value::str(&v)),
                "pop" => {
                    let old = session.env(&key);
                    session.set_env(&key, None);
                    old.map_or_else(|| arg(1), |v| Value::str(&v))
                }
                "setdefault" => match session.env(&key) {
                    Some(v) => Value::str(&v),
                    None => {
                        session.set_env(&key, Some(&arg(1).str_text()));
                        arg(1)
                    }
                },
                "keys" => Value::list(session.env_keys().iter().map(|k| Value::str(k)).collect()),
                _ => return Err(no_attribute(owner, name)),
            })
        }
        Value::Str(s) => super::strings::call(s, name, &args),
        Value::Bytes(b) => super::bytes::call(b, name, &args),
        Value::Type("int") => super::int::from_bytes(&args),
        Value::Type("bytes") => match args.positional.first() {
            Some(Value::Str(text)) => super::bytes::fromhex(text),
            other => Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "fromhex() argument must be str, not {}",
                    other.map_or_else(|| "NoneType".to_owned(), Value::type_name)
                ),
            )),
        },
        Value::Type("str") => match args.positional.split_first() {
            Some((Value::Str(s), rest)) => {
                let rest = Args {
                    positional: rest.to_vec(),
                    keywords: args.keywords.clone(),
                };
                super::strings::call(s, name, &rest)
            }
            other => Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "descriptor '{name}' for 'str' objects doesn't apply to a '{}' object",
                    other.map_or_else(|| "NoneType".to_owned(), |(v, _)| v.type_name())
                ),
            )),
        },
        Value::Int(_) | Value::BigInt(_) | Value::Bool(_) => {
            let n = super::int::as_big(owner).unwrap_or_default();
            Ok(match name {
                "bit_length" => Value::Int(n.bits() as i64),
                "bit_count" => Value::Int(n.magnitude().count_ones() as i64),
                "conjugate" => super::int::normalized(n),
                "to_bytes" => super::int::to_bytes(&n, &args)?,
                "as_integer_ratio" => {
                    Value::Tuple(Rc::from(vec![super::int::normalized(n), Value::Int(1)]))
                }
                _ => return Err(no_attribute(owner, name)),
            })
        }
        Value::Float(x) => Ok(match name {
            "is_integer" => Value::Bool(x.is_finite() && x.fract() == 0.0),
            "conjugate" => Value::Float(*x),
            "as_integer_ratio" => super::int::float_ratio(*x)?,
            "hex" => Value::str(&float_hex(*x)),
            _ => return Err(no_attribute(owner, name)),
        }),
        Value::Complex(re, im) if name == "conjugate" => Ok(Value::Complex(*re, -im)),
        other => Err(no_attribute(other, name)),
    }
}

/// `x.hex()`: the exact binary value, `0x1.<13 hex digits>p<exponent>` (subnormals `0x0.…p-1022`).
fn float_hex(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    let sign = if x.is_sign_negative() { "-" } else { "" };
    if x == 0.0 {
        return format!("{sign}0x0.0p+0");
    }
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i64;
    let mantissa = bits & ((1 << 52) - 1);
    let (lead, exponent) = match exponent {
        0 => (0, -1022),
        e => (1, e - 1023),
    };
    format!("{sign}0x{lead}.{mantissa:013x}p{exponent:+}")
}

/// `tuple.count(x)` and `tuple.index(x, start=0, stop=len)`.
fn tuple_method(items: &[Value], name: &str, args: &Args) -> Result<Value> {
    let needle = args.positional.first().cloned().unwrap_or(Value::None);
    if name == "count" {
        let n = items.iter().filter(|v| equal(v, &needle)).count();
        return Ok(Value::Int(n as i64));
    }
    let bound = |i: usize, default: usize| -> Result<usize> {
        match args.positional.get(i) {
            None => Ok(default),
            Some(Value::Int(at)) => {
                let len = items.len() as i64;
                let at = if *at < 0 { at + len } else { *at };
                Ok(at.clamp(0, len) as usize)
            }
            Some(other) => Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "slice indices must be integers or have an __index__ method, not {}",
                    other.type_name()
                ),
            )),
        }
    };
    let (start, stop) = (bound(1, 0)?, bound(2, items.len())?);
    (start..stop.max(start))
        .find(|&i| equal(&items[i], &needle))
        .map(|i| Value::Int(i as i64))
        .ok_or_else(|| PyException::new(ExcType::ValueError, "tuple.index(x): x not in tuple"))
}

fn list_method(items: &RefCell<Vec<Value>>, name: &str, args: &Args) -> Result<Value> {
    let arg = |i: usize| args.positional.get(i).cloned().unwrap_or(Value::None);
    let position = |items: &[Value], needle: &Value| {
        items.iter().position(|v| equal(v, needle)).ok_or_else(|| {
            PyException::new(
                ExcType::ValueError,
                format!("{} is not in list", needle.repr()),
            )
        })
    };
    let mut list = items.borrow_mut();
    Ok(match name {
        "append" => {
            list.push(arg(0));
            Value::None
        }
        "extend" => {
            let more = super::operators::iterate(&arg(0))?;
            list.extend(more);
            Value::None
        }
        "insert" => {
            let n = list.len() as i64;
            let at = (as_f64(&arg(0)) as i64).clamp(-n, n);
            let at = if at < 0 { at + n } else { at } as usize;
            list.insert(at, arg(1));
            Value::None
        }
        "pop" => {
            if list.is_empty() {
                return Err(PyException::new(ExcType::IndexError, "pop from empty list"));
            }
            let n = list.len() as i64;
            let at = match args.positional.first() {
                Some(v) => as_f64(v) as i64,
                None => -1,
            };
            let at = if at < 0 { at + n } else { at };
            if !(0..n).contains(&at) {
                return Err(PyException::new(
                    ExcType::IndexError,
                    "pop index out of range",
                ));
            }
            list.remove(at as usize)
        }
        "index" => Value::Int(position(&list, &arg(0))? as i64),
        "count" => Value::Int(list.iter().filter(|v| equal(v, &arg(0))).count() as i64),
        "remove" => {
            let at = position(&list, &arg(0))?;
            list.remove(at);
            Value::None
        }
        "reverse" => {
            list.reverse();
            Value::None
        }
        "clear" => {
            list.clear();
            Value::None
        }
        "copy" => Value::list(list.clone()),
        _ => {
            let reverse = args.keyword("reverse").is_some_and(Value::truthy);
            sort_by_value(&mut list, |v| v, reverse)?;
            Value::None
        }
    })
}

/// Python's stable sort by a value of each item; `reverse` keeps equal items in their order, as
/// Python's does.
pub fn sort_by_value<T>(items: &mut [T], key: impl Fn(&T) -> &Value, reverse: bool) -> Result<()> {
    let mut failure = None;
    items.sort_by(|a, b| {
        let (x, y) = if reverse {
            (key(b), key(a))
        } else {
            (key(a), key(b))
        };
        order(x, y, &mut failure)
    });
    failure.map_or(Ok(()), Err)
}

/// Python's `<` as an ordering for sorting; the first failed comparison is kept.
pub fn order(a: &Value, b: &Value, failure: &mut Option<PyException>) -> std::cmp::Ordering {
    use ruff_python_ast::CmpOp;
    match compare(CmpOp::Lt, a, b) {
        Ok(v) if v.truthy() => std::cmp::Ordering::Less,
        Ok(_) => match compare(CmpOp::Gt, a, b) {
            Ok(v) if v.truthy() => std::cmp::Ordering::Greater,
            _ => std::cmp::Ordering::Equal,
        },
        Err(e) => {
            failure.get_or_insert(e);
            std::cmp::Ordering::Equal
        }
    }
}

fn dict_method(entries: &RefCell<Vec<(Value, Value)>>, name: &str, args: &Args) -> Result<Value> {
    let arg = |i: usize| args.positional.get(i).cloned().unwrap_or(Value::None);
    let key = arg(0);
    let mut dict = entries.borrow_mut();
    let at = dict.iter().position(|(k, _)| equal(k, &key));
    Ok(match name {
        "keys" => Value::list(dict.iter().map(|(k, _)| k.clone()).collect()),
        "values" => Value::list(dict.iter().map(|(_, v)| v.clone()).collect()),
        "items" => Value::list(
            dict.iter()
                .map(|(k, v)| Value::Tuple(Rc::from(vec![k.clone(), v.clone()])))
                .collect(),
        ),
        "get" => at.map_or_else(|| arg(1), |i| dict[i].1.clone()),
        "pop" => match (at, args.positional.get(1)) {
            (Some(i), _) => dict.remove(i).1,
            (None, Some(default)) => default.clone(),
            (None, None) => return Err(PyException::new(ExcType::KeyError, key.repr())),
        },
        "setdefault" => match at {
            Some(i) => dict[i].1.clone(),
            None => {
                dict.push((key, arg(1)));
                arg(1)
            }
        },
        "update" => {
            let pairs: Vec<(Value, Value)> = match &key {
                Value::Dict(other) if !std::ptr::eq(&**other, entries) => other.borrow().clone(),
                Value::Dict(_) => Vec::new(),
                _ => args
                    .keywords
                    .iter()
                    .map(|(k, v)| (Value::str(k), v.clone()))
                    .collect(),
            };
            for (k, v) in pairs {
                super::value::insert_entry(&mut dict, k, v);
            }
            Value::None
        }
        "clear" => {
            dict.clear();
            Value::None
        }
        _ => Value::Dict(Rc::new(RefCell::new(dict.clone()))),
    })
}

fn set_method(items: &RefCell<Vec<Value>>, name: &str, args: &Args) -> Result<Value> {
    let arg = |i: usize| args.positional.get(i).cloned().unwrap_or(Value::None);
    let others = || {
        args.positional
            .iter()
            .map(super::operators::iterate)
            .collect::<Result<Vec<_>>>()
    };
    let mut set = items.borrow_mut();
    let position = |set: &[Value], v: &Value| set.iter().position(|w| equal(w, v));
    Ok(match name {
        "add" => {
            let item = arg(0);
            super::value::check_hashable(&item)?;
            if position(&set, &item).is_none() {
                set.push(item);
            }
            Value::None
        }
        "discard" | "remove" => {
            match position(&set, &arg(0)) {
                Some(at) => {
                    set.remove(at);
                }
                None if name == "remove" => {
                    return Err(PyException::new(ExcType::KeyError, arg(0).repr()));
                }
                None => {}
            }
            Value::None
        }
        "update" => {
            let mut merged = set.clone();
            merged.extend(others()?.into_iter().flatten());
            let Value::Set(unique) = &Value::set(merged)? else {
                return Ok(Value::None);
            };
            *set = unique.take();
            Value::None
        }
        "union" => Value::set(
            set.iter()
                .cloned()
                .chain(others()?.into_iter().flatten())
                .collect(),
        )?,
        "intersection" | "difference" => {
            let others = others()?;
            let keep = |v: &&Value| {
                let everywhere = others.iter().all(|o| o.iter().any(|w| equal(v, w)));
                let anywhere = others.iter().any(|o| o.iter().any(|w| equal(v, w)));
                if name == "intersection" {
                    everywhere
                } else {
                    !anywhere
                }
            };
            Value::set(set.iter().filter(keep).cloned().collect())?
        }
        "issubset" => {
            let other = super::operators::iterate(&arg(0))?;
            Value::Bool(set.iter().all(|v| other.iter().any(|w| equal(v, w))))
        }
        "clear" => {
            set.clear();
            Value::None
        }
        "pop" => {
            if set.is_empty() {
                return Err(PyException::new(
                    ExcType::KeyError,
                    "'pop from an empty set'",
                ));
            }
            // The first item in CPython's order, as its `set.pop` takes.
            let first = super::hashing::set_order(&set).map_or(0, |order| order[0]);
            set.remove(first)
        }
        _ => Value::Set(Rc::new(RefCell::new(set.clone()))),
    })
}
