//! Helpers the GPU tests share: a session on the real adapter, reproducible random inputs, and
//! the comparison of a GPU result with the CPU backend's.
#![allow(dead_code)]

use std::rc::Rc;

use tolab_engine::backend::gpu::GpuContext;
use tolab_engine::trace::{Backend, EventKind};
use tolab_engine::{DType, Device, Error, Scalar, Session, SessionConfig, Tensor, To};

pub fn gpu_session() -> Session {
    let gpu = pollster::block_on(GpuContext::new())
        .expect("a GPU adapter (install mesa-vulkan-drivers for lavapipe)");
    let session = Session::with_gpu(SessionConfig::default(), Rc::new(gpu));
    session.set_tracing(true);
    session
}

/// A session whose GPU binds float16 packed two to a word, as on an adapter without
/// `shader-f16` (browsers on SwiftShader), so that path runs natively too.
pub fn packed_f16_session() -> Session {
    let gpu = pollster::block_on(GpuContext::new())
        .expect("a GPU adapter (install mesa-vulkan-drivers for lavapipe)")
        .without_shader_f16();
    let session = Session::with_gpu(SessionConfig::default(), Rc::new(gpu));
    session.set_tracing(true);
    session
}

/// xorshift64*: reproducible inputs without a dependency; a failure names its seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    pub fn shape(&mut self) -> Vec<usize> {
        let rank = self.below(4) as usize;
        (0..rank)
            .map(|_| self.below(5) as usize + usize::from(self.below(8) != 0))
            .collect()
    }

    pub fn values(&mut self, n: usize, dtype: DType) -> Vec<Scalar> {
        (0..n)
            .map(|_| match dtype {
                DType::Bool => Scalar::Bool(self.below(2) == 1),
                DType::UInt8 => Scalar::Int(self.below(256) as i64),
                d if d.is_floating_point() => {
                    Scalar::Float((self.below(20_001) as f64 - 10_000.0) / 2_500.0)
                }
                _ => Scalar::Int(self.below(201) as i64 - 100),
            })
            .collect()
    }
}

/// The same tensor on the CPU and on `cuda:0`, maybe seen through a transposed (non-contiguous)
/// view.
pub fn pair(
    cpu: &Session,
    gpu: &Session,
    rng: &mut Rng,
    shape: &[usize],
    dtype: DType,
) -> (Tensor, Tensor) {
    let transpose = shape.len() >= 2 && rng.below(2) == 0;
    let mut stored = shape.to_vec();
    if transpose {
        stored.swap(0, 1);
    }
    let values = rng.values(stored.iter().product(), dtype);
    let make = |session: &Session| {
        let t = Tensor::from_scalars(session, &values, &stored, Some(dtype), Device::CPU, false)
            .unwrap();
        let t = if std::ptr::eq(session, gpu) {
            t.to(To::device("cuda")).unwrap()
        } else {
            t
        };
        if transpose {
            t.transpose(0, 1).unwrap()
        } else {
            t
        }
    };
    (make(cpu), make(gpu))
}

/// The bound a float result of `dtype` is held to, relative to the larger magnitude: one rounding
/// of the stored type for arithmetic (f16 and bf16 are computed in f32 and rounded once, as on
/// the CPU). Transcendentals (`exp`, `log`, `pow`, `tanh`, `sigmoid`) may differ by what Vulkan
/// allows its `exp`/`log` (3 + 2·|x| ULP), bounded here by 1e-4 for float32 inputs up to 100.
pub fn tolerance(dtype: DType, transcendental: bool) -> f64 {
    match dtype {
        DType::Float64 => 1e-12,
        DType::Float32 if transcendental => 1e-4,
        DType::Float32 => 2e-7,
        DType::Float16 => 1e-3,
        DType::BFloat16 => 8e-3,
        _ => 0.0,
    }
}

/// Ops whose GPU kernels may differ from the CPU's by a few ULP: the transcendentals, and fmod
/// and remainder, whose GPU remainder follows a rounded quotient (the CPU's is exact).
pub const TRANSCENDENTAL: [&str; 30] = [
    "atan2",
    "hypot",
    "fmod",
    "remainder",
    "exp",
    "log",
    "pow",
    "tanh",
    "sigmoid",
    "exp2",
    "expm1",
    "log2",
    "log10",
    "log1p",
    "rsqrt",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "asinh",
    "acosh",
    "atanh",
    "erf",
    "erfc",
    "erfinv",
    "reciprocal",
];

/// Periodic functions and those whose result crosses zero away from zero (`sin(π)`, `log(1)`,
/// `erfinv` through its Newton steps) are held to their inputs' scale near those zeros.
pub const ABSOLUTE_NEAR_ZERO: [&str; 10] = [
    "sin",
    "cos",
    "tan",
    "log",
    "log2",
    "log10",
    "erfinv",
    "fmod",
    "remainder",
    "atan2",
];

/// Reductions accumulate in a different order on the GPU (a tree) than on the CPU (in f64): the
/// bound grows with the number of terms.
pub const ACCUMULATED: [&str; 4] = ["sum", "mean", "prod", "std"];

pub fn assert_same(case: &str, cpu: Result<Tensor, Error>, gpu: Result<Tensor, Error>) {
    let (cpu, gpu) = match (cpu, gpu) {
        (Ok(c), Ok(g)) => (c, g),
        (Err(c), Err(g)) => {
            assert_eq!(c.to_string(), g.to_string(), "{case}");
            return;
        }
        (c, g) => panic!("{case}: the CPU gave {c:?}, the GPU {g:?}"),
    };
    assert_eq!(cpu.shape(), gpu.shape(), "{case}");
    assert_eq!(cpu.dtype(), gpu.dtype(), "{case}");
    assert_eq!(gpu.device(), Device::cuda(0), "{case}");
    let c = cpu.scalars().unwrap();
    let g = gpu.scalars().unwrap();
    let named = |names: &[&str]| names.iter().any(|f| case.contains(&format!("{f}(")));
    let accumulated = named(&ACCUMULATED);
    let bound = tolerance(cpu.dtype(), accumulated || named(&TRANSCENDENTAL));
    // A sum that cancels is held to its terms' scale (inputs here are at most 100), not its own.
    let floor = if accumulated {
        1.0
    } else if named(&ABSOLUTE_NEAR_ZERO) {
        1e-3
    } else {
        1e-30
    };
    for (i, (x, y)) in c.iter().zip(&g).enumerate() {
        let (x, y) = (x.as_f64(), y.as_f64());
        let same = x == y
            || (x.is_nan() && y.is_nan())
            || (x - y).abs() <= bound * x.abs().max(y.abs()).max(floor);
        assert!(same, "{case}: element {i}: CPU {x}, GPU {y}");
    }
}

pub fn kernels_on(session: &Session) -> Vec<(String, Backend)> {
    session
        .take_trace()
        .into_iter()
        .filter_map(|e| match e.kind {
            EventKind::Kernel { op, backend } => Some((op, backend)),
            _ => None,
        })
        .collect()
}

/// No op since the trace was last taken was computed on the CPU for the GPU, but those named.
pub fn assert_no_stand_ins(session: &Session, allowed: &[&str]) {
    let stand_ins: Vec<String> = kernels_on(session)
        .into_iter()
        .filter(|(op, b)| *b == Backend::CpuStandIn && !allowed.contains(&op.as_str()))
        .map(|(op, _)| op)
        .collect();
    assert!(stand_ins.is_empty(), "{stand_ins:?}");
}
