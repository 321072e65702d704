//! Autograd's graph: nodes named as PyTorch names them (`ToCopyBackward0`, `ViewBackward0`,
//! `AccumulateGrad`, …), their edges (`next_functions`), and each tensor's autograd state.
//!
//! A node is recorded when grad mode is on and an input requires grad; its edges point at the
//! inputs' own nodes, or, for leaves, at their `AccumulateGrad` node (one per leaf, kept while the
//! graph holds it, whose `variable` is the leaf).

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use crate::tensor::{Tensor, TensorImpl};

/// A `grad_fn`: one node of the backward graph.
#[derive(Debug, Clone)]
pub struct GradFn(Rc<Node>);

#[derive(Debug)]
struct Node {
    id: u64,
    name: &'static str,
    next: Vec<Option<GradFn>>,
    /// The leaf an `AccumulateGrad` node accumulates into.
    variable: Option<Weak<TensorImpl>>,
}

impl GradFn {
    /// The class name PyTorch prints: `ToCopyBackward0`.
    pub fn name(&self) -> &'static str {
        self.0.name
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

    /// `AccumulateGrad.variable`: the leaf, while it is alive.
    pub fn variable(&self) -> Option<Tensor> {
        self.0
            .variable
            .as_ref()
            .and_then(Weak::upgrade)
            .map(Tensor::from_impl)
    }
}

/// A tensor's autograd state.
#[derive(Debug, Default)]
pub(crate) struct AutogradMeta {
    /// Set on leaves by `requires_grad=True` / `requires_grad_()`; non-leaves require grad because
    /// they have a `grad_fn`.
    pub requires_grad: bool,
    pub grad_fn: Option<GradFn>,
    /// The leaf's `AccumulateGrad` node, while some graph holds it.
    accumulator: RefCell<Weak<Node>>,
}

impl AutogradMeta {
    pub fn requires_grad(&self) -> bool {
        self.requires_grad || self.grad_fn.is_some()
    }

    pub fn with_grad_fn(grad_fn: GradFn) -> Self {
        AutogradMeta {
            requires_grad: false,
            grad_fn: Some(grad_fn),
            accumulator: RefCell::default(),
        }
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
        variable: Some(input.downgrade()),
    });
    *meta.accumulator.borrow_mut() = Rc::downgrade(&node);
    Some(GradFn(node))
}

/// The autograd state of an op's output: a new `name` node over `inputs` when grad mode is on and
/// some input requires grad, else a plain tensor's.
pub(crate) fn record(name: &'static str, inputs: &[&Tensor]) -> AutogradMeta {
    let Some(first) = inputs.first() else {
        return AutogradMeta::default();
    };
    let session = first.session();
    if !session.is_grad_enabled() || !inputs.iter().any(|t| t.requires_grad()) {
        return AutogradMeta::default();
    }
    let node = GradFn(Rc::new(Node {
        id: session.next_id(),
        name,
        next: inputs.iter().map(|t| edge_to(t)).collect(),
        variable: None,
    }));
    session.record(None, || crate::trace::EventKind::GraphNode {
        node: node.id(),
        name: name.to_owned(),
    });
    AutogradMeta::with_grad_fn(node)
}
