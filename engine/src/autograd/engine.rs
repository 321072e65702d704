//! The backward pass, PyTorch's autograd engine in small: `tensor.backward()`,
//! `torch.autograd.backward(tensors, grad_tensors, inputs=)` and `torch.autograd.grad`.
//!
//! The pass starts from the outputs' nodes with their gradients, runs each node once all the
//! nodes that feed it have run (summing the gradients that meet there), and delivers what
//! reaches the targets: every leaf's `.grad` by default; only the `inputs` given; or, for
//! `autograd.grad`, back to the caller with no `.grad` touched. With inputs named, only the
//! nodes on a path to one of them run (the others keep their saved tensors, as in PyTorch).
//! Nodes run with grad mode off: their formulas compute gradients with the kernels directly,
//! without graphs of their own (so there is no `create_graph` yet). The pass stops where the
//! caller has work to do — a tensor hook to run, a GPU readback to await — and resumes there,
//! so no node runs twice.

use std::collections::{HashMap, HashSet};
use std::rc::Weak;

use super::hooks::{HookFn, hook_at};
use super::{GradFn, accumulate, graph_node_of};
use crate::error::Error;
use crate::tensor::Tensor;
use crate::trace::EventKind;

/// Where a backward pass sends the gradients that reach its targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deliver {
    /// Added into `.grad` (`backward()`; with `inputs`, only into theirs).
    Accumulate,
    /// Returned, one per input, `.grad` untouched (`torch.autograd.grad`).
    Return,
}

/// One request for a backward pass.
pub struct Backprop {
    pub outputs: Vec<Tensor>,
    /// A gradient per output; `None` is ones, allowed for one-element outputs only.
    pub grad_outputs: Vec<Option<Tensor>>,
    /// The tensors whose gradients are wanted (`None`: every leaf, for `Accumulate`).
    pub inputs: Option<Vec<Tensor>>,
    pub deliver: Deliver,
    pub retain_graph: bool,
}

/// Where a pass stopped.
pub enum Step {
    /// Done: the gradients of the inputs for [`Deliver::Return`] (`None` for an input the
    /// outputs do not depend on), nothing otherwise.
    Done(Vec<Option<Tensor>>),
    /// A hook to run on `grad`; give its result to [`BackwardPass::hook_returned`], then
    /// resume.
    Hook { hook: HookFn, grad: Tensor },
    /// A `torch.autograd.Function`'s backward to run on `grad`: give the gradients of its
    /// tensor inputs to [`BackwardPass::function_returned`], then resume. `retain_graph` says
    /// whether the graph outlives the pass (its saved tensors are freed otherwise).
    Function {
        function: HookFn,
        grad: Tensor,
        retain_graph: bool,
    },
}

/// Where [`BackwardPass::run`] stopped for its caller.
enum Pause {
    Hook(HookFn, Tensor),
    Function(HookFn, Tensor),
}

/// `tensor.backward(gradient, retain_graph)`, for callers that run no hooks and read no GPU
/// memory asynchronously (the engine's own tests).
pub fn backward(root: &Tensor, gradient: Option<&Tensor>, retain_graph: bool) -> Result<(), Error> {
    match BackwardPass::new(Backprop::of(root, gradient, retain_graph))?.resume()? {
        Step::Done(_) => Ok(()),
        Step::Hook { .. } | Step::Function { .. } => Err(Error::HookWithoutRunner),
    }
}

impl Backprop {
    fn of(root: &Tensor, gradient: Option<&Tensor>, retain_graph: bool) -> Backprop {
        Backprop {
            outputs: vec![root.clone()],
            grad_outputs: vec![gradient.cloned()],
            inputs: None,
            deliver: Deliver::Accumulate,
            retain_graph,
        }
    }
}

/// One backward pass: the nodes ready to run and the gradients waiting for them.
pub struct BackwardPass {
    session: crate::session::Session,
    retain_graph: bool,
    deliver: Deliver,
    inputs: Vec<Tensor>,
    /// The inputs whose gradient arrives at each node (their `grad_fn`, or their leaf's
    /// `AccumulateGrad`); empty when every leaf is a target.
    targets: HashMap<u64, Vec<usize>>,
    /// The nodes on a path to a target (`None`: all of them).
    needed: Option<HashSet<u64>>,
    /// Outputs that are leaves themselves, with their gradients.
    leaves: Vec<(Tensor, Tensor)>,
    /// How many edges from nodes not yet run point at each node.
    dependencies: HashMap<u64, usize>,
    buffers: HashMap<u64, Tensor>,
    ready: Vec<GradFn>,
    found: Vec<Option<Tensor>>,
    /// The node whose gradient's hooks are running, and how many have run (kept once all
    /// have, so that a node retried after a readback does not run them again).
    hooking: Option<(u64, usize)>,
    /// The `Function` node handed to the caller, then the gradients it gave back.
    function_pending: Option<u64>,
    function_grads: Option<(u64, Vec<Option<Tensor>>)>,
}

impl BackwardPass {
    pub fn new(request: Backprop) -> Result<Self, Error> {
        let Backprop {
            outputs,
            grad_outputs,
            inputs,
            deliver,
            retain_graph,
        } = request;
        let session = outputs[0].session().clone();
        let mut pass = BackwardPass {
            session: session.clone(),
            retain_graph,
            deliver,
            inputs: inputs.clone().unwrap_or_default(),
            targets: HashMap::new(),
            needed: None,
            leaves: Vec::new(),
            dependencies: HashMap::new(),
            buffers: HashMap::new(),
            ready: Vec::new(),
            found: Vec::new(),
            hooking: None,
            function_pending: None,
            function_grads: None,
        };
        let mut roots = Vec::new();
        for (index, (output, given)) in outputs.iter().zip(grad_outputs).enumerate() {
            if !output.requires_grad() {
                return Err(Error::BackwardWithoutGrad { index });
            }
            let grad = match given {
                Some(g) if g.shape() != output.shape() => {
                    return Err(Error::BackwardGradShape {
                        index,
                        grad: g.shape().to_vec(),
                        output: output.shape().to_vec(),
                    });
                }
                Some(g) => g,
                None if output.numel() != 1 => return Err(Error::ImplicitGradNonScalar),
                None => Tensor::full(
                    &session,
                    output.shape(),
                    crate::Scalar::Float(1.0),
                    output.dtype(),
                    output.device(),
                )?,
            };
            let root = output.grad_fn();
            session.record(Some(output.device()), || EventKind::Backward {
                root: root.as_ref().map(GradFn::id),
            });
            match root {
                Some(node) => {
                    let summed = match pass.buffers.remove(&node.id()) {
                        Some(existing) => existing.add(&grad)?,
                        None => {
                            roots.push(node.clone());
                            grad
                        }
                    };
                    pass.buffers.insert(node.id(), summed);
                }
                None => pass.leaves.push((output.clone(), grad)),
            }
        }
        for (index, input) in pass.inputs.iter().enumerate() {
            if !input.requires_grad() {
                return Err(match deliver {
                    Deliver::Return => Error::GradInputWithoutGrad,
                    Deliver::Accumulate => Error::RetainGradWithoutGrad,
                });
            }
            if let Some(node) = graph_node_of(input) {
                pass.targets.entry(node).or_default().push(index);
            }
        }
        pass.found = vec![None; pass.inputs.len()];

        let mut seen = HashSet::new();
        let mut stack = roots.clone();
        while let Some(node) = stack.pop() {
            if !seen.insert(node.id()) {
                continue;
            }
            for next in node.next_functions().iter().flatten() {
                *pass.dependencies.entry(next.id()).or_insert(0) += 1;
                stack.push(next.clone());
            }
        }
        if inputs.is_some() {
            pass.needed = Some(needed_nodes(&roots, &pass.targets));
        }
        pass.ready = roots;
        Ok(pass)
    }

    fn is_needed(&self, node: &GradFn) -> bool {
        self.needed.as_ref().is_none_or(|n| n.contains(&node.id()))
    }

    /// Runs nodes until the pass is done, stops for a hook, or fails; a node that failed is
    /// ready to run again, its gradient kept (so a readback can be awaited and the pass
    /// resumed).
    pub fn resume(&mut self) -> Result<Step, Error> {
        let session = self.session.clone();
        match session.no_grad(|| self.run())? {
            Some(Pause::Hook(hook, grad)) => return Ok(Step::Hook { hook, grad }),
            Some(Pause::Function(function, grad)) => {
                return Ok(Step::Function {
                    function,
                    grad,
                    retain_graph: self.retain_graph,
                });
            }
            None => {}
        }
        Ok(Step::Done(match self.deliver {
            Deliver::Return => std::mem::take(&mut self.found),
            Deliver::Accumulate => Vec::new(),
        }))
    }

    /// What the hook [`Step::Hook`] handed out returned: a gradient to use instead, or `None`
    /// to keep it.
    pub fn hook_returned(&mut self, replacement: Option<Tensor>) {
        if let (Some((node, _)), Some(grad)) = (self.hooking, replacement) {
            self.buffers.insert(node, grad);
        }
    }

    /// What the `Function` backward [`Step::Function`] handed out returned: one gradient per
    /// tensor input of its forward, in order.
    pub fn function_returned(&mut self, grads: Vec<Option<Tensor>>) {
        if let Some(node) = self.function_pending.take() {
            self.function_grads = Some((node, grads));
        }
    }

    /// A gradient reaching input `index`.
    fn deliver_to(&mut self, index: usize, grad: &Tensor) -> Result<(), Error> {
        match self.deliver {
            Deliver::Return => {
                let summed = match self.found[index].take() {
                    Some(existing) => existing.add(grad)?,
                    None => grad.clone(),
                };
                self.found[index] = Some(summed);
            }
            Deliver::Accumulate => accumulate(&self.inputs[index], grad.clone())?,
        }
        Ok(())
    }

    /// In anomaly mode, a node's gradients with a NaN in them stop the pass (reading them is a
    /// sync point, as PyTorch's `isnan().any().item()` is).
    fn check_nan(
        &self,
        node: &GradFn,
        grads: Vec<Option<Tensor>>,
    ) -> Result<Vec<Option<Tensor>>, Error> {
        let mode = self.session.anomaly_mode();
        if !(mode.enabled && mode.check_nan) {
            return Ok(grads);
        }
        for (output, grad) in grads.iter().enumerate() {
            let Some(grad) = grad else { continue };
            if !grad.dtype().is_floating_point() {
                continue;
            }
            let nan = grad.scalars()?.iter().any(|s| s.as_f64().is_nan());
            if nan {
                return Err(Error::AnomalyNan {
                    node: node.name(),
                    output,
                });
            }
        }
        Ok(grads)
    }

    /// Runs nodes, until the end or a pause for the caller.
    fn run(&mut self) -> Result<Option<Pause>, Error> {
        for (leaf, grad) in std::mem::take(&mut self.leaves) {
            match self.needed.is_some() {
                false => accumulate(&leaf, grad)?,
                true => {
                    let named: Vec<usize> = (0..self.inputs.len())
                        .filter(|&i| self.inputs[i].is(&leaf))
                        .collect();
                    for index in named {
                        self.deliver_to(index, &grad)?;
                    }
                }
            }
        }
        while let Some(node) = self.ready.pop() {
            let Some(grad) = self.buffers.get(&node.id()).cloned() else {
                continue;
            };
            let targets = self.targets.get(&node.id()).cloned();
            if targets.is_none() && !self.is_needed(&node) {
                self.buffers.remove(&node.id());
                continue;
            }
            // The hooks on this gradient first, one at a time, each seeing the last one's result.
            let ran = match self.hooking {
                Some((id, ran)) if id == node.id() => ran,
                _ => 0,
            };
            if let Some(hook) = hook_at(&node, ran) {
                self.hooking = Some((node.id(), ran + 1));
                self.ready.push(node);
                return Ok(Some(Pause::Hook(hook, grad)));
            }
            for index in targets.unwrap_or_default() {
                self.deliver_to(index, &grad)?;
            }
            if !self.is_needed(&node) {
                self.buffers.remove(&node.id());
                continue;
            }
            let grads = if node.name() == "AccumulateGrad" {
                None
            } else if let Some(function) = node.function() {
                match self.function_grads.take() {
                    Some((id, grads)) if id == node.id() => Some(grads),
                    _ => {
                        self.function_pending = Some(node.id());
                        self.ready.push(node);
                        return Ok(Some(Pause::Function(function, grad)));
                    }
                }
            } else {
                let backward = node.0.backward.borrow();
                let apply = backward.as_ref().ok_or(Error::BackwardTwice)?;
                match apply(&grad).and_then(|grads| self.check_nan(&node, grads)) {
                    Ok(grads) => Some(grads),
                    Err(e) => {
                        drop(backward);
                        self.ready.push(node);
                        return Err(e);
                    }
                }
            };
            self.buffers.remove(&node.id());
            for kept in node.0.retained.borrow().iter().filter_map(Weak::upgrade) {
                accumulate(&Tensor::from_impl(kept), grad.clone())?;
            }
            let Some(grads) = grads else {
                // An `AccumulateGrad` that is not one of the named inputs: every leaf is a
                // target only when none were named.
                if let Some(leaf) = node.variable().filter(|_| self.needed.is_none()) {
                    accumulate(&leaf, grad)?;
                    self.session
                        .record(Some(leaf.device()), || EventKind::GradAccumulated {
                            node: node.id(),
                        });
                }
                continue;
            };
            if !self.retain_graph && node.0.saves_tensors {
                node.0.backward.borrow_mut().take();
            }
            for (next, grad) in node.next_functions().iter().zip(grads) {
                let Some(next) = next else { continue };
                if let Some(grad) = grad {
                    let summed = match self.buffers.remove(&next.id()) {
                        Some(existing) => existing.add(&grad)?,
                        None => grad,
                    };
                    self.buffers.insert(next.id(), summed);
                }
                let remaining = self.dependencies.entry(next.id()).or_insert(1);
                *remaining -= 1;
                if *remaining == 0 {
                    self.ready.push(next.clone());
                }
            }
        }
        Ok(None)
    }
}

/// The nodes on a path from a root to a target, found without recursion (graphs of long
/// training loops are deep): nodes in post-order, each after the nodes it feeds into.
fn needed_nodes(roots: &[GradFn], targets: &HashMap<u64, Vec<usize>>) -> HashSet<u64> {
    let mut order = Vec::new();
    let mut visited = HashSet::new();
    let mut stack: Vec<(GradFn, bool)> = roots.iter().map(|r| (r.clone(), false)).collect();
    while let Some((node, expanded)) = stack.pop() {
        if expanded {
            order.push(node);
            continue;
        }
        if !visited.insert(node.id()) {
            continue;
        }
        stack.push((node.clone(), true));
        for next in node.next_functions().iter().flatten() {
            if !visited.contains(&next.id()) {
                stack.push((next.clone(), false));
            }
        }
    }
    // `leads`: targets and the nodes above them.
    let (mut leads, mut needed) = (HashSet::new(), HashSet::new());
    for node in order {
        let above = node
            .next_functions()
            .iter()
            .flatten()
            .any(|n| leads.contains(&n.id()));
        if above {
            needed.insert(node.id());
        }
        if above || targets.contains_key(&node.id()) {
            leads.insert(node.id());
        }
    }
    needed
}
