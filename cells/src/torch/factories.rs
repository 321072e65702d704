//! Making tensors: `torch.tensor`, `as_tensor` and `asarray` from Python data (NumPy arrays and scalars
//! included; `from_numpy` and `as_tensor` share an array's memory), the shaped factories
//! (`zeros`, `ones`, `empty`, `full`, `rand`, `randn`, `randint`, `randperm`, `arange`,
//! `linspace`, `logspace`, `eye`), their `*_like` and `Tensor.new_*` forms, and the `torch.device` and
//! `torch.Generator` objects.

use tolab_engine::{DType, Device, Scalar, Session, Tensor};

use super::parse::{device_index, scalar_of};
use super::random::{drawing, generator_arg};
use super::{Call, Handler};
use crate::python::exception::{ExcType, PyException};
use crate::python::operators::iterate;
use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("torch.tensor", Handler::Engine(tensor)),
    ("torch.as_tensor", Handler::Engine(as_tensor)),
    ("torch.from_numpy", Handler::Engine(from_numpy)),
    ("torch.zeros", Handler::Engine(filled)),
    ("torch.ones", Handler::Engine(filled)),
    ("torch.empty", Handler::Engine(filled)),
    ("torch.full", Handler::Engine(filled)),
    ("torch.rand", Handler::Engine(random)),
    ("torch.randn", Handler::Engine(random)),
    ("torch.randint", Handler::Engine(randint)),
    ("torch.randperm", Handler::Engine(randperm)),
    ("torch.arange", Handler::Engine(arange)),
    ("torch.asarray", Handler::Engine(asarray)),
    ("torch.linspace", Handler::Engine(linspace)),
    ("torch.logspace", Handler::Engine(linspace)),
    ("torch.eye", Handler::Engine(eye)),
    ("torch.zeros_like", Handler::Engine(like)),
    ("torch.ones_like", Handler::Engine(like)),
    ("torch.empty_like", Handler::Engine(like)),
    ("torch.full_like", Handler::Engine(like)),
    ("torch.rand_like", Handler::Engine(like)),
    ("torch.randn_like", Handler::Engine(like)),
    ("Tensor.new_zeros", Handler::Engine(new_filled)),
    ("Tensor.new_ones", Handler::Engine(new_filled)),
    ("Tensor.new_empty", Handler::Engine(new_filled)),
    ("Tensor.new_full", Handler::Engine(new_filled)),
    ("Tensor.new_tensor", Handler::Engine(new_tensor)),
    ("torch.device", Handler::Engine(device)),
    ("torch.Generator", Handler::Engine(generator)),
];

/// The keywords every factory shares: `dtype`, `device`, `requires_grad` and `pin_memory`, and
/// the random ones' `generator`.
struct Factory {
    generator: Option<tolab_engine::random::GeneratorHandle>,
    dtype: Option<DType>,
    device: Device,
    requires_grad: bool,
    pin_memory: bool,
}

impl Factory {
    fn read(call: &Call, device: Device) -> Result<Factory> {
        Ok(Factory {
            generator: generator_arg(call),
            dtype: call.dtype("dtype")?,
            device: call.device("device")?.unwrap_or(device),
            requires_grad: call.bool("requires_grad")?,
            pin_memory: call.gave("pin_memory") && call.bool("pin_memory")?,
        })
    }

    /// A factory's keywords where PyTorch's `DeviceContext` (`torch.set_default_device`)
    /// gives the device `device=` leaves out.
    fn fresh(call: &Call, session: &Session) -> Result<Factory> {
        Factory::read(call, session.default_device().unwrap_or(Device::CPU))
    }

    /// The tensor made, with `requires_grad` and pinned memory as asked.
    fn finish(&self, t: Tensor) -> Result<Value> {
        let t = if self.pin_memory { t.pin_memory()? } else { t };
        if self.requires_grad && !t.dtype().is_floating_point() {
            return Err(tolab_engine::Error::RequiresGradNeedsFloat { at_creation: true }.into());
        }
        if self.requires_grad {
            t.set_requires_grad(true)?;
        }
        Ok(Value::Tensor(t))
    }
}

/// Flattens nested lists of Python numbers for `torch.tensor`, with their shape; `typed` when
/// the call names the dtype (PyTorch then converts each item rather than inferring).
fn nested(
    v: &Value,
    shape: &mut Vec<usize>,
    depth: usize,
    out: &mut Vec<Scalar>,
    typed: bool,
) -> Result<()> {
    match &*v.resolved() {
        Value::Bool(b) => out.push(Scalar::Bool(*b)),
        Value::Int(i) => out.push(Scalar::Int(*i)),
        Value::Float(x) => out.push(Scalar::Float(*x)),
        Value::NpScalar(_) => {
            out.extend(crate::python::operators::scalar(v));
        }
        // An array inside a list counts as the nested lists of its elements.
        Value::NdArray(a) => {
            let items = crate::stdlib::numpy::convert::tolist(a)?;
            nested(&items, shape, depth, out, typed)?;
        }
        Value::Tensor(t) if t.numel() == 1 && t.dim() == 0 => out.push(t.item()?),
        seq @ (Value::List(_) | Value::Tuple(_) | Value::Size(_)) => {
            let items = iterate(seq)?;
            if shape.len() == depth {
                shape.push(items.len());
            } else if shape.get(depth) != Some(&items.len()) {
                return Err(PyException::new(
                    ExcType::ValueError,
                    format!(
                        "expected sequence of length {} at dim {depth} (got {})",
                        shape.get(depth).copied().unwrap_or(0),
                        items.len()
                    ),
                ));
            }
            for item in &items {
                nested(item, shape, depth + 1, out, typed)?;
            }
        }
        Value::Str(_) => {
            return Err(PyException::new(
                ExcType::TypeError,
                "new(): invalid data type 'str'",
            ));
        }
        Value::BigInt(_) => return Err(super::parse::overflow_long_long()),
        other if typed => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!("must be real number, not {}", super::parse::tp_name(other)),
            ));
        }
        other => {
            return Err(PyException::new(
                ExcType::RuntimeError,
                format!("Could not infer dtype of {}", super::parse::tp_name(other)),
            ));
        }
    }
    Ok(())
}

/// A new tensor holding a copy of Python data (nested lists of numbers, or a tensor).
fn from_data(session: &Session, data: &Value, f: &Factory) -> Result<Tensor> {
    if let Value::Tensor(t) = &*data.resolved() {
        // `torch.tensor(t)`: a copy, detached (PyTorch warns to use clone().detach()).
        return Ok(t.detach().to(tolab_engine::To {
            device: Some(tolab_engine::Target::Device(f.device)),
            dtype: Some(f.dtype.unwrap_or(t.dtype())),
            copy: true,
            ..tolab_engine::To::default()
        })?);
    }
    if let Value::NdArray(a) = &*data.resolved() {
        // `torch.tensor(array)`: a copy, with from_numpy's checks.
        let t = crate::stdlib::numpy::bridge::copied(a)?;
        return Ok(t.to(tolab_engine::To {
            device: Some(tolab_engine::Target::Device(f.device)),
            dtype: Some(f.dtype.unwrap_or(t.dtype())),
            ..tolab_engine::To::default()
        })?);
    }
    let (mut shape, mut values) = (Vec::new(), Vec::new());
    nested(data, &mut shape, 0, &mut values, f.dtype.is_some())?;
    if let Some(dtype) = f.dtype {
        // `store_scalar` converts each number with a check, naming the dtype.
        for &value in &values {
            dtype.check_holds(value, dtype.name())?;
        }
    }
    let dtype = f
        .dtype
        .or_else(|| numpy_dtype(data, session.default_dtype()));
    Ok(Tensor::from_scalars(
        session, &values, &shape, dtype, f.device, false,
    )?)
}

/// A tensor of `dtype` on `device` holding a copy of Python data (the legacy constructors'
/// `torch.LongTensor([1.7, 2])`).
pub(super) fn data_tensor(
    session: &Session,
    data: &Value,
    dtype: DType,
    device: Device,
) -> Result<Tensor> {
    let f = Factory {
        generator: None,
        dtype: Some(dtype),
        device,
        requires_grad: false,
        pin_memory: false,
    };
    from_data(session, data, &f)
}

/// A list of Python numbers used as an index: a CPU tensor of the dtype `torch.tensor` infers.
pub(super) fn index_tensor(session: &Session, data: &Value) -> Result<Tensor> {
    let (mut shape, mut values) = (Vec::new(), Vec::new());
    nested(data, &mut shape, 0, &mut values, false)?;
    Ok(Tensor::from_scalars(
        session,
        &values,
        &shape,
        None,
        Device::CPU,
        false,
    )?)
}

/// The dtype PyTorch infers for data holding NumPy scalars (each item's own type, promoted;
/// Python floats count as the default dtype); `None` when there are none.
fn numpy_dtype(data: &Value, default: DType) -> Option<DType> {
    fn walk(v: &Value, default: DType, found: &mut Option<DType>, numpy: &mut bool) {
        let dtype = match v {
            Value::NpScalar(x) => {
                *numpy = true;
                Some(x.dtype.torch())
            }
            Value::NdArray(a) => {
                *numpy = true;
                Some(a.dtype.torch())
            }
            Value::Bool(_) => Some(DType::Bool),
            Value::Int(_) => Some(DType::Int64),
            Value::Float(_) => Some(default),
            Value::List(_) | Value::Tuple(_) => {
                for item in iterate(v).unwrap_or_default() {
                    walk(&item, default, found, numpy);
                }
                None
            }
            _ => None,
        };
        if let Some(d) = dtype {
            *found = Some(found.map_or(d, |f| tolab_engine::dtype::promote_types(f, d)));
        }
    }
    let (mut found, mut numpy) = (None, false);
    walk(data, default, &mut found, &mut numpy);
    found.filter(|_| numpy)
}

/// `torch.from_numpy(array)`: a tensor over the array's memory.
fn from_numpy(call: &Call, _: &Session) -> Result<Value> {
    let arg = call.value("arg")?.unwrap_or(Value::None);
    call.finish()?;
    match &arg {
        Value::NdArray(a) => Ok(Value::Tensor(crate::stdlib::numpy::bridge::from_numpy(a)?)),
        other => Err(PyException::new(
            ExcType::TypeError,
            format!("expected np.ndarray (got {})", other.type_name()),
        )),
    }
}

fn tensor(call: &Call, session: &Session) -> Result<Value> {
    let data = call.value("data")?.unwrap_or(Value::None);
    let f = Factory::fresh(call, session)?;
    call.finish()?;
    let t = from_data(session, &data, &f)?;
    f.finish(t)
}

/// `torch.as_tensor`: a tensor stays itself where it can (same dtype and device).
fn as_tensor(call: &Call, session: &Session) -> Result<Value> {
    let data = call.value("data")?.unwrap_or(Value::None);
    let dtype = call.dtype("dtype")?;
    let device = call.device("device")?.or(session.default_device());
    call.finish()?;
    if let Value::NdArray(a) = &*data.resolved() {
        let t = crate::stdlib::numpy::bridge::from_numpy(a)?;
        return Ok(Value::Tensor(t.to(tolab_engine::To {
            device: device.map(tolab_engine::Target::Device),
            dtype,
            ..tolab_engine::To::default()
        })?));
    }
    if let Value::Tensor(t) = &*data.resolved() {
        return Ok(Value::Tensor(t.to(tolab_engine::To {
            device: device.map(tolab_engine::Target::Device),
            dtype,
            ..tolab_engine::To::default()
        })?));
    }
    let f = Factory {
        generator: None,
        dtype,
        device: device.unwrap_or(Device::CPU),
        requires_grad: false,
        pin_memory: false,
    };
    Ok(Value::Tensor(from_data(session, &data, &f)?))
}

/// An optional flag (`copy=`, `requires_grad=` of `asarray`): `None` when not given.
fn opt_flag(call: &Call, name: &str) -> Result<Option<bool>> {
    Ok(match call.get(name) {
        None | Some(Value::None) => None,
        Some(_) => Some(call.bool(name)?),
    })
}

/// `torch.asarray(obj, dtype, device, copy, requires_grad)`, as `torch/csrc/utils/tensor_new.cpp`
/// has it: a tensor (or a NumPy array's memory) itself where it already has the dtype and device
/// asked for, a copy where it must (`copy=None`) or is told to (`copy=True`), an error where it may
/// not (`copy=False`); Python data is always copied. `requires_grad` defaults to the source's.
fn asarray(call: &Call, session: &Session) -> Result<Value> {
    let obj = call.value("obj")?.unwrap_or(Value::None);
    let dtype = call.dtype("dtype")?;
    let device = call.device("device")?.or(session.default_device());
    let (copy, requires_grad) = (opt_flag(call, "copy")?, opt_flag(call, "requires_grad")?);
    call.finish()?;
    let source = match &*obj.resolved() {
        Value::Tensor(t) => t.clone(),
        Value::NdArray(a) => crate::stdlib::numpy::bridge::from_numpy(a)?,
        _ => {
            if copy == Some(false) {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "can't alias arbitrary sequence into a tensor.",
                ));
            }
            let f = Factory {
                generator: None,
                dtype,
                device: device.unwrap_or(Device::CPU),
                requires_grad: requires_grad.unwrap_or(false),
                pin_memory: false,
            };
            return f.finish(from_data(session, &obj, &f)?);
        }
    };
    let wrong_device = device.filter(|&d| d != source.device());
    let wrong_dtype = dtype.filter(|&d| d != source.dtype());
    let converts = wrong_device.is_some() || wrong_dtype.is_some();
    let t = match copy {
        Some(false) => {
            if let Some(d) = wrong_device {
                return Err(PyException::new(
                    ExcType::ValueError,
                    format!(
                        "can't alias tensor from device '{}' to '{d}'.",
                        source.device()
                    ),
                ));
            }
            if let Some(d) = wrong_dtype {
                return Err(PyException::new(
                    ExcType::ValueError,
                    format!(
                        "can't alias tensor with dtype '{}' into dtype '{}'.",
                        source.dtype().scalar_type_name(),
                        d.scalar_type_name()
                    ),
                ));
            }
            source.clone()
        }
        _ if converts => source.to(tolab_engine::To {
            device: device.map(tolab_engine::Target::Device),
            dtype,
            copy: copy == Some(true),
            ..tolab_engine::To::default()
        })?,
        Some(true) => source.clone_tensor()?,
        None => source.clone(),
    };
    let requires = match requires_grad {
        Some(r) => r,
        None => {
            if source.requires_grad() {
                session.warn("torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead of False. Pass requires_grad=False explicitly to get the old behavior and silence this warning.");
            }
            source.requires_grad()
        }
    };
    // A result with history keeps it, or leaves it by `detach`; a leaf takes the flag.
    let t = match (t.is_leaf(), requires) {
        (false, true) => t,
        (false, false) => t.detach(),
        (true, true) if !t.dtype().is_floating_point() => {
            return Err(tolab_engine::Error::RequiresGradNeedsFloat { at_creation: true }.into());
        }
        (true, _) => {
            t.set_requires_grad(requires)?;
            t
        }
    };
    Ok(Value::Tensor(t))
}

/// `zeros`, `ones`, `empty` and `full` of a size.
fn filled(call: &Call, session: &Session) -> Result<Value> {
    let size = call.int_list("size")?;
    let fill = if call.binding.name() == "full" {
        Some(call.scalar("fill_value")?)
    } else {
        None
    };
    let f = Factory::fresh(call, session)?;
    call.finish()?;
    make(session, call.binding.name(), &size, fill, &f)
}

/// A tensor of `size` filled by the factory `name` (`zeros`, `ones`, `empty`, `full`).
fn make(
    session: &Session,
    name: &str,
    size: &[i64],
    fill: Option<Scalar>,
    f: &Factory,
) -> Result<Value> {
    let dtype = f.dtype.unwrap_or(session.default_dtype());
    let t = match (name, fill) {
        ("ones", _) => Tensor::ones(session, size, dtype, f.device)?,
        ("empty", _) => Tensor::empty(session, size, dtype, f.device)?,
        (_, Some(value)) => {
            // `full` infers its dtype from the fill value, as PyTorch does.
            let inferred = f.dtype.unwrap_or(match value {
                Scalar::Float(_) => session.default_dtype(),
                Scalar::Bool(_) => DType::Bool,
                Scalar::Int(_) => DType::Int64,
            });
            inferred.check_scalar(value)?;
            Tensor::full(session, &Tensor::shape_of(size)?, value, inferred, f.device)?
        }
        _ => Tensor::zeros(session, size, dtype, f.device)?,
    };
    f.finish(t)
}

fn random(call: &Call, session: &Session) -> Result<Value> {
    let size = Tensor::shape_of(&call.int_list("size")?)?;
    let f = Factory::fresh(call, session)?;
    call.finish()?;
    let dtype = f.dtype.unwrap_or(session.default_dtype());
    let t = drawing(f.generator.clone(), session, f.device, || {
        match call.binding.name() {
            "rand" => Tensor::rand(session, &size, dtype, f.device),
            _ => Tensor::normal(session, &size, dtype, f.device, 0.0, 1.0),
        }
    })?;
    f.finish(t)
}

fn randint(call: &Call, session: &Session) -> Result<Value> {
    let low = if call.signature().position("low").is_some() {
        call.int("low")?
    } else {
        0
    };
    let high = call.int("high")?;
    let size = Tensor::shape_of(&call.int_list("size")?)?;
    let f = Factory::fresh(call, session)?;
    call.finish()?;
    let dtype = f.dtype.unwrap_or(DType::Int64);
    f.finish(drawing(f.generator.clone(), session, f.device, || {
        Tensor::randint(session, low, high, &size, dtype, f.device)
    })?)
}

fn randperm(call: &Call, session: &Session) -> Result<Value> {
    let n = call.int("n")?;
    let f = Factory::fresh(call, session)?;
    call.finish()?;
    let n = Tensor::shape_of(&[n])?[0];
    let dtype = f.dtype.unwrap_or(DType::Int64);
    f.finish(drawing(f.generator.clone(), session, f.device, || {
        Tensor::randperm(session, n, dtype, f.device)
    })?)
}

fn arange(call: &Call, session: &Session) -> Result<Value> {
    let has = |name: &str| call.signature().position(name).is_some();
    let start = if has("start") {
        call.scalar("start")?
    } else {
        Scalar::Int(0)
    };
    let end = call.scalar("end")?;
    let step = if has("step") {
        call.scalar("step")?
    } else {
        Scalar::Int(1)
    };
    let f = Factory::fresh(call, session)?;
    call.finish()?;
    f.finish(Tensor::arange(
        session, start, end, step, f.dtype, f.device,
    )?)
}

/// `linspace`'s or `logspace`'s `start` or `end`: a number, or a tensor of one element.
fn range_end(call: &Call, name: &str) -> Result<f64> {
    match call.get(name).map(Value::resolved).as_deref() {
        Some(Value::Tensor(t)) if t.numel() == 1 => Ok(t.item()?.as_f64()),
        Some(v) => scalar_of(v).map(|s| s.as_f64()).ok_or_else(|| {
            PyException::new(
                ExcType::RuntimeError,
                format!(
                    "{} only supports 0-dimensional start and end tensors, but got {name} with 1 dimension(s).",
                    call.binding.name()
                ),
            )
        }),
        None => Ok(0.0),
    }
}

/// `linspace(start, end, steps)` and `logspace(start, end, steps, base)`.
fn linspace(call: &Call, session: &Session) -> Result<Value> {
    let (start, end) = (range_end(call, "start")?, range_end(call, "end")?);
    let steps = call.int("steps")?;
    let base = match call.binding.name() {
        "logspace" => Some(call.float("base")?),
        _ => None,
    };
    let f = Factory::fresh(call, session)?;
    call.finish()?;
    let dtype = f.dtype.unwrap_or(session.default_dtype());
    f.finish(match base {
        Some(base) => Tensor::logspace(session, start, end, steps, base, dtype, f.device)?,
        None => Tensor::linspace(session, start, end, steps, dtype, f.device)?,
    })
}

fn eye(call: &Call, session: &Session) -> Result<Value> {
    let n = call.int("n")?;
    let m = if call.signature().position("m").is_some() {
        Some(call.int("m")?)
    } else {
        None
    };
    let f = Factory::fresh(call, session)?;
    call.finish()?;
    let dtype = f.dtype.unwrap_or(session.default_dtype());
    f.finish(Tensor::eye(session, n, m, dtype, f.device)?)
}

/// `zeros_like(t)` and its siblings: `t`'s shape, dtype and device unless the call says.
fn like(call: &Call, session: &Session) -> Result<Value> {
    let input = call.tensor("input")?;
    let fill = match call.binding.name() {
        "full_like" => Some(call.scalar("fill_value")?),
        _ => None,
    };
    let mut f = Factory::read(call, input.device())?;
    call.finish()?;
    let dtype = *f.dtype.get_or_insert(input.dtype());
    let shape = input.shape().to_vec();
    let t = match call.binding.name() {
        "rand_like" => drawing(f.generator.clone(), session, f.device, || {
            Tensor::rand(session, &shape, dtype, f.device)
        })?,
        "randn_like" => drawing(f.generator.clone(), session, f.device, || {
            Tensor::normal(session, &shape, dtype, f.device, 0.0, 1.0)
        })?,
        "ones_like" => Tensor::full(session, &shape, Scalar::Int(1), dtype, f.device)?,
        "full_like" => {
            let value = fill.unwrap_or(Scalar::Int(0));
            dtype.check_scalar(value)?;
            Tensor::full(session, &shape, value, dtype, f.device)?
        }
        _ => Tensor::full(session, &shape, Scalar::Int(0), dtype, f.device)?,
    };
    f.finish(t)
}

/// `t.new_zeros(size)` and company: `torch.zeros(size)` with `t`'s dtype and device unless the
/// call names its own.
fn new_filled(call: &Call, session: &Session) -> Result<Value> {
    let t = call.input()?;
    let size = call.int_list("size")?;
    let fill = match call.binding.name() {
        "new_full" => Some(call.scalar("fill_value")?),
        _ => None,
    };
    let mut f = Factory::read(call, t.device())?;
    call.finish()?;
    f.dtype.get_or_insert(t.dtype());
    let name = call.binding.name().trim_start_matches("new_");
    make(session, name, &size, fill, &f)
}

fn new_tensor(call: &Call, session: &Session) -> Result<Value> {
    let t = call.input()?;
    let data = call.value("data")?.unwrap_or(Value::None);
    let mut f = Factory::read(call, t.device())?;
    call.finish()?;
    f.dtype.get_or_insert(t.dtype());
    let made = from_data(session, &data, &f)?;
    f.finish(made)
}

/// `torch.device("cuda:0")`, `torch.device("cuda", 1)`, `torch.device(d)`, `torch.device(1)`.
pub(super) fn device(call: &Call, _session: &Session) -> Result<Value> {
    if call.overload == 0 {
        let d = match call.get("device") {
            Some(Value::Int(i)) => device_index(*i)?,
            _ => call
                .device("device")?
                .ok_or_else(|| PyException::new(ExcType::TypeError, "device() expects a device"))?,
        };
        return Ok(Value::Device(d));
    }
    let kind = call.string("type")?.unwrap_or_default();
    let index = call.opt_int("index")?;
    call.finish()?;
    // An index of -1 (the default) means none.
    Ok(Value::Device(Device::with_index(
        &kind,
        index.filter(|&i| i != -1),
    )?))
}

fn generator(call: &Call, _session: &Session) -> Result<Value> {
    let device = call.device("device")?;
    call.finish()?;
    if device.is_some_and(|d| d.kind != tolab_engine::DeviceType::Cpu) {
        return Err(PyException::new(
            ExcType::NotImplementedError,
            "torch.Generator(device=...): the lab's generators are on the CPU",
        ));
    }
    Ok(Value::Generator(
        tolab_engine::random::GeneratorHandle::default(),
    ))
}
