//! `torch.nn.init`: fills a tensor (a Parameter) in place under `no_grad` and returns it.

use tolab_engine::nn::init as nn_init;
use tolab_engine::{Session, Tensor};

use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;
use crate::torch::ops::not_yet;
use crate::torch::{Call, Handler};

type Result<T> = std::result::Result<T, PyException>;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("torch.nn.init.kaiming_uniform_", Handler::Engine(init)),
    ("torch.nn.init.kaiming_normal_", Handler::Engine(init)),
    ("torch.nn.init.xavier_uniform_", Handler::Engine(init)),
    ("torch.nn.init.xavier_normal_", Handler::Engine(init)),
    ("torch.nn.init.uniform_", Handler::Engine(init)),
    ("torch.nn.init.normal_", Handler::Engine(init)),
    ("torch.nn.init.constant_", Handler::Engine(init)),
    ("torch.nn.init.zeros_", Handler::Engine(init)),
    ("torch.nn.init.ones_", Handler::Engine(init)),
    (
        "torch.nn.init.calculate_gain",
        Handler::Engine(calculate_gain),
    ),
];

fn calculate_gain(call: &Call, _: &Session) -> Result<Value> {
    let nonlinearity = call.string_value("nonlinearity")?;
    let param = match call.value("param")? {
        None | Some(Value::None) => None,
        Some(_) => Some(call.number_value("param")?),
    };
    call.finish()?;
    Ok(Value::Float(nn_init::calculate_gain(&nonlinearity, param)?))
}

fn init(call: &Call, _: &Session) -> Result<Value> {
    let name = call.binding.name();
    let target = call.value("tensor")?.unwrap_or(Value::None);
    let tensor: Tensor = match &*target.resolved() {
        Value::Tensor(t) => t.clone(),
        other => {
            return Err(PyException::new(
                ExcType::AttributeError,
                format!("'{}' object has no attribute 'dim'", other.type_name()),
            ));
        }
    };
    if call.signature().position("generator").is_some()
        && !matches!(call.value("generator")?, None | Some(Value::None))
    {
        return Err(not_yet(&format!("nn.init.{name}(generator=...)")));
    }
    let text = |key: &str| call.string_value(key);
    match name {
        "kaiming_uniform_" | "kaiming_normal_" => {
            let (a, mode, nonlinearity) = (
                call.number_value("a")?,
                text("mode")?,
                text("nonlinearity")?,
            );
            call.finish()?;
            let mode = nn_init::FanMode::parse(&mode)?;
            if name == "kaiming_uniform_" {
                nn_init::kaiming_uniform_(&tensor, a, mode, &nonlinearity)?
            } else {
                nn_init::kaiming_normal_(&tensor, a, mode, &nonlinearity)?
            }
        }
        "xavier_uniform_" | "xavier_normal_" => {
            let gain = call.number_value("gain")?;
            call.finish()?;
            if name == "xavier_uniform_" {
                nn_init::xavier_uniform_(&tensor, gain)?
            } else {
                nn_init::xavier_normal_(&tensor, gain)?
            }
        }
        "uniform_" => {
            let (a, b) = (call.number_value("a")?, call.number_value("b")?);
            call.finish()?;
            nn_init::uniform_(&tensor, a, b)?
        }
        "normal_" => {
            let (mean, std) = (call.number_value("mean")?, call.number_value("std")?);
            call.finish()?;
            nn_init::normal_(&tensor, mean, std)?
        }
        "constant_" => {
            let val = call.number_value("val")?;
            call.finish()?;
            nn_init::constant_(&tensor, val)?
        }
        "zeros_" => nn_init::constant_(&tensor, 0.0)?,
        _ => nn_init::constant_(&tensor, 1.0)?,
    }
    Ok(target)
}
