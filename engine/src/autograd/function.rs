//! `torch.autograd.Function`: a node whose forward and backward are the learner's. The caller
//! runs the forward itself and records its output here, with the node named as PyTorch names
//! it (`MyReLUBackward`) and edges to the tensor inputs; in the backward pass the engine stops
//! at the node and hands it to its caller ([`super::Step::Function`]), which runs the learner's
//! `backward` and gives the input gradients back.

use std::cell::RefCell;
use std::collections::HashSet;
use std::rc::Rc;

use super::{GradFn, HookFn, Node, edge_to};
use crate::tensor::Tensor;

thread_local! {
    /// Node names made at run time, one allocation per distinct name.
    static NAMES: RefCell<HashSet<&'static str>> = RefCell::default();
}

fn intern(name: &str) -> &'static str {
    NAMES.with(|names| {
        let mut names = names.borrow_mut();
        match names.get(name) {
            Some(known) => known,
            None => {
                let leaked: &'static str = Box::leak(name.to_owned().into_boxed_str());
                names.insert(leaked);
                leaked
            }
        }
    })
}

/// `output` (computed by the learner's forward with grad mode off) as the result of a
/// `Function` node named `name` whose inputs are `inputs`, its backward `function`. Unchanged
/// where grad mode is off or no input requires grad. A forward that returned one of its inputs
/// gets a new tensor over the same memory, as PyTorch's `Function.apply` gives.
pub fn record_function(
    output: &Tensor,
    inputs: &[&Tensor],
    name: &str,
    function: HookFn,
) -> Tensor {
    let session = output.session();
    let Some(tracked) = inputs.iter().find(|t| t.requires_grad()) else {
        return output.clone();
    };
    if !session.is_grad_enabled() {
        return output.clone();
    }
    let output = match inputs.iter().any(|t| t.is(output)) {
        true => output.detach(),
        false => output.clone(),
    };
    let node = GradFn(Rc::new(Node {
        id: session.next_id(),
        name: intern(name),
        next: inputs.iter().map(|t| edge_to(t)).collect(),
        variable: None,
        backward: RefCell::new(None),
        saves_tensors: false,
        retained: RefCell::default(),
        pre_hooks: RefCell::default(),
        function: Some(function),
    }));
    super::trace_node(tracked, &node);
    output.with_autograd(super::AutogradMeta {
        grad_fn: Some(node),
        ..super::AutogradMeta::default()
    })
}

impl GradFn {
    /// The learner's backward of a `Function` node.
    pub(super) fn function(&self) -> Option<HookFn> {
        self.0.function.clone()
    }
}
