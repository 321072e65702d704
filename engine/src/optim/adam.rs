//! Adam's and AdamW's update (`torch/optim/adam.py`, `_single_tensor_adam`): a `step` counter kept
//! as a CPU float32 tensor, moving averages of the gradient and its square, bias correction, and
//! weight decay either folded into the gradient (Adam) or applied to the weights (AdamW).

use crate::device::Device;
use crate::dtype::DType;
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
    let session = param.session();
    let lr = options.float("lr");
    let eps = options.float("eps");
    let weight_decay = options.float("weight_decay");
    let (beta1, beta2) = options.betas();
    let amsgrad = options.flag("amsgrad");
    if state.is_empty() {
        let zeros = || param.full_like(Scalar::Int(0));
        set_state_tensor(
            state,
            "step",
            Tensor::full(
                session,
                &[],
                Scalar::Int(0),
                scalar_dtype(session),
                Device::CPU,
            )?,
        );
        set_state_tensor(state, "exp_avg", zeros()?);
        set_state_tensor(state, "exp_avg_sq", zeros()?);
        if amsgrad {
            set_state_tensor(state, "max_exp_avg_sq", zeros()?);
        }
    }
    let named = |name: &str| state_tensor(state, name).ok_or(Error::NoTensorOperand);
    let (step_t, exp_avg, exp_avg_sq) = (named("step")?, named("exp_avg")?, named("exp_avg_sq")?);

    let mut grad = grad.clone();
    step_t.add_(Scalar::Int(1))?;
    if weight_decay != 0.0 {
        if options.flag("decoupled_weight_decay") {
            param.mul_(Scalar::Float(1.0 - lr * weight_decay))?;
        } else {
            grad = grad.add_scaled(param, Scalar::Float(weight_decay))?;
        }
    }
    // exp_avg.lerp_(grad, 1 - beta1), the state tensor first so that a device mismatch names it
    // first, as PyTorch's kernel does.
    let towards_grad = exp_avg.neg()?.add(&grad)?;
    exp_avg.add_(&towards_grad.mul(Scalar::Float(1.0 - beta1))?)?;
    // exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
    exp_avg_sq.mul_(Scalar::Float(beta2))?;
    exp_avg_sq.add_(&grad.mul(Scalar::Float(1.0 - beta2))?.mul(&grad)?)?;

    let step = step_t.item()?.as_f64();
    let bias_correction1 = 1.0 - beta1.powf(step);
    let bias_correction2_sqrt = (1.0 - beta2.powf(step)).sqrt();
    let step_size = lr / bias_correction1;
    let second_moment = if amsgrad {
        let max = named("max_exp_avg_sq")?;
        max.copy_(&max.maximum(&exp_avg_sq)?)?;
        max
    } else {
        exp_avg_sq
    };
    let denom = second_moment
        .sqrt()?
        .div(Scalar::Float(bias_correction2_sqrt))?
        .add(Scalar::Float(eps))?;
    // param.addcdiv_(exp_avg, denom, value=-step_size)
    param.add_(&exp_avg.div(&denom)?.mul(Scalar::Float(-step_size))?)?;
    Ok(())
}

/// The dtype of the `step` count (`torch.optim.optimizer._get_scalar_dtype`): float64 when the
/// default dtype is, else float32.
fn scalar_dtype(session: &crate::Session) -> DType {
    match session.default_dtype() {
        DType::Float64 => DType::Float64,
        _ => DType::Float32,
    }
}
