//! `torch.save` and `torch.load`, on the notebook's files (in memory in the browser, the working
//! directory for the CLI), with `map_location` as a device, a dict or a learner's function.

use std::rc::Rc;

use tolab_engine::serialization::{self, MapLocation};

use super::convert::{from_engine, to_engine};
use super::{Call, Handler};
use crate::python::args::{Args, Eval, Flow};
use crate::python::exception::{ExcType, PyException};
use crate::python::interpreter::Interpreter;
use crate::python::value::Value;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("torch.save", Handler::Interpreter(save)),
    ("torch.load", Handler::Interpreter(load)),
];

/// A path argument: a string or a path-like object (`pathlib.Path`, through `__fspath__`); the
/// lab's files have no binary file objects yet.
async fn path(me: &mut Interpreter, call: &Call, name: &str) -> Result<String, Flow> {
    let given = call.value(name)?;
    match &given {
        Some(Value::Str(s)) => return Ok(s.to_string()),
        Some(object @ Value::Instance(i)) if i.class.lookup("__fspath__").is_some() => {
            if let Value::Str(s) = &me.call_dunder(object, "__fspath__", Vec::new()).await? {
                return Ok(s.to_string());
            }
        }
        _ => {}
    }
    Err(super::ops::not_yet(&format!(
        "torch.{}() with a {} for '{name}' (the lab takes a path)",
        call.binding.name(),
        given.map_or("nothing".into(), |v| v.type_name())
    ))
    .into())
}

fn save(me: &mut Interpreter, call: Call) -> Eval<'_, Value> {
    Box::pin(async move {
        let object = call.value("obj")?.unwrap_or(Value::None);
        let path = path(me, &call, "f").await?;
        for setting in [
            "pickle_module",
            "pickle_protocol",
            "_use_new_zipfile_serialization",
            "_disable_byteorder_record",
        ] {
            // How PyTorch pickles: the lab writes its own format whatever they say.
            let _ = call.value(setting)?;
        }
        call.finish()?;
        let object = to_engine(&object, "torch.save")?;
        let files = Rc::clone(&me.files);
        me.engine_call(|_| Ok(serialization::save(&object, &path, &*files)?))
            .await?;
        Ok(Value::None)
    })
}

fn load(me: &mut Interpreter, call: Call) -> Eval<'_, Value> {
    Box::pin(async move {
        let path = path(me, &call, "f").await?;
        let weights_only = match call.value("weights_only")? {
            None | Some(Value::None) => true,
            Some(v) => v.truthy(),
        };
        if !matches!(
            call.value("mmap")?,
            None | Some(Value::None) | Some(Value::Bool(false))
        ) {
            return Err(super::ops::not_yet("torch.load(mmap=True)").into());
        }
        if !matches!(call.value("pickle_module")?, None | Some(Value::None)) {
            return Err(super::ops::not_yet("torch.load(pickle_module=...)").into());
        }
        if !call.extra_keywords().is_empty() {
            return Err(super::ops::not_yet("torch.load(**pickle_load_args)").into());
        }
        let place = call.value("map_location")?;
        call.finish()?;
        if let Some(place) = place
            .as_ref()
            .filter(|v| crate::python::builtins::is_callable(v))
        {
            return me.load_placing_with(&path, place, weights_only);
        }
        let map_location = match place {
            None | Some(Value::None) => MapLocation::Saved,
            Some(Value::Dict(ref entries)) => MapLocation::Remap(
                entries
                    .borrow()
                    .iter()
                    .map(|(k, v)| (k.str_text(), v.str_text()))
                    .collect(),
            ),
            Some(Value::Str(ref s)) => MapLocation::To(tolab_engine::Device::parse(s)?.to_string()),
            Some(Value::Device(d)) => MapLocation::To(d.to_string()),
            Some(other) => {
                return Err(PyException::unsupported(&format!(
                    "map_location of type '{}' (use a device string, a torch.device, a dict or a function)",
                    other.type_name()
                ))
                .into());
            }
        };
        Ok(from_engine(serialization::load(
            &me.session,
            &path,
            &*me.files,
            &map_location,
            weights_only,
        )?))
    })
}

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
}
