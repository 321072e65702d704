//! `torch.amp.GradScaler`: the loss scaled up before backward so float16 gradients do not
//! underflow, gradients unscaled before the optimizer step, steps skipped when a gradient
//! overflowed, and the scale adjusted after each step (`torch/amp/grad_scaler.py`).

use std::cell::{Cell, RefCell};

use crate::backend::cpu::elementwise::Binary;
use crate::device::Device;
use crate::dtype::DType;
use crate::element::Scalar;
use crate::error::Error;
use crate::optim::Optimizer;
use crate::session::Session;
use crate::tensor::Tensor;
use crate::transfer::{Target, To};

/// Where an optimizer is between two `update()`s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Ready,
    Unscaled,
    Stepped,
}

#[derive(Debug, Clone)]
struct OptimizerRecord {
    /// The optimizer's identity (Python's `id()`).
    id: usize,
    stage: Stage,
    /// Per device, how many gradient elements were inf or nan when unscaled: counted on the
    /// device, as PyTorch's `found_inf_per_device`, and read by the step (its sync point).
    found_inf: Vec<Tensor>,
}

impl OptimizerRecord {
    /// Whether some gradient overflowed: reads the counts (a sync point on a GPU).
    fn overflowed(&self) -> Result<bool, Error> {
        for count in &self.found_inf {
            if count.item()?.as_f64() != 0.0 {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

pub struct GradScaler {
    session: Session,
    enabled: bool,
    init_scale: f64,
    growth_factor: f64,
    backoff_factor: f64,
    growth_interval: u64,
    /// The scale, a float32 tensor on the device of the first outputs scaled.
    scale: RefCell<Option<Tensor>>,
    growth_tracker: Cell<u64>,
    optimizers: RefCell<Vec<OptimizerRecord>>,
}

impl GradScaler {
    /// `GradScaler(device, init_scale=2.**16, growth_factor=2.0, backoff_factor=0.5,
    /// growth_interval=2000, enabled=True)`; `None` settings take those defaults.
    pub fn new(
        session: &Session,
        device: &str,
        enabled: bool,
        init_scale: Option<f64>,
        growth_interval: Option<u64>,
    ) -> Result<GradScaler, Error> {
        let mut enabled = enabled;
        if device == "cuda" && enabled && !session.is_available() {
            session.warn(
                "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
            );
            enabled = false;
        }
        Ok(GradScaler {
            session: session.clone(),
            enabled,
            init_scale: init_scale.unwrap_or(65536.0),
            growth_factor: 2.0,
            backoff_factor: 0.5,
            growth_interval: growth_interval.unwrap_or(2000),
            scale: RefCell::default(),
            growth_tracker: Cell::new(0),
            optimizers: RefCell::default(),
        })
    }

    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// `get_scale()`.
    pub fn get_scale(&self) -> Result<f64, Error> {
        if !self.enabled {
            return Ok(1.0);
        }
        match &*self.scale.borrow() {
            Some(scale) => Ok(scale.item()?.as_f64()),
            None => Ok(self.init_scale),
        }
    }

    /// `scale(outputs)`: `outputs * scale` (a `MulBackward0` in the graph).
    pub fn scale(&self, outputs: &Tensor) -> Result<Tensor, Error> {
        if !self.enabled {
            return Ok(outputs.clone());
        }
        let scale = self.scale_tensor(outputs.device())?;
        let scale = scale.to(To {
            device: Some(Target::Device(outputs.device())),
            non_blocking: true,
            ..To::default()
        })?;
        outputs.mul(&scale)
    }

    fn scale_tensor(&self, device: Device) -> Result<Tensor, Error> {
        let mut scale = self.scale.borrow_mut();
        if let Some(existing) = &*scale {
            return Ok(existing.clone());
        }
        let fresh = Tensor::full(
            &self.session,
            &[],
            Scalar::Float(self.init_scale),
            DType::Float32,
            device,
        )?;
        *scale = Some(fresh.clone());
        Ok(fresh)
    }

    fn record(&self, optimizer: &Optimizer) -> OptimizerRecord {
        let id = optimizer as *const Optimizer as usize;
        self.optimizers
            .borrow()
            .iter()
            .find(|r| r.id == id)
            .cloned()
            .unwrap_or(OptimizerRecord {
                id,
                stage: Stage::Ready,
                found_inf: Vec::new(),
            })
    }

    fn store(&self, record: OptimizerRecord) {
        let mut records = self.optimizers.borrow_mut();
        match records.iter_mut().find(|r| r.id == record.id) {
            Some(existing) => *existing = record,
            None => records.push(record),
        }
    }

    /// `unscale_(optimizer)`: every gradient divided by the scale, in place, noting inf/nan.
    pub fn unscale_(&self, optimizer: &Optimizer) -> Result<(), Error> {
        if !self.enabled {
            return Ok(());
        }
        let mut record = self.record(optimizer);
        match record.stage {
            Stage::Unscaled => return Err(Error::UnscaleTwice),
            Stage::Stepped => return Err(Error::UnscaleAfterStep),
            Stage::Ready => {}
        }
        let scale = self
            .scale
            .borrow()
            .clone()
            .ok_or(Error::ScalerNotInitialized { method: "unscale_" })?;
        let grads: Vec<Tensor> = optimizer
            .param_groups()
            .iter()
            .flat_map(|g| g.params.iter().filter_map(|p| p.tensor().raw_grad()))
            .collect();
        if grads.iter().any(|g| g.dtype() == DType::Float16) {
            return Err(Error::UnscaleFp16Gradients);
        }
        // On the scale's device, without reading it: the reciprocal taken in float64, then
        // rounded to float32, as PyTorch does.
        let inverse = self.session.no_grad(|| {
            let one = Tensor::full(
                &self.session,
                &[],
                Scalar::Int(1),
                DType::Float64,
                scale.device(),
            )?;
            one.div(&scale.to_dtype(DType::Float64)?)?
                .to_dtype(DType::Float32)
        })?;
        let mut found_inf: Vec<Tensor> = Vec::new();
        for grad in &grads {
            let nonfinite = self.session.no_grad(|| {
                // x·0 is 0 for every finite x and NaN for inf and NaN.
                let count = grad
                    .mul(Scalar::Int(0))?
                    .compare(Binary::Ne, Scalar::Int(0))?
                    .sum(&[], false)?;
                let inverse = if inverse.device() == grad.device() {
                    inverse.clone()
                } else {
                    inverse.to(To::device(grad.device().to_string()))?
                };
                grad.mul_(&inverse)?;
                Ok::<_, Error>(count)
            })?;
            match found_inf.iter_mut().find(|c| c.device() == grad.device()) {
                Some(total) => *total = total.add(&nonfinite)?,
                None => found_inf.push(nonfinite),
            }
        }
        record.stage = Stage::Unscaled;
        record.found_inf = found_inf;
        self.store(record);
        Ok(())
    }

    /// `step(optimizer)`: unscales if needed, then steps unless a gradient overflowed. Returns
    /// whether the optimizer stepped.
    pub fn step(&self, optimizer: &Optimizer) -> Result<bool, Error> {
        if !self.enabled {
            optimizer.step()?;
            return Ok(true);
        }
        if self.record(optimizer).stage == Stage::Stepped {
            return Err(Error::StepTwice);
        }
        if self.record(optimizer).stage == Stage::Ready {
            self.unscale_(optimizer)?;
        }
        let mut record = self.record(optimizer);
        let stepped = !record.overflowed()?;
        if stepped {
            optimizer.step()?;
        }
        record.stage = Stage::Stepped;
        self.store(record);
        Ok(stepped)
    }

    /// `update()`: halve the scale after an overflow, double it after `growth_interval` clean
    /// steps in a row; every optimizer starts over.
    pub fn update(&self) -> Result<(), Error> {
        if !self.enabled {
            return Ok(());
        }
        let records = std::mem::take(&mut *self.optimizers.borrow_mut());
        let checked: Vec<&OptimizerRecord> =
            records.iter().filter(|r| r.stage != Stage::Ready).collect();
        if checked.is_empty() {
            return Err(Error::NoInfChecks);
        }
        let mut overflow = false;
        for record in &checked {
            overflow |= record.overflowed()?;
        }
        let scale = self
            .scale
            .borrow()
            .clone()
            .ok_or(Error::ScalerNotInitialized { method: "update" })?;
        let factor = if overflow {
            self.growth_tracker.set(0);
            Some(self.backoff_factor)
        } else {
            let tracker = self.growth_tracker.get() + 1;
            if tracker == self.growth_interval {
                self.growth_tracker.set(0);
                Some(self.growth_factor)
            } else {
                self.growth_tracker.set(tracker);
                None
            }
        };
        if let Some(factor) = factor {
            self.session.no_grad(|| scale.mul_(Scalar::Float(factor)))?;
        }
        Ok(())
    }
}
