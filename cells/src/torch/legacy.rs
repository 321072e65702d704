//! The legacy tensor types, `torch.FloatTensor`, `torch.cuda.LongTensor`, …: a dtype and a
//! device type, which `isinstance` checks and `Tensor.type()` names, and the legacy
//! constructor they share with `torch.Tensor` (`legacy_tensor_ctor`): `torch.FloatTensor(2, 3)`
//! is a size, `torch.FloatTensor([1, 2])` data converted to the type, `torch.Tensor(t)` a
//! new tensor over `t`'s storage.

use tolab_engine::{DType, Device, DeviceType, Session, Tensor};

use super::{Call, Handler};
use crate::python::args::Args;
use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

/// `torch.FloatTensor` (`cuda: false`) or `torch.cuda.FloatTensor`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TensorType {
    pub dtype: DType,
    pub cuda: bool,
}

impl TensorType {
    /// `namespace.name`, when it names a legacy type of a dtype the lab has.
    pub fn lookup(namespace: &str, name: &str) -> Option<TensorType> {
        let cuda = match namespace {
            "torch" => false,
            "torch.cuda" => true,
            _ => return None,
        };
        let kind = name.strip_suffix("Tensor")?;
        DType::ALL
            .into_iter()
            .find(|d| d.scalar_type_name() == kind)
            .map(|dtype| TensorType { dtype, cuda })
    }

    /// The names of the legacy types in `namespace` (for `dir()`).
    pub fn names(namespace: &str) -> Vec<&'static str> {
        const NAMES: &[&str] = &[
            "FloatTensor",
            "DoubleTensor",
            "HalfTensor",
            "BFloat16Tensor",
            "LongTensor",
            "IntTensor",
            "ShortTensor",
            "CharTensor",
            "ByteTensor",
            "BoolTensor",
        ];
        match namespace {
            "torch" | "torch.cuda" => NAMES.to_vec(),
            _ => Vec::new(),
        }
    }

    /// `FloatTensor`.
    pub fn name(self) -> String {
        format!("{}Tensor", self.dtype.scalar_type_name())
    }

    /// `torch.FloatTensor`, `torch.cuda.FloatTensor`.
    pub fn qualified_name(self) -> String {
        match self.cuda {
            true => format!("torch.cuda.{}", self.name()),
            false => format!("torch.{}", self.name()),
        }
    }

    /// `isinstance(t, self)`: the dtype, and the device type, match.
    pub fn holds(self, t: &Tensor) -> bool {
        let kind = t.device().kind;
        t.dtype() == self.dtype
            && match self.cuda {
                true => kind == DeviceType::Cuda,
                false => kind == DeviceType::Cpu,
            }
    }

    /// `torch.FloatTensor.dtype`, `.is_cuda`, `.__name__`, ….
    pub fn attribute(self, name: &str) -> Option<Value> {
        Some(match name {
            "dtype" => Value::DType(self.dtype),
            "is_cuda" => Value::Bool(self.cuda),
            "is_sparse" => Value::Bool(false),
            "__name__" | "__qualname__" => Value::str(&self.name()),
            "__module__" => Value::str(if self.cuda { "torch.cuda" } else { "torch" }),
            _ => return None,
        })
    }
}

/// `torch.FloatTensor(...)`, or `torch.Tensor(...)` (`of: None`: the default dtype), parsed
/// against `torch.Tensor`'s legacy signatures (`new(...)`).
pub fn construct(session: &Session, of: Option<TensorType>, args: &Args) -> Result<Value> {
    let binding = super::signature::binding("torch", "Tensor")
        .expect("torch.Tensor is in the signature table");
    build(&super::parse::parse(binding, None, args)?, session, of)
}

pub const HANDLERS: &[(&str, Handler)] = &[("torch.Tensor", Handler::Engine(tensor))];

/// `torch.Tensor(...)`: the legacy constructor of the default dtype.
fn tensor(call: &Call, session: &Session) -> Result<Value> {
    build(call, session, None)
}

/// The legacy constructor over a parsed call.
fn build(call: &Call, session: &Session, of: Option<TensorType>) -> Result<Value> {
    let dtype = of.map_or(session.default_dtype(), |t| t.dtype);
    let cuda = of.is_some_and(|t| t.cuda);
    let device = match call.signature().position("device") {
        Some(_) => call.device("device")?,
        None => None,
    };
    let expected = if cuda {
        DeviceType::Cuda
    } else {
        DeviceType::Cpu
    };
    if let Some(d) = device
        && d.kind != expected
    {
        return Err(PyException::new(
            ExcType::RuntimeError,
            format!(
                "legacy constructor expects device type: {} but device type: {} was passed",
                expected.name(),
                d.kind.name()
            ),
        ));
    }
    let device = match (device, cuda) {
        (Some(d), _) => session.resolve(d)?,
        (None, true) => session.resolve(Device {
            kind: DeviceType::Cuda,
            index: None,
        })?,
        (None, false) => Device::CPU,
    };
    match call.signature().params.first().map(|p| p.name) {
        // `new(Tensor other)`: the tensor itself, when it is of the type.
        Some("other") => {
            let t = call.tensor("other")?;
            call.finish()?;
            // A new tensor over the same storage (PyTorch's `alias()`).
            if of.is_none_or(|ty| ty.holds(&t)) {
                let shape: Vec<i64> = t.shape().iter().map(|&d| d as i64).collect();
                return Ok(Value::Tensor(t.view(&shape)?));
            }
            Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "expected {} (got {})",
                    options(dtype, expected),
                    options(t.dtype(), t.device().kind)
                ),
            ))
        }
        // `new(size)`, unless the one argument is a sequence that is not a torch.Size: PyTorch
        // reads that as data.
        Some("size")
            if !(call.is_first_positional("size")
                && matches!(call.get("size"), Some(Value::List(_) | Value::Tuple(_)))) =>
        {
            let dims = call.int_list("size")?;
            call.finish()?;
            sized(session, &dims, dtype, device)
        }
        Some(name @ ("size" | "data")) => {
            let data = call.value(name)?.unwrap_or(Value::None);
            call.finish()?;
            match &data {
                Value::Str(_) => Err(PyException::new(
                    ExcType::TypeError,
                    "new(): invalid data type 'str'",
                )),
                Value::List(_) | Value::Tuple(_) | Value::NdArray(_) => Ok(Value::Tensor(
                    super::factories::data_tensor(session, &data, dtype, device)?,
                )),
                other => Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "new(): data must be a sequence (got {})",
                        super::parse::tp_name(other)
                    ),
                )),
            }
        }
        // `new(*, device=None)`: an empty tensor.
        _ => {
            call.finish()?;
            sized(session, &[0], dtype, device)
        }
    }
}

/// `TensorOptions` as C++ prints them in the legacy constructor's type error.
fn options(dtype: DType, device: DeviceType) -> String {
    format!(
        "TensorOptions(dtype={}, device={}, layout=Strided, requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt))",
        dtype.cpp_name(),
        device.name()
    )
}

/// An uninitialised tensor of `dims` (the lab's empty tensors hold zeros; a negative size is
/// refused as the factories refuse it).
fn sized(session: &Session, dims: &[i64], dtype: DType, device: Device) -> Result<Value> {
    Ok(Value::Tensor(Tensor::empty(session, dims, dtype, device)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dtype_has_one_listed_legacy_type_and_every_listed_name_is_one() {
        let names = TensorType::names("torch");
        for name in &names {
            assert!(TensorType::lookup("torch", name).is_some(), "{name}");
        }
        for dtype in DType::ALL {
            let ty = TensorType { dtype, cuda: false };
            assert!(names.contains(&ty.name().as_str()), "{dtype:?}");
        }
        assert_eq!(names.len(), DType::ALL.len());
    }
}
