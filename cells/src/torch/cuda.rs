//! `torch.cuda`: the lab's GPUs (what they are, their memory, seeding, synchronizing),
//! `torch.cuda.Event`, which times the GPU's work where the adapter has timestamps, and
//! `torch.accelerator`, the device-generic face of the same GPUs (the current Quickstart's).

use std::rc::Rc;

use tolab_engine::cuda::SyncDebugMode;
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
    ("torch.cuda.is_initialized", Handler::Engine(initialisation)),
    ("torch.cuda.init", Handler::Engine(initialisation)),
    ("torch.cuda.is_bf16_supported", Handler::Engine(properties)),
    ("torch.cuda.is_tf32_supported", Handler::Engine(properties)),
    (
        "torch.cuda.get_device_properties",
        Handler::Engine(properties),
    ),
    (
        "torch.cuda.get_device_capability",
        Handler::Engine(properties),
    ),
    ("torch.cuda.mem_get_info", Handler::Engine(memory)),
    ("torch.cuda.memory_stats", Handler::Engine(memory)),
    (
        "torch.cuda.memory_stats_as_nested_dict",
        Handler::Engine(memory),
    ),
    (
        "torch.cuda.set_sync_debug_mode",
        Handler::Engine(sync_debug_mode),
    ),
    (
        "torch.cuda.get_sync_debug_mode",
        Handler::Engine(sync_debug_mode),
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
        "current_device" | "current_device_index" => {
            session.cuda_init()?;
            count(session.current_device()?)
        }
        // torch.cuda.empty_cache() releases nothing before CUDA is initialised.
        _ => {
            if session.is_cuda_initialized() {
                session.empty_cache(Device::cuda(session.current_device()? as i8));
            }
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
    session.cuda_init()?;
    session.set_device(device_number(d))?;
    Ok(Value::None)
}

/// The memory figures of a device, and its name.
///
/// As in torch/cuda/memory.py, the figures read the allocator only once CUDA is initialised:
/// before that `memory_stats()` is empty and the others are 0, whatever the device.
fn memory(call: &Call, session: &Session) -> Result<Value> {
    let name = call.binding.name();
    if name == "memory_summary" && call.truthy("abbreviated")? {
        return Err(super::ops::not_yet("memory_summary(abbreviated=True)"));
    }
    let initialised = session.is_cuda_initialized();
    let figures = matches!(
        name,
        "memory_allocated"
            | "memory_reserved"
            | "max_memory_allocated"
            | "max_memory_reserved"
            | "memory_stats"
            | "memory_stats_as_nested_dict"
            | "memory_summary"
    );
    if figures && !initialised {
        call.finish()?;
        return Ok(match name {
            "memory_stats" | "memory_stats_as_nested_dict" => Value::dict(Vec::new()),
            // memory_summary formats memory_stats(), which is empty: PyTorch's own KeyError.
            "memory_summary" => {
                return Err(PyException::new(
                    ExcType::KeyError,
                    "'allocated_bytes.all.current'",
                ));
            }
            _ => Value::Int(0),
        });
    }
    if name == "reset_peak_memory_stats" && !session.is_available() {
        // With no GPU the current device index is -1, which the C++ binding refuses.
        return Err(PyException::new(
            ExcType::RuntimeError,
            "invalid argument to reset_peak_memory_stats",
        ));
    }
    let d = session.resolve(device(call, session)?)?;
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
        "memory_stats" => {
            let mut entries = session.detailed_memory_stats(d).entries();
            entries.sort();
            Value::dict(
                entries
                    .into_iter()
                    .map(|(key, n)| (Value::str(&key), Value::Int(n)))
                    .collect(),
            )
        }
        "memory_stats_as_nested_dict" => nested(session.detailed_memory_stats(d).entries()),
        "mem_get_info" => {
            let (free, total) = session.mem_get_info(d)?;
            Value::Tuple(vec![count(free), count(total)].into())
        }
        _ => Value::str(&session.device_properties(device_number(d))?.name),
    })
}

/// `memory_stats_as_nested_dict()`: the dotted keys as nested dicts, in the C++ binding's order.
fn nested(entries: Vec<(String, i64)>) -> Value {
    fn insert(dict: &mut Vec<(Value, Value)>, path: &[&str], n: i64) {
        let key = Value::str(path[0]);
        if path.len() == 1 {
            dict.push((key, Value::Int(n)));
            return;
        }
        let position = dict
            .iter()
            .position(|(k, _)| matches!(k, Value::Str(s) if **s == *path[0]));
        let index = position.unwrap_or_else(|| {
            dict.push((key, Value::dict(Vec::new())));
            dict.len() - 1
        });
        if let Value::Dict(inner) = &dict[index].1 {
            insert(&mut inner.borrow_mut(), &path[1..], n);
        }
    }
    let mut top = Vec::new();
    for (key, n) in entries {
        let path: Vec<&str> = key.split('.').collect();
        insert(&mut top, &path, n);
    }
    Value::dict(top)
}

/// A CUDA device's index (0 for `cuda` without one).
pub(super) fn device_number(d: Device) -> usize {
    d.index.map_or(0, |i| i.max(0) as usize)
}

/// `torch.cuda.is_initialized()` and `torch.cuda.init()`.
fn initialisation(call: &Call, session: &Session) -> Result<Value> {
    call.finish()?;
    Ok(match call.binding.name() {
        "is_initialized" => Value::Bool(session.is_cuda_initialized()),
        _ => {
            session.cuda_init()?;
            Value::None
        }
    })
}

/// `get_device_properties`, `get_device_capability` and what torch/cuda/__init__.py derives
/// from them (`is_bf16_supported`: compute capability 8 or more; `is_tf32_supported`, the same
/// without emulation).
fn properties(call: &Call, session: &Session) -> Result<Value> {
    let name = call.binding.name();
    if matches!(name, "is_bf16_supported" | "is_tf32_supported") {
        // A simulated GPU of compute capability 8 has bfloat16 natively: emulation never counts.
        if name == "is_bf16_supported" {
            let _emulation = call.truthy("including_emulation")?;
        }
        call.finish()?;
        if !session.is_available() {
            return Ok(Value::Bool(false));
        }
        let index = session.current_device()?;
        let major = session.device_properties(index)?.major;
        return Ok(Value::Bool(major >= 8));
    }
    session.cuda_init()?;
    let d = device(call, session)?;
    call.finish()?;
    if d.kind != DeviceType::Cuda {
        return Err(PyException::new(
            ExcType::ValueError,
            format!("Expected a cuda device, but got: {d}"),
        ));
    }
    let index = d.index.map(i64::from).unwrap_or(0);
    if index < 0 || index >= session.device_count() as i64 {
        return Err(PyException::new(
            ExcType::AssertionError,
            "Invalid device id",
        ));
    }
    let properties = session.device_properties(index as usize)?;
    Ok(match name {
        "get_device_capability" => {
            Value::Tuple(vec![Value::Int(properties.major), Value::Int(properties.minor)].into())
        }
        _ => Value::DeviceProperties(Rc::new(properties)),
    })
}

/// `torch.cuda.set_sync_debug_mode(mode)` ("default", "warn", "error" or 0, 1, 2) and
/// `get_sync_debug_mode()`.
fn sync_debug_mode(call: &Call, session: &Session) -> Result<Value> {
    if call.binding.name() == "get_sync_debug_mode" {
        call.finish()?;
        return Ok(Value::Int(session.sync_debug_mode()?.level()));
    }
    let mode = call.value("debug_mode")?;
    call.finish()?;
    session.cuda_init()?;
    let level = match &mode {
        Some(Value::Str(s)) => match &**s {
            "default" => 0,
            "warn" => 1,
            "error" => 2,
            _ => {
                return Err(PyException::new(
                    ExcType::RuntimeError,
                    "invalid value of debug_mode, expected one of `default`, `warn`, `error`",
                ));
            }
        },
        Some(Value::Int(i)) => *i,
        Some(Value::Bool(b)) => i64::from(*b),
        _ => {
            return Err(PyException::new(
                ExcType::RuntimeError,
                "invalid argument to set_sync_debug_mode",
            ));
        }
    };
    // torch/csrc/cuda/Module.cpp warns once per process, whatever the mode.
    const PROTOTYPE: &str = "Synchronization debug mode is a prototype feature and does not \
                             yet detect all synchronizing operations";
    session.warn_once(PROTOTYPE, PROTOTYPE);
    let mode = SyncDebugMode::from_level(level).ok_or_else(|| {
        PyException::new(
            ExcType::RuntimeError,
            "invalid value of debug_mode, expected one of 0,1,2",
        )
    })?;
    session.set_sync_debug_mode(mode)?;
    Ok(Value::None)
}

fn synchronize(call: &Call, session: &Session) -> Result<Value> {
    let index = match call.value("device")? {
        None | Some(Value::None) => None,
        Some(_) => Some(device_number(device(call, session)?)),
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
