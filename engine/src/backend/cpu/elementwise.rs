//! Elementwise kernels: binary arithmetic and comparisons, and unary math, on lanes.

use crate::dtype::DType;
use crate::element::Scalar;
use crate::layout::Layout;
use crate::storage::CpuStorage;

/// The elements of one operand, in the type the arithmetic runs in.
#[derive(Debug, Clone, PartialEq)]
pub enum Lanes {
    F32(Vec<f32>),
    F64(Vec<f64>),
    I64(Vec<i64>),
    Bool(Vec<bool>),
}

/// Lanes borrowed: from [`Lanes`], or straight from a contiguous storage of a lane dtype (the fast
/// path that skips the gather).
#[derive(Debug, Clone, Copy)]
pub enum LanesRef<'a> {
    F32(&'a [f32]),
    F64(&'a [f64]),
    I64(&'a [i64]),
    Bool(&'a [bool]),
}

impl<'a> LanesRef<'a> {
    fn to_lanes(self) -> Lanes {
        match self {
            LanesRef::F32(v) => Lanes::F32(v.to_vec()),
            LanesRef::F64(v) => Lanes::F64(v.to_vec()),
            LanesRef::I64(v) => Lanes::I64(v.to_vec()),
            LanesRef::Bool(v) => Lanes::Bool(v.to_vec()),
        }
    }

    /// `len` elements of `storage` from `offset`, when its dtype is a lane type.
    pub fn of_storage(storage: &'a CpuStorage, offset: usize, len: usize) -> Option<LanesRef<'a>> {
        let range = offset..offset + len;
        Some(match storage {
            CpuStorage::F32(v) => LanesRef::F32(v.get(range)?),
            CpuStorage::F64(v) => LanesRef::F64(v.get(range)?),
            CpuStorage::I64(v) => LanesRef::I64(v.get(range)?),
            CpuStorage::Bool(v) => LanesRef::Bool(v.get(range)?),
            _ => return None,
        })
    }
}

/// Which lane type a dtype computes in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LaneKind {
    F32,
    F64,
    I64,
    Bool,
}

impl LaneKind {
    pub fn of(dtype: DType) -> LaneKind {
        match dtype {
            DType::Float32 | DType::Float16 | DType::BFloat16 => LaneKind::F32,
            DType::Float64 => LaneKind::F64,
            DType::Int64 | DType::Int32 | DType::Int16 | DType::Int8 | DType::UInt8 => {
                LaneKind::I64
            }
            DType::Bool => LaneKind::Bool,
        }
    }

    pub fn dtype(self) -> DType {
        match self {
            LaneKind::F32 => DType::Float32,
            LaneKind::F64 => DType::Float64,
            LaneKind::I64 => DType::Int64,
            LaneKind::Bool => DType::Bool,
        }
    }
}

impl Lanes {
    /// The elements `layout` selects from `storage`, widened to `kind`.
    pub fn gather(storage: &CpuStorage, layout: &Layout, kind: LaneKind) -> Lanes {
        Lanes::from_storage(storage.gather(layout, kind.dtype()))
    }

    /// `n` copies of a Python number, as `kind`.
    pub fn splat(value: Scalar, n: usize, kind: LaneKind) -> Lanes {
        Lanes::from_storage(CpuStorage::filled(kind.dtype(), n, value))
    }

    fn from_storage(storage: CpuStorage) -> Lanes {
        let len = storage.len();
        let all = Layout::contiguous(&[len]);
        match storage {
            CpuStorage::F32(v) => Lanes::F32(v),
            CpuStorage::F64(v) => Lanes::F64(v),
            CpuStorage::I64(v) => Lanes::I64(v),
            CpuStorage::Bool(v) => Lanes::Bool(v),
            narrow @ (CpuStorage::F16(_) | CpuStorage::BF16(_)) => {
                Lanes::from_storage(narrow.gather(&all, DType::Float32))
            }
            narrow @ (CpuStorage::I32(_)
            | CpuStorage::I16(_)
            | CpuStorage::I8(_)
            | CpuStorage::U8(_)) => Lanes::from_storage(narrow.gather(&all, DType::Int64)),
        }
    }

    pub fn as_ref(&self) -> LanesRef<'_> {
        match self {
            Lanes::F32(v) => LanesRef::F32(v),
            Lanes::F64(v) => LanesRef::F64(v),
            Lanes::I64(v) => LanesRef::I64(v),
            Lanes::Bool(v) => LanesRef::Bool(v),
        }
    }

    /// Stores the lanes as `dtype` (rounding 16-bit floats, wrapping narrow integers).
    pub fn into_storage(self, dtype: DType) -> CpuStorage {
        let storage = match self {
            Lanes::F32(v) => CpuStorage::F32(v),
            Lanes::F64(v) => CpuStorage::F64(v),
            Lanes::I64(v) => CpuStorage::I64(v),
            Lanes::Bool(v) => CpuStorage::Bool(v),
        };
        if storage.dtype() == dtype {
            storage
        } else {
            storage.gather(&Layout::contiguous(&[storage.len()]), dtype)
        }
    }
}

/// A binary elementwise operation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Binary {
    Add,
    Sub,
    Mul,
    Div,
    /// Python's `//`: the quotient rounded toward negative infinity.
    FloorDiv,
    /// Python's `%`: the remainder with the divisor's sign.
    Remainder,
    Pow,
    Maximum,
    Minimum,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// `&`, `|`, `^` on integer and bool tensors.
    BitAnd,
    BitOr,
    BitXor,
    /// `<<` and `>>` on integer tensors, as ATen's lshift/rshift kernels: a shift by a negative
    /// amount or past the width gives 0 (left) or the sign (right).
    Shl,
    Shr,
    Atan2,
    Hypot,
    /// C's `fmod`: the remainder with the dividend's sign.
    Fmod,
    /// `fmax`/`fmin`: a NaN operand gives the other one.
    Fmax,
    Fmin,
    Copysign,
    /// `div(rounding_mode='trunc')`: the quotient rounded toward zero.
    TruncDiv,
}

impl Binary {
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            Binary::Eq | Binary::Ne | Binary::Lt | Binary::Le | Binary::Gt | Binary::Ge
        )
    }

    /// `&`, `|`, `^`: defined on integers and bools only.
    pub fn is_bitwise(self) -> bool {
        matches!(self, Binary::BitAnd | Binary::BitOr | Binary::BitXor)
    }

    /// `<<`, `>>`: defined on integers only.
    pub fn is_shift(self) -> bool {
        matches!(self, Binary::Shl | Binary::Shr)
    }

    /// Ops whose integer inputs are computed in float32, as true division's are.
    pub fn promotes_integers(self) -> bool {
        matches!(self, Binary::Div | Binary::Atan2 | Binary::Copysign)
    }
}

macro_rules! zip_map {
    ($a:expr, $b:expr, $f:expr) => {
        super::buffer::collect($a.iter().zip($b.iter()).map(|(&x, &y)| $f(x, y)))
    };
}

/// Applies `op` lane by lane; both operands must be of the same kind and length.
pub fn binary(op: Binary, a: LanesRef, b: LanesRef) -> Lanes {
    macro_rules! float_op {
        ($x:expr, $y:expr, $variant:ident) => {
            match op {
                Binary::Add => Lanes::$variant(zip_map!($x, $y, |p, q| p + q)),
                Binary::Sub => Lanes::$variant(zip_map!($x, $y, |p, q| p - q)),
                Binary::Mul => Lanes::$variant(zip_map!($x, $y, |p, q| p * q)),
                Binary::Div => Lanes::$variant(zip_map!($x, $y, |p, q| p / q)),
                Binary::FloorDiv => Lanes::$variant(zip_map!($x, $y, |p: _, q: _| floor_div(p, q))),
                Binary::Remainder => {
                    Lanes::$variant(zip_map!($x, $y, |p: _, q: _| remainder(p, q)))
                }
                Binary::Pow => Lanes::$variant(zip_map!($x, $y, |p: _, q| num_pow(p, q))),
                Binary::Maximum => Lanes::$variant(zip_map!($x, $y, |p: _, q| nan_max(p, q))),
                Binary::Minimum => Lanes::$variant(zip_map!($x, $y, |p: _, q| nan_min(p, q))),
                Binary::Eq => Lanes::Bool(zip_map!($x, $y, |p, q| p == q)),
                Binary::Ne => Lanes::Bool(zip_map!($x, $y, |p, q| p != q)),
                Binary::Lt => Lanes::Bool(zip_map!($x, $y, |p, q| p < q)),
                Binary::Le => Lanes::Bool(zip_map!($x, $y, |p, q| p <= q)),
                Binary::Gt => Lanes::Bool(zip_map!($x, $y, |p, q| p > q)),
                Binary::Ge => Lanes::Bool(zip_map!($x, $y, |p, q| p >= q)),
                Binary::Atan2 => Lanes::$variant(zip_map!($x, $y, |p: _, q| Float::atan2(p, q))),
                Binary::Hypot => Lanes::$variant(zip_map!($x, $y, |p: _, q| Float::hypot(p, q))),
                Binary::Fmod => Lanes::$variant(zip_map!($x, $y, |p, q| p % q)),
                Binary::Fmax => Lanes::$variant(zip_map!($x, $y, |p: _, q| Float::fmax(p, q))),
                Binary::Fmin => Lanes::$variant(zip_map!($x, $y, |p: _, q| Float::fmin(p, q))),
                Binary::Copysign => {
                    Lanes::$variant(zip_map!($x, $y, |p: _, q| Float::copysign(p, q)))
                }
                Binary::TruncDiv => {
                    Lanes::$variant(zip_map!($x, $y, |p: _, q| Float::trunc(p / q)))
                }
                // Refused for floating dtypes before any kernel runs.
                Binary::BitAnd | Binary::BitOr | Binary::BitXor | Binary::Shl | Binary::Shr => {
                    Lanes::$variant($x.into())
                }
            }
        };
    }
    match (a, b) {
        (LanesRef::F32(x), LanesRef::F32(y)) => float_op!(x, y, F32),
        (LanesRef::F64(x), LanesRef::F64(y)) => float_op!(x, y, F64),
        (LanesRef::I64(x), LanesRef::I64(y)) => match op {
            Binary::Add => Lanes::I64(zip_map!(x, y, |p: i64, q| p.wrapping_add(q))),
            Binary::Sub => Lanes::I64(zip_map!(x, y, |p: i64, q| p.wrapping_sub(q))),
            Binary::Mul => Lanes::I64(zip_map!(x, y, |p: i64, q| p.wrapping_mul(q))),
            // True division never reaches integer lanes (it promotes to float first).
            Binary::Div => Lanes::I64(zip_map!(x, y, |p: i64, q| p.checked_div(q).unwrap_or(0))),
            // Division by zero is refused before the kernel runs.
            Binary::FloorDiv => Lanes::I64(zip_map!(x, y, |p: i64, q: i64| if q == 0 {
                0
            } else {
                p.div_euclid(q) - i64::from(q < 0 && p.rem_euclid(q) != 0)
            })),
            Binary::Remainder => Lanes::I64(zip_map!(x, y, |p: i64, q: i64| if q == 0 {
                0
            } else {
                (p % q + q) % q
            })),
            Binary::Pow => Lanes::I64(zip_map!(x, y, |p: i64, q: i64| int_pow(p, q))),
            Binary::Maximum => Lanes::I64(zip_map!(x, y, |p: i64, q| p.max(q))),
            Binary::Minimum => Lanes::I64(zip_map!(x, y, |p: i64, q| p.min(q))),
            Binary::Eq => Lanes::Bool(zip_map!(x, y, |p, q| p == q)),
            Binary::Ne => Lanes::Bool(zip_map!(x, y, |p, q| p != q)),
            Binary::Lt => Lanes::Bool(zip_map!(x, y, |p, q| p < q)),
            Binary::Le => Lanes::Bool(zip_map!(x, y, |p, q| p <= q)),
            Binary::Gt => Lanes::Bool(zip_map!(x, y, |p, q| p > q)),
            Binary::Ge => Lanes::Bool(zip_map!(x, y, |p, q| p >= q)),
            Binary::BitAnd => Lanes::I64(zip_map!(x, y, |p: i64, q| p & q)),
            Binary::BitOr => Lanes::I64(zip_map!(x, y, |p: i64, q| p | q)),
            Binary::BitXor => Lanes::I64(zip_map!(x, y, |p: i64, q| p ^ q)),
            // Narrower dtypes come out right once wrapped: their bits past the width are dropped
            // (left), and their sign fills them (right).
            Binary::Shl => Lanes::I64(zip_map!(x, y, |p: i64, q: i64| match u32::try_from(q) {
                Ok(q) if q < 64 => ((p as u64) << q) as i64,
                _ => 0,
            })),
            Binary::Shr => Lanes::I64(zip_map!(x, y, |p: i64, q: i64| match u32::try_from(q) {
                Ok(q) if q < 64 => p >> q,
                _ => p >> 63,
            })),
            // Division by zero is refused before the kernel runs.
            Binary::Fmod => Lanes::I64(zip_map!(x, y, |p: i64, q: i64| p
                .checked_rem(q)
                .unwrap_or(0))),
            Binary::TruncDiv => Lanes::I64(zip_map!(x, y, |p: i64, q: i64| if q == 0 {
                0
            } else {
                p.wrapping_div(q)
            })),
            Binary::Fmax => Lanes::I64(zip_map!(x, y, |p: i64, q| p.max(q))),
            Binary::Fmin => Lanes::I64(zip_map!(x, y, |p: i64, q| p.min(q))),
            // Computed in float or refused for integers before any kernel runs.
            Binary::Atan2 | Binary::Hypot | Binary::Copysign => Lanes::I64(x.into()),
        },
        (LanesRef::Bool(x), LanesRef::Bool(y)) => match op {
            Binary::Add | Binary::Maximum | Binary::Fmax | Binary::BitOr => {
                Lanes::Bool(zip_map!(x, y, |p, q| p || q))
            }
            Binary::Mul | Binary::Minimum | Binary::Fmin | Binary::BitAnd => {
                Lanes::Bool(zip_map!(x, y, |p, q| p && q))
            }
            Binary::Eq => Lanes::Bool(zip_map!(x, y, |p, q| p == q)),
            Binary::Ne | Binary::Sub | Binary::BitXor => Lanes::Bool(zip_map!(x, y, |p, q| p != q)),
            Binary::Lt => Lanes::Bool(zip_map!(x, y, |p: bool, q: bool| !p & q)),
            Binary::Le => Lanes::Bool(zip_map!(x, y, |p: bool, q| p <= q)),
            Binary::Gt => Lanes::Bool(zip_map!(x, y, |p: bool, q: bool| p & !q)),
            Binary::Ge => Lanes::Bool(zip_map!(x, y, |p: bool, q| p >= q)),
            // Refused for bools, or computed in float, before any kernel runs.
            Binary::Div
            | Binary::Shl
            | Binary::Shr
            | Binary::Pow
            | Binary::FloorDiv
            | Binary::Remainder
            | Binary::Atan2
            | Binary::Hypot
            | Binary::Fmod
            | Binary::Copysign
            | Binary::TruncDiv => Lanes::Bool(x.into()),
        },
        // Callers widen both operands to one kind first; mixed kinds have no elementwise meaning,
        // so the left operand is returned unchanged (right length, never reached in practice).
        _ => a.to_lanes(),
    }
}

/// `a + alpha · b` lane by lane with one rounding, as PyTorch's add kernel computes it (a fused
/// multiply-add): float32 through float64, where the product of two float32 values is exact, and
/// float64 by `mul_add`.
pub fn add_scaled(a: LanesRef, b: LanesRef, alpha: Scalar) -> Lanes {
    match (a, b) {
        (LanesRef::F32(x), LanesRef::F32(y)) => {
            let s = f64::from(alpha.as_f64() as f32);
            Lanes::F32(zip_map!(
                x,
                y,
                |p: f32, q: f32| (f64::from(p) + s * f64::from(q)) as f32
            ))
        }
        (LanesRef::F64(x), LanesRef::F64(y)) => {
            let s = alpha.as_f64();
            Lanes::F64(zip_map!(x, y, |p: f64, q: f64| q.mul_add(s, p)))
        }
        (LanesRef::I64(x), LanesRef::I64(y)) => {
            let s = alpha.as_f64() as i64;
            Lanes::I64(zip_map!(x, y, |p: i64, q: i64| p.wrapping_add(s.wrapping_mul(q))))
        }
        (LanesRef::Bool(x), LanesRef::Bool(y)) => {
            let s = alpha.as_f64() != 0.0;
            Lanes::Bool(zip_map!(x, y, |p: bool, q: bool| p || (s && q)))
        }
        // Callers widen both operands to one kind first.
        _ => a.to_lanes(),
    }
}

trait Float:
    Copy
    + PartialOrd
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Add<Output = Self>
    + std::ops::Div<Output = Self>
    + std::ops::Rem<Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    fn is_nan(self) -> bool;
    fn powf(self, e: Self) -> Self;
    fn floor(self) -> Self;
    fn trunc(self) -> Self;
    fn atan2(self, x: Self) -> Self;
    fn hypot(self, y: Self) -> Self;
    fn fmax(self, y: Self) -> Self;
    fn fmin(self, y: Self) -> Self;
    fn copysign(self, sign: Self) -> Self;
}

impl Float for f32 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    fn is_nan(self) -> bool {
        f32::is_nan(self)
    }
    fn trunc(self) -> Self {
        f32::trunc(self)
    }
    fn atan2(self, x: Self) -> Self {
        f32::atan2(self, x)
    }
    fn hypot(self, y: Self) -> Self {
        f32::hypot(self, y)
    }
    // `max`/`min` return the other operand of a NaN, as C's `fmax`/`fmin`.
    fn fmax(self, y: Self) -> Self {
        f32::max(self, y)
    }
    fn fmin(self, y: Self) -> Self {
        f32::min(self, y)
    }
    fn copysign(self, sign: Self) -> Self {
        f32::copysign(self, sign)
    }
    fn powf(self, e: Self) -> Self {
        f32::powf(self, e)
    }
    fn floor(self) -> Self {
        f32::floor(self)
    }
}

impl Float for f64 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    fn is_nan(self) -> bool {
        f64::is_nan(self)
    }
    fn trunc(self) -> Self {
        f64::trunc(self)
    }
    fn atan2(self, x: Self) -> Self {
        f64::atan2(self, x)
    }
    fn hypot(self, y: Self) -> Self {
        f64::hypot(self, y)
    }
    // `max`/`min` return the other operand of a NaN, as C's `fmax`/`fmin`.
    fn fmax(self, y: Self) -> Self {
        f64::max(self, y)
    }
    fn fmin(self, y: Self) -> Self {
        f64::min(self, y)
    }
    fn copysign(self, sign: Self) -> Self {
        f64::copysign(self, sign)
    }
    fn powf(self, e: Self) -> Self {
        f64::powf(self, e)
    }
    fn floor(self) -> Self {
        f64::floor(self)
    }
}

/// Python's float `//`, as PyTorch's `div_floor_floating` computes it: from `fmod`, so that
/// `1 // 0.1` is 9 and `inf // 1` is NaN.
fn floor_div<T: Float>(a: T, b: T) -> T {
    let (zero, one) = (T::ZERO, T::ONE);
    if b == zero {
        return a / b;
    }
    let modulo = a % b;
    let mut div = (a - modulo) / b;
    if modulo != zero && (b < zero) != (modulo < zero) {
        div = div - one;
    }
    if div != zero {
        let floor = div.floor();
        let half = one / (one + one);
        if div - floor > half {
            floor + one
        } else {
            floor
        }
    } else {
        Float::copysign(zero, a / b)
    }
}

/// Python's float `%`, as PyTorch computes it: `fmod`, moved into the divisor's sign.
fn remainder<T: Float>(a: T, b: T) -> T {
    let zero = T::ZERO;
    let modulo = a % b;
    if modulo != zero && (b < zero) != (modulo < zero) {
        modulo + b
    } else {
        modulo
    }
}

fn num_pow<T: Float>(x: T, e: T) -> T {
    x.powf(e)
}

/// `torch.maximum` propagates NaN.
fn nan_max<T: Float>(x: T, y: T) -> T {
    if x.is_nan() || x > y { x } else { y }
}

fn nan_min<T: Float>(x: T, y: T) -> T {
    if x.is_nan() || x < y { x } else { y }
}

fn int_pow(base: i64, exponent: i64) -> i64 {
    match u32::try_from(exponent) {
        Ok(e) => base.wrapping_pow(e),
        // Negative exponents: only 1 and -1 have integer reciprocals.
        Err(_) => match base {
            1 => 1,
            -1 if exponent % 2 == 0 => 1,
            -1 => -1,
            _ => 0,
        },
    }
}
