//! Random sampling as `torch` functions and `Tensor` methods: `torch.normal` (its four
//! overloads), `bernoulli`, `multinomial`, `poisson`, `randint_like`, the in-place fills
//! (`uniform_`, `normal_`, `bernoulli_`, `exponential_`, `cauchy_`, `log_normal_`,
//! `geometric_`, `random_`), the default generator's state (`seed`, `initial_seed`,
//! `get_rng_state`, `set_rng_state`, also under `torch.random`) and `torch.Generator`'s
//! methods. Every `generator=` is honoured through the engine's one seam,
//! `Session::using_generator`; the sampling itself is the engine's (`ops/random.rs`).

use tolab_engine::ops::random::Moments;
use tolab_engine::random::GeneratorHandle;
use tolab_engine::{DType, Device, Scalar, Session, Tensor};

use super::ops::{into_out, out_tensor, tensor_value};
use super::{Call, Handler};
use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("torch.normal", Handler::Engine(normal)),
    ("torch.bernoulli", Handler::Engine(bernoulli)),
    ("Tensor.bernoulli", Handler::Engine(bernoulli)),
    ("torch.multinomial", Handler::Engine(multinomial)),
    ("Tensor.multinomial", Handler::Engine(multinomial)),
    ("torch.poisson", Handler::Engine(poisson)),
    ("torch.randint_like", Handler::Engine(randint_like)),
    ("Tensor.uniform_", Handler::Engine(fill_)),
    ("Tensor.normal_", Handler::Engine(fill_)),
    ("Tensor.bernoulli_", Handler::Engine(fill_)),
    ("Tensor.exponential_", Handler::Engine(fill_)),
    ("Tensor.cauchy_", Handler::Engine(fill_)),
    ("Tensor.log_normal_", Handler::Engine(fill_)),
    ("Tensor.geometric_", Handler::Engine(fill_)),
    ("Tensor.random_", Handler::Engine(fill_)),
    ("torch.random.fork_rng", Handler::Engine(fork_rng)),
    ("torch.seed", Handler::Engine(default_generator)),
    ("torch.initial_seed", Handler::Engine(default_generator)),
    ("torch.get_rng_state", Handler::Engine(default_generator)),
    ("torch.set_rng_state", Handler::Engine(default_generator)),
    (
        "torch.random.manual_seed",
        Handler::Engine(default_generator),
    ),
    ("torch.random.seed", Handler::Engine(default_generator)),
    (
        "torch.random.initial_seed",
        Handler::Engine(default_generator),
    ),
    (
        "torch.random.get_rng_state",
        Handler::Engine(default_generator),
    ),
    (
        "torch.random.set_rng_state",
        Handler::Engine(default_generator),
    ),
    (
        "torch.Generator.manual_seed",
        Handler::Engine(generator_method),
    ),
    (
        "torch.Generator.initial_seed",
        Handler::Engine(generator_method),
    ),
    ("torch.Generator.seed", Handler::Engine(generator_method)),
    (
        "torch.Generator.get_state",
        Handler::Engine(generator_method),
    ),
    (
        "torch.Generator.set_state",
        Handler::Engine(generator_method),
    ),
];

/// The call's `generator=` (None where its signature has none or it gave None).
pub(super) fn generator_arg(call: &Call) -> Option<GeneratorHandle> {
    call.signature().position("generator")?;
    match call.get("generator") {
        Some(Value::Generator(g)) => Some(g.clone()),
        _ => None,
    }
}

/// Runs `draw`, a draw on `device`, with a call's `generator=` ([`generator_arg`], read before
/// the call is finished) in place of the default one.
pub(super) fn drawing<T>(
    generator: Option<GeneratorHandle>,
    session: &Session,
    device: Device,
    draw: impl FnOnce() -> std::result::Result<T, tolab_engine::Error>,
) -> Result<T> {
    Ok(session.using_generator(generator.as_ref(), device, draw)?)
}

/// `torch.normal(mean, std, ...)`: tensor mean and/or std, or two numbers and a `size`.
fn normal(call: &Call, session: &Session) -> Result<Value> {
    let generator = generator_arg(call);
    let moment = |name: &str| -> Result<(Option<Tensor>, f64)> {
        Ok(match call.get(name).map(Value::resolved).as_deref() {
            Some(Value::Tensor(t)) => (Some(t.clone()), 0.0),
            _ => (None, call.float(name)?),
        })
    };
    let (mean, mean_number) = moment("mean")?;
    let (std, std_number) = moment("std")?;
    let out = out_tensor(call)?;
    let moments = match (&mean, &std) {
        (Some(m), Some(s)) => Moments::TensorTensor(m, s),
        (Some(m), None) => Moments::TensorNumber(m, std_number),
        (None, Some(s)) => Moments::NumberTensor(mean_number, s),
        (None, None) => {
            // `normal(mean, std, size, ...)`: a factory.
            let size = Tensor::shape_of(&call.int_list("size")?)?;
            let dtype = call.dtype("dtype")?.unwrap_or(session.default_dtype());
            let device = call.device("device")?.unwrap_or(Device::CPU);
            let requires_grad = call.bool("requires_grad")?;
            let _ = call.get("pin_memory");
            call.finish()?;
            let t = drawing(generator, session, device, || {
                Tensor::normal_checked(session, &size, dtype, device, mean_number, std_number)
            })?;
            if requires_grad {
                t.set_requires_grad(true)?;
            }
            return into_out(call, out, t);
        }
    };
    call.finish()?;
    let device = mean
        .as_ref()
        .or(std.as_ref())
        .map_or(Device::CPU, Tensor::device);
    let t = drawing(generator, session, device, || Tensor::normal_with(moments))?;
    into_out(call, out, t)
}

/// `torch.bernoulli(input, p=None)` and `Tensor.bernoulli(p=None)`.
fn bernoulli(call: &Call, session: &Session) -> Result<Value> {
    let generator = generator_arg(call);
    let t = call.input()?;
    let p = match call.signature().position("p") {
        Some(_) => Some(call.float("p")?),
        None => None,
    };
    let out = out_tensor(call)?;
    call.finish()?;
    let result = drawing(generator, session, t.device(), || match p {
        Some(p) => t.bernoulli_p(p),
        None => t.bernoulli(),
    })?;
    into_out(call, out, result)
}

fn multinomial(call: &Call, session: &Session) -> Result<Value> {
    let generator = generator_arg(call);
    let t = call.input()?;
    let n = call.int("num_samples")?;
    let replacement = call.bool("replacement")?;
    let out = out_tensor(call)?;
    call.finish()?;
    let result = drawing(generator, session, t.device(), || {
        t.multinomial(n, replacement)
    })?;
    into_out(call, out, result)
}

fn poisson(call: &Call, session: &Session) -> Result<Value> {
    let generator = generator_arg(call);
    let t = call.input()?;
    call.finish()?;
    tensor_value(drawing(generator, session, t.device(), || t.poisson())?)
}

/// `torch.randint_like(input, low=0, high)`: integers in `[low, high)` of `input`'s shape.
fn randint_like(call: &Call, session: &Session) -> Result<Value> {
    let generator = generator_arg(call);
    let input = call.tensor("input")?;
    let low = match call.signature().position("low") {
        Some(_) => call.int("low")?,
        None => 0,
    };
    let high = match call.get("high").map(Value::resolved).as_deref() {
        Some(Value::Tensor(h)) => match h.item()? {
            Scalar::Int(i) => i,
            other => other.as_f64() as i64,
        },
        _ => call.int("high")?,
    };
    let dtype = call.dtype("dtype")?.unwrap_or(input.dtype());
    let device = call.device("device")?.unwrap_or(input.device());
    let requires_grad = call.bool("requires_grad")?;
    let _ = (call.get("memory_format"), call.get("pin_memory"));
    call.finish()?;
    let t = drawing(generator, session, device, || {
        Tensor::randint(session, low, high, input.shape(), dtype, device)
    })?;
    if requires_grad {
        t.set_requires_grad(true)?;
    }
    tensor_value(t)
}

/// The in-place fills: each returns the tensor.
fn fill_(call: &Call, session: &Session) -> Result<Value> {
    let generator = generator_arg(call);
    let t = call.input()?;
    let name = call.binding.name();
    let number = |name: &str| call.float(name);
    enum Fill {
        Uniform(f64, f64),
        Normal(f64, f64),
        Bernoulli(f64),
        BernoulliTensor(Tensor),
        Exponential(f64),
        Cauchy(f64, f64),
        LogNormal(f64, f64),
        Geometric(f64),
        Random(Option<i64>, Option<i64>),
    }
    let fill = match name {
        "uniform_" => Fill::Uniform(number("from")?, number("to")?),
        "normal_" => Fill::Normal(number("mean")?, number("std")?),
        "bernoulli_" => match call.get("p").map(Value::resolved).as_deref() {
            Some(Value::Tensor(p)) => Fill::BernoulliTensor(p.clone()),
            _ => Fill::Bernoulli(number("p")?),
        },
        "exponential_" => Fill::Exponential(number("lambd")?),
        "cauchy_" => Fill::Cauchy(number("median")?, number("sigma")?),
        "log_normal_" => Fill::LogNormal(number("mean")?, number("std")?),
        "geometric_" => Fill::Geometric(number("p")?),
        _ => {
            let has = |p: &str| call.signature().position(p).is_some();
            match (has("from"), has("to")) {
                (true, _) => Fill::Random(Some(call.int("from")?), call.opt_int("to")?),
                (false, true) => Fill::Random(None, Some(call.int("to")?)),
                (false, false) => Fill::Random(None, None),
            }
        }
    };
    call.finish()?;
    drawing(generator, session, t.device(), || {
        match &fill {
            Fill::Uniform(from, to) => t.uniform_(*from, *to),
            Fill::Normal(mean, std) => t.normal_(*mean, *std),
            Fill::Bernoulli(p) => t.bernoulli_(*p),
            Fill::BernoulliTensor(p) => t.bernoulli_tensor_(p),
            Fill::Exponential(lambda) => t.exponential_(*lambda),
            Fill::Cauchy(median, sigma) => t.cauchy_(*median, *sigma),
            Fill::LogNormal(mean, std) => t.log_normal_(*mean, *std),
            Fill::Geometric(p) => t.geometric_(*p),
            Fill::Random(from, to) => t.random_(*from, *to),
        }
        .map(|_| ())
    })?;
    tensor_value(t)
}

/// `torch.seed()`, `initial_seed()`, `get_rng_state()`, `set_rng_state(state)` and
/// `torch.random.manual_seed(seed)`: the default CPU generator's.
fn default_generator(call: &Call, session: &Session) -> Result<Value> {
    generator_op(call, session, &GeneratorHandle::Default)
}

/// `Generator.manual_seed(seed)`, `initial_seed()`, `seed()`, `get_state()`, `set_state(state)`.
fn generator_method(call: &Call, session: &Session) -> Result<Value> {
    let Some(owner @ Value::Generator(g)) = call.receiver() else {
        return Err(PyException::new(
            ExcType::TypeError,
            "a Generator method needs a Generator",
        ));
    };
    let g = g.clone();
    match call.binding.name() {
        "manual_seed" => {
            generator_op(call, session, &g)?;
            Ok(owner.clone())
        }
        _ => generator_op(call, session, &g),
    }
}

fn generator_op(call: &Call, session: &Session, g: &GeneratorHandle) -> Result<Value> {
    match call.binding.name() {
        "manual_seed" => {
            let seed = super::state::seed(call)?;
            call.finish()?;
            match g {
                // `torch.random.manual_seed` reseeds the GPUs' generators too, as `torch.manual_seed`.
                GeneratorHandle::Default => session.manual_seed(seed),
                GeneratorHandle::Own(_) => g.manual_seed(session, seed),
            }
            Ok(Value::Generator(g.clone()))
        }
        "initial_seed" => {
            call.finish()?;
            Ok(Value::Int(g.initial_seed(session) as i64))
        }
        "seed" => {
            call.finish()?;
            let seed = tolab_engine::random::nondeterministic_seed();
            g.manual_seed(session, seed);
            Ok(Value::Int(seed as i64))
        }
        "get_state" | "get_rng_state" => {
            call.finish()?;
            let bytes = g.with(session, |g| g.get_state());
            let values: Vec<Scalar> = bytes
                .into_iter()
                .map(|b| Scalar::Int(i64::from(b)))
                .collect();
            Ok(Value::Tensor(Tensor::from_scalars(
                session,
                &values,
                &[values.len()],
                Some(DType::UInt8),
                Device::CPU,
                false,
            )?))
        }
        _ => {
            let name = if call.signature().position("new_state").is_some() {
                "new_state"
            } else {
                "arg"
            };
            let state = match call.get(name).map(Value::resolved).as_deref() {
                Some(Value::Tensor(t))
                    if t.dtype() == DType::UInt8 && t.device() == Device::CPU =>
                {
                    t.clone()
                }
                _ => {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        "RNG state must be a torch.ByteTensor",
                    ));
                }
            };
            call.finish()?;
            let bytes: Vec<u8> = state.scalars()?.iter().map(|s| s.as_f64() as u8).collect();
            g.with(session, |g| g.set_state(&bytes))
                .map_err(|e| PyException::new(ExcType::RuntimeError, e.to_string()))?;
            Ok(Value::None)
        }
    }
}

/// `torch.random.fork_rng(devices=None, enabled=True, device_type=None)`: a context manager
/// that puts the CPU's generator, and those of the CUDA devices named (all by default), back
/// as they were when the block began (torch/random.py).
pub struct ForkRng {
    enabled: bool,
    devices: Option<Vec<usize>>,
}

fn fork_rng(call: &Call, _: &Session) -> Result<Value> {
    let devices = match call.value("devices")? {
        None | Some(Value::None) => None,
        Some(list) => Some(
            crate::python::operators::iterate(&list)?
                .iter()
                .map(|d| match d {
                    Value::Int(i) if *i >= 0 => Ok(*i as usize),
                    Value::Device(d) => Ok(super::cuda::device_number(*d)),
                    other => Err(PyException::new(
                        ExcType::TypeError,
                        format!("fork_rng(): a device index, not {}", other.type_name()),
                    )),
                })
                .collect::<Result<Vec<usize>>>()?,
        ),
    };
    let enabled = match call.value("enabled")? {
        None => true,
        Some(v) => v.truthy(),
    };
    if let Some(kind) = call
        .value("device_type")?
        .filter(|v| !matches!(v, Value::None))
        && kind.str_text() != "cuda"
    {
        return Err(super::ops::not_yet(
            "fork_rng(device_type=) other than 'cuda'",
        ));
    }
    let _ = (call.value("_caller")?, call.value("_devices_kw")?);
    call.finish()?;
    Ok(Value::ForkRng(std::rc::Rc::new(ForkRng {
        enabled,
        devices,
    })))
}

impl ForkRng {
    /// Entering the block: the generators to put back when it ends (none when disabled).
    pub fn enter(
        &self,
        session: &Session,
    ) -> Vec<(Device, Option<tolab_engine::random::Generator>)> {
        if !self.enabled {
            return Vec::new();
        }
        let devices = self.devices.clone().unwrap_or_else(|| {
            let count = session.device_count();
            if count > 1 {
                session.warn_once("fork_rng", &all_devices_warning(count));
            }
            (0..count).collect()
        });
        let mut all = vec![Device::CPU];
        all.extend(devices.iter().map(|&i| Device::cuda(i as i8)));
        session.generator_states(&all)
    }
}

/// torch/random.py's warning when `devices` is left out on a machine with several GPUs, for
/// `fork_rng` on CUDA.
fn all_devices_warning(count: usize) -> String {
    format!(
        "CUDA reports that you have {count} available devices, and you have used fork_rng without \
         explicitly specifying which devices are being used. For safety, we initialize *every* \
         CUDA device by default, which can be quite slow if you have a lot of CUDAs. If you know \
         that you are only making use of a few CUDA devices, set the environment variable \
         CUDA_VISIBLE_DEVICES or the 'devices' keyword argument of fork_rng with the set of \
         devices you are actually using. For example, if you are using CPU only, set \
         device.upper()_VISIBLE_DEVICES= or devices=[]; if you are using device 0 only, set \
         CUDA_VISIBLE_DEVICES=0 or devices=[0].  To initialize all devices and suppress this \
         warning, set the 'devices' keyword argument to `range(torch.cuda.device_count())`."
    )
}
