//! The functions of `numpy`: making arrays (`array`, `arange`, `linspace`, `zeros`, `eye`,
//! …), the ufuncs by name (`np.add(a, b, out=a)`, `np.sin`, `np.maximum`, …), reductions,
//! `where`, `clip`, `round`, comparisons of whole arrays (`allclose`, `array_equal`), sorting
//! and counting (`argsort`, `sort`, `unique`, `bincount`) and the print options.

use std::rc::Rc;

use tolab_engine::Session;

use super::array::{Data, NdArray, NpScalar, Num, Result};
use super::convert::{arg_of, array_from, new_array, wrap};
use super::dtype::{Kind, NpDType};
use super::params::{self, Params};
use super::reduce::{Reduce, normalize_axis, reduce};
use super::ufunc::{self, Arg, Binary, Out, Unary};
use crate::python::args::Args;
use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;

/// The functions of the `numpy` namespace.
pub const FUNCTIONS: &[&str] = &[
    "array",
    "asarray",
    "ascontiguousarray",
    "copy",
    "arange",
    "linspace",
    "zeros",
    "ones",
    "full",
    "empty",
    "eye",
    "identity",
    "zeros_like",
    "ones_like",
    "full_like",
    "empty_like",
    "add",
    "subtract",
    "multiply",
    "divide",
    "true_divide",
    "floor_divide",
    "mod",
    "remainder",
    "power",
    "maximum",
    "minimum",
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
    "logical_and",
    "logical_or",
    "logical_not",
    "negative",
    "abs",
    "absolute",
    "square",
    "sqrt",
    "exp",
    "log",
    "sin",
    "cos",
    "tanh",
    "floor",
    "ceil",
    "rint",
    "isnan",
    "sign",
    "round",
    "around",
    "sum",
    "prod",
    "mean",
    "std",
    "var",
    "max",
    "min",
    "amax",
    "amin",
    "argmax",
    "argmin",
    "any",
    "all",
    "cumsum",
    "dot",
    "matmul",
    "outer",
    "diag",
    "reshape",
    "transpose",
    "squeeze",
    "expand_dims",
    "ravel",
    "concatenate",
    "stack",
    "vstack",
    "hstack",
    "where",
    "nonzero",
    "clip",
    "allclose",
    "isclose",
    "array_equal",
    "argsort",
    "sort",
    "unique",
    "bincount",
    "shares_memory",
    "may_share_memory",
    "set_printoptions",
    "get_printoptions",
    "dtype",
    "shape",
    "ndim",
    "size",
    "count_nonzero",
];

/// A new array value.
pub fn array_value(array: NdArray) -> Value {
    Value::NdArray(Rc::new(array))
}

fn binary_op(name: &str) -> Option<Binary> {
    Some(match name {
        "add" => Binary::Add,
        "subtract" => Binary::Sub,
        "multiply" => Binary::Mul,
        "divide" | "true_divide" => Binary::TrueDiv,
        "floor_divide" => Binary::FloorDiv,
        "mod" | "remainder" => Binary::Mod,
        "power" => Binary::Pow,
        "maximum" => Binary::Maximum,
        "minimum" => Binary::Minimum,
        "equal" => Binary::Eq,
        "not_equal" => Binary::Ne,
        "less" => Binary::Lt,
        "less_equal" => Binary::Le,
        "greater" => Binary::Gt,
        "greater_equal" => Binary::Ge,
        _ => return None,
    })
}

fn unary_op(name: &str) -> Option<Unary> {
    Some(match name {
        "negative" => Unary::Negative,
        "abs" | "absolute" => Unary::Absolute,
        "square" => Unary::Square,
        "sqrt" => Unary::Sqrt,
        "exp" => Unary::Exp,
        "log" => Unary::Log,
        "sin" => Unary::Sin,
        "cos" => Unary::Cos,
        "tanh" => Unary::Tanh,
        "floor" => Unary::Floor,
        "ceil" => Unary::Ceil,
        "rint" => Unary::Rint,
        "isnan" => Unary::IsNan,
        "sign" => Unary::Sign,
        "logical_not" => Unary::Invert,
        _ => return None,
    })
}

/// A ufunc's result, written into `out=` when given (and returned as that array).
fn finish(session: &Session, result: Out, out: Option<&Value>) -> Result<Value> {
    match out {
        None => wrap(session, result),
        Some(Value::NdArray(target)) => {
            let shape = result.shape.clone();
            super::index::assign(
                target,
                &Value::Tuple(Rc::from(Vec::new())),
                result.data,
                &shape,
            )?;
            Ok(Value::NdArray(target.clone()))
        }
        Some(other) => Err(PyException::new(
            ExcType::TypeError,
            format!(
                "return arrays must be of ArrayType, not {}",
                other.type_name()
            ),
        )),
    }
}

/// An operand as an array (lists and numbers become new ones).
pub fn as_array(session: &Session, v: &Value) -> Result<Rc<NdArray>> {
    match &*v.resolved() {
        Value::NdArray(a) => Ok(a.clone()),
        Value::Tensor(t) => Ok(Rc::new(super::bridge::tensor_array(t)?)),
        other => Ok(Rc::new(new_array(session, other, None)?)),
    }
}

/// `op` over `v` along `axis`, as `np.sum(v, axis=…)` and `v.sum(axis=…)` run it.
pub fn reduction(
    session: &Session,
    op: Reduce,
    v: &Value,
    axis: Option<i64>,
    keepdims: bool,
    dtype: Option<NpDType>,
) -> Result<Value> {
    let mut arg = arg_of(v)?;
    // A 0-d array: `argmax` sees it as one element along axis 0; the ufunc reductions take
    // axis 0 or -1 as that element; `mean`, `var` and `std` take no axis (NumPy's rules).
    if arg.shape.is_empty()
        && let Some(x) = axis
    {
        let as_row = match op {
            Reduce::ArgMax | Reduce::ArgMin => true,
            Reduce::Mean | Reduce::Var(_) | Reduce::Std(_) => false,
            _ => x == 0 || x == -1,
        };
        if as_row {
            arg.shape = vec![1];
        }
    }
    let axis = axis
        .map(|a| normalize_axis(a, arg.shape.len()))
        .transpose()?;
    let mut data = arg.data;
    let mut source = arg.dtype;
    if let Some(d) = dtype {
        data = data.cast(d);
        source = d;
    }
    let out = reduce(op, source, &arg.shape, &data, axis, keepdims)?;
    wrap(session, out)
}

/// `np.round(a, decimals)`: `rint(a * 10**d) / 10**d` in the array's own type.
pub fn round(session: &Session, v: &Value, decimals: i64) -> Result<Value> {
    let arg = arg_of(v)?;
    let dtype = if arg.weak {
        NpDType::default_for(arg.data.get(0).kind())
    } else {
        arg.dtype
    };
    // Bools round as float16 (NumPy's `rint` of a bool), and refuse decimals.
    if dtype == NpDType::Bool {
        if decimals != 0 {
            return Err(PyException::new(
                ExcType::Other("numpy._core._exceptions._UFuncOutputCastingError".into()),
                "Cannot cast ufunc 'multiply' output from dtype('float64') to dtype('bool') with casting rule 'same_kind'",
            ));
        }
        let out = ufunc::unary(Unary::Rint, &arg)?;
        return wrap(session, out);
    }
    let out = match (dtype.kind(), &arg.data) {
        (Kind::Float, data) => {
            let values = data.floats();
            let factor = dtype.round_float(10f64.powi(decimals.unsigned_abs().min(400) as i32));
            let rounded = values
                .iter()
                .map(|&x| {
                    if decimals >= 0 {
                        let y = dtype.round_float(x * factor).round_ties_even();
                        dtype.round_float(y / factor)
                    } else {
                        let y = dtype.round_float(x / factor).round_ties_even();
                        dtype.round_float(y * factor)
                    }
                })
                .collect();
            Data::Float(rounded)
        }
        (_, data) if decimals >= 0 => data.clone(),
        (_, data) => {
            let factor = 10i64.saturating_pow(decimals.unsigned_abs().min(19) as u32);
            Data::Int(
                (0..data.len())
                    .map(|i| {
                        let v = data.get(i).as_i64();
                        let q = v.div_euclid(factor);
                        let r = v.rem_euclid(factor);
                        // Twice the remainder can pass i64 when the factor is near its top.
                        let (twice, wide) = (i128::from(r) * 2, i128::from(factor));
                        let up = twice > wide || (twice == wide && q % 2 != 0);
                        (q + i64::from(up)).wrapping_mul(factor)
                    })
                    .collect(),
            )
        }
    };
    let dtype = if dtype == NpDType::Bool && decimals >= 0 {
        NpDType::Bool
    } else if dtype == NpDType::Bool {
        NpDType::Int64
    } else {
        dtype
    };
    wrap(
        session,
        Out {
            dtype,
            shape: arg.shape,
            data: out,
        },
    )
}

/// `np.arange(start, stop, step, dtype=…)`: `start + i * delta`, as NumPy fills it.
fn arange(session: &Session, p: &Params) -> Result<Value> {
    let first = p.required("start")?.clone();
    let (start, stop) = match p.get("stop") {
        Some(stop) => (first, stop.clone()),
        None => (Value::Int(0), first),
    };
    let step = p.get("step").cloned().unwrap_or(Value::Int(1));
    let nums: Vec<Num> = [&start, &stop, &step]
        .iter()
        .map(|v| {
            super::convert::num_of(v).ok_or_else(|| {
                PyException::new(
                    ExcType::TypeError,
                    format!("unsupported operand type for arange: '{}'", v.type_name()),
                )
            })
        })
        .collect::<Result<_>>()?;
    let floats = nums.iter().any(|n| n.kind() == Kind::Float);
    let dtype = p.dtype("dtype")?.unwrap_or(if floats {
        NpDType::Float64
    } else {
        NpDType::Int64
    });
    let (a, b, s) = (nums[0].as_f64(), nums[1].as_f64(), nums[2].as_f64());
    if s == 0.0 {
        return Err(PyException::new(
            ExcType::ZeroDivisionError,
            "division by zero",
        ));
    }
    let delta = (a + s) - a;
    let len = ((b - a) / delta).ceil();
    let len = if len.is_nan() || len <= 0.0 {
        0
    } else {
        len as usize
    };
    super::array::checked_size(&[len])?;
    let data = if dtype.is_float() || floats {
        Data::Float(
            (0..len)
                .map(|i| if i == 0 { a } else { a + i as f64 * delta })
                .collect(),
        )
    } else {
        let (a, s) = (nums[0].as_i64(), nums[2].as_i64());
        Data::Int(
            (0..len)
                .map(|i| a.wrapping_add((i as i64).wrapping_mul(s)))
                .collect(),
        )
    };
    Ok(array_value(NdArray::from_data(
        session,
        data,
        dtype,
        &[len],
    )?))
}

/// `np.linspace(start, stop, num=50, endpoint=True)`: `i * step + start`, the end exact.
fn linspace(session: &Session, p: &Params) -> Result<Value> {
    let start = params::number(p.required("start")?)?;
    let stop = params::number(p.required("stop")?)?;
    let num = p.int("num")?.unwrap_or(50);
    let num = usize::try_from(num).map_err(|_| {
        PyException::new(
            ExcType::ValueError,
            format!("Number of samples, {num}, must be non-negative."),
        )
    })?;
    super::array::checked_size(&[num])?;
    let endpoint = p.get("endpoint").is_none_or(Value::truthy);
    let div = if endpoint { num.saturating_sub(1) } else { num };
    let delta = stop - start;
    let mut values: Vec<f64> = (0..num).map(|i| i as f64).collect();
    if div > 0 {
        let step = delta / div as f64;
        if step == 0.0 {
            for v in &mut values {
                *v = *v / div as f64 * delta + start;
            }
        } else {
            for v in &mut values {
                *v = *v * step + start;
            }
        }
    } else {
        for v in &mut values {
            *v = *v * delta + start;
        }
    }
    if endpoint && num > 1 {
        values[num - 1] = stop;
    }
    let dtype = p.dtype("dtype")?.unwrap_or(NpDType::Float64);
    let data = Data::Float(values);
    let data = if dtype.is_float() {
        data
    } else {
        Data::Float(data.floats().iter().map(|x| x.floor()).collect())
    };
    Ok(array_value(NdArray::from_data(
        session,
        data,
        dtype,
        &[num],
    )?))
}

/// An array of `shape` with every element `value`.
pub fn filled(session: &Session, shape: &[usize], dtype: NpDType, value: Num) -> Result<Value> {
    let n = super::array::checked_size(shape)?;
    let data = match value.cast(dtype) {
        Num::Bool(b) => Data::Bool(vec![b; n]),
        Num::Int(i) => Data::Int(vec![i; n]),
        Num::Float(x) => Data::Float(vec![x; n]),
    };
    Ok(array_value(NdArray::from_data(
        session, data, dtype, shape,
    )?))
}

/// `np.eye(N, M=None, k=0, dtype=float)`.
fn eye(session: &Session, p: &Params) -> Result<Value> {
    let first =
        |v: &Value| -> Result<usize> { Ok(params::shape(v)?.first().copied().unwrap_or(0)) };
    let n = first(p.required("N")?)?;
    let m = match p.get("M") {
        Some(m) => first(m)?,
        None => n,
    };
    let k = p.int("k")?.unwrap_or(0);
    let dtype = p.dtype("dtype")?.unwrap_or(NpDType::Float64);
    let size = super::array::checked_size(&[n, m])?;
    let mut values = vec![0i64; size];
    for i in 0..n {
        let j = (i as i64).saturating_add(k);
        if j >= 0 && (j as u64) < m as u64 {
            values[i * m + j as usize] = 1;
        }
    }
    Ok(array_value(NdArray::from_data(
        session,
        Data::Int(values),
        dtype,
        &[n, m],
    )?))
}

/// `np.zeros_like(a)` and its kin.
fn like(session: &Session, name: &str, p: &Params) -> Result<Value> {
    let a = as_array(session, p.required("a")?)?;
    let dtype = p.dtype("dtype")?.unwrap_or(a.dtype);
    let value = match name {
        "ones_like" => Num::Int(1),
        "full_like" => super::convert::num_of(p.required("fill_value")?).unwrap_or(Num::Int(0)),
        _ => Num::Int(0),
    };
    filled(session, &a.shape, dtype, value)
}

/// Calls `numpy.name(...)`.
pub fn call(session: &Session, name: &str, args: &Args) -> Result<Value> {
    let bind = |names: &'static [&'static str]| Params::bind(name, names, args);
    if let Some(op) = binary_op(name) {
        let p = bind(&["x1", "x2", "out"])?;
        let result = ufunc::binary(op, &arg_of(p.required("x1")?)?, &arg_of(p.required("x2")?)?)?;
        return finish(session, result, p.get("out"));
    }
    if let Some(op) = unary_op(name) {
        let p = bind(&["x", "out"])?;
        let result = ufunc::unary(op, &arg_of(p.required("x")?)?)?;
        return finish(session, result, p.get("out"));
    }
    if let Some(op) = reduce_op(name) {
        let p = bind(&["a", "axis", "dtype", "out", "keepdims", "ddof"])?;
        let op = match op {
            Reduce::Var(_) => Reduce::Var(p.float("ddof", 0.0)?),
            Reduce::Std(_) => Reduce::Std(p.float("ddof", 0.0)?),
            other => other,
        };
        if p.get("out").is_some() {
            return Err(PyException::unsupported(&format!("np.{name}(out=...)")));
        }
        return reduction(
            session,
            op,
            p.required("a")?,
            params::axis(p.get("axis"))?,
            p.flag("keepdims"),
            p.dtype("dtype")?,
        );
    }
    match name {
        "array" | "asarray" | "ascontiguousarray" | "copy" => {
            let p = bind(&["object", "dtype", "copy"])?;
            let object = p.required("object")?;
            let dtype = p.dtype("dtype")?;
            let shares = name == "asarray" || name == "ascontiguousarray";
            if let Value::Tensor(t) = &*object.resolved() {
                let a = super::bridge::tensor_array(t)?;
                if shares && dtype.is_none_or(|d| d == a.dtype) {
                    return Ok(array_value(a));
                }
                let data = a.data()?;
                let dtype = dtype.unwrap_or(a.dtype);
                return Ok(array_value(NdArray::from_data(
                    session, data, dtype, &a.shape,
                )?));
            }
            if let Value::NdArray(a) = object
                && dtype.is_none_or(|d| d == a.dtype)
                && (name == "asarray" || (name == "ascontiguousarray" && a.is_c_contiguous()))
            {
                return Ok(object.clone());
            }
            Ok(array_value(new_array(session, object, dtype)?))
        }
        "arange" => arange(session, &bind(&["start", "stop", "step", "dtype"])?),
        "linspace" => linspace(
            session,
            &bind(&["start", "stop", "num", "endpoint", "retstep", "dtype"])?,
        ),
        "zeros" | "ones" | "empty" => {
            let p = bind(&["shape", "dtype", "order"])?;
            let shape = params::shape(p.required("shape")?)?;
            let dtype = p.dtype("dtype")?.unwrap_or(NpDType::Float64);
            let value = Num::Int(i64::from(name == "ones"));
            filled(session, &shape, dtype, value)
        }
        "full" => {
            let p = bind(&["shape", "fill_value", "dtype", "order"])?;
            let shape = params::shape(p.required("shape")?)?;
            let fill = p.required("fill_value")?;
            let value = super::convert::num_of(fill).ok_or_else(|| {
                PyException::new(ExcType::TypeError, "fill_value must be a number")
            })?;
            let inferred = match fill {
                Value::NpScalar(s) => s.dtype,
                _ => NpDType::default_for(value.kind()),
            };
            filled(
                session,
                &shape,
                p.dtype("dtype")?.unwrap_or(inferred),
                value,
            )
        }
        "eye" => eye(session, &bind(&["N", "M", "k", "dtype"])?),
        "identity" => eye(session, &bind(&["N", "dtype"])?),
        "zeros_like" | "ones_like" | "empty_like" => like(session, name, &bind(&["a", "dtype"])?),
        "full_like" => like(session, name, &bind(&["a", "fill_value", "dtype"])?),
        "logical_and" | "logical_or" => {
            let p = bind(&["x1", "x2"])?;
            let truth = |v: &Value| -> Result<Arg> {
                let mut a = arg_of(v)?;
                a.data = a.data.cast(NpDType::Bool);
                a.dtype = NpDType::Bool;
                Ok(a)
            };
            let op = if name == "logical_and" {
                Binary::And
            } else {
                Binary::Or
            };
            let result = ufunc::binary(op, &truth(p.required("x1")?)?, &truth(p.required("x2")?)?)?;
            wrap(session, result)
        }
        "round" | "around" => {
            let p = bind(&["a", "decimals", "out"])?;
            round(session, p.required("a")?, p.int("decimals")?.unwrap_or(0))
        }
        "cumsum" => {
            let p = bind(&["a", "axis", "dtype", "out"])?;
            let mut arg = arg_of(p.required("a")?)?;
            let axis = params::axis(p.get("axis"))?;
            if arg.shape.is_empty() && axis.is_some() {
                arg.shape = vec![1];
            }
            let axis = axis
                .map(|a| normalize_axis(a, arg.shape.len()))
                .transpose()?;
            let out = super::reduce::cumsum(arg.dtype, &arg.shape, &arg.data, axis);
            super::convert::wrap_array(session, out)
        }
        "set_printoptions" => {
            let p = bind(&[
                "precision",
                "threshold",
                "edgeitems",
                "linewidth",
                "suppress",
                "nanstr",
                "infstr",
                "formatter",
                "sign",
                "floatmode",
                "legacy",
            ])?;
            let mut options = super::format::options();
            let count = |name: &str| -> Result<Option<usize>> {
                p.int(name)?
                    .map(|n| {
                        usize::try_from(n).map_err(|_| {
                            PyException::new(ExcType::ValueError, format!("{name} must be >= 0"))
                        })
                    })
                    .transpose()
            };
            if let Some(n) = count("precision")? {
                options.precision = n;
            }
            if let Some(n) = count("threshold")? {
                options.threshold = n;
            }
            if let Some(n) = count("edgeitems")? {
                options.edgeitems = n;
            }
            if let Some(n) = count("linewidth")? {
                options.linewidth = n;
            }
            if let Some(v) = p.get("suppress") {
                options.suppress = v.truthy();
            }
            for unread in [
                "nanstr",
                "infstr",
                "formatter",
                "sign",
                "floatmode",
                "legacy",
            ] {
                if p.get(unread).is_some() {
                    return Err(PyException::unsupported(&format!(
                        "np.set_printoptions({unread}=...)"
                    )));
                }
            }
            super::format::set_options(options);
            Ok(Value::None)
        }
        "get_printoptions" => {
            bind(&[])?;
            let o = super::format::options();
            let entry = |k: &str, v: Value| (Value::str(k), v);
            Ok(Value::Dict(Rc::new(std::cell::RefCell::new(vec![
                entry("edgeitems", Value::Int(o.edgeitems as i64)),
                entry("threshold", Value::Int(o.threshold as i64)),
                entry("linewidth", Value::Int(o.linewidth as i64)),
                entry("precision", Value::Int(o.precision as i64)),
                entry("suppress", Value::Bool(o.suppress)),
            ]))))
        }
        "dtype" => {
            let p = bind(&["dtype"])?;
            Ok(Value::NpDType(params::dtype(p.required("dtype")?)?))
        }
        "shape" | "ndim" | "size" => {
            let p = bind(&["a"])?;
            let arg = arg_of(p.required("a")?)?;
            Ok(match name {
                "shape" => Value::Tuple(arg.shape.iter().map(|&n| Value::Int(n as i64)).collect()),
                "ndim" => Value::Int(arg.shape.len() as i64),
                _ => Value::Int(arg.size() as i64),
            })
        }
        "count_nonzero" => {
            let p = bind(&["a"])?;
            let arg = arg_of(p.required("a")?)?;
            let n = (0..arg.data.len())
                .filter(|&i| arg.data.get(i).truthy())
                .count();
            Ok(Value::Int(n as i64))
        }
        _ => super::shapes::call(session, name, args),
    }
}

fn reduce_op(name: &str) -> Option<Reduce> {
    Some(match name {
        "sum" => Reduce::Sum,
        "prod" => Reduce::Prod,
        "mean" => Reduce::Mean,
        "var" => Reduce::Var(0.0),
        "std" => Reduce::Std(0.0),
        "max" | "amax" => Reduce::Max,
        "min" | "amin" => Reduce::Min,
        "argmax" => Reduce::ArgMax,
        "argmin" => Reduce::ArgMin,
        "any" => Reduce::Any,
        "all" => Reduce::All,
        _ => return None,
    })
}

/// `np.float32(x)` and its kin: a NumPy scalar (or an array, from a sequence).
pub fn make_scalar(session: &Session, dtype: NpDType, args: &Args) -> Result<Value> {
    let p = Params::bind(dtype.name(), &["value"], args)?;
    let Some(v) = p.get("value") else {
        return Ok(Value::NpScalar(NpScalar::new(dtype, Num::Int(0))));
    };
    if let Some(n) = super::convert::num_of(v) {
        return Ok(Value::NpScalar(NpScalar::new(dtype, n)));
    }
    if let Value::Str(s) = v {
        let n = s.trim().parse::<f64>().map_err(|_| {
            PyException::new(
                ExcType::ValueError,
                format!("could not convert string to {}: {}", dtype.name(), v.repr()),
            )
        })?;
        return Ok(Value::NpScalar(NpScalar::new(dtype, Num::Float(n))));
    }
    let built = array_from(v, Some(dtype))?;
    Ok(array_value(NdArray::from_data(
        session,
        built.data,
        dtype,
        &built.shape,
    )?))
}
