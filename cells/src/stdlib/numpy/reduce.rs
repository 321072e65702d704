//! Reductions as NumPy computes them: `sum`, `prod`, `mean`, `var`, `std`, `max`, `min`,
//! `argmax`, `argmin`, `any`, `all` and `cumsum`, over all elements or one axis, with
//! `keepdims`. Float sums along the innermost axis (and whole-array sums) use NumPy's pairwise
//! summation (blocks of 8, split at 128), other axes add row by row, as NumPy's loops do, so
//! that sums print NumPy's very digits.

use super::array::{Data, Num, Result};
use super::dtype::{Kind, NpDType};
use super::ufunc::Out;
use crate::python::exception::{ExcType, PyException};

/// A reduction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reduce {
    Sum,
    Prod,
    Mean,
    Var(f64),
    Std(f64),
    Max,
    Min,
    ArgMax,
    ArgMin,
    Any,
    All,
}

/// NumPy's `AxisError`, for an axis the array does not have.
pub fn axis_error(axis: i64, ndim: usize) -> PyException {
    PyException::new(
        ExcType::Other("numpy.exceptions.AxisError".into()),
        format!("axis {axis} is out of bounds for array of dimension {ndim}"),
    )
}

/// An axis counted from the end when negative.
pub fn normalize_axis(axis: i64, ndim: usize) -> Result<usize> {
    let n = ndim as i64;
    if axis < -n || axis >= n {
        return Err(axis_error(axis, ndim));
    }
    Ok(if axis < 0 { axis + n } else { axis } as usize)
}

/// NumPy's pairwise summation of `values`, adding with `add` (which rounds to the type).
pub fn pairwise(values: &[f64], add: impl Fn(f64, f64) -> f64 + Copy) -> f64 {
    let n = values.len();
    if n < 8 {
        let mut res = 0.0;
        for &v in values {
            res = add(res, v);
        }
        res
    } else if n <= 128 {
        let mut r = [0.0f64; 8];
        r.copy_from_slice(&values[..8]);
        let mut i = 8;
        while i < n - n % 8 {
            for j in 0..8 {
                r[j] = add(r[j], values[i + j]);
            }
            i += 8;
        }
        let mut res = add(
            add(add(r[0], r[1]), add(r[2], r[3])),
            add(add(r[4], r[5]), add(r[6], r[7])),
        );
        while i < n {
            res = add(res, values[i]);
            i += 1;
        }
        res
    } else {
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        add(pairwise(&values[..n2], add), pairwise(&values[n2..], add))
    }
}

/// The array seen as `outer × n × inner` around the reduced axis (`None`: all of it).
struct Lines {
    outer: usize,
    n: usize,
    inner: usize,
}

impl Lines {
    fn new(shape: &[usize], axis: Option<usize>) -> Lines {
        match axis {
            None => Lines {
                outer: 1,
                n: shape.iter().product(),
                inner: 1,
            },
            Some(a) => Lines {
                outer: shape[..a].iter().product(),
                n: shape[a],
                inner: shape[a + 1..].iter().product(),
            },
        }
    }

    /// The flat indices of each line, line by line (outer-major, then inner).
    fn each(&self, mut f: impl FnMut(&mut dyn Iterator<Item = usize>)) {
        for o in 0..self.outer {
            for i in 0..self.inner {
                let base = o * self.n * self.inner + i;
                let step = self.inner;
                f(&mut (0..self.n).map(move |k| base + k * step));
            }
        }
    }
}

/// The shape a reduction leaves.
fn reduced_shape(shape: &[usize], axis: Option<usize>, keepdims: bool) -> Vec<usize> {
    match (axis, keepdims) {
        (None, false) => Vec::new(),
        (None, true) => vec![1; shape.len()],
        (Some(a), false) => {
            let mut s = shape.to_vec();
            s.remove(a);
            s
        }
        (Some(a), true) => {
            let mut s = shape.to_vec();
            s[a] = 1;
            s
        }
    }
}

/// Sums of floats of `dtype` along each line.
fn float_sums(values: &[f64], lines: &Lines, dtype: NpDType) -> Vec<f64> {
    if dtype == NpDType::Float64 {
        return sums_with(values, lines, |a, b| a + b);
    }
    sums_with(values, lines, move |a, b| dtype.round_float(a + b))
}

/// Sums along each line, adding with `add`.
fn sums_with(values: &[f64], lines: &Lines, add: impl Fn(f64, f64) -> f64 + Copy) -> Vec<f64> {
    let mut out = Vec::with_capacity(lines.outer * lines.inner);
    if lines.inner == 1 {
        for o in 0..lines.outer {
            let row = &values[o * lines.n..(o + 1) * lines.n];
            out.push(add(0.0, pairwise(row, add)));
        }
        return out;
    }
    for o in 0..lines.outer {
        let mut acc = vec![0.0f64; lines.inner];
        for k in 0..lines.n {
            let row = (o * lines.n + k) * lines.inner;
            for (i, a) in acc.iter_mut().enumerate() {
                *a = add(*a, values[row + i]);
            }
        }
        out.extend(acc);
    }
    out
}

fn empty_reduction(name: &str) -> PyException {
    PyException::new(
        ExcType::ValueError,
        format!("zero-size array to reduction operation {name} which has no identity"),
    )
}

/// `op` over `data` (of `dtype` and `shape`) along `axis`.
pub fn reduce(
    op: Reduce,
    dtype: NpDType,
    shape: &[usize],
    data: &Data,
    axis: Option<usize>,
    keepdims: bool,
) -> Result<Out> {
    let lines = Lines::new(shape, axis);
    let out_shape = reduced_shape(shape, axis, keepdims);
    let count = lines.n;
    let (out_dtype, out) = match op {
        Reduce::Sum | Reduce::Prod => match (dtype.kind(), data) {
            (Kind::Float, Data::Float(values)) => {
                if op == Reduce::Sum {
                    (dtype, Data::Float(float_sums(values, &lines, dtype)))
                } else {
                    let mut out = Vec::new();
                    lines.each(|line| {
                        out.push(line.fold(1.0, |acc, i| dtype.round_float(acc * values[i])));
                    });
                    (dtype, Data::Float(out))
                }
            }
            (_, data) => {
                let mut out = Vec::new();
                lines.each(|line| {
                    let values = line.map(|i| data.get(i).as_i64());
                    out.push(if op == Reduce::Sum {
                        values.fold(0i64, i64::wrapping_add)
                    } else {
                        values.fold(1i64, i64::wrapping_mul)
                    });
                });
                (NpDType::Int64, Data::Int(out))
            }
        },
        Reduce::Mean | Reduce::Var(_) | Reduce::Std(_) => {
            let work = match dtype {
                NpDType::Float32 => NpDType::Float32,
                NpDType::Float16 => NpDType::Float32,
                _ => NpDType::Float64,
            };
            let values = data.clone().cast(work).floats();
            let sums = float_sums(&values, &lines, work);
            let n = count as f64;
            let means: Vec<f64> = sums.iter().map(|s| work.round_float(s / n)).collect();
            let result = match op {
                Reduce::Mean => means,
                Reduce::Var(ddof) | Reduce::Std(ddof) => {
                    let mut squares = values.clone();
                    for o in 0..lines.outer {
                        for k in 0..lines.n {
                            for i in 0..lines.inner {
                                let at = (o * lines.n + k) * lines.inner + i;
                                let d = work.round_float(values[at] - means[o * lines.inner + i]);
                                squares[at] = work.round_float(d * d);
                            }
                        }
                    }
                    let sums = float_sums(&squares, &lines, work);
                    let divisor = (n - ddof).max(0.0);
                    sums.iter()
                        .map(|s| {
                            let var = work.round_float(s / divisor);
                            if matches!(op, Reduce::Std(_)) {
                                work.round_float(var.sqrt())
                            } else {
                                var
                            }
                        })
                        .collect()
                }
                _ => Vec::new(),
            };
            let out_dtype = if dtype == NpDType::Float16 {
                NpDType::Float16
            } else {
                work
            };
            (
                out_dtype,
                Data::Float(
                    result
                        .into_iter()
                        .map(|x| out_dtype.round_float(x))
                        .collect(),
                ),
            )
        }
        Reduce::Max | Reduce::Min => {
            if count == 0 {
                return Err(empty_reduction(if op == Reduce::Max {
                    "maximum"
                } else {
                    "minimum"
                }));
            }
            let better = |a: Num, b: Num| -> bool {
                match (a, b) {
                    (Num::Float(x), Num::Float(y)) => {
                        y.is_nan() || (!x.is_nan() && if op == Reduce::Max { y > x } else { y < x })
                    }
                    _ => {
                        let (x, y) = (a.as_i64(), b.as_i64());
                        if op == Reduce::Max { y > x } else { y < x }
                    }
                }
            };
            let mut out = Vec::new();
            lines.each(|line| {
                let mut best: Option<Num> = None;
                for i in line {
                    let v = data.get(i);
                    best = Some(match best {
                        None => v,
                        Some(b) if matches!(b, Num::Float(x) if x.is_nan()) => b,
                        Some(b) if better(b, v) => v,
                        Some(b) => b,
                    });
                }
                out.push(best.unwrap_or(Num::Int(0)));
            });
            (dtype, collect(dtype, out))
        }
        Reduce::ArgMax | Reduce::ArgMin => {
            if count == 0 {
                return Err(PyException::new(
                    ExcType::ValueError,
                    format!(
                        "attempt to get {} of an empty sequence",
                        if op == Reduce::ArgMax {
                            "argmax"
                        } else {
                            "argmin"
                        }
                    ),
                ));
            }
            let mut out = Vec::new();
            lines.each(|line| {
                let mut best: Option<(usize, f64)> = None;
                for (k, i) in line.enumerate() {
                    let v = data.get(i).as_f64();
                    let take = match best {
                        None => true,
                        Some((_, b)) if b.is_nan() => false,
                        Some(_) if v.is_nan() => true,
                        Some((_, b)) => {
                            if op == Reduce::ArgMax {
                                v > b
                            } else {
                                v < b
                            }
                        }
                    };
                    if take {
                        best = Some((k, v));
                    }
                }
                out.push(best.map_or(0, |(k, _)| k as i64));
            });
            (NpDType::Int64, Data::Int(out))
        }
        Reduce::Any | Reduce::All => {
            let mut out = Vec::new();
            lines.each(|line| {
                let mut values = line.map(|i| data.get(i).truthy());
                out.push(if op == Reduce::Any {
                    values.any(|b| b)
                } else {
                    values.all(|b| b)
                });
            });
            (NpDType::Bool, Data::Bool(out))
        }
    };
    Ok(Out {
        dtype: out_dtype,
        shape: out_shape,
        data: out,
    })
}

fn collect(dtype: NpDType, values: Vec<Num>) -> Data {
    match dtype.kind() {
        Kind::Float => Data::Float(values.iter().map(|v| v.as_f64()).collect()),
        Kind::Int => Data::Int(values.iter().map(|v| v.as_i64()).collect()),
        Kind::Bool => Data::Bool(values.iter().map(|v| v.truthy()).collect()),
    }
}

/// `cumsum` along `axis` (`None`: over the flattened array).
pub fn cumsum(dtype: NpDType, shape: &[usize], data: &Data, axis: Option<usize>) -> Out {
    let out_dtype = if dtype.is_float() {
        dtype
    } else {
        NpDType::Int64
    };
    let lines = Lines::new(shape, axis);
    let out_shape = match axis {
        None => vec![data.len()],
        Some(_) => shape.to_vec(),
    };
    let out = match data.clone().cast(out_dtype) {
        Data::Float(mut v) => {
            lines.each(|line| {
                let mut acc = 0.0;
                for i in line {
                    acc = out_dtype.round_float(acc + v[i]);
                    v[i] = acc;
                }
            });
            Data::Float(v)
        }
        Data::Int(mut v) => {
            lines.each(|line| {
                let mut acc = 0i64;
                for i in line {
                    acc = acc.wrapping_add(v[i]);
                    v[i] = acc;
                }
            });
            Data::Int(v)
        }
        other => other,
    };
    Out {
        dtype: out_dtype,
        shape: out_shape,
        data: out,
    }
}
