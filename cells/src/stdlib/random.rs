//! Python's `random` module, on the Mersenne Twister the engine draws PyTorch's numbers from,
//! seeded and transformed as CPython does it, so a seeded cell draws CPython's numbers.

use tolab_engine::random::Mt19937;

use crate::python::args::Args;
use crate::python::exception::{ExcType, PyException};
use crate::python::operators::iterate;
use crate::python::value::{Value, as_f64};

type Result<T> = std::result::Result<T, PyException>;

/// The module's functions.
pub const FUNCTIONS: &[&str] = &["seed", "random", "randint", "choice", "shuffle", "uniform"];

/// CPython's `random.Random`.
pub struct PythonRandom(Mt19937);

impl Default for PythonRandom {
    fn default() -> Self {
        PythonRandom::seeded(0)
    }
}

impl PythonRandom {
    /// `random.seed(n)`: the 32-bit words of `|n|`, least significant first.
    pub fn seeded(seed: u64) -> PythonRandom {
        let mut key = vec![seed as u32];
        if seed >> 32 != 0 {
            key.push((seed >> 32) as u32);
        }
        PythonRandom(Mt19937::from_key(&key))
    }

    /// `random.random()`: 53 random bits.
    pub fn random(&mut self) -> f64 {
        let a = f64::from(self.0.next_u32() >> 5);
        let b = f64::from(self.0.next_u32() >> 6);
        (a * 67_108_864.0 + b) / 9_007_199_254_740_992.0
    }

    /// `_randbelow(n)`: `getrandbits(n.bit_length())` until it falls below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        if n <= 1 {
            return 0;
        }
        let bits = 64 - n.leading_zeros();
        loop {
            let r = self.bits(bits);
            if r < n {
                return r;
            }
        }
    }

    /// `getrandbits(k)`: whole 32-bit words, least significant first, the last one cut.
    fn bits(&mut self, k: u32) -> u64 {
        if k <= 32 {
            return u64::from(self.0.next_u32() >> (32 - k));
        }
        let low = u64::from(self.0.next_u32());
        let high = u64::from(self.0.next_u32() >> (64 - k));
        low | (high << 32)
    }
}

/// `random.name(...)` on the notebook's generator.
pub fn call(rng: &mut PythonRandom, name: &str, args: &Args) -> Result<Value> {
    let first = args.positional.first().cloned().unwrap_or(Value::None);
    Ok(match name {
        "seed" => {
            *rng = PythonRandom::seeded(match &first {
                Value::Int(i) => i.unsigned_abs(),
                Value::None => 0,
                other => as_f64(other) as u64,
            });
            Value::None
        }
        "random" => Value::Float(rng.random()),
        "uniform" => {
            let (a, b) = (as_f64(&first), args.positional.get(1).map_or(1.0, as_f64));
            Value::Float(a + (b - a) * rng.random())
        }
        "randint" => {
            let (a, b) = (
                as_f64(&first) as i64,
                args.positional.get(1).map_or(0.0, as_f64) as i64,
            );
            if b < a {
                return Err(PyException::new(
                    ExcType::ValueError,
                    format!("empty range in randrange({a}, {})", b + 1),
                ));
            }
            Value::Int(a + rng.below((b - a + 1) as u64) as i64)
        }
        "choice" => {
            let items = iterate(&first)?;
            if items.is_empty() {
                return Err(PyException::new(
                    ExcType::IndexError,
                    "Cannot choose from an empty sequence",
                ));
            }
            items[rng.below(items.len() as u64) as usize].clone()
        }
        "shuffle" => {
            let Value::List(list) = &first else {
                return Err(PyException::new(
                    ExcType::TypeError,
                    "random.shuffle() needs a list",
                ));
            };
            let mut items = list.borrow_mut();
            for i in (1..items.len()).rev() {
                let j = rng.below(i as u64 + 1) as usize;
                items.swap(i, j);
            }
            Value::None
        }
        other => {
            return Err(PyException::new(
                ExcType::AttributeError,
                format!("module 'random' has no attribute '{other}'"),
            ));
        }
    })
}
