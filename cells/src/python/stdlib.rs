//! The parts of Python's standard library learners reach for next to torch — `warnings`, `time`,
//! `random`, `os.environ`, `typing` — and the torch functions that need the interpreter rather than just
//! the engine: `torch.utils.data`, `torch.save`/`torch.load`, `torch.autocast`,
//! `torch.amp.GradScaler` and `torch.Generator`.

use std::rc::Rc;

use tolab_engine::amp::GradScaler;
use tolab_engine::random::GeneratorHandle;
use tolab_engine::serialization::{self, MapLocation};

use super::args::{Args, Flow};
use super::convert::{from_engine, to_engine};
use super::exception::{ExcType, PyException};
use super::interpreter::Interpreter;
use super::modules::{device_of, dtype_of};
use super::value::{AutocastRequest, Value, as_f64};

/// The functions of the standard-library modules, by module.
pub const WARNINGS: &[&str] = &["warn", "catch_warnings", "simplefilter", "filterwarnings"];
pub const TIME: &[&str] = &["perf_counter", "time", "sleep", "monotonic"];
pub const RANDOM: &[&str] = &["seed", "random", "randint", "choice", "shuffle", "uniform"];
/// `typing`'s names that tutorials import for their annotations, which are not checked at run
/// time (as in Python).
pub const TYPING: &[&str] = &[
    "Any",
    "Callable",
    "Dict",
    "Generator",
    "Iterable",
    "Iterator",
    "List",
    "Mapping",
    "Optional",
    "Sequence",
    "Set",
    "Tuple",
    "Type",
    "TypeVar",
    "Union",
    "cast",
];

/// `List[int]`: the alias, shown as CPython shows it (`typing.List[int]`).
pub fn typing_item(alias: &str, index: &Value) -> Value {
    fn shown(v: &Value) -> String {
        match v {
            Value::Type(name) => name.trim_start_matches("builtins.").to_owned(),
            Value::Typing(text) => text.to_string(),
            Value::None => "NoneType".into(),
            Value::Class(class) => format!("__main__.{}", class.name),
            Value::List(items) => format!(
                "[{}]",
                items
                    .borrow()
                    .iter()
                    .map(shown)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            other => other.repr(),
        }
    }
    let arguments = match index {
        Value::Tuple(items) => items.iter().map(shown).collect::<Vec<_>>().join(", "),
        one => shown(one),
    };
    Value::Typing(Rc::from(format!("{alias}[{arguments}]")))
}

/// Calling a `typing` name: `TypeVar("T")` and `cast(T, x)` work as in Python; the aliases
/// cannot be called, as in Python.
pub fn call_typing(alias: &str, args: &Args) -> Result<Value, PyException> {
    match alias {
        "typing.TypeVar" => match args.positional.first() {
            Some(Value::Str(name)) => Ok(Value::Typing(Rc::from(format!("~{name}")))),
            _ => Err(PyException::new(
                ExcType::TypeError,
                "TypeVar name must be a string",
            )),
        },
        "typing.cast" => args.get(1, "val").cloned().ok_or_else(|| {
            PyException::new(
                ExcType::TypeError,
                "cast() missing 1 required positional argument: 'val'",
            )
        }),
        _ => {
            let short = alias.trim_start_matches("typing.");
            let short = short.split('[').next().unwrap_or(short);
            Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "Type {short} cannot be instantiated; use {}() instead",
                    short.to_lowercase()
                ),
            ))
        }
    }
}

impl Interpreter {
    /// Calls `module.name(...)`.
    pub(super) async fn call_module_function(
        &mut self,
        module: &str,
        name: &str,
        args: Args,
    ) -> Result<Value, Flow> {
        let session = self.session.clone();
        let text = |i: usize, key: &str| args.get(i, key).map(Value::str_text);
        Ok(match (module, name) {
            ("torch.utils.data", "TensorDataset") => self.tensor_dataset(&args)?,
            ("torch.utils.data", "DataLoader") => self.data_loader(args).await?,
            ("torch.utils.data", "DistributedSampler") => self.distributed_sampler(args).await?,
            ("torch", "Generator") => Value::Generator(GeneratorHandle::default()),
            ("torch.distributed", _) => self.call_distributed(name, args).await?,
            ("torch.multiprocessing", "spawn") => self.spawn(args).await?,
            ("torch.nn.parallel", "DistributedDataParallel") => {
                self.distributed_data_parallel(args).await?
            }
            ("torch.nn.parallel", "DataParallel") => self.data_parallel(&args).await?,
            ("torch", "save") => {
                let object = args.get(0, "obj").cloned().unwrap_or(Value::None);
                let path = text(1, "f").unwrap_or_default();
                let object = to_engine(&object, "torch.save")?;
                let files = Rc::clone(&self.files);
                self.engine_call(|_| Ok(serialization::save(&object, &path, &*files)?))
                    .await?;
                Value::None
            }
            ("torch", "load") => {
                let path = text(0, "f").unwrap_or_default();
                let weights_only = args.keyword("weights_only").is_none_or(Value::truthy);
                if let Some(place) = args
                    .get(1, "map_location")
                    .filter(|v| super::builtins::is_callable(v))
                {
                    return self.load_placing_with(&path, place, weights_only);
                }
                let map_location = match args.get(1, "map_location") {
                    None | Some(Value::None) => MapLocation::Saved,
                    Some(Value::Dict(entries)) => MapLocation::Remap(
                        entries
                            .borrow()
                            .iter()
                            .map(|(k, v)| (k.str_text(), v.str_text()))
                            .collect(),
                    ),
                    Some(v @ (Value::Str(_) | Value::Device(_))) => {
                        MapLocation::To(device_of(v)?.to_string())
                    }
                    Some(other) => {
                        return Err(PyException::unsupported(&format!(
                            "map_location of type '{}' (use a device string, a torch.device, a dict or a function)",
                            other.type_name()
                        ))
                        .into());
                    }
                };
                from_engine(serialization::load(
                    &session,
                    &path,
                    &*self.files,
                    &map_location,
                    weights_only,
                )?)
            }
            ("torch" | "torch.amp", "autocast") => {
                Value::Autocast(Rc::new(autocast_request(&args, None)?))
            }
            ("torch.cuda.amp" | "torch.cpu.amp", "autocast") => {
                let device_type = module.trim_end_matches(".amp").trim_start_matches("torch.");
                Value::Autocast(Rc::new(autocast_request(&args, Some(device_type))?))
            }
            ("torch.amp" | "torch.cuda.amp", "GradScaler") => {
                let device = if module == "torch.cuda.amp" {
                    "cuda".to_owned()
                } else {
                    text(0, "device").unwrap_or_else(|| "cuda".into())
                };
                let init_scale = args.get(1, "init_scale").map(as_f64);
                let growth_interval = args.keyword("growth_interval").map(|v| as_f64(v) as u64);
                let enabled = args.keyword("enabled").is_none_or(Value::truthy);
                Value::GradScaler(Rc::new(GradScaler::new(
                    &session,
                    &device,
                    enabled,
                    init_scale,
                    growth_interval,
                )?))
            }
            ("warnings", "warn") => {
                session.warn(&text(0, "message").unwrap_or_default());
                Value::None
            }
            ("warnings", "catch_warnings") => {
                Value::CatchWarnings(args.keyword("record").is_some_and(Value::truthy))
            }
            ("warnings", "simplefilter" | "filterwarnings") => Value::None,
            ("time", "perf_counter" | "monotonic") => Value::Float(seconds()),
            ("time", "time") => Value::Float(epoch_seconds()),
            ("time", "sleep") => {
                let length = args.get(0, "secs").map(as_f64).unwrap_or(f64::NAN);
                self.sleep(length).await?;
                Value::None
            }
            ("random", _) => self.random(name, &args)?,
            ("os.environ", "get") => match session.env(&text(0, "key").unwrap_or_default()) {
                Some(v) => Value::str(&v),
                None => args.get(1, "default").cloned().unwrap_or(Value::None),
            },
            _ => {
                self.engine_call(|_| {
                    Ok(super::modules::call(&session, module, name, args.clone())?)
                })
                .await?
            }
        })
    }

    /// Python's `random` module, with its own Mersenne Twister seeded as CPython seeds it, so a
    /// seeded cell draws CPython's numbers.
    fn random(&mut self, name: &str, args: &Args) -> Result<Value, PyException> {
        let first = args.positional.first().cloned().unwrap_or(Value::None);
        let rng = &mut self.python_random;
        Ok(match name {
            "seed" => {
                *rng = PythonRandom::seeded(as_f64(&first) as u64);
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
                let items = super::operators::iterate(&first)?;
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
}

/// `autocast(device_type, dtype=None, enabled=True)`; the `torch.cuda.amp` form has its device
/// type fixed.
fn autocast_request(args: &Args, fixed: Option<&str>) -> Result<AutocastRequest, PyException> {
    let (device_type, rest) = match fixed {
        Some(d) => (d.to_owned(), 0),
        None => (
            args.get(0, "device_type")
                .map(Value::str_text)
                .ok_or_else(|| {
                    PyException::new(
                        ExcType::TypeError,
                        "autocast.__init__() missing 1 required positional argument: 'device_type'",
                    )
                })?,
            1,
        ),
    };
    Ok(AutocastRequest {
        device_type,
        dtype: args.get(rest, "dtype").map(dtype_of).transpose()?,
        enabled: args.keyword("enabled").is_none_or(Value::truthy),
    })
}

/// Whether a running cell must hand the thread back now and then: in the browser, where the
/// event loop delivers a Stop request; natively the caller owns its thread.
pub const YIELDS: bool = cfg!(target_arch = "wasm32");

impl Interpreter {
    /// `torch.load(path, map_location=place)` with a learner's `place(storage, location)`: it gets
    /// each saved tensor on the CPU (standing in for its storage) and the location it was saved
    /// from, and returns where it goes, or `None` for the default.
    fn load_placing_with(
        &mut self,
        path: &str,
        place: &Value,
        weights_only: bool,
    ) -> Result<Value, Flow> {
        let session = self.session.clone();
        let files = self.files.clone();
        let failure = std::cell::RefCell::new(None);
        let me = std::cell::RefCell::new(&mut *self);
        let restore = |host: &tolab_engine::Tensor, location: &str| {
            if failure.borrow().is_some() {
                return Ok(None);
            }
            let args = Args::positional(vec![Value::Tensor(host.clone()), Value::str(location)]);
            let placed = me.borrow_mut().call_now(place, args);
            match &placed {
                Ok(Value::Tensor(t)) => return Ok(Some(t.clone())),
                Ok(Value::Parameter(p)) => return Ok(Some(p.tensor())),
                Ok(Value::None) => return Ok(None),
                Ok(other) => {
                    *failure.borrow_mut() = Some(Flow::from(PyException::new(
                        ExcType::TypeError,
                        format!(
                            "map_location should return a storage or None, not '{}'",
                            other.type_name()
                        ),
                    )));
                }
                Err(_) => *failure.borrow_mut() = placed.err(),
            }
            Ok(None)
        };
        let loaded = serialization::load(
            &session,
            path,
            &*files,
            &MapLocation::Call(&restore),
            weights_only,
        );
        if let Some(flow) = failure.take() {
            return Err(flow);
        }
        Ok(from_engine(loaded?))
    }

    /// `time.sleep`: waits in slices, so that a Stop, the time budget and progress reports still
    /// happen while it waits.
    async fn sleep(&mut self, length: f64) -> Result<(), Flow> {
        if length.is_nan() {
            return Err(
                PyException::new(ExcType::ValueError, "Invalid value NaN (not a number)").into(),
            );
        }
        if length < 0.0 {
            return Err(
                PyException::new(ExcType::ValueError, "sleep length must be non-negative").into(),
            );
        }
        let until = seconds() + length;
        loop {
            let left = until - seconds();
            if left <= 0.0 {
                return Ok(());
            }
            wait(left.min(super::interpreter::PAUSE_EVERY), !self.hold_pauses).await;
            self.check_clock()?;
            self.pause_point().await;
        }
    }
}

/// `work`'s outcome, if it comes within `seconds` in the browser (on its timer; `None` past
/// them); natively it is awaited to the end.
pub async fn within<T>(seconds: f64, work: impl std::future::Future<Output = T>) -> Option<T> {
    #[cfg(target_arch = "wasm32")]
    {
        let mut work = std::pin::pin!(work);
        let mut timer = std::pin::pin!(timeout(seconds * 1000.0));
        std::future::poll_fn(|cx| match work.as_mut().poll(cx) {
            std::task::Poll::Ready(done) => std::task::Poll::Ready(Some(done)),
            std::task::Poll::Pending => timer.as_mut().poll(cx).map(|()| None),
        })
        .await
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = seconds;
        Some(work.await)
    }
}

/// Hands the thread to the event loop for one turn (`setTimeout(0)`); natively, nothing.
pub async fn yield_to_event_loop() {
    #[cfg(target_arch = "wasm32")]
    timeout(0.0).await;
}

/// Waits `seconds`: in the browser on a timer, letting the event loop run, or where the cell may
/// not yield (a spawned rank, which `World::run` polls without an event loop) by watching the
/// clock; natively by sleeping the thread (the native runtime owns its thread).
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_variables))]
async fn wait(seconds: f64, may_yield: bool) {
    #[cfg(target_arch = "wasm32")]
    if may_yield {
        timeout(seconds * 1000.0).await;
    } else {
        let until = self::seconds() + seconds;
        while self::seconds() < until {}
    }
    #[cfg(not(target_arch = "wasm32"))]
    std::thread::sleep(std::time::Duration::from_secs_f64(seconds.max(0.0)));
}

/// A `setTimeout` of `ms` milliseconds, awaited.
#[cfg(target_arch = "wasm32")]
async fn timeout(ms: f64) {
    {
        use wasm_bindgen::JsCast;
        let promise = js_sys::Promise::new(&mut |resolve, _reject| {
            let global = js_sys::global();
            let set_timeout = js_sys::Reflect::get(&global, &"setTimeout".into())
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
            let scheduled =
                set_timeout.is_some_and(|f| f.call2(&global, &resolve, &ms.into()).is_ok());
            if !scheduled {
                let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
            }
        });
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    }
}

/// Seconds since the Unix epoch (`time.time()`).
fn epoch_seconds() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Date::now() / 1000.0
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64())
    }
}

/// Seconds on a monotonic clock (the browser's `Date.now()` in wasm).
pub fn seconds() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Date::now() / 1000.0
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        START
            .get_or_init(std::time::Instant::now)
            .elapsed()
            .as_secs_f64()
    }
}

/// CPython's `random.Random`: MT19937 seeded by `init_by_array` with the seed's 32-bit words.
pub struct PythonRandom {
    state: [u32; 624],
    index: usize,
}

impl Default for PythonRandom {
    fn default() -> Self {
        PythonRandom::seeded(0)
    }
}

impl PythonRandom {
    pub fn seeded(seed: u64) -> PythonRandom {
        let mut key = vec![seed as u32];
        if seed >> 32 != 0 {
            key.push((seed >> 32) as u32);
        }
        let mut r = PythonRandom {
            state: [0; 624],
            index: 624,
        };
        r.init_genrand(19_650_218);
        let (mut i, mut j) = (1usize, 0usize);
        let mt = &mut r.state;
        for _ in 0..624.max(key.len()) {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= 624 {
                mt[0] = mt[623];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..623 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= 624 {
                mt[0] = mt[623];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        r
    }

    fn init_genrand(&mut self, seed: u32) {
        self.state[0] = seed;
        for i in 1..624 {
            let prev = self.state[i - 1];
            self.state[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        self.index = 624;
    }

    fn next_u32(&mut self) -> u32 {
        if self.index >= 624 {
            for i in 0..624 {
                let y = (self.state[i] & 0x8000_0000) | (self.state[(i + 1) % 624] & 0x7fff_ffff);
                let mut v = self.state[(i + 397) % 624] ^ (y >> 1);
                if y & 1 != 0 {
                    v ^= 0x9908_b0df;
                }
                self.state[i] = v;
            }
            self.index = 0;
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `random.random()`: 53 random bits.
    fn random(&mut self) -> f64 {
        let a = f64::from(self.next_u32() >> 5);
        let b = f64::from(self.next_u32() >> 6);
        (a * 67_108_864.0 + b) / 9_007_199_254_740_992.0
    }

    /// `_randbelow(n)`: `getrandbits(n.bit_length())` until it falls below `n`.
    fn below(&mut self, n: u64) -> u64 {
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
            return u64::from(self.next_u32() >> (32 - k));
        }
        let low = u64::from(self.next_u32());
        let high = u64::from(self.next_u32() >> (64 - k));
        low | (high << 32)
    }
}
