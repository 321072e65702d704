//! `torch.optim`: SGD, Adam and AdamW made with PyTorch's constructor signatures (parameters
//! as an iterable of tensors, or as param groups: dicts with `params` and their own settings),
//! their methods, and their `state` and `param_groups` (live: `group["lr"] = 0.01` changes the
//! optimizer).

use std::cell::RefCell;
use std::rc::Rc;

use tolab_engine::Session;
use tolab_engine::nn::Parameter;
use tolab_engine::optim::{Algorithm, GroupSpec, Hyper, Optimizer, Options, StateDict};

use super::ops::not_yet;
use super::{Call, Handler};
use crate::python::exception::{ExcType, PyException};
use crate::python::operators::iterate;
use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("torch.optim.SGD", Handler::Engine(construct)),
    ("torch.optim.Adam", Handler::Engine(construct)),
    ("torch.optim.AdamW", Handler::Engine(construct)),
    ("torch.optim.Optimizer.step", Handler::Engine(method)),
    ("torch.optim.SGD.step", Handler::Engine(method)),
    ("torch.optim.Adam.step", Handler::Engine(method)),
    ("torch.optim.AdamW.step", Handler::Engine(method)),
    ("torch.optim.Optimizer.zero_grad", Handler::Engine(method)),
    ("torch.optim.Optimizer.state_dict", Handler::Engine(method)),
    (
        "torch.optim.Optimizer.load_state_dict",
        Handler::Engine(method),
    ),
];

/// The settings the lab's optimizers act on; the others are accepted at the values that do
/// not change the numbers (`foreach`), or refused.
const NO_EFFECT: &[&str] = &["foreach", "capturable"];
const REFUSED_WHEN_SET: &[&str] = &["differentiable", "fused"];

fn type_error(message: String) -> PyException {
    PyException::new(ExcType::TypeError, message)
}

/// A parameter of an optimizer: a Parameter, or a tensor (made a leaf that can be optimized).
fn parameter(v: &Value) -> Result<Parameter> {
    match v {
        Value::Parameter(p) => Ok(p.clone()),
        Value::Tensor(t) => Ok(Parameter::of_tensor(t)?),
        other => Err(type_error(format!(
            "optimizer can only optimize Tensors, but one of the params is {}",
            other.type_name()
        ))),
    }
}

/// `params`: tensors, or dicts each with its `params` and settings of its own.
fn groups(params: &Value) -> Result<Vec<GroupSpec>> {
    if let Value::Tensor(_) | Value::Parameter(_) = params {
        return Err(type_error(
            "params argument given to the optimizer should be an iterable of Tensors or dicts, but got torch.FloatTensor".into(),
        ));
    }
    let items = iterate(params)?;
    if !items.iter().any(|v| matches!(v, Value::Dict(_))) {
        let params = items.iter().map(parameter).collect::<Result<Vec<_>>>()?;
        return Ok(vec![(params, Vec::new())]);
    }
    items
        .iter()
        .map(|group| {
            let Value::Dict(entries) = group else {
                return Err(type_error(
                    "optimizer param groups must all be dicts when one is".into(),
                ));
            };
            let mut params = None;
            let mut overrides = Vec::new();
            for (key, value) in entries.borrow().iter() {
                match key.str_text().as_str() {
                    "params" => {
                        params = Some(match value {
                            Value::Tensor(_) | Value::Parameter(_) => vec![parameter(value)?],
                            many => iterate(many)?
                                .iter()
                                .map(parameter)
                                .collect::<Result<Vec<_>>>()?,
                        });
                    }
                    name => overrides.push((name.to_owned(), value_hyper(value)?)),
                }
            }
            let params = params.ok_or_else(|| {
                PyException::new(
                    ExcType::KeyError,
                    "'parameter group didn't specify a value of required optimization parameter params'",
                )
            })?;
            Ok((params, overrides))
        })
        .collect()
}

/// `optim.SGD(params, lr=..., ...)` and its siblings.
fn construct(call: &Call, _: &Session) -> Result<Value> {
    let algorithm = match call.binding.name() {
        "SGD" => Algorithm::Sgd,
        "Adam" => Algorithm::Adam,
        _ => Algorithm::AdamW,
    };
    let params = call.value("params")?.unwrap_or(Value::None);
    let groups = groups(&params)?;
    let mut options = Vec::new();
    for param in &call.signature().params {
        let name = param.name;
        if matches!(name, "self" | "params") || !call.gave(name) {
            continue;
        }
        let value = call.value(name)?.unwrap_or(Value::None);
        if REFUSED_WHEN_SET.contains(&name) && value.truthy() {
            return Err(not_yet(&format!(
                "optim.{}({name}=True)",
                call.binding.name()
            )));
        }
        if NO_EFFECT.contains(&name) {
            continue;
        }
        options.push((name.to_owned(), value_hyper(&value)?));
    }
    call.finish()?;
    Ok(Value::Optimizer(Rc::new(Optimizer::new(
        algorithm, groups, &options,
    )?)))
}

/// `step()`, `zero_grad()`, `state_dict()`, `load_state_dict(d)`.
fn method(call: &Call, _: &Session) -> Result<Value> {
    let Some(Value::Optimizer(optimizer)) = call.receiver() else {
        return Err(type_error("an optimizer method needs an optimizer".into()));
    };
    match call.binding.name() {
        "step" => {
            if !matches!(call.value("closure")?, None | Some(Value::None)) {
                return Err(not_yet("optimizer.step(closure)"));
            }
            call.finish()?;
            optimizer.step()?;
        }
        "state_dict" => return Ok(state_dict(&optimizer.state_dict())),
        "load_state_dict" => {
            let saved = call.value("state_dict")?.unwrap_or(Value::None);
            call.finish()?;
            optimizer.load_state_dict(&parse_state(&saved)?)?;
        }
        _ => {
            let set_to_none = call.truthy("set_to_none")?;
            call.finish()?;
            optimizer.zero_grad(set_to_none)?;
        }
    }
    Ok(Value::None)
}

/// `optimizer.state` and `optimizer.param_groups`.
pub fn attribute(optimizer: &Rc<Optimizer>, owner: &Value, name: &str) -> Option<Value> {
    match name {
        "state" => {
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
            Some(dict(state))
        }
        "param_groups" => Some(Value::list(
            (0..optimizer.param_groups().len())
                .map(|i| Value::ParamGroup(optimizer.clone(), i))
                .collect(),
        )),
        "defaults" => {
            let options = optimizer.param_groups().first()?.options.clone();
            Some(Value::Dict(Rc::new(RefCell::new(
                options
                    .entries()
                    .iter()
                    .map(|(k, v)| (Value::str(k), hyper_value(v)))
                    .collect(),
            ))))
        }
        // A method the optimizer's own class defines (`SGD.step`), else `Optimizer`'s.
        _ => {
            let class = format!("torch.optim.{}", optimizer.algorithm().class_name());
            super::bound(&class, name, Some(owner))
                .or_else(|| super::bound("torch.optim.Optimizer", name, Some(owner)))
        }
    }
}

/// `optimizer.state_dict()` as PyTorch shapes it: `{'state': {index: {name: tensor}},
/// 'param_groups': [{setting: value, …, 'params': [index, …]}]}`.
fn state_dict(saved: &StateDict) -> Value {
    let dict = |entries: Vec<(Value, Value)>| Value::Dict(Rc::new(RefCell::new(entries)));
    let state = saved
        .state
        .iter()
        .map(|(index, entries)| {
            let tensors = entries
                .iter()
                .map(|(name, t)| (Value::str(name), Value::Tensor(t.clone())))
                .collect();
            (Value::Int(*index as i64), dict(tensors))
        })
        .collect();
    let groups = saved
        .param_groups
        .iter()
        .map(|(options, indices)| {
            let mut entries: Vec<(Value, Value)> = options
                .entries()
                .iter()
                .map(|(k, v)| (Value::str(k), hyper_value(v)))
                .collect();
            let params = indices.iter().map(|&i| Value::Int(i as i64)).collect();
            entries.push((Value::str("params"), Value::list(params)));
            dict(entries)
        })
        .collect();
    dict(vec![
        (Value::str("state"), dict(state)),
        (Value::str("param_groups"), Value::list(groups)),
    ])
}

pub fn hyper_value(v: &Hyper) -> Value {
    match v {
        Hyper::Float(x) => Value::Float(*x),
        Hyper::Int(i) => Value::Int(*i),
        Hyper::Bool(b) => Value::Bool(*b),
        Hyper::None => Value::None,
        Hyper::Pair(a, b) => Value::Tuple(Rc::from(vec![Value::Float(*a), Value::Float(*b)])),
    }
}

pub fn value_hyper(v: &Value) -> Result<Hyper> {
    let number = |v: &Value| match v {
        Value::Float(x) => Some(*x),
        Value::Int(i) => Some(*i as f64),
        _ => None,
    };
    Ok(match v {
        Value::Float(x) => Hyper::Float(*x),
        Value::Int(i) => Hyper::Int(*i),
        Value::Bool(b) => Hyper::Bool(*b),
        Value::None => Hyper::None,
        Value::Tensor(t) if t.numel() == 1 => Hyper::Float(t.item()?.as_f64()),
        Value::Tuple(pair) if pair.len() == 2 => match (number(&pair[0]), number(&pair[1])) {
            (Some(a), Some(b)) => Hyper::Pair(a, b),
            _ => return Err(type_error("betas must be a pair of numbers".into())),
        },
        other => {
            return Err(type_error(format!(
                "an optimizer setting cannot be a {}",
                other.type_name()
            )));
        }
    })
}

/// The inverse of [`state_dict`], for `load_state_dict`.
fn parse_state(saved: &Value) -> Result<StateDict> {
    let malformed = || {
        PyException::new(
            ExcType::ValueError,
            "loaded state dict is not an optimizer state dict (it needs 'state' and 'param_groups')",
        )
    };
    let entries = |v: &Value| match v {
        Value::Dict(d) => Ok(d.borrow().clone()),
        _ => Err(malformed()),
    };
    let top = entries(saved)?;
    let field = |name: &str| {
        top.iter()
            .find(|(k, _)| matches!(k, Value::Str(s) if &**s == name))
            .map(|(_, v)| v.clone())
            .ok_or_else(malformed)
    };
    let mut state = Vec::new();
    for (index, per_param) in entries(&field("state")?)? {
        let Value::Int(index) = index else {
            return Err(malformed());
        };
        let tensors = entries(&per_param)?
            .into_iter()
            .map(|(name, t)| match &*t.resolved() {
                Value::Tensor(t) => Ok((name.str_text(), t.clone())),
                _ => Err(malformed()),
            })
            .collect::<Result<_>>()?;
        state.push((usize::try_from(index).map_err(|_| malformed())?, tensors));
    }
    let mut param_groups = Vec::new();
    for group in iterate(&field("param_groups")?)? {
        let mut options = Vec::new();
        let mut indices = Vec::new();
        for (k, v) in entries(&group)? {
            if k.str_text() == "params" {
                indices = iterate(&v)?
                    .iter()
                    .map(|i| match i {
                        Value::Int(n) => usize::try_from(*n).map_err(|_| malformed()),
                        _ => Err(malformed()),
                    })
                    .collect::<Result<_>>()?;
            } else {
                options.push((k.str_text(), value_hyper(&v)?));
            }
        }
        param_groups.push((Options::from_entries(options), indices));
    }
    Ok(StateDict {
        state,
        param_groups,
    })
}
