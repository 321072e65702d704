//! `torch.nn`: its layer and loss classes (made with their PyTorch constructor signatures),
//! `nn.Parameter`, and, in [`module`], what every module does (its methods, its attributes,
//! calling it). `functional` and `init` are `torch.nn.functional` and `torch.nn.init`.

pub mod functional;
pub mod init;
pub mod module;

use tolab_engine::nn::functional::Padding;
use tolab_engine::nn::{Factory, Layer, Module, Parameter};
use tolab_engine::{Device, Session, Tensor};

use super::{Call, Handler};
use crate::python::exception::{ExcType, PyException};
use crate::python::operators::iterate;
use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("torch.nn.Module", Handler::Engine(construct)),
    ("torch.nn.Linear", Handler::Engine(construct)),
    ("torch.nn.ReLU", Handler::Engine(construct)),
    ("torch.nn.Sigmoid", Handler::Engine(construct)),
    ("torch.nn.Tanh", Handler::Engine(construct)),
    ("torch.nn.Dropout", Handler::Engine(construct)),
    ("torch.nn.Flatten", Handler::Engine(construct)),
    ("torch.nn.Sequential", Handler::Engine(construct)),
    ("torch.nn.ModuleList", Handler::Engine(construct)),
    ("torch.nn.Identity", Handler::Engine(construct)),
    ("torch.nn.Softmax", Handler::Engine(construct)),
    ("torch.nn.LogSoftmax", Handler::Engine(construct)),
    ("torch.nn.MSELoss", Handler::Engine(construct)),
    ("torch.nn.CrossEntropyLoss", Handler::Engine(construct)),
    ("torch.nn.NLLLoss", Handler::Engine(construct)),
    ("torch.nn.BCEWithLogitsLoss", Handler::Engine(construct)),
    ("torch.nn.Conv2d", Handler::Engine(construct)),
    ("torch.nn.Embedding", Handler::Engine(construct)),
    ("torch.nn.LayerNorm", Handler::Engine(construct)),
    ("torch.nn.Parameter", Handler::Engine(parameter)),
    (
        "torch.nn.Module.parameters",
        Handler::Interpreter(module::method),
    ),
    (
        "torch.nn.Module.named_parameters",
        Handler::Interpreter(module::method),
    ),
    (
        "torch.nn.Module.buffers",
        Handler::Interpreter(module::method),
    ),
    (
        "torch.nn.Module.named_buffers",
        Handler::Interpreter(module::method),
    ),
    (
        "torch.nn.Module.children",
        Handler::Interpreter(module::method),
    ),
    (
        "torch.nn.Module.named_children",
        Handler::Interpreter(module::method),
    ),
    (
        "torch.nn.Module.modules",
        Handler::Interpreter(module::method),
    ),
    (
        "torch.nn.Module.named_modules",
        Handler::Interpreter(module::method),
    ),
    (
        "torch.nn.Module.register_buffer",
        Handler::Interpreter(module::method),
    ),
    (
        "torch.nn.Module.register_parameter",
        Handler::Interpreter(module::method),
    ),
    (
        "torch.nn.Module.add_module",
        Handler::Interpreter(module::method),
    ),
    (
        "torch.nn.Module.load_state_dict",
        Handler::Interpreter(module::method),
    ),
    (
        "torch.nn.Module.state_dict",
        Handler::Interpreter(module::method),
    ),
    ("torch.nn.Module.to", Handler::Interpreter(module::method)),
    ("torch.nn.Module.cuda", Handler::Interpreter(module::method)),
    ("torch.nn.Module.cpu", Handler::Interpreter(module::method)),
    (
        "torch.nn.Module.float",
        Handler::Interpreter(module::method),
    ),
    (
        "torch.nn.Module.double",
        Handler::Interpreter(module::method),
    ),
    ("torch.nn.Module.half", Handler::Interpreter(module::method)),
    (
        "torch.nn.Module.train",
        Handler::Interpreter(module::method),
    ),
    ("torch.nn.Module.eval", Handler::Interpreter(module::method)),
    (
        "torch.nn.Module.zero_grad",
        Handler::Interpreter(module::method),
    ),
    (
        "torch.nn.Module.requires_grad_",
        Handler::Interpreter(module::method),
    ),
    (
        "torch.nn.ModuleList.append",
        Handler::Interpreter(module::method),
    ),
    (
        "torch.nn.ModuleList.extend",
        Handler::Interpreter(module::method),
    ),
    (
        "torch.nn.Sequential.append",
        Handler::Interpreter(module::method),
    ),
    (
        "torch.nn.Sequential.extend",
        Handler::Interpreter(module::method),
    ),
];

/// A size argument of a constructor (`in_features`): a non-negative int.
fn size(call: &Call, name: &str) -> Result<usize> {
    match call.value(name)? {
        Some(Value::Int(n)) => usize::try_from(n).map_err(|_| {
            PyException::new(
                ExcType::RuntimeError,
                format!("Trying to create tensor with negative dimension {n}: [{n}]"),
            )
        }),
        other => Err(PyException::new(
            ExcType::TypeError,
            format!(
                "{}(): argument '{name}' must be int, not {}",
                call.signature().name,
                other.map_or("NoneType".into(), |v| v.type_name())
            ),
        )),
    }
}

/// An `int` or `(int, int)` argument (`kernel_size=3`, `stride=(2, 1)`).
fn pair(call: &Call, name: &str) -> Result<[usize; 2]> {
    let bad = || {
        PyException::new(
            ExcType::TypeError,
            format!("{name} must be an int or a pair of ints"),
        )
    };
    match call.value(name)? {
        Some(Value::Int(n)) if n >= 0 => Ok([n as usize; 2]),
        Some(v @ (Value::Tuple(_) | Value::List(_))) => match iterate(&v)?.as_slice() {
            [Value::Int(a), Value::Int(b)] if *a >= 0 && *b >= 0 => Ok([*a as usize, *b as usize]),
            _ => Err(bad()),
        },
        _ => Err(bad()),
    }
}

/// `device=` and `dtype=` of a layer with parameters (others have neither).
fn factory(call: &Call, session: &Session) -> Result<Factory> {
    let defaults = Factory::defaults(session);
    if call.signature().position("device").is_none() {
        return Ok(defaults);
    }
    let device = match call.value("device")?.as_ref() {
        None | Some(Value::None) => defaults.device,
        Some(Value::Device(d)) => *d,
        Some(Value::Str(s)) => Device::parse(s)?,
        Some(Value::Int(i)) => super::parse::device_index(*i)?,
        Some(other) => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!("expected a device, not '{}'", other.type_name()),
            ));
        }
    };
    let dtype = match call.value("dtype")? {
        None | Some(Value::None) => defaults.dtype,
        Some(v) => super::parse::dtype_of(&v).ok_or_else(|| {
            PyException::new(
                ExcType::TypeError,
                format!("dtype must be a torch.dtype, not '{}'", v.type_name()),
            )
        })?,
    };
    let bias = match call.signature().position("bias") {
        Some(_) => call.truthy("bias")?,
        None => true,
    };
    Ok(Factory {
        bias,
        device,
        dtype,
    })
}

/// The modules among `values`, or PyTorch's error for one that is not.
pub fn modules_of(values: &[Value]) -> Result<Vec<Module>> {
    values
        .iter()
        .map(|v| {
            module_of(v).ok_or_else(|| {
                PyException::new(
                    ExcType::TypeError,
                    format!("{} is not a Module subclass", v.type_name()),
                )
            })
        })
        .collect()
}

/// The engine module a value is (a built-in layer, or a learner's `nn.Module` subclass).
pub fn module_of(v: &Value) -> Option<Module> {
    match v {
        Value::NnModule(m) => Some(m.clone()),
        Value::Instance(i) => i.module.clone(),
        _ => None,
    }
}

/// `nn.Linear(...)` and the other built-in classes.
fn construct(call: &Call, session: &Session) -> Result<Value> {
    let name = call.binding.name();
    // Classes that take no arguments inherit `Module.__init__(*args, **kwargs)`, which refuses
    // any, naming the class.
    if call.signature().name == "Module.__init__" {
        if let Some((key, _)) = call.extra_keywords().first() {
            return Err(PyException::new(
                ExcType::TypeError,
                format!("{name}.__init__() got an unexpected keyword argument '{key}'"),
            ));
        }
        if !call.rest().is_empty() {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "{name}.__init__() takes 1 positional argument but {} were given",
                    call.rest().len() + 1
                ),
            ));
        }
    }
    let layer = match name {
        "Module" => return Ok(Value::NnModule(Module::custom("Module"))),
        "Sequential" => {
            let children = modules_of(call.rest())?;
            return Ok(Value::NnModule(Module::sequential(&children)));
        }
        "ModuleList" => {
            let list = Module::custom("ModuleList");
            let children = match call.value("modules")? {
                None | Some(Value::None) => Vec::new(),
                Some(iterable) => modules_of(&iterate(&iterable)?)?,
            };
            for (i, child) in children.into_iter().enumerate() {
                list.add_module(&i.to_string(), Some(child));
            }
            return Ok(Value::NnModule(list));
        }
        "Identity" => Layer::Identity,
        "Linear" => Layer::Linear {
            in_features: size(call, "in_features")?,
            out_features: size(call, "out_features")?,
        },
        "ReLU" | "Sigmoid" | "Tanh" => {
            if call.signature().position("inplace").is_some() && call.truthy("inplace")? {
                return Err(super::ops::not_yet("nn.ReLU(inplace=True)"));
            }
            match name {
                "ReLU" => Layer::ReLU,
                "Sigmoid" => Layer::Sigmoid,
                _ => Layer::Tanh,
            }
        }
        "Softmax" | "LogSoftmax" => Layer::Softmax {
            dim: match call.value("dim")? {
                None | Some(Value::None) => None,
                Some(_) => Some(call.int_value("dim")?),
            },
            log: name == "LogSoftmax",
        },
        "Dropout" => {
            if call.truthy("inplace")? {
                return Err(super::ops::not_yet("nn.Dropout(inplace=True)"));
            }
            Layer::Dropout {
                p: call.number_value("p")?,
            }
        }
        "Flatten" => Layer::Flatten {
            start_dim: call.int_value("start_dim")?,
            end_dim: call.int_value("end_dim")?,
        },
        "MSELoss" => Layer::MSELoss {
            reduction: functional::reduction(call)?,
        },
        "CrossEntropyLoss" | "NLLLoss" => {
            if !matches!(call.value("weight")?, None | Some(Value::None)) {
                return Err(super::ops::not_yet(&format!("nn.{name}(weight=...)")));
            }
            if name == "CrossEntropyLoss" && call.number_value("label_smoothing")? != 0.0 {
                return Err(super::ops::not_yet(
                    "nn.CrossEntropyLoss(label_smoothing=...)",
                ));
            }
            let (reduction, ignore_index) = (
                functional::reduction(call)?,
                call.int_value("ignore_index")?,
            );
            if name == "NLLLoss" {
                Layer::NLLLoss {
                    reduction,
                    ignore_index,
                }
            } else {
                Layer::CrossEntropyLoss {
                    reduction,
                    ignore_index,
                }
            }
        }
        "BCEWithLogitsLoss" => {
            for refused in ["weight", "pos_weight"] {
                if !matches!(call.value(refused)?, None | Some(Value::None)) {
                    return Err(super::ops::not_yet(&format!(
                        "nn.BCEWithLogitsLoss({refused}=...)"
                    )));
                }
            }
            Layer::BCEWithLogitsLoss {
                reduction: functional::reduction(call)?,
            }
        }
        "Conv2d" => {
            let padding_mode = call.string_value("padding_mode")?;
            if padding_mode != "zeros" {
                return Err(super::ops::not_yet(&format!(
                    "nn.Conv2d(padding_mode='{padding_mode}')"
                )));
            }
            let padding = match call.value("padding")?.as_ref() {
                Some(Value::Str(s)) if **s == *"same" => Padding::Same,
                Some(Value::Str(s)) if **s == *"valid" => Padding::Explicit([0, 0]),
                Some(Value::Str(s)) => {
                    return Err(PyException::new(
                        ExcType::ValueError,
                        format!(
                            "Invalid padding string '{s}', should be one of {{'valid', 'same'}}"
                        ),
                    ));
                }
                _ => Padding::Explicit(pair(call, "padding")?),
            };
            Layer::Conv2d {
                in_channels: size(call, "in_channels")?,
                out_channels: size(call, "out_channels")?,
                kernel_size: pair(call, "kernel_size")?,
                stride: pair(call, "stride")?,
                padding,
                dilation: pair(call, "dilation")?,
                groups: size(call, "groups")?,
            }
        }
        "Embedding" => {
            for refused in ["max_norm", "_weight", "_freeze"] {
                if !matches!(
                    call.value(refused)?,
                    None | Some(Value::None) | Some(Value::Bool(false))
                ) {
                    return Err(super::ops::not_yet(&format!("nn.Embedding({refused}=...)")));
                }
            }
            if call.truthy("scale_grad_by_freq")? || call.truthy("sparse")? {
                return Err(super::ops::not_yet(
                    "nn.Embedding(scale_grad_by_freq=True or sparse=True)",
                ));
            }
            let _norm_type = call.number_value("norm_type")?;
            Layer::Embedding {
                num_embeddings: size(call, "num_embeddings")?,
                embedding_dim: size(call, "embedding_dim")?,
                padding_idx: match call.value("padding_idx")? {
                    None | Some(Value::None) => None,
                    Some(_) => Some(call.int_value("padding_idx")?),
                },
            }
        }
        "LayerNorm" => {
            let elementwise_affine = call.truthy("elementwise_affine")?;
            if elementwise_affine && !call.truthy("bias")? {
                return Err(super::ops::not_yet("nn.LayerNorm(bias=False)"));
            }
            Layer::LayerNorm {
                normalized_shape: match call.value("normalized_shape")? {
                    Some(Value::Int(n)) => vec![usize::try_from(n).unwrap_or(0)],
                    Some(shape) => iterate(&shape)?
                        .iter()
                        .map(|v| match v {
                            Value::Int(n) => Ok(usize::try_from(*n).unwrap_or(0)),
                            other => Err(PyException::new(
                                ExcType::TypeError,
                                format!(
                                    "normalized_shape must hold ints, not {}",
                                    other.type_name()
                                ),
                            )),
                        })
                        .collect::<Result<_>>()?,
                    None => Vec::new(),
                },
                eps: call.number_value("eps")?,
                elementwise_affine,
            }
        }
        other => return Err(super::ops::not_yet(&format!("torch.nn.{other}"))),
    };
    let factory = factory(call, session)?;
    call.finish()?;
    Ok(Value::NnModule(Module::build(session, layer, &factory)?))
}

/// `nn.Parameter(data=None, requires_grad=True)`.
fn parameter(call: &Call, session: &Session) -> Result<Value> {
    let data = match call.value("data")? {
        None | Some(Value::None) => Tensor::empty(
            session,
            &[0],
            session.default_dtype(),
            session.default_device().unwrap_or(Device::CPU),
        )?,
        Some(v) => match &*v.resolved() {
            Value::Tensor(t) => t.clone(),
            other => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "Parameter.__new__(): data must be a Tensor, not {}",
                        other.type_name()
                    ),
                ));
            }
        },
    };
    let requires_grad = call.truthy("requires_grad")?;
    call.finish()?;
    Ok(Value::Parameter(Parameter::new(&data, requires_grad)?))
}
