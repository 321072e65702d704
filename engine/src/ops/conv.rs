//! `conv2d`. On a GPU: the direct convolution kernels (forward, and each gradient), the bias
//! added by the elementwise kernel. On the CPU backend: each image unfolded into columns (im2col)
//! and multiplied by the weights with the GEMM kernel, group by group, in float64 and rounded to
//! the input's dtype; the backward pass folds the column gradients back (col2im). PyTorch
//! records `ConvolutionBackward0` over input, weight and bias.

use crate::autograd::{self, Backward, SavedTensor};
use crate::backend::cpu::elementwise::Lanes;
use crate::backend::cpu::matmul;
use crate::backend::gpu::{ConvPass, ConvShape};
use crate::device::Device;
use crate::dtype::DType;
use crate::error::Error;
use crate::tensor::Tensor;

/// `stride`, `padding` and `dilation` (height, width), and `groups`. `padding` is added before
/// and after each axis; `padding_extra` only after it (what `padding='same'` needs for an even
/// kernel reach).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conv2dParams {
    pub stride: [usize; 2],
    pub padding: [usize; 2],
    pub padding_extra: [usize; 2],
    pub dilation: [usize; 2],
    pub groups: usize,
}

/// The sizes one convolution works with.
#[derive(Debug, Clone, Copy)]
struct Geometry {
    batch: usize,
    channels: usize,
    height: usize,
    width: usize,
    out_channels: usize,
    kernel: [usize; 2],
    out: [usize; 2],
    params: Conv2dParams,
}

impl Geometry {
    /// The sizes as the GPU's convolution kernels take them.
    fn on_gpu(&self) -> ConvShape {
        ConvShape {
            batch: self.batch,
            channels: self.channels,
            height: self.height,
            width: self.width,
            out_channels: self.out_channels,
            kernel: self.kernel,
            out: self.out,
            groups: self.params.groups,
            stride: self.params.stride,
            padding: self.params.padding,
            dilation: self.params.dilation,
        }
    }

    fn group_channels(&self) -> usize {
        self.channels / self.params.groups
    }

    fn group_out(&self) -> usize {
        self.out_channels / self.params.groups
    }

    /// Rows of one group's column matrix: its input channels times the kernel's taps.
    fn patch(&self) -> usize {
        self.group_channels() * self.kernel[0] * self.kernel[1]
    }

    fn pixels(&self) -> usize {
        self.out[0] * self.out[1]
    }

    /// The input position a column entry reads: `None` in the zero padding.
    fn source(&self, i: usize, j: usize, oy: usize, ox: usize) -> Option<(usize, usize)> {
        let p = &self.params;
        let y = (oy * p.stride[0] + i * p.dilation[0]).checked_sub(p.padding[0])?;
        let x = (ox * p.stride[1] + j * p.dilation[1]).checked_sub(p.padding[1])?;
        (y < self.height && x < self.width).then_some((y, x))
    }

    /// Every (column entry, input element) pair of image `n`, group `g`: the column matrix is
    /// `patch × pixels`, row-major; entries in the zero padding have no input element.
    fn for_each_tap(&self, n: usize, g: usize, mut visit: impl FnMut(usize, usize)) {
        let (kh, kw) = (self.kernel[0], self.kernel[1]);
        for c in 0..self.group_channels() {
            let channel = (n * self.channels + g * self.group_channels() + c) * self.height;
            for i in 0..kh {
                for j in 0..kw {
                    let row = ((c * kh + i) * kw + j) * self.pixels();
                    for oy in 0..self.out[0] {
                        for ox in 0..self.out[1] {
                            if let Some((y, x)) = self.source(i, j, oy, ox) {
                                visit(row + oy * self.out[1] + ox, (channel + y) * self.width + x);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Image `n`, group `g` unfolded into columns (im2col).
    fn im2col(&self, input: &[f64], n: usize, g: usize) -> Vec<f64> {
        let mut cols = vec![0.0; self.patch() * self.pixels()];
        self.for_each_tap(n, g, |col, at| cols[col] = input[at]);
        cols
    }

    /// The inverse scatter of [`Geometry::im2col`]: column gradients summed into the image's.
    fn col2im(&self, cols: &[f64], grad_input: &mut [f64], n: usize, g: usize) {
        self.for_each_tap(n, g, |col, at| grad_input[at] += cols[col]);
    }
}

/// An `n×k` by `k×m` product in float64.
fn product(a: Vec<f64>, b: Vec<f64>, n: usize, k: usize, m: usize) -> Vec<f64> {
    match matmul::bmm(&Lanes::F64(a), &Lanes::F64(b), 1, n, k, m) {
        Lanes::F64(v) => v,
        _ => vec![0.0; n * m],
    }
}

/// The transpose of a row-major `rows × cols` matrix.
fn transpose(values: &[f64], rows: usize, cols: usize) -> Vec<f64> {
    let mut out = vec![0.0; values.len()];
    for r in 0..rows {
        for c in 0..cols {
            out[c * rows + r] = values[r * cols + c];
        }
    }
    out
}

fn floats(t: &Tensor) -> Result<Vec<f64>, Error> {
    Ok(t.kernel_scalars()?
        .into_iter()
        .map(crate::element::Scalar::as_f64)
        .collect())
}

/// The device check of a convolution: its weight and bias on the input's device.
fn check_parameters(
    input: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
) -> Result<Device, Error> {
    for (parameter, p) in [("weight", Some(weight)), ("bias", bias)] {
        if let Some(p) = p
            && p.device() != input.device()
        {
            return Err(Error::ConvParameterType {
                input: input.type_name(),
                parameter,
                other: p.type_name(),
                mkldnn: input.device().is_cpu() && input.dtype() == DType::Float32,
            });
        }
    }
    Ok(input.device())
}

impl Tensor {
    /// `F.conv2d(input, weight, bias, stride, padding, dilation, groups)` on a batched
    /// `(N, C, H, W)` input (the functional form unsqueezes a single image).
    pub fn conv2d(
        &self,
        weight: &Tensor,
        bias: Option<&Tensor>,
        params: Conv2dParams,
    ) -> Result<Tensor, Error> {
        let mut inputs = vec![self, weight];
        inputs.extend(bias);
        if let Some(cast) =
            crate::amp::autocast_inputs(crate::amp::CastPolicy::LowerPrecision, &inputs)?
        {
            return cast[0].conv2d(&cast[1], cast.get(2), params);
        }
        let device = check_parameters(self, weight, bias)?;
        let geometry = geometry(self, weight, params)?;
        if let Some(b) = bias
            && b.shape() != [geometry.out_channels]
        {
            return Err(Error::ConvBiasShape {
                weight: weight.shape().to_vec(),
                expected: geometry.out_channels,
                got: b.shape().to_vec(),
            });
        }
        let shape = [
            geometry.batch,
            geometry.out_channels,
            geometry.out[0],
            geometry.out[1],
        ];
        let conv = geometry.on_gpu();
        let result =
            match super::gpu::conv2d(ConvPass::Forward, &conv, (self, weight, bias), &shape) {
                Some(out) => out?,
                None => Tensor::from_cpu_data(
                    self.session(),
                    Lanes::F64(convolve(
                        &geometry,
                        &floats(self)?,
                        &floats(weight)?,
                        bias.map(floats).transpose()?,
                    ))
                    .into_storage(self.dtype()),
                    &shape,
                    device,
                    "conv2d",
                )?,
            };
        let (saved_input, saved_weight) = (SavedTensor::new(self), SavedTensor::new(weight));
        let has_bias = bias.is_some();
        let meta = autograd::record_edges(&[Some(self), Some(weight), bias], || {
            Backward::saving("ConvolutionBackward0", move |grad| {
                let (input, weight) = (saved_input.unpack()?, saved_weight.unpack()?);
                let on_gpu = super::gpu::conv2d(
                    ConvPass::GradInput,
                    &conv,
                    (grad, weight, None),
                    input.shape(),
                )
                .zip(super::gpu::conv2d(
                    ConvPass::GradWeight,
                    &conv,
                    (grad, input, None),
                    weight.shape(),
                ));
                if let Some((grad_input, grad_weight)) = on_gpu {
                    let grad_bias = if has_bias {
                        Some(grad.sum(&[0, 2, 3], false)?)
                    } else {
                        None
                    };
                    return Ok(vec![Some(grad_input?), Some(grad_weight?), grad_bias]);
                }
                let (grad_input, grad_weight, grad_bias) =
                    convolve_backward(&geometry, &floats(input)?, &floats(weight)?, &floats(grad)?);
                let like = |t: &Tensor, values: Vec<f64>, shape: &[usize]| {
                    Tensor::from_cpu_data(
                        t.session(),
                        Lanes::F64(values).into_storage(t.dtype()),
                        shape,
                        t.device(),
                        "convolution_backward",
                    )
                };
                Ok(vec![
                    Some(like(input, grad_input, input.shape())?),
                    Some(like(weight, grad_weight, weight.shape())?),
                    if has_bias {
                        Some(like(weight, grad_bias, &[geometry.out_channels])?)
                    } else {
                        None
                    },
                ])
            })
        });
        Ok(result.with_autograd(meta))
    }
}

/// The sizes of `input ⋆ weight`, or PyTorch's error when they do not fit.
fn geometry(input: &Tensor, weight: &Tensor, params: Conv2dParams) -> Result<Geometry, Error> {
    if input.dim() != 4 {
        return Err(Error::ConvInputDims {
            input: input.shape().to_vec(),
        });
    }
    if weight.dim() != 4 {
        return Err(Error::ConvWeightDims {
            dims: weight.dim().saturating_sub(2),
            stride: params.stride.to_vec(),
        });
    }
    let (w, x) = (weight.shape(), input.shape());
    let groups = params.groups.max(1);
    if w[0] % groups != 0 {
        return Err(Error::ConvWeightGroups {
            groups,
            weight: w.to_vec(),
        });
    }
    if x[1] != w[1] * groups {
        return Err(Error::ConvChannels {
            groups,
            weight: w.to_vec(),
            input: x.to_vec(),
            expected: w[1] * groups,
            got: x[1],
        });
    }
    let kernel = [w[2], w[3]];
    let mut out = [0; 2];
    for axis in 0..2 {
        let padded = x[2 + axis] + 2 * params.padding[axis] + params.padding_extra[axis];
        let reach = params.dilation[axis] * (kernel[axis].max(1) - 1) + 1;
        if reach > padded {
            return Err(Error::ConvKernelTooLarge {
                input: [
                    x[2] + 2 * params.padding[0] + params.padding_extra[0],
                    x[3] + 2 * params.padding[1] + params.padding_extra[1],
                ],
                kernel,
            });
        }
        out[axis] = (padded - reach) / params.stride[axis].max(1) + 1;
    }
    Ok(Geometry {
        batch: x[0],
        channels: x[1],
        height: x[2],
        width: x[3],
        out_channels: w[0],
        kernel,
        out,
        params: Conv2dParams { groups, ..params },
    })
}

fn convolve(geo: &Geometry, input: &[f64], weight: &[f64], bias: Option<Vec<f64>>) -> Vec<f64> {
    let (og, patch, pixels) = (geo.group_out(), geo.patch(), geo.pixels());
    let mut out = vec![0.0; geo.batch * geo.out_channels * pixels];
    for n in 0..geo.batch {
        for g in 0..geo.params.groups {
            let cols = geo.im2col(input, n, g);
            let w = weight[g * og * patch..(g + 1) * og * patch].to_vec();
            let y = product(w, cols, og, patch, pixels);
            let start = (n * geo.out_channels + g * og) * pixels;
            out[start..start + og * pixels].copy_from_slice(&y);
        }
        if let Some(bias) = &bias {
            for (o, b) in bias.iter().enumerate() {
                let start = (n * geo.out_channels + o) * pixels;
                out[start..start + pixels].iter_mut().for_each(|v| *v += b);
            }
        }
    }
    out
}

/// Gradients for input, weight and bias from the output's.
fn convolve_backward(
    geo: &Geometry,
    input: &[f64],
    weight: &[f64],
    grad: &[f64],
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let (og, patch, pixels) = (geo.group_out(), geo.patch(), geo.pixels());
    let mut grad_input = vec![0.0; input.len()];
    let mut grad_weight = vec![0.0; weight.len()];
    let mut grad_bias = vec![0.0; geo.out_channels];
    for n in 0..geo.batch {
        for g in 0..geo.params.groups {
            let start = (n * geo.out_channels + g * og) * pixels;
            let dy = grad[start..start + og * pixels].to_vec();
            let cols = geo.im2col(input, n, g);
            let dw = product(
                dy.clone(),
                transpose(&cols, patch, pixels),
                og,
                pixels,
                patch,
            );
            for (acc, v) in grad_weight[g * og * patch..(g + 1) * og * patch]
                .iter_mut()
                .zip(dw)
            {
                *acc += v;
            }
            let w = &weight[g * og * patch..(g + 1) * og * patch];
            let dcols = product(transpose(w, og, patch), dy, patch, og, pixels);
            geo.col2im(&dcols, &mut grad_input, n, g);
        }
        for (o, acc) in grad_bias.iter_mut().enumerate() {
            let start = (n * geo.out_channels + o) * pixels;
            *acc += grad[start..start + pixels].iter().sum::<f64>();
        }
    }
    (grad_input, grad_weight, grad_bias)
}
