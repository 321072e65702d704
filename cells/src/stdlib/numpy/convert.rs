//! Between the lab's values and arrays: `np.array(data)` from nested lists, tuples, numbers,
//! NumPy scalars, arrays and tensors (with NumPy's dtype discovery and its "inhomogeneous
//! shape" error), operands of ufuncs ([`Arg`]), results back to values (a 0-d result is a
//! NumPy scalar, as NumPy's ufuncs give), and `tolist()`.

use std::rc::Rc;

use tolab_engine::Session;

use super::array::{Data, NdArray, NpScalar, Num, Result};
use super::dtype::{Kind, NpDType};
use super::ufunc::{Arg, Out};
use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;

/// Elements gathered from Python data, with their shape and type.
pub struct Built {
    pub dtype: NpDType,
    pub shape: Vec<usize>,
    pub data: Data,
}

/// A Python number as an element.
pub fn num_of(v: &Value) -> Option<Num> {
    match v {
        Value::Bool(b) => Some(Num::Bool(*b)),
        Value::Int(i) => Some(Num::Int(*i)),
        Value::Float(x) => Some(Num::Float(*x)),
        Value::NpScalar(s) => Some(s.value),
        _ => None,
    }
}

struct Walk {
    shape: Vec<usize>,
    values: Vec<Num>,
    dtype: Option<NpDType>,
    ragged: Option<usize>,
}

impl Walk {
    fn found(&mut self, dtype: NpDType) {
        self.dtype = Some(self.dtype.map_or(dtype, |d| NpDType::promote(d, dtype)));
    }

    fn at_depth(&mut self, depth: usize, len: usize) {
        if self.shape.len() == depth && self.values.is_empty() {
            self.shape.push(len);
        } else if self.shape.get(depth) != Some(&len) {
            self.ragged = Some(self.ragged.map_or(depth, |r| r.min(depth)));
        }
    }

    fn visit(&mut self, v: &Value, depth: usize) -> Result<()> {
        match &*v.resolved() {
            Value::List(_) | Value::Tuple(_) => {
                let items = crate::python::operators::iterate(v)?;
                self.at_depth(depth, items.len());
                for item in &items {
                    self.visit(item, depth + 1)?;
                }
            }
            Value::NdArray(a) => self.visit_array(a, depth)?,
            Value::Tensor(t) => {
                let a = NdArray::over_tensor(&t.detach())?;
                self.visit_array(&a, depth)?;
            }
            Value::NpScalar(s) => {
                self.leaf(depth);
                self.found(s.dtype);
                self.values.push(s.value);
            }
            // NumPy makes an object array of them; the lab's arrays hold numbers only.
            Value::BigInt(_) => {
                return Err(PyException::unsupported(
                    "a NumPy array of ints past 64 bits (dtype=object)",
                ));
            }
            other => {
                let n = num_of(other).ok_or_else(|| {
                    PyException::new(
                        ExcType::TypeError,
                        format!(
                            "the lab's numpy holds numbers only, not '{}'",
                            other.type_name()
                        ),
                    )
                })?;
                self.leaf(depth);
                self.found(NpDType::default_for(n.kind()));
                self.values.push(n);
            }
        }
        Ok(())
    }

    fn leaf(&mut self, depth: usize) {
        if self.shape.len() > depth {
            self.ragged = Some(self.ragged.map_or(depth, |r| r.min(depth)));
        } else if self.shape.len() < depth {
            self.ragged = Some(
                self.ragged
                    .map_or(self.shape.len(), |r| r.min(self.shape.len())),
            );
        }
    }

    fn visit_array(&mut self, a: &NdArray, depth: usize) -> Result<()> {
        for (k, &n) in a.shape.iter().enumerate() {
            self.at_depth(depth + k, n);
        }
        if a.shape.is_empty() {
            self.leaf(depth);
        }
        self.found(a.dtype);
        let data = a.data()?;
        self.values.extend((0..data.len()).map(|i| data.get(i)));
        Ok(())
    }
}

/// `np.array(v, dtype=…)`'s elements.
pub fn array_from(v: &Value, dtype: Option<NpDType>) -> Result<Built> {
    let mut walk = Walk {
        shape: Vec::new(),
        values: Vec::new(),
        dtype: None,
        ragged: None,
    };
    walk.visit(v, 0)?;
    if let Some(depth) = walk.ragged {
        return Err(PyException::new(
            ExcType::ValueError,
            format!(
                "setting an array element with a sequence. The requested array has an inhomogeneous shape after {depth} dimensions. The detected shape was {} + inhomogeneous part.",
                super::format::shape_tuple(&walk.shape[..depth.min(walk.shape.len())])
            ),
        ));
    }
    let dtype = dtype.or(walk.dtype).unwrap_or(NpDType::Float64);
    let data = match dtype.kind() {
        Kind::Bool => Data::Bool(walk.values.iter().map(|v| v.truthy()).collect()),
        Kind::Int => {
            let (low, high) = dtype.int_range();
            let mut out = Vec::with_capacity(walk.values.len());
            for v in &walk.values {
                if let Num::Int(i) = v
                    && (*i < low || *i > high)
                {
                    return Err(PyException::new(
                        ExcType::OverflowError,
                        format!("Python integer {i} out of bounds for {}", dtype.name()),
                    ));
                }
                out.push(dtype.wrap_int(v.as_i64()));
            }
            Data::Int(out)
        }
        Kind::Float => Data::Float(
            walk.values
                .iter()
                .map(|v| dtype.round_float(v.as_f64()))
                .collect(),
        ),
    };
    Ok(Built {
        dtype,
        shape: walk.shape,
        data,
    })
}

/// A new array from Python data.
pub fn new_array(session: &Session, v: &Value, dtype: Option<NpDType>) -> Result<NdArray> {
    let built = array_from(v, dtype)?;
    NdArray::from_data(session, built.data, built.dtype, &built.shape)
}

/// A value as a ufunc operand: arrays and NumPy scalars as they are, Python numbers as weak
/// scalars, lists and tuples as new arrays, tensors through their memory.
pub fn arg_of(v: &Value) -> Result<Arg> {
    match &*v.resolved() {
        Value::NdArray(a) => Arg::array(a),
        Value::NpScalar(s) => Ok(Arg::scalar(*s)),
        Value::Bool(b) => Ok(Arg::weak(Num::Bool(*b))),
        Value::Int(i) => Ok(Arg::weak(Num::Int(*i))),
        Value::Float(x) => Ok(Arg::weak(Num::Float(*x))),
        Value::Tensor(t) => Arg::array(&super::bridge::tensor_array(t)?),
        other @ (Value::List(_) | Value::Tuple(_)) => {
            let built = array_from(other, None)?;
            Ok(Arg {
                dtype: built.dtype,
                weak: false,
                shape: built.shape,
                data: built.data,
            })
        }
        other => Err(PyException::new(
            ExcType::TypeError,
            format!(
                "unsupported operand type for numpy: '{}'",
                other.type_name()
            ),
        )),
    }
}

/// A result as a value: a NumPy scalar when it has no dimensions, else a new array.
pub fn wrap(session: &Session, out: Out) -> Result<Value> {
    if out.shape.is_empty() {
        return Ok(Value::NpScalar(NpScalar::new(out.dtype, out.data.get(0))));
    }
    Ok(Value::NdArray(Rc::new(NdArray::from_data(
        session, out.data, out.dtype, &out.shape,
    )?)))
}

/// A result as an array, even with no dimensions.
pub fn wrap_array(session: &Session, out: Out) -> Result<Value> {
    Ok(Value::NdArray(Rc::new(NdArray::from_data(
        session, out.data, out.dtype, &out.shape,
    )?)))
}

/// An element as a Python number (`item()`, `tolist()`).
pub fn python(n: Num) -> Value {
    match n {
        Num::Bool(b) => Value::Bool(b),
        Num::Int(i) => Value::Int(i),
        Num::Float(x) => Value::Float(x),
    }
}

/// `a.tolist()`: nested lists of Python numbers.
pub fn tolist(a: &NdArray) -> Result<Value> {
    let data = a.data()?;
    fn nest(data: &Data, shape: &[usize], start: usize) -> Value {
        match shape.split_first() {
            None => python(data.get(start)),
            Some((&n, rest)) => {
                let width: usize = rest.iter().product();
                Value::list(
                    (0..n)
                        .map(|i| nest(data, rest, start + i * width))
                        .collect(),
                )
            }
        }
    }
    Ok(nest(&data, &a.shape, 0))
}
