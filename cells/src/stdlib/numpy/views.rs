//! Views of an array's memory with another shape: `reshape` (a view where the elements are in
//! row-major order, else a copy, with NumPy's errors), `transpose` and `squeeze`.

use super::array::{NdArray, Result, c_strides};
use super::params;
use super::reduce::normalize_axis;
use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;

/// `a.reshape(shape)`: a view when the elements are in row-major order, else a copy.
pub fn reshape(a: &NdArray, spec: &[i64]) -> Result<NdArray> {
    let size = a.size();
    let unknown = spec.iter().filter(|&&d| d == -1).count();
    let known: usize = spec
        .iter()
        .filter(|&&d| d != -1)
        .map(|&d| usize::try_from(d.max(0)).unwrap_or(usize::MAX))
        .fold(1usize, usize::saturating_mul);
    // NumPy's `convert_shape_to_string`: leading -1s dropped, later ones "newaxis".
    let invalid = || {
        let first = spec.iter().position(|&d| d >= 0);
        let text = match first {
            None => "()".to_owned(),
            Some(at) => {
                let parts: Vec<String> = spec[at..]
                    .iter()
                    .enumerate()
                    .map(|(k, &d)| {
                        if d < 0 && k > 0 {
                            "newaxis".into()
                        } else {
                            d.to_string()
                        }
                    })
                    .collect();
                if spec.len() == 1 {
                    format!("({},)", parts.join(","))
                } else {
                    format!("({})", parts.join(","))
                }
            }
        };
        PyException::new(
            ExcType::ValueError,
            format!("cannot reshape array of size {size} into shape {text}"),
        )
    };
    if unknown > 1 {
        return Err(PyException::new(
            ExcType::ValueError,
            "can only specify one unknown dimension",
        ));
    }
    if spec.iter().any(|&d| d < -1) {
        return Err(PyException::new(
            ExcType::ValueError,
            "negative dimensions not allowed",
        ));
    }
    let shape: Vec<usize> = if unknown == 1 {
        if known == 0 || !size.is_multiple_of(known) {
            return Err(invalid());
        }
        spec.iter()
            .map(|&d| if d == -1 { size / known } else { d as usize })
            .collect()
    } else {
        if known != size {
            return Err(invalid());
        }
        spec.iter().map(|&d| d as usize).collect()
    };
    super::array::checked_size(&shape)?;
    let source = if a.is_c_contiguous() {
        a.clone()
    } else {
        a.copy()?
    };
    let strides = c_strides(&shape);
    let offset = source.offset;
    Ok(source.view(shape, strides, offset))
}

/// The shape arguments of `reshape`: `reshape(2, 3)` or `reshape((2, 3))`.
pub fn shape_spec(values: &[Value]) -> Result<Vec<i64>> {
    match values {
        [one @ (Value::Tuple(_) | Value::List(_))] => crate::python::operators::iterate(one)?
            .iter()
            .map(params::int)
            .collect(),
        many => many.iter().map(params::int).collect(),
    }
}

/// `a.transpose(axes)`: a view with the axes reordered (reversed when `axes` is empty).
pub fn transpose(a: &NdArray, axes: &[i64]) -> Result<NdArray> {
    let n = a.ndim();
    let order: Vec<usize> = if axes.is_empty() {
        (0..n).rev().collect()
    } else {
        if axes.len() != n {
            return Err(PyException::new(
                ExcType::ValueError,
                "axes don't match array",
            ));
        }
        let order = axes
            .iter()
            .map(|&x| normalize_axis(x, n))
            .collect::<Result<Vec<_>>>()?;
        let mut seen = order.clone();
        seen.sort_unstable();
        seen.dedup();
        if seen.len() != n {
            return Err(PyException::new(
                ExcType::ValueError,
                "repeated axis in transpose",
            ));
        }
        order
    };
    Ok(a.view(
        order.iter().map(|&i| a.shape[i]).collect(),
        order.iter().map(|&i| a.strides[i]).collect(),
        a.offset,
    ))
}

/// `a.squeeze(axis=None)`.
pub fn squeeze(a: &NdArray, axis: Option<i64>) -> Result<NdArray> {
    let keep: Vec<usize> = match axis {
        None => (0..a.ndim()).filter(|&d| a.shape[d] != 1).collect(),
        Some(x) => {
            let x = normalize_axis(x, a.ndim())?;
            if a.shape[x] != 1 {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "cannot select an axis to squeeze out which has size not equal to one",
                ));
            }
            (0..a.ndim()).filter(|&d| d != x).collect()
        }
    };
    Ok(a.view(
        keep.iter().map(|&d| a.shape[d]).collect(),
        keep.iter().map(|&d| a.strides[d]).collect(),
        a.offset,
    ))
}
