//! The engine's one error type. Its `Display` is the text a learner sees, PyTorch's own wording
//! where PyTorch has one; [`Error::python_type`] says which Python exception carries it.

use thiserror::Error;

mod einsum;
mod index;
mod linalg;
mod random;
mod reduce;
mod search;
mod shape;

pub use einsum::EinsumError;
pub use index::IndexingError;
pub use linalg::LinalgError;
pub use random::{CppDouble, RandomError};
pub use reduce::ReduceError;
pub use search::SearchError;
pub use shape::ShapeError;

use crate::device::DEVICE_TYPE_NAMES;
use crate::device::{Device, DeviceType};
use crate::layout::ShapeText;
use crate::memory::{OutOfMemory, Size};

/// PyTorch's `UserWarning` when `.grad` of a non-leaf is read (aten/src/ATen/core/TensorBody.h).
pub const NON_LEAF_GRAD_WARNING: &str = "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information.";

/// The Python exception class an engine error surfaces as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PythonType {
    RuntimeError,
    /// `torch.OutOfMemoryError`, a subclass of `RuntimeError`.
    OutOfMemoryError,
    ValueError,
    TypeError,
    IndexError,
    KeyError,
    NotImplementedError,
    FileNotFoundError,
    OSError,
    AssertionError,
    /// `torch.distributed.DistBackendError`, a subclass of `RuntimeError`.
    DistBackendError,
    /// `pickle.UnpicklingError`, as `torch.load` raises it.
    UnpicklingError,
    /// `torch.linalg.LinAlgError` (`torch._C._LinAlgError`), a subclass of `RuntimeError`.
    LinAlgError,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    #[error("Device string must not be empty")]
    EmptyDeviceString,
    #[error("Invalid device string: '{string}'")]
    InvalidDeviceString { string: String },
    #[error("Could not parse device index '{index}' in device string '{string}'")]
    UnparsableDeviceIndex { index: String, string: String },
    #[error("Expected one of {} device type at start of device string: {name}", DEVICE_TYPE_NAMES.join(", "))]
    UnknownDeviceType { name: String },
    #[error(
        "type (string) must not include an index because index was passed explicitly: {string}"
    )]
    IndexGivenTwice { string: String },
    #[error("Device index must not be negative")]
    NegativeDeviceIndex,

    // Shapes and views (aten/src/ATen/native/TensorShape.cpp, InferSize.h, ExpandUtils.cpp).
    #[error("Dimension out of range (expected to be in range of [{min}, {max}], but got {dim})")]
    DimOutOfRange { dim: i64, min: i64, max: i64 },
    #[error("only one dimension can be inferred")]
    InferMoreThanOneDim,
    #[error(
        "invalid shape dimension {size} at index {index} of shape {}",
        ShapeText(shape)
    )]
    InvalidShapeDim {
        size: i64,
        index: usize,
        shape: Vec<i64>,
    },
    #[error("shape '{}' is invalid for input of size {numel}", ShapeText(shape))]
    ShapeInvalidForSize { shape: Vec<i64>, numel: usize },
    #[error(
        "cannot reshape tensor of 0 elements into shape {} because the unspecified dimension size -1 can be any value and is ambiguous",
        ShapeText(shape)
    )]
    AmbiguousInferOfEmpty { shape: Vec<i64> },
    #[error(
        "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead."
    )]
    ViewNotCompatible,
    #[error("t() expects a tensor with <= 2 dimensions, but self is {dim}D")]
    TNeedsAtMost2D { dim: usize },
    #[error(
        "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = {ndim} is not equal to len(dims) = {len}"
    )]
    PermuteWrongLength { ndim: usize, len: usize },
    #[error("permute(): duplicate dims are not allowed.")]
    PermuteDuplicateDims,
    #[error(
        "expand({type_name}{{{}}}, size={}): the number of sizes provided ({}) must be greater or equal to the number of dimensions in the tensor ({})",
        ShapeText(shape),
        ShapeText(sizes),
        sizes.len(),
        shape.len()
    )]
    ExpandTooFewSizes {
        type_name: String,
        shape: Vec<usize>,
        sizes: Vec<i64>,
    },
    #[error(
        "The expanded size of the tensor ({size}) isn't allowed in a leading, non-existing dimension {dim}"
    )]
    ExpandLeadingInfer { size: i64, dim: usize },
    #[error(
        "The expanded size of the tensor ({target}) must match the existing size ({existing}) at non-singleton dimension {dim}.  Target sizes: {}.  Tensor sizes: {}",
        ShapeText(sizes),
        ShapeText(shape)
    )]
    ExpandMismatch {
        target: i64,
        existing: usize,
        dim: usize,
        sizes: Vec<i64>,
        shape: Vec<usize>,
    },
    #[error("Storage size calculation overflowed with sizes={}", ShapeText(sizes))]
    StorageSizeOverflow { sizes: Vec<i64> },
    #[error("invalid size, possible overflow?")]
    InvalidSize,
    #[error("numel: integer multiplication overflow")]
    NumelOverflow,
    #[error("select() cannot be applied to a 0-dim tensor.")]
    SelectZeroDim,
    #[error(
        "select(): index {index} out of range for tensor of size {} at dimension {dim}",
        ShapeText(shape)
    )]
    SelectOutOfRange {
        index: i64,
        shape: Vec<usize>,
        dim: usize,
    },
    #[error("too many indices for tensor of dimension {ndim}")]
    TooManyIndices { ndim: usize },
    #[error("slice step cannot be zero")]
    SliceStepZero,
    #[error("step must be greater than zero")]
    SliceStepNegative,
    #[error(
        "The size of tensor a ({a}) must match the size of tensor b ({b}) at non-singleton dimension {dim}"
    )]
    BroadcastMismatch { a: usize, b: usize, dim: usize },

    // Devices in use (c10/cuda, aten/src/ATen/mps).
    /// cudaErrorInvalidDevice as `C10_CUDA_CHECK` reports it.
    #[error(
        "CUDA error: invalid device ordinal\nCUDA kernel errors might be asynchronously reported at any other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n"
    )]
    CudaInvalidDevice,
    #[error("No CUDA GPUs are available")]
    NoCudaGpus,
    /// `mm`/`bmm`/`mv`/`matmul` with an `out=` of another dtype (aten/src/ATen/native/
    /// LinearAlgebra.cpp, `addmm_impl_cpu_` and its kin).
    #[error("Expected out tensor to have dtype {}, but got {} instead", expected.cpp_name(), got.cpp_name())]
    ProductOutDtype {
        expected: crate::dtype::DType,
        got: crate::dtype::DType,
    },
    /// `dot` (and `matmul` of two vectors) with an `out=` of another dtype (native/Blas.cpp).
    #[error("result dtype {} does not match input dtype {}", result.scalar_type_name(), input.scalar_type_name())]
    DotOutDtype {
        result: crate::dtype::DType,
        input: crate::dtype::DType,
    },
    /// Anomaly mode's NaN check (torch/csrc/autograd/engine.cpp, `validate_outputs`' caller).
    #[error("Function '{node}' returned nan values in its {output}th output.")]
    AnomalyNan { node: &'static str, output: usize },
    /// `torch.cuda.set_sync_debug_mode("error")`, at a synchronizing operation
    /// (`c10::cuda::warn_or_error_on_sync`).
    #[error("{}", crate::cuda::SYNCHRONIZING)]
    SynchronizingOperation,
    #[error("Invalid device index for MPS: only mps:0 exists")]
    MpsInvalidDevice,
    /// PyTorch has these device types, but the lab runs only cpu, cuda, mps and meta.
    #[error("the lab has no backend for device type '{device}': it runs cpu, cuda, mps and meta")]
    NoBackendForDevice { device: &'static str },
    #[error(
        "Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64. Please use float32 instead."
    )]
    MpsFloat64,
    /// c10/cuda/CUDACachingAllocator.cpp, `malloc`'s out-of-memory report.
    #[error(
        "CUDA out of memory. Tried to allocate {}. GPU {index} has a total capacity of {} of which {} is free. Including non-PyTorch memory, this process has {} memory in use. Of the allocated memory {} is allocated by PyTorch, and {} is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)",
        Size(oom.tried), Size(oom.capacity), Size(oom.free), Size(oom.reserved), Size(oom.allocated), Size(oom.reserved - oom.allocated)
    )]
    CudaOutOfMemory { index: i8, oom: OutOfMemory },
    /// The wgpu backend itself failed (a real allocation refused, a lost device, a readback).
    #[error("{0}")]
    Gpu(#[from] crate::backend::gpu::GpuError),
    #[error(transparent)]
    Shape(#[from] ShapeError),
    #[error(transparent)]
    Indexing(#[from] IndexingError),
    #[error(transparent)]
    Reduce(#[from] ReduceError),
    #[error(transparent)]
    Linalg(#[from] LinalgError),
    #[error(transparent)]
    Einsum(#[from] EinsumError),
    #[error(transparent)]
    Random(#[from] RandomError),
    #[error(transparent)]
    Search(#[from] SearchError),
    /// A CPU kernel handed operands of two dtypes (`TensorIteratorBase`-free kernels such as
    /// `bmm`: aten/src/ATen/native/LinearAlgebra.cpp).
    #[error("expected scalar type {} but found {}", expected.scalar_type_name(), found.scalar_type_name())]
    ExpectedScalarType {
        expected: crate::dtype::DType,
        found: crate::dtype::DType,
    },
    /// aten/src/ATen/mps/MPSAllocator.mm.
    #[error(
        "MPS backend out of memory (MPS allocated: {}, other allocations: 0 bytes, max allowed: {}). Tried to allocate {} on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations (may cause system failure).",
        Size(oom.reserved), Size(oom.capacity), Size(oom.tried)
    )]
    MpsOutOfMemory { oom: OutOfMemory },
    /// c10/core/impl/alloc_cpu.cpp.
    #[error("DefaultCPUAllocator: not enough memory: you tried to allocate {bytes} bytes.")]
    CpuOutOfMemory { bytes: u64 },
    // Tensors and autograd (torch/csrc/autograd, aten/src/ATen/native).
    #[error(
        "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
    )]
    RequiresGradOnNonLeaf,
    /// `t.grad = g` (torch/csrc/autograd/python_variable.cpp, `THPVariable_set_grad`).
    #[error(
        "attempting to assign a gradient with dtype '{}' to a tensor with grad_dtype '{}'. The gradient must match the tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's grad_dtype attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and its gradient may break downstream systems that assume they match.",
        grad.cpp_name(),
        tensor.scalar_type_name()
    )]
    GradAssignDtype {
        grad: crate::dtype::DType,
        tensor: crate::dtype::DType,
    },
    #[error(
        "attempting to assign a gradient with device type '{}' to a tensor with device type '{}'. Please ensure that the gradient and the tensor are on the same device",
        grad.name(),
        tensor.name()
    )]
    GradAssignDeviceType {
        grad: crate::device::DeviceType,
        tensor: crate::device::DeviceType,
    },
    #[error(
        "attempting to assign a gradient located on device with index '{grad}' to a tensor located on device with index '{tensor}'. Please ensure that the gradient and the tensor are on the same device"
    )]
    GradAssignDeviceIndex { grad: i64, tensor: i64 },
    #[error(
        "attempting to assign a gradient of size '{grad:?}' to a tensor of size '{tensor:?}'. Please ensure that the gradient and the tensor are the same size"
    )]
    GradAssignSize {
        grad: Vec<usize>,
        tensor: Vec<usize>,
    },
    /// `torch.tensor(..., requires_grad=True)` and `requires_grad_()` word it differently.
    #[error("{}", if *at_creation { "Only Tensors of floating point and complex dtype can require gradients" } else { "only Tensors of floating point dtype can require gradients" })]
    RequiresGradNeedsFloat { at_creation: bool },
    #[error("Cannot copy out of meta tensor; no data!")]
    MetaHasNoData,
    /// An op whose result's shape depends on the data: it has no Meta kernel (c10's
    /// `OperatorEntry::reportError`).
    #[error(
        "{op}: attempted to run this operator with Meta tensors, but there was no fake impl or Meta kernel registered. You may have run into this message while using an operator with PT2 compilation APIs (torch.compile/torch.export); in order to use this operator with those APIs you'll need to add a fake impl. Please see the following for next steps:  https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html"
    )]
    NoMetaKernel { op: &'static str },
    /// `torch.set_default_dtype` of a dtype that is not floating (`py_set_default_dtype`).
    #[error("only floating-point types are supported as the default type")]
    DefaultDtypeNotFloat,
    #[error("Tensor.item() cannot be called on meta tensors")]
    ItemOnMeta,
    #[error("a Tensor with {numel} elements cannot be converted to Scalar")]
    ItemNotOneElement { numel: usize },
    #[error("cannot pin '{type_name}' only dense CPU tensors can be pinned")]
    PinNonCpu { type_name: String },
    #[error("random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")]
    RandintEmptyRange { low: i64, high: i64 },

    // Operations (aten/src/ATen/TensorIterator.cpp, native/BinaryOps.cpp, ReduceOps.cpp).
    #[error(
        "Expected all tensors to be on the same device, but found at least two devices, {first} and {second}!"
    )]
    DeviceMismatch {
        first: crate::device::Device,
        second: crate::device::Device,
    },
    /// The check of a CUDA kernel that compares its tensor arguments one by one
    /// (`aten/src/ATen/core/adaption.cpp`, PyTorch 2.15's wording).
    #[error(
        "Expected all tensors to be on the same device, but got {argument} is on {device}, different from other tensors on {common} (when checking argument in method {method})"
    )]
    DeviceMismatchArgument {
        common: crate::device::Device,
        device: crate::device::Device,
        argument: &'static str,
        method: &'static str,
    },
    /// A convolution's parameter on another device than its input (`aten/src/ATen/native/ConvUtils.h`,
    /// `check_input_same_type_as_parameters`): a float32 CPU input goes to the MKLDNN backend, whose
    /// check says more.
    #[error(
        "Input type ({input}) and {parameter} type ({other}) should be the same{}",
        if *mkldnn { format!(" or input should be a MKLDNN tensor and {parameter} is a dense tensor") } else { String::new() }
    )]
    ConvParameterType {
        input: String,
        parameter: &'static str,
        other: String,
        mkldnn: bool,
    },
    #[error(
        "expected self and mask to be on the same device, but got mask on {mask} and self on {tensor}"
    )]
    MaskDevice {
        mask: crate::device::Device,
        tensor: crate::device::Device,
    },
    #[error(
        "indices should be either on cpu or on the same device as the indexed tensor ({device})"
    )]
    IndexDevice { device: crate::device::Device },
    #[error(
        "{op}(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad."
    )]
    OutWithGrad { op: &'static str },
    /// PyTorch resizes such an `out=` tensor (with a deprecation warning); the lab does not yet.
    #[error(
        "{op}(out=...): an out tensor of shape {out:?} for a result of shape {result:?} (PyTorch resizes it) is not in the lab yet"
    )]
    OutResize {
        op: &'static str,
        out: Vec<usize>,
        result: Vec<usize>,
    },
    #[error("Boolean alpha only supported for Boolean results.")]
    AlphaBool,
    /// aten/src/ATen/native/PointwiseOps.cpp, `addcdiv_meta`.
    #[error(
        "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all dtypes."
    )]
    AddcdivIntegers,
    /// An integral tensor to a negative integral Python number (`pow_tensor_scalar_optimized_kernel`'s check).
    #[error("Integers to negative integer powers are not allowed.")]
    IntegerNegativePower,
    #[error("For integral input tensors, argument alpha must not be a floating point number.")]
    AlphaNotIntegral,
    #[error("outer: Expected 1-D argument {argument}, but got {dim}-D")]
    OuterNeeds1D { argument: &'static str, dim: usize },
    #[error("mm: {argument} must be a matrix, got {dim}-D tensor")]
    MmNeedsMatrix { argument: &'static str, dim: usize },
    #[error("{op}: mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})", a[0], a[1], b[0], b[1])]
    MmShapes {
        op: &'static str,
        a: [usize; 2],
        b: [usize; 2],
    },
    #[error("mat1 and mat2 must have the same dtype, but got {} and {}", first.scalar_type_name(), second.scalar_type_name())]
    AddmmDtypeMismatch {
        first: crate::dtype::DType,
        second: crate::dtype::DType,
    },
    #[error("dot : expected both vectors to have same dtype, but found {} and {}", first.scalar_type_name(), second.scalar_type_name())]
    DotDtypeMismatch {
        first: crate::dtype::DType,
        second: crate::dtype::DType,
    },
    #[error("expected m1 and m2 to have the same dtype, but got: {} != {}", first.cpp_name(), second.cpp_name())]
    MatmulDtypeMismatch {
        first: crate::dtype::DType,
        second: crate::dtype::DType,
    },
    #[error("{argument} must be a 3D tensor")]
    BmmNeeds3D { argument: &'static str },
    #[error(
        "Expected size for first two dimensions of batch2 tensor to be: {} but got: {}.",
        ShapeText(expected),
        ShapeText(got)
    )]
    BmmShapes {
        expected: [usize; 2],
        got: [usize; 2],
    },
    #[error("size mismatch, got input ({input}), mat ({}x{}), vec ({})", mat[0], mat[1], vec.iter().map(ToString::to_string).collect::<Vec<_>>().join("x"))]
    MvShapes {
        input: usize,
        mat: [usize; 2],
        vec: Vec<usize>,
    },
    #[error(
        "inconsistent tensor size, expected tensor [{a}] and src [{b}] to have the same number of elements, but got {a} and {b} elements respectively"
    )]
    DotSizes { a: usize, b: usize },
    #[error("both arguments to matmul need to be at least 1D, but they are {a}D and {b}D")]
    MatmulZeroDim { a: usize, b: usize },
    #[error("an operation needs at least one tensor operand")]
    NoTensorOperand,
    /// c10's `checked_convert`: a number an integer dtype cannot hold, where PyTorch converts it
    /// with a check (`torch.tensor([300], dtype=torch.int8)`, `fill_(300)`); `ctype` is the name
    /// the caller gives the type (`int8`, or the C++ `int8_t`).
    #[error("value cannot be converted to type {ctype} without overflow")]
    ValueOverflow { ctype: &'static str },
    #[error("heaviside is not yet implemented for tensors with different dtypes.")]
    HeavisideDtypes,
    #[error(
        "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead."
    )]
    BoolSubtraction,
    #[error(
        "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."
    )]
    BoolNegation,
    #[error("Boolean inputs not supported for relu")]
    BoolRelu,
    #[error("not a comparison operator")]
    NotAComparison,
    /// The lab called `Tensor::binary_math` with an op that is not one of its (a bug of the lab).
    #[error("internal error: {op} is not an op of binary_math")]
    NotBinaryMath { op: String },
    #[error(
        "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: {}",
        dtype.scalar_type_name()
    )]
    MeanNeedsFloat { dtype: crate::dtype::DType },
    #[error("std and var only support floating point and complex dtypes")]
    SpreadNeedsFloat,

    // Autograd (torch/csrc/autograd/engine.cpp, python_engine.cpp, autograd/__init__.py).
    #[error("element {index} of tensors does not require grad and does not have a grad_fn")]
    BackwardWithoutGrad { index: usize },
    #[error("grad can be implicitly created only for scalar outputs")]
    ImplicitGradNonScalar,
    #[error(
        "Mismatch in shape: grad_output[{index}] has a shape of torch.Size({}) and output[{index}] has a shape of torch.Size({}).",
        ShapeText(grad),
        ShapeText(output)
    )]
    BackwardGradShape {
        index: usize,
        grad: Vec<usize>,
        output: Vec<usize>,
    },
    #[error(
        "Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward."
    )]
    BackwardTwice,

    #[error(
        "one of the variables needed for gradient computation has been modified by an inplace operation: [{type_name} {}]{} is at version {version}; expected version {expected} instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).",
        ShapeText(shape),
        output_of.as_ref().map(|op| format!(", which is output 0 of {op},")).unwrap_or_default()
    )]
    SavedTensorModified {
        type_name: String,
        shape: Vec<usize>,
        output_of: Option<String>,
        version: u64,
        expected: u64,
    },
    #[error("a leaf Variable that requires grad is being used in an in-place operation.")]
    InPlaceOnLeaf,
    #[error("result type {} can't be cast to the desired output type {}", result.scalar_type_name(), output.scalar_type_name())]
    InPlaceResultType {
        result: crate::dtype::DType,
        output: crate::dtype::DType,
    },
    /// `clamp_` of an integer tensor with float bounds (the check names the C++ element type).
    #[error("result type {} can't be cast to the desired output type {}", result.scalar_type_name(), output.cpp_name())]
    ClampResultType {
        result: crate::dtype::DType,
        output: crate::dtype::DType,
    },
    #[error(
        "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation."
    )]
    InPlaceOverlap,
    #[error("a view of a leaf Variable that requires grad is being used in an in-place operation.")]
    InPlaceOnViewOfLeaf,
    #[error(
        "output with shape {} doesn't match the broadcast shape {}",
        ShapeText(output),
        ShapeText(result)
    )]
    BroadcastInPlace {
        result: Vec<usize>,
        output: Vec<usize>,
    },
    #[error("\"{kernel}\" not implemented for '{}'", dtype.scalar_type_name())]
    KernelNotForDtype {
        kernel: String,
        dtype: crate::dtype::DType,
    },
    #[error(
        "{op}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument."
    )]
    EmptyReduction { op: &'static str },
    #[error("torch.cat(): expected a non-empty list of Tensors")]
    CatEmpty,
    #[error("Tensors must have same number of dimensions: got {first} and {other}")]
    CatDims { first: usize, other: usize },
    #[error(
        "Sizes of tensors must match except in dimension {dim}. Expected size {expected} but got size {got} for tensor number {number} in the list."
    )]
    CatSizes {
        dim: usize,
        expected: usize,
        got: usize,
        number: usize,
    },
    #[error("stack expects a non-empty TensorList")]
    StackEmpty,
    #[error(
        "stack expects each tensor to be equal size, but got {} at entry 0 and {} at entry {entry}",
        ShapeText(first),
        ShapeText(other)
    )]
    StackSizes {
        first: Vec<usize>,
        other: Vec<usize>,
        entry: usize,
    },
    #[error("where expected condition to be a boolean tensor, but got a tensor with dtype {}", dtype.scalar_type_name())]
    WhereCondition { dtype: crate::dtype::DType },
    #[error("gather(): Expected dtype int32/int64 for index")]
    GatherIndexDtype,
    #[error("Index tensor must have the same number of dimensions as input tensor")]
    GatherIndexDims,
    #[error(
        "Size does not match at dimension {axis} expected index {} to be no larger than self {} apart from dimension {dim}",
        ShapeText(index),
        ShapeText(input)
    )]
    GatherSizes {
        axis: usize,
        index: Vec<usize>,
        input: Vec<usize>,
        dim: usize,
    },
    #[error("index {index} is out of bounds for dimension {dim} with size {size}")]
    IndexOutOfBounds { index: i64, dim: usize, size: usize },
    #[error(
        "The shape of the mask {} at index {dim} does not match the shape of the indexed tensor {} at index {dim}",
        ShapeText(mask),
        ShapeText(input)
    )]
    MaskShape {
        mask: Vec<usize>,
        input: Vec<usize>,
        dim: usize,
    },
    /// Indexing (`t[idx]`) raises IndexError where `gather` raises RuntimeError, with the same words.
    #[error("index {index} is out of bounds for dimension {dim} with size {size}")]
    IndexOutOfBoundsIndexing { index: i64, dim: usize, size: usize },
    #[error("index_select(): Index is supposed to be a vector")]
    IndexSelectVector,
    #[error("index out of range in self")]
    IndexOutOfRangeInSelf,
    #[error("masked_fill_ only supports boolean masks, but got mask with dtype {}", dtype.cpp_name())]
    MaskedFillMask { dtype: crate::dtype::DType },
    #[error("can't retain_grad on Tensor that has requires_grad=False")]
    RetainGradWithoutGrad,
    /// torch/csrc/autograd/VariableTypeManual.cpp, `detach_`.
    #[error(
        "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and hence detach_() cannot be called on these gradients. To fix this error, please refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
    )]
    DetachViewInPlace,
    /// torch/csrc/autograd/python_variable.cpp, `register_hook`.
    #[error("cannot register a hook on a tensor that doesn't require gradient")]
    HookWithoutGrad,
    /// [`crate::autograd::backward`] met a hook: only a caller that runs hooks
    /// ([`crate::autograd::BackwardPass`]) can pass through one.
    #[error("a gradient hook needs a backward pass whose caller runs hooks")]
    HookWithoutRunner,
    /// `autograd.grad` for an input that does not require grad (torch/csrc/autograd/python_engine.cpp).
    #[error("One of the differentiated Tensors does not require grad")]
    GradInputWithoutGrad,
    #[error(
        "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
    )]
    NumpyRequiresGrad,
    #[error(
        "can't convert {device} device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first."
    )]
    NumpyNotCpu { device: crate::device::Device },
    /// Integer `//` or `%` by zero (PyTorch's CPU kernels raise this exact text).
    #[error("ZeroDivisionError")]
    ZeroDivision,
    #[error("the derivative for '{op}' is not implemented.")]
    DerivativeNotImplemented { op: &'static str },
    /// A gradient PyTorch computes and the lab does not yet (raised by backward, never silent).
    #[error("the lab does not compute the gradient of {op} yet (PyTorch does)")]
    GradientNotInLab { op: &'static str },
    /// The autograd engine's check of a node's gradients (torch/csrc/autograd/engine.cpp,
    /// `validate_outputs`).
    #[error(
        "Function {node} returned an invalid gradient at index {index} - got {} but expected shape compatible with {}",
        ShapeText(got),
        ShapeText(expected)
    )]
    InvalidGradient {
        node: &'static str,
        index: usize,
        got: Vec<usize>,
        expected: Vec<usize>,
    },
    /// The backward of a `NotImplemented` node (torch/csrc/autograd/functions/basic_ops.h).
    #[error("derivative for {op} is not implemented")]
    NoDerivative { op: &'static str },
    #[error("torch.clamp: At least one of 'min' or 'max' must not be None")]
    ClampWithoutBounds,
    #[error("step must be nonzero")]
    ArangeZeroStep,
    #[error("upper bound and lower bound inconsistent with step sign")]
    ArangeBounds,
    #[error("number of steps must be non-negative")]
    LinspaceNegativeSteps,
    #[error("n must be greater or equal to 0, got {n}")]
    EyeNegative { n: i64 },
    #[error("{op}: Dimension size must be non-negative.")]
    NegativeDimension { op: &'static str },
    #[error(
        "Trying to create tensor with negative dimension {dim}: {}",
        ShapeText(shape)
    )]
    NegativeShape { dim: i64, shape: Vec<i64> },

    // Modules (torch/nn/modules/module.py).
    #[error(
        "Error(s) in loading state_dict for {module}:\n\t{}",
        state_dict_problems(missing, unexpected, size_mismatches)
    )]
    LoadStateDict {
        module: String,
        missing: Vec<String>,
        unexpected: Vec<String>,
        size_mismatches: Vec<SizeMismatch>,
    },
    #[error(
        "nn.Module.to only accepts floating point or complex dtypes, but got desired dtype={dtype}"
    )]
    ModuleToDtype { dtype: crate::dtype::DType },
    #[error(
        "cannot assign '{type_name}' as parameter '{name}' (torch.nn.Parameter or None expected)"
    )]
    ParameterAssign { type_name: String, name: String },
    #[error(
        "cannot assign '{type_name}' as buffer '{name}' (torch.nn.Buffer, torch.Tensor or None expected)"
    )]
    BufferAssign { type_name: String, name: String },
    #[error("attribute '{name}' already exists")]
    AttributeExists { name: String },
    #[error("Module [{class_name}] is missing the required \"forward\" function")]
    MissingForward { class_name: String },
    /// Python's own `TypeError` for a call of `forward` with the wrong number of arguments.
    #[error("{}", arity_message(layer, arguments, *got))]
    LayerArity {
        layer: String,
        arguments: Vec<&'static str>,
        got: usize,
    },
    #[error(
        "module must have its parameters and buffers on device {expected} (device_ids[0]) but found one of them on device: {found}"
    )]
    DataParallelDevice {
        expected: crate::device::Device,
        found: crate::device::Device,
    },
    /// `p` as Python prints the number the learner gave.
    #[error("dropout probability has to be between 0 and 1, but got {p}")]
    DropoutProbability { p: String },

    // Losses (torch/nn/functional.py, aten/src/ATen/native/LossNLL.cpp).
    #[error("Target {target} is out of bounds.")]
    TargetOutOfBounds { target: i64 },
    #[error("expected target dtype to be Long or Byte, but got {}", dtype.scalar_type_name())]
    TargetDtype { dtype: crate::dtype::DType },
    #[error("Expected input batch_size ({input}) to match target batch_size ({target}).")]
    BatchSizeMismatch { input: usize, target: usize },
    #[error(
        "Target size (torch.Size({})) must be the same as input size (torch.Size({}))",
        ShapeText(target),
        ShapeText(input)
    )]
    TargetSizeMismatch {
        target: Vec<usize>,
        input: Vec<usize>,
    },
    #[error("Expected 1 or more dimensions (got {dim})")]
    LossInputDims { dim: usize },
    #[error("For 1D input, 1D target must have size 1, but got target size: {size}")]
    NllTarget1d { size: usize },
    #[error("0D or 1D target tensor expected, multi-target not supported")]
    MultiTarget,

    // Optimizers (torch/optim).
    #[error("can't optimize a non-leaf Tensor")]
    NonLeafOptimize,
    #[error("optimizer got an empty parameter list")]
    EmptyParameterList,
    #[error("Invalid {what}: {value}")]
    InvalidHyperparameter { what: &'static str, value: String },
    #[error("Nesterov momentum requires a momentum and zero dampening")]
    NesterovNeedsMomentum,
    #[error("loaded state dict has a different number of parameter groups")]
    OptimizerGroupCount,
    #[error(
        "loaded state dict contains a parameter group that doesn't match the size of optimizer's group"
    )]
    OptimizerGroupSizes,

    // Checkpoints (torch/serialization.py).
    #[error("[Errno 2] No such file or directory: '{path}'")]
    FileNotFound { path: String },
    #[error("{reason}: '{path}'")]
    FileAccess { path: String, reason: String },
    #[error("Parent directory {dir} does not exist.")]
    ParentDirectoryMissing { dir: String },
    /// A file operation's failure with its errno (`FileExistsError`, `IsADirectoryError`, …).
    #[error("[Errno {errno}] {}: '{path}'", strerror(*errno))]
    Os { errno: i32, path: String },
    #[error("PytorchStreamReader failed reading zip archive: failed finding central directory")]
    NotACheckpoint,
    #[error(
        "Weights only load failed. This file can still be loaded, to do so you have two options, \x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the file from a trusted source.\n\t(2) Alternatively, to load with `weights_only=True` please check the recommended steps in the following error message.\n\tWeightsUnpickler error: Unsupported global: GLOBAL {class} was not an allowed global by default. Please use `torch.serialization.add_safe_globals([{class}])` or the `torch.serialization.safe_globals([{class}])` context manager to allowlist this global if you trust this class/function.\n\nCheck the documentation of torch.load to learn more about types accepted by default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html."
    )]
    WeightsOnly { class: String },
    #[error(
        "don't know how to restore data location of torch.storage.UntypedStorage (tagged with {location})"
    )]
    UnknownLocation { location: String },
    #[error("Attempting to deserialize object on a {} device but torch.{backend}.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.", backend.to_uppercase())]
    CheckpointDeviceUnavailable { backend: &'static str },
    #[error("Attempting to deserialize object on {} device {index} but torch.{backend}.device_count() is {count}. Please use torch.load with map_location to map your storages to an existing device.", backend.to_uppercase())]
    CheckpointDeviceIndex {
        backend: &'static str,
        index: usize,
        count: usize,
    },

    // Data loading (torch/utils/data, torch/cuda/__init__.py).
    #[error(
        "Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method"
    )]
    CudaInForkedWorker,
    /// An error raised inside a DataLoader worker, as the main process re-raises it (same type).
    #[error("Caught {} in DataLoader worker process {worker}.\nOriginal Traceback (most recent call last):\n{traceback}{}: {original}\n", original.python_type().name(), original.python_type().name())]
    WorkerFailed {
        worker: usize,
        original: Box<Error>,
        /// The worker's traceback frames, as the cell runtime formats them (empty when unknown).
        traceback: String,
    },
    #[error("Size mismatch between tensors")]
    TensorDatasetSizes,
    #[error("each element in list of batch should be of equal size")]
    CollateUnequalSizes,
    #[error(
        "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found <class '{type_name}'>"
    )]
    CollateType { type_name: String },
    #[error("batch_size should be a positive integer value, but got batch_size={batch_size}")]
    BatchSize { batch_size: i64 },
    #[error("list index out of range")]
    DatasetIndex,
    #[error("sampler option is mutually exclusive with shuffle")]
    SamplerWithShuffle,

    // Mixed precision (torch/amp/autocast_mode.py, grad_scaler.py).
    #[error("User specified an unsupported autocast device_type '{device_type}'")]
    AutocastDeviceType { device_type: String },
    #[error("unscale_() has already been called on this optimizer since the last update().")]
    UnscaleTwice,
    #[error("unscale_() is being called after step().")]
    UnscaleAfterStep,
    #[error("step() has already been called since the last update().")]
    StepTwice,
    #[error("Attempting to unscale FP16 gradients.")]
    UnscaleFp16Gradients,
    #[error("No inf checks were recorded prior to update.")]
    NoInfChecks,
    #[error(
        "Attempted {method} but _scale is None.  This may indicate your script did not use scaler.scale(loss or outputs) earlier in the iteration."
    )]
    ScalerNotInitialized { method: &'static str },

    /// A device-side assert, reported at a sync point (or at its kernel under
    /// `CUDA_LAUNCH_BLOCKING=1`) and at every use of the device after it
    /// (c10/cuda/CUDAException.cpp, `c10_cuda_check_implementation`).
    #[error(
        "CUDA error: device-side assert triggered\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n"
    )]
    DeviceSideAssert,

    // Convolution, embedding, layer norm (aten/src/ATen/native/Convolution.cpp, Embedding.cpp,
    // layer_norm.h).
    #[error(
        "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: {}",
        ShapeText(input)
    )]
    ConvInputDims { input: Vec<usize> },
    #[error(
        "expected stride to be a single integer value or a list of {dims} values to match the convolution dimensions, but got stride={}",
        ShapeText(stride)
    )]
    ConvWeightDims { dims: usize, stride: Vec<usize> },
    #[error(
        "Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but got weight of size [{}] instead",
        ShapeText(weight)
    )]
    ConvWeightGroups { groups: usize, weight: Vec<usize> },
    #[error(
        "Given groups={groups}, weight of size {}, expected input{} to have {expected} channels, but got {got} channels instead",
        ShapeText(weight),
        ShapeText(input)
    )]
    ConvChannels {
        groups: usize,
        weight: Vec<usize>,
        input: Vec<usize>,
        expected: usize,
        got: usize,
    },
    #[error("Calculated padded input size per channel: ({} x {}). Kernel size: ({} x {}). Kernel size can't be greater than actual input size", input[0], input[1], kernel[0], kernel[1])]
    ConvKernelTooLarge {
        input: [usize; 2],
        kernel: [usize; 2],
    },
    #[error(
        "Given weight of size {}, expected bias to be 1-dimensional with {expected} elements, but got bias of size {} instead",
        ShapeText(weight),
        ShapeText(got)
    )]
    ConvBiasShape {
        weight: Vec<usize>,
        expected: usize,
        got: Vec<usize>,
    },
    #[error(
        "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got {type_name} instead (while checking arguments for embedding)"
    )]
    EmbeddingIndices { type_name: String },
    #[error("'weight' must be 2-D")]
    EmbeddingWeightDims,
    #[error(
        "Expected {which} to be of same shape as normalized_shape, but got {which} of shape {} and normalized_shape = {}",
        ShapeText(shape),
        ShapeText(normalized)
    )]
    LayerNormParamShape {
        which: &'static str,
        shape: Vec<usize>,
        normalized: Vec<usize>,
    },
    // Initialisation (torch/nn/init.py).
    #[error("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")]
    FanOfVector,
    #[error("Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")]
    InitMode { mode: String },
    #[error("Unsupported nonlinearity {name}")]
    UnsupportedNonlinearity { name: String },
    #[error("padding='same' is not supported for strided convolutions")]
    SamePaddingStride,
    #[error("Given normalized_shape={}, expected input with shape [*, {}], but got input of size{}", ShapeText(normalized), normalized.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "), ShapeText(input))]
    LayerNormShape {
        normalized: Vec<usize>,
        input: Vec<usize>,
    },

    // Distributed (torch/distributed/distributed_c10d.py, c10d's ProcessGroupNCCL).
    #[error("DistributedDataParallel device_ids and output_device arguments only work with single-device/multiple-device GPU modules or CPU modules, but got device_ids {}, output_device None, and module parameters {{device(type='{}')}}.", ShapeText(device_ids), device.kind.name())]
    DdpDeviceIds {
        device_ids: Vec<usize>,
        device: crate::device::Device,
    },
    #[error("Invalid backend: '{name}'")]
    InvalidBackend { name: String },
    #[error("ProcessGroupNCCL is only supported with GPUs, no GPUs found!")]
    NcclWithoutGpus,
    #[error(
        "Default process group has not been initialized, please make sure to call init_process_group."
    )]
    ProcessGroupNotInitialized,
    #[error("No backend type associated with device type {device_type}")]
    NoBackendForDeviceType { device_type: &'static str },
    #[error(
        "NCCL error in: ProcessGroupNCCL.cpp, invalid usage (run with NCCL_DEBUG=WARN for details)\nncclInvalidUsage: This usually reflects invalid usage of NCCL library.\nLast error:\nDuplicate GPU detected : rank {rank} and rank {other} both on CUDA device {device}"
    )]
    DuplicateGpu {
        rank: usize,
        other: usize,
        device: usize,
    },
    #[error(
        "Watchdog caught collective operation timeout: WorkNCCL(SeqNum={seq}, OpType={op}, NumelIn={numel}, NumelOut={numel}, Timeout(ms)=600000) ran for 600000 milliseconds before timing out."
    )]
    CollectiveTimeout {
        seq: u64,
        op: &'static str,
        numel: usize,
    },

    /// A transfer step failed: PyTorch's own text, with the step kept for the trace and the UI.
    #[error("{source}")]
    Transfer {
        step: crate::trace::TransferStep,
        source: Box<Error>,
    },
}

/// `Linear.forward() takes 2 positional arguments but 3 were given`, or `MSELoss.forward() missing
/// 1 required positional argument: 'target'` (`self` counts among the positional arguments).
fn arity_message(layer: &str, arguments: &[&str], got: usize) -> String {
    if got > arguments.len() {
        return format!(
            "{layer}.forward() takes {} positional arguments but {} were given",
            arguments.len() + 1,
            got + 1
        );
    }
    let missing: Vec<String> = arguments[got..].iter().map(|a| format!("'{a}'")).collect();
    let names = match missing.as_slice() {
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        [] => String::new(),
    };
    let plural = if missing.len() == 1 { "" } else { "s" };
    format!(
        "{layer}.forward() missing {} required positional argument{plural}: {names}",
        missing.len()
    )
}

/// A parameter or buffer whose checkpoint shape differs from the module's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizeMismatch {
    pub key: String,
    pub checkpoint: Vec<usize>,
    pub model: Vec<usize>,
}

/// `load_state_dict`'s list: missing keys, unexpected keys, then size mismatches, joined by
/// `\n\t`, each key list quoted and followed by `". "` as PyTorch writes it.
fn state_dict_problems(
    missing: &[String],
    unexpected: &[String],
    size_mismatches: &[SizeMismatch],
) -> String {
    let quoted = |keys: &[String]| {
        keys.iter()
            .map(|k| format!("\"{k}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut lines = Vec::new();
    if !missing.is_empty() {
        lines.push(format!(
            "Missing key(s) in state_dict: {}. ",
            quoted(missing)
        ));
    }
    if !unexpected.is_empty() {
        lines.push(format!(
            "Unexpected key(s) in state_dict: {}. ",
            quoted(unexpected)
        ));
    }
    for m in size_mismatches {
        lines.push(format!(
            "size mismatch for {}: copying a param with shape torch.Size({}) from checkpoint, the shape in current model is torch.Size({}).",
            m.key,
            ShapeText(&m.checkpoint),
            ShapeText(&m.model)
        ));
    }
    lines.join("\n\t")
}

impl Error {
    /// The out-of-memory error of `device`'s allocator.
    /// A read of GPU memory in the browser whose bytes are not back yet (also inside a failed
    /// transfer step): the caller awaits `Session::complete_readbacks` and tries again.
    pub fn is_would_block(&self) -> bool {
        match self {
            Error::Gpu(crate::backend::gpu::GpuError::WouldBlock) => true,
            Error::Transfer { source, .. } => source.is_would_block(),
            _ => false,
        }
    }

    pub fn out_of_memory(device: Device, oom: OutOfMemory) -> Error {
        match device.kind {
            DeviceType::Cuda => Error::CudaOutOfMemory {
                index: device.index.unwrap_or(0),
                oom,
            },
            DeviceType::Mps => Error::MpsOutOfMemory { oom },
            _ => Error::CpuOutOfMemory { bytes: oom.tried },
        }
    }
}

impl Error {
    pub fn python_type(&self) -> PythonType {
        match self {
            Error::EmptyDeviceString
            | Error::InvalidDeviceString { .. }
            | Error::UnparsableDeviceIndex { .. }
            | Error::UnknownDeviceType { .. }
            | Error::IndexGivenTwice { .. }
            | Error::NegativeDeviceIndex => PythonType::RuntimeError,
            Error::IndexSelectVector
            | Error::IndexOutOfRangeInSelf
            | Error::MaskShape { .. }
            | Error::IndexOutOfBoundsIndexing { .. }
            | Error::IndexDevice { .. } => PythonType::IndexError,
            Error::DimOutOfRange { .. }
            | Error::SelectZeroDim
            | Error::SelectOutOfRange { .. }
            | Error::TooManyIndices { .. } => PythonType::IndexError,
            Error::SliceStepZero | Error::SliceStepNegative => PythonType::ValueError,
            Error::InferMoreThanOneDim
            | Error::InvalidShapeDim { .. }
            | Error::ShapeInvalidForSize { .. }
            | Error::AmbiguousInferOfEmpty { .. }
            | Error::ViewNotCompatible
            | Error::TNeedsAtMost2D { .. }
            | Error::PermuteWrongLength { .. }
            | Error::PermuteDuplicateDims
            | Error::ExpandTooFewSizes { .. }
            | Error::ExpandLeadingInfer { .. }
            | Error::ExpandMismatch { .. }
            | Error::NumelOverflow
            | Error::StorageSizeOverflow { .. }
            | Error::InvalidSize
            | Error::BroadcastMismatch { .. }
            | Error::CudaInvalidDevice
            | Error::NoCudaGpus
            | Error::SynchronizingOperation
            | Error::AnomalyNan { .. }
            | Error::ProductOutDtype { .. }
            | Error::DotOutDtype { .. }
            | Error::MpsInvalidDevice
            | Error::NoBackendForDevice { .. }
            | Error::CpuOutOfMemory { .. } => PythonType::RuntimeError,
            Error::MpsFloat64 | Error::DefaultDtypeNotFloat => PythonType::TypeError,
            Error::MetaHasNoData
            | Error::NoMetaKernel { .. }
            | Error::OutResize { .. }
            | Error::GradientNotInLab { .. } => PythonType::NotImplementedError,
            Error::GradAssignDtype { .. }
            | Error::GradAssignDeviceType { .. }
            | Error::GradAssignDeviceIndex { .. }
            | Error::GradAssignSize { .. }
            | Error::RequiresGradOnNonLeaf
            | Error::RequiresGradNeedsFloat { .. }
            | Error::ItemOnMeta
            | Error::ItemNotOneElement { .. }
            | Error::PinNonCpu { .. }
            | Error::RandintEmptyRange { .. } => PythonType::RuntimeError,
            Error::Transfer { source, .. } => source.python_type(),
            Error::Shape(e) => e.python_type(),
            Error::Indexing(e) => e.python_type(),
            Error::Reduce(e) => e.python_type(),
            Error::Search(e) => e.python_type(),
            Error::Linalg(e) => e.python_type(),
            Error::Einsum(_) | Error::Random(_) | Error::ExpectedScalarType { .. } => {
                PythonType::RuntimeError
            }
            Error::BoolSubtraction
            | Error::BoolNegation
            | Error::BoolRelu
            | Error::MeanNeedsFloat { .. }
            | Error::KernelNotForDtype { .. }
            | Error::DerivativeNotImplemented { .. }
            | Error::SpreadNeedsFloat => PythonType::NotImplementedError,
            Error::DeviceMismatch { .. }
            | Error::DeviceMismatchArgument { .. }
            | Error::ConvParameterType { .. }
            | Error::MaskDevice { .. }
            | Error::MmNeedsMatrix { .. }
            | Error::OuterNeeds1D { .. }
            | Error::AlphaBool
            | Error::AddcdivIntegers
            | Error::IntegerNegativePower
            | Error::OutWithGrad { .. }
            | Error::AlphaNotIntegral
            | Error::MmShapes { .. }
            | Error::MatmulDtypeMismatch { .. }
            | Error::DotDtypeMismatch { .. }
            | Error::BmmNeeds3D { .. }
            | Error::BmmShapes { .. }
            | Error::MvShapes { .. }
            | Error::DotSizes { .. }
            | Error::MatmulZeroDim { .. }
            | Error::NoTensorOperand
            | Error::ValueOverflow { .. }
            | Error::HeavisideDtypes
            | Error::NotAComparison
            | Error::NotBinaryMath { .. }
            | Error::BackwardWithoutGrad { .. }
            | Error::ImplicitGradNonScalar
            | Error::BackwardGradShape { .. }
            | Error::BackwardTwice
            | Error::SavedTensorModified { .. }
            | Error::InPlaceOnLeaf
            | Error::InPlaceResultType { .. }
            | Error::ClampResultType { .. }
            | Error::InPlaceOverlap
            | Error::InPlaceOnViewOfLeaf
            | Error::BroadcastInPlace { .. }
            | Error::ClampWithoutBounds
            | Error::EmptyReduction { .. }
            | Error::RetainGradWithoutGrad
            | Error::DetachViewInPlace
            | Error::GradInputWithoutGrad
            | Error::HookWithoutGrad
            | Error::HookWithoutRunner
            | Error::ZeroDivision
            | Error::NoDerivative { .. }
            | Error::InvalidGradient { .. }
            | Error::NumpyRequiresGrad
            | Error::NumpyNotCpu { .. }
            | Error::CatEmpty
            | Error::CatDims { .. }
            | Error::CatSizes { .. }
            | Error::StackEmpty
            | Error::StackSizes { .. }
            | Error::WhereCondition { .. }
            | Error::GatherIndexDtype
            | Error::GatherIndexDims
            | Error::GatherSizes { .. }
            | Error::IndexOutOfBounds { .. }
            | Error::MaskedFillMask { .. }
            | Error::ArangeZeroStep
            | Error::ArangeBounds
            | Error::LinspaceNegativeSteps
            | Error::EyeNegative { .. }
            | Error::NegativeDimension { .. }
            | Error::NegativeShape { .. } => PythonType::RuntimeError,
            Error::Gpu(crate::backend::gpu::GpuError::OutOfMemory { .. }) => {
                PythonType::OutOfMemoryError
            }
            Error::Gpu(_) => PythonType::RuntimeError,
            Error::CudaOutOfMemory { .. } | Error::MpsOutOfMemory { .. } => {
                PythonType::OutOfMemoryError
            }
            Error::AddmmDtypeMismatch { .. }
            | Error::LoadStateDict { .. }
            | Error::DataParallelDevice { .. }
            | Error::TargetDtype { .. } => PythonType::RuntimeError,
            Error::LayerArity { .. }
            | Error::ModuleToDtype { .. }
            | Error::ParameterAssign { .. }
            | Error::BufferAssign { .. } => PythonType::TypeError,
            Error::AttributeExists { .. } => PythonType::KeyError,
            Error::MissingForward { .. } => PythonType::NotImplementedError,
            Error::DropoutProbability { .. }
            | Error::BatchSizeMismatch { .. }
            | Error::TargetSizeMismatch { .. }
            | Error::LossInputDims { .. }
            | Error::NllTarget1d { .. }
            | Error::NonLeafOptimize
            | Error::EmptyParameterList
            | Error::InvalidHyperparameter { .. }
            | Error::NesterovNeedsMomentum
            | Error::OptimizerGroupCount
            | Error::OptimizerGroupSizes => PythonType::ValueError,
            Error::TargetOutOfBounds { .. } => PythonType::IndexError,
            Error::FileNotFound { .. } => PythonType::FileNotFoundError,
            Error::WeightsOnly { .. } => PythonType::UnpicklingError,
            Error::FanOfVector | Error::InitMode { .. } | Error::UnsupportedNonlinearity { .. } => {
                PythonType::ValueError
            }
            Error::InvalidBackend { .. }
            | Error::ProcessGroupNotInitialized
            | Error::DdpDeviceIds { .. } => PythonType::ValueError,
            Error::NcclWithoutGpus | Error::NoBackendForDeviceType { .. } => {
                PythonType::RuntimeError
            }
            Error::DuplicateGpu { .. } | Error::CollectiveTimeout { .. } => {
                PythonType::DistBackendError
            }
            Error::DeviceSideAssert
            | Error::ConvInputDims { .. }
            | Error::ConvWeightDims { .. }
            | Error::ConvWeightGroups { .. }
            | Error::ConvChannels { .. }
            | Error::ConvKernelTooLarge { .. }
            | Error::ConvBiasShape { .. }
            | Error::EmbeddingIndices { .. }
            | Error::SamePaddingStride
            | Error::EmbeddingWeightDims
            | Error::LayerNormParamShape { .. }
            | Error::MultiTarget
            | Error::LayerNormShape { .. } => PythonType::RuntimeError,
            Error::AutocastDeviceType { .. }
            | Error::UnscaleTwice
            | Error::UnscaleAfterStep
            | Error::StepTwice => PythonType::RuntimeError,
            Error::UnscaleFp16Gradients => PythonType::ValueError,
            Error::NoInfChecks | Error::ScalerNotInitialized { .. } => PythonType::AssertionError,
            Error::CudaInForkedWorker
            | Error::CollateUnequalSizes
            | Error::ParentDirectoryMissing { .. } => PythonType::RuntimeError,
            Error::WorkerFailed { original, .. } => original.python_type(),
            Error::TensorDatasetSizes => PythonType::AssertionError,
            Error::CollateType { .. } => PythonType::TypeError,
            Error::BatchSize { .. } | Error::SamplerWithShuffle => PythonType::ValueError,
            Error::DatasetIndex => PythonType::IndexError,
            Error::FileAccess { .. } | Error::Os { .. } => PythonType::OSError,
            Error::NotACheckpoint
            | Error::UnknownLocation { .. }
            | Error::CheckpointDeviceUnavailable { .. }
            | Error::CheckpointDeviceIndex { .. } => PythonType::RuntimeError,
        }
    }
}

impl PythonType {
    pub fn name(self) -> &'static str {
        match self {
            PythonType::RuntimeError => "RuntimeError",
            PythonType::OutOfMemoryError => "torch.OutOfMemoryError",
            PythonType::ValueError => "ValueError",
            PythonType::TypeError => "TypeError",
            PythonType::IndexError => "IndexError",
            PythonType::KeyError => "KeyError",
            PythonType::FileNotFoundError => "FileNotFoundError",
            PythonType::OSError => "OSError",
            PythonType::AssertionError => "AssertionError",
            PythonType::DistBackendError => "torch.distributed.DistBackendError",
            PythonType::UnpicklingError => "_pickle.UnpicklingError",
            PythonType::LinAlgError => "torch._C._LinAlgError",
            PythonType::NotImplementedError => "NotImplementedError",
        }
    }
}

/// What CPython says of an errno (`os.strerror`), for the ones the lab's files report.
pub fn strerror(errno: i32) -> &'static str {
    match errno {
        1 => "Operation not permitted",
        2 => "No such file or directory",
        5 => "Input/output error",
        13 => "Permission denied",
        16 => "Device or resource busy",
        17 => "File exists",
        18 => "Invalid cross-device link",
        20 => "Not a directory",
        21 => "Is a directory",
        22 => "Invalid argument",
        28 => "No space left on device",
        36 => "File name too long",
        39 => "Directory not empty",
        _ => "Unknown error",
    }
}
