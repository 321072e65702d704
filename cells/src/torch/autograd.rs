//! `torch.autograd`'s functions and the autograd methods of tensors: `autograd.grad`,
//! `autograd.backward`, `Tensor.backward` (with `inputs`), `register_hook`, `detach_`, and
//! `torch.set_grad_enabled`. The arguments are read as `torch/autograd/__init__.py` reads
//! them (one tensor or a sequence, gradients made for one-element outputs); the pass itself is
//! the engine's (`tolab_engine::autograd::BackwardPass`), driven from here so that learners'
//! hooks run where it stops for them.

use std::rc::Rc;

use tolab_engine::autograd::{AnomalyMode, Backprop, BackwardPass, Deliver, HookFn, Step};
use tolab_engine::{Session, Tensor};

use super::parse::{tensor_items, tp_name};
use super::{Call, Handler};
use crate::python::args::{Args, Eval, Flow};
use crate::python::exception::{ExcType, PyException};
use crate::python::interpreter::Interpreter;
use crate::python::operators::iterate;
use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("torch.autograd.grad", Handler::Interpreter(grad)),
    ("torch.autograd.backward", Handler::Interpreter(backward)),
    (
        "torch.autograd.functional.jacobian",
        Handler::Interpreter(jacobian),
    ),
    ("Tensor.backward", Handler::Interpreter(backward)),
    ("Tensor.detach_", Handler::Engine(detach_)),
    ("Tensor.register_hook", Handler::Engine(register_hook)),
    ("torch.set_grad_enabled", Handler::Engine(set_grad_enabled)),
    ("torch.is_anomaly_enabled", Handler::Engine(anomaly)),
    (
        "torch.is_anomaly_check_nan_enabled",
        Handler::Engine(anomaly),
    ),
    ("torch.autograd.detect_anomaly", Handler::Engine(anomaly)),
    (
        "torch.autograd.set_detect_anomaly",
        Handler::Engine(anomaly),
    ),
];

fn runtime(message: impl Into<String>) -> PyException {
    PyException::new(ExcType::RuntimeError, message.into())
}

/// `create_graph=`: refused when true, since the lab's backward formulas compute their
/// gradients without recording a graph of their own (so no second derivatives yet). False,
/// `retain_graph`'s default follows it.
fn create_graph(call: &Call) -> Result<bool> {
    match call.truthy("create_graph")? {
        true => Err(super::ops::not_yet(&format!(
            "{}(create_graph=True)",
            call.binding.key
        ))),
        false => Ok(false),
    }
}

/// One tensor, or the tensors of a sequence (`(t,) if is_tensor_like(t) else tuple(t)`).
fn tensor_or_tensors(value: &Value) -> Result<Vec<Tensor>> {
    match &*value.resolved() {
        Value::Tensor(t) => Ok(vec![t.clone()]),
        _ => tensor_items(&iterate(value)?, 0),
    }
}

/// The gradients given for `count` outputs (`_tensor_or_tensors_to_tuple`): none, one tensor,
/// or a sequence of tensors and `None`s.
fn gradients(value: Option<Value>, count: usize) -> Result<Vec<Option<Tensor>>> {
    let items = match value.as_ref().map(Value::resolved).as_deref() {
        None | Some(Value::None) => return Ok(vec![None; count]),
        Some(Value::Tensor(t)) => return Ok(vec![Some(t.clone())]),
        Some(_) => iterate(value.as_ref().expect("given"))?,
    };
    items
        .iter()
        .map(|v| match &*v.resolved() {
            Value::Tensor(t) => Ok(Some(t.clone())),
            Value::None => Ok(None),
            other => Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "gradients can be either Tensors or None, but got {}",
                    tp_name(other)
                ),
            )),
        })
        .collect()
}

/// The outputs and their gradients, checked as `_make_grads` and the engine's entry check
/// them: the gradients line up with the outputs.
fn outputs_and_grads(
    outputs: &Value,
    grads: Option<Value>,
) -> Result<(Vec<Tensor>, Vec<Option<Tensor>>)> {
    let outputs = tensor_or_tensors(outputs)?;
    let grads = gradients(grads, outputs.len())?;
    if grads.len() != outputs.len() {
        return Err(runtime(format!(
            "got {} tensors and {} gradients",
            outputs.len(),
            grads.len()
        )));
    }
    Ok((outputs, grads))
}

/// `torch.autograd.grad(outputs, inputs, grad_outputs=None, retain_graph=None,
/// create_graph=False, only_inputs=True, allow_unused=None, is_grads_batched=False,
/// materialize_grads=False)`: the gradients of the outputs with respect to the inputs, as a
/// tuple; no `.grad` changes.
fn grad(me: &mut Interpreter, call: Call) -> Eval<'_, Value> {
    Box::pin(async move {
        let outputs = call.value("outputs")?.unwrap_or(Value::None);
        let inputs = tensor_or_tensors(&call.value("inputs")?.unwrap_or(Value::None))?;
        let grad_outputs = call.value("grad_outputs")?;
        let create_graph = create_graph(&call)?;
        let retain_graph = match call.value("retain_graph")? {
            None | Some(Value::None) => create_graph,
            Some(_) => call.truthy("retain_graph")?,
        };
        let materialize = call.truthy("materialize_grads")?;
        let allow_unused = match call.value("allow_unused")? {
            None | Some(Value::None) => materialize,
            Some(_) if !call.truthy("allow_unused")? && materialize => {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "Expected allow_unused to be True or not passed when materialize_grads=True, but got: allow_unused=False.",
                )
                .into());
            }
            Some(_) => call.truthy("allow_unused")?,
        };
        // Deprecated and ignored by PyTorch too.
        call.truthy("only_inputs")?;
        if call.truthy("is_grads_batched")? {
            return Err(super::ops::not_yet("autograd.grad(is_grads_batched=True)").into());
        }
        call.finish()?;
        let (outputs, grad_outputs) = outputs_and_grads(&outputs, grad_outputs)?;
        if inputs.is_empty() {
            return Err(runtime("`inputs` argument to `grad()` cannot be empty.").into());
        }
        let found = run_pass(
            me,
            Backprop {
                outputs,
                grad_outputs,
                inputs: Some(inputs.clone()),
                deliver: Deliver::Return,
                retain_graph,
            },
        )
        .await?;
        let mut result = Vec::with_capacity(found.len());
        for (index, (grad, input)) in found.into_iter().zip(&inputs).enumerate() {
            result.push(match grad {
                Some(g) => Value::Tensor(g),
                None if !allow_unused => {
                    return Err(runtime(format!(
                        "The differentiated Tensor at index {index} appears to not have been used in the graph. Set allow_unused=True if this is the desired behavior."
                    ))
                    .into());
                }
                None if materialize => {
                    let zeros = input.full_like(tolab_engine::Scalar::Int(0));
                    Value::Tensor(zeros.map_err(PyException::from)?)
                }
                None => Value::None,
            });
        }
        Ok::<Value, Flow>(Value::Tuple(result.into()))
    })
}

/// `torch.autograd.backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False,
/// grad_variables=None, inputs=None)` and `Tensor.backward(gradient=None, retain_graph=None,
/// create_graph=False, inputs=None)`: gradients accumulated into the leaves' `.grad`, or
/// only into the `inputs`' when given.
fn backward(me: &mut Interpreter, call: Call) -> Eval<'_, Value> {
    Box::pin(async move {
        let method = call.binding.namespace() == "Tensor";
        let (outputs, grads) = match method {
            true => (Value::Tensor(call.input()?), call.value("gradient")?),
            false => (
                call.value("tensors")?.unwrap_or(Value::None),
                call.value("grad_tensors")?,
            ),
        };
        if !method && call.gave("grad_variables") {
            return Err(super::ops::not_yet("autograd.backward(grad_variables=...)").into());
        }
        let create_graph = create_graph(&call)?;
        let retain_graph = match call.value("retain_graph")? {
            None | Some(Value::None) => create_graph,
            Some(_) => call.truthy("retain_graph")?,
        };
        let inputs = match call.value("inputs")? {
            None | Some(Value::None) => None,
            Some(v) => Some(tensor_or_tensors(&v)?),
        };
        call.finish()?;
        if inputs.as_ref().is_some_and(Vec::is_empty) {
            return Err(runtime("`inputs` argument to `backward()` cannot be empty.").into());
        }
        let (outputs, grad_outputs) = outputs_and_grads(&outputs, grads)?;
        run_pass(
            me,
            Backprop {
                outputs,
                grad_outputs,
                inputs,
                deliver: Deliver::Accumulate,
                retain_graph,
            },
        )
        .await?;
        me.after_backward().await?;
        Ok::<Value, Flow>(Value::None)
    })
}

fn detach_(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    call.finish()?;
    t.detach_()?;
    Ok(Value::Tensor(t))
}

/// `torch.set_grad_enabled(mode)`: sets grad mode at once; as a context manager it puts the
/// previous mode back on exit, and as a decorator it undoes its own setting and runs the
/// function under `mode`.
fn set_grad_enabled(call: &Call, session: &Session) -> Result<Value> {
    let mode = match call.value("mode")? {
        Some(Value::Bool(b)) => b,
        Some(other) => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "set_grad_enabled(): argument 'enabled' (position 1) must be bool, not {}",
                    tp_name(&other)
                ),
            ));
        }
        None => return Err(runtime("set_grad_enabled() needs a mode")),
    };
    call.finish()?;
    let previous = session.set_grad_enabled(mode);
    Ok(Value::SetGradEnabled { mode, previous })
}

/// Runs a backward pass to its end: learners' hooks where it stops for them (with grad mode
/// off, as PyTorch's engine runs them), GPU readbacks awaited where a node needs one.
async fn run_pass(
    me: &mut Interpreter,
    request: Backprop,
) -> std::result::Result<Vec<Option<Tensor>>, Flow> {
    let session = me.session.clone();
    let mut pass = BackwardPass::new(request).map_err(PyException::from)?;
    loop {
        match pass.resume() {
            Ok(Step::Done(found)) => return Ok(found),
            Ok(Step::Hook { hook, grad }) => {
                // The lab registers Python values as hooks (see `register_hook`).
                let Some(hook) = hook.downcast_ref::<Value>().cloned() else {
                    return Err(runtime("a gradient hook that is not a Python callable").into());
                };
                let previous = session.set_grad_enabled(false);
                let returned = me
                    .call(&hook, Args::positional(vec![Value::Tensor(grad.clone())]))
                    .await;
                session.set_grad_enabled(previous);
                pass.hook_returned(hook_result(&hook, &grad, returned?)?);
            }
            Ok(Step::Function {
                function,
                grad,
                retain_graph,
            }) => {
                let grads = super::function::backward(me, &function, &grad, retain_graph).await?;
                pass.function_returned(grads);
            }
            Err(e) if e.is_would_block() => session
                .complete_readbacks()
                .await
                .map_err(PyException::from)?,
            Err(e) => return Err(PyException::from(e).into()),
        }
    }
}

/// What a hook returned, checked as PyTorch checks it: nothing, or a gradient of the same size.
fn hook_result(hook: &Value, grad: &Tensor, returned: Value) -> Result<Option<Tensor>> {
    match &*returned.resolved() {
        Value::None => Ok(None),
        Value::Tensor(t) if t.shape() != grad.shape() => {
            let name = match &*hook.resolved() {
                Value::Function(f) => f.name.clone(),
                other => other.type_name().to_string(),
            };
            Err(runtime(format!(
                "hook '{name}' has changed the size of value"
            )))
        }
        Value::Tensor(t) => Ok(Some(t.clone())),
        other => Err(PyException::new(
            ExcType::TypeError,
            format!("expected Variable, but hook returned '{}'", tp_name(other)),
        )),
    }
}

/// `register_hook(hook)`: a `RemovableHandle`.
fn register_hook(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let hook = call.value("hook")?.unwrap_or(Value::None);
    call.finish()?;
    let handle = t.register_hook(Rc::new(hook) as HookFn)?;
    Ok(Value::HookHandle(Rc::new(handle)))
}

/// The class of `torch.autograd.Variable`: every tensor is an instance of it.
pub const VARIABLE: &str = "torch.autograd.variable.Variable";

/// `torch.autograd.Variable(data=None, requires_grad=False, volatile=None, _grad_fn=None,
/// name=None)`, the pre-0.4 wrapper that old tutorials still import: a new leaf over the same
/// storage (`data.detach()`), asking for gradients or not. Its arguments are parsed as
/// `PyArg_ParseTupleAndKeywords` parses them (torch/csrc/autograd/python_legacy_variable.cpp).
pub fn variable(session: &Session, args: &Args) -> Result<Value> {
    const PARAMETERS: [&str; 5] = ["data", "requires_grad", "volatile", "_grad_fn", "name"];
    if args.positional.len() > PARAMETERS.len() {
        return Err(PyException::new(
            ExcType::TypeError,
            format!(
                "function takes at most 5 arguments ({} given)",
                args.positional.len() + args.keywords.len()
            ),
        ));
    }
    if let Some((bad, _)) = args
        .keywords
        .iter()
        .find(|(k, _)| !PARAMETERS.contains(&k.as_str()))
    {
        return Err(PyException::new(
            ExcType::TypeError,
            format!("'{bad}' is an invalid keyword argument for this function"),
        ));
    }
    let requires_grad = args.get(1, "requires_grad").is_some_and(Value::truthy);
    if args
        .get(2, "volatile")
        .is_some_and(|v| !matches!(v, Value::None))
    {
        session.warn(
            "volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
        );
    }
    let data = match args.get(0, "data") {
        None | Some(Value::None) => Tensor::empty(
            session,
            &[0],
            session.default_dtype(),
            tolab_engine::Device::CPU,
        )?,
        Some(value) => match &*value.resolved() {
            Value::Tensor(t) => t.detach(),
            _ => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "Variable data has to be a tensor, but got {}",
                        value.type_name()
                    ),
                ));
            }
        },
    };
    if requires_grad && !data.dtype().is_floating_point() {
        return Err(tolab_engine::Error::RequiresGradNeedsFloat { at_creation: true }.into());
    }
    data.set_requires_grad(requires_grad)?;
    Ok(Value::Tensor(data))
}

/// `torch.autograd.detect_anomaly(check_nan=True)`, which turns anomaly mode on for its block,
/// or `set_detect_anomaly(mode, check_nan=True)`, which sets it when made and, used as a
/// context manager, puts the previous mode back after its block
/// (torch/autograd/anomaly_mode.py).
pub struct AnomalySwitch {
    mode: AnomalyMode,
    /// `detect_anomaly` (set on entering) rather than `set_detect_anomaly` (set when made).
    on_enter: bool,
    /// The mode `set_detect_anomaly` replaced.
    previous: AnomalyMode,
}

impl AnomalySwitch {
    pub fn class_name(&self) -> &'static str {
        match self.on_enter {
            true => "detect_anomaly",
            false => "set_detect_anomaly",
        }
    }

    /// Entering the block: the mode to put back when it ends.
    pub fn enter(&self, session: &Session) -> AnomalyMode {
        match self.on_enter {
            true => session.set_anomaly_mode(self.mode),
            false => self.previous,
        }
    }
}

fn anomaly(call: &Call, session: &Session) -> Result<Value> {
    let name = call.binding.name();
    if name.starts_with("is_") {
        call.finish()?;
        let mode = session.anomaly_mode();
        return Ok(Value::Bool(match name {
            "is_anomaly_enabled" => mode.enabled,
            _ => mode.check_nan,
        }));
    }
    let check_nan = match call.value("check_nan")? {
        None => true,
        Some(v) => v.truthy(),
    };
    let enabled = name == "detect_anomaly" || call.truthy("mode")?;
    call.finish()?;
    let mode = AnomalyMode { enabled, check_nan };
    Ok(match name {
        "detect_anomaly" => {
            session.warn(
                "Anomaly Detection has been enabled. This mode will increase the runtime and \
                 should only be enabled for debugging.",
            );
            Value::Anomaly(Rc::new(AnomalySwitch {
                mode,
                on_enter: true,
                previous: session.anomaly_mode(),
            }))
        }
        _ => Value::Anomaly(Rc::new(AnomalySwitch {
            mode,
            on_enter: false,
            previous: session.set_anomaly_mode(mode),
        })),
    })
}

/// `torch.autograd.functional.jacobian(func, inputs, create_graph=False, strict=False,
/// vectorize=False, strategy="reverse-mode")`, as torch/autograd/functional.py computes it
/// without vectorizing: the inputs detached and asking for gradients, `func` called on them,
/// then one `autograd.grad` of each output element (the graph retained), stacked into
/// `output.shape + input.shape` per pair; an input an output does not reach gets zeros (or,
/// with `strict`, the error). A tensor where `func` took or gave a tensor, tuples where tuples.
fn jacobian(me: &mut Interpreter, call: Call) -> Eval<'_, Value> {
    Box::pin(async move {
        let func = call.value("func")?.unwrap_or(Value::None);
        let given = call.value("inputs")?.unwrap_or(Value::None);
        create_graph(&call)?;
        let strict = call.truthy("strict")?;
        if call.truthy("vectorize")? {
            return Err(super::ops::not_yet("jacobian(vectorize=True)").into());
        }
        if let Some(strategy) = call.value("strategy")?
            && strategy.str_text() != "reverse-mode"
        {
            return Err(super::ops::not_yet("jacobian(strategy='forward-mode')").into());
        }
        call.finish()?;
        let (inputs_tuple, inputs) = as_tuple(&given, "inputs", "jacobian")?;
        let session = me.session.clone();
        let inputs = inputs
            .iter()
            .map(|t| {
                let leaf = t.detach();
                leaf.set_requires_grad(true)?;
                Ok(leaf)
            })
            .collect::<std::result::Result<Vec<Tensor>, tolab_engine::Error>>()
            .map_err(PyException::from)?;
        let arguments = inputs.iter().cloned().map(Value::Tensor).collect();
        let returned = me.call(&func, Args::positional(arguments)).await?;
        let (outputs_tuple, outputs) = as_tuple(
            &returned,
            "outputs of the user-provided function",
            "jacobian",
        )?;
        let mut rows: Vec<Vec<Value>> = Vec::with_capacity(outputs.len());
        for (i, out) in outputs.iter().enumerate() {
            let mut per_input: Vec<Vec<Tensor>> = vec![Vec::new(); inputs.len()];
            let flat = out.reshape(&[-1]).map_err(PyException::from)?;
            for j in 0..out.numel() {
                let element = flat.select(0, j as i64).map_err(PyException::from)?;
                let found = match element.requires_grad() {
                    true => {
                        run_pass(
                            me,
                            Backprop {
                                outputs: vec![element],
                                grad_outputs: vec![None],
                                inputs: Some(inputs.clone()),
                                deliver: Deliver::Return,
                                retain_graph: true,
                            },
                        )
                        .await?
                    }
                    false => vec![None; inputs.len()],
                };
                for (k, grad) in found.into_iter().enumerate() {
                    let grad = match grad {
                        Some(g) => g,
                        None if strict => {
                            return Err(runtime(format!(
                                "Output {i} of the user-provided function is independent of input {k}. This is not allowed in strict mode."
                            ))
                            .into());
                        }
                        None => inputs[k]
                            .full_like(tolab_engine::Scalar::Int(0))
                            .map_err(PyException::from)?,
                    };
                    per_input[k].push(grad);
                }
            }
            let mut row = Vec::with_capacity(inputs.len());
            for (k, grads) in per_input.iter().enumerate() {
                let shape: Vec<i64> = out
                    .shape()
                    .iter()
                    .chain(inputs[k].shape())
                    .map(|&d| d as i64)
                    .collect();
                let stacked = session
                    .no_grad(|| Tensor::stack(&grads.iter().collect::<Vec<_>>(), 0)?.view(&shape))
                    .map_err(PyException::from)?;
                row.push(Value::Tensor(stacked.detach()));
            }
            rows.push(row);
        }
        // `_tuple_postprocess`: tuples only where func took or gave tuples.
        let tuple = |items: Vec<Value>| Value::Tuple(items.into());
        Ok::<Value, Flow>(match (outputs_tuple, inputs_tuple) {
            (true, true) => tuple(rows.into_iter().map(tuple).collect()),
            (true, false) => tuple(rows.into_iter().map(|mut r| r.remove(0)).collect()),
            (false, true) => tuple(rows.remove(0)),
            (false, false) => rows.remove(0).remove(0),
        })
    })
}

/// `_as_tuple`: a tensor, or a tuple of tensors (whether it was a tuple, and the tensors).
fn as_tuple(value: &Value, what: &str, function: &str) -> Result<(bool, Vec<Tensor>)> {
    let resolved = value.resolved();
    let (is_tuple, items) = match &*resolved {
        Value::Tuple(items) => (true, items.to_vec()),
        other => (false, vec![other.clone()]),
    };
    let tensors = items
        .iter()
        .enumerate()
        .map(|(index, item)| match &*item.resolved() {
            Value::Tensor(t) => Ok(t.clone()),
            other => {
                let kind = crate::python::builtins::type_of(other).repr();
                let which = match is_tuple {
                    true => format!("value at index {index}"),
                    false => format!("given {what}"),
                };
                Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "The {what} given to {function} must be either a Tensor or a tuple of Tensors but the {which} has type {kind}."
                    ),
                ))
            }
        })
        .collect::<Result<Vec<Tensor>>>()?;
    Ok((is_tuple, tensors))
}
