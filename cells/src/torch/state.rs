//! The torch functions about the notebook's state rather than one tensor: grad mode
//! (`no_grad`, `enable_grad`, `inference_mode`, `is_grad_enabled`), `manual_seed` (the
//! generators' other functions are in `random.rs`), the defaults (`set_default_dtype`,
//! `set_default_device`, `set_printoptions`), `is_tensor`, and what the lab's machine has
//! (`torch.backends`).

use tolab_engine::repr::PrintOptions;
use tolab_engine::{Device, DeviceType, Session};

use super::{Call, Handler};
use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("torch.no_grad", Handler::Engine(grad_mode)),
    ("torch.enable_grad", Handler::Engine(grad_mode)),
    ("torch.inference_mode", Handler::Engine(grad_mode)),
    ("torch.is_grad_enabled", Handler::Engine(is_grad_enabled)),
    ("torch.manual_seed", Handler::Engine(manual_seed)),
    ("torch.is_tensor", Handler::Engine(is_tensor)),
    ("torch.get_default_dtype", Handler::Engine(default_dtype)),
    (
        "torch.set_default_dtype",
        Handler::Engine(set_default_dtype),
    ),
    ("torch.get_default_device", Handler::Engine(default_device)),
    (
        "torch.set_default_device",
        Handler::Engine(set_default_device),
    ),
    ("torch.set_printoptions", Handler::Engine(set_printoptions)),
    ("torch.backends.mps.is_available", Handler::Engine(backend)),
    ("torch.backends.mps.is_built", Handler::Engine(backend)),
    (
        "torch.backends.cudnn.is_available",
        Handler::Engine(backend),
    ),
];

/// `torch.get_default_dtype()`: the dtype of floats made without one.
fn default_dtype(call: &Call, session: &Session) -> Result<Value> {
    call.finish()?;
    Ok(Value::DType(session.default_dtype()))
}

/// `torch.set_default_dtype(d)`: floating dtypes only (`py_set_default_dtype`'s checks).
fn set_default_dtype(call: &Call, session: &Session) -> Result<Value> {
    match call.value("d")? {
        Some(Value::DType(d)) => session.set_default_dtype(d)?,
        _ => {
            return Err(PyException::new(
                ExcType::TypeError,
                "invalid dtype object: only floating-point types are supported as the default type",
            ));
        }
    }
    Ok(Value::None)
}

/// `torch.get_default_device()`: the CPU unless `set_default_device` named a device; a CUDA
/// device named without an index is the current one (PyTorch makes an empty tensor to see).
fn default_device(call: &Call, session: &Session) -> Result<Value> {
    call.finish()?;
    Ok(Value::Device(match session.default_device() {
        None => Device::CPU,
        Some(d) if d.kind == DeviceType::Cuda && d.index.is_none() => session.resolve(d)?,
        Some(d) => d,
    }))
}

/// `torch.set_default_device(device)`: where the factories (`torch.zeros`, `torch.tensor`,
/// the layers' parameters, …) put tensors when `device=` is not given. The device is read as
/// `torch.device(device)` reads it; `None` goes back to the CPU.
fn set_default_device(call: &Call, session: &Session) -> Result<Value> {
    let device = match call.value("device")? {
        None | Some(Value::None) => None,
        Some(v) => {
            let binding = super::signature::binding("torch", "device")
                .expect("torch.device is in the signature table");
            let args = crate::python::args::Args::positional(vec![v]);
            let parsed = super::parse::parse(binding, None, &args)?;
            match super::factories::device(&parsed, session)? {
                Value::Device(d) => Some(d),
                _ => None,
            }
        }
    };
    session.set_default_device(device);
    Ok(Value::None)
}

/// `torch.set_printoptions(precision, threshold, edgeitems, linewidth, profile, sci_mode)`:
/// a profile first ("default", "short", "full"; PyTorch ignores any other name), then the
/// options given; `sci_mode` is always set, to `None` when not given.
fn set_printoptions(call: &Call, session: &Session) -> Result<Value> {
    let mut options = session.print_options();
    if let Some(Value::Str(profile)) = call.value("profile")?.as_ref()
        && let Some(named) = PrintOptions::profile(profile)
    {
        options = named;
    }
    let count = |name: &str| -> Result<Option<i64>> {
        match call.value(name)? {
            None | Some(Value::None) => Ok(None),
            Some(Value::Int(i)) => Ok(Some(i)),
            Some(Value::Bool(b)) => Ok(Some(i64::from(b))),
            Some(other) => Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "set_printoptions(): {name} must be an int, not {}",
                    other.type_name()
                ),
            )),
        }
    };
    let non_negative = |name: &str, value: i64| -> Result<usize> {
        usize::try_from(value).map_err(|_| {
            PyException::new(
                ExcType::ValueError,
                format!("set_printoptions(): {name} must not be negative, got {value}"),
            )
        })
    };
    if let Some(p) = count("precision")? {
        options.precision = non_negative("precision", p)?;
    }
    if let Some(e) = count("edgeitems")? {
        options.edgeitems = non_negative("edgeitems", e)?;
    }
    // A line narrower than nothing prints as one of no width does: an element a line.
    if let Some(w) = count("linewidth")? {
        options.linewidth = usize::try_from(w).unwrap_or(0);
    }
    match call.value("threshold")? {
        None | Some(Value::None) => {}
        Some(Value::Int(i)) => options.threshold = i as f64,
        Some(Value::Float(x)) => options.threshold = x,
        Some(other) => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "set_printoptions(): threshold must be a number, not {}",
                    other.type_name()
                ),
            ));
        }
    }
    options.sci_mode = match call.value("sci_mode")? {
        None | Some(Value::None) => None,
        Some(v) => Some(v.truthy()),
    };
    session.set_print_options(options);
    Ok(Value::None)
}

/// `torch.no_grad()` and `torch.enable_grad()` (also used bare as decorators: `@torch.no_grad`),
/// and `torch.inference_mode(mode=True)`, which turns gradients off as `no_grad` does (the lab
/// does not mark inference tensors: see README).
fn grad_mode(call: &Call, _: &Session) -> Result<Value> {
    let mode = match call.binding.name() {
        "inference_mode" => !call.truthy("mode")?,
        name => name == "enable_grad",
    };
    let function = match call.signature().position("orig_func") {
        Some(_) => call.value("orig_func")?,
        None => None,
    };
    match function {
        None | Some(Value::None) => Ok(Value::GradMode(mode)),
        // `torch.no_grad(f)`: the decorator applied at once.
        Some(function) => Ok(Value::Wrapped(std::rc::Rc::new(
            crate::python::value::Wrapped::GradMode(mode, function),
        ))),
    }
}

fn is_grad_enabled(_: &Call, session: &Session) -> Result<Value> {
    Ok(Value::Bool(session.is_grad_enabled()))
}

/// A seed as PyTorch takes it: an int (negative ones wrap to 64 bits, as PyTorch's do).
pub fn seed(call: &Call) -> Result<u64> {
    let name = if call.signature().position("seed").is_some() {
        "seed"
    } else {
        "arg"
    };
    match call.value(name)? {
        Some(Value::Int(i)) => Ok(i as u64),
        Some(Value::Bool(b)) => Ok(u64::from(b)),
        // Up to 2**64 - 1, as PyTorch unpacks a seed (`THPUtils_unpackUInt64`).
        Some(Value::BigInt(ref n)) => {
            num_traits::ToPrimitive::to_u64(&**n).ok_or_else(super::parse::overflow_long_long)
        }
        other => Err(PyException::new(
            ExcType::TypeError,
            format!(
                "manual_seed expected a long, but got {}",
                other.map_or("NoneType".into(), |v| v.type_name())
            ),
        )),
    }
}

fn manual_seed(call: &Call, session: &Session) -> Result<Value> {
    let seed = seed(call)?;
    call.finish()?;
    session.manual_seed(seed);
    Ok(Value::Generator(
        tolab_engine::random::GeneratorHandle::Default,
    ))
}

fn is_tensor(call: &Call, _: &Session) -> Result<Value> {
    Ok(Value::Bool(matches!(
        call.value("obj")?,
        Some(Value::Tensor(_) | Value::Parameter(_))
    )))
}

/// The lab simulates an MPS device beside the CUDA ones; cuDNN is there when GPUs are.
fn backend(call: &Call, session: &Session) -> Result<Value> {
    Ok(Value::Bool(match call.binding.namespace() {
        "torch.backends.cudnn" => session.is_available(),
        _ => true,
    }))
}
