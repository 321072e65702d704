//! The engine's one error type. Its `Display` is the text a learner sees, PyTorch's own wording
//! where PyTorch has one; [`Error::python_type`] says which Python exception carries it.

use thiserror::Error;

use crate::device::DEVICE_TYPE_NAMES;

/// The Python exception class an engine error surfaces as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PythonType {
    RuntimeError,
    ValueError,
    TypeError,
    IndexError,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    #[error("Device string must not be empty")]
    EmptyDeviceString,
    #[error("Invalid device string: '{string}'")]
    InvalidDeviceString { string: String },
    #[error("Could not parse device index '{index}' in device string '{string}'")]
    UnparsableDeviceIndex { index: String, string: String },
    #[error("Expected one of {} device type at start of device string: {name}", DEVICE_TYPE_NAMES.join(", "))]
    UnknownDeviceType { name: String },
    #[error(
        "type (string) must not include an index because index was passed explicitly: {string}"
    )]
    IndexGivenTwice { string: String },
    #[error("Device index must not be negative")]
    NegativeDeviceIndex,
}

impl Error {
    pub fn python_type(&self) -> PythonType {
        match self {
            Error::EmptyDeviceString
            | Error::InvalidDeviceString { .. }
            | Error::UnparsableDeviceIndex { .. }
            | Error::UnknownDeviceType { .. }
            | Error::IndexGivenTwice { .. }
            | Error::NegativeDeviceIndex => PythonType::RuntimeError,
        }
    }
}

impl PythonType {
    pub fn name(self) -> &'static str {
        match self {
            PythonType::RuntimeError => "RuntimeError",
            PythonType::ValueError => "ValueError",
            PythonType::TypeError => "TypeError",
            PythonType::IndexError => "IndexError",
        }
    }
}
