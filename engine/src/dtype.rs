//! Data types and PyTorch's type promotion.
//!
//! Promotion follows `c10::promoteTypes` and ATen's `ResultTypeState`: operands fall into three
//! priority classes (tensors with dimensions, 0-dim tensors, Python scalars), and a lower class only
//! changes the result when it is of a higher *category* (bool < integer < floating point).

use std::fmt;

use serde::{Deserialize, Serialize};

/// A tensor's element type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DType {
    Float32,
    Float64,
    Float16,
    BFloat16,
    Int64,
    Int32,
    Int16,
    Int8,
    UInt8,
    Bool,
}

impl DType {
    pub const ALL: [DType; 10] = [
        DType::Float32,
        DType::Float64,
        DType::Float16,
        DType::BFloat16,
        DType::Int64,
        DType::Int32,
        DType::Int16,
        DType::Int8,
        DType::UInt8,
        DType::Bool,
    ];

    /// The name after `torch.`: `float32`, `int64`, …
    pub fn name(self) -> &'static str {
        match self {
            DType::Float32 => "float32",
            DType::Float64 => "float64",
            DType::Float16 => "float16",
            DType::BFloat16 => "bfloat16",
            DType::Int64 => "int64",
            DType::Int32 => "int32",
            DType::Int16 => "int16",
            DType::Int8 => "int8",
            DType::UInt8 => "uint8",
            DType::Bool => "bool",
        }
    }

    /// ATen's scalar type name, used in many error texts ("expected scalar type Float but found Double").
    pub fn scalar_type_name(self) -> &'static str {
        match self {
            DType::Float32 => "Float",
            DType::Float64 => "Double",
            DType::Float16 => "Half",
            DType::BFloat16 => "BFloat16",
            DType::Int64 => "Long",
            DType::Int32 => "Int",
            DType::Int16 => "Short",
            DType::Int8 => "Char",
            DType::UInt8 => "Byte",
            DType::Bool => "Bool",
        }
    }

    /// PyTorch's `canCast`: whether a result of this dtype may be written into a tensor of `to`
    /// (in place, or through `out=`): never float to integer, nor anything but bool to bool.
    pub fn can_cast_to(self, to: DType) -> bool {
        let float_to_integer = self.is_floating_point() && !to.is_floating_point();
        let into_bool = self != DType::Bool && to == DType::Bool;
        !float_to_integer && !into_bool
    }

    /// A floating dtype's largest and lowest finite values (`torch.finfo(dtype).max`, `.min`).
    pub fn finite_range(self) -> (f64, f64) {
        let largest = match self {
            DType::Float64 => f64::MAX,
            DType::Float16 => 65504.0,
            DType::BFloat16 => 3.3895313892515355e38,
            _ => f64::from(f32::MAX),
        };
        (largest, -largest)
    }

    /// The C++ type that holds an element (`float`, `long int`, `c10::Half`): some of ATen's
    /// messages print it.
    pub fn cpp_name(self) -> &'static str {
        match self {
            DType::Float32 => "float",
            DType::Float64 => "double",
            DType::Float16 => "c10::Half",
            DType::BFloat16 => "c10::BFloat16",
            DType::Int64 => "long int",
            DType::Int32 => "int",
            DType::Int16 => "short int",
            DType::Int8 => "signed char",
            DType::UInt8 => "unsigned char",
            DType::Bool => "bool",
        }
    }

    /// The C++ type ATen's `Scalar::to<T>()` names when a number does not fit (`int8_t`, `int`),
    /// as `fill_` and `full` report it.
    fn scalar_accessor_type(self) -> &'static str {
        match self {
            DType::Int64 => "int64_t",
            DType::Int16 => "int16_t",
            DType::Int8 => "int8_t",
            DType::UInt8 => "uint8_t",
            other => other.cpp_name(),
        }
    }

    /// c10's `overflows`: whether a number lies outside what an element of this integer dtype
    /// holds. uint8 also takes negative integers down to -255 (they wrap, as two's complement
    /// arithmetic gives them); a float must lie within the range (up to, not including, one past
    /// the largest value), so NaN and infinities do not.
    /// Floating and bool dtypes take every number here.
    pub fn overflows(self, value: crate::Scalar) -> bool {
        use crate::Scalar;
        let Some(info) = self.iinfo() else {
            return false;
        };
        match value {
            Scalar::Bool(_) => false,
            Scalar::Int(i) if self == DType::UInt8 => !(-info.max..=info.max).contains(&i),
            Scalar::Int(i) => !(info.min..=info.max).contains(&i),
            // A fraction above the largest value truncates onto it; one below the lowest does not.
            Scalar::Float(f) => !(f >= info.min as f64 && f < info.max as f64 + 1.0),
        }
    }

    /// [`DType::overflows`] as the error `checked_convert` raises, the type named `ctype`.
    pub fn check_holds(
        self,
        value: crate::Scalar,
        ctype: &'static str,
    ) -> Result<(), crate::Error> {
        match self.overflows(value) {
            true => Err(crate::Error::ValueOverflow { ctype }),
            false => Ok(()),
        }
    }

    /// ATen's `Scalar::to<T>()`, the check of a number an op takes as an argument (`fill_`,
    /// `full`, `masked_fill`, `add`'s `alpha`): [`DType::check_holds`] naming the C++ type.
    pub fn check_scalar(self, value: crate::Scalar) -> Result<(), crate::Error> {
        self.check_holds(value, self.scalar_accessor_type())
    }

    /// Looks a dtype up by any name `torch.<name>` accepts, aliases included (`float`, `half`,
    /// `double`, `long`, `int`).
    pub fn from_name(name: &str) -> Option<DType> {
        Some(match name {
            "float32" | "float" => DType::Float32,
            "float64" | "double" => DType::Float64,
            "float16" | "half" => DType::Float16,
            "bfloat16" => DType::BFloat16,
            "int64" | "long" => DType::Int64,
            "int32" | "int" => DType::Int32,
            "int16" | "short" => DType::Int16,
            "int8" => DType::Int8,
            "uint8" => DType::UInt8,
            "bool" => DType::Bool,
            _ => return None,
        })
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            DType::Float64 | DType::Int64 => 8,
            DType::Float32 | DType::Int32 => 4,
            DType::Float16 | DType::BFloat16 | DType::Int16 => 2,
            DType::UInt8 | DType::Int8 | DType::Bool => 1,
        }
    }

    pub fn is_floating_point(self) -> bool {
        self.category() == Category::Floating
    }

    /// Integer types, with `bool` counted only when asked (as `c10::isIntegralType`).
    pub fn is_integral(self, include_bool: bool) -> bool {
        match self.category() {
            Category::Integral => true,
            Category::Bool => include_bool,
            Category::Floating => false,
        }
    }

    fn category(self) -> Category {
        match self {
            DType::Bool => Category::Bool,
            DType::UInt8 | DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => {
                Category::Integral
            }
            DType::Float16 | DType::BFloat16 | DType::Float32 | DType::Float64 => {
                Category::Floating
            }
        }
    }

    /// Within a category, which type can hold the other's values (int8, uint8 < int16 < int32 <
    /// int64; float16, bfloat16 < float32 < float64).
    fn rank(self) -> u8 {
        match self {
            DType::Bool => 0,
            DType::UInt8 | DType::Int8 => 1,
            DType::Int16 => 2,
            DType::Int32 => 3,
            DType::Int64 => 4,
            DType::Float16 | DType::BFloat16 => 5,
            DType::Float32 => 6,
            DType::Float64 => 7,
        }
    }

    /// Whether the type holds negative values (`dtype.is_signed`): floats and the signed
    /// integers.
    pub fn is_signed(self) -> bool {
        !matches!(self, DType::UInt8 | DType::Bool)
    }
}

impl fmt::Display for DType {
    /// As Python prints it: `torch.float32`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "torch.{}", self.name())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Category {
    Bool,
    Integral,
    Floating,
}

/// `torch.promote_types(a, b)`: the smallest type both promote to.
pub fn promote_types(a: DType, b: DType) -> DType {
    if a == b {
        return a;
    }
    // Neither of two types of one width can hold the other's values: int8 and uint8 go to
    // int16, float16 and bfloat16 to float32.
    match (a, b) {
        (DType::Int8, DType::UInt8) | (DType::UInt8, DType::Int8) => return DType::Int16,
        (DType::Float16, DType::BFloat16) | (DType::BFloat16, DType::Float16) => {
            return DType::Float32;
        }
        _ => {}
    }
    match a.category().cmp(&b.category()) {
        std::cmp::Ordering::Greater => a,
        std::cmp::Ordering::Less => b,
        std::cmp::Ordering::Equal => {
            if a.rank() >= b.rank() {
                a
            } else {
                b
            }
        }
    }
}

/// A Python number given where a tensor could be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScalarKind {
    Bool,
    Int,
    Float,
}

/// One input of an operation, as type promotion sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operand {
    /// A tensor and its number of dimensions.
    Tensor {
        dtype: DType,
        dim: usize,
    },
    Scalar(ScalarKind),
}

/// `torch.result_type` over any number of operands; Python floats count as `default`, the
/// default dtype.
pub fn result_type(operands: &[Operand], default: DType) -> Option<DType> {
    let mut dimensioned: Option<DType> = None;
    let mut zero_dim: Option<DType> = None;
    let mut wrapped: Option<DType> = None;
    let fold = |acc: Option<DType>, t: DType| Some(acc.map_or(t, |a| promote_types(a, t)));
    for operand in operands {
        match *operand {
            Operand::Tensor { dtype, dim } if dim > 0 => dimensioned = fold(dimensioned, dtype),
            Operand::Tensor { dtype, .. } => zero_dim = fold(zero_dim, dtype),
            Operand::Scalar(kind) => {
                let dtype = match kind {
                    ScalarKind::Bool => DType::Bool,
                    ScalarKind::Int => DType::Int64,
                    ScalarKind::Float => default,
                };
                wrapped = fold(wrapped, dtype);
            }
        }
    }
    combine_categories(dimensioned, combine_categories(zero_dim, wrapped))
}

/// ATen's `combine_categories`: the higher-priority result wins unless the lower one is of a
/// higher category.
fn combine_categories(higher: Option<DType>, lower: Option<DType>) -> Option<DType> {
    match (higher, lower) {
        (None, lower) => lower,
        (higher, None) => higher,
        (Some(h), Some(l)) => {
            if h.is_floating_point() {
                Some(h)
            } else if h == DType::Bool || l.is_floating_point() {
                Some(promote_types(h, l))
            } else {
                Some(h)
            }
        }
    }
}

/// `torch.finfo(dtype)`: the limits of a floating dtype.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FloatInfo {
    pub dtype: DType,
    pub bits: u32,
    /// The gap between 1 and the next value.
    pub eps: f64,
    pub max: f64,
    /// The smallest positive normal value (`smallest_normal`, also `tiny`).
    pub tiny: f64,
    /// `10 ** -digits`, `digits` the decimal digits the type holds.
    pub resolution: f64,
}

/// `torch.iinfo(dtype)`: the limits of an integer dtype.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IntInfo {
    pub dtype: DType,
    pub bits: u32,
    pub min: i64,
    pub max: i64,
}

impl DType {
    /// The limits of a floating dtype (`None` for the others).
    pub fn finfo(self) -> Option<FloatInfo> {
        let info = |bits, eps, max, tiny, resolution| FloatInfo {
            dtype: self,
            bits,
            eps,
            max,
            tiny,
            resolution,
        };
        Some(match self {
            DType::Float32 => info(
                32,
                f64::from(f32::EPSILON),
                f64::from(f32::MAX),
                f64::from(f32::MIN_POSITIVE),
                1e-6,
            ),
            DType::Float64 => info(64, f64::EPSILON, f64::MAX, f64::MIN_POSITIVE, 1e-15),
            DType::Float16 => info(
                16,
                half::f16::EPSILON.to_f64(),
                half::f16::MAX.to_f64(),
                half::f16::MIN_POSITIVE.to_f64(),
                1e-3,
            ),
            DType::BFloat16 => info(
                16,
                half::bf16::EPSILON.to_f64(),
                half::bf16::MAX.to_f64(),
                half::bf16::MIN_POSITIVE.to_f64(),
                1e-2,
            ),
            _ => return None,
        })
    }

    /// The limits of an integer dtype (`None` for the others, bool among them).
    pub fn iinfo(self) -> Option<IntInfo> {
        let (bits, min, max) = match self {
            DType::UInt8 => (8, 0, i64::from(u8::MAX)),
            DType::Int8 => (8, i64::from(i8::MIN), i64::from(i8::MAX)),
            DType::Int16 => (16, i64::from(i16::MIN), i64::from(i16::MAX)),
            DType::Int32 => (32, i64::from(i32::MIN), i64::from(i32::MAX)),
            DType::Int64 => (64, i64::MIN, i64::MAX),
            _ => return None,
        };
        Some(IntInfo {
            dtype: self,
            bits,
            min,
            max,
        })
    }
}

/// `repr(torch.finfo(dtype))`, the numbers as C++ streams them.
impl fmt::Display for FloatInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::error::CppDouble as C;
        write!(
            f,
            "finfo(resolution={}, min={}, max={}, eps={}, smallest_normal={}, tiny={}, dtype={})",
            C(self.resolution),
            C(-self.max),
            C(self.max),
            C(self.eps),
            C(self.tiny),
            C(self.tiny),
            self.dtype.name()
        )
    }
}

/// `repr(torch.iinfo(dtype))`.
impl fmt::Display for IntInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::error::CppDouble as C;
        write!(
            f,
            "iinfo(min={}, max={}, dtype={})",
            C(self.min as f64),
            C(self.max as f64),
            self.dtype.name()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Scalar;

    #[test]
    fn int8_and_uint8_promote_to_int16_as_neither_holds_the_other() {
        assert_eq!(promote_types(DType::Int8, DType::UInt8), DType::Int16);
        assert_eq!(promote_types(DType::UInt8, DType::Int16), DType::Int16);
        assert_eq!(promote_types(DType::Int8, DType::Int32), DType::Int32);
        assert_eq!(promote_types(DType::Int16, DType::Float16), DType::Float16);
    }

    #[test]
    fn overflow_checks_follow_c10_checked_convert() {
        // Measured with torch 2.15: torch.tensor([v], dtype=d) and torch.full((1,), v, dtype=d).
        let int8 = DType::Int8;
        assert!(!int8.overflows(Scalar::Float(127.99)));
        assert!(int8.overflows(Scalar::Float(128.0)));
        assert!(!int8.overflows(Scalar::Float(-128.0)));
        assert!(int8.overflows(Scalar::Float(-128.1)));
        assert!(int8.overflows(Scalar::Float(f64::NAN)));
        assert!(int8.overflows(Scalar::Int(-129)));
        assert!(!DType::UInt8.overflows(Scalar::Int(-255)));
        assert!(DType::UInt8.overflows(Scalar::Int(-256)));
        assert!(DType::UInt8.overflows(Scalar::Float(-0.5)));
        assert!(!DType::Int64.overflows(Scalar::Int(i64::MIN)));
        assert!(DType::Int64.overflows(Scalar::Float(9.3e18)));
        assert!(!DType::Float16.overflows(Scalar::Float(1e300)));
        assert!(!DType::Bool.overflows(Scalar::Int(7)));
    }
}
