//! Shape and structure, by name (`np.reshape`, `np.transpose`, `np.squeeze`, `np.expand_dims`,
//! `np.ravel`: the views themselves are [`super::views`]'s), joining (`concatenate`, `stack`, `vstack`, `hstack`), products
//! (`dot`, `matmul`, `outer`, `diag`), selection (`where`, `nonzero`, `clip`), whole-array
//! comparisons (`allclose`, `isclose`, `array_equal`) and sorting and counting (`argsort`,
//! `sort`, `unique`, `bincount`).

use std::rc::Rc;

use tolab_engine::Session;

use super::array::{Data, NdArray, Num, Result};
use super::convert::{arg_of, wrap};
use super::dtype::{Kind, NpDType};
use super::format::shape_text;
use super::functions::{array_value, as_array};
use super::params::{self, Params};
use super::reduce::normalize_axis;
use super::ufunc::{self, Arg, Binary, Out, broadcast_index, broadcast_shapes, result_type};
use super::views::{reshape, shape_spec, squeeze, transpose};
use crate::python::args::Args;
use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;

/// Products of two operands: `dot` and `matmul` (`@`) for 1-D and 2-D operands.
pub fn matmul(session: &Session, a: &Value, b: &Value, dot: bool) -> Result<Value> {
    let (x, y) = (arg_of(a)?, arg_of(b)?);
    if x.shape.is_empty() || y.shape.is_empty() {
        if !dot {
            result_type(&[&x, &y])?;
            let operand = usize::from(!x.shape.is_empty());
            return Err(PyException::new(
                ExcType::ValueError,
                format!(
                    "matmul: Input operand {operand} does not have enough dimensions (has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)"
                ),
            ));
        }
        return wrap(session, ufunc::binary(Binary::Mul, &x, &y)?);
    }
    if x.shape.len() > 2 || y.shape.len() > 2 {
        return Err(PyException::unsupported(
            "matmul of arrays with more than 2 dimensions",
        ));
    }
    let dtype = result_type(&[&x, &y])?;
    let (n, k) = if x.shape.len() == 2 {
        (x.shape[0], x.shape[1])
    } else {
        (1, x.shape[0])
    };
    let (k2, m) = if y.shape.len() == 2 {
        (y.shape[0], y.shape[1])
    } else {
        (y.shape[0], 1)
    };
    if k != k2 {
        let message = if dot {
            format!(
                "shapes {} and {} not aligned: {k} (dim {}) != {k2} (dim 0)",
                shape_text(&x.shape),
                shape_text(&y.shape),
                x.shape.len() - 1
            )
        } else {
            format!(
                "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size {k2} is different from {k})"
            )
        };
        return Err(PyException::new(ExcType::ValueError, message));
    }
    super::array::checked_size(&[n, m])?;
    let mut shape = Vec::new();
    if x.shape.len() == 2 {
        shape.push(n);
    }
    if y.shape.len() == 2 {
        shape.push(m);
    }
    let data = match dtype.kind() {
        Kind::Float => {
            let (p, q) = (x.data.cast(dtype).floats(), y.data.cast(dtype).floats());
            let mut out = vec![0.0; n * m];
            for i in 0..n {
                for j in 0..m {
                    let mut acc = 0.0;
                    for l in 0..k {
                        acc =
                            dtype.round_float(acc + dtype.round_float(p[i * k + l] * q[l * m + j]));
                    }
                    out[i * m + j] = acc;
                }
            }
            Data::Float(out)
        }
        Kind::Int => {
            let ints = |d: Data| -> Vec<i64> { (0..d.len()).map(|i| d.get(i).as_i64()).collect() };
            let (p, q) = (ints(x.data), ints(y.data));
            let mut out = vec![0i64; n * m];
            for i in 0..n {
                for j in 0..m {
                    let mut acc = 0i64;
                    for l in 0..k {
                        acc = acc.wrapping_add(p[i * k + l].wrapping_mul(q[l * m + j]));
                    }
                    out[i * m + j] = dtype.wrap_int(acc);
                }
            }
            Data::Int(out)
        }
        Kind::Bool => {
            let mut out = vec![false; n * m];
            for i in 0..n {
                for j in 0..m {
                    out[i * m + j] = (0..k)
                        .any(|l| x.data.get(i * k + l).truthy() && y.data.get(l * m + j).truthy());
                }
            }
            Data::Bool(out)
        }
    };
    wrap(session, Out { dtype, shape, data })
}

/// Joins arrays along an existing axis (`stack`: along a new one).
fn join(session: &Session, items: &[Value], axis: i64, new_axis: bool) -> Result<Value> {
    if items.is_empty() {
        return Err(PyException::new(
            ExcType::ValueError,
            "need at least one array to concatenate",
        ));
    }
    let args: Vec<Arg> = items.iter().map(arg_of).collect::<Result<_>>()?;
    let dtype = args
        .iter()
        .map(|a| a.dtype)
        .reduce(NpDType::promote)
        .unwrap_or(NpDType::Float64);
    let mut shapes: Vec<Vec<usize>> = args.iter().map(|a| a.shape.clone()).collect();
    let ndim = shapes[0].len() + usize::from(new_axis);
    let axis = normalize_axis(axis, ndim.max(1))?;
    if new_axis {
        if shapes.iter().any(|s| *s != shapes[0]) {
            return Err(PyException::new(
                ExcType::ValueError,
                "all input arrays must have the same shape",
            ));
        }
        for s in &mut shapes {
            s.insert(axis, 1);
        }
    } else if shapes[0].is_empty() {
        return Err(PyException::new(
            ExcType::ValueError,
            "zero-dimensional arrays cannot be concatenated",
        ));
    }
    for (i, s) in shapes.iter().enumerate() {
        if s.len() != shapes[0].len() {
            return Err(PyException::new(
                ExcType::ValueError,
                format!(
                    "all the input array dimensions except for the concatenation axis must match exactly, but along dimension 0, the array at index 0 has {} dimension(s) and the array at index {i} has {} dimension(s)",
                    shapes[0].len(),
                    s.len()
                ),
            ));
        }
        for d in 0..s.len() {
            if d != axis && s[d] != shapes[0][d] {
                return Err(PyException::new(
                    ExcType::ValueError,
                    format!(
                        "all the input array dimensions except for the concatenation axis must match exactly, but along dimension {d}, the array at index 0 has size {} and the array at index {i} has size {}",
                        shapes[0][d], s[d]
                    ),
                ));
            }
        }
    }
    let mut shape = shapes[0].clone();
    shape[axis] = shapes.iter().map(|s| s[axis]).sum();
    let outer: usize = shape[..axis].iter().product();
    let mut values: Vec<Num> = Vec::with_capacity(shape.iter().product());
    for o in 0..outer {
        for (arg, s) in args.iter().zip(&shapes) {
            let chunk: usize = s[axis..].iter().product();
            for i in o * chunk..(o + 1) * chunk {
                values.push(arg.data.get(i).cast(dtype));
            }
        }
    }
    let data = collect(dtype, &values);
    Ok(array_value(NdArray::from_data(
        session, data, dtype, &shape,
    )?))
}

fn collect(dtype: NpDType, values: &[Num]) -> Data {
    match dtype.kind() {
        Kind::Float => Data::Float(values.iter().map(|v| v.as_f64()).collect()),
        Kind::Int => Data::Int(values.iter().map(|v| v.as_i64()).collect()),
        Kind::Bool => Data::Bool(values.iter().map(|v| v.truthy()).collect()),
    }
}

/// Sorted order of `values` (stable, NaN last), as `argsort` along the last axis.
fn order_of(values: &[Num]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&i, &j| {
        let (a, b) = (values[i].as_f64(), values[j].as_f64());
        match (a.is_nan(), b.is_nan()) {
            (true, true) => std::cmp::Ordering::Equal,
            (true, false) => std::cmp::Ordering::Greater,
            (false, true) => std::cmp::Ordering::Less,
            _ => match (values[i], values[j]) {
                (Num::Int(x), Num::Int(y)) => x.cmp(&y),
                _ => a.total_cmp(&b),
            },
        }
    });
    order
}

/// `argsort` (`indices`) or `sort` along `axis`.
fn sorted(session: &Session, v: &Value, axis: Option<i64>, indices: bool) -> Result<Value> {
    let mut arg = arg_of(v)?;
    // `argsort` sees a 0-d array as one element; `sort` refuses it.
    if arg.shape.is_empty() && indices {
        arg.shape = vec![1];
    }
    let (shape, axis) = match axis {
        None => (vec![arg.size()], 0),
        Some(x) => (arg.shape.clone(), normalize_axis(x, arg.shape.len())?),
    };
    let n = shape.get(axis).copied().unwrap_or(1);
    let inner: usize = shape[axis + 1..].iter().product();
    let outer: usize = shape[..axis].iter().product();
    let mut out: Vec<Num> = vec![Num::Int(0); arg.size()];
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| (o * n + k) * inner + i;
            let line: Vec<Num> = (0..n).map(|k| arg.data.get(at(k))).collect();
            for (k, &j) in order_of(&line).iter().enumerate() {
                out[at(k)] = if indices { Num::Int(j as i64) } else { line[j] };
            }
        }
    }
    let dtype = if indices { NpDType::Int64 } else { arg.dtype };
    let data = collect(dtype, &out);
    Ok(array_value(NdArray::from_data(
        session, data, dtype, &shape,
    )?))
}

/// `isclose` of every pair, broadcast.
fn close(
    a: &Arg,
    b: &Arg,
    rtol: f64,
    atol: f64,
    equal_nan: bool,
) -> Result<(Vec<usize>, Vec<bool>)> {
    let shape = broadcast_shapes(&[&a.shape, &b.shape])?;
    let (x, y) = (a.data.floats(), b.data.floats());
    let (ix, iy) = (
        broadcast_index(&a.shape, &shape),
        broadcast_index(&b.shape, &shape),
    );
    let result = ix
        .iter()
        .zip(&iy)
        .map(|(&i, &j)| {
            let (p, q) = (x[i], y[j]);
            if p.is_nan() || q.is_nan() {
                equal_nan && p.is_nan() && q.is_nan()
            } else if p.is_infinite() || q.is_infinite() {
                p == q
            } else {
                (p - q).abs() <= atol + rtol * q.abs()
            }
        })
        .collect();
    Ok((shape, result))
}

/// Calls the `numpy` functions of this file.
pub fn call(session: &Session, name: &str, args: &Args) -> Result<Value> {
    let bind = |names: &'static [&'static str]| Params::bind(name, names, args);
    let sequence = |v: &Value| crate::python::operators::iterate(v);
    match name {
        "dot" | "matmul" => {
            let p = bind(&["a", "b", "out"])?;
            matmul(session, p.required("a")?, p.required("b")?, name == "dot")
        }
        "outer" => {
            let p = bind(&["a", "b"])?;
            let (mut x, mut y) = (arg_of(p.required("a")?)?, arg_of(p.required("b")?)?);
            x.shape = vec![x.size(), 1];
            y.shape = vec![1, y.size()];
            wrap(session, ufunc::binary(Binary::Mul, &x, &y)?)
        }
        "diag" => {
            let p = bind(&["v", "k"])?;
            let arg = arg_of(p.required("v")?)?;
            let k = p.int("k")?.unwrap_or(0);
            match arg.shape.as_slice() {
                [n] => {
                    let size = usize::try_from(k.unsigned_abs())
                        .ok()
                        .and_then(|k| n.checked_add(k))
                        .unwrap_or(usize::MAX);
                    super::array::checked_size(&[size, size])?;
                    let mut values = vec![Num::Int(0).cast(arg.dtype); size * size];
                    for i in 0..*n {
                        let (r, c) = if k >= 0 {
                            (i, i + k as usize)
                        } else {
                            (i + k.unsigned_abs() as usize, i)
                        };
                        values[r * size + c] = arg.data.get(i);
                    }
                    let data = collect(arg.dtype, &values);
                    Ok(array_value(NdArray::from_data(
                        session,
                        data,
                        arg.dtype,
                        &[size, size],
                    )?))
                }
                [r, c] => {
                    let values: Vec<Num> = (0..*r)
                        .filter_map(|i| {
                            let j = (i as i64).saturating_add(k);
                            (j >= 0 && (j as u64) < *c as u64)
                                .then(|| arg.data.get(i * c + j as usize))
                        })
                        .collect();
                    let data = collect(arg.dtype, &values);
                    Ok(array_value(NdArray::from_data(
                        session,
                        data,
                        arg.dtype,
                        &[values.len()],
                    )?))
                }
                _ => Err(PyException::new(
                    ExcType::ValueError,
                    "Input must be 1- or 2-d.",
                )),
            }
        }
        "reshape" => {
            let p = bind(&["a", "shape", "order"])?;
            let a = as_array(session, p.required("a")?)?;
            let spec = shape_spec(std::slice::from_ref(p.required("shape")?))?;
            Ok(array_value(reshape(&a, &spec)?))
        }
        "transpose" => {
            let p = bind(&["a", "axes"])?;
            let a = as_array(session, p.required("a")?)?;
            let axes = match p.get("axes") {
                Some(v) => shape_spec(std::slice::from_ref(v))?,
                None => Vec::new(),
            };
            Ok(array_value(transpose(&a, &axes)?))
        }
        "squeeze" => {
            let p = bind(&["a", "axis"])?;
            let a = as_array(session, p.required("a")?)?;
            Ok(array_value(squeeze(&a, params::axis(p.get("axis"))?)?))
        }
        "expand_dims" => {
            let p = bind(&["a", "axis"])?;
            let a = as_array(session, p.required("a")?)?;
            let axis = normalize_axis(params::int(p.required("axis")?)?, a.ndim() + 1)?;
            let (mut shape, mut strides) = (a.shape.clone(), a.strides.clone());
            shape.insert(axis, 1);
            strides.insert(axis, 0);
            Ok(array_value(a.view(shape, strides, a.offset)))
        }
        "ravel" => {
            let p = bind(&["a", "order"])?;
            let a = as_array(session, p.required("a")?)?;
            Ok(array_value(reshape(&a, &[-1])?))
        }
        "concatenate" => {
            let p = bind(&["arrays", "axis", "out", "dtype"])?;
            let axis = p.int("axis")?.unwrap_or(0);
            join(session, &sequence(p.required("arrays")?)?, axis, false)
        }
        "stack" => {
            let p = bind(&["arrays", "axis", "out", "dtype"])?;
            let axis = p.int("axis")?.unwrap_or(0);
            join(session, &sequence(p.required("arrays")?)?, axis, true)
        }
        "vstack" | "hstack" => {
            let p = bind(&["tup", "dtype"])?;
            let items = sequence(p.required("tup")?)?;
            let arrays: Vec<Rc<NdArray>> = items
                .iter()
                .map(|v| as_array(session, v))
                .collect::<Result<_>>()?;
            let one_d = arrays.iter().all(|a| a.ndim() <= 1);
            let items: Vec<Value> = arrays
                .iter()
                .map(|a| {
                    let a = if name == "vstack" && a.ndim() < 2 {
                        reshape(a, &[1, a.size() as i64])?
                    } else if a.ndim() == 0 {
                        reshape(a, &[1])?
                    } else {
                        (**a).clone()
                    };
                    Ok(array_value(a))
                })
                .collect::<Result<_>>()?;
            let axis = if name == "vstack" || one_d { 0 } else { 1 };
            join(session, &items, axis, false)
        }
        "where" => {
            let p = bind(&["condition", "x", "y"])?;
            let condition = arg_of(p.required("condition")?)?;
            match (p.get("x"), p.get("y")) {
                (None, None) => nonzero(session, &condition),
                (Some(x), Some(y)) => {
                    let (x, y) = (arg_of(x)?, arg_of(y)?);
                    let dtype = result_type(&[&x, &y])?;
                    let shape = broadcast_shapes(&[&condition.shape, &x.shape, &y.shape])?;
                    let c = broadcast_index(&condition.shape, &shape);
                    let (ix, iy) = (
                        broadcast_index(&x.shape, &shape),
                        broadcast_index(&y.shape, &shape),
                    );
                    let values: Vec<Num> = (0..c.len())
                        .map(|k| {
                            if condition.data.get(c[k]).truthy() {
                                x.data.get(ix[k]).cast(dtype)
                            } else {
                                y.data.get(iy[k]).cast(dtype)
                            }
                        })
                        .collect();
                    super::convert::wrap_array(
                        session,
                        Out {
                            dtype,
                            shape,
                            data: collect(dtype, &values),
                        },
                    )
                }
                _ => Err(PyException::new(
                    ExcType::ValueError,
                    "either both or neither of x and y should be given",
                )),
            }
        }
        "nonzero" => {
            let p = bind(&["a"])?;
            nonzero(session, &arg_of(p.required("a")?)?)
        }
        "clip" => {
            let p = bind(&["a", "a_min", "a_max", "out"])?;
            let a = arg_of(p.required("a")?)?;
            let low = match p.get("a_min") {
                Some(v) => ufunc::binary(Binary::Maximum, &a, &arg_of(v)?)?,
                None => Out {
                    dtype: a.dtype,
                    shape: a.shape.clone(),
                    data: a.data.clone(),
                },
            };
            let low = Arg {
                dtype: low.dtype,
                weak: false,
                shape: low.shape,
                data: low.data,
            };
            let result = match p.get("a_max") {
                Some(v) => ufunc::binary(Binary::Minimum, &low, &arg_of(v)?)?,
                None => Out {
                    dtype: low.dtype,
                    shape: low.shape,
                    data: low.data,
                },
            };
            wrap(session, result)
        }
        "allclose" | "isclose" => {
            let p = bind(&["a", "b", "rtol", "atol", "equal_nan"])?;
            let (a, b) = (arg_of(p.required("a")?)?, arg_of(p.required("b")?)?);
            let (shape, result) = close(
                &a,
                &b,
                p.float("rtol", 1e-5)?,
                p.float("atol", 1e-8)?,
                p.flag("equal_nan"),
            )?;
            if name == "allclose" {
                return Ok(Value::Bool(result.iter().all(|&b| b)));
            }
            wrap(
                session,
                Out {
                    dtype: NpDType::Bool,
                    shape,
                    data: Data::Bool(result),
                },
            )
        }
        "array_equal" => {
            let p = bind(&["a1", "a2", "equal_nan"])?;
            let (a, b) = (arg_of(p.required("a1")?)?, arg_of(p.required("a2")?)?);
            if a.shape != b.shape {
                return Ok(Value::Bool(false));
            }
            let equal = ufunc::binary(Binary::Eq, &a, &b)?;
            Ok(Value::Bool(
                (0..equal.data.len()).all(|i| equal.data.get(i).truthy()),
            ))
        }
        "argsort" | "sort" => {
            let p = bind(&["a", "axis", "kind", "order", "stable"])?;
            let axis = match p.values_given("axis") {
                true => params::axis(p.get("axis"))?,
                false => Some(-1),
            };
            sorted(session, p.required("a")?, axis, name == "argsort")
        }
        "unique" => {
            let p = bind(&[
                "ar",
                "return_index",
                "return_inverse",
                "return_counts",
                "axis",
            ])?;
            let arg = arg_of(p.required("ar")?)?;
            if p.flag("return_index") || p.flag("return_inverse") || p.get("axis").is_some() {
                return Err(PyException::unsupported(
                    "np.unique(return_index/return_inverse/axis=...)",
                ));
            }
            let values: Vec<Num> = (0..arg.size()).map(|i| arg.data.get(i)).collect();
            let mut unique: Vec<Num> = Vec::new();
            let mut counts: Vec<i64> = Vec::new();
            for &i in &order_of(&values) {
                let v = values[i];
                if unique
                    .last()
                    .is_some_and(|&u| u == v || (u.as_f64().is_nan() && v.as_f64().is_nan()))
                {
                    if let Some(c) = counts.last_mut() {
                        *c += 1;
                    }
                } else {
                    unique.push(v);
                    counts.push(1);
                }
            }
            let n = unique.len();
            let values = array_value(NdArray::from_data(
                session,
                collect(arg.dtype, &unique),
                arg.dtype,
                &[n],
            )?);
            if p.flag("return_counts") {
                let counts = array_value(NdArray::from_data(
                    session,
                    Data::Int(counts),
                    NpDType::Int64,
                    &[n],
                )?);
                return Ok(Value::Tuple(Rc::from(vec![values, counts])));
            }
            Ok(values)
        }
        "bincount" => {
            let p = bind(&["x", "weights", "minlength"])?;
            let arg = arg_of(p.required("x")?)?;
            if arg.dtype.kind() == Kind::Float {
                return Err(PyException::new(
                    ExcType::TypeError,
                    "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'",
                ));
            }
            if arg.shape.len() != 1 {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "object too deep for desired array",
                ));
            }
            let ints: Vec<i64> = (0..arg.size()).map(|i| arg.data.get(i).as_i64()).collect();
            if ints.iter().any(|&i| i < 0) {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "'list' argument must have no negative elements",
                ));
            }
            let minlength = p.int("minlength")?.unwrap_or(0).max(0) as usize;
            let len = ints
                .iter()
                .map(|&i| usize::try_from(i).unwrap_or(usize::MAX).saturating_add(1))
                .max()
                .unwrap_or(0)
                .max(minlength);
            super::array::checked_size(&[len])?;
            let weights = p.get("weights").map(arg_of).transpose()?;
            let shape = [len];
            match weights {
                None => {
                    let mut counts = vec![0i64; len];
                    for &i in &ints {
                        counts[i as usize] += 1;
                    }
                    Ok(array_value(NdArray::from_data(
                        session,
                        Data::Int(counts),
                        NpDType::Int64,
                        &shape,
                    )?))
                }
                Some(w) => {
                    let w = w.data.floats();
                    let mut sums = vec![0.0; len];
                    for (k, &i) in ints.iter().enumerate() {
                        sums[i as usize] += w.get(k).copied().unwrap_or(0.0);
                    }
                    Ok(array_value(NdArray::from_data(
                        session,
                        Data::Float(sums),
                        NpDType::Float64,
                        &shape,
                    )?))
                }
            }
        }
        "shares_memory" | "may_share_memory" => {
            let p = bind(&["a", "b", "max_work"])?;
            Ok(Value::Bool(match (p.required("a")?, p.required("b")?) {
                (Value::NdArray(a), Value::NdArray(b)) => a.base.shares_storage(&b.base),
                _ => false,
            }))
        }
        _ => Err(super::no_attribute("numpy", name)),
    }
}

/// `np.nonzero(a)`: one array of positions per axis.
fn nonzero(session: &Session, arg: &Arg) -> Result<Value> {
    let ndim = arg.shape.len().max(1);
    let shape = if arg.shape.is_empty() {
        vec![1]
    } else {
        arg.shape.clone()
    };
    let mut columns: Vec<Vec<i64>> = vec![Vec::new(); ndim];
    for flat in (0..arg.size()).filter(|&i| arg.data.get(i).truthy()) {
        let mut rest = flat;
        for d in (0..ndim).rev() {
            columns[d].push((rest % shape[d]) as i64);
            rest /= shape[d];
        }
    }
    let arrays = columns
        .into_iter()
        .map(|c| {
            let n = c.len();
            Ok(array_value(NdArray::from_data(
                session,
                Data::Int(c),
                NpDType::Int64,
                &[n],
            )?))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Value::Tuple(Rc::from(arrays)))
}
