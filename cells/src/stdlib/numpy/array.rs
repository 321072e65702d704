//! The `ndarray`: elements in an engine CPU tensor's storage, seen through NumPy's own shape,
//! strides (in elements, possibly negative) and offset. Arrays made from one another by basic
//! indexing, `reshape`, `.T` share that storage, and so do `torch.from_numpy(a)` and
//! `t.numpy()`: a write through any of them is seen by all. Elements are worked on in three
//! host lanes ([`Data`]): bools, integers as i64, floats as f64 (rounded to the array's type).

use tolab_engine::storage::CpuStorage;
use tolab_engine::{Session, Tensor};

use super::dtype::{Kind, NpDType};
use crate::python::exception::{ExcType, PyException};

pub type Result<T> = std::result::Result<T, PyException>;

/// One element, in its lane.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    Bool(bool),
    Int(i64),
    Float(f64),
}

impl Num {
    pub fn as_f64(self) -> f64 {
        match self {
            Num::Bool(b) => f64::from(u8::from(b)),
            Num::Int(i) => i as f64,
            Num::Float(x) => x,
        }
    }

    /// Converted as `astype` converts (floats to integers truncate; NaN and out-of-range
    /// values become the smallest integer, as C's conversion does on x86).
    pub fn as_i64(self) -> i64 {
        match self {
            Num::Bool(b) => i64::from(b),
            Num::Int(i) => i,
            Num::Float(x) if x.is_finite() && x.abs() < 9.2e18 => x.trunc() as i64,
            Num::Float(_) => i64::MIN,
        }
    }

    pub fn truthy(self) -> bool {
        match self {
            Num::Bool(b) => b,
            Num::Int(i) => i != 0,
            Num::Float(x) => x != 0.0,
        }
    }

    pub fn kind(self) -> Kind {
        match self {
            Num::Bool(_) => Kind::Bool,
            Num::Int(_) => Kind::Int,
            Num::Float(_) => Kind::Float,
        }
    }

    /// This value as an element of `dtype`. Floats become the narrower integers through a
    /// 32-bit conversion, as NumPy's C casts do on x86 (NaN and values out of range give
    /// `i32::MIN`, whose low bits are zero).
    pub fn cast(self, dtype: NpDType) -> Num {
        match dtype.kind() {
            Kind::Bool => Num::Bool(self.truthy()),
            Kind::Int => match self {
                Num::Float(x) if dtype != NpDType::Int64 => {
                    Num::Int(dtype.wrap_int(tolab_engine::element::truncate_as_x86(x, false)))
                }
                _ => Num::Int(dtype.wrap_int(self.as_i64())),
            },
            Kind::Float => Num::Float(dtype.round_float(self.as_f64())),
        }
    }
}

/// A NumPy scalar (`np.float64(1.5)`, `np.int64(7)`, `np.True_`): what indexing one element
/// and whole reductions give.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NpScalar {
    pub dtype: NpDType,
    pub value: Num,
}

impl NpScalar {
    pub fn new(dtype: NpDType, value: Num) -> NpScalar {
        NpScalar {
            dtype,
            value: value.cast(dtype),
        }
    }
}

/// Elements in row-major order, in the lane of their kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Data {
    Bool(Vec<bool>),
    Int(Vec<i64>),
    Float(Vec<f64>),
}

impl Data {
    pub fn len(&self) -> usize {
        match self {
            Data::Bool(v) => v.len(),
            Data::Int(v) => v.len(),
            Data::Float(v) => v.len(),
        }
    }

    pub fn get(&self, i: usize) -> Num {
        match self {
            Data::Bool(v) => Num::Bool(v[i]),
            Data::Int(v) => Num::Int(v[i]),
            Data::Float(v) => Num::Float(v[i]),
        }
    }

    /// Every element as f64.
    pub fn floats(&self) -> Vec<f64> {
        match self {
            Data::Float(v) => v.clone(),
            Data::Int(v) => v.iter().map(|&i| i as f64).collect(),
            Data::Bool(v) => v.iter().map(|&b| f64::from(u8::from(b))).collect(),
        }
    }

    /// The elements converted to `dtype` (NumPy's unsafe casting, as `astype` does).
    pub fn cast(self, dtype: NpDType) -> Data {
        match (self, dtype.kind()) {
            (Data::Bool(v), Kind::Bool) => Data::Bool(v),
            (Data::Int(v), Kind::Int) if dtype == NpDType::Int64 => Data::Int(v),
            (Data::Float(v), Kind::Float) if dtype == NpDType::Float64 => Data::Float(v),
            (data, Kind::Bool) => {
                Data::Bool((0..data.len()).map(|i| data.get(i).truthy()).collect())
            }
            (data, Kind::Int) => Data::Int(
                (0..data.len())
                    .map(|i| data.get(i).cast(dtype).as_i64())
                    .collect(),
            ),
            (data, Kind::Float) => Data::Float(
                data.floats()
                    .into_iter()
                    .map(|x| dtype.round_float(x))
                    .collect(),
            ),
        }
    }

    /// Engine storage of `dtype` holding these elements (already of `dtype`'s kind).
    fn into_storage(self, dtype: NpDType) -> CpuStorage {
        match (self.cast(dtype), dtype) {
            (Data::Bool(v), _) => CpuStorage::Bool(v),
            (Data::Int(v), NpDType::UInt8) => CpuStorage::U8(v.iter().map(|&i| i as u8).collect()),
            (Data::Int(v), NpDType::Int8) => CpuStorage::I8(v.iter().map(|&i| i as i8).collect()),
            (Data::Int(v), NpDType::Int16) => {
                CpuStorage::I16(v.iter().map(|&i| i as i16).collect())
            }
            (Data::Int(v), NpDType::Int64) => CpuStorage::I64(v),
            (Data::Int(v), _) => CpuStorage::I32(v.iter().map(|&i| i as i32).collect()),
            (Data::Float(v), NpDType::Float32) => {
                CpuStorage::F32(v.iter().map(|&x| x as f32).collect())
            }
            (Data::Float(v), NpDType::Float16) => {
                CpuStorage::F16(v.iter().map(|&x| super::dtype::f16_of(x)).collect())
            }
            (Data::Float(v), _) => CpuStorage::F64(v),
        }
    }
}

/// The elements of `storage` at `positions`, in the lane of their kind.
fn gather(storage: &CpuStorage, positions: impl Iterator<Item = usize>) -> Data {
    match storage {
        CpuStorage::F64(v) => Data::Float(positions.map(|i| v[i]).collect()),
        CpuStorage::F32(v) => Data::Float(positions.map(|i| f64::from(v[i])).collect()),
        CpuStorage::F16(v) => Data::Float(positions.map(|i| v[i].to_f64()).collect()),
        CpuStorage::BF16(v) => Data::Float(positions.map(|i| v[i].to_f64()).collect()),
        CpuStorage::I64(v) => Data::Int(positions.map(|i| v[i]).collect()),
        CpuStorage::I32(v) => Data::Int(positions.map(|i| i64::from(v[i])).collect()),
        CpuStorage::I16(v) => Data::Int(positions.map(|i| i64::from(v[i])).collect()),
        CpuStorage::I8(v) => Data::Int(positions.map(|i| i64::from(v[i])).collect()),
        CpuStorage::U8(v) => Data::Int(positions.map(|i| i64::from(v[i])).collect()),
        CpuStorage::Bool(v) => Data::Bool(positions.map(|i| v[i]).collect()),
    }
}

/// Writes `values` (already of the storage's kind) at `positions`.
fn scatter(storage: &mut CpuStorage, positions: &[usize], values: &Data) {
    let num = |k: usize| values.get(k % values.len().max(1));
    for (k, &at) in positions.iter().enumerate() {
        let v = num(k);
        match storage {
            CpuStorage::F64(s) => s[at] = v.as_f64(),
            CpuStorage::F32(s) => s[at] = v.as_f64() as f32,
            CpuStorage::F16(s) => s[at] = super::dtype::f16_of(v.as_f64()),
            CpuStorage::BF16(s) => s[at] = half::bf16::from_f64(v.as_f64()),
            CpuStorage::I64(s) => s[at] = v.as_i64(),
            CpuStorage::I32(s) => s[at] = v.as_i64() as i32,
            CpuStorage::I16(s) => s[at] = v.as_i64() as i16,
            CpuStorage::I8(s) => s[at] = v.as_i64() as i8,
            CpuStorage::U8(s) => s[at] = v.as_i64() as u8,
            CpuStorage::Bool(s) => s[at] = v.truthy(),
        }
    }
}

/// A NumPy array.
#[derive(Debug, Clone)]
pub struct NdArray {
    /// A tensor over the storage the elements live in (its own layout is not used).
    pub base: Tensor,
    pub dtype: NpDType,
    pub shape: Vec<usize>,
    /// Elements to step per index in each dimension.
    pub strides: Vec<isize>,
    pub offset: usize,
}

/// Row-major strides of `shape`, in elements.
pub fn c_strides(shape: &[usize]) -> Vec<isize> {
    let mut strides = vec![0isize; shape.len()];
    let mut step = 1isize;
    for (s, &n) in strides.iter_mut().zip(shape).rev() {
        *s = step;
        step = step.saturating_mul(n.max(1) as isize);
    }
    strides
}

/// The lab's limit on one array's elements (as the engine limits a tensor's memory).
const MAX_ELEMENTS: usize = 1 << 28;

/// Checks a shape's element count before anything is allocated. Empty dimensions count as
/// one: an array of shape `(2**62, 0)` has no elements, but loops over its rows would not end.
pub fn checked_size(shape: &[usize]) -> Result<usize> {
    shape
        .iter()
        .try_fold(1usize, |n, &d| n.checked_mul(d.max(1)))
        .filter(|&n| n <= MAX_ELEMENTS)
        .map(|_| shape.iter().product())
        .ok_or_else(|| {
            PyException::new(
                ExcType::MemoryError,
                format!(
                    "Unable to allocate an array with shape {}: more than the lab holds",
                    super::format::shape_text(shape)
                ),
            )
        })
}

impl NdArray {
    /// A new array of `shape` holding `data` (converted to `dtype`).
    pub fn from_data(
        session: &Session,
        data: Data,
        dtype: NpDType,
        shape: &[usize],
    ) -> Result<NdArray> {
        checked_size(shape)?;
        let base = Tensor::from_host(session, data.into_storage(dtype), shape)?;
        Ok(NdArray {
            base,
            dtype,
            shape: shape.to_vec(),
            strides: c_strides(shape),
            offset: 0,
        })
    }

    /// The array over a CPU tensor's memory (`t.numpy()`, `np.asarray(t)`).
    pub fn over_tensor(t: &Tensor) -> Result<NdArray> {
        checked_size(t.shape())?;
        let dtype = NpDType::from_torch(t.dtype()).ok_or_else(|| {
            PyException::new(
                ExcType::TypeError,
                format!(
                    "Got unsupported ScalarType {}",
                    t.dtype().scalar_type_name()
                ),
            )
        })?;
        Ok(NdArray {
            base: t.clone(),
            dtype,
            shape: t.shape().to_vec(),
            strides: t.stride().iter().map(|&s| s as isize).collect(),
            offset: t.storage_offset(),
        })
    }

    pub fn session(&self) -> &Session {
        self.base.session()
    }

    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn ndim(&self) -> usize {
        self.shape.len()
    }

    /// Another view of the same memory.
    pub fn view(&self, shape: Vec<usize>, strides: Vec<isize>, offset: usize) -> NdArray {
        NdArray {
            base: self.base.clone(),
            dtype: self.dtype,
            shape,
            strides,
            offset,
        }
    }

    /// Whether the elements lie in row-major order with no gaps.
    pub fn is_c_contiguous(&self) -> bool {
        let mut step = 1isize;
        for (&n, &s) in self.shape.iter().zip(&self.strides).rev() {
            if n != 1 && s != step {
                return false;
            }
            step *= n as isize;
        }
        true
    }

    /// The storage position of each element, in row-major order.
    pub fn positions(&self) -> Vec<usize> {
        let n = self.size();
        let mut out = Vec::with_capacity(n);
        if n == 0 {
            return out;
        }
        if self.is_c_contiguous() {
            out.extend(self.offset..self.offset + n);
            return out;
        }
        let mut index = vec![0usize; self.shape.len()];
        let mut at = self.offset as isize;
        for _ in 0..n {
            out.push(at as usize);
            for d in (0..self.shape.len()).rev() {
                index[d] += 1;
                at += self.strides[d];
                if index[d] < self.shape[d] {
                    break;
                }
                at -= self.strides[d] * self.shape[d] as isize;
                index[d] = 0;
            }
        }
        out
    }

    /// The elements in row-major order.
    pub fn data(&self) -> Result<Data> {
        let n = self.size();
        if self.is_c_contiguous() {
            let range = self.offset..self.offset + n;
            // A slice copies at once where the storage holds the lane's own type.
            return Ok(self.base.read_storage(|cpu| match cpu {
                CpuStorage::F64(v) => Data::Float(v[range].to_vec()),
                CpuStorage::I64(v) => Data::Int(v[range].to_vec()),
                CpuStorage::Bool(v) => Data::Bool(v[range].to_vec()),
                other => gather(other, range),
            })?);
        }
        let positions = self.positions();
        Ok(self
            .base
            .read_storage(|cpu| gather(cpu, positions.into_iter()))?)
    }

    /// The elements at storage `positions` (what advanced indexing picked).
    pub fn gather(&self, positions: &[usize]) -> Result<Data> {
        Ok(self
            .base
            .read_storage(|cpu| gather(cpu, positions.iter().copied()))?)
    }

    /// Writes `values` (one per position, or one for all) at storage `positions`.
    pub fn write(&self, positions: &[usize], values: Data) -> Result<()> {
        let values = values.cast(self.dtype);
        Ok(self
            .base
            .write_storage(|cpu| scatter(cpu, positions, &values))?)
    }

    /// Writes row-major `values` of this array's size into its elements.
    pub fn write_all(&self, values: Data) -> Result<()> {
        self.write(&self.positions(), values)
    }

    /// A row-major copy with storage of its own.
    pub fn copy(&self) -> Result<NdArray> {
        NdArray::from_data(self.session(), self.data()?, self.dtype, &self.shape)
    }

    /// The element at a flat row-major position, as a NumPy scalar.
    pub fn scalar_at(&self, flat: usize) -> Result<NpScalar> {
        let mut rest = flat;
        let mut at = self.offset as isize;
        for (&n, &s) in self.shape.iter().zip(&self.strides).rev() {
            at += (rest % n) as isize * s;
            rest /= n;
        }
        let value = self
            .base
            .read_storage(|cpu| gather(cpu, std::iter::once(at as usize)).get(0))?;
        Ok(NpScalar::new(self.dtype, value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_cast_to_narrow_integers_as_numpy_does_on_x86() {
        let values = Data::Float(vec![f64::NAN, 1e10, 300.7, -5.5, 70000.0]);
        assert_eq!(
            values.clone().cast(NpDType::Int32),
            Data::Int(vec![-2147483648, -2147483648, 300, -5, 70000])
        );
        assert_eq!(
            values.clone().cast(NpDType::Int16),
            Data::Int(vec![0, 0, 300, -5, 4464])
        );
        assert_eq!(
            values.clone().cast(NpDType::Int8),
            Data::Int(vec![0, 0, 44, -5, 112])
        );
        assert_eq!(
            values.cast(NpDType::UInt8),
            Data::Int(vec![0, 0, 44, 251, 112])
        );
    }
}
