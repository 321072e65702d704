//! `torch.autocast` (also as `torch.amp.autocast` and the older `torch.cuda.amp.autocast`), a
//! context manager applied by `with`, and `GradScaler` with its methods.

use std::rc::Rc;

use tolab_engine::amp::GradScaler;
use tolab_engine::{DType, Session};

use super::ops::not_yet;
use super::parse::dtype_of;
use super::{Call, Handler};
use crate::python::exception::{ExcType, PyException};
use crate::python::value::{AutocastRequest, Value};

type Result<T> = std::result::Result<T, PyException>;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("torch.autocast", Handler::Engine(autocast)),
    ("torch.amp.autocast", Handler::Engine(autocast)),
    ("torch.cuda.amp.autocast", Handler::Engine(autocast)),
    ("torch.amp.GradScaler", Handler::Engine(grad_scaler)),
    ("torch.cuda.amp.GradScaler", Handler::Engine(grad_scaler)),
    ("torch.amp.GradScaler.scale", Handler::Engine(scaler_method)),
    ("torch.amp.GradScaler.step", Handler::Engine(scaler_method)),
    (
        "torch.amp.GradScaler.update",
        Handler::Engine(scaler_method),
    ),
    (
        "torch.amp.GradScaler.unscale_",
        Handler::Engine(scaler_method),
    ),
    (
        "torch.amp.GradScaler.get_scale",
        Handler::Engine(scaler_method),
    ),
    (
        "torch.amp.GradScaler.is_enabled",
        Handler::Engine(scaler_method),
    ),
];

/// `autocast(device_type, dtype=None, enabled=True, cache_enabled=None)`; the
/// `torch.cuda.amp` form has its device type fixed and float16 by default.
fn autocast(call: &Call, _: &Session) -> Result<Value> {
    let cuda_form = call.binding.namespace() == "torch.cuda.amp";
    let device_type = if cuda_form {
        "cuda".to_owned()
    } else {
        match call.value("device_type")?.as_ref() {
            Some(Value::Str(s)) => s.to_string(),
            other => {
                return Err(PyException::new(
                    ExcType::ValueError,
                    format!(
                        "Expected `device_type` of type `str`, got: `{}`",
                        other.map_or("NoneType".into(), |v| format!(
                            "<class '{}'>",
                            v.type_name()
                        ))
                    ),
                ));
            }
        }
    };
    let dtype = match call.value("dtype")? {
        None if cuda_form => Some(DType::Float16),
        None | Some(Value::None) => None,
        Some(v) => Some(dtype_of(&v).ok_or_else(|| {
            PyException::new(
                ExcType::TypeError,
                format!("dtype must be a torch.dtype, not {}", v.type_name()),
            )
        })?),
    };
    let enabled = call.truthy("enabled")?;
    // The lab casts a weight again for each op (see README): the cache changes no values.
    let _cache_enabled = call.value("cache_enabled")?;
    call.finish()?;
    Ok(Value::Autocast(Rc::new(AutocastRequest {
        device_type,
        dtype,
        enabled,
    })))
}

/// `GradScaler(device='cuda', init_scale=2.**16, growth_factor=2.0, backoff_factor=0.5,
/// growth_interval=2000, enabled=True)`.
fn grad_scaler(call: &Call, session: &Session) -> Result<Value> {
    let device = if call.binding.namespace() == "torch.cuda.amp" {
        "cuda".to_owned()
    } else {
        call.string_value("device")?
    };
    let init_scale = call.number_value("init_scale")?;
    if call.number_value("growth_factor")? != 2.0 || call.number_value("backoff_factor")? != 0.5 {
        return Err(not_yet(
            "GradScaler(growth_factor=, backoff_factor=) other than 2.0 and 0.5",
        ));
    }
    let growth_interval = match call.value("growth_interval")? {
        Some(Value::Int(n)) => u64::try_from(n).map_err(|_| {
            PyException::new(
                ExcType::ValueError,
                "growth_interval must be a positive int",
            )
        })?,
        other => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "growth_interval must be an int, not {}",
                    other.map_or("NoneType".into(), |v| v.type_name())
                ),
            ));
        }
    };
    let enabled = call.truthy("enabled")?;
    call.finish()?;
    Ok(Value::GradScaler(Rc::new(GradScaler::new(
        session,
        &device,
        enabled,
        Some(init_scale),
        Some(growth_interval),
    )?)))
}

fn scaler_method(call: &Call, _: &Session) -> Result<Value> {
    let Some(Value::GradScaler(scaler)) = call.receiver() else {
        return Err(PyException::new(
            ExcType::TypeError,
            "a GradScaler method needs a GradScaler",
        ));
    };
    let optimizer = |name: &str| match call.value(name)?.as_ref() {
        Some(Value::Optimizer(o)) => Ok(o.clone()),
        other => Err(PyException::new(
            ExcType::TypeError,
            format!(
                "GradScaler.{}() expects an optimizer, got {}",
                call.binding.name(),
                other.map_or("nothing".into(), |v| v.type_name())
            ),
        )),
    };
    Ok(match call.binding.name() {
        "scale" => match call
            .value("outputs")?
            .as_ref()
            .map(Value::resolved)
            .as_deref()
        {
            Some(Value::Tensor(t)) => {
                call.finish()?;
                Value::Tensor(scaler.scale(t)?)
            }
            _ => return Err(not_yet("GradScaler.scale() of anything but one tensor")),
        },
        "step" => {
            let optimizer = optimizer("optimizer")?;
            if !call.rest().is_empty() || !call.extra_keywords().is_empty() {
                return Err(not_yet(
                    "GradScaler.step() with arguments for the optimizer's step",
                ));
            }
            call.finish()?;
            scaler.step(&optimizer)?;
            Value::None
        }
        "unscale_" => {
            let optimizer = optimizer("optimizer")?;
            call.finish()?;
            scaler.unscale_(&optimizer)?;
            Value::None
        }
        "update" => {
            if !matches!(call.value("new_scale")?, None | Some(Value::None)) {
                return Err(not_yet("GradScaler.update(new_scale)"));
            }
            call.finish()?;
            scaler.update()?;
            Value::None
        }
        "is_enabled" => Value::Bool(scaler.is_enabled()),
        _ => Value::Float(scaler.get_scale()?),
    })
}
