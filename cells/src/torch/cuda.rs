//! `torch.cuda`: the lab's GPUs (what they are, their memory, seeding, synchronizing),
//! `torch.cuda.Event`, which times the GPU's work where the adapter has timestamps, and
//! `torch.accelerator`, the device-generic face of the same GPUs (the current Quickstart's).

use std::rc::Rc;

use tolab_engine::{Device, DeviceType, Session};

use super::parse::device_index;
use super::{Call, Handler};
use crate::python::exception::{ExcType, PyException};
use crate::python::value::{CudaEvent, Value};

type Result<T> = std::result::Result<T, PyException>;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("torch.cuda.is_available", Handler::Engine(query)),
    ("torch.cuda.device_count", Handler::Engine(query)),
    ("torch.cuda.current_device", Handler::Engine(query)),
    ("torch.cuda.set_device", Handler::Engine(set_device)),
    ("torch.cuda.memory_allocated", Handler::Engine(memory)),
    ("torch.cuda.memory_reserved", Handler::Engine(memory)),
    ("torch.cuda.max_memory_allocated", Handler::Engine(memory)),
    ("torch.cuda.max_memory_reserved", Handler::Engine(memory)),
    (
        "torch.cuda.reset_peak_memory_stats",
        Handler::Engine(memory),
    ),
    ("torch.cuda.memory_summary", Handler::Engine(memory)),
    ("torch.cuda.synchronize", Handler::Engine(synchronize)),
    ("torch.cuda.empty_cache", Handler::Engine(query)),
    ("torch.cuda.get_device_name", Handler::Engine(memory)),
    ("torch.cuda.manual_seed", Handler::Engine(manual_seed)),
    ("torch.cuda.manual_seed_all", Handler::Engine(manual_seed)),
    ("torch.accelerator.is_available", Handler::Engine(query)),
    ("torch.accelerator.device_count", Handler::Engine(query)),
    (
        "torch.accelerator.current_device_index",
        Handler::Engine(query),
    ),
    (
        "torch.accelerator.current_accelerator",
        Handler::Engine(accelerator),
    ),
    (
        "torch.accelerator.set_device_index",
        Handler::Engine(set_device),
    ),
    (
        "torch.accelerator.synchronize",
        Handler::Engine(synchronize),
    ),
    ("torch.cuda.Event", Handler::Engine(event)),
    ("torch.cuda.Event.record", Handler::Engine(event_method)),
    (
        "torch.cuda.Event.synchronize",
        Handler::Engine(event_method),
    ),
    ("torch.cuda.Event.query", Handler::Engine(event_method)),
    ("torch.cuda.Event.wait", Handler::Engine(event_method)),
    (
        "torch.cuda.Event.elapsed_time",
        Handler::Engine(event_method),
    ),
];

/// A `device=` argument of `torch.cuda` (an index, a string, a `torch.device`; None for the
/// current device).
fn device(call: &Call, session: &Session) -> Result<Device> {
    match call.value("device")?.as_ref() {
        None | Some(Value::None) => Ok(Device::cuda(session.current_device()? as i8)),
        Some(Value::Int(i)) => device_index(*i),
        Some(Value::Device(d)) => Ok(*d),
        Some(Value::Str(s)) => Ok(Device::parse(s)?),
        Some(other) => Err(PyException::new(
            ExcType::ValueError,
            format!(
                "Expected a torch.device with a specified index or an integer, but got:{}",
                other.repr()
            ),
        )),
    }
}

fn count(n: impl TryInto<i64>) -> Value {
    Value::Int(n.try_into().unwrap_or(i64::MAX))
}

fn query(call: &Call, session: &Session) -> Result<Value> {
    Ok(match call.binding.name() {
        "is_available" => Value::Bool(session.is_available()),
        "device_count" => count(session.device_count()),
        "current_device" | "current_device_index" => count(session.current_device()?),
        _ => {
            session.empty_cache(Device::cuda(session.current_device()? as i8));
            Value::None
        }
    })
}

/// `torch.accelerator.current_accelerator(check_available=False)`: the lab's machine is built
/// with CUDA, so `cuda` even without a GPU, unless asked to check.
fn accelerator(call: &Call, session: &Session) -> Result<Value> {
    let check = call.truthy("check_available")?;
    call.finish()?;
    Ok(match check && !session.is_available() {
        true => Value::None,
        false => Value::Device(Device {
            kind: DeviceType::Cuda,
            index: None,
        }),
    })
}

fn set_device(call: &Call, session: &Session) -> Result<Value> {
    let d = device(call, session)?;
    call.finish()?;
    if d.kind != DeviceType::Cuda {
        return Err(PyException::new(
            ExcType::ValueError,
            format!("Expected a cuda device, but got: {d}"),
        ));
    }
    session.set_device(d.index.unwrap_or(0).max(0) as usize)?;
    Ok(Value::None)
}

/// The memory figures of a device, and its name.
fn memory(call: &Call, session: &Session) -> Result<Value> {
    let d = session.resolve(device(call, session)?)?;
    let name = call.binding.name();
    if name == "memory_summary" && call.truthy("abbreviated")? {
        return Err(super::ops::not_yet("memory_summary(abbreviated=True)"));
    }
    call.finish()?;
    let stats = || session.memory_stats(d);
    Ok(match name {
        "memory_allocated" => count(stats().allocated),
        "memory_reserved" => count(stats().reserved),
        "max_memory_allocated" => count(stats().max_allocated),
        "max_memory_reserved" => count(stats().max_reserved),
        "reset_peak_memory_stats" => {
            session.reset_peak_memory_stats(d);
            Value::None
        }
        "memory_summary" => Value::str(&session.memory_summary(d)),
        // The lab's GPUs are simulated; the name says so rather than borrowing a real card's.
        _ => {
            if !session.is_available() {
                return Err(tolab_engine::Error::NoCudaGpus.into());
            }
            Value::str(&format!(
                "to(device) lab simulated GPU {}",
                d.index.unwrap_or(0)
            ))
        }
    })
}

fn synchronize(call: &Call, session: &Session) -> Result<Value> {
    let index = match call.value("device")? {
        None | Some(Value::None) => None,
        Some(_) => Some(device(call, session)?.index.unwrap_or(0).max(0) as usize),
    };
    call.finish()?;
    session.synchronize(index)?;
    Ok(Value::None)
}

/// CUDA's generators are seeded with the CPU's by `torch.manual_seed`; these seed them alone.
fn manual_seed(call: &Call, session: &Session) -> Result<Value> {
    let seed = super::state::seed(call)?;
    call.finish()?;
    session.manual_seed(seed);
    Ok(Value::None)
}

/// `torch.cuda.Event(enable_timing=False, blocking=False, interprocess=False)`.
fn event(call: &Call, session: &Session) -> Result<Value> {
    let timing = call.truthy("enable_timing")?;
    let _blocking = call.truthy("blocking")?;
    if call.truthy("interprocess")? || call.truthy("external")? {
        return Err(super::ops::not_yet(
            "torch.cuda.Event(interprocess=True or external=True)",
        ));
    }
    call.finish()?;
    Ok(Value::CudaEvent(Rc::new(CudaEvent {
        session: session.clone(),
        timing,
        recorded: std::cell::RefCell::new(None),
    })))
}

/// `event.record()`, `event.elapsed_time(end)` (milliseconds of GPU time, as CUDA gives them)
/// and the waits.
fn event_method(call: &Call, _: &Session) -> Result<Value> {
    let Some(Value::CudaEvent(event)) = call.receiver() else {
        return Err(PyException::new(
            ExcType::TypeError,
            "an Event method needs an Event",
        ));
    };
    if call.signature().position("stream").is_some()
        && !matches!(call.value("stream")?, None | Some(Value::None))
    {
        return Err(super::ops::not_yet("CUDA streams"));
    }
    match call.binding.name() {
        "record" => {
            *event.recorded.borrow_mut() = Some(event.session.record_mark());
            Ok(Value::None)
        }
        "elapsed_time" => {
            let end = call.value("end_event")?;
            let Some(Value::CudaEvent(end)) = end.as_ref() else {
                return Err(PyException::new(
                    ExcType::TypeError,
                    "elapsed_time() expects another torch.cuda.Event",
                ));
            };
            if !event.timing || !end.timing {
                return Err(PyException::new(
                    ExcType::RuntimeError,
                    "Both events must be created with argument 'enable_timing=True'.",
                ));
            }
            match (&*event.recorded.borrow(), &*end.recorded.borrow()) {
                (Some(start), Some(stop)) => {
                    Ok(Value::Float(event.session.elapsed_ms(start, stop)?))
                }
                _ => Err(PyException::new(
                    ExcType::RuntimeError,
                    "Both events must be recorded before calculating elapsed time.",
                )),
            }
        }
        "query" => Ok(Value::Bool(true)),
        "synchronize" => {
            event.session.synchronize(None)?;
            Ok(Value::None)
        }
        _ => Ok(Value::None),
    }
}
