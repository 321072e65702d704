//! The bridge from ops to the wgpu backend: tensors become kernel operands (a buffer, a dtype and
//! strides broadcast to the output's shape), and results become fresh tensors whose storage the
//! kernel writes. Ops call these first and fall back to the CPU backend only where the adapter
//! has no kernel (the trace then says the CPU stood in).

use std::rc::Rc;

use crate::autograd::AutogradMeta;
use crate::backend::cpu::elementwise::LaneKind;
use crate::backend::cpu::reduce::Reduction;
use crate::backend::gpu::{
    ConvOperand, ConvPass, ConvShape, Distribution, Elementwise, GpuBuffer, GpuContext, GpuError,
    KernelOperand, MatrixView, Output, Pick, Product, ReduceInput, accumulator, product_lanes,
};
use crate::device::Device;
use crate::dtype::DType;
use crate::element::Scalar;
use crate::error::Error;
use crate::layout::Layout;
use crate::session::Session;
use crate::storage::{CpuStorage, Storage};
use crate::tensor::Tensor;

use super::indexing::Picking;

/// An input of a GPU kernel, before it is bound: a tensor on the GPU, or a value every element
/// shares (a Python number, or a 0-dim CPU tensor, which PyTorch passes as a kernel argument).
pub(crate) enum Input<'a> {
    Tensor(&'a Tensor),
    Scalar(Scalar),
}

/// What keeps an input's buffer alive while the kernel is recorded.
struct Bound {
    buffer: GpuBuffer,
    dtype: DType,
    offset: usize,
    strides: Vec<usize>,
}

impl Input<'_> {
    /// The input bound for a kernel over `shape`; `None` when its tensor is not on `gpu`'s
    /// buffers.
    fn bind(&self, gpu: &GpuContext, shape: &[usize], kind: LaneKind) -> Option<Bound> {
        let scalar = |value: Scalar| {
            let dtype = kind.dtype();
            Bound {
                buffer: gpu.constant(&CpuStorage::from_scalars(dtype, &[value]).to_bytes()),
                dtype,
                offset: 0,
                strides: vec![0; shape.len()],
            }
        };
        match self {
            Input::Scalar(value) => Some(scalar(*value)),
            Input::Tensor(t) if t.device().is_cpu() && t.dim() == 0 => {
                let value = t.read(|cpu| cpu.get(t.storage_offset())).ok()??;
                Some(scalar(value))
            }
            Input::Tensor(t) => {
                let (_, buffer) = t.storage().gpu()?;
                let sizes: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
                let layout = t.layout().expand(&sizes, &t.type_name()).ok()?;
                Some(Bound {
                    buffer,
                    dtype: t.dtype(),
                    offset: layout.offset,
                    strides: layout.strides,
                })
            }
        }
    }
}

/// Whether a kernel can bind every one of `inputs` and an output of `out_bytes` at once. Elementwise
/// kernels split larger tensors into windows that fit; the other kernels (reductions, products,
/// convolutions, picks) leave a larger tensor to the host, marked as a stand-in.
fn binds<'a>(
    gpu: &GpuContext,
    inputs: impl IntoIterator<Item = &'a GpuBuffer>,
    out_bytes: usize,
) -> bool {
    gpu.binds(out_bytes as u64) && inputs.into_iter().all(|b| gpu.binds(b.len()))
}

/// A fresh contiguous tensor on `device` whose elements a kernel will write.
pub(crate) fn output(
    session: &Session,
    shape: &[usize],
    dtype: DType,
    device: Device,
) -> Result<(Tensor, GpuBuffer), Error> {
    crate::tensor::check_device_dtype(device, dtype)?;
    let numel = crate::layout::checked_storage_size(shape, dtype.size())? / dtype.size();
    let storage = Storage::new(session, device, dtype, numel, || None, false)?;
    let (_, buffer) = storage.gpu().ok_or(Error::MetaHasNoData)?;
    let tensor = Tensor::from_storage(
        Rc::new(storage),
        Layout::contiguous(shape),
        AutogradMeta::default(),
    );
    Ok((tensor, buffer))
}

/// An elementwise kernel to launch: the op, the lanes it computes in, the lanes each input is
/// read as, and the result's shape and dtype.
pub(crate) struct Launch<'a> {
    pub op: Elementwise,
    pub compute: LaneKind,
    pub kinds: &'a [LaneKind],
    pub shape: &'a [usize],
    pub out_dtype: DType,
}

/// Runs `launch` on the GPU behind `device`: `None` when there is none, an input is not on it,
/// or the adapter has no kernel for these dtypes (the caller then computes on the host).
pub(crate) fn elementwise(
    session: &Session,
    device: Device,
    launch: Launch,
    inputs: &[Input],
) -> Option<Result<Tensor, Error>> {
    let gpu = session.gpu(device)?;
    let bound: Vec<Bound> = inputs
        .iter()
        .zip(launch.kinds)
        .map(|(input, &kind)| input.bind(gpu, launch.shape, kind))
        .collect::<Option<_>>()?;
    let dtypes: Vec<DType> = bound
        .iter()
        .map(|b| b.dtype)
        .chain([launch.out_dtype])
        .collect();
    if !gpu.can_run(launch.op, launch.compute, &dtypes) {
        return None;
    }
    Some(run(gpu, session, device, &launch, &bound))
}

fn run(
    gpu: &GpuContext,
    session: &Session,
    device: Device,
    launch: &Launch,
    bound: &[Bound],
) -> Result<Tensor, Error> {
    let (tensor, out) = output(session, launch.shape, launch.out_dtype, device)?;
    let operands: Vec<KernelOperand> = bound
        .iter()
        .zip(launch.kinds)
        .map(|(b, &kind)| KernelOperand {
            buffer: &b.buffer,
            dtype: b.dtype,
            offset: b.offset,
            strides: b.strides.clone(),
            kind,
        })
        .collect();
    gpu.elementwise(
        launch.op,
        launch.compute,
        launch.shape,
        &operands,
        Output::whole(&out, launch.out_dtype),
    )?;
    Ok(tensor)
}

/// Copies `source` (its buffer `input`) into `out`, laid out as `to` (dense, at offset 0) and
/// converted to `dtype`, with the copy kernel.
pub(crate) fn copy(
    gpu: &GpuContext,
    source: &Tensor,
    input: &GpuBuffer,
    to: &Layout,
    dtype: DType,
    out: &GpuBuffer,
) -> Result<(), Error> {
    // The kernel writes its output in row-major order, so it walks the source in the order of
    // the destination's storage: dimensions sorted by the destination's strides, largest first.
    let mut order: Vec<usize> = (0..to.dim()).collect();
    order.sort_by_key(|&d| std::cmp::Reverse(to.strides[d]));
    let shape: Vec<usize> = order.iter().map(|&d| to.shape[d]).collect();
    let strides: Vec<usize> = order.iter().map(|&d| source.stride()[d]).collect();
    let kind = LaneKind::of(dtype);
    let operand = KernelOperand {
        buffer: input,
        dtype: source.dtype(),
        offset: source.storage_offset(),
        strides,
        kind,
    };
    gpu.elementwise(
        Elementwise::Copy,
        kind,
        &shape,
        &[operand],
        Output::whole(out, dtype),
    )?;
    Ok(())
}

/// `op` over the dimensions `reduced` of `x` on its GPU, into a fresh tensor of `shape` and
/// `out_dtype`; `None` when `x` is not in a GPU buffer or the adapter cannot (float64 without
/// `SHADER_F64`).
pub(crate) fn reduce(
    x: &Tensor,
    op: Reduction,
    reduced: &[usize],
    shape: &[usize],
    out_dtype: DType,
) -> Option<Result<Tensor, Error>> {
    let (gpu, buffer) = x.storage().gpu()?;
    let acc = accumulator(x.dtype());
    let out_bytes = shape.iter().product::<usize>() * acc.dtype().size().max(out_dtype.size());
    if !binds(gpu, [&buffer], out_bytes) {
        return None;
    }
    if acc == LaneKind::F64 && !gpu.report().shader_f64 {
        return None;
    }
    let input = reduce_view(x, &buffer, reduced);
    Some(accumulated(
        x.session(),
        gpu,
        shape,
        out_dtype,
        acc,
        x.device(),
        false,
        |out| gpu.reduce(op, &input, out),
    ))
}

/// `x` (in `buffer`) seen as `outer × inner`: the dimensions kept first, the `reduced` ones last,
/// as a permuted view (nothing is copied).
fn reduce_view<'a>(x: &Tensor, buffer: &'a GpuBuffer, reduced: &[usize]) -> ReduceInput<'a> {
    let kept = (0..x.dim()).filter(|d| !reduced.contains(d));
    let order: Vec<usize> = kept.clone().chain(reduced.iter().copied()).collect();
    ReduceInput {
        buffer,
        dtype: x.dtype(),
        offset: x.storage_offset(),
        shape: order.iter().map(|&d| x.shape()[d]).collect(),
        strides: order.iter().map(|&d| x.stride()[d]).collect(),
        outer: kept.map(|d| x.shape()[d]).product(),
        inner: reduced.iter().map(|&d| x.shape()[d]).product(),
    }
}

/// `argmax`/`argmin` of `x` along `dim` on its GPU, as an int64 tensor of `shape` (the other
/// dimensions, in order); `None` where `x` is not in a GPU buffer or the adapter cannot.
pub(crate) fn arg_extreme(
    x: &Tensor,
    dim: usize,
    largest: bool,
    shape: &[usize],
) -> Option<Result<Tensor, Error>> {
    let (gpu, buffer) = x.storage().gpu()?;
    let out_bytes = shape.iter().product::<usize>() * DType::Int64.size();
    if (x.dtype() == DType::Float64 && !gpu.report().shader_f64)
        || !binds(gpu, [&buffer], out_bytes)
    {
        return None;
    }
    let input = reduce_view(x, &buffer, &[dim]);
    Some((|| {
        let (tensor, out) = output(x.session(), shape, DType::Int64, x.device())?;
        gpu.arg_extreme(&input, largest, &out)?;
        Ok(tensor)
    })())
}

/// A fresh tensor of `shape` and `dtype` filled by `kernel`, which writes `acc` lanes: straight
/// into the result where its dtype is the accumulator's and the kernel needs no `zeroed` buffer,
/// else into a fresh scratch buffer (zeroed, as every new wgpu buffer is) that the copy kernel
/// rounds once into the result (float16 and bfloat16 accumulate in float32).
#[allow(clippy::too_many_arguments)]
fn accumulated(
    session: &Session,
    gpu: &GpuContext,
    shape: &[usize],
    dtype: DType,
    acc: LaneKind,
    device: Device,
    zeroed: bool,
    kernel: impl FnOnce(&GpuBuffer) -> Result<(), GpuError>,
) -> Result<Tensor, Error> {
    let (tensor, out) = output(session, shape, dtype, device)?;
    if dtype == acc.dtype() && !zeroed {
        kernel(&out)?;
        return Ok(tensor);
    }
    let numel: usize = shape.iter().product();
    let partial = gpu.scratch((numel * acc.dtype().size()) as u64);
    kernel(&partial)?;
    let operand = KernelOperand {
        buffer: &partial,
        dtype: acc.dtype(),
        offset: 0,
        strides: vec![1],
        kind: LaneKind::of(dtype),
    };
    gpu.elementwise(
        Elementwise::Copy,
        LaneKind::of(dtype),
        &[numel],
        &[operand],
        Output::whole(&out, dtype),
    )?;
    Ok(tensor)
}

/// `batch` products of `a` (batch × n × k) and `b` (batch × k × m) on their GPU, as a fresh
/// tensor of `shape`; `None` where the GPU cannot (integer operands, float64 without
/// `SHADER_F64`, operands not in GPU buffers).
pub(crate) fn matmul(
    a: &Tensor,
    b: &Tensor,
    product: Product,
    shape: &[usize],
) -> Option<Result<Tensor, Error>> {
    let (gpu, lhs) = a.storage().gpu()?;
    let (_, rhs) = b.storage().gpu()?;
    let acc = product_lanes(a.dtype())?;
    let out_bytes = shape.iter().product::<usize>() * acc.dtype().size();
    if (acc == LaneKind::F64 && !gpu.report().shader_f64) || !binds(gpu, [&lhs, &rhs], out_bytes) {
        return None;
    }
    let view = |t: &Tensor, buffer| {
        let strides = match (t.stride(), product.batch) {
            (&[rows, cols], 1) => [0, rows, cols],
            (&[batch, rows, cols], _) => [batch, rows, cols],
            _ => return None,
        };
        Some(MatrixView {
            buffer,
            offset: t.storage_offset(),
            strides,
        })
    };
    let (lhs_view, rhs_view) = (view(a, &lhs)?, view(b, &rhs)?);
    Some(accumulated(
        a.session(),
        gpu,
        shape,
        a.dtype(),
        acc,
        a.device(),
        false,
        |out| gpu.matmul(a.dtype(), product, lhs_view, rhs_view, out),
    ))
}

/// `torch.full` on a GPU: the fill kernel (a copy from a value every element shares).
pub(crate) fn fill(
    session: &Session,
    shape: &[usize],
    value: Scalar,
    dtype: DType,
    device: Device,
) -> Option<Result<Tensor, Error>> {
    copied(session, device, Input::Scalar(value), shape, dtype, "fill")
}

/// A row-major copy of `x` on its GPU (`contiguous()`, `clone()`).
pub(crate) fn contiguous(x: &Tensor) -> Option<Result<Tensor, Error>> {
    let (session, device) = (x.session(), x.device());
    copied(
        session,
        device,
        Input::Tensor(x),
        x.shape(),
        x.dtype(),
        "clone",
    )
}

/// A fresh `dtype` tensor of `shape` on `device` that the copy kernel fills from `input`,
/// recorded as the GPU kernel `op`.
fn copied(
    session: &Session,
    device: Device,
    input: Input,
    shape: &[usize],
    dtype: DType,
    op: &str,
) -> Option<Result<Tensor, Error>> {
    let kind = LaneKind::of(dtype);
    let launch = Launch {
        op: Elementwise::Copy,
        compute: kind,
        kinds: &[kind],
        shape,
        out_dtype: dtype,
    };
    made(session, device, launch, &[input], op)
}

/// A fresh tensor that `launch` computes on `device` (resolved here) from `inputs`, recorded as
/// the GPU kernel `op`: fills, copies and the sequences (`arange`, `linspace`, `eye`).
pub(crate) fn made(
    session: &Session,
    device: Device,
    launch: Launch,
    inputs: &[Input],
    op: &str,
) -> Option<Result<Tensor, Error>> {
    let device = session.resolve(device).ok()?;
    let made = elementwise(session, device, launch, inputs)?;
    if made.is_ok() {
        super::record_gpu_kernel(session, device, op);
    }
    Some(made)
}

/// Writes `values` (of `at`'s shape) into `dest` where `at` places them, on their GPU: the copy
/// kernel, row-major where `at` is a dense run that starts and ends on word boundaries, else one
/// element per thread at the positions `at`'s strides give. Values read from `dest` itself (which
/// may overlap where they go) are copied out first. `None` where either is not in a GPU buffer.
pub(crate) fn write(dest: &Storage, at: &Layout, values: &Tensor) -> Option<Result<(), Error>> {
    let (gpu, out) = dest.gpu()?;
    values.storage().gpu()?;
    let dtype = dest.dtype();
    Some((|| {
        let values = if std::ptr::eq(dest, values.storage().as_ref()) {
            contiguous(values).ok_or(Error::MetaHasNoData)??
        } else {
            values.clone()
        };
        let (_, input) = values.storage().gpu().ok_or(Error::MetaHasNoData)?;
        let per = gpu.packing(dtype) as usize;
        let numel: usize = at.shape.iter().product();
        let storage_len = dest.nbytes() as usize / dtype.size();
        let whole_words = at.offset.is_multiple_of(per)
            && (numel.is_multiple_of(per) || at.offset + numel == storage_len);
        let dense = at.is_contiguous() && whole_words;
        let kind = LaneKind::of(dtype);
        let operand = KernelOperand {
            buffer: &input,
            dtype: values.dtype(),
            offset: values.storage_offset(),
            strides: values.stride().to_vec(),
            kind,
        };
        let output = Output {
            buffer: &out,
            dtype,
            offset: at.offset,
            strides: (!dense).then_some(at.strides.as_slice()),
        };
        dest.written_on_gpu();
        gpu.elementwise(Elementwise::Copy, kind, &at.shape, &[operand], output)?;
        Ok(())
    })())
}

/// `torch.cat` on the GPU: each piece copied by the copy kernel straight to its place in the
/// result, row-major where the piece is one dense run starting on a word, else element by element
/// through the result's strides. `None` where a piece is not in a GPU buffer.
pub(crate) fn cat(
    tensors: &[&Tensor],
    dim: usize,
    shape: &[usize],
    dtype: DType,
    device: Device,
) -> Option<Result<Tensor, Error>> {
    let first = tensors.first()?;
    let gpu = first.session().gpu(device)?;
    let buffers: Vec<GpuBuffer> = tensors
        .iter()
        .map(|t| t.storage().gpu().map(|(_, b)| b))
        .collect::<Option<_>>()?;
    let total: usize = shape.iter().product();
    let strides = crate::layout::contiguous_strides(shape);
    let outer: usize = shape[..dim].iter().product();
    let per = gpu.packing(dtype) as usize;
    let kind = LaneKind::of(dtype);
    Some((|| {
        let (result, out) = output(first.session(), shape, dtype, device)?;
        let mut start = 0;
        for (t, buffer) in tensors.iter().zip(&buffers) {
            let offset = start * strides[dim];
            let numel = t.numel();
            let dense = outer == 1
                && offset.is_multiple_of(per)
                && (numel.is_multiple_of(per) || offset + numel == total);
            let operand = KernelOperand {
                buffer,
                dtype: t.dtype(),
                offset: t.storage_offset(),
                strides: t.stride().to_vec(),
                kind,
            };
            let output = Output {
                buffer: &out,
                dtype,
                offset,
                strides: (!dense).then_some(strides.as_slice()),
            };
            gpu.elementwise(Elementwise::Copy, kind, t.shape(), &[operand], output)?;
            start += t.shape()[dim];
        }
        Ok(result)
    })())
}

/// The elements of `source` that `index` picks, as `picking` says, into a fresh tensor on their
/// GPU, recorded as the GPU kernel `op`. On a CUDA device the kernel checks the indices itself
/// and a failure is a device-side assert saying `assertion`, raised at the next sync point; on
/// another GPU (`mps`) `host_check` reads and checks them first. `None` where the GPU cannot.
pub(crate) fn gather(
    source: &Tensor,
    index: &Tensor,
    picking: &Picking,
    (op, assertion): (&str, &str),
    host_check: impl FnOnce() -> Result<(), Error>,
) -> Option<Result<Tensor, Error>> {
    let (gpu, source_buffer) = source.storage().gpu()?;
    let (_, index_buffer) = index.storage().gpu()?;
    let dtype = source.dtype();
    let out_bytes = picking.shape.iter().product::<usize>() * dtype.size();
    if (dtype == DType::Float64 && !gpu.report().shader_f64)
        || !binds(gpu, [&source_buffer, &index_buffer], out_bytes)
    {
        return None;
    }
    let (session, device) = (source.session(), source.device());
    Some((|| {
        if device.kind != crate::device::DeviceType::Cuda {
            host_check()?;
        }
        let (flag, code) = session.checked_launch(device, gpu, assertion);
        let (tensor, out) = output(session, &picking.shape, dtype, device)?;
        let kind = LaneKind::of(dtype);
        let (source_operand, index_operand) = pick_operands(
            picking,
            (&source_buffer, dtype, kind),
            (&index_buffer, index.dtype()),
        );
        gpu.gather(
            &picking.shape,
            source_operand,
            index_operand,
            Output::whole(&out, dtype),
            pick_of(picking, &flag, code),
        )?;
        super::record_gpu_kernel(session, device, op);
        session.after_checked_launch(device)?;
        Ok(tensor)
    })())
}

/// The gradient of a pick on the GPU: `grad` (of `picking.shape`) added into zeros of `shape`
/// at the positions `index` picks (`picking`'s source walks the result row-major), by the
/// scatter-add kernel in float32. `None` where the GPU cannot (float64 has no atomic add).
pub(crate) fn scatter_add(
    grad: &Tensor,
    index: &Tensor,
    picking: &Picking,
    shape: &[usize],
) -> Option<Result<Tensor, Error>> {
    let (gpu, grad_buffer) = grad.storage().gpu()?;
    let (_, index_buffer) = index.storage().gpu()?;
    let numel: usize = shape.iter().product();
    if grad.dtype() == DType::Float64 || !binds(gpu, [&grad_buffer, &index_buffer], numel * 4) {
        return None;
    }
    let (session, device) = (grad.session(), grad.device());
    let flag = session.assert_flag(device, gpu);
    let (_, index_operand) = pick_operands(
        picking,
        (&grad_buffer, grad.dtype(), LaneKind::F32),
        (&index_buffer, index.dtype()),
    );
    let values = KernelOperand {
        buffer: &grad_buffer,
        dtype: grad.dtype(),
        offset: grad.storage_offset(),
        strides: grad.stride().to_vec(),
        kind: LaneKind::F32,
    };
    Some(accumulated(
        session,
        gpu,
        shape,
        grad.dtype(),
        LaneKind::F32,
        device,
        true,
        |out| {
            gpu.scatter_add(
                &picking.shape,
                values,
                index_operand,
                &picking.source_strides,
                out,
                pick_of(picking, &flag, 0),
            )
        },
    ))
}

/// The source and index operands of a pick: the source read as `kind` lanes.
fn pick_operands<'a>(
    picking: &Picking,
    (source, source_dtype, kind): (&'a GpuBuffer, DType, LaneKind),
    (index, index_dtype): (&'a GpuBuffer, DType),
) -> (KernelOperand<'a>, KernelOperand<'a>) {
    (
        KernelOperand {
            buffer: source,
            dtype: source_dtype,
            offset: picking.source_offset,
            strides: picking.source_strides.clone(),
            kind,
        },
        KernelOperand {
            buffer: index,
            dtype: index_dtype,
            offset: picking.index_offset,
            strides: picking.index_strides.clone(),
            kind: LaneKind::I64,
        },
    )
}

/// `picking`'s dimension as a kernel's pick, raising `flag` with `code` on a failed check.
fn pick_of<'a>(picking: &Picking, flag: &'a GpuBuffer, code: u32) -> Pick<'a> {
    Pick {
        stride: picking.dim_stride,
        size: picking.size,
        wrap_negative: picking.wrap_negative,
        ignore: picking.ignore,
        flag,
        code,
    }
}

/// `pass` of the convolution `conv` on the GPU of `a` and `b` (see [`ConvPass`]; the forward
/// pass adds `bias`), into a fresh tensor of `shape`; strided operands are made contiguous by the
/// copy kernel first. `None` where the GPU cannot (integer operands, float64 without
/// `SHADER_F64`).
pub(crate) fn conv2d(
    pass: ConvPass,
    conv: &ConvShape,
    (a, b, bias): (&Tensor, &Tensor, Option<&Tensor>),
    shape: &[usize],
) -> Option<Result<Tensor, Error>> {
    let (gpu, a_buffer) = a.storage().gpu()?;
    let (_, b_buffer) = b.storage().gpu()?;
    let dtype = a.dtype();
    let acc = product_lanes(dtype)?;
    let out_bytes = shape.iter().product::<usize>() * acc.dtype().size();
    if (acc == LaneKind::F64 && !gpu.report().shader_f64)
        || !binds(gpu, [&a_buffer, &b_buffer], out_bytes)
    {
        return None;
    }
    Some((|| {
        let (a, b) = (a.contiguous()?, b.contiguous()?);
        let bias = bias.map(Tensor::contiguous).transpose()?;
        let operand = |t: &Tensor| {
            t.storage()
                .gpu()
                .map(|(_, buffer)| (buffer, t.storage_offset()))
                .ok_or(Error::MetaHasNoData)
        };
        let ((a_buffer, a_offset), (b_buffer, b_offset)) = (operand(&a)?, operand(&b)?);
        let bias = bias.as_ref().map(operand).transpose()?;
        let result = accumulated(
            a.session(),
            gpu,
            shape,
            dtype,
            acc,
            a.device(),
            false,
            |out| {
                let a = ConvOperand {
                    buffer: &a_buffer,
                    offset: a_offset,
                };
                let b = ConvOperand {
                    buffer: &b_buffer,
                    offset: b_offset,
                };
                let bias = bias.as_ref().map(|(buffer, offset)| ConvOperand {
                    buffer,
                    offset: *offset,
                });
                gpu.conv2d(pass, dtype, conv, a, b, bias, out)
            },
        )?;
        super::record_gpu_kernel(a.session(), a.device(), pass.kernel_name());
        Ok(result)
    })())
}

/// A fresh `dtype` tensor of `shape` on `device` drawn from `distribution` by its GPU, keyed by
/// the device's generator (whose offset the draw advances), recorded as a GPU kernel.
/// `None` where the device has no GPU, or the GPU leaves this dtype to the host.
pub(crate) fn random(
    session: &Session,
    shape: &[usize],
    dtype: DType,
    device: Device,
    distribution: Distribution,
) -> Option<Result<Tensor, Error>> {
    let device = session.resolve(device).ok()?;
    let gpu = session.gpu(device)?;
    if !gpu.can_draw(dtype) {
        return None;
    }
    Some((|| {
        let (tensor, out) = output(session, shape, dtype, device)?;
        let key = session.with_generator(device, crate::random::Generator::philox);
        gpu.random(distribution, key, dtype, tensor.numel(), &out)?;
        super::record_gpu_kernel(session, device, distribution.name());
        Ok(tensor)
    })())
}
