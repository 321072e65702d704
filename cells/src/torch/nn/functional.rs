//! `torch.nn.functional`: activations, losses and the layers' functional forms, with PyTorch's
//! signatures (most are Python functions in PyTorch; `linear` and `conv2d` are its parser's).

use tolab_engine::nn::functional as f;
use tolab_engine::nn::functional::{Padding, Reduction};
use tolab_engine::{Session, Tensor};

use crate::python::exception::{ExcType, PyException};
use crate::python::operators::iterate;
use crate::python::value::Value;
use crate::torch::ops::not_yet;
use crate::torch::parse::tp_name;
use crate::torch::{Call, Handler};

type Result<T> = std::result::Result<T, PyException>;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("torch.nn.functional.relu", Handler::Engine(activation)),
    ("torch.nn.functional.sigmoid", Handler::Engine(activation)),
    ("torch.nn.functional.tanh", Handler::Engine(activation)),
    ("torch.nn.functional.softmax", Handler::Engine(softmax)),
    ("torch.nn.functional.log_softmax", Handler::Engine(softmax)),
    ("torch.nn.functional.mse_loss", Handler::Engine(loss)),
    ("torch.nn.functional.cross_entropy", Handler::Engine(loss)),
    ("torch.nn.functional.nll_loss", Handler::Engine(loss)),
    (
        "torch.nn.functional.binary_cross_entropy_with_logits",
        Handler::Engine(loss),
    ),
    ("torch.nn.functional.linear", Handler::Engine(linear)),
    ("torch.nn.functional.dropout", Handler::Engine(dropout)),
    ("torch.nn.functional.conv2d", Handler::Engine(conv2d)),
    ("torch.nn.functional.embedding", Handler::Engine(embedding)),
    (
        "torch.nn.functional.layer_norm",
        Handler::Engine(layer_norm),
    ),
];

/// A tensor argument of a Python-level function, refused as the native op inside it refuses it
/// (`relu(): argument 'input' (position 1) must be Tensor, not str`).
fn tensor(call: &Call, name: &str, position: usize) -> Result<Tensor> {
    match call.value(name)?.as_ref().map(Value::resolved).as_deref() {
        Some(Value::Tensor(t)) => Ok(t.clone()),
        other => Err(PyException::new(
            ExcType::TypeError,
            format!(
                "{}(): argument '{name}' (position {position}) must be Tensor, not {}",
                call.binding.name(),
                other.map_or("NoneType".into(), tp_name)
            ),
        )),
    }
}

fn optional_tensor(call: &Call, name: &str) -> Result<Option<Tensor>> {
    match call.value(name)?.as_ref().map(Value::resolved).as_deref() {
        None | Some(Value::None) => Ok(None),
        Some(Value::Tensor(t)) => Ok(Some(t.clone())),
        Some(other) => Err(PyException::new(
            ExcType::TypeError,
            format!(
                "{}(): argument '{name}' must be Tensor, not {}",
                call.binding.name(),
                tp_name(other)
            ),
        )),
    }
}

fn activation(call: &Call, _: &Session) -> Result<Value> {
    let input = tensor(call, "input", 1)?;
    if call.signature().position("inplace").is_some() && call.truthy("inplace")? {
        return Err(not_yet("F.relu(inplace=True)"));
    }
    call.finish()?;
    Ok(Value::Tensor(match call.binding.name() {
        "relu" => input.relu()?,
        "sigmoid" => input.sigmoid()?,
        _ => input.tanh()?,
    }))
}

/// `F.softmax(input, dim=None)`: without `dim`, PyTorch picks one (and warns).
fn softmax(call: &Call, session: &Session) -> Result<Value> {
    let input = tensor(call, "input", 1)?;
    let dim = match call.value("dim")? {
        None | Some(Value::None) => {
            let name = call.binding.name();
            session.warn(&format!(
                "Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X as an argument."
            ));
            // `_get_softmax_dim`: 0 for 0-, 1- and 3-dimensional inputs, else 1.
            if matches!(input.dim(), 0 | 1 | 3) {
                0
            } else {
                1
            }
        }
        Some(Value::Int(d)) => d,
        Some(other) => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "{}(): argument 'dim' (position 2) must be int, not {}",
                    call.binding.name(),
                    tp_name(&other)
                ),
            ));
        }
    };
    if !matches!(call.value("dtype")?, None | Some(Value::None)) {
        return Err(not_yet(&format!("F.{}(dtype=...)", call.binding.name())));
    }
    let _stacklevel = call.value("_stacklevel")?;
    call.finish()?;
    Ok(Value::Tensor(if call.binding.name() == "softmax" {
        input.softmax(dim)?
    } else {
        input.log_softmax(dim)?
    }))
}

/// `reduction=` of a loss (its class or its function): `'mean'`, `'sum'` or `'none'`; the
/// deprecated `size_average=` and `reduce=` are refused.
pub fn reduction(call: &Call) -> Result<Reduction> {
    for deprecated in ["size_average", "reduce"] {
        if !matches!(call.value(deprecated)?, None | Some(Value::None)) {
            return Err(not_yet(
                "the deprecated size_average= and reduce= (use reduction=)",
            ));
        }
    }
    let name = call.string_value("reduction")?;
    Reduction::from_name(&name).ok_or_else(|| {
        PyException::new(
            ExcType::ValueError,
            format!("{name} is not a valid value for reduction"),
        )
    })
}

fn loss(call: &Call, _: &Session) -> Result<Value> {
    let name = call.binding.name();
    let input = tensor(call, "input", 1)?;
    let target = tensor(call, "target", 2)?;
    let reduce = reduction(call)?;
    for refused in ["weight", "pos_weight"] {
        if call.signature().position(refused).is_some() && optional_tensor(call, refused)?.is_some()
        {
            return Err(not_yet(&format!("F.{name}({refused}=...)")));
        }
    }
    let ignore_index = match call.signature().position("ignore_index") {
        Some(_) => match call.value("ignore_index")? {
            Some(Value::Int(i)) => i,
            _ => -100,
        },
        None => -100,
    };
    if name == "cross_entropy" {
        let smoothing = match call.value("label_smoothing")? {
            Some(Value::Float(x)) => x,
            Some(Value::Int(i)) => i as f64,
            _ => 0.0,
        };
        if smoothing != 0.0 {
            return Err(not_yet("F.cross_entropy(label_smoothing=...)"));
        }
    }
    call.finish()?;
    Ok(Value::Tensor(match name {
        "mse_loss" => f::mse_loss(&input, &target, reduce)?,
        "cross_entropy" => f::cross_entropy(&input, &target, reduce, ignore_index)?,
        "nll_loss" => f::nll_loss(&input, &target, reduce, ignore_index)?,
        _ => f::binary_cross_entropy_with_logits(&input, &target, reduce)?,
    }))
}

fn linear(call: &Call, _: &Session) -> Result<Value> {
    let input = call.tensor("input")?;
    let weight = call.tensor("weight")?;
    let bias = call.opt_tensor("bias")?;
    call.finish()?;
    Ok(Value::Tensor(f::linear(&input, &weight, bias.as_ref())?))
}

fn dropout(call: &Call, _: &Session) -> Result<Value> {
    let input = tensor(call, "input", 1)?;
    let p = match call.value("p")? {
        Some(Value::Float(x)) => x,
        Some(Value::Int(i)) => i as f64,
        _ => 0.5,
    };
    let training = call.truthy("training")?;
    if call.truthy("inplace")? {
        return Err(not_yet("F.dropout(inplace=True)"));
    }
    call.finish()?;
    Ok(Value::Tensor(f::dropout(&input, p, training)?))
}

fn pair(list: Vec<i64>) -> [usize; 2] {
    let at = |i: usize| list.get(i).or(list.first()).copied().unwrap_or(0).max(0) as usize;
    [at(0), at(1)]
}

fn conv2d(call: &Call, _: &Session) -> Result<Value> {
    let input = call.tensor("input")?;
    let weight = call.tensor("weight")?;
    let bias = call.opt_tensor("bias")?;
    let stride = pair(call.int_list("stride")?);
    let padding = if call.overload == 0 {
        Padding::Explicit(pair(call.int_list("padding")?))
    } else {
        match call.string("padding")?.as_deref() {
            Some("same") => Padding::Same,
            Some("valid") => Padding::Explicit([0, 0]),
            other => {
                return Err(PyException::new(
                    ExcType::RuntimeError,
                    format!("Invalid padding string: '{}'", other.unwrap_or_default()),
                ));
            }
        }
    };
    let dilation = pair(call.int_list("dilation")?);
    let groups = call.int("groups")?.max(1) as usize;
    call.finish()?;
    Ok(Value::Tensor(f::conv2d(
        &input,
        &weight,
        bias.as_ref(),
        stride,
        padding,
        dilation,
        groups,
    )?))
}

fn embedding(call: &Call, _: &Session) -> Result<Value> {
    let input = tensor(call, "input", 1)?;
    let weight = tensor(call, "weight", 2)?;
    let padding_idx = match call.value("padding_idx")? {
        None | Some(Value::None) => None,
        Some(Value::Int(i)) => Some(i),
        Some(other) => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!("padding_idx must be an int, not {}", other.type_name()),
            ));
        }
    };
    if !matches!(call.value("max_norm")?, None | Some(Value::None)) {
        return Err(not_yet("F.embedding(max_norm=...)"));
    }
    if call.truthy("scale_grad_by_freq")? || call.truthy("sparse")? {
        return Err(not_yet(
            "F.embedding(scale_grad_by_freq=True or sparse=True)",
        ));
    }
    let _norm_type = call.value("norm_type")?;
    call.finish()?;
    Ok(Value::Tensor(f::embedding(&input, &weight, padding_idx)?))
}

fn layer_norm(call: &Call, _: &Session) -> Result<Value> {
    let input = tensor(call, "input", 1)?;
    let shape: Vec<usize> = match call.value("normalized_shape")? {
        Some(Value::Int(n)) => vec![n.max(0) as usize],
        Some(v) => iterate(&v)?
            .iter()
            .map(|d| match d {
                Value::Int(n) => Ok((*n).max(0) as usize),
                other => Err(PyException::new(
                    ExcType::TypeError,
                    format!("normalized_shape must hold ints, not {}", other.type_name()),
                )),
            })
            .collect::<Result<_>>()?,
        None => Vec::new(),
    };
    let weight = optional_tensor(call, "weight")?;
    let bias = optional_tensor(call, "bias")?;
    let eps = match call.value("eps")? {
        Some(Value::Float(x)) => x,
        Some(Value::Int(i)) => i as f64,
        _ => 1e-5,
    };
    call.finish()?;
    Ok(Value::Tensor(f::layer_norm(
        &input,
        &shape,
        weight.as_ref(),
        bias.as_ref(),
        eps,
    )?))
}
