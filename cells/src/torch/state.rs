//! The torch functions about the notebook's state rather than one tensor: grad mode
//! (`no_grad`, `enable_grad`, `inference_mode`, `is_grad_enabled`), `manual_seed` (the
//! generators' other functions are in `random.rs`),
//! `is_tensor`, and what the lab's machine has (`torch.backends`).

use tolab_engine::Session;

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
    ("torch.backends.mps.is_available", Handler::Engine(backend)),
    ("torch.backends.mps.is_built", Handler::Engine(backend)),
    (
        "torch.backends.cudnn.is_available",
        Handler::Engine(backend),
    ),
];

/// `torch.get_default_dtype()`: the dtype of floats made without one. The lab has no
/// `set_default_dtype` yet, so it is always float32.
fn default_dtype(call: &Call, _: &Session) -> Result<Value> {
    call.finish()?;
    Ok(Value::DType(tolab_engine::DType::Float32))
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
