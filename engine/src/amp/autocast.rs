//! The autocast region and the cast each listed op applies (PyTorch's CUDA and CPU op lists,
//! `docs/source/amp.rst`; the CPU behaviour checked against torch 2.15).

use crate::device::DeviceType;
use crate::dtype::DType;
use crate::error::Error;
use crate::session::Session;
use crate::tensor::Tensor;

/// What an op on the autocast lists does to its inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CastPolicy {
    /// Matrix products (`mm`, `bmm`, `matmul`, `addmm`, `linear`): the autocast dtype.
    LowerPrecision,
    /// `mv`: the autocast dtype on GPUs only (it is not on the CPU list).
    LowerPrecisionGpu,
    /// Losses and `prod`: float32 on every device type.
    Float32,
    /// `sum`, `softmax`, `log_softmax`, `exp`, `log`, `pow`: float32 on GPUs only.
    Float32Gpu,
}

impl CastPolicy {
    /// The dtype eligible inputs on `kind` are cast to, when autocast runs there in `fast`.
    fn target(self, kind: DeviceType, fast: DType) -> Option<DType> {
        let gpu = matches!(kind, DeviceType::Cuda | DeviceType::Mps);
        match self {
            CastPolicy::LowerPrecision => Some(fast),
            CastPolicy::LowerPrecisionGpu => gpu.then_some(fast),
            CastPolicy::Float32 => Some(DType::Float32),
            CastPolicy::Float32Gpu => gpu.then_some(DType::Float32),
        }
    }
}

/// The inputs of a listed op as autocast hands them to it, or `None` when nothing is cast (no
/// autocast region covers their device, or they already have the dtype). float64 tensors are
/// never cast.
pub fn autocast_inputs(
    policy: CastPolicy,
    inputs: &[&Tensor],
) -> Result<Option<Vec<Tensor>>, Error> {
    let Some(first) = inputs.first() else {
        return Ok(None);
    };
    let session = first.session();
    let mut changed = false;
    let mut out = Vec::with_capacity(inputs.len());
    for t in inputs {
        let kind = t.device().kind;
        let target = session
            .autocast_dtype(kind)
            .and_then(|fast| policy.target(kind, fast));
        match target {
            Some(dtype)
                if t.dtype().is_floating_point()
                    && t.dtype() != DType::Float64
                    && t.dtype() != dtype =>
            {
                out.push(t.to_dtype(dtype)?);
                changed = true;
            }
            _ => out.push((*t).clone()),
        }
    }
    Ok(changed.then_some(out))
}

/// `with torch.autocast(device_type, dtype, enabled):` — entered by [`Autocast::enter`], left by
/// [`Autocast::exit`], which restores the region outside it.
#[derive(Debug)]
pub struct Autocast {
    session: Session,
    kind: DeviceType,
    previous: Option<DType>,
}

impl Autocast {
    pub fn enter(
        session: &Session,
        device_type: &str,
        dtype: Option<DType>,
        enabled: bool,
    ) -> Result<Autocast, Error> {
        let kind = crate::device::Device::parse(device_type)?.kind;
        if !matches!(kind, DeviceType::Cuda | DeviceType::Cpu | DeviceType::Mps) {
            return Err(Error::AutocastDeviceType {
                device_type: device_type.into(),
            });
        }
        let fast = dtype.unwrap_or(match kind {
            DeviceType::Cpu => DType::BFloat16,
            _ => DType::Float16,
        });
        let mut enabled = enabled;
        if enabled {
            let name = kind.name().to_uppercase();
            if kind == DeviceType::Cuda && !session.is_available() {
                session.warn("CUDA is not available or torch_xla is imported. Disabling autocast.");
                enabled = false;
            } else if kind != DeviceType::Cuda && !matches!(fast, DType::BFloat16 | DType::Float16)
            {
                session.warn(&format!(
                    "In {name} autocast, but the target dtype is not supported. Disabling autocast.\n{name} Autocast only supports dtypes of torch.bfloat16, torch.float16 currently."
                ));
                enabled = false;
            }
        }
        let previous = session.set_autocast(kind, enabled.then_some(fast));
        Ok(Autocast {
            session: session.clone(),
            kind,
            previous,
        })
    }

    /// Leaves the region.
    pub fn exit(self) {
        self.session.set_autocast(self.kind, self.previous);
    }
}
