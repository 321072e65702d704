//! `Tensor.register_hook`: functions run on a tensor's gradient during the backward pass, in
//! the order registered, each able to replace it. A non-leaf's hooks sit on the node that made
//! it (they run on the gradient arriving there, before the node runs, and before `retain_grad`
//! keeps it); a leaf's on the leaf (before accumulation into `.grad`). The engine does not run
//! them itself: the pass stops and hands each to its caller ([`super::Step::Hook`]), which is
//! what calls learners' Python.

use std::rc::{Rc, Weak};

use super::GradFn;
use crate::error::Error;
use crate::tensor::{Tensor, TensorImpl};

/// A hook as its caller registered it (the lab's Python function), handed back to run.
pub type HookFn = Rc<dyn std::any::Any>;

/// Hooks on one gradient, in the order registered.
#[derive(Clone, Default)]
pub(crate) struct Hooks(Vec<(u64, HookFn)>);

impl std::fmt::Debug for Hooks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} hooks", self.0.len())
    }
}

impl Hooks {
    fn push(&mut self, id: u64, hook: HookFn) {
        self.0.push((id, hook));
    }

    fn remove(&mut self, id: u64) {
        self.0.retain(|(i, _)| *i != id);
    }

    fn get(&self, index: usize) -> Option<HookFn> {
        self.0.get(index).map(|(_, h)| h.clone())
    }
}

/// What `register_hook` returns: `remove()` takes the hook off (PyTorch's `RemovableHandle`).
#[derive(Debug)]
pub struct HookHandle {
    tensor: Weak<TensorImpl>,
    id: u64,
}

impl HookHandle {
    /// The hook no longer runs; nothing happens once it is removed or its tensor is gone.
    pub fn remove(&self) {
        let Some(tensor) = self.tensor.upgrade().map(Tensor::from_impl) else {
            return;
        };
        if let Some(node) = tensor.grad_fn() {
            node.0.pre_hooks.borrow_mut().remove(self.id);
        }
        tensor.meta_mut().hooks.remove(self.id);
    }
}

impl Tensor {
    /// `register_hook(hook)`: `hook` runs on this tensor's gradient in every backward pass that
    /// reaches it.
    pub fn register_hook(&self, hook: HookFn) -> Result<HookHandle, Error> {
        if !self.requires_grad() {
            return Err(Error::HookWithoutGrad);
        }
        let id = self.session().next_id();
        match self.grad_fn() {
            Some(node) => node.0.pre_hooks.borrow_mut().push(id, hook),
            None => self.meta_mut().hooks.push(id, hook),
        }
        Ok(HookHandle {
            tensor: self.downgrade(),
            id,
        })
    }
}

/// Hook `index` of those on the gradient arriving at `node`: the leaf's for its
/// `AccumulateGrad`, the node's own otherwise.
pub(super) fn hook_at(node: &GradFn, index: usize) -> Option<HookFn> {
    match node.variable() {
        Some(leaf) => leaf.autograd().hooks.get(index),
        None => node.0.pre_hooks.borrow().get(index),
    }
}
