//! `nn.init`: the fills layers use for their default initialisation and learners call directly,
//! with PyTorch's arithmetic (gains and bounds computed in double precision exactly as
//! `torch/nn/init.py` does, values drawn by the same in-place random ops), so that a seeded model
//! starts from PyTorch's very weights.

use crate::element::Scalar;
use crate::error::Error;
use crate::tensor::Tensor;

/// `mode=` of the Kaiming fills: which fan keeps its variance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FanMode {
    FanIn,
    FanOut,
}

impl FanMode {
    pub fn parse(mode: &str) -> Result<FanMode, Error> {
        match mode {
            "fan_in" => Ok(FanMode::FanIn),
            "fan_out" => Ok(FanMode::FanOut),
            other => Err(Error::InitMode { mode: other.into() }),
        }
    }
}

/// `_calculate_fan_in_and_fan_out`: `(fan_in, fan_out)` of a weight of at least 2 dimensions
/// (further dimensions multiply both by the receptive field).
pub fn fan_in_and_fan_out(tensor: &Tensor) -> Result<(usize, usize), Error> {
    let shape = tensor.shape();
    if shape.len() < 2 {
        return Err(Error::FanOfVector);
    }
    let receptive: usize = shape[2..].iter().product();
    Ok((shape[1] * receptive, shape[0] * receptive))
}

/// `calculate_gain(nonlinearity, param)`.
pub fn calculate_gain(nonlinearity: &str, param: Option<f64>) -> Result<f64, Error> {
    Ok(match nonlinearity {
        "linear" | "conv1d" | "conv2d" | "conv3d" | "conv_transpose1d" | "conv_transpose2d"
        | "conv_transpose3d" | "sigmoid" => 1.0,
        "tanh" => 5.0 / 3.0,
        "relu" => 2f64.sqrt(),
        "leaky_relu" => {
            let slope = param.unwrap_or(0.01);
            (2.0 / (1.0 + slope.powi(2))).sqrt()
        }
        "selu" => 3.0 / 4.0,
        other => {
            return Err(Error::UnsupportedNonlinearity { name: other.into() });
        }
    })
}

/// The standard deviation of Kaiming's fills.
fn kaiming_std(tensor: &Tensor, a: f64, mode: FanMode, nonlinearity: &str) -> Result<f64, Error> {
    let (fan_in, fan_out) = fan_in_and_fan_out(tensor)?;
    let fan = match mode {
        FanMode::FanIn => fan_in,
        FanMode::FanOut => fan_out,
    };
    Ok(calculate_gain(nonlinearity, Some(a))? / (fan as f64).sqrt())
}

/// `kaiming_uniform_(tensor, a, mode, nonlinearity)`.
pub fn kaiming_uniform_(
    tensor: &Tensor,
    a: f64,
    mode: FanMode,
    nonlinearity: &str,
) -> Result<(), Error> {
    let bound = 3f64.sqrt() * kaiming_std(tensor, a, mode, nonlinearity)?;
    uniform_(tensor, -bound, bound)
}

/// `kaiming_normal_(tensor, a, mode, nonlinearity)`.
pub fn kaiming_normal_(
    tensor: &Tensor,
    a: f64,
    mode: FanMode,
    nonlinearity: &str,
) -> Result<(), Error> {
    let std = kaiming_std(tensor, a, mode, nonlinearity)?;
    normal_(tensor, 0.0, std)
}

fn xavier_std(tensor: &Tensor, gain: f64) -> Result<f64, Error> {
    let (fan_in, fan_out) = fan_in_and_fan_out(tensor)?;
    Ok(gain * (2.0 / (fan_in + fan_out) as f64).sqrt())
}

/// `xavier_uniform_(tensor, gain)`.
pub fn xavier_uniform_(tensor: &Tensor, gain: f64) -> Result<(), Error> {
    let bound = 3f64.sqrt() * xavier_std(tensor, gain)?;
    uniform_(tensor, -bound, bound)
}

/// `xavier_normal_(tensor, gain)`.
pub fn xavier_normal_(tensor: &Tensor, gain: f64) -> Result<(), Error> {
    let std = xavier_std(tensor, gain)?;
    normal_(tensor, 0.0, std)
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
    kaiming_uniform_(weight, 5f64.sqrt(), FanMode::FanIn, "leaky_relu")?;
    if let Some(bias) = bias {
        let (fan_in, _) = fan_in_and_fan_out(weight)?;
        let bound = if fan_in > 0 {
            1.0 / (fan_in as f64).sqrt()
        } else {
            0.0
        };
        uniform_(bias, -bound, bound)?;
    }
    Ok(())
}
