//! Indexing arrays: `a[i]`, `a[1:3]`, `a[:, 0]`, `a[::-1]`, `a[None]` (views that share
//! memory), and NumPy's advanced indexing (`a[[0, 2]]`, `a[[0, 1], [2, 3]]`, `a[a > 5]`:
//! copies), for reading and for assignment (`a[a > 8] = 0`, `a[:, 1] = 99`), with NumPy's
//! `IndexError`s.

use super::array::{Data, NdArray, Result};
use super::dtype::Kind;
use super::format::shape_text;
use super::ufunc::{broadcast_index, broadcast_shapes};
use crate::python::exception::{ExcType, PyException};
use crate::python::operators::slice_span;
use crate::python::value::Value;

/// One part of an index.
#[derive(Debug, Clone)]
enum Item {
    Int(i64),
    Slice(Option<i64>, Option<i64>, Option<i64>),
    NewAxis,
    /// Integer positions (an index array), with their shape.
    Ints(Vec<usize>, Vec<i64>),
    /// A boolean mask, with its shape.
    Mask(Vec<usize>, Vec<bool>),
}

fn index_error(message: String) -> PyException {
    PyException::new(ExcType::IndexError, message)
}

const INVALID: &str = "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices";

/// An integer where an index wants one (Python ints and bools, NumPy integer scalars).
fn int_of(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        Value::NpScalar(s) if s.dtype.kind() == Kind::Int => Some(s.value.as_i64()),
        _ => None,
    }
}

/// A slice bound: an integer or `None`.
fn bound(v: &Value) -> Result<Option<i64>> {
    match v {
        Value::None => Ok(None),
        other => int_of(other).map(Some).ok_or_else(|| {
            PyException::new(
                ExcType::TypeError,
                "slice indices must be integers or None or have an __index__ method",
            )
        }),
    }
}

fn item_of(v: &Value) -> Result<Item> {
    Ok(match v {
        Value::Tuple(parts)
            if matches!(parts.first(), Some(Value::Str(s)) if &**s == "slice")
                && parts.len() == 4 =>
        {
            Item::Slice(bound(&parts[1])?, bound(&parts[2])?, bound(&parts[3])?)
        }
        Value::None => Item::NewAxis,
        Value::Bool(_) => return Err(index_error(INVALID.into())),
        Value::NdArray(a) => match a.data()? {
            Data::Bool(mask) => Item::Mask(a.shape.clone(), mask),
            Data::Int(values) => Item::Ints(a.shape.clone(), values),
            Data::Float(_) => {
                return Err(index_error(
                    "arrays used as indices must be of integer (or boolean) type".into(),
                ));
            }
        },
        Value::List(_) => {
            let array = super::convert::array_from(v, None)?;
            match array.data {
                Data::Bool(mask) => Item::Mask(array.shape, mask),
                Data::Int(values) => Item::Ints(array.shape, values),
                Data::Float(_) if array.shape.iter().product::<usize>() == 0 => {
                    Item::Ints(array.shape, Vec::new())
                }
                Data::Float(_) => {
                    return Err(index_error(
                        "arrays used as indices must be of integer (or boolean) type".into(),
                    ));
                }
            }
        }
        other => Item::Int(int_of(other).ok_or_else(|| index_error(INVALID.into()))?),
    })
}

fn items_of(index: &Value) -> Result<Vec<Item>> {
    match index {
        Value::Tuple(parts) if !matches!(parts.first(), Some(Value::Str(s)) if &**s == "slice") => {
            parts.iter().map(item_of).collect()
        }
        other => Ok(vec![item_of(other)?]),
    }
}

fn position(i: i64, size: usize, axis: usize) -> Result<i64> {
    let n = size as i64;
    let at = if i < 0 { i + n } else { i };
    if at < 0 || at >= n {
        return Err(index_error(format!(
            "index {i} is out of bounds for axis {axis} with size {size}"
        )));
    }
    Ok(at)
}

/// What an index selects.
pub enum Selection {
    /// A view (basic indexing); `scalar` when every axis was taken by an integer.
    View { array: NdArray, scalar: bool },
    /// Elements gathered by advanced indexing: their storage positions and the result's shape.
    Gathered {
        positions: Vec<usize>,
        shape: Vec<usize>,
    },
}

/// How one output axis steps through storage.
enum Axis {
    Linear {
        len: usize,
        stride: isize,
    },
    /// The advanced indices' block, flattened.
    Block,
}

/// Resolves `index` on `a`.
pub fn select(a: &NdArray, index: &Value) -> Result<Selection> {
    let mut items = items_of(index)?;
    let advanced = items
        .iter()
        .any(|i| matches!(i, Item::Ints(..) | Item::Mask(..)));
    // Masks stand for the positions of their true elements, one index array per axis.
    if advanced {
        let mut expanded = Vec::new();
        for item in items {
            match item {
                Item::Mask(shape, mask) => {
                    let count = mask.iter().filter(|&&b| b).count();
                    let mut columns = vec![Vec::with_capacity(count); shape.len().max(1)];
                    for (flat, _) in mask.iter().enumerate().filter(|(_, b)| **b) {
                        let mut rest = flat;
                        for (d, &n) in shape.iter().enumerate().rev() {
                            columns[d].push((rest % n) as i64);
                            rest /= n;
                        }
                    }
                    let axis = expanded
                        .iter()
                        .filter(|i| !matches!(i, Item::NewAxis))
                        .count();
                    for (d, &n) in shape.iter().enumerate() {
                        if a.shape.get(axis + d) != Some(&n) {
                            return Err(index_error(format!(
                                "boolean index did not match indexed array along axis {}; size of axis is {} but size of corresponding boolean axis is {n}",
                                axis + d,
                                a.shape.get(axis + d).copied().unwrap_or(0)
                            )));
                        }
                    }
                    for column in columns.into_iter().take(shape.len()) {
                        expanded.push(Item::Ints(vec![count], column));
                    }
                }
                Item::Int(i) => expanded.push(Item::Ints(Vec::new(), vec![i])),
                other => expanded.push(other),
            }
        }
        items = expanded;
    }
    let consumed = items.iter().filter(|i| !matches!(i, Item::NewAxis)).count();
    if consumed > a.ndim() {
        return Err(index_error(format!(
            "too many indices for array: array is {}-dimensional, but {consumed} were indexed",
            a.ndim()
        )));
    }
    let mut axis = 0usize;
    let mut offset = a.offset as isize;
    let mut out: Vec<Axis> = Vec::new();
    let mut arrays: Vec<(Vec<usize>, Vec<i64>, usize)> = Vec::new();
    let mut block_at: Option<usize> = None;
    let mut block_split = false;
    let mut last_was_array = false;
    for item in &items {
        match item {
            Item::Int(i) => {
                let at = position(*i, a.shape[axis], axis)?;
                offset += at as isize * a.strides[axis];
                axis += 1;
                last_was_array = false;
            }
            Item::Slice(lo, hi, step) => {
                let (start, step, len) = slice_span(a.shape[axis], *lo, *hi, *step)?;
                if len > 0 {
                    offset += start as isize * a.strides[axis];
                }
                out.push(Axis::Linear {
                    len,
                    stride: a.strides[axis] * step as isize,
                });
                axis += 1;
                last_was_array = false;
            }
            Item::NewAxis => {
                out.push(Axis::Linear { len: 1, stride: 0 });
                last_was_array = false;
            }
            Item::Ints(shape, values) => {
                match block_at {
                    None => {
                        block_at = Some(out.len());
                        out.push(Axis::Block);
                    }
                    Some(_) if !last_was_array => block_split = true,
                    Some(_) => {}
                }
                arrays.push((shape.clone(), values.clone(), axis));
                axis += 1;
                last_was_array = true;
            }
            Item::Mask(..) => {}
        }
    }
    for d in axis..a.ndim() {
        out.push(Axis::Linear {
            len: a.shape[d],
            stride: a.strides[d],
        });
    }
    if arrays.is_empty() {
        let (shape, strides) = out
            .iter()
            .map(|x| match x {
                Axis::Linear { len, stride } => (*len, *stride),
                Axis::Block => (0, 0),
            })
            .unzip();
        let scalar = !items
            .iter()
            .any(|i| matches!(i, Item::Slice(..) | Item::NewAxis))
            && consumed == a.ndim();
        return Ok(Selection::View {
            array: a.view(shape, strides, offset.max(0) as usize),
            scalar,
        });
    }
    // The index arrays broadcast together; each element of the block is one storage offset.
    let shapes: Vec<&[usize]> = arrays.iter().map(|(s, _, _)| s.as_slice()).collect();
    let block_shape = broadcast_shapes(&shapes).map_err(|_| {
        let texts: Vec<String> = arrays.iter().map(|(s, _, _)| shape_text(s)).collect();
        index_error(format!(
            "shape mismatch: indexing arrays could not be broadcast together with shapes {}",
            texts.join(" ")
        ))
    })?;
    let block_len: usize = block_shape.iter().product();
    let mut block = vec![0isize; block_len];
    for (shape, values, axis) in &arrays {
        let map = broadcast_index(shape, &block_shape);
        for (slot, &i) in block.iter_mut().zip(&map) {
            let at = position(values[i], a.shape[*axis], *axis)?;
            *slot += at as isize * a.strides[*axis];
        }
    }
    if block_split
        && let Some(at) = block_at
        && at != 0
    {
        let axis = out.remove(at);
        out.insert(0, axis);
    }
    let mut shape = Vec::new();
    for x in &out {
        match x {
            Axis::Linear { len, .. } => shape.push(*len),
            Axis::Block => shape.extend(&block_shape),
        }
    }
    let lens: Vec<usize> = out
        .iter()
        .map(|x| match x {
            Axis::Linear { len, .. } => *len,
            Axis::Block => block_len,
        })
        .collect();
    let total: usize = lens.iter().product();
    super::array::checked_size(&[total])?;
    let mut positions = Vec::with_capacity(total);
    let mut index = vec![0usize; lens.len()];
    for _ in 0..total {
        let mut at = offset;
        for (x, &i) in out.iter().zip(&index) {
            at += match x {
                Axis::Linear { stride, .. } => i as isize * stride,
                Axis::Block => block[i],
            };
        }
        positions.push(at.max(0) as usize);
        for d in (0..lens.len()).rev() {
            index[d] += 1;
            if index[d] < lens[d] {
                break;
            }
            index[d] = 0;
        }
    }
    Ok(Selection::Gathered { positions, shape })
}

/// The storage positions and shape `index` selects (for assignment).
pub fn target(a: &NdArray, index: &Value) -> Result<(Vec<usize>, Vec<usize>)> {
    Ok(match select(a, index)? {
        Selection::View { array, .. } => (array.positions(), array.shape.clone()),
        Selection::Gathered { positions, shape } => (positions, shape),
    })
}

/// `a[index] = values` where `values` (of `shape`) broadcasts to the selection.
pub fn assign(a: &NdArray, index: &Value, values: Data, shape: &[usize]) -> Result<()> {
    let (positions, target_shape) = target(a, index)?;
    let fits = broadcast_shapes(&[shape, &target_shape]).is_ok_and(|s| s == target_shape);
    if !fits {
        return Err(PyException::new(
            ExcType::ValueError,
            format!(
                "could not broadcast input array from shape {} into shape {}",
                shape_text(shape),
                shape_text(&target_shape)
            ),
        ));
    }
    let values = if shape == target_shape.as_slice() || values.len() == 1 {
        values
    } else {
        let map = broadcast_index(shape, &target_shape);
        match values {
            Data::Bool(v) => Data::Bool(map.iter().map(|&i| v[i]).collect()),
            Data::Int(v) => Data::Int(map.iter().map(|&i| v[i]).collect()),
            Data::Float(v) => Data::Float(map.iter().map(|&i| v[i]).collect()),
        }
    };
    a.write(&positions, values)
}
