//! The importable modules (`torch`, `torch.cuda`, `math`) and their functions, bound to the
//! engine: tensor creation with Python's calling conventions (`*size` or a tuple, `dtype=`,
//! `device=`, `requires_grad=`), devices and dtypes, seeding, CUDA queries, and the `no_grad` /
//! `enable_grad` context managers.

use std::rc::Rc;

use tolab_engine::{DType, Device, Scalar, Session, Tensor};

use super::args::Args;
use super::exception::{ExcType, PyException};
use super::operators::{iterate, scalar};
use super::value::{CudaEvent, Value, as_f64};

type Result<T> = std::result::Result<T, PyException>;

const MODULES: &[&str] = &[
    "torch",
    "torch.cuda",
    "torch.cuda.amp",
    "torch.amp",
    "torch.nn",
    "torch.nn.functional",
    "torch.nn.init",
    "torch.optim",
    "torch.utils",
    "torch.utils.data",
    "torch.utils.data.distributed",
    "torch.distributed",
    "torch.multiprocessing",
    "torch.nn.parallel",
    "torch.backends",
    "torch.backends.cudnn",
    "torch.backends.cuda",
    "torch.backends.cuda.matmul",
    "torch.backends.mps",
    "math",
    "warnings",
    "time",
    "random",
    "os",
    "typing",
    "copy",
];

const TORCH_DTYPES: &[(&str, DType)] = &[
    ("float32", DType::Float32),
    ("float", DType::Float32),
    ("float64", DType::Float64),
    ("double", DType::Float64),
    ("float16", DType::Float16),
    ("half", DType::Float16),
    ("bfloat16", DType::BFloat16),
    ("int64", DType::Int64),
    ("long", DType::Int64),
    ("int32", DType::Int32),
    ("int", DType::Int32),
    ("uint8", DType::UInt8),
    ("bool", DType::Bool),
];

/// `import name`.
pub fn import(name: &str) -> Result<Value> {
    MODULES
        .iter()
        .find(|m| **m == name)
        .map(|m| Value::Module(m))
        .ok_or_else(|| {
            PyException::new(
                ExcType::ModuleNotFoundError,
                format!(
                    "No module named '{name}' in the lab (it has {})",
                    MODULES.join(", ")
                ),
            )
        })
}

/// `from module import name`.
pub fn import_from(module: &str, name: &str) -> Result<Value> {
    let Value::Module(m) = import(module)? else {
        return Err(PyException::new(ExcType::ImportError, "not a module"));
    };
    let full = format!("{module}.{name}");
    if let Ok(sub) = import(&full) {
        return Ok(sub);
    }
    attribute(m, name).ok_or_else(|| {
        PyException::new(
            ExcType::ImportError,
            format!("cannot import name '{name}' from '{module}'"),
        )
    })
}

/// The members `module` has, by name, for completion: every name the lab's tables know that
/// [`attribute`] answers for it (a module's members are plain values: reading them runs nothing).
pub fn members(module: &'static str) -> Vec<(String, Value)> {
    // Names bound by `attribute`'s own arms rather than by a table.
    const NAMED: &[&str] = &[
        "Tensor",
        "Dataset",
        "TensorDataset",
        "DataLoader",
        "DistributedSampler",
        "autocast",
        "GradScaler",
        "SGD",
        "Adam",
        "AdamW",
        "spawn",
        "DataParallel",
        "DistributedDataParallel",
        "ReduceOp",
        "__version__",
        "pi",
        "e",
        "tau",
        "inf",
        "nan",
        "is_available",
        "is_built",
    ];
    let submodules = MODULES.iter().filter_map(|m| {
        let rest = m.strip_prefix(module)?.strip_prefix('.')?;
        (!rest.contains('.')).then_some(rest)
    });
    let tables: [&[&str]; 13] = [
        TORCH_FUNCTIONS,
        CUDA_FUNCTIONS,
        super::math::FUNCTIONS,
        INIT,
        FUNCTIONAL,
        super::objects::NN_CLASSES,
        super::distributed::FUNCTIONS,
        super::distributed::REDUCE_OPS,
        super::stdlib::WARNINGS,
        super::stdlib::TIME,
        super::stdlib::RANDOM,
        super::stdlib::TYPING,
        super::copying::FUNCTIONS,
    ];
    let mut members: Vec<(String, Value)> = submodules
        .chain(TORCH_DTYPES.iter().map(|(n, _)| *n))
        .chain(tables.into_iter().flatten().copied())
        .chain(NAMED.iter().copied())
        .chain(BACKEND_FLAGS.iter().map(|(_, n, _)| *n))
        .filter_map(|name| Some((name.to_owned(), attribute(module, name)?)))
        .collect();
    members.sort_by(|a, b| a.0.cmp(&b.0));
    members.dedup_by(|a, b| a.0 == b.0);
    members
}

/// `module.name`, if the module has it.
pub fn attribute(module: &'static str, name: &str) -> Option<Value> {
    match (module, name) {
        ("torch", "cuda") => Some(Value::Module("torch.cuda")),
        ("torch", "nn") => Some(Value::Module("torch.nn")),
        ("torch", "optim") => Some(Value::Module("torch.optim")),
        ("torch", "utils") => Some(Value::Module("torch.utils")),
        ("torch", "amp") => Some(Value::Module("torch.amp")),
        ("torch", "distributed") => Some(Value::Module("torch.distributed")),
        ("torch", "backends") => Some(Value::Module("torch.backends")),
        ("torch.backends", "cudnn") => Some(Value::Module("torch.backends.cudnn")),
        ("torch.backends", "cuda") => Some(Value::Module("torch.backends.cuda")),
        ("torch.backends", "mps") => Some(Value::Module("torch.backends.mps")),
        ("torch.backends.cuda", "matmul") => Some(Value::Module("torch.backends.cuda.matmul")),
        ("torch.backends.mps", "is_available" | "is_built")
        | ("torch.backends.cudnn", "is_available") => Some(Value::ModuleFn(module, Rc::from(name))),
        ("torch", "multiprocessing") => Some(Value::Module("torch.multiprocessing")),
        ("torch.nn", "parallel") => Some(Value::Module("torch.nn.parallel")),
        ("torch.distributed", "ReduceOp") => Some(Value::Module("torch.distributed.ReduceOp")),
        ("torch.distributed.ReduceOp", _) => super::distributed::REDUCE_OPS
            .contains(&name)
            .then(|| Value::str(&format!("ReduceOp.{name}"))),
        ("torch.distributed", _) => super::distributed::FUNCTIONS
            .contains(&name)
            .then(|| Value::ModuleFn(module, Rc::from(name))),
        ("torch.multiprocessing", "spawn")
        | ("torch.nn.parallel", "DistributedDataParallel" | "DataParallel") => {
            Some(Value::ModuleFn(module, Rc::from(name)))
        }
        ("torch.nn", "DataParallel") => Some(Value::ModuleFn("torch.nn.parallel", Rc::from(name))),
        ("torch.cuda", "amp") => Some(Value::Module("torch.cuda.amp")),
        ("torch.utils", "data") => Some(Value::Module("torch.utils.data")),
        ("torch.utils.data", "distributed") => Some(Value::Module("torch.utils.data.distributed")),
        ("torch.utils.data" | "torch.utils.data.distributed", "DistributedSampler") => {
            Some(Value::ModuleFn("torch.utils.data", Rc::from(name)))
        }
        ("torch.utils.data", "Dataset") => Some(Value::Type("torch.utils.data.Dataset")),
        ("torch.utils.data", "TensorDataset" | "DataLoader")
        | ("torch.amp", "autocast" | "GradScaler")
        | ("torch.cuda.amp", "autocast" | "GradScaler") => {
            Some(Value::ModuleFn(module, Rc::from(name)))
        }
        ("warnings", _) if super::stdlib::WARNINGS.contains(&name) => {
            Some(Value::ModuleFn(module, Rc::from(name)))
        }
        ("time", _) if super::stdlib::TIME.contains(&name) => {
            Some(Value::ModuleFn(module, Rc::from(name)))
        }
        ("random", _) if super::stdlib::RANDOM.contains(&name) => {
            Some(Value::ModuleFn(module, Rc::from(name)))
        }
        ("torch.nn", "functional") => Some(Value::Module("torch.nn.functional")),
        ("torch.nn", "init") => Some(Value::Module("torch.nn.init")),
        ("torch.nn.init", _) => INIT
            .contains(&name)
            .then(|| Value::ModuleFn("torch.nn.init", Rc::from(name))),
        ("torch.nn", _) => super::objects::NN_CLASSES
            .iter()
            .find(|c| **c == name)
            .map(|c| Value::NnClass(c)),
        ("torch.nn.functional", _) => FUNCTIONAL
            .contains(&name)
            .then(|| Value::ModuleFn("torch.nn.functional", Rc::from(name))),
        ("torch.optim", "SGD" | "Adam" | "AdamW") => {
            Some(Value::ModuleFn("torch.optim", Rc::from(name)))
        }
        ("torch", "Tensor") => Some(Value::Type("torch.Tensor")),
        // The PyTorch whose behaviour the lab reproduces (its golden files come from it).
        ("torch", "__version__") => Some(Value::str("2.15.0")),
        ("torch", _) => {
            if let Some((_, dtype)) = TORCH_DTYPES.iter().find(|(n, _)| *n == name) {
                return Some(Value::DType(*dtype));
            }
            TORCH_FUNCTIONS
                .contains(&name)
                .then(|| Value::ModuleFn("torch", Rc::from(name)))
        }
        ("torch.cuda", _) => CUDA_FUNCTIONS
            .contains(&name)
            .then(|| Value::ModuleFn("torch.cuda", Rc::from(name))),
        ("copy", _) => super::copying::FUNCTIONS
            .contains(&name)
            .then(|| Value::ModuleFn("copy", Rc::from(name))),
        ("typing", _) => super::stdlib::TYPING
            .contains(&name)
            .then(|| Value::Typing(Rc::from(format!("typing.{name}")))),
        ("math", _) => super::math::constant(name).or_else(|| {
            super::math::FUNCTIONS
                .contains(&name)
                .then(|| Value::ModuleFn("math", Rc::from(name)))
        }),
        _ => backend_flag(module, name),
    }
}

const TORCH_FUNCTIONS: &[&str] = &[
    "tensor",
    "zeros",
    "ones",
    "rand",
    "randn",
    "empty",
    "full",
    "arange",
    "manual_seed",
    "device",
    "no_grad",
    "enable_grad",
    "inference_mode",
    "is_grad_enabled",
    "matmul",
    "cat",
    "stack",
    "is_tensor",
    "randint",
    "linspace",
    "eye",
    "as_tensor",
    "isnan",
    "isinf",
    "isfinite",
    "randperm",
    "zeros_like",
    "ones_like",
    "empty_like",
    "full_like",
    "rand_like",
    "randn_like",
    "equal",
    "allclose",
    "where",
    "relu",
    "sigmoid",
    "tanh",
    "exp",
    "log",
    "sqrt",
    "abs",
    "sum",
    "mean",
    "std",
    "var",
    "flatten",
    "prod",
    "masked_fill",
    "gather",
    "index_select",
    "max",
    "maximum",
    "minimum",
    "min",
    "argmax",
    "softmax",
    "log_softmax",
    "clamp",
    "transpose",
    "permute",
    "unsqueeze",
    "squeeze",
    "reshape",
    "mm",
    "neg",
    "save",
    "load",
    "autocast",
    "Generator",
];

const CUDA_FUNCTIONS: &[&str] = &[
    "is_available",
    "device_count",
    "current_device",
    "set_device",
    "memory_allocated",
    "memory_reserved",
    "max_memory_allocated",
    "max_memory_reserved",
    "reset_peak_memory_stats",
    "memory_summary",
    "synchronize",
    "empty_cache",
    "get_device_name",
    "manual_seed",
    "manual_seed_all",
    "Event",
];

const INIT: &[&str] = &[
    "kaiming_uniform_",
    "kaiming_normal_",
    "xavier_uniform_",
    "xavier_normal_",
    "uniform_",
    "normal_",
    "constant_",
    "zeros_",
    "ones_",
    "calculate_gain",
];

/// `torch.nn.init`: fills a tensor (a Parameter) in place under no_grad and returns it.
fn init(name: &str, args: &Args) -> Result<Value> {
    use tolab_engine::nn::init as nn_init;
    let number = |i: usize, key: &str, default: f64| args.get(i, key).map_or(default, as_f64);
    if name == "calculate_gain" {
        let nonlinearity = args
            .get(0, "nonlinearity")
            .map(Value::str_text)
            .unwrap_or_default();
        let param = args
            .get(1, "param")
            .filter(|v| !matches!(v, Value::None))
            .map(as_f64);
        return Ok(Value::Float(nn_init::calculate_gain(&nonlinearity, param)?));
    }
    let target = args.get(0, "tensor").cloned().unwrap_or(Value::None);
    let tensor = match &*target.resolved() {
        Value::Tensor(t) => t.clone(),
        other => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!("{name}() expects a tensor, got {}", other.type_name()),
            ));
        }
    };
    let mode =
        || nn_init::FanMode::parse(&args.get(2, "mode").map_or("fan_in".into(), Value::str_text));
    let nonlinearity = || {
        args.get(3, "nonlinearity")
            .map_or("leaky_relu".into(), Value::str_text)
    };
    match name {
        "kaiming_uniform_" => {
            nn_init::kaiming_uniform_(&tensor, number(1, "a", 0.0), mode()?, &nonlinearity())?
        }
        "kaiming_normal_" => {
            nn_init::kaiming_normal_(&tensor, number(1, "a", 0.0), mode()?, &nonlinearity())?
        }
        "xavier_uniform_" => nn_init::xavier_uniform_(&tensor, number(1, "gain", 1.0))?,
        "xavier_normal_" => nn_init::xavier_normal_(&tensor, number(1, "gain", 1.0))?,
        "uniform_" => nn_init::uniform_(&tensor, number(1, "a", 0.0), number(2, "b", 1.0))?,
        "normal_" => nn_init::normal_(&tensor, number(1, "mean", 0.0), number(2, "std", 1.0))?,
        "constant_" => nn_init::constant_(&tensor, number(1, "val", 0.0))?,
        "zeros_" => nn_init::constant_(&tensor, 0.0)?,
        _ => nn_init::constant_(&tensor, 1.0)?,
    }
    Ok(target)
}

const FUNCTIONAL: &[&str] = &[
    "relu",
    "sigmoid",
    "tanh",
    "softmax",
    "log_softmax",
    "mse_loss",
    "cross_entropy",
    "nll_loss",
    "binary_cross_entropy_with_logits",
    "linear",
    "dropout",
    "conv2d",
    "embedding",
    "layer_norm",
];

/// A device argument: a string, a `torch.device`, or an index (a CUDA device).
pub fn device_of(v: &Value) -> Result<Device> {
    match v {
        Value::Device(d) => Ok(*d),
        Value::Str(s) => Ok(Device::parse(s)?),
        Value::Int(i) => Ok(Device::cuda(*i as i8)),
        other => Err(PyException::new(
            ExcType::TypeError,
            format!("expected a device, not '{}'", other.type_name()),
        )),
    }
}

/// A `dtype=` argument.
pub fn dtype_of(v: &Value) -> Result<DType> {
    match v {
        Value::DType(d) => Ok(*d),
        other => Err(PyException::new(
            ExcType::TypeError,
            format!("dtype must be a torch.dtype, not '{}'", other.type_name()),
        )),
    }
}

/// A size given as `*size` or as one tuple, list or `torch.Size`.
pub fn size_of(args: &[Value]) -> Result<Vec<i64>> {
    let items = match args {
        [one @ (Value::Tuple(_) | Value::List(_) | Value::Size(_))] => iterate(one)?,
        many => many.to_vec(),
    };
    items
        .iter()
        .map(|v| match v {
            Value::Int(i) => Ok(*i),
            other => Err(PyException::new(
                ExcType::TypeError,
                format!("size must contain ints, not {}", other.type_name()),
            )),
        })
        .collect()
}

/// Flattens nested lists of Python numbers for `torch.tensor`, with their shape.
fn nested(v: &Value, shape: &mut Vec<usize>, depth: usize, out: &mut Vec<Scalar>) -> Result<()> {
    match v {
        Value::Bool(b) => out.push(Scalar::Bool(*b)),
        Value::Int(i) => out.push(Scalar::Int(*i)),
        Value::Float(x) => out.push(Scalar::Float(*x)),
        Value::Tensor(t) if t.numel() == 1 => out.push(t.item()?),
        Value::List(_) | Value::Tuple(_) => {
            let items = iterate(v)?;
            if shape.len() == depth {
                shape.push(items.len());
            } else if shape[depth] != items.len() {
                return Err(PyException::new(
                    ExcType::ValueError,
                    format!(
                        "expected sequence of length {} at dim {depth} (got {})",
                        shape[depth],
                        items.len()
                    ),
                ));
            }
            for item in &items {
                nested(item, shape, depth + 1, out)?;
            }
        }
        other => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!("Could not infer dtype of {}", other.type_name()),
            ));
        }
    }
    Ok(())
}

/// `device=`, `dtype=` and `requires_grad=` of a factory call.
struct Factory {
    device: Device,
    dtype: Option<DType>,
    requires_grad: bool,
}

fn factory(args: &Args) -> Result<Factory> {
    Ok(Factory {
        device: args
            .keyword("device")
            .map(device_of)
            .transpose()?
            .unwrap_or(Device::CPU),
        dtype: args.keyword("dtype").map(dtype_of).transpose()?,
        requires_grad: args.keyword("requires_grad").is_some_and(Value::truthy),
    })
}

fn finish(t: Tensor, f: &Factory) -> Result<Value> {
    if f.requires_grad {
        t.set_requires_grad(true)?;
    }
    Ok(Value::Tensor(t))
}

fn tensor_arg(args: &Args, i: usize) -> Result<Tensor> {
    match args.positional.get(i).map(Value::resolved).as_deref() {
        Some(Value::Tensor(t)) => Ok(t.clone()),
        other => Err(PyException::new(
            ExcType::TypeError,
            format!(
                "expected Tensor as argument {}, but got {}",
                i + 1,
                other.map_or("nothing".into(), |v| v.type_name())
            ),
        )),
    }
}

/// The switches of `torch.backends` a learner may set, with their defaults. They are kept and read
/// back; the lab has no cuDNN or TF32 kernels for them to change.
const BACKEND_FLAGS: &[(&str, &str, bool)] = &[
    ("torch.backends.cudnn", "benchmark", false),
    ("torch.backends.cudnn", "deterministic", false),
    ("torch.backends.cudnn", "enabled", true),
    ("torch.backends.cudnn", "allow_tf32", true),
    ("torch.backends.cuda.matmul", "allow_tf32", false),
];

/// A backend switch's default value, if `module.name` is one.
pub fn backend_flag(module: &str, name: &str) -> Option<Value> {
    BACKEND_FLAGS
        .iter()
        .find(|(m, n, _)| *m == module && *n == name)
        .map(|(_, _, default)| Value::Bool(*default))
}

pub fn call(session: &Session, module: &str, name: &str, args: Args) -> Result<Value> {
    match module {
        // The lab simulates an MPS device beside the CUDA ones.
        "torch.backends.mps" => Ok(Value::Bool(true)),
        "torch.backends.cudnn" => Ok(Value::Bool(session.is_available())),
        "torch" => torch(session, name, args),
        "torch.cuda" => cuda(session, name, args),
        "torch.nn.functional" => super::objects::functional(name, &args),
        "torch.nn.init" => init(name, &args),
        "torch.optim" => super::objects::construct_optimizer(name, args),
        "copy" => super::copying::call(name, &args),
        _ => super::math::call(name, &args),
    }
}

/// `torch.name(...)`, for the bindings that build on it.
pub fn torch_function(session: &Session, name: &str, args: Args) -> Result<Value> {
    torch(session, name, args)
}

fn torch(session: &Session, name: &str, args: Args) -> Result<Value> {
    let f = factory(&args)?;
    let dtype = f.dtype.unwrap_or(DType::Float32);
    Ok(match name {
        "tensor" => {
            let data = args.positional.first().cloned().unwrap_or(Value::None);
            let (mut shape, mut values) = (Vec::new(), Vec::new());
            nested(&data, &mut shape, 0, &mut values)?;
            let t =
                Tensor::from_scalars(session, &values, &shape, f.dtype, f.device, f.requires_grad)?;
            Value::Tensor(t)
        }
        "zeros" | "ones" | "empty" => {
            let size = size_of(&args.positional)?;
            let t = match name {
                "ones" => Tensor::ones(session, &size, dtype, f.device)?,
                _ => Tensor::zeros(session, &size, dtype, f.device)?,
            };
            finish(t, &f)?
        }
        "full" => {
            let size = size_of(&args.positional[..1.min(args.positional.len())])?;
            let fill = args.get(1, "fill_value").cloned().unwrap_or(Value::Int(0));
            let value = match fill {
                Value::Float(x) => Scalar::Float(x),
                Value::Bool(b) => Scalar::Bool(b),
                other => Scalar::Int(as_f64(&other) as i64),
            };
            let shape: Vec<usize> = size.iter().map(|&s| s.max(0) as usize).collect();
            let inferred = f.dtype.unwrap_or(match value {
                Scalar::Float(_) => DType::Float32,
                Scalar::Bool(_) => DType::Bool,
                Scalar::Int(_) => DType::Int64,
            });
            finish(
                Tensor::full(session, &shape, value, inferred, f.device)?,
                &f,
            )?
        }
        "linspace" => {
            let number = |i: usize, key: &str| args.get(i, key).map(as_f64);
            let (Some(start), Some(end), Some(steps)) =
                (number(0, "start"), number(1, "end"), number(2, "steps"))
            else {
                return Err(PyException::new(
                    ExcType::TypeError,
                    "linspace() missing required arguments: start, end, steps",
                ));
            };
            finish(
                Tensor::linspace(session, start, end, steps as i64, dtype, f.device)?,
                &f,
            )?
        }
        "eye" => {
            let n = args.get(0, "n").map_or(0.0, as_f64) as i64;
            let m = args.get(1, "m").map(|v| as_f64(v) as i64);
            finish(Tensor::eye(session, n, m, dtype, f.device)?, &f)?
        }
        // A tensor stays itself where it can (same dtype and device); anything else is copied.
        "as_tensor" => match args.positional.first().map(Value::resolved).as_deref() {
            Some(Value::Tensor(t)) => Value::Tensor(
                t.to(tolab_engine::To {
                    device: args
                        .keyword("device")
                        .map(device_of)
                        .transpose()?
                        .map(tolab_engine::transfer::Target::Device),
                    dtype: f.dtype,
                    ..tolab_engine::To::default()
                })?,
            ),
            _ => torch(session, "tensor", args)?,
        },
        "isnan" | "isinf" | "isfinite" => {
            let t = tensor_arg(&args, 0)?;
            let nan = t.compare(tolab_engine::backend::cpu::elementwise::Binary::Ne, &t)?;
            let infinite = t.abs()?.compare(
                tolab_engine::backend::cpu::elementwise::Binary::Eq,
                Scalar::Float(f64::INFINITY),
            )?;
            Value::Tensor(match name {
                "isnan" => nan,
                "isinf" => infinite,
                // x - x is 0 exactly for finite x, NaN for infinities and NaN.
                _ => session.no_grad(|| t.sub(&t))?.compare(
                    tolab_engine::backend::cpu::elementwise::Binary::Eq,
                    Scalar::Int(0),
                )?,
            })
        }
        "rand" | "randn" => {
            let size: Vec<usize> = size_of(&args.positional)?
                .iter()
                .map(|&s| s.max(0) as usize)
                .collect();
            let t = if name == "rand" {
                Tensor::rand(session, &size, dtype, f.device)?
            } else {
                Tensor::normal(session, &size, dtype, f.device, 0.0, 1.0)?
            };
            finish(t, &f)?
        }
        "arange" => {
            let numbers: Vec<Scalar> = args
                .positional
                .iter()
                .map(|v| match v {
                    Value::Float(x) => Scalar::Float(*x),
                    other => Scalar::Int(as_f64(other) as i64),
                })
                .collect();
            let (start, end, step) = match numbers.as_slice() {
                [end] => (Scalar::Int(0), *end, Scalar::Int(1)),
                [start, end] => (*start, *end, Scalar::Int(1)),
                [start, end, step, ..] => (*start, *end, *step),
                [] => {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        "arange() missing 'end'",
                    ));
                }
            };
            finish(
                Tensor::arange(session, start, end, step, f.dtype, f.device)?,
                &f,
            )?
        }
        "manual_seed" => {
            let seed = args.positional.first().map_or(0.0, as_f64) as u64;
            session.manual_seed(seed);
            Value::None
        }
        "device" => match args.positional.as_slice() {
            [Value::Str(s)] => Value::Device(Device::parse(s)?),
            [Value::Str(s), Value::Int(i)] => Value::Device(Device::with_index(s, Some(*i))?),
            [Value::Device(d)] => Value::Device(*d),
            _ => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    "device() expects a string",
                ));
            }
        },
        "no_grad" => Value::GradMode(false),
        "enable_grad" => Value::GradMode(true),
        // Gradients off, as in `no_grad` (the lab does not mark inference tensors: see README).
        "inference_mode" => Value::GradMode(!args.get(0, "mode").is_none_or(Value::truthy)),
        "is_grad_enabled" => Value::Bool(session.is_grad_enabled()),
        "matmul" => Value::Tensor(tensor_arg(&args, 0)?.matmul(&tensor_arg(&args, 1)?)?),
        "cat" | "stack" => {
            let tensors: Vec<Tensor> = iterate(args.positional.first().unwrap_or(&Value::None))?
                .into_iter()
                .map(|v| match &v {
                    Value::Tensor(t) => Ok(t.clone()),
                    other => Err(PyException::new(
                        ExcType::TypeError,
                        format!(
                            "expected a sequence of Tensors, found {}",
                            other.type_name()
                        ),
                    )),
                })
                .collect::<Result<_>>()?;
            let refs: Vec<&Tensor> = tensors.iter().collect();
            let dim = args.get(1, "dim").map_or(0.0, as_f64) as i64;
            Value::Tensor(if name == "cat" {
                Tensor::cat(&refs, dim)?
            } else {
                Tensor::stack(&refs, dim)?
            })
        }
        "is_tensor" => Value::Bool(matches!(args.positional.first(), Some(Value::Tensor(_)))),
        "randint" => {
            let ints: Vec<i64> = args
                .positional
                .iter()
                .take_while(|v| matches!(v, Value::Int(_)))
                .map(|v| as_f64(v) as i64)
                .collect();
            let (low, high) = match ints.as_slice() {
                [high] => (0, *high),
                [low, high, ..] => (*low, *high),
                [] => (0, 0),
            };
            let size = args
                .positional
                .get(ints.len())
                .or_else(|| args.keyword("size"))
                .map(|v| size_of(std::slice::from_ref(v)))
                .transpose()?
                .unwrap_or_default();
            let size: Vec<usize> = size.iter().map(|&s| s.max(0) as usize).collect();
            let dtype = f.dtype.unwrap_or(DType::Int64);
            finish(
                Tensor::randint(session, low, high, &size, dtype, f.device)?,
                &f,
            )?
        }
        "randperm" => {
            let n = args.positional.first().map_or(0.0, as_f64).max(0.0) as usize;
            let dtype = f.dtype.unwrap_or(DType::Int64);
            finish(Tensor::randperm(session, n, dtype, f.device)?, &f)?
        }
        "zeros_like" | "ones_like" | "empty_like" | "full_like" | "rand_like" | "randn_like" => {
            let like = tensor_arg(&args, 0)?;
            let dtype = f.dtype.unwrap_or(like.dtype());
            let device = args
                .keyword("device")
                .map_or(Ok(like.device()), device_of)?;
            let shape: Vec<i64> = like.shape().iter().map(|&d| d as i64).collect();
            let t = match name {
                "ones_like" => Tensor::ones(session, &shape, dtype, device)?,
                "full_like" => {
                    let fill = args.get(1, "fill_value").and_then(scalar).ok_or_else(|| {
                        PyException::new(
                            ExcType::TypeError,
                            "full_like(): fill_value must be a number",
                        )
                    })?;
                    Tensor::full(session, like.shape(), fill, dtype, device)?
                }
                "rand_like" => Tensor::rand(session, like.shape(), dtype, device)?,
                "randn_like" => Tensor::normal(session, like.shape(), dtype, device, 0.0, 1.0)?,
                _ => Tensor::zeros(session, &shape, dtype, device)?,
            };
            finish(t, &f)?
        }
        "equal" => Value::Bool(tensor_arg(&args, 0)?.equal(&tensor_arg(&args, 1)?)?),
        "allclose" => {
            let rtol = args.get(2, "rtol").map_or(1e-5, as_f64);
            let atol = args.get(3, "atol").map_or(1e-8, as_f64);
            Value::Bool(tensor_arg(&args, 0)?.allclose(&tensor_arg(&args, 1)?, rtol, atol)?)
        }
        "where" => Value::Tensor(Tensor::where_(
            &tensor_arg(&args, 0)?,
            &tensor_arg(&args, 1)?,
            &tensor_arg(&args, 2)?,
        )?),
        // `torch.relu(x)`, `torch.sum(x, dim=0)`, …: the tensor method of the same name.
        other
            if super::attributes::is_tensor_method(other)
                && matches!(
                    args.positional.first().map(Value::resolved).as_deref(),
                    Some(Value::Tensor(_))
                ) =>
        {
            let mut positional = args.positional.into_iter();
            let first = positional.next().unwrap_or(Value::None);
            let rest = Args {
                positional: positional.collect(),
                keywords: args.keywords,
            };
            super::attributes::call_method(&first, other, rest)?
        }
        other => {
            return Err(PyException::new(
                ExcType::AttributeError,
                format!("module 'torch' has no attribute '{other}'"),
            ));
        }
    })
}

fn cuda(session: &Session, name: &str, args: Args) -> Result<Value> {
    let device = || -> Result<Device> {
        match args.positional.first() {
            Some(v) => device_of(v),
            None => Ok(Device::cuda(session.current_device()? as i8)),
        }
    };
    Ok(match name {
        "is_available" => Value::Bool(session.is_available()),
        "device_count" => Value::Int(session.device_count() as i64),
        "current_device" => Value::Int(session.current_device()? as i64),
        "set_device" => {
            let d = device()?;
            session.set_device(d.index.unwrap_or(0) as usize)?;
            Value::None
        }
        "memory_allocated" => {
            Value::Int(session.memory_stats(session.resolve(device()?)?).allocated as i64)
        }
        "memory_reserved" => {
            Value::Int(session.memory_stats(session.resolve(device()?)?).reserved as i64)
        }
        "max_memory_allocated" => Value::Int(
            session
                .memory_stats(session.resolve(device()?)?)
                .max_allocated as i64,
        ),
        "max_memory_reserved" => Value::Int(
            session
                .memory_stats(session.resolve(device()?)?)
                .max_reserved as i64,
        ),
        "reset_peak_memory_stats" => {
            session.reset_peak_memory_stats(session.resolve(device()?)?);
            Value::None
        }
        "memory_summary" => Value::str(&session.memory_summary(session.resolve(device()?)?)),
        // The lab's GPUs are simulated; the name says so rather than borrowing a real card's.
        "get_device_name" => {
            let index = session.resolve(device()?)?.index.unwrap_or(0);
            if !session.is_available() {
                return Err(tolab_engine::Error::NoCudaGpus.into());
            }
            Value::str(&format!("to(device) lab simulated GPU {index}"))
        }
        // CUDA's generators are seeded with the CPU's by `torch.manual_seed`; these seed them alone.
        "manual_seed" | "manual_seed_all" => {
            session.manual_seed(args.positional.first().map_or(0.0, as_f64) as u64);
            Value::None
        }
        "Event" => Value::CudaEvent(Rc::new(CudaEvent {
            session: session.clone(),
            timing: args.keyword("enable_timing").is_some_and(Value::truthy),
            recorded: std::cell::RefCell::new(None),
        })),
        "synchronize" => {
            session.synchronize(args.positional.first().map(|v| as_f64(v) as usize))?;
            Value::None
        }
        "empty_cache" => {
            session.empty_cache(Device::cuda(session.current_device()? as i8));
            Value::None
        }
        other => {
            return Err(PyException::new(
                ExcType::AttributeError,
                format!("module 'torch.cuda' has no attribute '{other}'"),
            ));
        }
    })
}
