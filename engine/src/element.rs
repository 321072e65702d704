//! Element values: the Rust type behind each dtype, Python scalars, and casts between them with
//! PyTorch's semantics (float → int truncates toward zero, anything → bool is "not zero",
//! integer → float rounds to nearest).

use half::{bf16, f16};

use crate::dtype::DType;

/// A Python number: what `item()` returns and what scalars in operations are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar {
    Bool(bool),
    Int(i64),
    Float(f64),
}

impl Scalar {
    pub fn as_f64(self) -> f64 {
        match self {
            Scalar::Bool(b) => f64::from(u8::from(b)),
            Scalar::Int(i) => i as f64,
            Scalar::Float(f) => f,
        }
    }

    /// The value an element of `dtype` holds once this one is stored in it (`Int(300)` as int8
    /// is `Int(44)`).
    pub fn cast(self, dtype: DType) -> Scalar {
        fn via<T: Element>(value: Scalar) -> Scalar {
            T::from_scalar(value).to_scalar()
        }
        match dtype {
            DType::Float32 => via::<f32>(self),
            DType::Float64 => via::<f64>(self),
            DType::Float16 => via::<f16>(self),
            DType::BFloat16 => via::<bf16>(self),
            DType::Int64 => via::<i64>(self),
            DType::Int32 => via::<i32>(self),
            DType::Int16 => via::<i16>(self),
            DType::Int8 => via::<i8>(self),
            DType::UInt8 => via::<u8>(self),
            DType::Bool => via::<bool>(self),
        }
    }
}

/// A Rust type that stores one dtype's elements.
pub trait Element: Copy + Default + PartialEq + std::fmt::Debug + 'static {
    const DTYPE: DType;
    /// The value as the Python number it prints as.
    fn to_scalar(self) -> Scalar;
    /// The element nearest to `value`, converting as PyTorch's casts do.
    fn from_scalar(value: Scalar) -> Self;
}

macro_rules! float_element {
    ($t:ty, $dtype:expr, $from_f64:expr, $from_i64:expr, $to_f64:expr) => {
        impl Element for $t {
            const DTYPE: DType = $dtype;
            fn to_scalar(self) -> Scalar {
                Scalar::Float($to_f64(self))
            }
            fn from_scalar(value: Scalar) -> Self {
                match value {
                    Scalar::Bool(b) => $from_f64(f64::from(u8::from(b))),
                    Scalar::Int(i) => $from_i64(i),
                    Scalar::Float(f) => $from_f64(f),
                }
            }
        }
    };
}

// Integers round once, straight to the target (through f32 for the 16-bit types, exact below 2^24).
float_element!(
    f32,
    DType::Float32,
    |v: f64| v as f32,
    |i: i64| i as f32,
    f64::from
);
float_element!(
    f64,
    DType::Float64,
    |v: f64| v,
    |i: i64| i as f64,
    |v: f64| v
);
float_element!(
    f16,
    DType::Float16,
    f16::from_f64,
    |i: i64| f16::from_f32(i as f32),
    f16::to_f64
);
float_element!(
    bf16,
    DType::BFloat16,
    bf16::from_f64,
    |i: i64| bf16::from_f32(i as f32),
    bf16::to_f64
);

/// A float converted to an integer as x86's `cvttsd2si` converts it, which PyTorch's (and
/// NumPy's) casts compile to: truncated toward zero, and anything out of range (NaN and infinities included) the lowest
/// 64-bit value or, for types narrower than 64 bits (`wide` false), the lowest 32-bit one, of
/// which a narrower type then keeps the low bits.
pub fn truncate_as_x86(f: f64, wide: bool) -> i64 {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    if wide {
        if (-TWO_63..TWO_63).contains(&f) {
            f as i64
        } else {
            i64::MIN
        }
    } else if f > -2_147_483_649.0 && f < 2_147_483_648.0 {
        f as i64
    } else {
        i64::from(i32::MIN)
    }
}

macro_rules! int_element {
    ($t:ty, $dtype:expr) => {
        impl Element for $t {
            const DTYPE: DType = $dtype;
            fn to_scalar(self) -> Scalar {
                Scalar::Int(self as i64)
            }
            fn from_scalar(value: Scalar) -> Self {
                match value {
                    Scalar::Bool(b) => <$t>::from(b),
                    // Integer narrowing wraps, as C++'s static_cast does.
                    Scalar::Int(i) => i as $t,
                    Scalar::Float(f) => truncate_as_x86(f, <$t>::BITS == 64) as $t,
                }
            }
        }
    };
}

int_element!(i64, DType::Int64);
int_element!(i32, DType::Int32);
int_element!(i16, DType::Int16);
int_element!(i8, DType::Int8);
int_element!(u8, DType::UInt8);

impl Element for bool {
    const DTYPE: DType = DType::Bool;
    fn to_scalar(self) -> Scalar {
        Scalar::Bool(self)
    }
    fn from_scalar(value: Scalar) -> Self {
        match value {
            Scalar::Bool(b) => b,
            Scalar::Int(i) => i != 0,
            Scalar::Float(f) => f != 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn casts_follow_pytorch() {
        assert_eq!(i64::from_scalar(Scalar::Float(-2.7)), -2);
        assert_eq!(u8::from_scalar(Scalar::Int(300)), 44);
        assert_eq!(Scalar::Int(300).cast(DType::Int8), Scalar::Int(44));
        assert_eq!(Scalar::Int(-129).cast(DType::Int8), Scalar::Int(127));
        assert_eq!(Scalar::Int(40000).cast(DType::Int16), Scalar::Int(-25536));
        assert_eq!(i8::from_scalar(Scalar::Float(300.5)), 44);
        // Measured with torch 2.15 on x86: `torch.tensor([v], dtype=torch.float64).to(dtype)`.
        assert_eq!(i32::from_scalar(Scalar::Float(3e9)), i32::MIN);
        assert_eq!(i16::from_scalar(Scalar::Float(70000.7)), 4464);
        assert_eq!(u8::from_scalar(Scalar::Float(1e10)), 0);
        assert_eq!(i64::from_scalar(Scalar::Float(f64::NAN)), i64::MIN);
        assert_eq!(i64::from_scalar(Scalar::Float(f64::INFINITY)), i64::MIN);
        assert_eq!(i64::from_scalar(Scalar::Float(3e9)), 3_000_000_000);
        assert!(bool::from_scalar(Scalar::Float(0.1)));
        assert!(!bool::from_scalar(Scalar::Float(-0.0)));
        assert_eq!(
            f16::from_scalar(Scalar::Float(0.1)).to_scalar(),
            Scalar::Float(0.0999755859375)
        );
        assert_eq!(
            bf16::from_scalar(Scalar::Float(0.1)).to_scalar(),
            Scalar::Float(0.10009765625)
        );
        assert_eq!(f32::from_scalar(Scalar::Bool(true)), 1.0);
    }
}
