//! `torch.save` / `torch.load`: checkpoints of tensors and the Python containers around them
//! ([`Value`]: dicts, lists, tuples, numbers, strings) in a file system the host provides — real files
//! natively, memory in the browser. Each tensor keeps the device it was saved from, and loading
//! restores it there unless `map_location` says otherwise, with PyTorch's errors when that device
//! does not exist.
//!
//! The file is the lab's own format (a JSON header, then the tensors' bytes), not PyTorch's zip of
//! pickles; what a learner can observe — devices, dtypes, values, `requires_grad`, errors — follows
//! PyTorch.

use serde::{Deserialize, Serialize};

pub use crate::value::{Key, Value};

use crate::device::{Device, DeviceType};
use crate::dtype::DType;
use crate::error::Error;
use crate::nn::{Layer, Module, ModuleParts};
use crate::session::Session;
use crate::storage::CpuStorage;
use crate::tensor::Tensor;
use crate::transfer::{Target, To};

/// The first bytes of every checkpoint.
const MAGIC: &[u8; 8] = b"TOLABPT1";

#[cfg(not(target_arch = "wasm32"))]
pub use crate::files::DiskFiles;
pub use crate::files::{Files, MemoryFiles};

/// Restores a saved tensor somewhere else: it gets the tensor (already on the CPU) and the
/// location it was saved from; `None` keeps the default.
pub type RestoreFn<'a> = dyn Fn(&Tensor, &str) -> Result<Option<Tensor>, Error> + 'a;

/// `torch.load(map_location=...)`.
pub enum MapLocation<'a> {
    /// Every tensor back where it was saved from.
    Saved,
    /// A device string or `torch.device`: every tensor there.
    To(String),
    /// A dict from saved locations to new ones (`{'cuda:1': 'cuda:0'}`).
    Remap(Vec<(String, String)>),
    /// A callable `(storage, location)`.
    Call(&'a RestoreFn<'a>),
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Node {
    None,
    Bool(bool),
    Int(i64),
    /// The bits of an f64 (JSON has no inf or nan).
    Float(u64),
    Str(String),
    List(Vec<Node>),
    Tuple(Vec<Node>),
    Dict(Vec<(Key, Node)>),
    Tensor(TensorRecord),
    Module(Box<ModuleRecord>),
}

/// A whole module: what its class is and what it holds.
#[derive(Serialize, Deserialize)]
struct ModuleRecord {
    layer: Layer,
    training: bool,
    parameters: Vec<(String, Option<Node>)>,
    /// Name, tensor, persistent.
    buffers: Vec<(String, Option<Node>, bool)>,
    children: Vec<(String, Option<Node>)>,
}

#[derive(Serialize, Deserialize)]
struct TensorRecord {
    dtype: DType,
    shape: Vec<usize>,
    /// Where it was saved from, as PyTorch tags storages: `cpu`, `cuda:0`, `mps`, `meta`.
    location: String,
    requires_grad: bool,
    /// Its bytes in the data section.
    start: usize,
    length: usize,
}

/// `torch.save(obj, path)`.
pub fn save(obj: &Value, path: &str, files: &dyn Files) -> Result<(), Error> {
    let mut data = Vec::new();
    let root = encode(obj, &mut data)?;
    let header = serde_json::to_vec(&root).map_err(|e| Error::FileAccess {
        path: path.into(),
        reason: e.to_string(),
    })?;
    let mut bytes = Vec::with_capacity(MAGIC.len() + 8 + header.len() + data.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&(header.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&header);
    bytes.extend_from_slice(&data);
    // As torch/serialization.py checks before it opens the file.
    if let Some((dir, _)) = path.rsplit_once('/')
        && !dir.is_empty()
        && files.entry(dir) != Some(crate::files::Entry::Dir)
    {
        return Err(Error::ParentDirectoryMissing { dir: dir.into() });
    }
    files.write(path, bytes)
}

fn encode(obj: &Value, data: &mut Vec<u8>) -> Result<Node, Error> {
    let many = |items: &[Value], data: &mut Vec<u8>| -> Result<Vec<Node>, Error> {
        items.iter().map(|i| encode(i, data)).collect()
    };
    Ok(match obj {
        Value::None => Node::None,
        Value::Bool(b) => Node::Bool(*b),
        Value::Int(i) => Node::Int(*i),
        Value::Float(x) => Node::Float(x.to_bits()),
        Value::Str(s) => Node::Str(s.clone()),
        Value::List(items) => Node::List(many(items, data)?),
        Value::Tuple(items) => Node::Tuple(many(items, data)?),
        Value::Dict(entries) => Node::Dict(
            entries
                .iter()
                .map(|(k, v)| Ok((k.clone(), encode(v, data)?)))
                .collect::<Result<_, Error>>()?,
        ),
        Value::Module(m) => {
            let parts = m.parts();
            let tensor = |t: &Option<Tensor>, data: &mut Vec<u8>| {
                t.as_ref()
                    .map(|t| encode(&Value::Tensor(t.clone()), data))
                    .transpose()
            };
            let mut record = ModuleRecord {
                layer: parts.layer,
                training: parts.training,
                parameters: Vec::new(),
                buffers: Vec::new(),
                children: Vec::new(),
            };
            for (name, t) in &parts.parameters {
                record.parameters.push((name.clone(), tensor(t, data)?));
            }
            for (name, t, persistent) in &parts.buffers {
                record
                    .buffers
                    .push((name.clone(), tensor(t, data)?, *persistent));
            }
            for (name, child) in parts.children {
                let node = child.map(|c| encode(&Value::Module(c), data)).transpose()?;
                record.children.push((name, node));
            }
            Node::Module(Box::new(record))
        }
        Value::Tensor(t) => {
            let bytes = if t.device().kind == DeviceType::Meta {
                Vec::new()
            } else {
                // Saving reads the values back to the host: a sync point.
                t.session().sync(t.device(), "torch.save")?;
                t.read(|cpu| cpu.gather(t.layout(), t.dtype()).to_bytes())?
            };
            let record = TensorRecord {
                dtype: t.dtype(),
                shape: t.shape().to_vec(),
                location: location_tag(t.device()),
                requires_grad: t.requires_grad(),
                start: data.len(),
                length: bytes.len(),
            };
            data.extend_from_slice(&bytes);
            Node::Tensor(record)
        }
    })
}

/// PyTorch's location tag of a storage: GPU devices always with their index.
fn location_tag(device: Device) -> String {
    match device.kind {
        DeviceType::Cuda => format!("cuda:{}", device.index.unwrap_or(0)),
        _ => device.kind.name().to_owned(),
    }
}

/// `torch.load(path, map_location, weights_only)`. `weights_only=True`, the default since
/// PyTorch 2.6, accepts tensors and plain containers but refuses a whole module, naming its class.
pub fn load(
    session: &Session,
    path: &str,
    files: &dyn Files,
    map_location: &MapLocation,
    weights_only: bool,
) -> Result<Value, Error> {
    let bytes = files.read(path)?;
    let corrupt = || Error::NotACheckpoint;
    let rest = bytes.strip_prefix(MAGIC.as_slice()).ok_or_else(corrupt)?;
    let (length, rest) = rest.split_first_chunk::<8>().ok_or_else(corrupt)?;
    let length = usize::try_from(u64::from_le_bytes(*length)).map_err(|_| corrupt())?;
    if rest.len() < length {
        return Err(corrupt());
    }
    let (header, data) = rest.split_at(length);
    let root: Node = serde_json::from_slice(header).map_err(|_| corrupt())?;
    if weights_only && let Some(class) = first_module(&root) {
        return Err(Error::WeightsOnly { class });
    }
    decode(session, root, data, map_location)
}

fn decode(
    session: &Session,
    node: Node,
    data: &[u8],
    map_location: &MapLocation,
) -> Result<Value, Error> {
    let many = |items: Vec<Node>| -> Result<Vec<Value>, Error> {
        items
            .into_iter()
            .map(|i| decode(session, i, data, map_location))
            .collect()
    };
    Ok(match node {
        Node::None => Value::None,
        Node::Bool(b) => Value::Bool(b),
        Node::Int(i) => Value::Int(i),
        Node::Float(bits) => Value::Float(f64::from_bits(bits)),
        Node::Str(s) => Value::Str(s),
        Node::List(items) => Value::List(many(items)?),
        Node::Tuple(items) => Value::Tuple(many(items)?),
        Node::Dict(entries) => Value::Dict(
            entries
                .into_iter()
                .map(|(k, v)| Ok((k, decode(session, v, data, map_location)?)))
                .collect::<Result<_, Error>>()?,
        ),
        Node::Tensor(record) => Value::Tensor(restore(session, &record, data, map_location)?),
        Node::Module(record) => {
            let ModuleRecord {
                layer,
                training,
                parameters,
                buffers,
                children,
            } = *record;
            let tensor = |node: Option<Node>| -> Result<Option<Tensor>, Error> {
                match node
                    .map(|n| decode(session, n, data, map_location))
                    .transpose()?
                {
                    Some(Value::Tensor(t)) => Ok(Some(t)),
                    _ => Ok(None),
                }
            };
            let mut parts = ModuleParts {
                layer,
                training,
                parameters: Vec::new(),
                buffers: Vec::new(),
                children: Vec::new(),
            };
            for (name, node) in parameters {
                parts.parameters.push((name, tensor(node)?));
            }
            for (name, node, persistent) in buffers {
                parts.buffers.push((name, tensor(node)?, persistent));
            }
            for (name, node) in children {
                let child = match node
                    .map(|n| decode(session, n, data, map_location))
                    .transpose()?
                {
                    Some(Value::Module(m)) => Some(m),
                    _ => None,
                };
                parts.children.push((name, child));
            }
            Value::Module(Module::from_parts(parts)?)
        }
    })
}

/// A saved tensor, read onto the CPU first and then placed as `map_location` says.
fn restore(
    session: &Session,
    record: &TensorRecord,
    data: &[u8],
    map_location: &MapLocation,
) -> Result<Tensor, Error> {
    let host = if record.location == "meta" {
        Tensor::full(
            session,
            &record.shape,
            crate::element::Scalar::Int(0),
            record.dtype,
            Device::META,
        )?
    } else {
        let bytes = data
            .get(record.start..record.start + record.length)
            .ok_or(Error::NotACheckpoint)?;
        let storage = CpuStorage::from_bytes(record.dtype, bytes).ok_or(Error::NotACheckpoint)?;
        Tensor::from_cpu_data(session, storage, &record.shape, Device::CPU, "load")?
    };
    let placed = match map_location {
        MapLocation::Saved => default_restore(session, host, &record.location)?,
        MapLocation::To(location) => default_restore(session, host, location)?,
        MapLocation::Remap(pairs) => {
            let location = pairs
                .iter()
                .find(|(from, _)| *from == record.location)
                .map_or(record.location.as_str(), |(_, to)| to.as_str());
            default_restore(session, host, location)?
        }
        MapLocation::Call(f) => match f(&host, &record.location)? {
            Some(tensor) => tensor,
            None => default_restore(session, host, &record.location)?,
        },
    };
    if record.requires_grad {
        placed.set_requires_grad(true)?;
    }
    Ok(placed)
}

/// `default_restore_location`: a CPU tensor moved to `location`, refusing devices this machine
/// lacks with PyTorch's advice to use `map_location`.
fn default_restore(session: &Session, host: Tensor, location: &str) -> Result<Tensor, Error> {
    let device = Device::parse(location).map_err(|_| Error::UnknownLocation {
        location: location.into(),
    })?;
    match device.kind {
        DeviceType::Cpu | DeviceType::Meta => {}
        DeviceType::Cuda => {
            if !session.is_available() {
                return Err(Error::CheckpointDeviceUnavailable { backend: "cuda" });
            }
            let index = match device.index {
                Some(i) => i as usize,
                None => session.current_device()?,
            };
            let count = session.device_count();
            if index >= count {
                return Err(Error::CheckpointDeviceIndex {
                    backend: "cuda",
                    index,
                    count,
                });
            }
        }
        DeviceType::Mps => {}
        _ => {
            return Err(Error::UnknownLocation {
                location: location.into(),
            });
        }
    }
    if device == Device::CPU {
        return Ok(host);
    }
    host.to(To {
        device: Some(Target::Device(device)),
        ..To::default()
    })
}

/// The class of the first module a pickle would meet in `node`, depth first.
fn first_module(node: &Node) -> Option<String> {
    match node {
        Node::Module(record) => Some(record.layer.qualified_name()),
        Node::List(items) | Node::Tuple(items) => items.iter().find_map(first_module),
        Node::Dict(entries) => entries.iter().find_map(|(_, v)| first_module(v)),
        _ => None,
    }
}
