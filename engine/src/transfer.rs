//! The seven-step transfer behind `tensor.to(...)`, `.cuda()`, `.cpu()`, `.half()`…
//!
//! Each step is a function that decides one thing and records one trace event saying what it
//! decided (or why it failed); a failing step stops the pipeline with an error naming the step
//! (DESIGN.md, "The seven steps of a transfer"). When nothing would change, `.to()` hands back the
//! very same tensor and the steps after the check say they were skipped, as in PyTorch's
//! `to_will_alias` (aten/src/ATen/native/TensorConversions.cpp).

use std::rc::Rc;

use crate::autograd::{self, AutogradMeta, Backward};
use crate::device::{Device, DeviceType};
use crate::dtype::DType;
use crate::error::Error;
use crate::layout::Layout;
use crate::storage::Storage;
use crate::tensor::{Tensor, check_device_dtype};
use crate::trace::{Backend, EventKind, TransferStep};

/// Where a transfer goes, as the learner wrote it.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// A device string, parsed in step 1 (`"cuda:1"`).
    Text(String),
    Device(Device),
}

/// The arguments of `tensor.to(...)`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct To {
    pub device: Option<Target>,
    pub dtype: Option<DType>,
    pub non_blocking: bool,
    /// `copy=True`: a new tensor even when nothing changes.
    pub copy: bool,
}

impl To {
    pub fn device(device: impl Into<String>) -> To {
        To {
            device: Some(Target::Text(device.into())),
            ..To::default()
        }
    }

    pub fn dtype(dtype: DType) -> To {
        To {
            dtype: Some(dtype),
            ..To::default()
        }
    }
}

/// One run of the pipeline.
struct Transfer<'a> {
    id: u64,
    source: &'a Tensor,
}

/// What steps 1 and 2 settled.
struct Plan {
    device: Device,
    dtype: DType,
    non_blocking: bool,
}

impl Tensor {
    /// `tensor.to(device=…, dtype=…, non_blocking=…, copy=…)`.
    pub fn to(&self, request: To) -> Result<Tensor, Error> {
        let transfer = Transfer {
            id: self.session().next_id(),
            source: self,
        };
        transfer.run(request)
    }

    /// `tensor.to(other)`: the device and dtype of `other`.
    pub fn to_like(&self, other: &Tensor, non_blocking: bool, copy: bool) -> Result<Tensor, Error> {
        self.to(To {
            device: Some(Target::Device(other.device())),
            dtype: Some(other.dtype()),
            non_blocking,
            copy,
        })
    }

    /// `tensor.cuda(device=None, non_blocking=False)`.
    pub fn cuda(&self, index: Option<i8>, non_blocking: bool) -> Result<Tensor, Error> {
        let device = Device {
            kind: DeviceType::Cuda,
            index,
        };
        self.to(To {
            device: Some(Target::Device(device)),
            non_blocking,
            ..To::default()
        })
    }

    /// `tensor.cpu()`.
    pub fn cpu(&self) -> Result<Tensor, Error> {
        self.to(To {
            device: Some(Target::Device(Device::CPU)),
            ..To::default()
        })
    }

    /// `half()`, `float()`, `double()`, `long()`, `int()`, `bool()`: `.to(dtype)`.
    pub fn to_dtype(&self, dtype: DType) -> Result<Tensor, Error> {
        self.to(To::dtype(dtype))
    }

    /// `pin_memory()`: a copy in page-locked host memory, which the GPU can read without the host
    /// waiting (`non_blocking=True` copies from it are truly asynchronous).
    pub fn pin_memory(&self) -> Result<Tensor, Error> {
        if !self.device().is_cpu() {
            return Err(Error::PinNonCpu {
                type_name: self.type_name(),
            });
        }
        let layout = self.layout().preserved_for_copy();
        let data = self.read(|cpu| cpu.copy_into_layout(self.layout(), self.dtype(), &layout))?;
        let storage = Storage::new(
            self.session(),
            Device::CPU,
            self.dtype(),
            self.numel(),
            || Some(data),
            true,
        )?;
        Ok(Tensor::from_storage(
            Rc::new(storage),
            layout,
            to_copy_backward(self),
        ))
    }
}

impl Transfer<'_> {
    fn run(&self, request: To) -> Result<Tensor, Error> {
        let plan = self.parse_device(&request)?;
        if self.check_compatibility(&plan, request.copy)? == Outcome::SameTensor {
            for step in &TransferStep::ALL[2..] {
                self.record(
                    *step,
                    true,
                    "skipped: `.to()` returns the tensor itself".into(),
                );
            }
            return Ok(self.source.clone());
        }
        let storage = self.allocate(&plan)?;
        let autograd = self.rebind_autograd(&plan);
        let layout = self.sync_metadata(&plan);
        let result = self.hand_back(storage, layout, autograd);
        self.copy_under_device_guard(&plan, &result)?;
        Ok(result)
    }

    /// Step 1: parse the device string and normalise it to a concrete device (`cuda` → the current
    /// CUDA device, as ATen's `ensure_has_index`).
    fn parse_device(&self, request: &To) -> Result<Plan, Error> {
        let step = TransferStep::ParseDevice;
        let source = self.source;
        let written = match &request.device {
            None => None,
            Some(Target::Device(d)) => Some(*d),
            Some(Target::Text(text)) => Some(Device::parse(text).map_err(|e| self.fail(step, e))?),
        };
        let device = match written {
            None => source.device(),
            Some(d) => source
                .session()
                .normalise(d)
                .map_err(|e| self.fail(step, e))?,
        };
        let dtype = request.dtype.unwrap_or(source.dtype());
        let detail = match (&request.device, written) {
            (Some(Target::Text(text)), Some(w)) if w != device => {
                format!("'{text}' → {device} (the current device)")
            }
            (Some(Target::Text(text)), _) => format!("'{text}' → {device}"),
            (Some(Target::Device(_)), _) => format!("device {device}"),
            (None, _) => format!("no device given: stays on {device}"),
        };
        let detail = match request.dtype {
            Some(d) => format!("{detail}; dtype {d}"),
            None => format!("{detail}; dtype stays {dtype}"),
        };
        self.record(step, true, detail);
        Ok(Plan {
            device,
            dtype,
            non_blocking: request.non_blocking,
        })
    }

    /// Step 2: can the target hold this tensor, and is there anything to do at all?
    fn check_compatibility(&self, plan: &Plan, copy: bool) -> Result<Outcome, Error> {
        let step = TransferStep::CheckCompatibility;
        let source = self.source;
        let checks = (|| {
            self.source.session().resolve(plan.device)?;
            check_device_dtype(plan.device, plan.dtype)?;
            if source.device().kind == DeviceType::Meta && plan.device.kind != DeviceType::Meta {
                return Err(Error::MetaHasNoData);
            }
            Ok(())
        })();
        checks.map_err(|e| self.fail(step, e))?;
        let same = plan.device == source.device() && plan.dtype == source.dtype();
        let (outcome, detail) = match (same, copy) {
            (true, false) => (
                Outcome::SameTensor,
                format!("already {} on {}: nothing to copy", plan.dtype, plan.device),
            ),
            (true, true) => (
                Outcome::Copy,
                "copy=True: a new tensor although nothing changes".into(),
            ),
            (false, _) => (
                Outcome::Copy,
                format!(
                    "{} on {} can hold {}",
                    plan.device,
                    plan.device.kind.name(),
                    plan.dtype
                ),
            ),
        };
        self.record(step, true, detail);
        Ok(outcome)
    }

    /// Step 3: take memory on the target from its allocator (which may be out of memory).
    fn allocate(&self, plan: &Plan) -> Result<Rc<Storage>, Error> {
        let step = TransferStep::Allocate;
        let numel = self.source.numel();
        let session = self.source.session();
        let before = session.memory_stats(plan.device);
        let storage = Storage::new(session, plan.device, plan.dtype, numel, || None, false)
            .map_err(|e| self.fail(step, e))?;
        let after = session.memory_stats(plan.device);
        let detail = match plan.device.kind {
            DeviceType::Meta => "meta: no memory, shape and dtype only".to_owned(),
            _ if after.reserved > before.reserved => format!(
                "{} bytes on {}: a new segment ({} reserved in all)",
                storage.nbytes(),
                plan.device,
                crate::memory::Size(after.reserved)
            ),
            _ => format!(
                "{} bytes on {}, from memory the allocator had cached",
                storage.nbytes(),
                plan.device
            ),
        };
        self.record(step, true, detail);
        Ok(Rc::new(storage))
    }

    /// Step 4: when the source takes part in autograd, the result gets a `ToCopyBackward0` node
    /// whose gradient flows back to the source's device and dtype.
    fn rebind_autograd(&self, plan: &Plan) -> AutogradMeta {
        let source = self.source;
        let (meta, detail) = if !source.requires_grad() {
            (
                AutogradMeta::default(),
                "the source does not require grad: no graph node".to_owned(),
            )
        } else if !source.session().is_grad_enabled() {
            (
                AutogradMeta::default(),
                "grad mode is off (no_grad): the result is cut from the graph".to_owned(),
            )
        } else if !plan.dtype.is_floating_point() {
            (
                AutogradMeta::default(),
                format!(
                    "{} is not differentiable: the result is cut from the graph",
                    plan.dtype
                ),
            )
        } else {
            let meta = to_copy_backward(source);
            let to = meta
                .grad_fn
                .as_ref()
                .and_then(|g| g.next_functions().first().cloned().flatten());
            let detail = match to {
                Some(next) => format!(
                    "grad_fn=<ToCopyBackward0> → {}; the result is not a leaf",
                    next.name()
                ),
                None => "grad_fn=<ToCopyBackward0>".to_owned(),
            };
            (meta, detail)
        };
        self.record(TransferStep::RebindAutograd, true, detail);
        meta
    }

    /// Step 5: shape and strides carry over (dense tensors keep their strides, as
    /// `memory_format=torch.preserve_format` does); the dtype is the target's; not pinned.
    fn sync_metadata(&self, plan: &Plan) -> Layout {
        let source = self.source.layout();
        let layout = source.preserved_for_copy();
        let strides = if layout.strides == source.strides {
            "same strides"
        } else {
            "made contiguous"
        };
        let detail = format!(
            "shape {}, strides {} ({strides}), dtype {}, contiguous: {}, pinned: no",
            crate::tensor::python_tuple(&layout.shape),
            crate::tensor::python_tuple(&layout.strides),
            plan.dtype,
            if layout.is_contiguous() { "yes" } else { "no" }
        );
        self.record(TransferStep::SyncMetadata, true, detail);
        layout
    }

    /// Step 6: a new tensor handle; the source is untouched and stays alive.
    fn hand_back(&self, storage: Rc<Storage>, layout: Layout, autograd: AutogradMeta) -> Tensor {
        let result = Tensor::from_storage(storage, layout, autograd);
        let detail = format!(
            "new tensor #{} on {}; the source #{} stays on {}, unchanged",
            result.id(),
            result.device(),
            self.source.id(),
            self.source.device()
        );
        self.record(TransferStep::HandBack, true, detail);
        result
    }

    /// Step 7: copy the elements with the GPU involved made current (a device guard), then restore
    /// the previous current device: `.to("cuda:1")` leaves `current_device()` unchanged.
    fn copy_under_device_guard(&self, plan: &Plan, result: &Tensor) -> Result<(), Error> {
        let step = TransferStep::DeviceGuard;
        let source = self.source;
        let session = source.session();
        let guarded = [plan.device, source.device()]
            .into_iter()
            .find(|d| d.kind == DeviceType::Cuda);
        let previous = match guarded {
            Some(_) => Some(session.current_device().map_err(|e| self.fail(step, e))?),
            None => None,
        };
        if let Some(Device { index: Some(i), .. }) = guarded {
            session
                .set_device(i as usize)
                .map_err(|e| self.fail(step, e))?;
        }
        if plan.device.kind != DeviceType::Meta {
            let gpu_involved = !(source.device().is_cpu() && plan.device.is_cpu());
            if plan.device.is_cpu() && gpu_involved && !plan.non_blocking {
                session
                    .sync(
                        source.device(),
                        "a blocking copy to the CPU waits for the GPU",
                    )
                    .map_err(|e| self.fail(step, e))?;
            } else {
                // A blocking copy from the host is a synchronizing CUDA operation too
                // (`at::cuda::memcpy_and_sync`), which the sync debug mode hears of.
                if source.device().is_cpu()
                    && plan.device.kind == DeviceType::Cuda
                    && !plan.non_blocking
                {
                    session.synchronizing().map_err(|e| self.fail(step, e))?;
                }
                session
                    .check_usable(source.device())
                    .map_err(|e| self.fail(step, e))?;
            }
            let backend = copy_elements(source, result).map_err(|e| self.fail(step, e))?;
            let bytes = result.storage().nbytes();
            session.record(Some(plan.device), || EventKind::Copy {
                from: source.device(),
                to: plan.device,
                bytes,
                non_blocking: plan.non_blocking,
                backend,
            });
        }
        if let Some(previous) = previous {
            session
                .set_device(previous)
                .map_err(|e| self.fail(step, e))?;
        }
        let detail = match (guarded, previous) {
            (Some(g), Some(p)) => {
                let sync = if plan.non_blocking && source.is_pinned() {
                    "asynchronous (pinned source, non_blocking=True)"
                } else if plan.non_blocking {
                    "synchronous: non_blocking=True needs a pinned source"
                } else {
                    "synchronous"
                };
                format!(
                    "{g} made current for the copy ({sync}), then cuda:{p} restored as the current device"
                )
            }
            _ => "no GPU involved: no device guard".to_owned(),
        };
        self.record(step, true, detail);
        Ok(())
    }

    fn record(&self, step: TransferStep, ok: bool, detail: String) {
        let device = Some(self.source.device());
        self.source
            .session()
            .record(device, || EventKind::TransferStep {
                transfer: self.id,
                step,
                ok,
                detail,
            });
    }

    /// Records a failed step and wraps its error so that it names the step.
    fn fail(&self, step: TransferStep, error: Error) -> Error {
        self.record(step, false, error.to_string());
        Error::Transfer {
            step,
            source: Box::new(error),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    SameTensor,
    Copy,
}

/// `ToCopyBackward0`: the gradient goes back to the source's device and dtype.
/// Copies `source`'s elements into `result`'s fresh storage, converting the dtype; returns which
/// backend moved them. Between two GPU buffers a copy kernel runs; to or from the host the bytes
/// cross through staging buffers.
pub(crate) fn copy_elements(source: &Tensor, result: &Tensor) -> Result<Backend, Error> {
    let (to, from) = (result.storage(), source.storage());
    if let (Some((gpu, out)), Some((_, input))) = (to.gpu(), from.gpu()) {
        let ran = crate::ops::gpu::copy(gpu, source, &input, result.layout(), result.dtype(), &out);
        if ran.is_ok() {
            return Ok(Backend::Gpu);
        }
    }
    let data = source
        .read(|cpu| cpu.copy_into_layout(source.layout(), result.dtype(), result.layout()))?;
    to.write(data)?;
    let gpu_involved = !(source.device().is_cpu() && result.device().is_cpu());
    Ok(
        match (gpu_involved, to.gpu().is_some() || from.gpu().is_some()) {
            (false, _) => Backend::Cpu,
            (true, true) => Backend::Gpu,
            (true, false) => Backend::CpuStandIn,
        },
    )
}

fn to_copy_backward(source: &Tensor) -> AutogradMeta {
    let (device, dtype) = (source.device(), source.dtype());
    autograd::record(&[source], || {
        Backward::new("ToCopyBackward0", move |grad| {
            let back = grad.to(To {
                device: Some(Target::Device(device)),
                dtype: Some(dtype),
                ..To::default()
            })?;
            Ok(vec![Some(back)])
        })
    })
}
