//! How each dtype's elements sit in a kernel's storage bindings, and how a kernel reads and
//! writes one.
//!
//! The bytes are the CPU backend's (see `buffer.rs`); what differs is the WGSL type a kernel binds
//! them as. float64 binds as `f64`. float16 binds as `f16` where the adapter has `shader-f16`;
//! elsewhere it is packed two to a `u32` word, like bfloat16, and unpacked to float32 on load.
//! int64 is two words; int16 is packed two to a word, int8, uint8 and bool four. Either way a float16 value is
//! computed in float32 and rounded once when stored, as PyTorch computes half-precision ops.

use super::elementwise::{PRELUDE, Raw};
use crate::dtype::DType;

/// The binding format of one GPU context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Format {
    /// float16 binds as WGSL `f16` (the adapter has `shader-f16`), not as packed words.
    pub native_f16: bool,
}

impl Format {
    /// The helpers every generated kernel starts with (after the `enable` it needs).
    pub fn prelude(self) -> String {
        let mut s = String::new();
        if self.native_f16 {
            s.push_str("enable f16;\n");
        }
        s.push_str(PRELUDE);
        s
    }

    /// The WGSL element type of a binding holding `dtype` elements.
    pub fn binding_type(self, dtype: DType) -> &'static str {
        match dtype {
            DType::Float64 => "f64",
            DType::Float16 if self.native_f16 => "f16",
            _ => "u32",
        }
    }

    /// Elements of `dtype` per element of its binding: a row-major kernel writes whole binding
    /// elements, so a write of packed elements starts and ends on word boundaries.
    pub fn packing(self, dtype: DType) -> u32 {
        match dtype.size() {
            2 if dtype == DType::Float16 && self.native_f16 => 1,
            1 => 4,
            2 => 2,
            _ => 1,
        }
    }

    /// The element at index `e` of binding `b`, unpacked from its words.
    pub fn load(self, dtype: DType, b: &str) -> (String, Raw) {
        match dtype {
            DType::Float32 => (format!("bitcast<f32>({b}[e])"), Raw::F32),
            DType::Float64 => (format!("{b}[e]"), Raw::F64),
            DType::Float16 if self.native_f16 => (format!("f32({b}[e])"), Raw::F32),
            DType::Float16 => (format!("unpack2x16float({b}[e >> 1u])[e & 1u]"), Raw::F32),
            DType::BFloat16 => (
                format!("bf16_value(({b}[e >> 1u] >> ((e & 1u) * 16u)) & 0xffffu)"),
                Raw::F32,
            ),
            DType::Int32 => (format!("bitcast<i32>({b}[e])"), Raw::I32),
            DType::Int64 => (
                format!("vec2<u32>({b}[2u * e], {b}[2u * e + 1u])"),
                Raw::I64,
            ),
            DType::UInt8 => (
                format!("(({b}[e >> 2u] >> ((e & 3u) * 8u)) & 0xffu)"),
                Raw::U8,
            ),
            // The element's bits moved to the top of the word, then shifted back down with their
            // sign.
            DType::Int8 => (
                format!("(bitcast<i32>({b}[e >> 2u] << ((3u - (e & 3u)) * 8u)) >> 24u)"),
                Raw::I32,
            ),
            DType::Int16 => (
                format!("(bitcast<i32>({b}[e >> 1u] << ((1u - (e & 1u)) * 16u)) >> 16u)"),
                Raw::I32,
            ),
            DType::Bool => (
                format!("((({b}[e >> 2u] >> ((e & 3u) * 8u)) & 0xffu) != 0u)"),
                Raw::Bool,
            ),
        }
    }

    /// The store of value `v` (of `dtype`'s storage lanes) as a binding element's value: for
    /// packed dtypes, the element's bits at the bottom of a word.
    pub fn stored(self, dtype: DType, v: &str) -> String {
        match dtype {
            DType::Float16 if self.native_f16 => format!("f16({v})"),
            DType::Float16 => format!("f16_bits({v})"),
            DType::BFloat16 => format!("bf16_bits({v})"),
            DType::UInt8 | DType::Int8 => format!("({v}.x & 0xffu)"),
            DType::Int16 => format!("({v}.x & 0xffffu)"),
            DType::Bool => format!("select(0u, 1u, {v})"),
            DType::Float32 => format!("bitcast<u32>({v})"),
            DType::Int32 => format!("{v}.x"),
            DType::Int64 | DType::Float64 => v.to_owned(),
        }
    }
}
