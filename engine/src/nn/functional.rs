//! `torch.nn.functional`: the computations behind the layers and losses, each recording the node
//! PyTorch records (`AddmmBackward0`, `MseLossBackward0`, `NllLossBackward0`, …) and raising its
//! errors and warnings word for word.

use crate::amp::{CastPolicy, autocast_inputs};
use crate::autograd::{self, Backward, SavedTensor};
use crate::dtype::DType;
use crate::element::Scalar;
use crate::error::Error;
use crate::layout::ShapeText;
use crate::repr::python_float;
use crate::tensor::Tensor;

/// How a loss reduces its per-element values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Reduction {
    None,
    #[default]
    Mean,
    Sum,
}

impl Reduction {
    /// PyTorch's `reduction=` names.
    pub fn from_name(name: &str) -> Option<Reduction> {
        match name {
            "none" => Some(Reduction::None),
            "mean" => Some(Reduction::Mean),
            "sum" => Some(Reduction::Sum),
            _ => None,
        }
    }
}

/// `F.linear(input, weight, bias)`: `addmm(bias, input, weight.t())` on a batch of rows; other
/// ranks are folded to rows and back (`UnsafeViewBackward0`), as PyTorch does.
pub fn linear(input: &Tensor, weight: &Tensor, bias: Option<&Tensor>) -> Result<Tensor, Error> {
    let mut inputs = vec![input, weight];
    inputs.extend(bias);
    if let Some(cast) = autocast_inputs(CastPolicy::LowerPrecision, &inputs)? {
        return linear(&cast[0], &cast[1], cast.get(2));
    }
    let weight_t = weight.t()?;
    match bias {
        Some(bias) if input.dim() == 2 => bias.addmm(input, &weight_t),
        Some(bias) => {
            let features = *input.shape().last().unwrap_or(&1) as i64;
            let rows = input.reshape(&[-1, features])?;
            let out = bias.addmm(&rows, &weight_t)?;
            let mut shape = input.shape()[..input.dim().saturating_sub(1)].to_vec();
            shape.push(weight.shape()[0]);
            out.unsafe_view(&shape)
        }
        None if input.dim() == 2 => input.mm(&weight_t),
        None => input.matmul(&weight_t),
    }
}

/// `F.dropout(input, p, training)`: in training, each element is zeroed with probability `p` and
/// the rest scaled by `1/(1-p)` (a `bernoulli_` mask times the input: `MulBackward0`).
pub fn dropout(input: &Tensor, p: f64, training: bool) -> Result<Tensor, Error> {
    check_dropout_probability(p)?;
    if p == 0.0 || !training || input.numel() == 0 {
        return Ok(input.clone());
    }
    let session = input.session();
    if p == 1.0 {
        let zero = Tensor::full(session, &[], Scalar::Int(0), input.dtype(), input.device())?;
        return input.mul(&zero);
    }
    let noise = session.no_grad(|| -> Result<Tensor, Error> {
        let noise = Tensor::empty_like_shape(input)?;
        noise.bernoulli_(1.0 - p)?;
        noise.div_(Scalar::Float(1.0 - p))?;
        Ok(noise)
    })?;
    input.mul(&noise)
}

/// The check `nn.Dropout` and `F.dropout` share.
pub fn check_dropout_probability(p: f64) -> Result<(), Error> {
    if (0.0..=1.0).contains(&p) {
        Ok(())
    } else {
        Err(Error::DropoutProbability { p: python_float(p) })
    }
}

/// `torch.flatten(input, start_dim, end_dim)`.
pub fn flatten(input: &Tensor, start_dim: i64, end_dim: i64) -> Result<Tensor, Error> {
    if input.dim() == 0 {
        return input.reshape(&[1]);
    }
    let start = crate::layout::wrap_dim(start_dim, input.dim())?;
    let end = crate::layout::wrap_dim(end_dim, input.dim())?;
    if start >= end {
        return Ok(input.clone());
    }
    let shape = input.shape();
    let mut sizes: Vec<i64> = shape[..start].iter().map(|&s| s as i64).collect();
    sizes.push(shape[start..=end].iter().product::<usize>() as i64);
    sizes.extend(shape[end + 1..].iter().map(|&s| s as i64));
    input.reshape(&sizes)
}

/// Values of a loss reduced as asked (a mean over `count` elements), with the scale each
/// element's gradient takes.
fn reduce(values: Vec<f64>, reduction: Reduction, count: usize) -> (Vec<f64>, f64) {
    match reduction {
        Reduction::None => (values, 1.0),
        Reduction::Sum => (vec![values.iter().sum()], 1.0),
        Reduction::Mean => (
            vec![values.iter().sum::<f64>() / count as f64],
            1.0 / count as f64,
        ),
    }
}

/// A loss's result on `like`'s device and dtype: a scalar, or `shape` for `reduction='none'`.
fn loss_tensor(
    like: &Tensor,
    values: Vec<f64>,
    reduction: Reduction,
    shape: &[usize],
) -> Result<Tensor, Error> {
    let scalars: Vec<Scalar> = values.into_iter().map(Scalar::Float).collect();
    let shape = match reduction {
        Reduction::None => shape,
        Reduction::Mean | Reduction::Sum => &[],
    };
    Tensor::from_scalars(
        like.session(),
        &scalars,
        shape,
        Some(like.dtype()),
        like.device(),
        false,
    )
}

/// The upstream gradient of a loss, one value per element it reduced over.
fn upstream(grad: &Tensor, reduction: Reduction, n: usize) -> Result<Vec<f64>, Error> {
    let values: Vec<f64> = grad
        .kernel_scalars()?
        .into_iter()
        .map(Scalar::as_f64)
        .collect();
    Ok(match reduction {
        Reduction::None => values,
        Reduction::Mean | Reduction::Sum => vec![values.first().copied().unwrap_or(0.0); n],
    })
}

fn floats(t: &Tensor) -> Result<Vec<f64>, Error> {
    Ok(t.kernel_scalars()?
        .into_iter()
        .map(Scalar::as_f64)
        .collect())
}

/// A gradient tensor shaped and placed like `like`.
fn gradient_like(like: &Tensor, values: Vec<f64>) -> Result<Tensor, Error> {
    let scalars: Vec<Scalar> = values.into_iter().map(Scalar::Float).collect();
    Tensor::from_scalars(
        like.session(),
        &scalars,
        like.shape(),
        Some(like.dtype()),
        like.device(),
        false,
    )
}

/// `F.mse_loss(input, target, reduction)`: PyTorch warns when the shapes differ (they broadcast,
/// which is rarely what was meant).
pub fn mse_loss(input: &Tensor, target: &Tensor, reduction: Reduction) -> Result<Tensor, Error> {
    if let Some(cast) = autocast_inputs(CastPolicy::Float32, &[input, target])? {
        return mse_loss(&cast[0], &cast[1], reduction);
    }
    if input.shape() != target.shape() {
        input.session().warn(&format!(
            "Using a target size (torch.Size({})) that is different to the input size (torch.Size({})). This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.",
            ShapeText(target.shape()),
            ShapeText(input.shape())
        ));
    }
    let diff = input.session().no_grad(|| input.sub(target))?;
    let d = floats(&diff)?;
    let n = d.len();
    let (values, scale) = reduce(d.iter().map(|x| x * x).collect(), reduction, n);
    let out = loss_tensor(&diff, values, reduction, diff.shape())?;
    let (saved_input, saved_target) = (SavedTensor::new(input), SavedTensor::new(target));
    let meta = autograd::record(&[input, target], || {
        Backward::saving("MseLossBackward0", move |grad| {
            let (input, target) = (saved_input.unpack()?, saved_target.unpack()?);
            let diff = input.sub(target)?;
            let g = upstream(grad, reduction, n)?;
            let dx: Vec<f64> = floats(&diff)?
                .iter()
                .zip(&g)
                .map(|(d, g)| 2.0 * d * g * scale)
                .collect();
            let dx = gradient_like(&diff, dx)?;
            Ok(vec![
                Some(crate::ops::reduce_grad(&dx, input.shape(), input.dtype())?),
                Some(crate::ops::reduce_grad(
                    &dx.neg()?,
                    target.shape(),
                    target.dtype(),
                )?),
            ])
        })
    });
    Ok(out.with_autograd(meta))
}

/// `F.nll_loss(input, target, reduction, ignore_index)`: input holds log-probabilities with the
/// classes in dimension 1 (or 0 for a single sample), target holds class indices.
pub fn nll_loss(
    input: &Tensor,
    target: &Tensor,
    reduction: Reduction,
    ignore_index: i64,
) -> Result<Tensor, Error> {
    if let Some(cast) = autocast_inputs(CastPolicy::Float32, &[input])? {
        return nll_loss(&cast[0], target, reduction, ignore_index);
    }
    if input.dim() == 0 {
        return Err(Error::LossInputDims { dim: 0 });
    }
    if !matches!(target.dtype(), DType::Int64 | DType::UInt8) {
        return Err(Error::TargetDtype {
            dtype: target.dtype(),
        });
    }
    if input.dim() > 2 {
        // (N, C, d1, …) is (N·d1·…, C) with the classes moved last.
        let mut order: Vec<i64> = vec![0];
        order.extend(2..input.dim() as i64);
        order.push(1);
        let classes = input.shape()[1] as i64;
        let rows = input.permute(&order)?.reshape(&[-1, classes])?;
        let flat_target = target.reshape(&[-1])?;
        let out = nll_loss(&rows, &flat_target, reduction, ignore_index)?;
        if reduction != Reduction::None {
            return Ok(out);
        }
        let shape: Vec<i64> = target.shape().iter().map(|&s| s as i64).collect();
        return out.reshape(&shape);
    }
    let (batch, classes) = if input.dim() == 1 {
        (1, input.shape()[0])
    } else {
        (input.shape()[0], input.shape()[1])
    };
    let target_batch = if input.dim() == 1 {
        1
    } else {
        target.shape().first().copied().unwrap_or(0)
    };
    if target_batch != batch || (input.dim() == 2 && target.dim() != 1) {
        return Err(Error::BatchSizeMismatch {
            input: batch,
            target: target_batch,
        });
    }
    let targets: Vec<i64> = target
        .kernel_scalars()?
        .into_iter()
        .map(|s| s.as_f64() as i64)
        .collect();
    let out_of_bounds = move |t: i64| t != ignore_index && (t < 0 || t as usize >= classes);
    if let Some(&bad) = targets.iter().find(|&&t| out_of_bounds(t)) {
        input.session().device_assert(
            input.device(),
            "Loss.cu: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [0,0,0] Assertion `t >= 0 && t < n_classes` failed.",
            || Error::TargetOutOfBounds { target: bad },
        )?;
    }
    let log_probs = floats(input)?;
    // On a GPU whose assert is pending, out-of-range targets read nothing.
    let picked: Vec<f64> = targets
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            if t == ignore_index || out_of_bounds(t) {
                0.0
            } else {
                -log_probs[i * classes + t as usize]
            }
        })
        .collect();
    let counted = targets.iter().filter(|&&t| t != ignore_index).count();
    let (values, scale) = reduce(picked, reduction, counted);
    let out_shape: Vec<usize> = if input.dim() == 1 {
        Vec::new()
    } else {
        vec![batch]
    };
    let out = loss_tensor(input, values, reduction, &out_shape)?;
    let input_like = input.detach();
    let meta = autograd::record(&[input], || {
        Backward::new("NllLossBackward0", move |grad| {
            let g = upstream(grad, reduction, targets.len())?;
            let mut dx = vec![0.0; batch * classes];
            for (i, &t) in targets.iter().enumerate() {
                if t != ignore_index && !out_of_bounds(t) {
                    dx[i * classes + t as usize] = -g[i] * scale;
                }
            }
            Ok(vec![Some(gradient_like(&input_like, dx)?)])
        })
    });
    Ok(out.with_autograd(meta))
}

/// `F.cross_entropy(input, target, reduction, ignore_index)`: `log_softmax` over the classes, then
/// `nll_loss`, so the graph reads `NllLossBackward0 → LogSoftmaxBackward0` as in PyTorch.
pub fn cross_entropy(
    input: &Tensor,
    target: &Tensor,
    reduction: Reduction,
    ignore_index: i64,
) -> Result<Tensor, Error> {
    if let Some(cast) = autocast_inputs(CastPolicy::Float32, &[input])? {
        return cross_entropy(&cast[0], target, reduction, ignore_index);
    }
    let class_dim = if input.dim() <= 1 { 0 } else { 1 };
    nll_loss(
        &input.log_softmax(class_dim)?,
        target,
        reduction,
        ignore_index,
    )
}

/// `F.binary_cross_entropy_with_logits(input, target, reduction)`, computed stably:
/// `(1 − t)·x + log(1 + e^(−x))` with the exponent kept non-positive.
pub fn binary_cross_entropy_with_logits(
    input: &Tensor,
    target: &Tensor,
    reduction: Reduction,
) -> Result<Tensor, Error> {
    if let Some(cast) = autocast_inputs(CastPolicy::Float32, &[input, target])? {
        return binary_cross_entropy_with_logits(&cast[0], &cast[1], reduction);
    }
    if input.shape() != target.shape() {
        return Err(Error::TargetSizeMismatch {
            target: target.shape().to_vec(),
            input: input.shape().to_vec(),
        });
    }
    crate::ops::common_device(&[input, target])?;
    let (x, t) = (floats(input)?, floats(target)?);
    let n = x.len();
    let losses: Vec<f64> = x
        .iter()
        .zip(&t)
        .map(|(&x, &t)| {
            let max = (-x).max(0.0);
            (1.0 - t) * x + max + ((-max).exp() + (-x - max).exp()).ln()
        })
        .collect();
    let (values, scale) = reduce(losses, reduction, n);
    let out = loss_tensor(input, values, reduction, input.shape())?;
    let (saved_input, saved_target) = (SavedTensor::new(input), SavedTensor::new(target));
    let meta = autograd::record(&[input, target], || {
        Backward::saving("BinaryCrossEntropyWithLogitsBackward0", move |grad| {
            let (input, target) = (saved_input.unpack()?, saved_target.unpack()?);
            let (x, t) = (floats(input)?, floats(target)?);
            let g = upstream(grad, reduction, x.len())?;
            let sigmoid = |v: f64| 1.0 / (1.0 + (-v).exp());
            let dx = x
                .iter()
                .zip(&t)
                .zip(&g)
                .map(|((&x, &t), &g)| (sigmoid(x) - t) * g * scale)
                .collect();
            let dt = x.iter().zip(&g).map(|(&x, &g)| -x * g * scale).collect();
            Ok(vec![
                Some(gradient_like(input, dx)?),
                Some(gradient_like(target, dt)?),
            ])
        })
    });
    Ok(out.with_autograd(meta))
}

impl Tensor {
    /// `torch.empty_like(self)` for a fill that follows (contiguous, same dtype and device).
    fn empty_like_shape(&self) -> Result<Tensor, Error> {
        Tensor::full(
            self.session(),
            self.shape(),
            Scalar::Int(0),
            self.dtype(),
            self.device(),
        )
    }
}
