//! The attributes and methods of arrays (`a.shape`, `a.T`, `a.reshape`, `a.sum(axis=0)`,
//! `a.astype`, `a.tolist`, …), of NumPy scalars (`x.item()`, `x.dtype`) and of dtype objects
//! (`a.dtype.name`, `.itemsize`).

use std::rc::Rc;

use super::array::{NdArray, NpScalar, Result};
use super::convert::{python, tolist};
use super::dtype::{Kind, NpDType};
use super::functions::{array_value, reduction, round};
use super::params::{self, Params};
use super::reduce::Reduce;
use super::shapes::matmul;
use super::views::{reshape, shape_spec, squeeze, transpose};
use crate::python::args::Args;
use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;

/// The methods of `numpy.ndarray` the lab has.
pub const ARRAY_METHODS: &[&str] = &[
    "reshape",
    "astype",
    "sum",
    "prod",
    "mean",
    "std",
    "var",
    "max",
    "min",
    "argmax",
    "argmin",
    "any",
    "all",
    "cumsum",
    "copy",
    "tolist",
    "item",
    "dot",
    "round",
    "flatten",
    "ravel",
    "transpose",
    "squeeze",
    "clip",
    "argsort",
    "fill",
];

/// The data attributes of `numpy.ndarray` the lab has.
pub const ARRAY_ATTRIBUTES: &[&str] =
    &["shape", "ndim", "size", "dtype", "itemsize", "nbytes", "T"];

fn no_attribute(owner: &str, name: &str) -> PyException {
    PyException::new(
        ExcType::AttributeError,
        format!("'{owner}' object has no attribute '{name}'"),
    )
}

fn tuple(shape: &[usize]) -> Value {
    Value::Tuple(shape.iter().map(|&n| Value::Int(n as i64)).collect())
}

/// `a.name`: a data attribute's value, or the method bound to `a`.
pub fn attribute(a: &Rc<NdArray>, name: &str) -> Result<Value> {
    Ok(match name {
        "shape" => tuple(&a.shape),
        "ndim" => Value::Int(a.ndim() as i64),
        "size" => Value::Int(a.size() as i64),
        "dtype" => Value::NpDType(a.dtype),
        "itemsize" => Value::Int(a.dtype.itemsize() as i64),
        "nbytes" => Value::Int((a.size() * a.dtype.itemsize()) as i64),
        "T" => array_value(transpose(a, &[])?),
        _ if ARRAY_METHODS.contains(&name) => {
            Value::Method(Box::new(Value::NdArray(a.clone())), Rc::from(name))
        }
        _ => return Err(super::no_attribute("numpy.ndarray", name)),
    })
}

/// `x.name` for a NumPy scalar.
pub fn scalar_attribute(s: &NpScalar, name: &str) -> Result<Value> {
    Ok(match name {
        "dtype" => Value::NpDType(s.dtype),
        "shape" => Value::Tuple(Rc::from(Vec::new())),
        "ndim" => Value::Int(0),
        "size" => Value::Int(1),
        "itemsize" => Value::Int(s.dtype.itemsize() as i64),
        "real" => Value::NpScalar(*s),
        "T" => Value::NpScalar(*s),
        "item" | "tolist" | "astype" | "round" | "is_integer" => {
            Value::Method(Box::new(Value::NpScalar(*s)), Rc::from(name))
        }
        _ if ARRAY_METHODS.contains(&name) => {
            Value::Method(Box::new(Value::NpScalar(*s)), Rc::from(name))
        }
        _ => return Err(no_attribute(s.dtype.name(), name)),
    })
}

/// `d.name` for a dtype object.
pub fn dtype_attribute(d: NpDType, name: &str) -> Result<Value> {
    Ok(match name {
        "name" => Value::str(d.name()),
        "itemsize" => Value::Int(d.itemsize() as i64),
        "kind" => Value::str(match d.kind() {
            Kind::Bool => "b",
            Kind::Float => "f",
            Kind::Int if d == NpDType::UInt8 => "u",
            Kind::Int => "i",
        }),
        "type" => Value::NpType(d),
        _ => return Err(no_attribute("numpy.dtypes", name)),
    })
}

/// Calls a method of a NumPy scalar.
pub fn call_scalar(s: &NpScalar, name: &str, args: &Args) -> Result<Value> {
    match name {
        "item" | "tolist" => {
            Params::bind(name, &[], args)?;
            Ok(python(s.value))
        }
        "astype" => {
            let p = Params::bind(name, &["dtype"], args)?;
            let d = params::dtype(p.required("dtype")?)?;
            Ok(Value::NpScalar(NpScalar::new(d, s.value)))
        }
        "is_integer" => Ok(Value::Bool(s.value.as_f64().fract() == 0.0)),
        // The arrays' methods, on the scalar as a 0-d array (`x.mean()`, `x.reshape(-1)`).
        _ if ARRAY_METHODS.contains(&name) && name != "round" => {
            call(&super::scalar_array(s)?, name, args)
        }
        "round" => {
            let p = Params::bind(name, &["ndigits"], args)?;
            if p.get("ndigits").is_none() && s.dtype.is_float() {
                return Ok(Value::Int(s.value.as_f64().round_ties_even() as i64));
            }
            Err(PyException::unsupported("round(numpy scalar, ndigits)"))
        }
        _ => Err(no_attribute(s.dtype.name(), name)),
    }
}

/// Calls a method of an array.
pub fn call(a: &Rc<NdArray>, name: &str, args: &Args) -> Result<Value> {
    let session = a.session().clone();
    let this = Value::NdArray(a.clone());
    let bind = |names: &'static [&'static str]| Params::bind(name, names, args);
    let reduce_op = match name {
        "sum" => Some(Reduce::Sum),
        "prod" => Some(Reduce::Prod),
        "mean" => Some(Reduce::Mean),
        "max" => Some(Reduce::Max),
        "min" => Some(Reduce::Min),
        "argmax" => Some(Reduce::ArgMax),
        "argmin" => Some(Reduce::ArgMin),
        "any" => Some(Reduce::Any),
        "all" => Some(Reduce::All),
        "std" | "var" => {
            let p = bind(&["axis", "dtype", "out", "ddof", "keepdims"])?;
            let ddof = p.float("ddof", 0.0)?;
            let op = if name == "std" {
                Reduce::Std(ddof)
            } else {
                Reduce::Var(ddof)
            };
            return reduction(
                &session,
                op,
                &this,
                params::axis(p.get("axis"))?,
                p.flag("keepdims"),
                p.dtype("dtype")?,
            );
        }
        _ => None,
    };
    if let Some(op) = reduce_op {
        let p = bind(&["axis", "dtype", "out", "keepdims"])?;
        if p.get("out").is_some() {
            return Err(PyException::unsupported(&format!(
                "ndarray.{name}(out=...)"
            )));
        }
        return reduction(
            &session,
            op,
            &this,
            params::axis(p.get("axis"))?,
            p.flag("keepdims"),
            p.dtype("dtype")?,
        );
    }
    match name {
        "reshape" => {
            if !args.keywords.iter().all(|(k, _)| k == "order") {
                return Err(PyException::new(
                    ExcType::TypeError,
                    "reshape() got an unexpected keyword argument",
                ));
            }
            let spec = shape_spec(&args.positional)?;
            Ok(array_value(reshape(a, &spec)?))
        }
        "transpose" => Ok(array_value(transpose(a, &shape_spec(&args.positional)?)?)),
        "astype" => {
            let p = bind(&["dtype", "order", "casting", "subok", "copy"])?;
            let dtype = params::dtype(p.required("dtype")?)?;
            Ok(array_value(NdArray::from_data(
                &session,
                a.data()?,
                dtype,
                &a.shape,
            )?))
        }
        "copy" => {
            bind(&["order"])?;
            Ok(array_value(a.copy()?))
        }
        "flatten" => {
            bind(&["order"])?;
            Ok(array_value(reshape(&a.copy()?, &[-1])?))
        }
        "ravel" => {
            bind(&["order"])?;
            Ok(array_value(reshape(a, &[-1])?))
        }
        "tolist" => {
            bind(&[])?;
            tolist(a)
        }
        "item" => {
            let p = bind(&["index"])?;
            let flat = match p.get("index") {
                Some(i) => {
                    let i = params::int(i)?;
                    let n = a.size() as i64;
                    if i < -n || i >= n {
                        return Err(PyException::new(
                            ExcType::IndexError,
                            format!("index {i} is out of bounds for size {n}"),
                        ));
                    }
                    if i < 0 { i + n } else { i }
                }
                None if a.size() == 1 => 0,
                None => {
                    return Err(PyException::new(
                        ExcType::ValueError,
                        "can only convert an array of size 1 to a Python scalar",
                    ));
                }
            };
            Ok(python(a.scalar_at(flat as usize)?.value))
        }
        "dot" => {
            let p = bind(&["b", "out"])?;
            matmul(&session, &this, p.required("b")?, true)
        }
        "round" => {
            let p = bind(&["decimals", "out"])?;
            round(&session, &this, p.int("decimals")?.unwrap_or(0))
        }
        "squeeze" => {
            let p = bind(&["axis"])?;
            Ok(array_value(squeeze(a, params::axis(p.get("axis"))?)?))
        }
        "clip" | "argsort" | "cumsum" => {
            let mut forwarded = args.clone();
            forwarded.positional.insert(0, this);
            super::functions::call(&session, name, &forwarded)
        }
        "fill" => {
            let p = bind(&["value"])?;
            let v = super::convert::num_of(p.required("value")?).ok_or_else(|| {
                PyException::new(ExcType::TypeError, "fill value must be a number")
            })?;
            let one = match v {
                super::array::Num::Bool(b) => super::array::Data::Bool(vec![b]),
                super::array::Num::Int(i) => super::array::Data::Int(vec![i]),
                super::array::Num::Float(x) => super::array::Data::Float(vec![x]),
            };
            a.write_all(one)?;
            Ok(Value::None)
        }
        _ => Err(super::no_attribute("numpy.ndarray", name)),
    }
}
