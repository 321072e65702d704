//! The core of Python's `random` (CPython's `_random`): a Mersenne Twister on the engine's
//! MT19937, seeded, read and saved as CPython's is, so a seeded cell draws CPython's numbers.
//! Everything built on it (`randrange`, `choice`, `sample`, `gauss`, `random.Random`, …) is
//! `py/random.py`, which reaches these through `_lab.random_*`.

use std::cell::RefCell;
use std::rc::Rc;

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};
use tolab_engine::random::Mt19937;

use crate::python::args::Args;
use crate::python::exception::{ExcType, PyException};
use crate::python::int;
use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

/// The `_lab` functions this module answers.
pub const NATIVES: &[&str] = &[
    "random_default",
    "random_new",
    "random_seed",
    "random_random",
    "random_getrandbits",
    "random_getstate",
    "random_setstate",
];

/// CPython's `_random.Random`.
pub struct PythonRandom(Mt19937);

impl Default for PythonRandom {
    fn default() -> Self {
        PythonRandom::seeded(&BigInt::zero())
    }
}

impl PythonRandom {
    /// `seed(n)`: `init_by_array` over the 32-bit words of `|n|`, least significant first.
    pub fn seeded(seed: &BigInt) -> PythonRandom {
        let (_, mut key) = seed.abs().to_u32_digits();
        if key.is_empty() {
            key.push(0);
        }
        PythonRandom(Mt19937::from_key(&key))
    }

    /// `random()`: 53 random bits.
    pub fn random(&mut self) -> f64 {
        let a = f64::from(self.0.next_u32() >> 5);
        let b = f64::from(self.0.next_u32() >> 6);
        (a * 67_108_864.0 + b) / 9_007_199_254_740_992.0
    }

    /// `getrandbits(k)`: whole 32-bit words, least significant first, the last one cut.
    fn bits(&mut self, k: u64) -> BigInt {
        let mut words = Vec::new();
        let mut left = k;
        while left > 0 {
            let word = self.0.next_u32();
            words.push(if left < 32 { word >> (32 - left) } else { word });
            left = left.saturating_sub(32);
        }
        BigInt::from_slice(num_bigint::Sign::Plus, &words)
    }
}

fn type_error(message: String) -> PyException {
    PyException::new(ExcType::TypeError, message)
}

fn generator(v: Option<&Value>) -> Result<Rc<RefCell<PythonRandom>>> {
    match v {
        Some(Value::PyRandom(r)) => Ok(r.clone()),
        _ => Err(type_error("expected a _random.Random".into())),
    }
}

/// `_lab.random_*(...)`; `default` is the notebook's own generator (the module's functions').
pub fn call(default: &Rc<RefCell<PythonRandom>>, name: &str, args: &Args) -> Result<Value> {
    let arg = |i: usize| args.positional.get(i);
    Ok(match name {
        "random_default" => Value::PyRandom(default.clone()),
        "random_new" => Value::PyRandom(Rc::default()),
        "random_seed" => {
            let seed = match arg(1) {
                None | Some(Value::None) => {
                    // CPython reads the system's entropy; the lab, the clock.
                    let now = crate::python::clock::epoch_seconds();
                    BigInt::from((now * 1e9) as u64)
                }
                Some(v) => match int::as_big(v) {
                    Some(n) => n,
                    // Floats and other hashables seed by their hash, as `_random` does.
                    None => BigInt::from(crate::python::hashing::hash(v)?),
                },
            };
            *generator(arg(0))?.borrow_mut() = PythonRandom::seeded(&seed);
            Value::None
        }
        "random_random" => Value::Float(generator(arg(0))?.borrow_mut().random()),
        "random_getrandbits" => {
            let k = match arg(1) {
                Some(Value::Int(k)) => *k,
                Some(other) => crate::python::value::as_index(other)?,
                None => return Err(type_error("getrandbits() takes exactly 1 argument".into())),
            };
            if k < 0 {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "number of bits must be non-negative",
                ));
            }
            if k as u64 > int::MAX_BITS {
                return Err(int::too_big());
            }
            int::normalized(generator(arg(0))?.borrow_mut().bits(k as u64))
        }
        "random_getstate" => {
            let rng = generator(arg(0))?;
            let rng = rng.borrow();
            let (words, index) = rng.0.state();
            let mut state: Vec<Value> = words.iter().map(|&w| Value::Int(i64::from(w))).collect();
            state.push(Value::Int(index as i64));
            Value::Tuple(state.into())
        }
        "random_setstate" => {
            let Some(Value::Tuple(state)) = arg(1) else {
                return Err(type_error("state vector must be a tuple".into()));
            };
            let number = |v: &Value| int::as_big(v).and_then(|n| n.to_u32());
            let words: Option<Vec<u32>> = state.iter().map(number).collect();
            let restored = words.and_then(|words| {
                let (index, words) = words.split_last()?;
                Mt19937::from_state(words, *index as usize)
            });
            let Some(restored) = restored else {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "state vector is the wrong size",
                ));
            };
            generator(arg(0))?.borrow_mut().0 = restored;
            Value::None
        }
        other => {
            return Err(PyException::new(
                ExcType::AttributeError,
                format!("module '_lab' has no attribute '{other}'"),
            ));
        }
    })
}
