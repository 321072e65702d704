//! Creation ops: `zeros`, `ones`, `empty`, `arange`, `linspace`, `logspace`, `eye` and the `*_like` forms
//! (`full`, `rand`, `randn`, `randint` and `randperm` live with the tensor's constructors).

use crate::backend::cpu::elementwise::LaneKind;
use crate::backend::gpu::Elementwise;
use crate::device::Device;
use crate::dtype::DType;
use crate::element::Scalar;
use crate::error::Error;
use crate::session::Session;
use crate::storage::CpuStorage;
use crate::tensor::Tensor;

use super::gpu::{Input, Launch};

/// Sizes as Python passes them (they may be negative, which is an error: `torch.zeros` has a
/// message of its own, every other factory PyTorch's generic one).
fn sizes(op: &'static str, shape: &[i64]) -> Result<Vec<usize>, Error> {
    if op == "zeros" && shape.iter().any(|&s| s < 0) {
        return Err(Error::NegativeDimension { op });
    }
    Tensor::shape_of(shape)
}

impl Tensor {
    /// A shape from Python's sizes, refusing a negative one as PyTorch's factories do.
    pub fn shape_of(sizes: &[i64]) -> Result<Vec<usize>, Error> {
        sizes
            .iter()
            .map(|&s| match usize::try_from(s) {
                Ok(d) => Ok(d),
                Err(_) if s < 0 => Err(Error::NegativeShape {
                    dim: s,
                    shape: sizes.to_vec(),
                }),
                // Past a 32-bit address space (the wasm build): no storage can hold it.
                Err(_) => Err(Error::StorageSizeOverflow {
                    sizes: sizes.to_vec(),
                }),
            })
            .collect()
    }

    /// `torch.<op>(*shape)` filled with `value`, negative sizes refused with the op's name.
    fn filled(
        op: &'static str,
        session: &Session,
        shape: &[i64],
        value: Scalar,
        dtype: DType,
        device: Device,
    ) -> Result<Tensor, Error> {
        Tensor::full(session, &sizes(op, shape)?, value, dtype, device)
    }

    pub fn zeros(
        session: &Session,
        shape: &[i64],
        dtype: DType,
        device: Device,
    ) -> Result<Tensor, Error> {
        Tensor::filled("zeros", session, shape, Scalar::Int(0), dtype, device)
    }

    pub fn ones(
        session: &Session,
        shape: &[i64],
        dtype: DType,
        device: Device,
    ) -> Result<Tensor, Error> {
        Tensor::filled("ones", session, shape, Scalar::Int(1), dtype, device)
    }

    /// `torch.empty`: PyTorch leaves the memory uninitialised; the lab gives zeros, so results never
    /// depend on leftovers.
    pub fn empty(
        session: &Session,
        shape: &[i64],
        dtype: DType,
        device: Device,
    ) -> Result<Tensor, Error> {
        Tensor::filled("empty", session, shape, Scalar::Int(0), dtype, device)
    }

    /// `torch.arange(start, end, step)`: the default dtype if any bound is a float, int64
    /// otherwise; values are
    /// `start + i * step`, computed in double and rounded once.
    pub fn arange(
        session: &Session,
        start: Scalar,
        end: Scalar,
        step: Scalar,
        dtype: Option<DType>,
        device: Device,
    ) -> Result<Tensor, Error> {
        let any_float = [start, end, step]
            .iter()
            .any(|s| matches!(s, Scalar::Float(_)));
        let dtype = dtype.unwrap_or(if any_float {
            session.default_dtype()
        } else {
            DType::Int64
        });
        let (a, b, s) = (start.as_f64(), end.as_f64(), step.as_f64());
        if s == 0.0 {
            return Err(Error::ArangeZeroStep);
        }
        if (s > 0.0 && b < a) || (s < 0.0 && b > a) {
            return Err(Error::ArangeBounds);
        }
        let count = ((b - a) / s).ceil().max(0.0);
        if count.is_nan() || count >= 9.0e18 {
            return Err(Error::InvalidSize);
        }
        let shape = [count as usize];
        // Integer bounds count exactly; others in double where the adapter has it (as the CPU
        // does), else in float32 (as CUDA does).
        let compute = match (start, step) {
            (Scalar::Int(_), Scalar::Int(_)) => LaneKind::I64,
            _ if session.adapter().is_some_and(|g| g.report().shader_f64) => LaneKind::F64,
            _ => LaneKind::F32,
        };
        let launch = Launch {
            op: Elementwise::Arange,
            compute,
            kinds: &[compute, compute],
            shape: &shape,
            out_dtype: dtype,
        };
        let bounds = [Input::Scalar(start), Input::Scalar(step)];
        if let Some(made) = super::gpu::made(session, device, launch, &bounds, "arange") {
            return made;
        }
        Tensor::generated(session, &shape, dtype, device, "arange", |n| {
            let values: Vec<Scalar> = (0..n)
                .map(|i| match (start, step) {
                    (Scalar::Int(a0), Scalar::Int(s0)) => Scalar::Int(a0 + i as i64 * s0),
                    _ => Scalar::Float(a + i as f64 * s),
                })
                .collect();
            CpuStorage::from_scalars(dtype, &values)
        })
    }

    /// `torch.linspace(start, end, steps)`, with PyTorch's two-sided formula (the first half counts
    /// up from `start`, the second down from `end`), in the dtype's own precision and, as PyTorch's
    /// vectorised kernel is compiled, with fused multiply-adds.
    pub fn linspace(
        session: &Session,
        start: f64,
        end: f64,
        steps: i64,
        dtype: DType,
        device: Device,
    ) -> Result<Tensor, Error> {
        let steps = usize::try_from(steps).map_err(|_| Error::LinspaceNegativeSteps)?;
        let intervals = steps.max(2) - 1;
        let (compute, step) = if dtype == DType::Float64 {
            (LaneKind::F64, (end - start) / intervals as f64)
        } else {
            let step = (end as f32 - start as f32) / intervals as f32;
            (LaneKind::F32, f64::from(step))
        };
        // One step counts up from `start` alone (the formula's second half would give `end`).
        let end = if steps == 1 { start } else { end };
        let launch = Launch {
            op: Elementwise::Linspace,
            compute,
            kinds: &[compute; 3],
            shape: &[steps],
            out_dtype: dtype,
        };
        let ends = [start, end, step].map(|v| Input::Scalar(Scalar::Float(v)));
        if let Some(made) = super::gpu::made(session, device, launch, &ends, "linspace") {
            return made;
        }
        Tensor::generated(session, &[steps], dtype, device, "linspace", |steps| {
            let halfway = steps / 2;
            let values: Vec<Scalar> = match (steps, dtype) {
                (1, _) => vec![Scalar::Float(start)],
                (_, DType::Float64) => {
                    let step = (end - start) / (steps.max(2) - 1) as f64;
                    (0..steps)
                        .map(|i| {
                            Scalar::Float(if i < halfway {
                                step.mul_add(i as f64, start)
                            } else {
                                (-step).mul_add((steps - i - 1) as f64, end)
                            })
                        })
                        .collect()
                }
                _ => {
                    let (start, end) = (start as f32, end as f32);
                    let step = (end - start) / (steps.max(2) - 1) as f32;
                    (0..steps)
                        .map(|i| {
                            Scalar::Float(f64::from(if i < halfway {
                                step.mul_add(i as f32, start)
                            } else {
                                (-step).mul_add((steps - i - 1) as f32, end)
                            }))
                        })
                        .collect()
                }
            };
            CpuStorage::from_scalars(dtype, &values)
        })
    }

    /// `torch.logspace(start, end, steps, base)`: `base` to the powers a two-sided `linspace`
    /// gives, as ATen's CPU kernel computes them: the ends in the dtype, the exponents and the
    /// powers in float64 (an integer dtype's base as a float32), each power cast to the dtype.
    /// The powers are host work on every device: WGSL's `pow` does not round as the C library's
    /// does.
    pub fn logspace(
        session: &Session,
        start: f64,
        end: f64,
        steps: i64,
        base: f64,
        dtype: DType,
        device: Device,
    ) -> Result<Tensor, Error> {
        let steps = usize::try_from(steps).map_err(|_| Error::LinspaceNegativeSteps)?;
        if dtype == DType::Bool {
            return Err(Error::KernelNotForDtype {
                kernel: format!("logspace_{}", device.kind.name()),
                dtype,
            });
        }
        let base = match dtype.is_floating_point() {
            true => base,
            false => f64::from(base as f32),
        };
        let in_dtype = |v: f64| Scalar::Float(v).cast(dtype).as_f64();
        let (start, end) = (in_dtype(start), in_dtype(end));
        // The span is a difference of two elements of the dtype, rounded to it.
        let step = in_dtype(end - start) / (steps.max(2) - 1) as f64;
        Tensor::generated(session, &[steps], dtype, device, "logspace", |steps| {
            let halfway = steps / 2;
            let values: Vec<Scalar> = (0..steps)
                .map(|i| {
                    let exponent = match (steps, i < halfway) {
                        (1, _) => start,
                        (_, true) => start + step * i as f64,
                        (_, false) => end - step * (steps - i - 1) as f64,
                    };
                    Scalar::Float(base.powf(exponent))
                })
                .collect();
            CpuStorage::from_scalars(dtype, &values)
        })
    }

    /// `torch.eye(n, m)`.
    pub fn eye(
        session: &Session,
        n: i64,
        m: Option<i64>,
        dtype: DType,
        device: Device,
    ) -> Result<Tensor, Error> {
        let rows = usize::try_from(n).map_err(|_| Error::EyeNegative { n })?;
        let m = m.unwrap_or(n);
        let cols = usize::try_from(m).map_err(|_| Error::EyeNegative { n: m })?;
        let launch = Launch {
            op: Elementwise::Eye,
            compute: LaneKind::I64,
            kinds: &[LaneKind::I64],
            shape: &[rows, cols],
            out_dtype: dtype,
        };
        let row = [Input::Scalar(Scalar::Int(m))];
        if let Some(made) = super::gpu::made(session, device, launch, &row, "eye") {
            return made;
        }
        Tensor::generated(session, &[rows, cols], dtype, device, "eye", |n| {
            let values: Vec<Scalar> = (0..n)
                .map(|i| Scalar::Int(i64::from(i / cols == i % cols)))
                .collect();
            CpuStorage::from_scalars(dtype, &values)
        })
    }

    /// `torch.full_like(self, value)` (and `zeros_like`, `ones_like`, `empty_like`).
    pub fn full_like(&self, value: Scalar) -> Result<Tensor, Error> {
        Tensor::full(
            self.session(),
            self.shape(),
            value,
            self.dtype(),
            self.device(),
        )
    }

    /// `torch.rand_like(self)`.
    pub fn rand_like(&self) -> Result<Tensor, Error> {
        Tensor::rand(self.session(), self.shape(), self.dtype(), self.device())
    }

    /// `torch.randn_like(self)`.
    pub fn randn_like(&self) -> Result<Tensor, Error> {
        Tensor::normal(
            self.session(),
            self.shape(),
            self.dtype(),
            self.device(),
            0.0,
            1.0,
        )
    }

    /// `torch.equal(self, other)`: same shape and same values.
    pub fn equal(&self, other: &Tensor) -> Result<bool, Error> {
        if self.shape() != other.shape() {
            return Ok(false);
        }
        let same = self.compare(crate::backend::cpu::elementwise::Binary::Eq, other)?;
        Ok(same.scalars()?.into_iter().all(|s| s == Scalar::Bool(true)))
    }

    /// `torch.allclose(self, other, rtol, atol)`: |a - b| <= atol + rtol·|b| everywhere.
    pub fn allclose(&self, other: &Tensor, rtol: f64, atol: f64) -> Result<bool, Error> {
        super::common_device(&[self, other])?;
        let shape = crate::layout::broadcast_shapes(self.shape(), other.shape())?;
        let sizes: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
        let a = self.expand(&sizes)?.scalars()?;
        let b = other.expand(&sizes)?.scalars()?;
        Ok(a.iter().zip(&b).all(|(x, y)| {
            let (x, y) = (x.as_f64(), y.as_f64());
            x == y || (x - y).abs() <= atol + rtol * y.abs()
        }))
    }
}
