//! Reading a NumPy call's arguments: parameters by position or keyword (CPython's errors for
//! unexpected ones), and the kinds of argument NumPy functions share: axes, shapes, dtypes,
//! numbers, flags.

use super::array::Result;
use super::dtype::NpDType;
use crate::python::args::Args;
use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;

/// A call's arguments bound to a function's parameter names.
pub struct Params {
    function: String,
    names: &'static [&'static str],
    values: Vec<Option<Value>>,
}

impl Params {
    /// Binds `args` to `names` (the first `names.len()` may come by position).
    pub fn bind(function: &str, names: &'static [&'static str], args: &Args) -> Result<Params> {
        if args.positional.len() > names.len() {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "{function}() takes at most {} positional arguments ({} given)",
                    names.len(),
                    args.positional.len()
                ),
            ));
        }
        let mut values: Vec<Option<Value>> = vec![None; names.len()];
        for (slot, v) in values.iter_mut().zip(&args.positional) {
            *slot = Some(v.clone());
        }
        for (key, v) in &args.keywords {
            let Some(i) = names.iter().position(|n| n == key) else {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!("{function}() got an unexpected keyword argument '{key}'"),
                ));
            };
            if values[i].is_some() {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "argument for {function}() given by name ('{key}') and position ({})",
                        i + 1
                    ),
                ));
            }
            values[i] = Some(v.clone());
        }
        Ok(Params {
            function: function.to_owned(),
            names,
            values,
        })
    }

    fn index(&self, name: &str) -> usize {
        self.names
            .iter()
            .position(|n| *n == name)
            .unwrap_or(usize::MAX)
    }

    /// Whether the call gave `name` (`None` included).
    pub fn values_given(&self, name: &str) -> bool {
        self.values
            .get(self.index(name))
            .is_some_and(Option::is_some)
    }

    /// The argument `name`, unless absent or `None`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.values
            .get(self.index(name))
            .and_then(Option::as_ref)
            .filter(|v| !matches!(v, Value::None))
    }

    /// The argument `name`, which the call must give.
    pub fn required(&self, name: &str) -> Result<&Value> {
        self.values
            .get(self.index(name))
            .and_then(Option::as_ref)
            .ok_or_else(|| {
                PyException::new(
                    ExcType::TypeError,
                    format!("{}() missing required argument '{name}'", self.function),
                )
            })
    }

    pub fn int(&self, name: &str) -> Result<Option<i64>> {
        self.get(name).map(int).transpose()
    }

    pub fn float(&self, name: &str, default: f64) -> Result<f64> {
        self.get(name).map_or(Ok(default), number)
    }

    pub fn flag(&self, name: &str) -> bool {
        self.get(name).is_some_and(Value::truthy)
    }

    pub fn dtype(&self, name: &str) -> Result<Option<NpDType>> {
        self.get(name).map(dtype).transpose()
    }
}

/// An integer argument.
pub fn int(v: &Value) -> Result<i64> {
    match v {
        Value::Int(i) => Ok(*i),
        Value::Bool(b) => Ok(i64::from(*b)),
        Value::NpScalar(s) if !s.dtype.is_float() => Ok(s.value.as_i64()),
        other => Err(PyException::new(
            ExcType::TypeError,
            format!(
                "'{}' object cannot be interpreted as an integer",
                other.type_name()
            ),
        )),
    }
}

/// A real-number argument.
pub fn number(v: &Value) -> Result<f64> {
    super::convert::num_of(v)
        .map(|n| n.as_f64())
        .ok_or_else(|| {
            PyException::new(
                ExcType::TypeError,
                format!("must be real number, not {}", v.type_name()),
            )
        })
}

/// A shape: an integer or a sequence of them.
pub fn shape(v: &Value) -> Result<Vec<usize>> {
    let dims: Vec<i64> = match v {
        Value::List(_) | Value::Tuple(_) | Value::Size(_) => crate::python::operators::iterate(v)?
            .iter()
            .map(int)
            .collect::<Result<_>>()?,
        other => vec![int(other)?],
    };
    dims.iter()
        .map(|&d| {
            usize::try_from(d).map_err(|_| {
                PyException::new(ExcType::ValueError, "negative dimensions are not allowed")
            })
        })
        .collect()
}

/// A dtype argument: `np.float32`, `np.dtype("f4")`, `"float32"`, `int`, `float`, `bool`.
pub fn dtype(v: &Value) -> Result<NpDType> {
    let unknown = |what: String| {
        PyException::new(
            ExcType::TypeError,
            format!("data type {what} not understood"),
        )
    };
    match v {
        Value::NpType(d) | Value::NpDType(d) => Ok(*d),
        Value::Type("int") | Value::Builtin("int") => Ok(NpDType::Int64),
        Value::Type("float") | Value::Builtin("float") => Ok(NpDType::Float64),
        Value::Type("bool") | Value::Builtin("bool") => Ok(NpDType::Bool),
        Value::Str(s) => NpDType::from_name(s).ok_or_else(|| unknown(Value::Str(s.clone()).repr())),
        Value::DType(d) => NpDType::from_torch(*d).ok_or_else(|| unknown(d.to_string())),
        other => Err(unknown(format!("'{}'", other.repr()))),
    }
}

/// An `axis=` argument: `None` or one axis (tuples of axes are not in the lab).
pub fn axis(v: Option<&Value>) -> Result<Option<i64>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(Value::Tuple(_)) => Err(PyException::unsupported("a tuple of axes")),
        Some(other) => int(other).map(Some),
    }
}
