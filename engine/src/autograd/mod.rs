//! Autograd: the backward graph and the engine that runs it.
//!
//! A node (`grad_fn`) is recorded when grad mode is on and an input requires grad; it is named as
//! PyTorch names it (`ToCopyBackward0`, `MulBackward0`, …) and its edges (`next_functions`) point at
//! the inputs' own nodes or, for leaves, at their `AccumulateGrad` node (one per leaf while a graph
//! holds it; its `variable` is the leaf). `backward()` walks the graph from the output in
//! dependency order, summing the gradients that meet at a node, and accumulates into leaves'
//! `.grad`. Nodes that saved tensors free them after one pass unless `retain_graph=True`, so a
//! second pass fails with PyTorch's message.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use crate::error::Error;
use crate::tensor::{Tensor, TensorImpl};
use crate::trace::{BreakCause, EventKind};

mod engine;
mod function;
mod hooks;

pub use engine::{Backprop, BackwardPass, Deliver, Step, backward};
pub use function::record_function;
use hooks::Hooks;
pub use hooks::{HookFn, HookHandle};

/// `torch.autograd.set_detect_anomaly(mode, check_nan)`: with `check_nan`, a backward pass
/// fails at the first node whose gradients hold a NaN, naming it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnomalyMode {
    pub enabled: bool,
    pub check_nan: bool,
}

impl Default for AnomalyMode {
    fn default() -> Self {
        AnomalyMode {
            enabled: false,
            check_nan: true,
        }
    }
}

/// Gradients for a node's inputs from the gradient of its output.
pub(crate) type BackwardFn = Box<dyn Fn(&Tensor) -> Result<Vec<Option<Tensor>>, Error>>;

/// A `grad_fn`: one node of the backward graph.
#[derive(Clone)]
pub struct GradFn(Rc<Node>);

struct Node {
    id: u64,
    name: &'static str,
    next: Vec<Option<GradFn>>,
    /// The leaf an `AccumulateGrad` node accumulates into, held as PyTorch's node holds it: a
    /// graph keeps its leaves (the leaf itself holds its node weakly, so there is no cycle).
    variable: Option<Tensor>,
    /// `None` once a node that saved tensors has run without `retain_graph`.
    backward: RefCell<Option<BackwardFn>>,
    saves_tensors: bool,
    /// Non-leaf tensors produced by this node that asked for `retain_grad()`.
    retained: RefCell<Vec<Weak<TensorImpl>>>,
    /// Hooks registered on the tensor this node produced.
    pre_hooks: RefCell<Hooks>,
    /// A `torch.autograd.Function`'s node: its backward is the learner's, run by the pass's
    /// caller (see `function.rs`).
    function: Option<HookFn>,
}

impl std::fmt::Debug for GradFn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "<{} #{}>", self.0.name, self.0.id)
    }
}

impl GradFn {
    /// The class name PyTorch prints: `ToCopyBackward0`.
    pub fn name(&self) -> &'static str {
        self.0.name
    }

    /// `grad_fn.name()`: nodes written in C++ by hand carry their namespace
    /// (`torch::autograd::AccumulateGrad`); generated ones are their class name.
    pub fn qualified_name(&self) -> String {
        match self.0.name {
            "AccumulateGrad" | "NotImplemented" | "CopySlices" | "CopyBackwards" => {
                format!("torch::autograd::{}", self.0.name)
            }
            name => name.to_owned(),
        }
    }

    pub fn id(&self) -> u64 {
        self.0.id
    }

    /// `grad_fn.next_functions`, one entry per differentiable input (`None` where that input needs
    /// no gradient).
    pub fn next_functions(&self) -> &[Option<GradFn>] {
        &self.0.next
    }

    /// Python's `a is b` for nodes.
    pub fn is(&self, other: &GradFn) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }

    /// Makes `tensor` (whose `grad_fn` this is) keep the gradient that reaches this node.
    pub(crate) fn retain_for(&self, tensor: &Tensor) {
        self.0.retained.borrow_mut().push(tensor.downgrade());
    }

    /// The node's backward function applied to `grad`: the gradients of its inputs. An in-place
    /// op recorded by the node of its out-of-place form runs it through here.
    pub(crate) fn apply(&self, grad: &Tensor) -> Result<Vec<Option<Tensor>>, Error> {
        let backward = self.0.backward.borrow();
        let apply = backward.as_ref().ok_or(Error::BackwardTwice)?;
        apply(grad)
    }

    /// Whether the node's backward keeps tensors (freed after one pass without `retain_graph`).
    pub(crate) fn saves_tensors(&self) -> bool {
        self.0.saves_tensors
    }

    /// `AccumulateGrad.variable`: the leaf.
    pub fn variable(&self) -> Option<Tensor> {
        self.0.variable.clone()
    }
}

/// A tensor's autograd state.
#[derive(Debug, Default)]
pub(crate) struct AutogradMeta {
    /// Set on leaves by `requires_grad=True` / `requires_grad_()`; non-leaves require grad because
    /// they have a `grad_fn`.
    pub requires_grad: bool,
    pub grad_fn: Option<GradFn>,
    /// `.grad`, on leaves (and non-leaves that `retain_grad()`).
    pub grad: Option<Tensor>,
    pub retains_grad: bool,
    /// The leaf's `AccumulateGrad` node, while some graph holds it.
    accumulator: RefCell<Weak<Node>>,
    /// A leaf's hooks (`register_hook`), run before accumulation.
    pub hooks: Hooks,
}

impl AutogradMeta {
    pub fn requires_grad(&self) -> bool {
        self.requires_grad || self.grad_fn.is_some()
    }
}

/// The edge a node takes to `input`: its `grad_fn`, its `AccumulateGrad` if it is a leaf that
/// requires grad, or none.
fn edge_to(input: &Tensor) -> Option<GradFn> {
    let meta = input.autograd();
    if let Some(grad_fn) = &meta.grad_fn {
        return Some(grad_fn.clone());
    }
    if !meta.requires_grad {
        return None;
    }
    if let Some(node) = meta.accumulator.borrow().upgrade() {
        return Some(GradFn(node));
    }
    let node = Rc::new(Node {
        id: input.session().next_id(),
        name: "AccumulateGrad",
        next: Vec::new(),
        variable: Some(input.clone()),
        backward: RefCell::new(None),
        saves_tensors: false,
        retained: RefCell::default(),
        pre_hooks: RefCell::default(),
        function: None,
    });
    *meta.accumulator.borrow_mut() = Rc::downgrade(&node);
    input
        .session()
        .record(Some(input.device()), || EventKind::GraphNode {
            node: node.id,
            name: node.name.to_owned(),
            next: Vec::new(),
            leaf: Some(format!("{:?} {}", input.shape(), input.dtype().name())),
        });
    Some(GradFn(node))
}

/// Records a new operation node in the trace (the graph view draws it), on `tensor`'s device.
fn trace_node(tensor: &Tensor, node: &GradFn) {
    tensor
        .session()
        .record(Some(tensor.device()), || EventKind::GraphNode {
            node: node.id(),
            name: node.name().to_owned(),
            next: node
                .next_functions()
                .iter()
                .map(|n| n.as_ref().map(GradFn::id))
                .collect(),
            leaf: None,
        });
}

/// The node a tensor's history hangs from in the graph: its `grad_fn`, or its leaf's
/// `AccumulateGrad` while a graph holds one.
fn graph_node_of(tensor: &Tensor) -> Option<u64> {
    let meta = tensor.autograd();
    match &meta.grad_fn {
        Some(grad_fn) => Some(grad_fn.id()),
        None => meta.accumulator.borrow().upgrade().map(|node| node.id),
    }
}

/// Records that `tensor`, which takes part in autograd, was used where the graph does not follow
/// it (`detach()`, `.item()`, an op under `no_grad`, …).
pub fn graph_break(tensor: &Tensor, cause: BreakCause) {
    if tensor.requires_grad() {
        tensor
            .session()
            .record(Some(tensor.device()), || EventKind::GraphBreak {
                from: graph_node_of(tensor),
                cause,
            });
    }
}

/// A tensor a backward function needs, with the version it had when saved: if an in-place op
/// changes it before the backward pass, unpacking fails as in PyTorch.
#[derive(Debug, Clone)]
pub(crate) struct SavedTensor {
    tensor: Tensor,
    version: u64,
    /// For an op's own result: the op's node (the tensor kept is an alias without history, so
    /// that the result does not hold its own node).
    result_of: Option<&'static str>,
}

impl SavedTensor {
    pub fn new(tensor: &Tensor) -> Self {
        SavedTensor {
            tensor: tensor.clone(),
            version: tensor.version(),
            result_of: None,
        }
    }

    /// Keeps `result`, the output of the op recording `node`, as PyTorch keeps `exp`'s or
    /// `sigmoid`'s: an in-place change of the result then fails the backward pass.
    pub fn result(result: &Tensor, node: &'static str) -> Self {
        SavedTensor {
            tensor: result.alias_without_history(),
            version: result.version(),
            result_of: Some(node),
        }
    }

    pub fn unpack(&self) -> Result<&Tensor, Error> {
        let now = self.tensor.version();
        if now != self.version {
            let node = match self.result_of {
                Some(node) => Some(node.to_owned()),
                None => self.tensor.grad_fn().map(|g| g.name().to_owned()),
            };
            return Err(Error::SavedTensorModified {
                type_name: self.tensor.type_name(),
                shape: self.tensor.shape().to_vec(),
                output_of: node.map(|name| {
                    name.trim_end_matches(|c: char| c.is_ascii_digit())
                        .trim_end_matches("Backward")
                        .to_owned()
                }),
                version: now,
                expected: self.version,
            });
        }
        Ok(&self.tensor)
    }
}

/// How an op's backward is recorded.
pub(crate) struct Backward {
    pub name: &'static str,
    /// Whether the closure holds input tensors (freed after one pass without `retain_graph`).
    pub saves_tensors: bool,
    pub apply: BackwardFn,
}

impl Backward {
    pub fn new(
        name: &'static str,
        apply: impl Fn(&Tensor) -> Result<Vec<Option<Tensor>>, Error> + 'static,
    ) -> Self {
        Backward {
            name,
            saves_tensors: false,
            apply: Box::new(apply),
        }
    }

    pub fn saving(
        name: &'static str,
        apply: impl Fn(&Tensor) -> Result<Vec<Option<Tensor>>, Error> + 'static,
    ) -> Self {
        Backward {
            name,
            saves_tensors: true,
            apply: Box::new(apply),
        }
    }
}

/// The autograd state of an op's output: a new node over `inputs` when grad mode is on and some
/// input requires grad, else a plain tensor's. `backward` is only built when a node is recorded.
pub(crate) fn record(inputs: &[&Tensor], backward: impl FnOnce() -> Backward) -> AutogradMeta {
    let inputs: Vec<Option<&Tensor>> = inputs.iter().copied().map(Some).collect();
    record_edges(&inputs, backward)
}

/// [`record`] for ops whose inputs include Python numbers: PyTorch wraps those as tensors that
/// never require grad, so they still take an edge (`None`) in `next_functions`.
pub(crate) fn record_edges(
    inputs: &[Option<&Tensor>],
    backward: impl FnOnce() -> Backward,
) -> AutogradMeta {
    let Some(first) = inputs.iter().flatten().next() else {
        return AutogradMeta::default();
    };
    let session = first.session();
    let Some(tracked) = inputs.iter().flatten().find(|t| t.requires_grad()) else {
        return AutogradMeta::default();
    };
    if !session.is_grad_enabled() {
        if session.is_learner_no_grad() {
            graph_break(tracked, BreakCause::NoGrad);
        }
        return AutogradMeta::default();
    }
    let backward = backward();
    let node = GradFn(Rc::new(Node {
        id: session.next_id(),
        name: backward.name,
        next: inputs.iter().map(|t| t.and_then(edge_to)).collect(),
        variable: None,
        backward: RefCell::new(Some(backward.apply)),
        saves_tensors: backward.saves_tensors,
        retained: RefCell::default(),
        pre_hooks: RefCell::default(),
        function: None,
    }));
    trace_node(tracked, &node);
    AutogradMeta {
        grad_fn: Some(node),
        ..AutogradMeta::default()
    }
}

/// The same values under a node named `name` that does what `tensor`'s node does, with its
/// edges: how an op PyTorch records as one node (`std_mean`'s `StdMeanBackward0`, `dist`'s
/// `DistBackward0`) is recorded when the lab composes it of others.
pub(crate) fn renamed(tensor: &Tensor, name: &'static str) -> Tensor {
    let Some(node) = tensor.grad_fn() else {
        return tensor.clone();
    };
    let inner = node.clone();
    let renamed = GradFn(Rc::new(Node {
        id: tensor.session().next_id(),
        name,
        next: node.0.next.clone(),
        variable: None,
        backward: RefCell::new(Some(Box::new(move |grad: &Tensor| inner.apply(grad)))),
        saves_tensors: node.0.saves_tensors,
        retained: RefCell::default(),
        pre_hooks: RefCell::default(),
        function: None,
    }));
    trace_node(tensor, &renamed);
    tensor.alias_without_history().with_autograd(AutogradMeta {
        grad_fn: Some(renamed),
        ..AutogradMeta::default()
    })
}

/// Adds `grad` into a leaf's `.grad` (or sets it).
fn accumulate(leaf: &Tensor, grad: Tensor) -> Result<(), Error> {
    let existing = leaf.autograd().grad.clone();
    let updated = match existing {
        Some(g) => g.add(&grad)?,
        None => grad,
    };
    leaf.set_grad(Some(updated));
    Ok(())
}
