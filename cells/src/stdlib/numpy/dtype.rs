//! NumPy's dtypes as the lab has them (`bool`, `uint8`, `int8`, `int16`, `int32`, `int64`, `float16`,
//! `float32`, `float64`), their names, sizes and NumPy 2's type promotion (NEP 50: Python
//! numbers are "weak" and take the array's type), and which engine dtype stores each.

use tolab_engine::DType;

/// An array's element type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NpDType {
    Bool,
    UInt8,
    Int8,
    Int16,
    Int32,
    Int64,
    Float16,
    Float32,
    Float64,
}

/// The three families arithmetic works in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Bool,
    Int,
    Float,
}

impl NpDType {
    pub const ALL: [NpDType; 9] = [
        NpDType::Bool,
        NpDType::UInt8,
        NpDType::Int8,
        NpDType::Int16,
        NpDType::Int32,
        NpDType::Int64,
        NpDType::Float16,
        NpDType::Float32,
        NpDType::Float64,
    ];

    pub fn name(self) -> &'static str {
        match self {
            NpDType::Bool => "bool",
            NpDType::UInt8 => "uint8",
            NpDType::Int8 => "int8",
            NpDType::Int16 => "int16",
            NpDType::Int32 => "int32",
            NpDType::Int64 => "int64",
            NpDType::Float16 => "float16",
            NpDType::Float32 => "float32",
            NpDType::Float64 => "float64",
        }
    }

    /// The dtype a name, type code or alias means (`np.dtype("f4")`, `dtype="float"`).
    pub fn from_name(name: &str) -> Option<NpDType> {
        Some(match name {
            "bool" | "?" | "bool_" => NpDType::Bool,
            "uint8" | "u1" | "B" | "ubyte" => NpDType::UInt8,
            "int8" | "i1" | "b" | "byte" => NpDType::Int8,
            "int16" | "i2" | "h" | "short" => NpDType::Int16,
            "int32" | "i4" | "intc" => NpDType::Int32,
            "int64" | "i8" | "int" | "l" | "q" | "int_" | "intp" | "long" => NpDType::Int64,
            "float16" | "f2" | "e" | "half" => NpDType::Float16,
            "float32" | "f4" | "f" | "single" => NpDType::Float32,
            "float64" | "f8" | "d" | "float" | "double" | "float_" => NpDType::Float64,
            _ => return None,
        })
    }

    pub fn itemsize(self) -> usize {
        match self {
            NpDType::Bool | NpDType::UInt8 | NpDType::Int8 => 1,
            NpDType::Int16 | NpDType::Float16 => 2,
            NpDType::Int32 | NpDType::Float32 => 4,
            NpDType::Int64 | NpDType::Float64 => 8,
        }
    }

    pub fn kind(self) -> Kind {
        match self {
            NpDType::Bool => Kind::Bool,
            NpDType::UInt8 | NpDType::Int8 | NpDType::Int16 | NpDType::Int32 | NpDType::Int64 => {
                Kind::Int
            }
            NpDType::Float16 | NpDType::Float32 | NpDType::Float64 => Kind::Float,
        }
    }

    pub fn is_float(self) -> bool {
        self.kind() == Kind::Float
    }

    /// The engine dtype whose storage holds this one's elements.
    pub fn storage(self) -> DType {
        match self {
            NpDType::Bool => DType::Bool,
            NpDType::UInt8 => DType::UInt8,
            NpDType::Int8 => DType::Int8,
            NpDType::Int16 => DType::Int16,
            NpDType::Int32 => DType::Int32,
            NpDType::Int64 => DType::Int64,
            NpDType::Float16 => DType::Float16,
            NpDType::Float32 => DType::Float32,
            NpDType::Float64 => DType::Float64,
        }
    }

    /// The torch dtype `torch.from_numpy` gives.
    pub fn torch(self) -> DType {
        self.storage()
    }

    /// The NumPy dtype of a torch dtype (`t.numpy()`); `None` for bfloat16, as in NumPy.
    pub fn from_torch(dtype: DType) -> Option<NpDType> {
        Some(match dtype {
            DType::Bool => NpDType::Bool,
            DType::UInt8 => NpDType::UInt8,
            DType::Int8 => NpDType::Int8,
            DType::Int16 => NpDType::Int16,
            DType::Int32 => NpDType::Int32,
            DType::Int64 => NpDType::Int64,
            DType::Float16 => NpDType::Float16,
            DType::Float32 => NpDType::Float32,
            DType::Float64 => NpDType::Float64,
            DType::BFloat16 => return None,
        })
    }

    /// Within a kind, the wider of two types holds the other's values.
    fn rank(self) -> u8 {
        match self {
            NpDType::Bool => 0,
            NpDType::UInt8 | NpDType::Int8 => 1,
            NpDType::Int16 => 2,
            NpDType::Int32 => 3,
            NpDType::Int64 => 4,
            NpDType::Float16 => 5,
            NpDType::Float32 => 6,
            NpDType::Float64 => 7,
        }
    }

    /// The smallest float type that holds every value of an integer (or bool) type.
    fn float_for(self) -> NpDType {
        match self {
            NpDType::Bool | NpDType::UInt8 | NpDType::Int8 => NpDType::Float16,
            NpDType::Int16 => NpDType::Float32,
            _ => NpDType::Float64,
        }
    }

    /// `np.promote_types(a, b)`.
    pub fn promote(a: NpDType, b: NpDType) -> NpDType {
        let wider = |a: NpDType, b: NpDType| if a.rank() >= b.rank() { a } else { b };
        match (a.kind(), b.kind()) {
            // Neither holds the other's values.
            _ if matches!(
                (a, b),
                (NpDType::Int8, NpDType::UInt8) | (NpDType::UInt8, NpDType::Int8)
            ) =>
            {
                NpDType::Int16
            }
            (Kind::Float, Kind::Float) | (Kind::Int, Kind::Int) => wider(a, b),
            (_, Kind::Bool) => a,
            (Kind::Bool, _) => b,
            (Kind::Float, Kind::Int) => wider(a, b.float_for()),
            (Kind::Int, Kind::Float) => wider(b, a.float_for()),
        }
    }

    /// The type a Python number of `kind` (a "weak" scalar) takes next to an array of this
    /// type.
    pub fn with_weak(self, kind: Kind) -> NpDType {
        match (self.kind(), kind) {
            (_, Kind::Bool) => self,
            (Kind::Bool, Kind::Int) => NpDType::Int64,
            (_, Kind::Int) => self,
            (Kind::Float, Kind::Float) => self,
            (_, Kind::Float) => NpDType::Float64,
        }
    }

    /// The default type of a Python number of `kind` standing alone.
    pub fn default_for(kind: Kind) -> NpDType {
        match kind {
            Kind::Bool => NpDType::Bool,
            Kind::Int => NpDType::Int64,
            Kind::Float => NpDType::Float64,
        }
    }

    /// A float result rounded to this type's precision (f64 arithmetic rounded once gives the
    /// correctly rounded f32 or f16 result for `+ - * /` and `sqrt`).
    pub fn round_float(self, x: f64) -> f64 {
        match self {
            NpDType::Float32 => f64::from(x as f32),
            NpDType::Float16 => f16_of(x).to_f64(),
            _ => x,
        }
    }

    /// An integer result wrapped to this type's width, as C arithmetic wraps.
    pub fn wrap_int(self, i: i64) -> i64 {
        match self {
            NpDType::UInt8 => i64::from(i as u8),
            NpDType::Int8 => i64::from(i as i8),
            NpDType::Int16 => i64::from(i as i16),
            NpDType::Int32 => i64::from(i as i32),
            NpDType::Bool => i64::from(i != 0),
            _ => i,
        }
    }

    /// The smallest and largest value of an integer type.
    pub fn int_range(self) -> (i64, i64) {
        match self {
            NpDType::UInt8 => (0, 255),
            NpDType::Int8 => (i64::from(i8::MIN), i64::from(i8::MAX)),
            NpDType::Int16 => (i64::from(i16::MIN), i64::from(i16::MAX)),
            NpDType::Int32 => (i64::from(i32::MIN), i64::from(i32::MAX)),
            NpDType::Bool => (0, 1),
            _ => (i64::MIN, i64::MAX),
        }
    }

    /// Whether `repr` leaves the dtype out (`array([1., 2.])` is float64).
    pub fn implied(self) -> bool {
        matches!(self, NpDType::Float64 | NpDType::Int64 | NpDType::Bool)
    }

    /// The type of `np.sin(x)` and the other float functions for an `x` of this type.
    pub fn float_result(self) -> NpDType {
        match self.kind() {
            Kind::Float => self,
            _ => self.float_for(),
        }
    }
}

/// `x` rounded once to the nearest float16, ties to even (as NumPy's `npy_double_to_half`;
/// going through float32 would round twice and can land one step off).
pub fn f16_of(x: f64) -> half::f16 {
    let h = half::f16::from_f64(x);
    if !x.is_finite() || !h.is_finite() || h.to_f64() == x {
        return h;
    }
    let bits = h.to_bits();
    let mut best = h;
    for candidate in [bits.wrapping_sub(1), bits.wrapping_add(1)] {
        let c = half::f16::from_bits(candidate);
        if !c.is_finite() || c.is_sign_negative() != h.is_sign_negative() {
            continue;
        }
        let (dc, db) = ((c.to_f64() - x).abs(), (best.to_f64() - x).abs());
        if dc < db || (dc == db && candidate & 1 == 0) {
            best = c;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::NpDType::*;
    use super::*;

    #[test]
    fn promotion_follows_numpy_2() {
        assert_eq!(NpDType::promote(UInt8, Int16), Int16);
        assert_eq!(NpDType::promote(Int8, UInt8), Int16);
        assert_eq!(NpDType::promote(Int8, Float16), Float16);
        assert_eq!(NpDType::promote(Float16, Int16), Float32);
        assert_eq!(NpDType::promote(Float32, Int32), Float64);
        assert_eq!(NpDType::promote(Float32, UInt8), Float32);
        assert_eq!(NpDType::promote(Bool, Int32), Int32);
        assert_eq!(Int32.with_weak(Kind::Int), Int32);
        assert_eq!(Bool.with_weak(Kind::Int), Int64);
        assert_eq!(Int32.with_weak(Kind::Float), Float64);
        assert_eq!(Float32.with_weak(Kind::Float), Float32);
    }

    #[test]
    fn float16_rounds_once_from_float64() {
        // Through float32 this lands on the tie 12.88671875 and rounds to even: -12.890625.
        assert_eq!(f16_of(-12.886718375739282).to_f64(), -12.8828125);
        assert_eq!(f16_of(0.1).to_f64(), 0.0999755859375);
    }
}
