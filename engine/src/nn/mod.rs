//! `torch.nn`: modules (the registry behind every layer and learner model), parameters, the
//! built-in layers and losses, their functional forms, and the initialisations PyTorch uses.

pub mod functional;
pub mod init;
mod layers;
mod module;
mod parallel;
mod parameter;

pub use layers::{Factory, Layer};
pub(crate) use module::ModuleParts;
pub use module::{Assign, CustomForward, IncompatibleKeys, Member, Module, Shown};
pub use parameter::Parameter;

use crate::error::Error;

/// `zero_grad(set_to_none)` over parameters, shared by modules and optimizers: the gradient is
/// dropped, or detached and zeroed in place.
pub(crate) fn zero_grads(parameters: &[Parameter], set_to_none: bool) -> Result<(), Error> {
    for p in parameters {
        let tensor = p.tensor();
        let Some(grad) = tensor.raw_grad() else {
            continue;
        };
        if set_to_none {
            tensor.set_grad(None);
        } else {
            let grad = if grad.grad_fn().is_some() {
                let detached = grad.detach();
                tensor.set_grad(Some(detached.clone()));
                detached
            } else {
                grad
            };
            tensor.session().no_grad(|| grad.zero_().map(|_| ()))?;
        }
    }
    Ok(())
}
