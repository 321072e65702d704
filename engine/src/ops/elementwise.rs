//! Elementwise arithmetic, comparisons and unary math.

use super::gpu::{Input, Launch};
use crate::autograd::{self, Backward, SavedTensor};
use crate::backend::cpu::elementwise::{self as kernel, Binary, LaneKind, Lanes, LanesRef};
use crate::backend::cpu::unary::{self, IntegerInputs, Unary};
use crate::backend::gpu::Elementwise;
use crate::device::{Device, DeviceType};
use crate::dtype::{self, DType, Operand as PromotionOperand, ScalarKind};
use crate::element::Scalar;
use crate::error::Error;
use crate::layout::{Layout, broadcast_shapes};
use crate::session::Session;
use crate::tensor::Tensor;
use crate::trace::{Backend, EventKind};

/// A tensor, or a Python number standing in its place.
#[derive(Debug, Clone, Copy)]
pub enum Operand<'a> {
    Tensor(&'a Tensor),
    Scalar(Scalar),
}

impl<'a> From<&'a Tensor> for Operand<'a> {
    fn from(t: &'a Tensor) -> Self {
        Operand::Tensor(t)
    }
}

impl From<Scalar> for Operand<'_> {
    fn from(s: Scalar) -> Self {
        Operand::Scalar(s)
    }
}

impl<'a> Operand<'a> {
    pub(crate) fn promotion(&self) -> PromotionOperand {
        match self {
            Operand::Tensor(t) => PromotionOperand::Tensor {
                dtype: t.dtype(),
                dim: t.dim(),
            },
            Operand::Scalar(Scalar::Bool(_)) => PromotionOperand::Scalar(ScalarKind::Bool),
            Operand::Scalar(Scalar::Int(_)) => PromotionOperand::Scalar(ScalarKind::Int),
            Operand::Scalar(Scalar::Float(_)) => PromotionOperand::Scalar(ScalarKind::Float),
        }
    }

    /// Whether any element is zero (integer `//` and `%` refuse to divide by it).
    fn has_zero(&self) -> Result<bool, Error> {
        Ok(match self {
            Operand::Scalar(s) => s.as_f64() == 0.0,
            Operand::Tensor(t) => t.kernel_scalars()?.iter().any(|s| s.as_f64() == 0.0),
        })
    }

    fn input(&self) -> Input<'a> {
        match *self {
            Operand::Tensor(t) => Input::Tensor(t),
            Operand::Scalar(s) => Input::Scalar(s),
        }
    }

    /// The tensor, where the operand is one.
    pub fn tensor(&self) -> Option<&'a Tensor> {
        match self {
            Operand::Tensor(t) => Some(t),
            Operand::Scalar(_) => None,
        }
    }

    fn shape(&self) -> &[usize] {
        self.tensor().map_or(&[], |t| t.shape())
    }

    /// The operand's elements broadcast to `shape`, as `kind` lanes.
    fn lanes(&self, shape: &[usize], kind: LaneKind) -> Result<Lanes, Error> {
        let n = shape.iter().product();
        match self {
            Operand::Scalar(s) => Ok(Lanes::splat(*s, n, kind)),
            Operand::Tensor(t) => {
                let sizes: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
                let layout: Layout = t.layout().expand(&sizes, &t.type_name())?;
                t.read(|cpu| Lanes::gather(cpu, &layout, kind))
            }
        }
    }
}

/// Runs a binary kernel: devices checked, dtypes promoted, shapes broadcast. No autograd.
pub(crate) fn binary_values(op: Binary, a: Operand, b: Operand) -> Result<Tensor, Error> {
    combine(op, a, b, None)
}

/// `a + alpha · b` (`op` Add) or `a - alpha · b` (Sub) in one kernel and one rounding, as
/// PyTorch's `add(alpha=)` computes it; `alpha` is checked against the result's dtype first.
pub(crate) fn add_scaled_values(
    op: Binary,
    a: Operand,
    b: Operand,
    alpha: Scalar,
) -> Result<Tensor, Error> {
    match alpha {
        Scalar::Int(1) => binary_values(op, a, b),
        alpha => combine(op, a, b, Some(alpha)),
    }
}

/// PyTorch's `alpha_check`: a bool `alpha` only for bool results, a float one only for floats.
fn check_alpha(dtype: DType, alpha: Scalar) -> Result<(), Error> {
    match alpha {
        Scalar::Bool(_) if dtype != DType::Bool => Err(Error::AlphaBool),
        Scalar::Float(_) if !dtype.is_floating_point() => Err(Error::AlphaNotIntegral),
        _ => Ok(()),
    }
}

/// [`binary_values`], and with `alpha` the fused `a ± alpha · b`.
fn combine(op: Binary, a: Operand, b: Operand, alpha: Option<Scalar>) -> Result<Tensor, Error> {
    let tensors: Vec<&Tensor> = [a.tensor(), b.tensor()].into_iter().flatten().collect();
    let session = tensors
        .first()
        .map(|t| t.session().clone())
        .ok_or(Error::NoTensorOperand)?;
    let device = super::common_device(&tensors)?;
    let default = session.default_dtype();
    let common = dtype::result_type(&[a.promotion(), b.promotion()], default).unwrap_or(default);
    if op == Binary::Sub && common == DType::Bool {
        return Err(Error::BoolSubtraction);
    }
    if op.is_bitwise() {
        integers_only(op_name(op), device, common)?;
    }
    if let Some(alpha) = alpha {
        check_alpha(common, alpha)?;
        // It goes to the result's dtype with a check (`int8.add(x, alpha=300)` is refused).
        common.check_scalar(alpha)?;
    }
    // `a - alpha · b` is `a + (-alpha) · b`.
    let alpha = alpha.map(|s| match (op, s) {
        (Binary::Sub, Scalar::Int(i)) => Scalar::Int(i.wrapping_neg()),
        (Binary::Sub, Scalar::Float(f)) => Scalar::Float(-f),
        (_, s) => s,
    });
    if let Some(kernel) = refused(op, common, device) {
        return Err(Error::KernelNotForDtype {
            kernel,
            dtype: common,
        });
    }
    // True division of integers gives floats, and so do atan2 and copysign.
    let compute = if op.promotes_integers() && !common.is_floating_point() {
        default
    } else {
        common
    };
    // TensorIterator casts every input to the dtype the kernel computes in: a wider integer (a
    // Python int, a 0-dim int64 tensor beside an int8 one) wraps to it first, so `int8 << 257`
    // shifts by 1 and `uint8 // torch.tensor(260)` divides by 4.
    let (held_a, held_b) = (narrowed(a, compute)?, narrowed(b, compute)?);
    let a = held_a.as_ref().map_or(a, Narrowed::operand);
    let b = held_b.as_ref().map_or(b, Narrowed::operand);
    let out_dtype = if op.is_comparison() {
        DType::Bool
    } else {
        compute
    };
    let shape = broadcast_shapes(a.shape(), b.shape())?;
    if device.kind == DeviceType::Meta {
        return meta_result(&session, &shape, out_dtype);
    }
    session.check_fits(device, &shape, out_dtype.size())?;
    let kind = LaneKind::of(compute);
    if matches!(
        op,
        Binary::FloorDiv | Binary::Remainder | Binary::Fmod | Binary::TruncDiv
    ) && !compute.is_floating_point()
        && b.has_zero()?
    {
        return Err(Error::ZeroDivision);
    }
    let (gpu_op, inputs) = match alpha {
        Some(s) => (
            Elementwise::AddScaled,
            vec![a.input(), b.input(), Input::Scalar(s)],
        ),
        None => (Elementwise::Binary(op), vec![a.input(), b.input()]),
    };
    let launch = Launch {
        op: gpu_op,
        compute: kind,
        kinds: &[kind, kind, kind][..inputs.len()],
        shape: &shape,
        out_dtype,
    };
    if let Some(result) = super::gpu::elementwise(&session, device, launch, &inputs) {
        record_gpu_kernel(&session, device, op_name(op));
        return result;
    }
    let run = |p: LanesRef, q: LanesRef| match alpha {
        Some(s) => kernel::add_scaled(p, q, s),
        None => kernel::binary(op, p, q),
    };
    let gathered = || -> Result<Lanes, Error> {
        Ok(run(
            a.lanes(&shape, kind)?.as_ref(),
            b.lanes(&shape, kind)?.as_ref(),
        ))
    };
    let result = match (a, b) {
        // Fast path: two contiguous tensors of the output's shape, already in lane dtype, are read in
        // place instead of being gathered first.
        (Operand::Tensor(x), Operand::Tensor(y))
            if in_place_readable(x, &shape, compute) && in_place_readable(y, &shape, compute) =>
        {
            let n = x.numel();
            let direct = x.read(|xs| {
                y.read(|ys| {
                    let p = LanesRef::of_storage(xs, x.storage_offset(), n)?;
                    let q = LanesRef::of_storage(ys, y.storage_offset(), n)?;
                    Some(run(p, q))
                })
            })??;
            match direct {
                Some(lanes) => lanes,
                None => gathered()?,
            }
        }
        _ => gathered()?,
    };
    Tensor::from_cpu_data(
        &session,
        result.into_storage(out_dtype),
        &shape,
        device,
        op_name(op),
    )
}

/// An operand converted to the narrower integer dtype a kernel computes in (see [`narrowed`]).
enum Narrowed {
    Scalar(Scalar),
    Tensor(Tensor),
}

impl Narrowed {
    fn operand(&self) -> Operand<'_> {
        match self {
            Narrowed::Scalar(s) => Operand::Scalar(*s),
            Narrowed::Tensor(t) => Operand::Tensor(t),
        }
    }
}

/// `operand` as an integer kernel computing in `compute` reads it, where that changes its value:
/// a Python int, or a tensor of a wider integer dtype (a 0-dim one: a dimensioned operand decides
/// the dtype), narrower than the kernel's 64-bit lanes. `None` where the lanes hold it as it is.
fn narrowed(operand: Operand, compute: DType) -> Result<Option<Narrowed>, Error> {
    if !narrower_than_lanes(compute) {
        return Ok(None);
    }
    Ok(match operand {
        Operand::Scalar(s @ Scalar::Int(_)) => Some(Narrowed::Scalar(s.cast(compute))),
        Operand::Tensor(t)
            if t.dtype().is_integral(false)
                && dtype::promote_types(t.dtype(), compute) != compute =>
        {
            Some(Narrowed::Tensor(t.to_dtype(compute)?))
        }
        _ => None,
    })
}

/// An integer dtype whose values the 64-bit integer lanes hold with room to spare.
fn narrower_than_lanes(dtype: DType) -> bool {
    dtype.is_integral(false) && LaneKind::of(dtype).dtype() != dtype
}

/// Whether an operand's storage can feed a kernel directly.
fn in_place_readable(t: &Tensor, shape: &[usize], compute: DType) -> bool {
    t.shape() == shape
        && t.is_contiguous()
        && t.dtype() == compute
        && LaneKind::of(compute).dtype() == compute
}

/// The kernel PyTorch names when it has none for `dtype` (`"hypot_cpu" not implemented for
/// 'Long'`), for the ops that refuse integers or bools.
fn refused(op: Binary, dtype: DType, device: Device) -> Option<String> {
    let on = device.kind.name();
    let bool_kernel = match op {
        Binary::FloorDiv => "div_floor",
        Binary::TruncDiv => "div_trunc",
        Binary::Remainder => "remainder",
        Binary::Fmod => "fmod",
        // The one named without its backend.
        Binary::Pow => return (dtype == DType::Bool).then(|| "pow".to_owned()),
        Binary::Hypot if !dtype.is_floating_point() => return Some(format!("hypot_{on}")),
        // ATen names the shift kernels `lshift` and `rshift`; they take no floats, nor bools.
        Binary::Shl | Binary::Shr => {
            let name = if op == Binary::Shl {
                "lshift"
            } else {
                "rshift"
            };
            return (!dtype.is_integral(false)).then(|| format!("{name}_{on}"));
        }
        _ => return None,
    };
    (dtype == DType::Bool).then(|| format!("{bool_kernel}_{on}"))
}

/// Refuses bitwise op `op` on a floating `dtype` as PyTorch does, naming the kernel after the
/// device's backend (`"bitwise_or_cpu" not implemented for 'Float'`).
fn integers_only(op: &str, device: Device, dtype: DType) -> Result<(), Error> {
    if !dtype.is_floating_point() {
        return Ok(());
    }
    Err(Error::KernelNotForDtype {
        kernel: format!("{op}_{}", device.kind.name()),
        dtype,
    })
}

/// Runs a unary kernel: integer and bool inputs of the float functions are computed in the
/// default dtype,
/// and those of ops without an integer kernel are refused as PyTorch refuses them.
pub(crate) fn unary_values(op: Unary, x: &Tensor) -> Result<Tensor, Error> {
    let floating = x.dtype().is_floating_point();
    let dtype = match op.integer_inputs() {
        IntegerInputs::PromoteToFloat if !floating => x.session().default_dtype(),
        IntegerInputs::Refuse if !floating => {
            return Err(Error::KernelNotForDtype {
                kernel: format!("{}_{}", op.name(), x.device().kind.name()),
                dtype: x.dtype(),
            });
        }
        _ => x.dtype(),
    };
    if dtype == DType::Bool {
        match op {
            Unary::Neg => return Err(Error::BoolNegation),
            Unary::Relu => return Err(Error::BoolRelu),
            _ => {}
        }
        if let Some(kernel) = op.bool_refusal(x.device().kind.name()) {
            return Err(Error::KernelNotForDtype { kernel, dtype });
        }
    }
    if op == Unary::BitNot {
        integers_only("bitwise_not", x.device(), dtype)?;
    }
    if x.device().kind == DeviceType::Meta {
        return meta_result(x.session(), x.shape(), dtype);
    }
    // PyTorch's bfloat16 rsqrt is 1 / sqrt with the square root rounded to bfloat16 first.
    if op == Unary::Rsqrt && dtype == DType::BFloat16 {
        return unary_values(Unary::Reciprocal, &unary_values(Unary::Sqrt, x)?);
    }
    let kind = LaneKind::of(dtype);
    let launch = Launch {
        op: Elementwise::Unary(op),
        compute: kind,
        kinds: &[kind],
        shape: x.shape(),
        out_dtype: dtype,
    };
    if let Some(result) =
        super::gpu::elementwise(x.session(), x.device(), launch, &[Input::Tensor(x)])
    {
        record_gpu_kernel(x.session(), x.device(), op.name());
        return result;
    }
    let lanes = x.read(|cpu| Lanes::gather(cpu, x.layout(), kind))?;
    Tensor::from_cpu_data(
        x.session(),
        unary::unary(op, &lanes).into_storage(dtype),
        x.shape(),
        x.device(),
        op.name(),
    )
}

/// `x ** exponent` as PyTorch's kernels compute it (`PowKernel.cpp`, `PowKernel.cu`): for float32
/// and float64, exponents 2, 3 and -2 by multiplying (`x * x * x`, not `pow`, which can differ in
/// the last bit), and 0.5, -0.5 and -1 (bfloat16 too) by `sqrt`, `rsqrt` and `reciprocal`.
pub(super) fn pow_scalar_values(x: &Tensor, exponent: Scalar) -> Result<Tensor, Error> {
    if !x.dtype().is_floating_point() && matches!(exponent, Scalar::Int(e) if e < 0) {
        return Err(Error::IntegerNegativePower);
    }
    let e = match exponent {
        Scalar::Int(e) => e as f64,
        Scalar::Float(e) => e,
        _ => f64::NAN,
    };
    let dtype = x.dtype();
    let single_or_double = matches!(dtype, DType::Float32 | DType::Float64);
    let times = |a: &Tensor, b: &Tensor| binary_values(Binary::Mul, a.into(), b.into());
    // ATen's pow_out fills ones for 0 and copies the base for 1, before any kernel.
    if dtype.is_floating_point() {
        match e {
            0.0 => return x.full_like(Scalar::Int(1)),
            1.0 => {
                return binary_values(Binary::Mul, x.into(), Operand::Scalar(Scalar::Int(1)));
            }
            _ => {}
        }
    }
    if single_or_double || dtype == DType::BFloat16 {
        let special = match e {
            0.5 => Some(Unary::Sqrt),
            -0.5 => Some(Unary::Rsqrt),
            -1.0 => Some(Unary::Reciprocal),
            _ => None,
        };
        if let Some(op) = special {
            return unary_values(op, x);
        }
    }
    if single_or_double {
        match e {
            2.0 => return times(x, x),
            3.0 => return times(&times(x, x)?, x),
            -2.0 => return unary_values(Unary::Reciprocal, &times(x, x)?),
            _ => {}
        }
    }
    binary_values(Binary::Pow, Operand::Tensor(x), Operand::Scalar(exponent))
}

/// `PowBackward0` of `x ** exponent`, `saved` holding `x`: d(x^p)/dx = p · x^(p-1).
pub(super) fn pow_scalar_backward(saved: SavedTensor, exponent: Scalar) -> Backward {
    Backward::saving("PowBackward0", move |grad| {
        let x = saved.unpack()?;
        let p = exponent.as_f64();
        // pow_backward: zeros for a zero exponent, else p · x.pow(p - 1), that pow with its
        // special cases (x·x for 3, the copy for 2).
        if p == 0.0 {
            return Ok(vec![Some(x.full_like(Scalar::Int(0))?)]);
        }
        let lower = pow_scalar_values(x, Scalar::Float(p - 1.0))?;
        let scaled = binary_values(
            Binary::Mul,
            (&lower).into(),
            Operand::Scalar(Scalar::Float(p)),
        )?;
        Ok(vec![Some(
            binary_values(Binary::Mul, grad.into(), (&scaled).into())?
                .to_dtype_if_needed(x.dtype())?,
        )])
    })
}

/// An op's result on the `meta` device: shape and dtype worked out, no data and no kernel.
pub(crate) fn meta_result(
    session: &Session,
    shape: &[usize],
    dtype: DType,
) -> Result<Tensor, Error> {
    Tensor::full(session, shape, Scalar::Int(0), dtype, Device::META)
}

/// Records that a kernel ran on the GPU behind `device`.
pub(crate) fn record_gpu_kernel(session: &Session, device: Device, op: &str) {
    session.record(Some(device), || EventKind::Kernel {
        op: op.to_owned(),
        backend: Backend::Gpu,
    });
}

/// Records that an op making `dtype` values was computed on the host: on the CPU, or for a GPU
/// device with the CPU standing in (the trace says so; float64 on an adapter without it is
/// named as such).
pub(crate) fn record_kernel(session: &Session, device: Device, op: &str, dtype: DType) {
    let backend = if device.is_cpu() {
        Backend::Cpu
    } else if dtype == DType::Float64
        && session
            .gpu(device)
            .is_some_and(|gpu| !gpu.report().shader_f64)
    {
        Backend::HostFloat64
    } else {
        Backend::CpuStandIn
    };
    session.record(Some(device), || EventKind::Kernel {
        op: op.to_owned(),
        backend,
    });
}

fn op_name(op: Binary) -> &'static str {
    match op {
        Binary::Add => "add",
        Binary::Sub => "sub",
        Binary::Mul => "mul",
        Binary::Div => "div",
        Binary::FloorDiv => "floor_divide",
        Binary::Remainder => "remainder",
        Binary::Pow => "pow",
        Binary::Maximum => "maximum",
        Binary::Minimum => "minimum",
        Binary::Eq => "eq",
        Binary::Ne => "ne",
        Binary::Lt => "lt",
        Binary::Le => "le",
        Binary::Gt => "gt",
        Binary::Ge => "ge",
        Binary::BitAnd => "bitwise_and",
        Binary::BitOr => "bitwise_or",
        Binary::BitXor => "bitwise_xor",
        Binary::Shl => "bitwise_left_shift",
        Binary::Shr => "bitwise_right_shift",
        Binary::Atan2 => "atan2",
        Binary::Hypot => "hypot",
        Binary::Fmod => "fmod",
        Binary::Fmax => "fmax",
        Binary::Fmin => "fmin",
        Binary::Copysign => "copysign",
        Binary::TruncDiv => "div_trunc",
    }
}

/// An operand kept by a backward closure.
pub(super) enum Saved {
    Tensor(SavedTensor),
    Scalar(Scalar),
}

impl Saved {
    pub(super) fn of(operand: Operand) -> Saved {
        match operand {
            Operand::Tensor(t) => Saved::Tensor(SavedTensor::new(t)),
            Operand::Scalar(s) => Saved::Scalar(s),
        }
    }

    pub(super) fn operand(&self) -> Result<Operand<'_>, Error> {
        Ok(match self {
            Saved::Tensor(t) => Operand::Tensor(t.unpack()?),
            Saved::Scalar(s) => Operand::Scalar(*s),
        })
    }
}

/// The tensors among the operands (for recording autograd nodes).
/// `out` with the `NotImplemented` node PyTorch records for an op without a derivative (`op`
/// names it in the error a backward pass through it raises).
pub(super) fn without_derivative(out: Tensor, inputs: &[&Tensor], op: &'static str) -> Tensor {
    let meta = autograd::record(inputs, || {
        Backward::new("NotImplemented", move |_| Err(Error::NoDerivative { op }))
    });
    out.with_autograd(meta)
}

fn tensors<'a>(operands: &[Operand<'a>]) -> Vec<&'a Tensor> {
    operands
        .iter()
        .filter_map(|o| match o {
            Operand::Tensor(t) => Some(*t),
            Operand::Scalar(_) => None,
        })
        .collect()
}

/// A gradient summed down to `shape` (undoing broadcasting) and cast to `dtype`.
pub(crate) fn reduce_grad(grad: &Tensor, shape: &[usize], dtype: DType) -> Result<Tensor, Error> {
    let summed = grad.sum_to_shape(shape)?;
    if summed.dtype() == dtype {
        Ok(summed)
    } else {
        summed.to_dtype(dtype)
    }
}

impl Tensor {
    /// `self + alpha * other`.
    pub fn add_scaled<'a>(
        &self,
        other: impl Into<Operand<'a>>,
        alpha: Scalar,
    ) -> Result<Tensor, Error> {
        let other = other.into();
        let scaled = add_scaled_values(Binary::Add, Operand::Tensor(self), other, alpha)?;
        let (a_shape, a_dtype) = (self.shape().to_vec(), self.dtype());
        let b = other.tensor().map(|t| (t.shape().to_vec(), t.dtype()));
        let meta = autograd::record_edges(&[Some(self), other.tensor()], || {
            Backward::new("AddBackward0", move |grad| {
                let mut grads = vec![Some(reduce_grad(grad, &a_shape, a_dtype)?)];
                if let Some((shape, dtype)) = &b {
                    let g = if alpha == Scalar::Int(1) {
                        grad.clone()
                    } else {
                        binary_values(Binary::Mul, grad.into(), Operand::Scalar(alpha))?
                    };
                    grads.push(Some(reduce_grad(&g, shape, *dtype)?));
                }
                Ok(grads)
            })
        });
        Ok(scaled.with_autograd(meta))
    }

    /// `self + other`.
    pub fn add<'a>(&self, other: impl Into<Operand<'a>>) -> Result<Tensor, Error> {
        self.add_scaled(other, Scalar::Int(1))
    }

    /// `self - other`.
    pub fn sub<'a>(&self, other: impl Into<Operand<'a>>) -> Result<Tensor, Error> {
        self.sub_scaled(other, Scalar::Int(1))
    }

    /// `self - alpha * other` (`sub(other, alpha=a)`), one `SubBackward0`.
    pub fn sub_scaled<'a>(
        &self,
        other: impl Into<Operand<'a>>,
        alpha: Scalar,
    ) -> Result<Tensor, Error> {
        let other = other.into();
        let out = add_scaled_values(Binary::Sub, Operand::Tensor(self), other, alpha)?;
        let (a_shape, a_dtype) = (self.shape().to_vec(), self.dtype());
        let b = other.tensor().map(|t| (t.shape().to_vec(), t.dtype()));
        let meta = autograd::record_edges(&[Some(self), other.tensor()], || {
            Backward::new("SubBackward0", move |grad| {
                let mut grads = vec![Some(reduce_grad(grad, &a_shape, a_dtype)?)];
                if let Some((shape, dtype)) = &b {
                    let g = match alpha {
                        Scalar::Int(1) => grad.neg()?,
                        alpha => binary_values(Binary::Mul, grad.into(), Operand::Scalar(alpha))?
                            .neg()?,
                    };
                    grads.push(Some(reduce_grad(&g, shape, *dtype)?));
                }
                Ok(grads)
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `scalar - self` (Python's `2 - x`).
    pub fn rsub(&self, scalar: Scalar) -> Result<Tensor, Error> {
        let out = binary_values(Binary::Sub, Operand::Scalar(scalar), Operand::Tensor(self))?;
        let dtype = self.dtype();
        let meta = autograd::record(&[self], || {
            Backward::new("RsubBackward1", move |grad| {
                Ok(vec![Some(grad.neg()?.to_dtype_if_needed(dtype)?)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `self * other`.
    pub fn mul<'a>(&self, other: impl Into<Operand<'a>>) -> Result<Tensor, Error> {
        let other = other.into();
        let out = binary_values(Binary::Mul, Operand::Tensor(self), other)?;
        let a = SavedTensor::new(self);
        let b = Saved::of(other);
        let meta = autograd::record_edges(&[Some(self), other.tensor()], || {
            Backward::saving("MulBackward0", move |grad| {
                let a = a.unpack()?;
                let grad_a = binary_values(Binary::Mul, grad.into(), b.operand()?)?;
                let mut grads = vec![Some(reduce_grad(&grad_a, a.shape(), a.dtype())?)];
                if let Saved::Tensor(b) = &b {
                    let b = b.unpack()?;
                    let grad_b = binary_values(Binary::Mul, grad.into(), a.into())?;
                    grads.push(Some(reduce_grad(&grad_b, b.shape(), b.dtype())?));
                }
                Ok(grads)
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `self / other` (true division).
    pub fn div<'a>(&self, other: impl Into<Operand<'a>>) -> Result<Tensor, Error> {
        let other = other.into();
        let out = binary_values(Binary::Div, Operand::Tensor(self), other)?;
        let a = SavedTensor::new(self);
        let b = Saved::of(other);
        let meta = autograd::record_edges(&[Some(self), other.tensor()], || {
            Backward::saving("DivBackward0", move |grad| {
                let a = a.unpack()?;
                let grad_a = binary_values(Binary::Div, grad.into(), b.operand()?)?;
                let mut grads = vec![Some(reduce_grad(&grad_a, a.shape(), a.dtype())?)];
                if let Saved::Tensor(b) = &b {
                    let b = b.unpack()?;
                    // d(a/b)/db = -a / b²
                    let b2 = binary_values(Binary::Mul, b.into(), b.into())?;
                    let ratio = binary_values(Binary::Div, a.into(), (&b2).into())?;
                    let grad_b = binary_values(Binary::Mul, grad.into(), (&ratio).into())?.neg()?;
                    grads.push(Some(reduce_grad(&grad_b, b.shape(), b.dtype())?));
                }
                Ok(grads)
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `torch.maximum(self, other)`: `MaximumBackward0` sends the gradient to the larger input
    /// (half to each on a tie).
    pub fn maximum(&self, other: &Tensor) -> Result<Tensor, Error> {
        self.pick(other, Binary::Maximum)
    }

    /// `torch.minimum(self, other)` (`MinimumBackward0`), as [`Tensor::maximum`].
    pub fn minimum(&self, other: &Tensor) -> Result<Tensor, Error> {
        self.pick(other, Binary::Minimum)
    }

    fn pick(&self, other: &Tensor, op: Binary) -> Result<Tensor, Error> {
        let out = binary_values(op, self.into(), other.into())?;
        let (a, b) = (SavedTensor::new(self), SavedTensor::new(other));
        let (name, wins) = if op == Binary::Maximum {
            ("MaximumBackward0", [Binary::Gt, Binary::Lt])
        } else {
            ("MinimumBackward0", [Binary::Lt, Binary::Gt])
        };
        let meta = autograd::record(&[self, other], || {
            Backward::saving(name, move |grad| {
                let (a, b) = (a.unpack()?, b.unpack()?);
                let share = |winner: Binary| -> Result<Tensor, Error> {
                    let wins = binary_values(winner, a.into(), b.into())?.to_dtype(grad.dtype())?;
                    let ties =
                        binary_values(Binary::Eq, a.into(), b.into())?.to_dtype(grad.dtype())?;
                    let half_ties = binary_values(
                        Binary::Mul,
                        (&ties).into(),
                        Operand::Scalar(Scalar::Float(0.5)),
                    )?;
                    let weight = binary_values(Binary::Add, (&wins).into(), (&half_ties).into())?;
                    binary_values(Binary::Mul, grad.into(), (&weight).into())
                };
                Ok(vec![
                    Some(reduce_grad(&share(wins[0])?, a.shape(), a.dtype())?),
                    Some(reduce_grad(&share(wins[1])?, b.shape(), b.dtype())?),
                ])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `self & other`, `self | other`, `self ^ other` (`torch.bitwise_and`, …) on integer and bool
    /// tensors, `self << other` and `self >> other` (`torch.bitwise_left_shift`, …) on integer
    /// ones; their results never take part in autograd.
    pub fn bitwise<'a>(&self, op: Binary, other: impl Into<Operand<'a>>) -> Result<Tensor, Error> {
        binary_values(op, Operand::Tensor(self), other.into())
    }

    /// `number op self` for a bitwise op (`2 << t`, `__rlshift__`): the number takes part as a
    /// Python number does in promotion.
    pub fn rbitwise(&self, op: Binary, number: Scalar) -> Result<Tensor, Error> {
        binary_values(op, number.into(), self.into())
    }

    /// `~self` (`torch.bitwise_not`) on an integer or bool tensor.
    pub fn bitwise_not(&self) -> Result<Tensor, Error> {
        unary_values(Unary::BitNot, self)
    }

    /// `self // other` (`torch.floor_divide`). PyTorch records a `NotImplemented` node for it:
    /// the graph continues, and a backward pass through it fails.
    pub fn floor_divide<'a>(&self, other: impl Into<Operand<'a>>) -> Result<Tensor, Error> {
        let other = other.into();
        let out = binary_values(Binary::FloorDiv, Operand::Tensor(self), other)?;
        let inputs = tensors(&[Operand::Tensor(self), other]);
        Ok(without_derivative(out, &inputs, "aten::floor_divide"))
    }

    /// `number // self` (`__rfloordiv__`): the number takes part as a Python number does in
    /// promotion; a `NotImplemented` node, as for `floor_divide`.
    pub fn rfloor_divide(&self, number: Scalar) -> Result<Tensor, Error> {
        let out = binary_values(Binary::FloorDiv, number.into(), self.into())?;
        Ok(without_derivative(out, &[self], "aten::floor_divide"))
    }

    /// `number % self` (`torch.remainder(number, t)`, `__rmod__`): PyTorch has no derivative
    /// for it, and records a `NotImplemented` node.
    pub fn rremainder(&self, number: Scalar) -> Result<Tensor, Error> {
        let out = binary_values(Binary::Remainder, number.into(), self.into())?;
        Ok(without_derivative(out, &[self], "aten::remainder"))
    }

    /// `self % other` (`torch.remainder`): `RemainderBackward1` with a tensor, `RemainderBackward0`
    /// with a number.
    pub fn remainder<'a>(&self, other: impl Into<Operand<'a>>) -> Result<Tensor, Error> {
        let other = other.into();
        let out = binary_values(Binary::Remainder, Operand::Tensor(self), other)?;
        let name = if other.tensor().is_some() {
            "RemainderBackward1"
        } else {
            "RemainderBackward0"
        };
        let a = SavedTensor::new(self);
        let b = Saved::of(other);
        let meta = autograd::record(&tensors(&[Operand::Tensor(self), other]), || {
            Backward::saving(name, move |grad| {
                let a = a.unpack()?;
                let mut grads = vec![Some(reduce_grad(grad, a.shape(), a.dtype())?)];
                if let Saved::Tensor(b) = &b {
                    let b = b.unpack()?;
                    // d(a % b)/db = -floor(a / b)
                    let quotient = binary_values(Binary::FloorDiv, a.into(), b.into())?;
                    let grad_b =
                        binary_values(Binary::Mul, grad.into(), (&quotient).into())?.neg()?;
                    grads.push(Some(reduce_grad(&grad_b, b.shape(), b.dtype())?));
                }
                Ok(grads)
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `self ** exponent` for a Python number.
    pub fn pow_scalar(&self, exponent: Scalar) -> Result<Tensor, Error> {
        if let Some(cast) =
            crate::amp::autocast_inputs(crate::amp::CastPolicy::Float32Gpu, &[self])?
        {
            return cast[0].pow_scalar(exponent);
        }

        let out = pow_scalar_values(self, exponent)?;
        let saved = SavedTensor::new(self);
        let meta = autograd::record(&[self], || pow_scalar_backward(saved, exponent));
        Ok(out.with_autograd(meta))
    }

    /// `self ** exponent` for a tensor exponent (`PowBackward1`).
    pub fn pow(&self, exponent: &Tensor) -> Result<Tensor, Error> {
        if let Some(cast) =
            crate::amp::autocast_inputs(crate::amp::CastPolicy::Float32Gpu, &[self, exponent])?
        {
            return cast[0].pow(&cast[1]);
        }

        let out = binary_values(Binary::Pow, Operand::Tensor(self), exponent.into())?;
        let (base, power) = (SavedTensor::new(self), SavedTensor::new(exponent));
        let meta = autograd::record(&[self, exponent], || {
            Backward::saving("PowBackward1", move |grad| {
                let (x, p) = (base.unpack()?, power.unpack()?);
                // d/dx = p · x^(p-1); d/dp = x^p · ln x
                let lower = binary_values(
                    Binary::Pow,
                    x.into(),
                    (&binary_values(Binary::Sub, p.into(), Operand::Scalar(Scalar::Int(1)))?)
                        .into(),
                )?;
                let dx = binary_values(
                    Binary::Mul,
                    (&binary_values(Binary::Mul, p.into(), (&lower).into())?).into(),
                    grad.into(),
                )?;
                let power_of = binary_values(Binary::Pow, x.into(), p.into())?;
                let log = super::elementwise::unary_values(Unary::Log, x)?;
                let dp = binary_values(
                    Binary::Mul,
                    (&binary_values(Binary::Mul, (&power_of).into(), (&log).into())?).into(),
                    grad.into(),
                )?;
                Ok(vec![
                    Some(reduce_grad(&dx, x.shape(), x.dtype())?),
                    Some(reduce_grad(&dp, p.shape(), p.dtype())?),
                ])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// Comparisons (`==`, `!=`, `<`, `<=`, `>`, `>=`): bool tensors, never differentiable.
    pub fn compare<'a>(&self, op: Binary, other: impl Into<Operand<'a>>) -> Result<Tensor, Error> {
        if !op.is_comparison() {
            return Err(Error::NotAComparison);
        }
        binary_values(op, Operand::Tensor(self), other.into())
    }

    /// `.to(dtype)` only when it changes the dtype (gradients keep their input's dtype).
    pub(crate) fn to_dtype_if_needed(&self, dtype: DType) -> Result<Tensor, Error> {
        if self.dtype() == dtype {
            Ok(self.clone())
        } else {
            self.to_dtype(dtype)
        }
    }
}
