//! `np.random`: NumPy's legacy global `RandomState` on the engine's MT19937, and its functions
//! (`seed`, `rand`, `randn`, `randint`, `random`, `normal`, `uniform`, `shuffle`,
//! `permutation`, `choice`), seeded and drawn
//! as NumPy draws (`seed` by `init_genrand`; 53-bit doubles; the polar Box–Muller `randn` that
//! keeps its second value; masked rejection for `randint`, `shuffle`, `permutation` and
//! `choice`), so a seeded cell draws NumPy's very numbers.

use std::rc::Rc;

use tolab_engine::Session;
use tolab_engine::random::Mt19937;

use super::array::{NdArray, Num, Result};
use super::dtype::NpDType;
use super::params::{self, Params};
use crate::python::args::Args;
use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;

/// The global `RandomState`.
pub struct RandomState {
    mt: Mt19937,
    gauss: Option<f64>,
}

impl Default for RandomState {
    /// Unseeded, as NumPy is: from the clock.
    fn default() -> Self {
        let nanos = (crate::python::clock::epoch_seconds() * 1e9) as u64;
        RandomState::seeded((nanos ^ (nanos >> 32)) as u32)
    }
}

impl RandomState {
    /// `np.random.seed(seed)`.
    pub fn seeded(seed: u32) -> RandomState {
        RandomState {
            mt: Mt19937::new(u64::from(seed)),
            gauss: None,
        }
    }

    pub fn next_u32(&mut self) -> u32 {
        self.mt.next_u32()
    }

    fn next_u64(&mut self) -> u64 {
        (u64::from(self.next_u32()) << 32) | u64::from(self.next_u32())
    }

    /// `random_sample()`: 53 random bits in [0, 1).
    pub fn double(&mut self) -> f64 {
        let a = f64::from(self.next_u32() >> 5);
        let b = f64::from(self.next_u32() >> 6);
        (a * 67_108_864.0 + b) / 9_007_199_254_740_992.0
    }

    /// `legacy_gauss`: the polar method, keeping the second value for the next call.
    pub fn gauss(&mut self) -> f64 {
        if let Some(g) = self.gauss.take() {
            return g;
        }
        loop {
            let x1 = 2.0 * self.double() - 1.0;
            let x2 = 2.0 * self.double() - 1.0;
            let r2 = x1 * x1 + x2 * x2;
            if r2 < 1.0 && r2 != 0.0 {
                let f = (-2.0 * r2.ln() / r2).sqrt();
                self.gauss = Some(f * x1);
                return f * x2;
            }
        }
    }

    /// A uniform integer in `[0, max]` by masked rejection (`random_interval`, and the
    /// masked bounded draws of the legacy `randint`).
    pub fn interval(&mut self, max: u64) -> u64 {
        if max == 0 {
            return 0;
        }
        let mut mask = max;
        for shift in [1, 2, 4, 8, 16, 32] {
            mask |= mask >> shift;
        }
        if max <= u64::from(u32::MAX) {
            loop {
                let v = u64::from(self.next_u32()) & mask;
                if v <= max {
                    return v;
                }
            }
        }
        loop {
            let v = self.next_u64() & mask;
            if v <= max {
                return v;
            }
        }
    }

    /// `randint(low, high)`: one integer in `[low, high)` (`high > low`).
    pub fn integer(&mut self, low: i64, high: i64) -> i64 {
        let range = (high as i128 - low as i128 - 1) as u64;
        if range == u64::from(u32::MAX) {
            return low.wrapping_add(i64::from(self.next_u32()));
        }
        low.wrapping_add(self.interval(range) as i64)
    }

    /// Fisher–Yates as NumPy's legacy `shuffle` runs it, over `n` items.
    pub fn shuffle_order(&mut self, n: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = self.interval(i as u64) as usize;
            order.swap(i, j);
        }
        order
    }
}

/// A shape argument of `np.random` functions: `rand(2, 3)` or `size=(2, 3)`.
fn size_of(v: Option<&Value>) -> Result<Option<Vec<usize>>> {
    v.filter(|v| !matches!(v, Value::None))
        .map(params::shape)
        .transpose()
}

/// `n` numbers drawn by `draw`, as a Python float (no size) or an array of `shape`.
fn drawn(
    session: &Session,
    shape: Option<Vec<usize>>,
    mut draw: impl FnMut() -> f64,
) -> Result<Value> {
    match shape {
        None => Ok(Value::Float(draw())),
        Some(shape) => {
            let n = super::array::checked_size(&shape)?;
            let values = (0..n).map(|_| draw()).collect();
            Ok(super::functions::array_value(NdArray::from_data(
                session,
                super::array::Data::Float(values),
                NpDType::Float64,
                &shape,
            )?))
        }
    }
}

pub fn call(session: &Session, rng: &mut RandomState, name: &str, args: &Args) -> Result<Value> {
    let bind = |names: &'static [&'static str]| Params::bind(name, names, args);
    let dims = || -> Result<Option<Vec<usize>>> {
        if !args.keywords.is_empty() {
            return Err(PyException::new(
                ExcType::TypeError,
                format!("{name}() takes no keyword arguments"),
            ));
        }
        if args.positional.is_empty() {
            return Ok(None);
        }
        args.positional
            .iter()
            .map(|v| params::shape(v).map(|s| s.first().copied().unwrap_or(0)))
            .collect::<Result<Vec<_>>>()
            .map(Some)
    };
    match name {
        "seed" => {
            let p = bind(&["seed"])?;
            let seed = match p.get("seed") {
                None => RandomState::default(),
                Some(v) => {
                    let s = params::int(v)?;
                    let s = u32::try_from(s).map_err(|_| {
                        PyException::new(
                            ExcType::ValueError,
                            "Seed must be between 0 and 2**32 - 1",
                        )
                    })?;
                    RandomState::seeded(s)
                }
            };
            *rng = seed;
            Ok(Value::None)
        }
        "rand" => drawn(session, dims()?, || rng.double()),
        "randn" => drawn(session, dims()?, || rng.gauss()),
        "random" | "random_sample" => {
            let p = bind(&["size"])?;
            drawn(session, size_of(p.get("size"))?, || rng.double())
        }
        "normal" | "uniform" => {
            let names: &'static [&'static str] = if name == "normal" {
                &["loc", "scale", "size"]
            } else {
                &["low", "high", "size"]
            };
            let p = bind(names)?;
            let a = p.float(names[0], 0.0)?;
            let b = p.float(names[1], 1.0)?;
            let size = size_of(p.get("size"))?;
            if name == "normal" {
                if b < 0.0 {
                    return Err(PyException::new(ExcType::ValueError, "scale < 0"));
                }
                drawn(session, size, || a + b * rng.gauss())
            } else {
                drawn(session, size, || a + (b - a) * rng.double())
            }
        }
        "randint" => {
            let p = bind(&["low", "high", "size", "dtype"])?;
            let first = params::int(p.required("low")?)?;
            let (low, high) = match p.int("high")? {
                Some(h) => (first, h),
                None => (0, first),
            };
            if low >= high {
                return Err(PyException::new(
                    ExcType::ValueError,
                    if p.get("high").is_some() {
                        "low >= high"
                    } else {
                        "high <= 0"
                    },
                ));
            }
            let dtype = p.dtype("dtype")?.unwrap_or(NpDType::Int64);
            match size_of(p.get("size"))? {
                None => Ok(Value::Int(rng.integer(low, high))),
                Some(shape) => {
                    let n = super::array::checked_size(&shape)?;
                    let values = (0..n).map(|_| rng.integer(low, high)).collect();
                    Ok(super::functions::array_value(NdArray::from_data(
                        session,
                        super::array::Data::Int(values),
                        dtype,
                        &shape,
                    )?))
                }
            }
        }
        "shuffle" => {
            let p = bind(&["x"])?;
            match p.required("x")? {
                Value::NdArray(a) => {
                    if a.ndim() == 0 {
                        return Err(PyException::new(
                            ExcType::TypeError,
                            "object of type 'numpy.ndarray' has no len()",
                        ));
                    }
                    let order = rng.shuffle_order(a.shape[0]);
                    let rows = super::functions::as_array(session, &Value::NdArray(a.clone()))?;
                    let data = rows.data()?;
                    let width = a.size() / a.shape[0].max(1);
                    let values: Vec<Num> = order
                        .iter()
                        .flat_map(|&r| {
                            (r * width..(r + 1) * width)
                                .map(|i| data.get(i))
                                .collect::<Vec<_>>()
                        })
                        .collect();
                    a.write_all(collect_nums(a.dtype, &values))?;
                    Ok(Value::None)
                }
                Value::List(items) => {
                    let n = items.borrow().len();
                    let order = rng.shuffle_order(n);
                    let old = items.borrow().clone();
                    *items.borrow_mut() = order.iter().map(|&i| old[i].clone()).collect();
                    Ok(Value::None)
                }
                other => Err(PyException::new(
                    ExcType::TypeError,
                    format!("object of type '{}' cannot be shuffled", other.type_name()),
                )),
            }
        }
        "permutation" => {
            let p = bind(&["x"])?;
            let x = p.required("x")?;
            let a = match x {
                Value::Int(n) => {
                    let n = usize::try_from(*n).map_err(|_| {
                        PyException::new(ExcType::ValueError, "negative dimensions are not allowed")
                    })?;
                    super::array::checked_size(&[n])?;
                    NdArray::from_data(
                        session,
                        super::array::Data::Int((0..n as i64).collect()),
                        NpDType::Int64,
                        &[n],
                    )?
                }
                other => super::functions::as_array(session, other)?.copy()?,
            };
            let a = Rc::new(a);
            call(
                session,
                rng,
                "shuffle",
                &Args::positional(vec![Value::NdArray(a.clone())]),
            )?;
            Ok(Value::NdArray(a))
        }
        "choice" => {
            let p = bind(&["a", "size", "replace", "p"])?;
            if p.get("p").is_some() {
                return Err(PyException::unsupported("np.random.choice(p=...)"));
            }
            let population = match p.required("a")? {
                Value::Int(n) => *n,
                other => super::functions::as_array(session, other)?.size() as i64,
            };
            if population <= 0 {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "a must be greater than 0 unless no samples are taken",
                ));
            }
            let size = size_of(p.get("size"))?;
            let replace = p.get("replace").is_none_or(Value::truthy);
            let n = size.as_ref().map_or(1, |s| s.iter().product());
            let picks: Vec<i64> = if replace {
                (0..n).map(|_| rng.integer(0, population)).collect()
            } else {
                if n as i64 > population {
                    return Err(PyException::new(
                        ExcType::ValueError,
                        "Cannot take a larger sample than population when 'replace=False'",
                    ));
                }
                super::array::checked_size(&[population as usize])?;
                let order = rng.shuffle_order(population as usize);
                order.into_iter().take(n).map(|i| i as i64).collect()
            };
            let source = match p.required("a")? {
                Value::Int(_) => None,
                other => Some(super::functions::as_array(session, other)?),
            };
            let pick = |i: i64| -> Result<Value> {
                Ok(match &source {
                    None => Value::Int(i),
                    Some(a) => Value::NpScalar(a.scalar_at(i as usize)?),
                })
            };
            match size {
                None => pick(picks[0]),
                Some(shape) => {
                    let (dtype, data) = match &source {
                        None => (NpDType::Int64, super::array::Data::Int(picks)),
                        Some(a) => {
                            let data = a.data()?;
                            (
                                a.dtype,
                                collect_nums(
                                    a.dtype,
                                    &picks
                                        .iter()
                                        .map(|&i| data.get(i as usize))
                                        .collect::<Vec<_>>(),
                                ),
                            )
                        }
                    };
                    Ok(super::functions::array_value(NdArray::from_data(
                        session, data, dtype, &shape,
                    )?))
                }
            }
        }
        _ => Err(super::no_attribute("numpy.random", name)),
    }
}

fn collect_nums(dtype: NpDType, values: &[Num]) -> super::array::Data {
    match dtype.kind() {
        super::dtype::Kind::Float => {
            super::array::Data::Float(values.iter().map(|v| v.as_f64()).collect())
        }
        super::dtype::Kind::Int => {
            super::array::Data::Int(values.iter().map(|v| v.as_i64()).collect())
        }
        super::dtype::Kind::Bool => {
            super::array::Data::Bool(values.iter().map(|v| v.truthy()).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_draws_are_numpys() {
        let mut r = RandomState::seeded(0);
        let drawn: Vec<f64> = (0..3).map(|_| r.double()).collect();
        assert_eq!(
            drawn,
            [0.5488135039273248, 0.7151893663724195, 0.6027633760716439]
        );
        let mut r = RandomState::seeded(0);
        let ints: Vec<i64> = (0..5).map(|_| r.integer(0, 10)).collect();
        assert_eq!(ints, [5, 0, 3, 3, 7]);
    }
}
