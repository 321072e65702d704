//! `nn.DataParallel` (torch/nn/parallel/data_parallel.py): the module stays on `device_ids[0]`;
//! each forward scatters the batch into chunks, one per GPU, runs a replica on each GPU (with that
//! GPU current), and gathers the outputs on the output device. Gradients flow back through the
//! gather and the replicas to the module's own parameters.

use crate::device::{Device, DeviceType};
use crate::error::Error;
use crate::tensor::Tensor;
use crate::transfer::{Target, To};

use super::layers::Layer;
use super::module::{CustomForward, Module};

impl Module {
    /// `nn.DataParallel(module, device_ids, output_device, dim)`: all visible GPUs unless
    /// `device_ids` says otherwise; without GPUs it just runs the module. The module is
    /// registered as the child `module` (hence `module.`-prefixed `state_dict` keys).
    pub fn data_parallel(
        session: &crate::session::Session,
        module: &Module,
        device_ids: Option<Vec<usize>>,
        output_device: Option<usize>,
        dim: usize,
    ) -> Result<Module, Error> {
        let visible = session.device_count();
        let device_ids = if visible == 0 {
            Vec::new()
        } else {
            device_ids.unwrap_or_else(|| (0..visible).collect())
        };
        let output_device = output_device.or(device_ids.first().copied());
        let wrapper = Module::new(Layer::DataParallel {
            device_ids,
            output_device,
            dim,
        });
        wrapper.add_module("module", Some(module.clone()));
        Ok(wrapper)
    }
}

/// One forward pass of a `DataParallel` wrapper.
pub(crate) fn forward(
    wrapper: &Module,
    device_ids: &[usize],
    output_device: Option<usize>,
    dim: usize,
    inputs: &[Tensor],
    custom: &mut CustomForward,
) -> Result<Tensor, Error> {
    let Some(module) = wrapper.child("module") else {
        return Err(Error::MissingForward {
            class_name: wrapper.class_name(),
        });
    };
    let Some(&first) = device_ids.first() else {
        return module.forward_with(inputs, custom);
    };
    let source = Device::cuda(first as i8);
    let tensors = module
        .parameters()
        .into_iter()
        .map(|p| p.tensor())
        .chain(module.buffers());
    if let Some(stray) = tensors.map(|t| t.device()).find(|&d| d != source) {
        return Err(Error::DataParallelDevice {
            expected: source,
            found: stray,
        });
    }
    let chunks = scatter(inputs, device_ids, dim)?;
    if chunks.len() == 1 {
        return module.forward_with(&chunks[0].1, custom);
    }
    let session = inputs
        .first()
        .map(|t| t.session().clone())
        .ok_or(Error::NoTensorOperand)?;
    let mut outputs = Vec::with_capacity(chunks.len());
    for (device, chunk) in &chunks {
        let replica = module.replicate_to(*device)?;
        // parallel_apply runs each replica with its GPU current.
        let previous = session.current_device()?;
        session.set_device(device.index.unwrap_or(0) as usize)?;
        let out = replica.forward_with(chunk, custom);
        session.set_device(previous)?;
        outputs.push(out?);
    }
    gather(
        &outputs,
        Device::cuda(output_device.unwrap_or(first) as i8),
        dim,
    )
}

/// The inputs split along `dim` into one chunk per device (`torch.chunk` sizes; fewer chunks
/// than devices when the batch is small), each chunk moved to its device.
fn scatter(
    inputs: &[Tensor],
    device_ids: &[usize],
    dim: usize,
) -> Result<Vec<(Device, Vec<Tensor>)>, Error> {
    let batch = inputs
        .first()
        .and_then(|t| t.shape().get(dim).copied())
        .unwrap_or(0);
    let size = batch.div_ceil(device_ids.len()).max(1);
    let mut chunks = Vec::new();
    for (k, &id) in device_ids.iter().enumerate() {
        let start = k * size;
        if start >= batch && k > 0 {
            break;
        }
        let device = Device::cuda(id as i8);
        let pieces = inputs
            .iter()
            .map(|t| {
                let piece = t.slice(
                    dim as i64,
                    Some(start as i64),
                    Some((start + size).min(batch) as i64),
                    1,
                )?;
                piece.to(To {
                    device: Some(Target::Device(device)),
                    ..To::default()
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        chunks.push((device, pieces));
    }
    Ok(chunks)
}

/// The replicas' outputs concatenated on `target` (`GatherBackward` in the graph). Scalars — a
/// loss computed inside the module — become a vector, with PyTorch's warning.
fn gather(outputs: &[Tensor], target: Device, dim: usize) -> Result<Tensor, Error> {
    let session = outputs
        .first()
        .map(|t| t.session().clone())
        .ok_or(Error::NoTensorOperand)?;
    let scalars = outputs.iter().all(|t| t.dim() == 0);
    let outputs: Vec<Tensor> = if scalars {
        session.warn("Was asked to gather along dimension 0, but all input tensors were scalars; will instead unsqueeze and return a vector.");
        outputs
            .iter()
            .map(|t| t.unsqueeze(0))
            .collect::<Result<_, _>>()?
    } else {
        outputs.to_vec()
    };
    let moved = session.no_grad(|| {
        outputs
            .iter()
            .map(|t| {
                t.to(To {
                    device: Some(Target::Device(target)),
                    ..To::default()
                })
            })
            .collect::<Result<Vec<_>, _>>()
    })?;
    let refs: Vec<&Tensor> = moved.iter().collect();
    let gathered = session.no_grad(|| Tensor::cat(&refs, dim as i64))?;
    let sizes: Vec<(usize, Device)> = outputs
        .iter()
        .map(|t| (t.shape().get(dim).copied().unwrap_or(1), t.device()))
        .collect();
    let inputs: Vec<&Tensor> = outputs.iter().collect();
    let meta = crate::autograd::record(&inputs, || {
        crate::autograd::Backward::new("GatherBackward", move |grad| {
            let mut start = 0;
            sizes
                .iter()
                .map(|&(size, device)| {
                    let piece = grad.slice(
                        dim as i64,
                        Some(start as i64),
                        Some((start + size) as i64),
                        1,
                    )?;
                    start += size;
                    let piece = if device.kind == DeviceType::Cuda {
                        piece.to(To {
                            device: Some(Target::Device(device)),
                            ..To::default()
                        })?
                    } else {
                        piece
                    };
                    Ok(Some(piece.contiguous()?))
                })
                .collect()
        })
    });
    Ok(gathered.with_autograd(meta))
}
