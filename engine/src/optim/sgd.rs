//! SGD's update (`torch/optim/sgd.py`, `_single_tensor_sgd`): weight decay folded into the
//! gradient, a momentum buffer started from the first gradient, optional Nesterov look-ahead.

use crate::element::Scalar;
use crate::error::Error;
use crate::tensor::Tensor;

use super::{Options, ParamState, set_state_tensor, state_tensor};

pub(super) fn update(
    param: &Tensor,
    grad: &Tensor,
    options: &Options,
    state: &mut ParamState,
) -> Result<(), Error> {
    let lr = options.float("lr");
    let momentum = options.float("momentum");
    let dampening = options.float("dampening");
    let weight_decay = options.float("weight_decay");
    let mut grad = grad.clone();
    if weight_decay != 0.0 {
        grad = grad.add_scaled(param, Scalar::Float(weight_decay))?;
    }
    if momentum != 0.0 {
        let buffer = match state_tensor(state, "momentum_buffer") {
            None => grad.clone_tensor()?.detach(),
            Some(buffer) => {
                buffer.mul_(Scalar::Float(momentum))?;
                buffer.add_(&grad.mul(Scalar::Float(1.0 - dampening))?)?;
                buffer
            }
        };
        set_state_tensor(state, "momentum_buffer", buffer.clone());
        grad = if options.flag("nesterov") {
            grad.add_scaled(&buffer, Scalar::Float(momentum))?
        } else {
            buffer
        };
    }
    param.add_(&grad.mul(Scalar::Float(-lr))?)?;
    Ok(())
}
