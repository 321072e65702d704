//! `nn.init`: the fills layers use for their default initialisation, with PyTorch's arithmetic
//! (bounds computed in double precision exactly as `torch/nn/init.py` does, values drawn by the
//! same in-place random ops), so that a seeded model starts from PyTorch's very weights.

use crate::element::Scalar;
use crate::error::Error;
use crate::tensor::Tensor;

/// `_calculate_fan_in_and_fan_out`: `(fan_in, fan_out)` of a weight of at least 2 dimensions
/// (further dimensions multiply both by the receptive field).
pub fn fan_in_and_fan_out(tensor: &Tensor) -> (usize, usize) {
    let shape = tensor.shape();
    if shape.len() < 2 {
        return (0, 0);
    }
    let receptive: usize = shape[2..].iter().product();
    (shape[1] * receptive, shape[0] * receptive)
}

/// `calculate_gain('leaky_relu', negative_slope)`.
fn leaky_relu_gain(negative_slope: f64) -> f64 {
    (2.0 / (1.0 + negative_slope.powi(2))).sqrt()
}

/// `kaiming_uniform_(tensor, a, mode='fan_in', nonlinearity='leaky_relu')`.
pub fn kaiming_uniform_(tensor: &Tensor, a: f64) -> Result<(), Error> {
    let (fan_in, _) = fan_in_and_fan_out(tensor);
    let std = leaky_relu_gain(a) / (fan_in as f64).sqrt();
    let bound = 3f64.sqrt() * std;
    uniform_(tensor, -bound, bound)
}

/// `xavier_uniform_(tensor, gain)`.
pub fn xavier_uniform_(tensor: &Tensor, gain: f64) -> Result<(), Error> {
    let (fan_in, fan_out) = fan_in_and_fan_out(tensor);
    let std = gain * (2.0 / (fan_in + fan_out) as f64).sqrt();
    let bound = 3f64.sqrt() * std;
    uniform_(tensor, -bound, bound)
}

/// `uniform_(tensor, a, b)`, without recording history.
pub fn uniform_(tensor: &Tensor, a: f64, b: f64) -> Result<(), Error> {
    tensor
        .session()
        .no_grad(|| tensor.uniform_(a, b).map(|_| ()))
}

/// `normal_(tensor, mean, std)`, without recording history.
pub fn normal_(tensor: &Tensor, mean: f64, std: f64) -> Result<(), Error> {
    tensor
        .session()
        .no_grad(|| tensor.normal_(mean, std).map(|_| ()))
}

/// `constant_(tensor, value)`; `zeros_` and `ones_` are 0 and 1.
pub fn constant_(tensor: &Tensor, value: f64) -> Result<(), Error> {
    tensor
        .session()
        .no_grad(|| tensor.fill_(Scalar::Float(value)).map(|_| ()))
}

/// The default of `nn.Linear` and `nn.Conv2d`: weight `kaiming_uniform_(a=√5)`, bias uniform in
/// ±1/√fan_in.
pub fn default_weight_and_bias(weight: &Tensor, bias: Option<&Tensor>) -> Result<(), Error> {
    kaiming_uniform_(weight, 5f64.sqrt())?;
    if let Some(bias) = bias {
        let (fan_in, _) = fan_in_and_fan_out(weight);
        let bound = if fan_in > 0 {
            1.0 / (fan_in as f64).sqrt()
        } else {
            0.0
        };
        uniform_(bias, -bound, bound)?;
    }
    Ok(())
}
