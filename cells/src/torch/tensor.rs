//! What only a tensor has: its properties (`shape`, `dtype`, `device`, `grad`, `grad_fn`,
//! `is_leaf`, …), the attributes a learner may set (`grad`, `requires_grad`), and its own
//! methods: moving and casting (`to`, `cuda`, `cpu`, `float`, `type`), reading values
//! (`item`, `tolist`), its layout (`size`, `stride`, `is_contiguous`), and autograd
//! (`detach`, `requires_grad_`, `retain_grad`; `backward` is in `autograd.rs`).

use tolab_engine::autograd::graph_break;
use tolab_engine::trace::BreakCause;
use tolab_engine::{DType, DeviceType, Scalar, Session, Target, Tensor, To};

use super::parse::device_index;
use super::{Call, Handler};
use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("Tensor.to", Handler::Engine(to)),
    ("Tensor.cuda", Handler::Engine(cuda)),
    ("Tensor.cpu", Handler::Engine(cast)),
    ("Tensor.float", Handler::Engine(cast)),
    ("Tensor.double", Handler::Engine(cast)),
    ("Tensor.half", Handler::Engine(cast)),
    ("Tensor.long", Handler::Engine(cast)),
    ("Tensor.bfloat16", Handler::Engine(cast)),
    ("Tensor.int", Handler::Engine(cast)),
    ("Tensor.short", Handler::Engine(cast)),
    ("Tensor.char", Handler::Engine(cast)),
    ("Tensor.byte", Handler::Engine(cast)),
    ("Tensor.bool", Handler::Engine(cast)),
    ("Tensor.type", Handler::Engine(type_)),
    ("Tensor.item", Handler::Engine(item)),
    ("Tensor.tolist", Handler::Engine(tolist)),
    ("Tensor.numpy", Handler::Engine(numpy)),
    ("Tensor.size", Handler::Engine(size)),
    ("Tensor.stride", Handler::Engine(size)),
    ("Tensor.dim", Handler::Engine(facts)),
    ("Tensor.numel", Handler::Engine(facts)),
    ("Tensor.get_device", Handler::Engine(facts)),
    ("Tensor.data_ptr", Handler::Engine(facts)),
    ("Tensor.element_size", Handler::Engine(facts)),
    ("Tensor.storage_offset", Handler::Engine(facts)),
    ("Tensor.is_contiguous", Handler::Engine(facts)),
    ("Tensor.is_pinned", Handler::Engine(facts)),
    ("Tensor.contiguous", Handler::Engine(copies)),
    ("Tensor.clone", Handler::Engine(copies)),
    ("Tensor.detach", Handler::Engine(copies)),
    ("Tensor.pin_memory", Handler::Engine(copies)),
    ("Tensor.requires_grad_", Handler::Engine(requires_grad_)),
    ("Tensor.retain_grad", Handler::Engine(retain_grad)),
];

/// The properties a tensor answers (completion lists them; reading one may compute).
pub const PROPERTIES: &[&str] = &[
    "shape",
    "dtype",
    "device",
    "requires_grad",
    "is_leaf",
    "retains_grad",
    "grad",
    "grad_fn",
    "data",
    "is_cuda",
    "is_cpu",
    "is_meta",
    "is_mps",
    "ndim",
    "itemsize",
    "nbytes",
    "T",
    "mT",
    "H",
    "_version",
];

/// `t.name`: a property, or a method bound to `owner` (the tensor or its Parameter).
pub fn attribute(t: &Tensor, owner: &Value, name: &str) -> Result<Value> {
    if let Some(v) = property(t, name)? {
        return Ok(v);
    }
    // Tensor has every operator's method but `__imatmul__` (`a @= b` rebinds `a`).
    if name != "__imatmul__" && crate::python::dunders::operator_method(name).is_some() {
        return Ok(Value::Method(Box::new(owner.clone()), name.into()));
    }
    super::bound("Tensor", name, Some(owner)).ok_or_else(|| {
        super::no_attribute("Tensor", &format!("'{}' object", owner.type_name()), name)
    })
}

fn property(t: &Tensor, name: &str) -> Result<Option<Value>> {
    Ok(Some(match name {
        "shape" => Value::size(t.shape()),
        "dtype" => Value::DType(t.dtype()),
        "device" => Value::Device(t.device()),
        "requires_grad" => Value::Bool(t.requires_grad()),
        "is_leaf" => Value::Bool(t.is_leaf()),
        "retains_grad" => Value::Bool(t.retains_grad()),
        "grad" => t.grad().map_or(Value::None, Value::Tensor),
        "grad_fn" => t.grad_fn().map_or(Value::None, Value::GradFn),
        "data" => {
            graph_break(t, BreakCause::Data);
            Value::Tensor(t.data())
        }
        "is_cuda" => Value::Bool(t.device().kind == DeviceType::Cuda),
        "is_cpu" => Value::Bool(t.device().kind == DeviceType::Cpu),
        "is_meta" => Value::Bool(t.device().kind == DeviceType::Meta),
        "is_mps" => Value::Bool(t.device().kind == DeviceType::Mps),
        "ndim" => count(t.dim()),
        "itemsize" => count(t.element_size()),
        "nbytes" => count(t.element_size().saturating_mul(t.numel())),
        "T" => Value::Tensor(t.reversed_dims()?),
        "mT" => Value::Tensor(t.matrix_transpose()?),
        "H" => Value::Tensor(t.adjoint()?),
        "_version" => count(t.version() as usize),
        _ => return Ok(None),
    }))
}

fn count(n: usize) -> Value {
    Value::Int(i64::try_from(n).unwrap_or(i64::MAX))
}

/// `t.grad = g` and `t.requires_grad = flag`; the rest of a tensor's attributes are read-only.
pub fn set_attribute(tensor: &Tensor, name: &str, value: Value) -> Result<()> {
    match (name, &*value.resolved()) {
        ("grad", Value::None) => Ok(tensor.assign_grad(None)?),
        ("grad", Value::Tensor(grad)) => Ok(tensor.assign_grad(Some(grad.clone()))?),
        ("grad", other) => Err(PyException::new(
            ExcType::TypeError,
            format!(
                "assigned grad expected to be a Tensor or None but got grad of type {}",
                other.type_name()
            ),
        )),
        ("requires_grad", Value::Bool(flag)) => Ok(tensor.set_requires_grad(*flag)?),
        ("requires_grad", other) => Err(PyException::new(
            ExcType::TypeError,
            format!("requires_grad must be a bool, not {}", other.type_name()),
        )),
        ("data", _) => Err(PyException::unsupported(
            "assigning to .data (use `with torch.no_grad(): t.copy_(new)`, or `.to()` on the module)",
        )),
        (name, _) => Err(PyException::new(
            ExcType::AttributeError,
            format!("attribute '{name}' of 'torch._C.TensorBase' objects is not writable"),
        )),
    }
}

/// What a `to(...)` call asks for (Tensor.to and Module.to parse the same way): a device, a
/// dtype, another tensor's device and dtype, `non_blocking` and `copy`.
pub fn to_request(call: &Call) -> Result<To> {
    let mut request = To::default();
    match call.overload {
        0 => {
            request.device = match call.get("device") {
                None => None,
                Some(Value::Str(s)) => Some(Target::Text(s.to_string())),
                Some(Value::Int(i)) => Some(Target::Device(device_index(*i)?)),
                Some(_) => call.device("device")?.map(Target::Device),
            };
            request.dtype = call.dtype("dtype")?;
        }
        1 => request.dtype = call.dtype("dtype")?,
        _ => {
            let other = call.tensor("tensor")?;
            request.device = Some(Target::Device(other.device()));
            request.dtype = Some(other.dtype());
        }
    }
    request.non_blocking = call.bool("non_blocking")?;
    request.copy = call.bool("copy")?;
    Ok(request)
}

fn to(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let request = to_request(call)?;
    call.finish()?;
    Ok(Value::Tensor(t.to(request)?))
}

fn cuda(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let index = match call.get("device") {
        None => None,
        Some(Value::Int(i)) => device_index(*i)?.index,
        Some(_) => {
            let device = call.device("device")?;
            match device {
                Some(d) if d.kind != DeviceType::Cuda => {
                    return Err(PyException::new(
                        ExcType::RuntimeError,
                        format!("Invalid device, must be cuda device, but got: {d}"),
                    ));
                }
                Some(d) => d.index,
                None => None,
            }
        }
    };
    let non_blocking = call.bool("non_blocking")?;
    call.finish()?;
    Ok(Value::Tensor(t.cuda(index, non_blocking)?))
}

/// `cpu()`, `float()`, `double()`, `half()`, `bfloat16()`, `long()`, `int()`, `short()`,
/// `char()`, `byte()`, `bool()`.
fn cast(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    call.finish()?;
    Ok(Value::Tensor(match call.binding.name() {
        "cpu" => t.cpu()?,
        "float" => t.to_dtype(DType::Float32)?,
        "double" => t.to_dtype(DType::Float64)?,
        "half" => t.to_dtype(DType::Float16)?,
        "bfloat16" => t.to_dtype(DType::BFloat16)?,
        "long" => t.to_dtype(DType::Int64)?,
        "int" => t.to_dtype(DType::Int32)?,
        "short" => t.to_dtype(DType::Int16)?,
        "char" => t.to_dtype(DType::Int8)?,
        "byte" => t.to_dtype(DType::UInt8)?,
        _ => t.to_dtype(DType::Bool)?,
    }))
}

/// `t.type()` (the type's name, `torch.cuda.FloatTensor`), `t.type(torch.float64)`, or
/// `t.type('torch.cuda.LongTensor')` (a cast, and a move when the name says `cuda`).
fn type_(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let target = call.get("dtype").cloned();
    let non_blocking = call.bool("non_blocking")?;
    call.finish()?;
    // A dtype keeps the device; a tensor type (or its name) says CPU or CUDA too.
    let (dtype, cuda) = match target {
        None | Some(Value::None) => return Ok(Value::str(&t.type_name())),
        Some(Value::DType(dtype)) => (dtype, None),
        Some(Value::TensorType(ty)) => (ty.dtype, Some(ty.cuda)),
        Some(Value::Str(ref name)) => {
            let rest = name.strip_prefix("torch.").unwrap_or(name);
            let (cuda, rest) = match rest.strip_prefix("cuda.") {
                Some(rest) => (true, rest),
                None => (false, rest),
            };
            let kind = rest.strip_suffix("Tensor").unwrap_or(rest);
            let dtype = DType::ALL
                .into_iter()
                .find(|d| d.scalar_type_name() == kind)
                .ok_or_else(|| {
                    PyException::new(ExcType::ValueError, format!("invalid type: '{name}'"))
                })?;
            (dtype, Some(cuda))
        }
        Some(other) => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "dtype must be a type, str, or dtype object (got {})",
                    other.type_name()
                ),
            ));
        }
    };
    let device = match (cuda, t.device().kind) {
        (None, _) | (Some(true), DeviceType::Cuda) | (Some(false), DeviceType::Cpu) => None,
        (Some(true), _) => Some(tolab_engine::Device::cuda(0)),
        (Some(false), _) => Some(tolab_engine::Device::CPU),
    };
    Ok(Value::Tensor(t.to(To {
        device: device.map(Target::Device),
        dtype: Some(dtype),
        non_blocking,
        ..To::default()
    })?))
}

fn item(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    graph_break(&t, BreakCause::Item);
    Ok(Value::from(t.item()?))
}

fn tolist(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    graph_break(&t, BreakCause::Tolist);
    Ok(nested_list(&t.scalars()?, t.shape()))
}

/// `tensor.tolist()`: nested lists of Python numbers.
fn nested_list(values: &[Scalar], shape: &[usize]) -> Value {
    match shape.split_first() {
        None => values.first().map_or(Value::None, |s| Value::from(*s)),
        Some((&n, rest)) => {
            let width: usize = rest.iter().product();
            Value::list(
                (0..n)
                    .map(|i| {
                        nested_list(
                            values.get(i * width..(i + 1) * width).unwrap_or_default(),
                            rest,
                        )
                    })
                    .collect(),
            )
        }
    }
}

fn numpy(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let _force = call.bool("force")?;
    call.finish()?;
    // PyTorch's own checks (grad, device) come first; the array shares the tensor's memory.
    let array = crate::stdlib::numpy::bridge::tensor_array(&t)?;
    Ok(Value::NdArray(std::rc::Rc::new(array)))
}

/// `size()` / `size(dim)` and `stride()` / `stride(dim)`.
fn size(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let dim = call.opt_int("dim")?;
    call.finish()?;
    let stride = call.binding.name() == "stride";
    match dim {
        Some(d) => {
            let d = tolab_engine::layout::wrap_dim(d, t.dim())?;
            Ok(if stride {
                Value::Int(t.stride()[d] as i64)
            } else {
                count(t.shape()[d])
            })
        }
        None if stride => Ok(Value::Tuple(
            t.stride().iter().map(|&s| Value::Int(s as i64)).collect(),
        )),
        None => Ok(Value::size(t.shape())),
    }
}

/// The facts a tensor tells about itself.
fn facts(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let name = call.binding.name();
    if name == "is_pinned" && call.gave("device") {
        return Err(super::ops::not_yet("is_pinned(device=...)"));
    }
    call.finish()?;
    Ok(match name {
        "dim" => count(t.dim()),
        "numel" => count(t.numel()),
        // The GPU index, -1 on the CPU.
        "get_device" => Value::Int(match t.device().kind {
            DeviceType::Cpu => -1,
            _ => i64::from(t.device().index.unwrap_or(0)),
        }),
        "data_ptr" => Value::Int(t.data_ptr() as i64),
        "element_size" => count(t.element_size()),
        "storage_offset" => count(t.storage_offset()),
        "is_contiguous" => Value::Bool(t.is_contiguous()),
        _ => Value::Bool(t.is_pinned()),
    })
}

/// `contiguous()`, `clone()`, `detach()`, `pin_memory()`.
fn copies(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    if call.binding.name() == "pin_memory" && call.gave("device") {
        return Err(super::ops::not_yet("pin_memory(device=...)"));
    }
    call.finish()?;
    Ok(Value::Tensor(match call.binding.name() {
        "contiguous" => t.contiguous()?,
        "clone" => t.clone_tensor()?,
        "pin_memory" => t.pin_memory()?,
        _ => {
            graph_break(&t, BreakCause::Detach);
            t.detach()
        }
    }))
}

fn requires_grad_(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let flag = call.bool("requires_grad")?;
    call.finish()?;
    t.set_requires_grad(flag)?;
    Ok(Value::Tensor(t))
}

fn retain_grad(call: &Call, _: &Session) -> Result<Value> {
    call.input()?.retain_grad()?;
    Ok(Value::None)
}
