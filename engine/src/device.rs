//! `torch.device`: parsing, equality and printing exactly as PyTorch does them.
//!
//! The parser is c10's `Device(const std::string&)` (c10/core/Device.cpp): a type name of letters
//! and `_`, then optionally `:` and an index without leading zeros. Like c10, the index is an
//! `int8_t` (`c10::DeviceIndex`), so `cuda:128` wraps to `cuda:-128` and `cuda:255` to `cuda` — the
//! lab keeps these quirks because learners can see them in their own PyTorch.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::Error;

/// Every device type PyTorch's parser accepts, in the order its error message lists them.
pub const DEVICE_TYPE_NAMES: [&str; 20] = [
    "cpu",
    "cuda",
    "ipu",
    "xpu",
    "mkldnn",
    "opengl",
    "opencl",
    "ideep",
    "hip",
    "ve",
    "fpga",
    "maia",
    "xla",
    "lazy",
    "vulkan",
    "mps",
    "meta",
    "hpu",
    "mtia",
    "privateuseone",
];

/// A device type. The lab runs `cpu`, `cuda`, `mps` and `meta`; the others parse (as in PyTorch)
/// but have no backend here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeviceType {
    Cpu,
    Cuda,
    Mps,
    Meta,
    /// A type PyTorch knows but the lab does not run (`xla`, `hip`, …), by its name.
    Other(OtherDeviceType),
}

/// A device type name from [`DEVICE_TYPE_NAMES`] without a backend in the lab.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OtherDeviceType(&'static str);

impl DeviceType {
    pub fn name(self) -> &'static str {
        match self {
            DeviceType::Cpu => "cpu",
            DeviceType::Cuda => "cuda",
            DeviceType::Mps => "mps",
            DeviceType::Meta => "meta",
            DeviceType::Other(OtherDeviceType(name)) => name,
        }
    }

    /// c10's `parse_type`: the exact lowercase names only.
    fn parse(name: &str) -> Result<Self, Error> {
        let known = DEVICE_TYPE_NAMES
            .iter()
            .find(|n| **n == name)
            .ok_or_else(|| Error::UnknownDeviceType {
                name: name.to_owned(),
            })?;
        Ok(match *known {
            "cpu" => DeviceType::Cpu,
            "cuda" => DeviceType::Cuda,
            "mps" => DeviceType::Mps,
            "meta" => DeviceType::Meta,
            other => DeviceType::Other(OtherDeviceType(other)),
        })
    }
}

/// `torch.device`: a type and an optional index. `cuda` (no index: "the current CUDA device")
/// and `cuda:0` are different devices and compare unequal.
///
/// It crosses the message boundary as its string form (`"cuda:0"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Device {
    pub kind: DeviceType,
    pub index: Option<i8>,
}

impl Device {
    pub const CPU: Device = Device {
        kind: DeviceType::Cpu,
        index: None,
    };
    pub const META: Device = Device {
        kind: DeviceType::Meta,
        index: None,
    };

    pub fn cuda(index: i8) -> Device {
        Device {
            kind: DeviceType::Cuda,
            index: Some(index),
        }
    }

    /// `torch.device("cuda:1")`.
    pub fn parse(text: &str) -> Result<Device, Error> {
        if text.is_empty() {
            return Err(Error::EmptyDeviceString);
        }
        let invalid = || Error::InvalidDeviceString {
            string: text.to_owned(),
        };
        let (name, index) = match text.split_once(':') {
            Some((name, index)) => (name, Some(index)),
            None => (text, None),
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphabetic() || c == '_') {
            return Err(invalid());
        }
        let index = match index {
            None => None,
            Some(digits) => {
                let well_formed = !digits.is_empty()
                    && digits.chars().all(|c| c.is_ascii_digit())
                    && (digits == "0" || !digits.starts_with('0'));
                if !well_formed {
                    return Err(invalid());
                }
                // c10 reads the digits with std::stoi (an int) and stores them in an int8_t.
                let value: i32 = digits.parse().map_err(|_| Error::UnparsableDeviceIndex {
                    index: digits.to_owned(),
                    string: text.to_owned(),
                })?;
                Some(value)
            }
        };
        let kind = DeviceType::parse(name)?;
        Ok(Device {
            kind,
            index: index.and_then(wrap_index),
        })
    }

    /// `torch.device("cuda", 1)`: a type string without an index, and an explicit index.
    pub fn with_index(type_text: &str, index: Option<i64>) -> Result<Device, Error> {
        let Some(index) = index else {
            return Device::parse(type_text);
        };
        if index < 0 {
            return Err(Error::NegativeDeviceIndex);
        }
        let parsed = Device::parse(type_text)?;
        if parsed.index.is_some() || type_text.contains(':') {
            return Err(Error::IndexGivenTwice {
                string: type_text.to_owned(),
            });
        }
        let index = i32::try_from(index).map_err(|_| Error::UnparsableDeviceIndex {
            index: index.to_string(),
            string: type_text.to_owned(),
        })?;
        Ok(Device {
            kind: parsed.kind,
            index: wrap_index(index),
        })
    }

    pub fn is_cpu(self) -> bool {
        self.kind == DeviceType::Cpu
    }

    /// Python's `repr(device)`: `device(type='cuda', index=0)`.
    pub fn repr(self) -> String {
        match self.index {
            // CPython formats the int8 index through an unsigned 16-bit conversion.
            Some(i) => format!(
                "device(type='{}', index={})",
                self.kind.name(),
                i as i16 as u16
            ),
            None => format!("device(type='{}')", self.kind.name()),
        }
    }
}

/// Stores an index the way c10 does: truncated to `int8_t`, where -1 means "no index".
fn wrap_index(value: i32) -> Option<i8> {
    match value as i8 {
        -1 => None,
        i => Some(i),
    }
}

impl fmt::Display for Device {
    /// Python's `str(device)`: `cuda:0`, `cpu`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Some(i) => write!(f, "{}:{i}", self.kind.name()),
            None => f.write_str(self.kind.name()),
        }
    }
}

impl std::str::FromStr for Device {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Device::parse(s)
    }
}

impl From<Device> for String {
    fn from(device: Device) -> String {
        device.to_string()
    }
}

impl TryFrom<String> for Device {
    type Error = Error;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        Device::parse(&text)
    }
}
