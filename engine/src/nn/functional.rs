//! `torch.nn.functional`: the computations behind the layers and losses, each recording the node
//! PyTorch records (`AddmmBackward0`, `MseLossBackward0`, `NllLossBackward0`, …) and raising its
//! errors and warnings word for word.

use crate::amp::{CastPolicy, autocast_inputs};
use crate::autograd::{self, Backward, SavedTensor};
use crate::backend::cpu::elementwise::Binary;
use crate::dtype::DType;
use crate::element::Scalar;
use crate::error::Error;
use crate::layout::ShapeText;
use crate::ops::gpu::gather;
use crate::ops::indexing::{Picking, Walk, pick_gradient};
use crate::repr::python_float;
use crate::tensor::Tensor;

/// How a loss reduces its per-element values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
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
/// ranks are folded to rows and back (`UnsafeViewBackward0`), as PyTorch does for contiguous
/// inputs.
pub fn linear(input: &Tensor, weight: &Tensor, bias: Option<&Tensor>) -> Result<Tensor, Error> {
    let mut inputs = vec![input, weight];
    inputs.extend(bias);
    if let Some(cast) = autocast_inputs(CastPolicy::LowerPrecision, &inputs)? {
        return linear(&cast[0], &cast[1], cast.get(2));
    }
    let weight_t = weight.t()?;
    match bias {
        Some(bias) if input.dim() == 2 => bias.addmm(input, &weight_t),
        // A non-contiguous input goes through matmul and an add (`AddBackward0`), as in PyTorch.
        Some(bias) if !input.is_contiguous() => input.matmul(&weight_t)?.add(bias),
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
    Tensor::from_values(
        like.session(),
        &scalars,
        shape,
        like.dtype(),
        like.device(),
        "loss",
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
    Tensor::from_values(
        like.session(),
        &scalars,
        like.shape(),
        like.dtype(),
        like.device(),
        "loss_backward",
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
    let session = input.session();
    let n = broadcast_numel(input, target)?;
    let out = session.no_grad(|| {
        let diff = input.sub(target)?;
        reduced(diff.mul(&diff)?, reduction)
    })?;
    let (saved_input, saved_target) = (SavedTensor::new(input), SavedTensor::new(target));
    let meta = autograd::record(&[input, target], || {
        Backward::saving("MseLossBackward0", move |grad| {
            let (input, target) = (saved_input.unpack()?, saved_target.unpack()?);
            let dx = input
                .sub(target)?
                .mul(&per_element(grad, reduction, n)?)?
                .mul(Scalar::Int(2))?;
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

/// The elements a loss over `input` and `target` (broadcast) has.
fn broadcast_numel(input: &Tensor, target: &Tensor) -> Result<usize, Error> {
    Ok(
        crate::layout::broadcast_shapes(input.shape(), target.shape())?
            .iter()
            .product(),
    )
}

/// A loss's per-element values reduced as asked (by the reduction kernels on a GPU).
fn reduced(losses: Tensor, reduction: Reduction) -> Result<Tensor, Error> {
    match reduction {
        Reduction::None => Ok(losses),
        Reduction::Sum => losses.sum(&[], false),
        Reduction::Mean => losses.mean(&[], false),
    }
}

/// The upstream gradient as each of a loss's `n` elements receives it (broadcast from a scalar
/// for `sum` and `mean`, divided by `n` for the mean).
fn per_element(grad: &Tensor, reduction: Reduction, n: usize) -> Result<Tensor, Error> {
    match reduction {
        Reduction::Mean => grad.div(Scalar::Int(n as i64)),
        Reduction::Sum | Reduction::None => Ok(grad.clone()),
    }
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
    // Inputs of more than two dimensions go to the kernel for images, whose wrapper is named so.
    let method = match input.dim() > 2 {
        true => "wrapper_CUDA__nll_loss2d_forward",
        false => "wrapper_CUDA_nll_loss_forward",
    };
    crate::ops::check_arguments(method, &[("self", Some(input)), ("target", Some(target))])?;
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
    if target.dim() > 1 {
        return Err(Error::MultiTarget);
    }
    if input.dim() == 1 && target.numel() != 1 {
        return Err(Error::NllTarget1d {
            size: target.numel(),
        });
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
    const ASSERT: &str = "Loss.cu: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [0,0,0] Assertion `t >= 0 && t < n_classes` failed.";
    let out_of_bounds = move |t: i64| t != ignore_index && (t < 0 || t as usize >= classes);
    // The host's check of the targets: the CPU's error, or a device-side assert where no kernel
    // checks them.
    let checked_targets =
        || -> Result<Vec<i64>, Error> {
            let targets: Vec<i64> = target
                .kernel_scalars()?
                .into_iter()
                .map(|s| s.as_f64() as i64)
                .collect();
            if let Some(&bad) = targets.iter().find(|&&t| out_of_bounds(t)) {
                input.session().device_assert(input.device(), ASSERT, || {
                    Error::TargetOutOfBounds { target: bad }
                })?;
            }
            Ok(targets)
        };
    let picking = Picking::targets(&Walk::layout(input), &Walk::layout(target), ignore_index);
    let host_check = || checked_targets().map(drop);
    if let Some(picked) = gather(input, target, &picking, ("nll_loss", ASSERT), host_check) {
        return nll_loss_on_gpu(input, target, &picked?, reduction, ignore_index);
    }
    let targets = checked_targets()?;
    let kept = move |t: i64| t != ignore_index && !out_of_bounds(t);
    let counted = targets.iter().filter(|&&t| t != ignore_index).count();
    let log_probs = floats(input)?;
    // On a GPU whose assert is pending, out-of-range targets read nothing.
    let picked: Vec<f64> = targets
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            if kept(t) {
                -log_probs[i * classes + t as usize]
            } else {
                0.0
            }
        })
        .collect();
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
                if kept(t) {
                    dx[i * classes + t as usize] = -g[i] * scale;
                }
            }
            Ok(vec![Some(gradient_like(&input_like, dx)?)])
        })
    });
    Ok(out.with_autograd(meta))
}

/// `nll_loss` on the GPU from `picked`, each row's log-probability at its target (0 where the
/// target is `ignore_index`), which the gather kernel read while checking the targets. The mean
/// divides by the count of targets not ignored, counted on the GPU too (0 of them gives NaN, as
/// in PyTorch). The backward pass scatters `−grad` (divided by that count for the mean) back to
/// each row's target.
fn nll_loss_on_gpu(
    input: &Tensor,
    target: &Tensor,
    picked: &Tensor,
    reduction: Reduction,
    ignore_index: i64,
) -> Result<Tensor, Error> {
    let session = input.session();
    let rows = picked.numel() as i64;
    let counted = session.no_grad(|| {
        target
            .compare(Binary::Ne, Scalar::Int(ignore_index))?
            .sum(&[], false)
    })?;
    let out = session.no_grad(|| -> Result<Tensor, Error> {
        let losses = picked.neg()?;
        match reduction {
            // A 1-D input (one sample) gives a 0-dim loss.
            Reduction::None if input.dim() == 1 => losses.reshape(&[]),
            Reduction::None => Ok(losses),
            Reduction::Sum => losses.sum(&[], false),
            Reduction::Mean => losses.sum(&[], false)?.div(&counted),
        }
    })?;
    let (target, shape) = (target.detach(), input.shape().to_vec());
    let meta = autograd::record(&[input], || {
        Backward::new("NllLossBackward0", move |grad| {
            let per_row = match reduction {
                Reduction::Mean => grad.div(&counted)?,
                Reduction::Sum | Reduction::None => grad.clone(),
            }
            .neg()?
            .reshape(&[-1])?
            .expand(&[rows])?;
            let spread = pick_gradient(&per_row, &target, &shape, |input, target| {
                Picking::targets(input, target, ignore_index)
            })?;
            Ok(vec![Some(spread)])
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
    let n = input.numel();
    let out = input.session().no_grad(|| {
        // relu(x) − t·x + log(1 + e^(−|x|)): the exponent is never positive.
        let softplus = input.abs()?.neg()?.exp()?.add(Scalar::Int(1))?.log()?;
        let losses = input.relu()?.sub(&target.mul(input)?)?.add(&softplus)?;
        reduced(losses, reduction)
    })?;
    let (saved_input, saved_target) = (SavedTensor::new(input), SavedTensor::new(target));
    let meta = autograd::record(&[input, target], || {
        Backward::saving("BinaryCrossEntropyWithLogitsBackward0", move |grad| {
            let (input, target) = (saved_input.unpack()?, saved_target.unpack()?);
            let g = per_element(grad, reduction, n)?;
            let dx = input.sigmoid()?.sub(target)?.mul(&g)?;
            let dt = input.neg()?.mul(&g)?;
            Ok(vec![Some(dx), Some(dt)])
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

/// `padding=` of a convolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Padding {
    /// Zeros added on both sides of each axis (`padding=(1, 1)`; `'valid'` is zero).
    Explicit([usize; 2]),
    /// `'same'`: the output as large as the input (stride 1 only).
    Same,
}

/// `F.conv2d(input, weight, bias, stride, padding, dilation, groups)`; a single `(C, H, W)`
/// image is treated as a batch of one and squeezed back (`SqueezeBackward1`).
pub fn conv2d(
    input: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    stride: [usize; 2],
    padding: Padding,
    dilation: [usize; 2],
    groups: usize,
) -> Result<Tensor, Error> {
    let (padding, padding_extra) = match padding {
        Padding::Explicit(p) => (p, [0, 0]),
        Padding::Same => {
            if stride != [1, 1] {
                return Err(Error::SamePaddingStride);
            }
            let kernel = [
                weight.shape().get(2).copied().unwrap_or(1),
                weight.shape().get(3).copied().unwrap_or(1),
            ];
            let total = [0, 1].map(|a| dilation[a] * kernel[a].saturating_sub(1));
            ([total[0] / 2, total[1] / 2], [total[0] % 2, total[1] % 2])
        }
    };
    let params = crate::ops::Conv2dParams {
        stride,
        padding,
        padding_extra,
        dilation,
        groups,
    };
    if input.dim() == 3 {
        return input
            .unsqueeze(0)?
            .conv2d(weight, bias, params)?
            .squeeze_named(0, "SqueezeBackward1");
    }
    input.conv2d(weight, bias, params)
}

/// `F.embedding(input, weight, padding_idx)`: rows of `weight` picked by integer indices
/// (`EmbeddingBackward0`; the padding row gets no gradient).
pub fn embedding(
    input: &Tensor,
    weight: &Tensor,
    padding_idx: Option<i64>,
) -> Result<Tensor, Error> {
    if !matches!(input.dtype(), DType::Int64 | DType::Int32) {
        return Err(Error::EmbeddingIndices {
            type_name: input.type_name(),
        });
    }
    let session = input.session();
    if weight.dim() != 2 {
        return Err(Error::EmbeddingWeightDims);
    }
    let (rows, dim) = (weight.shape()[0], weight.shape()[1]);
    let flat = input.reshape(&[-1])?;
    let mut shape: Vec<i64> = input.shape().iter().map(|&s| s as i64).collect();
    shape.push(dim as i64);
    let picked = session.no_grad(|| -> Result<Tensor, Error> {
        weight.index_select(0, &flat)?.reshape(&shape)?.contiguous()
    })?;
    let index = SavedTensor::new(&flat.detach());
    let meta = autograd::record(&[weight], || {
        Backward::saving("EmbeddingBackward0", move |grad| {
            // Each token's gradient row added into its row of the weight; the padding row gets none.
            let rows_of_grad = grad.reshape(&[-1, dim as i64])?;
            let summed = pick_gradient(&rows_of_grad, index.unpack()?, &[rows, dim], |w, i| {
                Picking {
                    ignore: padding_idx,
                    ..Picking::select(w, i, 0)
                }
            })?;
            Ok(vec![Some(summed)])
        })
    });
    Ok(picked.with_autograd(meta))
}

/// `F.layer_norm(input, normalized_shape, weight, bias, eps)`: each row over the trailing
/// `normalized_shape` dimensions centred and scaled to unit (biased) variance, then weighted
/// (`NativeLayerNormBackward0`).
pub fn layer_norm(
    input: &Tensor,
    normalized_shape: &[usize],
    weight: Option<&Tensor>,
    bias: Option<&Tensor>,
    eps: f64,
) -> Result<Tensor, Error> {
    let mut inputs = vec![input];
    inputs.extend(weight);
    inputs.extend(bias);
    if let Some(cast) = autocast_inputs(CastPolicy::Float32Gpu, &inputs)? {
        let mut rest = cast[1..].iter();
        let w = weight.and_then(|_| rest.next());
        let b = bias.and_then(|_| rest.next());
        return layer_norm(&cast[0], normalized_shape, w, b, eps);
    }
    let k = normalized_shape.len();
    if input.dim() < k || input.shape()[input.dim() - k..] != *normalized_shape {
        return Err(Error::LayerNormShape {
            normalized: normalized_shape.to_vec(),
            input: input.shape().to_vec(),
        });
    }
    for (which, param) in [("weight", weight), ("bias", bias)] {
        if let Some(p) = param
            && p.shape() != normalized_shape
        {
            return Err(Error::LayerNormParamShape {
                which,
                shape: p.shape().to_vec(),
                normalized: normalized_shape.to_vec(),
            });
        }
    }
    crate::ops::common_device(&inputs)?;
    let session = input.session();
    let rank = input.dim() as i64;
    let normalized: Vec<i64> = (rank - k as i64..rank).collect();
    let leading: Vec<i64> = (0..rank - k as i64).collect();
    let (xhat, std) = session.no_grad(|| -> Result<(Tensor, Tensor), Error> {
        let centred = input.sub(&input.mean(&normalized, true)?)?;
        let var = centred.mul(&centred)?.mean(&normalized, true)?;
        let std = var.add(Scalar::Float(eps))?.sqrt()?;
        Ok((centred.div(&std)?, std))
    })?;
    let out = session.no_grad(|| affine(&xhat, weight, bias))?;
    let weight_like = weight.map(Tensor::detach);
    let has_bias = bias.is_some();
    let meta = autograd::record_edges(&[Some(input), weight, bias], || {
        Backward::new("NativeLayerNormBackward0", move |grad| {
            let dxhat = match &weight_like {
                Some(w) => grad.mul(w)?,
                None => grad.clone(),
            };
            let mean_dxhat = dxhat.mean(&normalized, true)?;
            let mean_dxhat_xhat = dxhat.mul(&xhat)?.mean(&normalized, true)?;
            let dx = dxhat
                .sub(&mean_dxhat)?
                .sub(&xhat.mul(&mean_dxhat_xhat)?)?
                .div(&std)?;
            // The parameters' gradients sum over the leading (batch) dimensions.
            let over_batch = |t: Tensor| {
                if leading.is_empty() {
                    Ok(t)
                } else {
                    t.sum(&leading, false)
                }
            };
            let dw = match weight_like {
                Some(_) => Some(over_batch(grad.mul(&xhat)?)?),
                None => None,
            };
            let db = if has_bias {
                Some(over_batch(grad.clone())?)
            } else {
                None
            };
            Ok(vec![Some(dx), dw, db])
        })
    });
    Ok(out.with_autograd(meta))
}

/// `xhat · weight + bias`, each where given.
fn affine(xhat: &Tensor, weight: Option<&Tensor>, bias: Option<&Tensor>) -> Result<Tensor, Error> {
    let scaled = match weight {
        Some(w) => xhat.mul(w)?,
        None => xhat.clone(),
    };
    match bias {
        Some(b) => scaled.add(b),
        None => Ok(scaled),
    }
}
