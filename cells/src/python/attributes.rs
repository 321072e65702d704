//! `obj.name` and `obj.method(...)` on the engine's objects: a tensor's properties (`shape`,
//! `dtype`, `device`, `grad`, `grad_fn`, `is_leaf`, …) and methods (`to`, `cuda`, `item`,
//! `backward`, arithmetic, reductions, views), a device's `type`/`index`, and module attributes.

use std::cell::RefCell;
use std::rc::Rc;

use tolab_engine::autograd::graph_break;
use tolab_engine::trace::BreakCause;
use tolab_engine::{DType, Scalar, Target, Tensor, To};

use super::args::Args;
use super::exception::{ExcType, PyException};
use super::modules::{self, device_of, dtype_of, size_of};
use super::operators::{compare, scalar};
use super::value::{StructSeq, Value, as_f64, equal};

type Result<T> = std::result::Result<T, PyException>;

fn no_attribute(owner: &Value, name: &str) -> PyException {
    let owner = match owner {
        Value::Module(m) => format!("module '{m}'"),
        other => format!("'{}' object", other.type_name()),
    };
    PyException::new(
        ExcType::AttributeError,
        format!("{owner} has no attribute '{name}'"),
    )
}

pub(super) const TENSOR_METHODS: &[&str] = &[
    "to",
    "cuda",
    "cpu",
    "item",
    "tolist",
    "size",
    "dim",
    "numel",
    "sum",
    "mean",
    "std",
    "var",
    "flatten",
    "numpy",
    "any",
    "all",
    "get_device",
    "prod",
    "masked_fill",
    "gather",
    "index_select",
    "new_zeros",
    "new_ones",
    "new_full",
    "new_empty",
    "new_tensor",
    "max",
    "maximum",
    "minimum",
    "min",
    "argmax",
    "backward",
    "detach",
    "clone",
    "requires_grad_",
    "retain_grad",
    "view",
    "reshape",
    "float",
    "double",
    "half",
    "long",
    "int",
    "bool",
    "add",
    "sub",
    "mul",
    "div",
    "matmul",
    "mm",
    "relu",
    "exp",
    "log",
    "sqrt",
    "abs",
    "sigmoid",
    "tanh",
    "pow",
    "t",
    "zero_",
    "fill_",
    "add_",
    "mul_",
    "sub_",
    "div_",
    "copy_",
    "is_contiguous",
    "contiguous",
    "unsqueeze",
    "squeeze",
    "transpose",
    "permute",
    "expand",
    "softmax",
    "log_softmax",
    "is_pinned",
    "pin_memory",
    "data_ptr",
    "element_size",
    "type",
    "stride",
    "storage_offset",
    "neg",
    "clamp",
];

pub(super) const LIST_METHODS: &[&str] = &[
    "append", "extend", "pop", "insert", "index", "count", "remove", "reverse", "sort", "copy",
    "clear",
];
pub(super) const DICT_METHODS: &[&str] = &[
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
pub(super) const SET_METHODS: &[&str] = &[
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
pub(super) const STR_METHODS: &[&str] = &[
    "upper",
    "lower",
    "strip",
    "lstrip",
    "rstrip",
    "split",
    "splitlines",
    "join",
    "replace",
    "startswith",
    "endswith",
    "format",
    "title",
    "center",
    "ljust",
    "rjust",
];

/// Whether `tensor.name(...)` is a method the lab binds (so `torch.name(tensor, ...)` is too).
pub fn is_tensor_method(name: &str) -> bool {
    TENSOR_METHODS.contains(&name)
}

pub fn get(owner: &Value, name: &str) -> Result<Value> {
    let owner = &*owner.resolved();
    let method = || Ok(Value::Method(Box::new(owner.clone()), Rc::from(name)));
    match owner {
        Value::Module(m) => modules::attribute(m, name).ok_or_else(|| no_attribute(owner, name)),
        Value::Tensor(t) => tensor_property(t, name).transpose().unwrap_or_else(|| {
            if TENSOR_METHODS.contains(&name) {
                Ok(Value::Method(Box::new(owner.clone()), Rc::from(name)))
            } else {
                Err(no_attribute(owner, name))
            }
        }),
        Value::Device(d) => match name {
            "type" => Ok(Value::str(d.kind.name())),
            "index" => Ok(d.index.map_or(Value::None, |i| Value::Int(i64::from(i)))),
            _ => Err(no_attribute(owner, name)),
        },
        Value::DType(d) => match name {
            "is_floating_point" => Ok(Value::Bool(d.is_floating_point())),
            "itemsize" => Ok(Value::Int(d.size() as i64)),
            _ => Err(no_attribute(owner, name)),
        },
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
            "name" => Ok(Value::Method(Box::new(owner.clone()), Rc::from("name"))),
            _ => Err(no_attribute(owner, name)),
        },
        Value::List(_) if LIST_METHODS.contains(&name) => method(),
        Value::Dict(_) if DICT_METHODS.contains(&name) => method(),
        Value::Set(_) if SET_METHODS.contains(&name) => method(),
        Value::Str(_) if STR_METHODS.contains(&name) => method(),
        Value::Environ(_) if DICT_METHODS.contains(&name) => method(),
        Value::Generator(_) if matches!(name, "manual_seed" | "initial_seed") => method(),
        Value::GradScaler(_)
            if matches!(
                name,
                "scale" | "step" | "update" | "unscale_" | "get_scale" | "is_enabled"
            ) =>
        {
            method()
        }
        Value::Optimizer(optimizer) if name == "state" => {
            // Keyed by the parameters themselves, as PyTorch's is; the tensors are the live ones.
            let dict = |entries| Value::Dict(Rc::new(RefCell::new(entries)));
            let state = optimizer
                .param_groups()
                .iter()
                .flat_map(|g| g.params.clone())
                .filter_map(|p| {
                    let entries = optimizer.state_of(&p)?;
                    let entries = entries
                        .into_iter()
                        .map(|(k, t)| (Value::str(&k), Value::Tensor(t)))
                        .collect();
                    Some((Value::Parameter(p), dict(entries)))
                })
                .collect();
            Ok(dict(state))
        }
        Value::CudaEvent(_)
            if matches!(
                name,
                "record" | "synchronize" | "query" | "wait" | "elapsed_time"
            ) =>
        {
            method()
        }
        Value::Sampler(sampler) => match name {
            "set_epoch" => method(),
            "num_replicas" => Ok(Value::Int(sampler.engine.num_replicas as i64)),
            "rank" => Ok(Value::Int(sampler.engine.rank as i64)),
            "shuffle" => Ok(Value::Bool(sampler.engine.shuffle)),
            "seed" => Ok(Value::Int(sampler.engine.seed as i64)),
            "drop_last" => Ok(Value::Bool(sampler.engine.drop_last)),
            "num_samples" => Ok(Value::Int(sampler.len() as i64)),
            _ => Err(no_attribute(owner, name)),
        },
        Value::Optimizer(optimizer) if name == "param_groups" => Ok(Value::list(
            (0..optimizer.param_groups().len())
                .map(|i| Value::ParamGroup(optimizer.clone(), i))
                .collect(),
        )),
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
        Value::Type(type_name) | Value::NnClass(type_name) if name == "__name__" => Ok(Value::str(
            type_name.rsplit('.').next().unwrap_or(type_name),
        )),
        Value::Class(class) if name == "__name__" => Ok(Value::str(&class.name)),
        Value::ExcClass(kind) if name == "__name__" => Ok(Value::str(
            kind.name().rsplit('.').next().unwrap_or(kind.name()),
        )),
        _ => Err(no_attribute(owner, name)),
    }
}

/// The properties [`tensor_property`] answers (completion lists them; reading one may compute).
pub(super) const TENSOR_PROPERTIES: &[&str] = &[
    "shape",
    "dtype",
    "device",
    "requires_grad",
    "is_leaf",
    "grad",
    "grad_fn",
    "data",
    "is_cuda",
    "ndim",
    "itemsize",
    "nbytes",
    "T",
    "_version",
];

fn tensor_property(t: &Tensor, name: &str) -> Result<Option<Value>> {
    Ok(Some(match name {
        "shape" => Value::Size(t.shape().into()),
        "dtype" => Value::DType(t.dtype()),
        "device" => Value::Device(t.device()),
        "requires_grad" => Value::Bool(t.requires_grad()),
        "is_leaf" => Value::Bool(t.is_leaf()),
        "grad" => t.grad().map_or(Value::None, Value::Tensor),
        "grad_fn" => t.grad_fn().map_or(Value::None, Value::GradFn),
        "data" => {
            graph_break(t, BreakCause::Data);
            Value::Tensor(t.data())
        }
        "is_cuda" => Value::Bool(t.device().kind == tolab_engine::DeviceType::Cuda),
        "ndim" => Value::Int(t.dim() as i64),
        "itemsize" => Value::Int(t.element_size() as i64),
        "nbytes" => Value::Int((t.element_size() * t.numel()) as i64),
        "T" => Value::Tensor(t.t()?),
        "_version" => Value::Int(t.version() as i64),
        _ => return Ok(None),
    }))
}

fn tensor(v: &Value, what: &str) -> Result<Tensor> {
    match v {
        Value::Tensor(t) => Ok(t.clone()),
        other => Err(PyException::new(
            ExcType::TypeError,
            format!("{what}: expected a Tensor, got {}", other.type_name()),
        )),
    }
}

/// `tensor.tolist()`: nested lists of Python numbers.
fn tolist(values: &[Scalar], shape: &[usize]) -> Value {
    let number = |s: &Scalar| Value::from(*s);
    match shape.split_first() {
        None => values.first().map_or(Value::None, number),
        Some((&n, rest)) => {
            let width: usize = rest.iter().product();
            Value::list(
                (0..n)
                    .map(|i| tolist(&values[i * width..(i + 1) * width], rest))
                    .collect(),
            )
        }
    }
}

/// `tensor.to(...)` (and `module.to(...)`): a device, a dtype, another tensor, or keywords.
pub fn to_request(args: &Args) -> Result<To> {
    let mut request = To::default();
    for arg in &args.positional {
        match arg {
            Value::DType(d) => request.dtype = Some(*d),
            Value::Str(s) => request.device = Some(Target::Text(s.to_string())),
            Value::Device(d) => request.device = Some(Target::Device(*d)),
            Value::Int(i) => {
                request.device = Some(Target::Device(tolab_engine::Device::cuda(*i as i8)))
            }
            Value::Tensor(other) => {
                request.device = Some(Target::Device(other.device()));
                request.dtype = Some(other.dtype());
            }
            other => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "to() received an invalid combination of arguments - got ({})",
                        other.type_name()
                    ),
                ));
            }
        }
    }
    if let Some(d) = args.keyword("device") {
        request.device = Some(match d {
            Value::Str(s) => Target::Text(s.to_string()),
            other => Target::Device(device_of(other)?),
        });
    }
    if let Some(d) = args.keyword("dtype") {
        request.dtype = Some(dtype_of(d)?);
    }
    request.non_blocking = args.keyword("non_blocking").is_some_and(Value::truthy);
    request.copy = args.keyword("copy").is_some_and(Value::truthy);
    Ok(request)
}

/// The `dim=` and `keepdim=` of a reduction.
fn dims(args: &Args) -> (Vec<i64>, bool) {
    let dims = match args.get(0, "dim") {
        Some(Value::Int(d)) => vec![*d],
        Some(Value::Tuple(ds)) => ds.iter().map(|d| as_f64(d) as i64).collect(),
        Some(Value::List(ds)) => ds.borrow().iter().map(|d| as_f64(d) as i64).collect(),
        _ => Vec::new(),
    };
    (dims, args.get(1, "keepdim").is_some_and(Value::truthy))
}

/// The arguments of `std`/`var`: `(unbiased)`, `(dim, unbiased, keepdim)` or
/// `(dim, *, correction, keepdim)`; the dims, the correction and keepdim.
fn spread_args(args: &Args) -> (Vec<i64>, f64, bool) {
    if let Some(Value::Bool(unbiased)) = args.positional.first() {
        return (Vec::new(), f64::from(u8::from(*unbiased)), false);
    }
    let (dims, _) = dims(args);
    let correction = match (args.keyword("correction"), args.get(1, "unbiased")) {
        (Some(c), _) if !matches!(c, Value::None) => as_f64(c),
        (_, Some(unbiased)) => f64::from(u8::from(unbiased.truthy())),
        _ => 1.0,
    };
    (
        dims,
        correction,
        args.get(2, "keepdim").is_some_and(Value::truthy),
    )
}

pub fn call_method(owner: &Value, name: &str, args: Args) -> Result<Value> {
    let owner = &*owner.resolved();
    let arg = |i: usize| args.positional.get(i).cloned().unwrap_or(Value::None);
    match owner {
        Value::Tensor(t) => tensor_method(t, name, args),
        // `name()` gives the C++ class's qualified name for the one node that is not generated.
        Value::GradFn(g) if name == "name" => Ok(Value::str(match g.name() {
            "AccumulateGrad" => "torch::autograd::AccumulateGrad",
            other => other,
        })),
        Value::List(items) => list_method(items, name, &args),
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
        Value::Str(s) => str_method(s, name, &args),
        Value::CudaEvent(event) => cuda_event_method(event, name, &args),
        Value::Sampler(sampler) => {
            let epoch = as_f64(&arg(0));
            if epoch.is_nan() || epoch < 0.0 {
                return Err(PyException::new(
                    ExcType::TypeError,
                    "set_epoch() expects a non-negative epoch number",
                ));
            }
            sampler.engine.set_epoch(epoch as u64);
            Ok(Value::None)
        }
        Value::Generator(g) => Ok(match name {
            "manual_seed" => {
                g.manual_seed(as_f64(&arg(0)) as u64);
                owner.clone()
            }
            _ => Value::Int(g.initial_seed() as i64),
        }),
        Value::GradScaler(scaler) => {
            let optimizer = || match &arg(0) {
                Value::Optimizer(o) => Ok(o.clone()),
                other => Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "GradScaler.{name}() expects an optimizer, got {}",
                        other.type_name()
                    ),
                )),
            };
            Ok(match name {
                "scale" => Value::Tensor(scaler.scale(&tensor(&arg(0).resolved(), "scale")?)?),
                "step" => {
                    scaler.step(&*optimizer()?)?;
                    Value::None
                }
                "unscale_" => {
                    scaler.unscale_(&*optimizer()?)?;
                    Value::None
                }
                "update" => {
                    scaler.update()?;
                    Value::None
                }
                "is_enabled" => Value::Bool(scaler.is_enabled()),
                _ => Value::Float(scaler.get_scale()?),
            })
        }
        other => Err(no_attribute(other, name)),
    }
}

fn tensor_method(t: &Tensor, name: &str, args: Args) -> Result<Value> {
    let arg = |i: usize| args.positional.get(i).cloned().unwrap_or(Value::None);
    let operand = |what: &str| -> Result<tolab_engine::Operand<'_>> {
        match args.positional.first() {
            Some(Value::Tensor(u)) => Ok(tolab_engine::Operand::Tensor(u)),
            Some(other) => scalar(other)
                .map(tolab_engine::Operand::Scalar)
                .ok_or_else(|| {
                    PyException::new(ExcType::TypeError, format!("{what}: unsupported operand"))
                }),
            None => Err(PyException::new(
                ExcType::TypeError,
                format!("{what}() missing an argument"),
            )),
        }
    };
    let sizes = || size_of(&args.positional);
    Ok(Value::Tensor(match name {
        "to" => t.to(to_request(&args)?)?,
        "cuda" => {
            let index = args.positional.first().map(|v| as_f64(v) as i8);
            t.cuda(
                index,
                args.keyword("non_blocking").is_some_and(Value::truthy),
            )?
        }
        "cpu" => t.cpu()?,
        "float" => t.to_dtype(DType::Float32)?,
        "double" => t.to_dtype(DType::Float64)?,
        "half" => t.to_dtype(DType::Float16)?,
        "long" => t.to_dtype(DType::Int64)?,
        "int" => t.to_dtype(DType::Int32)?,
        "bool" => t.to_dtype(DType::Bool)?,
        "item" => {
            graph_break(t, BreakCause::Item);
            return Ok(Value::from(t.item()?));
        }
        "tolist" => {
            graph_break(t, BreakCause::Tolist);
            return Ok(tolist(&t.scalars()?, t.shape()));
        }
        "size" => {
            return Ok(match arg(0) {
                Value::Int(d) => {
                    let d = tolab_engine::layout::wrap_dim(d, t.dim())?;
                    Value::Int(t.shape()[d] as i64)
                }
                _ => Value::Size(t.shape().into()),
            });
        }
        "dim" => return Ok(Value::Int(t.dim() as i64)),
        "numel" => return Ok(Value::Int(t.numel() as i64)),
        "is_contiguous" => return Ok(Value::Bool(t.is_contiguous())),
        "is_pinned" => return Ok(Value::Bool(t.is_pinned())),
        "element_size" => return Ok(Value::Int(t.element_size() as i64)),
        "data_ptr" => return Ok(Value::Int(t.data_ptr() as i64)),
        "storage_offset" => return Ok(Value::Int(t.storage_offset() as i64)),
        "stride" => {
            return Ok(Value::Tuple(
                t.stride().iter().map(|&s| Value::Int(s as i64)).collect(),
            ));
        }
        "type" => return tensor_type(t, args.get(0, "dtype")),
        "backward" => {
            let (gradient, retain) = backward_args(&args);
            t.backward(gradient.as_ref(), retain)?;
            return Ok(Value::None);
        }
        "retain_grad" => {
            t.retain_grad()?;
            return Ok(Value::None);
        }
        "requires_grad_" => {
            let flag = args.get(0, "requires_grad").is_none_or(Value::truthy);
            t.set_requires_grad(flag)?;
            t.clone()
        }
        "sum" | "mean" => {
            let (dims, keepdim) = dims(&args);
            if name == "sum" {
                t.sum(&dims, keepdim)?
            } else {
                t.mean(&dims, keepdim)?
            }
        }
        "maximum" | "minimum" => match args.get(0, "other").map(|v| v.resolved().into_owned()) {
            Some(Value::Tensor(ref other)) if name == "maximum" => t.maximum(other)?,
            Some(Value::Tensor(ref other)) => t.minimum(other)?,
            _ => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!("{name}(): argument 'other' must be Tensor"),
                ));
            }
        },
        "any" | "all" => {
            // any: some element is nonzero; all: no element is zero (over `dim` if given).
            use tolab_engine::backend::cpu::elementwise::Binary;
            let (dims, keepdim) = dims(&args);
            let (test, verdict) = if name == "any" {
                (Binary::Ne, Binary::Gt)
            } else {
                (Binary::Eq, Binary::Eq)
            };
            t.compare(test, Scalar::Int(0))?
                .sum(&dims, keepdim)?
                .compare(verdict, Scalar::Int(0))?
        }
        "numpy" => {
            // Always an error in the lab; PyTorch's own checks (grad, device) come first.
            t.numpy()?;
            return Ok(Value::None);
        }
        // `get_device()`: the GPU index, -1 on the CPU.
        "get_device" => {
            let index = match t.device().kind {
                tolab_engine::DeviceType::Cpu => -1,
                _ => i64::from(t.device().index.unwrap_or(0)),
            };
            return Ok(Value::Int(index));
        }
        "prod" => t.prod()?,
        "gather" | "index_select" => {
            let dim = args.get(0, "dim").map_or(0.0, as_f64) as i64;
            let index = tensor(&args.get(1, "index").cloned().unwrap_or(Value::None), name)?;
            if name == "gather" {
                t.gather(dim, &index)?
            } else {
                t.index_select(dim, &index)?
            }
        }
        "masked_fill" => {
            let mask = tensor(&arg(0), "masked_fill")?;
            let value = scalar(&arg(1)).ok_or_else(|| {
                PyException::new(ExcType::TypeError, "masked_fill(): value must be a number")
            })?;
            t.masked_fill(&mask, value)?
        }
        "new_zeros" | "new_ones" | "new_full" | "new_empty" | "new_tensor" => {
            return new_like(t, name, args);
        }
        "std" | "var" => {
            let (dims, correction, keepdim) = spread_args(&args);
            if name == "std" {
                t.std(&dims, correction, keepdim)?
            } else {
                t.var(&dims, correction, keepdim)?
            }
        }
        "max" | "min" | "argmax" => match args.get(0, "dim").unwrap_or(&Value::None) {
            Value::None => match name {
                "max" => t.max()?,
                "min" => t.min()?,
                _ => t.argmax(None, false)?,
            },
            // `torch.max(a, b)` is the elementwise maximum.
            Value::Tensor(other) if name != "argmax" => {
                if name == "max" {
                    t.maximum(other)?
                } else {
                    t.minimum(other)?
                }
            }
            other => {
                let d = as_f64(other) as i64;
                let keepdim = args.get(1, "keepdim").is_some_and(Value::truthy);
                let (values, indices) = match name {
                    "argmax" => return Ok(Value::Tensor(t.argmax(Some(d), keepdim)?)),
                    "max" => t.max_dim(d, keepdim)?,
                    _ => t.min_dim(d, keepdim)?,
                };
                return Ok(Value::StructSeq(Rc::new(StructSeq {
                    name: if name == "max" {
                        "torch.return_types.max"
                    } else {
                        "torch.return_types.min"
                    },
                    fields: vec![
                        ("values", Value::Tensor(values)),
                        ("indices", Value::Tensor(indices)),
                    ],
                })));
            }
        },
        "detach" => {
            graph_break(t, BreakCause::Detach);
            t.detach()
        }
        "clone" => t.clone_tensor()?,
        "view" => t.view(&sizes()?)?,
        "flatten" => tolab_engine::nn::functional::flatten(
            t,
            args.get(0, "start_dim").map_or(0.0, as_f64) as i64,
            args.get(1, "end_dim").map_or(-1.0, as_f64) as i64,
        )?,
        "reshape" => t.reshape(&sizes()?)?,
        "add" => t.add(operand("add")?)?,
        "sub" => t.sub(operand("sub")?)?,
        "mul" => t.mul(operand("mul")?)?,
        "div" => t.div(operand("div")?)?,
        "add_" => t.add_(operand("add_")?)?.clone(),
        "sub_" => t.sub_(operand("sub_")?)?.clone(),
        "mul_" => t.mul_(operand("mul_")?)?.clone(),
        "div_" => t.div_(operand("div_")?)?.clone(),
        "matmul" => t.matmul(&tensor(&arg(0), "matmul")?)?,
        "mm" => t.mm(&tensor(&arg(0), "mm")?)?,
        "relu" => t.relu()?,
        "exp" => t.exp()?,
        "log" => t.log()?,
        "sqrt" => t.sqrt()?,
        "abs" => t.abs()?,
        "neg" => t.neg()?,
        "sigmoid" => t.sigmoid()?,
        "tanh" => t.tanh()?,
        "pow" => match &arg(0) {
            Value::Tensor(e) => t.pow(e)?,
            other => t.pow_scalar(scalar(other).unwrap_or(Scalar::Int(1)))?,
        },
        "clamp" => t.clamp(
            args.get(0, "min").and_then(scalar),
            args.get(1, "max").and_then(scalar),
        )?,
        "t" => t.t()?,
        "zero_" => t.zero_()?.clone(),
        "fill_" => t.fill_(scalar(&arg(0)).unwrap_or(Scalar::Int(0)))?.clone(),
        "copy_" => t.copy_(&tensor(&arg(0), "copy_")?)?.clone(),
        "contiguous" => t.contiguous()?,
        "unsqueeze" => t.unsqueeze(as_f64(&arg(0)) as i64)?,
        "squeeze" => match arg(0) {
            Value::None => t.squeeze(None)?,
            d => t.squeeze(Some(as_f64(&d) as i64))?,
        },
        "transpose" => t.transpose(as_f64(&arg(0)) as i64, as_f64(&arg(1)) as i64)?,
        "permute" => t.permute(&sizes()?)?,
        "expand" => t.expand(&sizes()?)?,
        "softmax" => {
            t.softmax(as_f64(&args.get(0, "dim").cloned().unwrap_or(Value::Int(-1))) as i64)?
        }
        "log_softmax" => {
            t.log_softmax(as_f64(&args.get(0, "dim").cloned().unwrap_or(Value::Int(-1))) as i64)?
        }
        "pin_memory" => t.pin_memory()?,
        other => return Err(no_attribute(&Value::Tensor(t.clone()), other)),
    }))
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
                match dict.iter_mut().find(|(key, _)| equal(key, &k)) {
                    Some(entry) => entry.1 = v,
                    None => dict.push((k, v)),
                }
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
            set.remove(0)
        }
        _ => Value::Set(Rc::new(RefCell::new(set.clone()))),
    })
}

fn str_method(s: &str, name: &str, args: &Args) -> Result<Value> {
    let arg = |i: usize| args.positional.get(i).cloned().unwrap_or(Value::None);
    let text = |i: usize| arg(i).str_text();
    let width = || as_f64(&arg(0)).max(0.0) as usize;
    let pad = |s: &str, left: usize, right: usize| {
        format!("{}{s}{}", " ".repeat(left), " ".repeat(right))
    };
    let missing = || width().saturating_sub(s.chars().count());
    Ok(match name {
        "upper" => Value::str(&s.to_uppercase()),
        "lower" => Value::str(&s.to_lowercase()),
        "strip" => Value::str(s.trim()),
        "lstrip" => Value::str(s.trim_start()),
        "rstrip" => Value::str(s.trim_end()),
        "splitlines" => Value::list(s.lines().map(Value::str).collect()),
        "title" => Value::str(
            &s.split(' ')
                .map(|w| {
                    let mut c = w.chars();
                    c.next().map_or(String::new(), |f| {
                        f.to_uppercase().collect::<String>() + &c.as_str().to_lowercase()
                    })
                })
                .collect::<Vec<_>>()
                .join(" "),
        ),
        "split" => match args.positional.first() {
            Some(Value::Str(sep)) if !sep.is_empty() => {
                Value::list(s.split(sep.as_ref()).map(Value::str).collect())
            }
            _ => Value::list(s.split_whitespace().map(Value::str).collect()),
        },
        "join" => {
            let items = super::operators::iterate(&arg(0))?;
            let mut parts = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                match item {
                    Value::Str(part) => parts.push(part.to_string()),
                    other => {
                        return Err(PyException::new(
                            ExcType::TypeError,
                            format!(
                                "sequence item {i}: expected str instance, {} found",
                                other.type_name()
                            ),
                        ));
                    }
                }
            }
            Value::str(&parts.join(s))
        }
        "replace" => Value::str(&s.replace(&text(0), &text(1))),
        "startswith" => Value::Bool(s.starts_with(&text(0))),
        "endswith" => Value::Bool(s.ends_with(&text(0))),
        "center" => Value::str(&pad(s, missing() / 2, missing() - missing() / 2)),
        "ljust" => Value::str(&pad(s, 0, missing())),
        "rjust" => Value::str(&pad(s, missing(), 0)),
        _ => Value::str(&format_str(s, args)?),
    })
}

/// `"...{}...{name:spec}...".format(*args, **kwargs)`.
fn format_str(template: &str, args: &Args) -> Result<String> {
    let mut out = String::new();
    let mut next = 0;
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                out.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                out.push('}');
            }
            '{' => {
                let field: String = chars.by_ref().take_while(|c| *c != '}').collect();
                let (name, spec) = field.split_once(':').unwrap_or((&field, ""));
                let (name, conversion) = match name.split_once('!') {
                    Some((n, conv)) => (n, Some(conv)),
                    None => (name, None),
                };
                let value = if name.is_empty() {
                    next += 1;
                    args.positional.get(next - 1)
                } else if let Ok(i) = name.parse::<usize>() {
                    args.positional.get(i)
                } else {
                    args.keyword(name)
                };
                let value = value.cloned().ok_or_else(|| {
                    PyException::new(
                        ExcType::IndexError,
                        format!("Replacement index {name} out of range for positional args tuple"),
                    )
                })?;
                out.push_str(&match conversion {
                    Some("r") => value.repr(),
                    _ => super::operators::format(&value, spec)?,
                });
            }
            c => out.push(c),
        }
    }
    Ok(out)
}

/// `event.record()`, `event.elapsed_time(end)` (milliseconds of GPU time, as CUDA gives them)
/// and the waits.
fn cuda_event_method(event: &super::value::CudaEvent, name: &str, args: &Args) -> Result<Value> {
    match name {
        "record" => {
            *event.recorded.borrow_mut() = Some(event.session.record_mark());
            Ok(Value::None)
        }
        "elapsed_time" => {
            let Some(Value::CudaEvent(end)) = args.get(0, "end_event") else {
                return Err(PyException::new(
                    ExcType::TypeError,
                    "elapsed_time() expects another torch.cuda.Event",
                ));
            };
            if !event.timing || !end.timing {
                return Err(PyException::new(
                    ExcType::RuntimeError,
                    "Both events must be created with argument 'enable_timing=True'.",
                ));
            }
            match (&*event.recorded.borrow(), &*end.recorded.borrow()) {
                (Some(start), Some(stop)) => {
                    Ok(Value::Float(event.session.elapsed_ms(start, stop)?))
                }
                _ => Err(PyException::new(
                    ExcType::RuntimeError,
                    "Both events must be recorded before calculating elapsed time.",
                )),
            }
        }
        "query" => Ok(Value::Bool(true)),
        "synchronize" => {
            event.session.synchronize(None)?;
            Ok(Value::None)
        }
        _ => Ok(Value::None),
    }
}

/// `t.new_zeros(size)` and the other `new_*`: `torch.zeros(size)` and company with `t`'s dtype
/// and device unless the call names its own.
fn new_like(t: &Tensor, name: &str, mut args: Args) -> Result<Value> {
    for (key, value) in [
        ("dtype", Value::DType(t.dtype())),
        ("device", Value::Device(t.device())),
    ] {
        if args.keyword(key).is_none() {
            args.keywords.push((key.to_owned(), value));
        }
    }
    let function = name.trim_start_matches("new_");
    let function = if function == "tensor" {
        "tensor"
    } else {
        function
    };
    modules::torch_function(t.session(), function, args)
}

/// `t.type()` (the type's name, `torch.cuda.FloatTensor`), `t.type(torch.float64)`, or
/// `t.type('torch.cuda.LongTensor')` (a cast, and a move when the name says `cuda`).
fn tensor_type(t: &Tensor, target: Option<&Value>) -> Result<Value> {
    let (device, dtype) = match target {
        None | Some(Value::None) => return Ok(Value::str(&t.type_name())),
        Some(Value::DType(dtype)) => (None, *dtype),
        Some(Value::Str(name)) => {
            let rest = name.strip_prefix("torch.").unwrap_or(name);
            let (cuda, rest) = match rest.strip_prefix("cuda.") {
                Some(rest) => (true, rest),
                None => (false, rest),
            };
            let kind = rest.strip_suffix("Tensor").unwrap_or(rest);
            let dtype = tolab_engine::DType::ALL
                .into_iter()
                .find(|d| d.scalar_type_name() == kind)
                .ok_or_else(|| {
                    PyException::new(ExcType::ValueError, format!("invalid type: '{name}'"))
                })?;
            let device = match (cuda, t.device().kind) {
                (true, tolab_engine::DeviceType::Cuda) | (false, tolab_engine::DeviceType::Cpu) => {
                    None
                }
                (true, _) => Some(tolab_engine::Device::cuda(0)),
                (false, _) => Some(tolab_engine::Device::CPU),
            };
            (device, dtype)
        }
        Some(other) => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "type() expects a dtype or a type name, not {}",
                    other.type_name()
                ),
            ));
        }
    };
    Ok(Value::Tensor(t.to(tolab_engine::To {
        device: device.map(tolab_engine::Target::Device),
        dtype: Some(dtype),
        ..tolab_engine::To::default()
    })?))
}

/// `backward(gradient=None, retain_graph=False)`'s arguments.
pub(super) fn backward_args(args: &Args) -> (Option<Tensor>, bool) {
    let gradient = match args.get(0, "gradient") {
        Some(Value::Tensor(g)) => Some(g.clone()),
        _ => None,
    };
    (
        gradient,
        args.get(1, "retain_graph").is_some_and(Value::truthy),
    )
}
