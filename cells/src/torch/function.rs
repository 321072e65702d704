//! `torch.autograd.Function`, the custom-function tutorial's way to write an op: a class with
//! static `forward(ctx, *args)` and `backward(ctx, *grads)`, called through `Function.apply`.
//! `apply` runs the forward with grad mode off, then records its output under a node named
//! `<Class>Backward` whose edges go to the tensor arguments
//! (`tolab_engine::autograd::record_function`); the backward pass stops there and
//! `autograd.rs` calls [`backward`], which runs the learner's `backward` and checks what it
//! returns as PyTorch's `PyNode` does (torch/csrc/autograd/python_function.cpp). The `ctx` is
//! [`FunctionCtx`]: `save_for_backward`/`saved_tensors`, `needs_input_grad`,
//! `mark_non_differentiable`, `set_materialize_grads`, and any attribute a forward sets.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use tolab_engine::Tensor;
use tolab_engine::autograd::{HookFn, record_function};

use crate::python::args::{Args, Flow};
use crate::python::exception::{ExcType, PyException};
use crate::python::interpreter::Interpreter;
use crate::python::value::{Attributes, Class, Value};

type Result<T> = std::result::Result<T, PyException>;

/// The built-in base class learners derive from, as `type` names it.
pub const FUNCTION: &str = "torch.autograd.function.Function";

/// The `ctx` of one `apply`: PyTorch's node object, as the forward and backward see it.
pub struct FunctionCtx {
    /// The node's name (`MyReLUBackward`), which is also the ctx's type name.
    pub name: String,
    pub attributes: RefCell<Attributes>,
    /// What `save_for_backward` kept; `None` once a backward pass without `retain_graph`
    /// freed it.
    saved: RefCell<Option<Vec<Value>>>,
    needs_input_grad: Vec<bool>,
    non_differentiable: RefCell<Vec<Tensor>>,
    materialize_grads: Cell<bool>,
}

/// What the backward pass hands back at a `Function` node: the class and its ctx, and which
/// forward arguments were tensors (with their shapes, to check the gradients against).
struct Recorded {
    class: Rc<Class>,
    ctx: Rc<FunctionCtx>,
    inputs: Vec<Option<Vec<usize>>>,
}

/// Whether `class` derives from `torch.autograd.Function`.
pub fn is_function_class(class: &Class) -> bool {
    class.builtin_base == Some(FUNCTION)
}

/// `MyFunction.apply(*args)`.
pub(crate) async fn apply(
    me: &mut Interpreter,
    class: &Rc<Class>,
    args: Args,
) -> std::result::Result<Value, Flow> {
    if !args.keywords.is_empty() {
        return Err(PyException::unsupported("Function.apply with keyword arguments").into());
    }
    let tensor_of = |v: &Value| match &*v.resolved() {
        Value::Tensor(t) => Some(t.clone()),
        _ => None,
    };
    let ctx = Rc::new(FunctionCtx {
        name: format!("{}Backward", class.name),
        attributes: RefCell::default(),
        saved: RefCell::new(Some(Vec::new())),
        needs_input_grad: args
            .positional
            .iter()
            .map(|a| tensor_of(a).is_some_and(|t| t.requires_grad()))
            .collect(),
        non_differentiable: RefCell::default(),
        materialize_grads: Cell::new(true),
    });
    let owner = Value::Class(class.clone());
    let forward = me.attribute(&owner, "forward").await?;
    // A class with its own `setup_context` has a forward without `ctx` (PyTorch 2's style):
    // `setup_context(ctx, inputs, output)` fills the ctx after it.
    let setup_context = match class.lookup("setup_context") {
        Some(_) => Some(me.attribute(&owner, "setup_context").await?),
        None => None,
    };
    let mut forward_args = match setup_context {
        Some(_) => Vec::new(),
        None => vec![Value::FunctionCtx(ctx.clone())],
    };
    forward_args.extend(args.positional.iter().cloned());
    let session = me.session.clone();
    let previous = session.set_grad_enabled(false);
    let output = forward_then_setup(me, &forward, forward_args, setup_context, &ctx, &args).await;
    session.set_grad_enabled(previous);
    let output = output?;
    let tensors: Vec<Tensor> = args.positional.iter().filter_map(tensor_of).collect();
    let inputs: Vec<Option<Vec<usize>>> = args
        .positional
        .iter()
        .map(|a| tensor_of(a).map(|t| t.shape().to_vec()))
        .collect();
    let inputs_ref: Vec<&Tensor> = tensors.iter().collect();
    let recorded: HookFn = Rc::new(Recorded {
        class: class.clone(),
        ctx: ctx.clone(),
        inputs,
    });
    let record = |t: &Tensor| -> Tensor {
        if ctx.non_differentiable.borrow().iter().any(|n| n.is(t)) {
            return t.clone();
        }
        record_function(t, &inputs_ref, &ctx.name, recorded.clone())
    };
    Ok(match &*output.resolved() {
        Value::Tensor(t) => Value::Tensor(record(t)),
        Value::Tuple(items) => {
            let differentiable = items
                .iter()
                .filter_map(tensor_of)
                .filter(|t| !ctx.non_differentiable.borrow().iter().any(|n| n.is(t)))
                .count();
            if differentiable > 1 && tensors.iter().any(Tensor::requires_grad) {
                return Err(PyException::unsupported(
                    "an autograd.Function whose forward returns several differentiable tensors",
                )
                .into());
            }
            Value::Tuple(
                items
                    .iter()
                    .map(|v| tensor_of(v).map_or_else(|| v.clone(), |t| Value::Tensor(record(&t))))
                    .collect(),
            )
        }
        _ => output.clone(),
    })
}

/// The forward's output, with `setup_context` run on it where the class has one.
async fn forward_then_setup(
    me: &mut Interpreter,
    forward: &Value,
    forward_args: Vec<Value>,
    setup_context: Option<Value>,
    ctx: &Rc<FunctionCtx>,
    args: &Args,
) -> std::result::Result<Value, Flow> {
    let output = me.call(forward, Args::positional(forward_args)).await?;
    if let Some(setup) = setup_context {
        let inputs = Value::Tuple(args.positional.clone().into());
        let setup_args = vec![Value::FunctionCtx(ctx.clone()), inputs, output.clone()];
        me.call(&setup, Args::positional(setup_args)).await?;
    }
    Ok(output)
}

/// Runs the learner's `backward(ctx, grad)` for the node the pass stopped at: the gradients of
/// the forward's tensor arguments, in order.
pub(crate) async fn backward(
    me: &mut Interpreter,
    function: &HookFn,
    grad: &Tensor,
    retain_graph: bool,
) -> std::result::Result<Vec<Option<Tensor>>, Flow> {
    let Some(recorded) = function.downcast_ref::<Recorded>() else {
        return Err(
            PyException::new(ExcType::RuntimeError, "not an autograd.Function node").into(),
        );
    };
    let backward = me
        .attribute(&Value::Class(recorded.class.clone()), "backward")
        .await?;
    let ctx = &recorded.ctx;
    let args = vec![Value::FunctionCtx(ctx.clone()), Value::Tensor(grad.clone())];
    // As PyTorch's engine runs it without `create_graph`: grad mode off.
    let session = me.session.clone();
    let previous = session.set_grad_enabled(false);
    let returned = me.call(&backward, Args::positional(args)).await;
    session.set_grad_enabled(previous);
    let returned = returned?;
    if !retain_graph {
        ctx.saved.replace(None);
    }
    Ok(gradients(ctx, &recorded.inputs, &returned)?)
}

/// What a backward returned, checked as `PyNode::apply` and `validate_outputs` check it: one
/// entry per forward argument (extra `None`s allowed), `None` for the non-tensor ones, each
/// gradient of its input's shape.
fn gradients(
    ctx: &FunctionCtx,
    inputs: &[Option<Vec<usize>>],
    returned: &Value,
) -> Result<Vec<Option<Tensor>>> {
    let items: Vec<Value> = match &*returned.resolved() {
        Value::Tuple(items) => items.to_vec(),
        other => vec![other.clone()],
    };
    let count_error = || {
        PyException::new(
            ExcType::RuntimeError,
            format!(
                "function {} returned an incorrect number of gradients (expected {}, got {})",
                ctx.name,
                inputs.len(),
                items.len()
            ),
        )
    };
    if items.len() < inputs.len()
        || items[inputs.len()..]
            .iter()
            .any(|v| !matches!(v, Value::None))
    {
        return Err(count_error());
    }
    let mut grads = Vec::new();
    for (position, (item, input)) in items.iter().zip(inputs).enumerate() {
        let item = item.resolved();
        match (input, &*item) {
            (None, Value::None) => {}
            (None, _) => {
                return Err(PyException::new(
                    ExcType::RuntimeError,
                    format!(
                        "function {} returned a gradient different than None at position {}, but the corresponding forward input was not a Variable",
                        ctx.name,
                        position + 1
                    ),
                ));
            }
            (Some(_), Value::None) => grads.push(None),
            (Some(shape), Value::Tensor(g)) => {
                if g.shape() != shape.as_slice() {
                    return Err(PyException::new(
                        ExcType::RuntimeError,
                        format!(
                            "Function {} returned an invalid gradient at index {} - got {:?} but expected shape compatible with {:?}",
                            ctx.name,
                            grads.len(),
                            g.shape(),
                            shape
                        ),
                    ));
                }
                grads.push(Some(g.clone()));
            }
            (Some(_), other) => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!("expected Variable or None (got {})", other.type_name()),
                ));
            }
        }
    }
    Ok(grads)
}

/// `ctx.name`.
pub fn ctx_attribute(ctx: &FunctionCtx, owner: &Value, name: &str) -> Result<Value> {
    match name {
        "saved_tensors" => match &*ctx.saved.borrow() {
            Some(saved) => Ok(Value::Tuple(saved.clone().into())),
            None => Err(tolab_engine::Error::BackwardTwice.into()),
        },
        "needs_input_grad" => Ok(Value::Tuple(
            ctx.needs_input_grad
                .iter()
                .map(|&b| Value::Bool(b))
                .collect(),
        )),
        "materialize_grads" => Ok(Value::Bool(ctx.materialize_grads.get())),
        "save_for_backward"
        | "mark_non_differentiable"
        | "set_materialize_grads"
        | "mark_dirty" => Ok(Value::Method(Box::new(owner.clone()), Rc::from(name))),
        _ => ctx.attributes.borrow().get(name).cloned().ok_or_else(|| {
            PyException::new(
                ExcType::AttributeError,
                format!("'{}' object has no attribute '{name}'", ctx.name),
            )
        }),
    }
}

/// `ctx.save_for_backward(*tensors)`, `ctx.mark_non_differentiable(*tensors)`,
/// `ctx.set_materialize_grads(value)`.
pub fn ctx_method(ctx: &FunctionCtx, name: &str, args: &Args) -> Result<Value> {
    match name {
        "save_for_backward" => {
            for (i, v) in args.positional.iter().enumerate() {
                if !matches!(&*v.resolved(), Value::Tensor(_) | Value::None) {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        format!(
                            "save_for_backward can only save variables, but argument {i} is of type {}",
                            v.type_name()
                        ),
                    ));
                }
            }
            ctx.saved.replace(Some(args.positional.clone()));
        }
        "mark_non_differentiable" => {
            for v in &args.positional {
                if let Value::Tensor(t) = &*v.resolved() {
                    ctx.non_differentiable.borrow_mut().push(t.clone());
                }
            }
        }
        "set_materialize_grads" => {
            let value = args.positional.first().is_none_or(Value::truthy);
            ctx.materialize_grads.set(value);
        }
        _ => {
            return Err(PyException::unsupported(&format!(
                "ctx.{name}() in an autograd.Function"
            )));
        }
    }
    Ok(Value::None)
}

/// `ctx.name = value`.
pub fn set_ctx_attribute(ctx: &FunctionCtx, name: &str, value: Value) {
    ctx.attributes.borrow_mut().insert(name.to_owned(), value);
}
